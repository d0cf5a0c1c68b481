"""Neural-network workloads of issue 7 (bench/nn_bench.cpp against bench/reference_nn.py, PyTorch
float64 with torch.set_num_threads equal to dagml's thread count), in the format of compare.py:
  mlp_epoch_1t, mlp_epoch_2t, cnn_epoch_1t: dagml vs PyTorch, with both test accuracies;
  mlp_thread_speedup: dagml 1 thread vs dagml 2 threads;
  mlp_gemm_bound, cnn_gemm_bound: dagml's one-thread epoch vs its matrix products alone."""
import json
import os
import subprocess

from compare import REFERENCE_PYTHON, HERE, line


def dagml_runs(build_dir, bench_filter):
    path = os.path.join(build_dir, "bench", "nn_bench")
    out = subprocess.run([path, f"--benchmark_filter={bench_filter}", "--benchmark_format=json"], check=True,
                         capture_output=True, text=True).stdout
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    return {b["name"].replace("/real_time", ""): (b["real_time"] * scale[b["time_unit"]], b.get("test_accuracy"))
            for b in json.loads(out)["benchmarks"]}


def reference(threads, workloads):
    out = subprocess.run([REFERENCE_PYTHON, os.path.join(HERE, "reference_nn.py"), str(threads)] + workloads,
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def run(build_dir, wanted):
    names = ["mlp_epoch_1t", "mlp_epoch_2t", "mlp_thread_speedup", "cnn_epoch_1t", "mlp_gemm_bound", "cnn_gemm_bound"]
    names = [n for n in names if wanted in n]
    if not names:
        return
    need_mlp = any(n.startswith("mlp") for n in names)
    need_cnn = any(n.startswith("cnn") for n in names)
    filters = []
    if need_mlp:
        filters += ["mlp_epoch/1/", "mlp_epoch/2/", "mlp_gemm_bound"]
    if need_cnn:
        filters += ["cnn_epoch/1/", "cnn_gemm_bound"]
    d = dagml_runs(build_dir, "|".join(filters))
    ref_workloads = (["mlp_epoch"] if "mlp_epoch_1t" in names else []) + (["cnn_epoch"] if "cnn_epoch_1t" in names else [])
    r1 = reference(1, ref_workloads) if ref_workloads else {}
    if "mlp_epoch_1t" in names:
        t, acc = d["mlp_epoch/1"]
        ref = r1["mlp_epoch"]
        line("mlp_epoch_1t", t, ref["seconds"],
             f" (target ratio <= 0.8; test accuracy dagml {acc:.4f}, PyTorch {ref['test_accuracy']:.4f})")
    if "mlp_epoch_2t" in names:
        r2 = reference(2, ["mlp_epoch"])["mlp_epoch"]
        t, acc = d["mlp_epoch/2"]
        line("mlp_epoch_2t", t, r2["seconds"],
             f" (test accuracy dagml {acc:.4f}, PyTorch {r2['test_accuracy']:.4f})")
    if "mlp_thread_speedup" in names:
        line("mlp_thread_speedup", d["mlp_epoch/2"][0], d["mlp_epoch/1"][0],
             f" (dagml 2 threads / 1 thread; speed-up {d['mlp_epoch/1'][0] / d['mlp_epoch/2'][0]:.2f}, target >= 1.7)")
    if "cnn_epoch_1t" in names:
        t, acc = d["cnn_epoch/1"]
        ref = r1["cnn_epoch"]
        line("cnn_epoch_1t", t, ref["seconds"],
             f" (target ratio <= 1.0; test accuracy dagml {acc:.4f}, PyTorch {ref['test_accuracy']:.4f})")
    if "mlp_gemm_bound" in names:
        line("mlp_gemm_bound", d["mlp_epoch/1"][0], d["mlp_gemm_bound"][0],
             " (dagml one-thread epoch / its matrix products alone in Eigen)")
    if "cnn_gemm_bound" in names:
        line("cnn_gemm_bound", d["cnn_epoch/1"][0], d["cnn_gemm_bound"][0],
             " (dagml one-thread epoch / its matrix products alone in Eigen)")
