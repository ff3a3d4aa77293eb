"""Time annotated_nn's DistributedDataParallel against torch's: 2 processes, gloo, CPU.

Each process builds the same model twice from the same seed, a torch.nn twin wrapped by torch's
DDP and an annotated_nn model wrapped by ours, and times one training step (zero_grad, forward,
backward with the gradient all-reduce, SGD step) of each. The two are timed in interleaved rounds
(alternating which goes first) after a barrier, so that machine noise hits both alike; every step
is a synchronization point, so both ranks run in lock step. Rank 0 prints the median time of each
and the median of the per-round ratios ours/torch.

    python benchmarks/bench_ddp.py [--rounds N] [--number N]
"""

import argparse
import os
import socket
import statistics
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as tnn
import torch.nn.functional as F

import annotated_nn as ann
from annotated_nn.parallel.distributed import DistributedDataParallel as OurDDP

WORLD_SIZE = 2
LIBS = {"torch": (tnn, tnn.parallel.DistributedDataParallel), "ours": (ann, OurDDP)}


def mlp(nn):
    """A 3-layer MLP on 64 features, its input and target."""
    model = nn.Sequential(
        nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10)
    )
    return model, torch.randn(32, 64), torch.randn(32, 10)


def convnet(nn):
    """A small conv net with BatchNorm (buffers are broadcast before each forward)."""
    model = nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1),
        nn.BatchNorm2d(16),
        nn.ReLU(),
        nn.Conv2d(16, 16, 3, padding=1),
        nn.ReLU(),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(16, 10),
    )
    return model, torch.randn(8, 3, 16, 16), torch.randn(8, 10)


def many_small(nn):
    """Twenty 16x16 layers: many parameters, small compute, several buckets."""
    layers = []
    for _ in range(20):
        layers += [nn.Linear(16, 16), nn.Tanh()]
    return nn.Sequential(*layers), torch.randn(16, 16), torch.randn(16, 16)


CASES = [
    ("mlp", mlp, {}),
    ("conv+bn", convnet, {}),
    ("20 small layers", many_small, {"bucket_cap_mb": 0.01}),
    ("mlp find_unused", mlp, {"find_unused_parameters": True}),
]


def build(lib, make, ddp_kwargs, rank):
    """The wrapped model of one library and a closure running one training step."""
    nn, DDP = LIBS[lib]
    torch.manual_seed(0)
    model, x, y = make(nn)
    torch.manual_seed(rank)  # different data per rank, same for both libraries
    x, y = torch.randn_like(x), torch.randn_like(y)
    ddp = DDP(model, **ddp_kwargs)
    optimizer = torch.optim.SGD(ddp.parameters(), lr=0.01)

    def step():
        optimizer.zero_grad(set_to_none=True)
        F.mse_loss(ddp(x), y).backward()
        optimizer.step()

    for _ in range(3):  # warm up outside the timing (the buckets are rebuilt here)
        step()
    return step


def time_block(step, number):
    """Seconds per step over `number` steps, started after a barrier."""
    dist.barrier()
    start = time.perf_counter()
    for _ in range(number):
        step()
    return (time.perf_counter() - start) / number


def worker(rank, port, rounds, number):
    torch.set_num_threads(1)
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=WORLD_SIZE)
    try:
        if rank == 0:
            print(f"{'case':18s} {'torch ms':>9s} {'ours ms':>9s} {'ours/torch':>10s}")
        for label, make, ddp_kwargs in CASES:
            steps = {lib: build(lib, make, ddp_kwargs, rank) for lib in LIBS}
            times = {"torch": [], "ours": []}
            ratios = []
            for r in range(rounds):
                order = ("torch", "ours") if r % 2 == 0 else ("ours", "torch")
                got = {lib: time_block(steps[lib], number) for lib in order}
                for lib in order:
                    times[lib].append(got[lib])
                ratios.append(got["ours"] / got["torch"])
            if rank == 0:
                print(
                    f"{label:18s} {statistics.median(times['torch']) * 1e3:9.3f} "
                    f"{statistics.median(times['ours']) * 1e3:9.3f} {statistics.median(ratios):10.3f}",
                    flush=True,
                )
    finally:
        dist.destroy_process_group()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--number", type=int, default=20, help="steps per timing")
    args = parser.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mp.spawn(worker, args=(port, args.rounds, args.number), nprocs=WORLD_SIZE, join=True)


if __name__ == "__main__":
    main()
