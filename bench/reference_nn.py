"""PyTorch side of the neural-network workloads (float64, torch.set_num_threads(THREADS)), timed
the way bench/nn_bench.cpp times dagml: one training epoch, model creation included, data
loading excluded. Usage: reference_nn.py THREADS WORKLOAD... (mlp_epoch, cnn_epoch).
Prints one JSON object: {workload: {"seconds": s, "test_accuracy": a}}."""
import gzip
import json
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

DIR = "/usr/share/datasets/fashion-mnist/"


def idx(name, offset):
    with gzip.open(DIR + name, "rb") as f:
        return np.frombuffer(f.read(), dtype=np.uint8, offset=offset)


def load():
    xtr = torch.from_numpy(idx("train-images-idx3-ubyte.gz", 16).reshape(-1, 784).astype(np.float64) / 255.0)
    ytr = torch.from_numpy(idx("train-labels-idx1-ubyte.gz", 8).astype(np.int64))
    xte = torch.from_numpy(idx("t10k-images-idx3-ubyte.gz", 16).reshape(-1, 784).astype(np.float64) / 255.0)
    yte = torch.from_numpy(idx("t10k-labels-idx1-ubyte.gz", 8).astype(np.int64))
    return xtr, ytr, xte, yte


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
    threads = int(sys.argv[1])
    torch.set_num_threads(threads)
    torch.set_default_dtype(torch.float64)
    data = load()
    out = {}
    for name in sys.argv[2:]:
        out[name] = {"mlp_epoch": mlp_epoch, "cnn_epoch": cnn_epoch}[name](data)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
