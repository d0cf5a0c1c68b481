"""PyTorch side of the foundation workloads (float64, one thread), timed the way
bench/autodiff_bench.cpp times dagml. Prints one JSON object: {workload: seconds}."""
import json
import sys
import time

import torch

from reference_common import blas_description

torch.set_num_threads(1)
torch.set_default_dtype(torch.float64)


def best_of(fn, repeats):
    fn()  # warm-up
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def scalar_chain_build():
    x = torch.tensor(0.1, requires_grad=True)
    y = x
    for _ in range(33_333):
        y = torch.sin(y) * 0.5 + x
    (dx,) = torch.autograd.grad(y, x)
    return dx


def mlp():
    g = torch.Generator().manual_seed(1)
    x = torch.randn(128, 784, generator=g)
    labels = torch.arange(128) % 10
    sizes = [784, 256, 128, 10]
    params = []
    for i in range(3):
        w = (torch.randn(sizes[i], sizes[i + 1], generator=g) * (2.0 / sizes[i]) ** 0.5).requires_grad_()
        b = torch.zeros(sizes[i + 1], requires_grad=True)
        params += [w, b]

    def forward():
        h = x
        for i in range(3):
            h = h @ params[2 * i] + params[2 * i + 1]
            if i < 2:
                h = torch.relu(h)
        return torch.nn.functional.cross_entropy(h, labels)

    def forward_only():
        with torch.no_grad():
            forward()

    def forward_backward():
        torch.autograd.grad(forward(), params)

    return forward_only, forward_backward


def main():
    wanted = sys.argv[1] if len(sys.argv) > 1 else ""
    out = {}
    if "scalar_chain" in wanted or not wanted:
        out["scalar_chain_build"] = best_of(scalar_chain_build, 3)
    if "mlp" in wanted or not wanted:
        fwd, fwd_bwd = mlp()
        out["mlp_forward"] = best_of(fwd, 30)
        out["mlp_forward_backward"] = best_of(fwd_bwd, 30)
    if "matmul" in wanted or not wanted:
        g = torch.Generator().manual_seed(2)
        a, b = torch.randn(256, 256, generator=g), torch.randn(256, 256, generator=g)
        out["matmul"] = best_of(lambda: a @ b, 200)
    out["blas"] = blas_description()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
