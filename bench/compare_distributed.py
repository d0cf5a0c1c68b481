"""Distributed-training workloads of issue 17 (bench/distributed_bench.cpp under mpirun), in the
format of compare.py. The reference of each line is dagml's own one-process, one-thread run of the
same workload (no library offers a bitwise-deterministic data-parallel fit to compare with):
  distributed_mlp_epoch_{2,8}chunks_2x1, _1x2:  one epoch of the MLP 784-256-128-10, 469 steps of
                                          batches of 128 in 2 or 8 chunks
  distributed_lbfgs_logistic_2x1, _1x2:  30 L-BFGS iterations of softmax regression on 60,000 rows
  distributed_boosting_2x1, _1x2:        3 rounds of the 10-class boosting classifier on 60,000 rows
                                          in 4 chunks (one histogram reduction per split)
(ranks x threads). Each line gives the scaling efficiency T(1x1) / (2 T), the time spent in
collectives per step, and whether the result's checksum equals the 1x1 run's. Then the cost model
of docs/distributed.md: alpha and beta of an allgather measured on this machine, and the
projection of each step to 8, 64 and 512 ranks."""
import json
import math
import os
import shutil
import subprocess

from compare import line

MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}

# Assumed cluster networks for the projection (not measured here): latency alpha in seconds and
# inverse bandwidth beta in seconds per byte, typical published figures for MPI over each.
NETWORKS = {"InfiniBand HDR (assumed: 2 us, 20 GB/s)": (2e-6, 1 / 20e9),
            "10 Gb Ethernet (assumed: 25 us, 1.1 GB/s)": (25e-6, 1 / 1.1e9)}


def bench(build_dir, ranks, threads, workload, chunks=None):
    program = os.path.join(build_dir, "bench", "distributed_bench")
    mpirun = shutil.which("mpirun")
    command = [program, workload, str(threads)] + ([str(chunks)] if chunks else [])
    if mpirun:
        # No binding: Open MPI would bind a lone rank to one core, and its threads with it. Shared
        # memory by copy-in/copy-out: on this machine its default single copy (CMA,
        # process_vm_readv) moved an MLP step's 1.9 MB in about 0.33 ms, the two copies in 0.20
        # (docs/distributed.md, Launching).
        command = [mpirun, "-np", str(ranks), "--bind-to", "none", "--mca", "btl", "self,vader",
                   "--mca", "btl_vader_single_copy_mechanism", "none", *command]
    elif ranks > 1:
        raise RuntimeError("mpirun is not installed: the distributed benchmark needs Open MPI")
    out = subprocess.run(command, check=True, capture_output=True, text=True, env={**os.environ, **MPI_ENV}).stdout
    return json.loads(out.strip().splitlines()[-1])


def comm_model(alpha, beta, ranks, width, chunks):
    """Seconds of one fixed-order chunk reduction today: an allgather of `chunks` partials of
    `width` doubles, each rank receiving those of the other ranks."""
    if ranks == 1:
        return 0.0
    return alpha * math.ceil(math.log2(ranks)) + beta * 8 * width * chunks * (ranks - 1) / ranks


def reduce_scatter_model(alpha, beta, ranks, width):
    """The fixed-order reduce-scatter then allgather of the slices (not built): about 2·width per rank."""
    if ranks == 1:
        return 0.0
    return 2 * alpha * math.ceil(math.log2(ranks)) + 2 * beta * 8 * width * (ranks - 1) / ranks


def run(build_dir, wanted):
    # (name, program workload, chunks, numbers per chunk partial: the loss and the gradient)
    workloads = [("distributed_mlp_epoch_2chunks", "mlp_epoch", 2, 235_146 + 1),
                 ("distributed_mlp_epoch_8chunks", "mlp_epoch", 8, 235_146 + 1),
                 ("distributed_lbfgs_logistic", "lbfgs_logistic", 16, 7_850 + 1),
                 # A histogram: (sum g, sum h, rows) per bin and the missing bin of 784 features of
                 # at most 255 bins (the totals and losses between are a few numbers).
                 ("distributed_boosting", "boosting", 4, 3 * 784 * 256)]
    chosen = [w for w in workloads if wanted in w[0]]
    if not chosen:
        return
    model = {}
    for name, workload, chunks, width in chosen:
        one = bench(build_dir, 1, 1, workload, chunks)
        per_step = one["seconds"] / one["reductions"]
        model[name] = (per_step, chunks, width)
        for ranks, threads in ((2, 1), (1, 2)):
            r = bench(build_dir, ranks, threads, workload, chunks)
            efficiency = one["seconds"] / (2 * r["seconds"])
            comm_ms = 1e3 * r["comm_seconds"] / r["reductions"]
            same = "same checksum as 1x1" if r["checksum"] == one["checksum"] else \
                f"CHECKSUM DIFFERS from 1x1 ({r['checksum']} vs {one['checksum']})"
            line(f"{name}_{ranks}x{threads}", r["seconds"], one["seconds"],
                 f" (ranks x threads {ranks}x{threads} against 1x1, {chunks} chunks; scaling efficiency "
                 f"{efficiency:.2f}, target >= 0.85 at 2 ranks; {r['reductions']} reductions, {comm_ms:.3f} ms per "
                 f"reduction in collectives ({100 * r['comm_seconds'] / r['seconds']:.1f}% of the time); {same})")
    c = bench(build_dir, 2, 1, "collectives")
    alpha, beta = c["alpha"], c["beta"]
    print(f"# cost model: allgather between 2 ranks on this machine (shared memory): alpha = {alpha * 1e6:.2f} us, "
          f"beta = {beta * 1e9:.3f} ns/byte ({1 / beta / 1e9 if beta > 0 else float('inf'):.1f} GB/s)", flush=True)
    networks = {"this machine (measured)": (alpha, beta), **NETWORKS}
    for name, (per_step, chunks, width) in model.items():
        print(f"# {name}: computation {per_step * 1e3:.2f} ms per step on 1 rank x 1 thread, "
              f"{width} numbers per chunk partial", flush=True)
        for net, (a, b) in networks.items():
            cells = []
            for p in (2, 8, 64, 512):
                # Strong scaling: the step's computation split over p ranks; the chunks at least p.
                compute = per_step / p
                now = comm_model(a, b, p, width, max(chunks, p))
                better = reduce_scatter_model(a, b, p, width)
                cells.append(f"p={p}: compute {compute * 1e3:.3g} ms, allgather {now * 1e3:.3g} ms "
                             f"(reduce-scatter {better * 1e3:.3g} ms)")
            print(f"#   {net}: " + "; ".join(cells), flush=True)
