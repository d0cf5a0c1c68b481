"""PyTorch side of the neural-network workloads, timed the way bench/nn_bench.cpp times dagml:
one training epoch, model creation included, data loading excluded. Usage:
reference_nn.py THREADS DTYPE WORKLOAD...   (DTYPE float32 or float64; workloads mlp_epoch,
cnn_epoch). THREADS sets PyTorch's intra-op threads and, through threadpoolctl, its BLAS and
OpenMP pools. Prints one JSON object:
{workload: {"seconds": s, "test_accuracy": a}, "blas": the BLAS and OpenMP libraries it used}."""
import json
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F
from threadpoolctl import threadpool_limits

from reference_common import FASHION, blas_description, idx


def load(dtype):
    def images(name):
        return torch.from_numpy(idx(FASHION + name, 16).reshape(-1, 784).astype(dtype) / 255.0)

    def labels(name):
        return torch.from_numpy(idx(FASHION + name, 8).astype(np.int64))
    return (images("train-images-idx3-ubyte.gz"), labels("train-labels-idx1-ubyte.gz"),
            images("t10k-images-idx3-ubyte.gz"), labels("t10k-labels-idx1-ubyte.gz"))


def epoch(model, opt, x, y, batch, shape):
    perm = torch.randperm(x.shape[0], generator=torch.Generator().manual_seed(1))
    for i in range(0, x.shape[0], batch):
        rows = perm[i:i + batch]
        loss = F.cross_entropy(model(x[rows].reshape(shape)), y[rows])
        opt.zero_grad()
        loss.backward()
        opt.step()


def accuracy(model, x, y, shape):
    with torch.no_grad():
        return float((model(x.reshape(shape)).argmax(1) == y).double().mean())


def mlp_epoch(data):
    xtr, ytr, xte, yte = data
    torch.manual_seed(1)
    t0 = time.perf_counter()
    model = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(), torch.nn.Linear(256, 128), torch.nn.ReLU(),
                                torch.nn.Linear(128, 10))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    epoch(model, opt, xtr, ytr, 128, (-1, 784))
    seconds = time.perf_counter() - t0
    return {"seconds": seconds, "test_accuracy": accuracy(model, xte, yte, (-1, 784))}


def cnn_epoch(data):
    xtr, ytr, xte, yte = data
    torch.manual_seed(1)
    t0 = time.perf_counter()
    model = torch.nn.Sequential(torch.nn.Conv2d(1, 8, 5), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                                torch.nn.Conv2d(8, 16, 5), torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Flatten(),
                                torch.nn.Linear(256, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    epoch(model, opt, xtr[:10000], ytr[:10000], 64, (-1, 1, 28, 28))
    seconds = time.perf_counter() - t0
    return {"seconds": seconds, "test_accuracy": accuracy(model, xte, yte, (-1, 1, 28, 28))}


def main():
    threads, dtype = int(sys.argv[1]), sys.argv[2]
    torch.set_num_threads(threads)
    torch.set_default_dtype({"float32": torch.float32, "float64": torch.float64}[dtype])
    data = load(dtype)
    out = {}
    with threadpool_limits(limits=threads):
        for name in sys.argv[3:]:
            out[name] = {"mlp_epoch": mlp_epoch, "cnn_epoch": cnn_epoch}[name](data)
        out["blas"] = blas_description()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
