"""Neural-network workloads (bench/nn_bench.cpp against bench/reference_nn.py, PyTorch with
torch.set_num_threads and threadpoolctl limits equal to dagml's thread count), in the format of
compare.py. dagml trains in float64; each epoch workload prints two lines, against PyTorch in
float32 (what its users run; the issue-19 targets) and in float64 (the same arithmetic):
  mlp_epoch_1t, mlp_epoch_1t_float64, mlp_epoch_2t, mlp_epoch_2t_float64, cnn_epoch_1t,
  cnn_epoch_1t_float64: dagml vs PyTorch, with both test accuracies and both peak resident
  memories (each side's whole process: one process per workload and precision);
  mlp_thread_speedup: dagml 1 thread vs dagml 2 threads;
  mlp_gemm_bound, cnn_gemm_bound: dagml's one-thread epoch vs its matrix products alone."""
from compare import benchmark_alone, line, run_reference

# workload name -> (nn_bench benchmark, PyTorch workload, threads, target ratio against float32)
EPOCHS = {
    "mlp_epoch_1t": ("mlp_epoch/1", "mlp_epoch", 1, "<= 0.8"),
    "mlp_epoch_2t": ("mlp_epoch/2", "mlp_epoch", 2, None),
    "cnn_epoch_1t": ("cnn_epoch/1", "cnn_epoch", 1, "<= 1.0"),
}


def dagml_run(build_dir, benchmark):
    """(seconds, test accuracy or None, peak resident MiB) of one nn_bench benchmark in its own process."""
    b, peak = benchmark_alone(build_dir, "nn_bench", f"^{benchmark}(/|$)")
    return b["seconds"], b.get("test_accuracy"), peak


def run(build_dir, wanted):
    epochs = [n for n in EPOCHS if wanted in n or wanted in n + "_float64"]
    speedup = wanted in "mlp_thread_speedup"
    bounds = [n for n in ("mlp_gemm_bound", "cnn_gemm_bound") if wanted in n]
    dagml = {}
    for name in epochs + (["mlp_epoch_1t", "mlp_epoch_2t"] if speedup else []) + \
            [{"mlp_gemm_bound": "mlp_epoch_1t", "cnn_gemm_bound": "cnn_epoch_1t"}[b] for b in bounds]:
        if name not in dagml:
            dagml[name] = dagml_run(build_dir, EPOCHS[name][0])
    for name in epochs:
        _, workload, threads, target = EPOCHS[name]
        seconds, accuracy, peak = dagml[name]
        for dtype, suffix in (("float32", ""), ("float64", "_float64")):
            ref, ref_peak = run_reference("reference_nn.py", str(threads), dtype, workload, with_peak_memory=True)
            r = ref[workload]
            goal = f"target ratio {target}; " if target and dtype == "float32" else ""
            line(name + suffix, seconds, r["seconds"],
                 f" ({goal}dagml float64 against PyTorch {dtype}, {threads} thread(s); test accuracy dagml "
                 f"{accuracy:.4f}, PyTorch {r['test_accuracy']:.4f}; peak memory dagml {peak:.0f} MiB, PyTorch "
                 f"{ref_peak:.0f} MiB; reference BLAS: {ref['blas']})")
    if speedup:
        one, two = dagml["mlp_epoch_1t"][0], dagml["mlp_epoch_2t"][0]
        line("mlp_thread_speedup", two, one, f" (dagml 2 threads / 1 thread; speed-up {one / two:.2f}, target >= 1.7)")
    for bound in bounds:
        epoch = {"mlp_gemm_bound": "mlp_epoch_1t", "cnn_gemm_bound": "cnn_epoch_1t"}[bound]
        products, _, _ = dagml_run(build_dir, bound)
        line(bound, dagml[epoch][0], products, " (dagml one-thread epoch / its matrix products alone in Eigen)")
