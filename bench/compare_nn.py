"""Neural-network workloads (bench/nn_bench.cpp against bench/reference_nn.py, PyTorch with
torch.set_num_threads and threadpoolctl limits equal to dagml's thread count), in the format of
compare.py. Each epoch workload prints two lines, against PyTorch in float32 (what its users run;
the issue-19 targets) and in float64, dagml training in the same precision as PyTorch (dagml's
float32 is its single-precision products, Note [Single-precision products] in
models/nn/layer.h).
  mlp_epoch_1t, mlp_epoch_1t_float64, mlp_epoch_2t, mlp_epoch_2t_float64, cnn_epoch_1t,
  cnn_epoch_1t_float64: dagml vs PyTorch, with both test accuracies and both peak resident
  memories (each side's whole process: one process per workload and precision);
  mlp_thread_speedup, mlp_thread_speedup_float64: dagml 1 thread vs dagml 2 threads;
  mlp_gemm_bound, cnn_gemm_bound: dagml's one-thread float64 epoch vs its matrix products alone."""
from compare import benchmark_alone, line, run_reference

# workload name -> ({precision: nn_bench benchmark}, PyTorch workload, threads, target ratio against float32)
EPOCHS = {
    "mlp_epoch_1t": ({"float32": "mlp_epoch_float32/1", "float64": "mlp_epoch/1"}, "mlp_epoch", 1, "<= 0.8"),
    "mlp_epoch_2t": ({"float32": "mlp_epoch_float32/2", "float64": "mlp_epoch/2"}, "mlp_epoch", 2, None),
    "cnn_epoch_1t": ({"float32": "cnn_epoch_float32/1", "float64": "cnn_epoch/1"}, "cnn_epoch", 1, "<= 1.0"),
}


def dagml_run(build_dir, benchmark):
    """(seconds, test accuracy or None, peak resident MiB) of one nn_bench benchmark in its own process."""
    b, peak = benchmark_alone(build_dir, "nn_bench", f"^{benchmark}(/|$)")
    return b["seconds"], b.get("test_accuracy"), peak


def run(build_dir, wanted):
    epochs = [n for n in EPOCHS if wanted in n or wanted in n + "_float64"]
    speedups = [n for n in ("mlp_thread_speedup", "mlp_thread_speedup_float64") if wanted in n]
    bounds = [n for n in ("mlp_gemm_bound", "cnn_gemm_bound") if wanted in n]
    runs = {}  # nn_bench benchmark -> (seconds, accuracy, peak)

    def dagml(benchmark):
        if benchmark not in runs:
            runs[benchmark] = dagml_run(build_dir, benchmark)
        return runs[benchmark]

    for name in epochs:
        benchmarks, workload, threads, target = EPOCHS[name]
        for dtype, suffix in (("float32", ""), ("float64", "_float64")):
            seconds, accuracy, peak = dagml(benchmarks[dtype])
            ref, ref_peak = run_reference("reference_nn.py", str(threads), dtype, workload, with_peak_memory=True)
            r = ref[workload]
            goal = f"target ratio {target}; " if target and dtype == "float32" else ""
            line(name + suffix, seconds, r["seconds"],
                 f" ({goal}dagml {dtype} against PyTorch {dtype}, {threads} thread(s); "
                 f"test accuracy dagml {accuracy:.4f}, PyTorch {r['test_accuracy']:.4f}; peak memory dagml "
                 f"{peak:.0f} MiB, PyTorch {ref_peak:.0f} MiB; reference BLAS: {ref['blas']})")
    for name in speedups:
        dtype = "float64" if name.endswith("float64") else "float32"
        one = dagml(EPOCHS["mlp_epoch_1t"][0][dtype])[0]
        two = dagml(EPOCHS["mlp_epoch_2t"][0][dtype])[0]
        target = ", target >= 1.7" if dtype == "float32" else ""
        line(name, two, one, f" (dagml {dtype}, 2 threads / 1 thread; speed-up {one / two:.2f}{target})")
    for bound in bounds:
        epoch = {"mlp_gemm_bound": "mlp_epoch/1", "cnn_gemm_bound": "cnn_epoch/1"}[bound]
        products, _, _ = dagml_run(build_dir, bound)
        line(bound, dagml(epoch)[0], products, " (dagml one-thread float64 epoch / its matrix products alone in Eigen)")
