"""Time annotated_nn's DistributedDataParallel against torch's: 2 processes, gloo, CPU.

Each process builds the same model twice from the same seed, a torch.nn twin wrapped by torch's
DDP and an annotated_nn model wrapped by ours, and times one training step (zero_grad, forward,
backward with the gradient all-reduce, SGD step) of each. The two are timed in interleaved rounds
(alternating which goes first) after a barrier, so that machine noise hits both alike; every step
is a synchronization point, so both ranks run in lock step. Rank 0 prints the median time of each
and the median of the per-round ratios ours/torch.

    python benchmarks/bench_ddp.py [--rounds N] [--number N]

With `--find-unused` it measures instead the table of the book's DDP page ("one iteration",
section find_unused_parameters): the cost of `find_unused_parameters=True` for a stack of
`Linear(32, 32)` layers with `Tanh` between them (3 and 20 layers, batch 16, MSE loss, SGD), the
four cases (torch or ours, option off or on) timed in turn; the defaults are the page's 31 rounds
of 50 steps:

    python benchmarks/bench_ddp.py --find-unused

With `--threads` it measures the table of the book's DDP overview page (section "DataParallel vs
DDP", the GIL): 200 forward passes under `torch.no_grad()` of an annotated_nn `Sequential` of 100
`Linear(4, 4)` layers on a 2x4 input, run by one replica, by two replicas one after the other, by
two threads of one process and by two processes (1 intra-op thread each); median over 11 rounds:

    python benchmarks/bench_ddp.py --threads
"""

import argparse
import os
import socket
import statistics
import threading
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


def linear_tanh_stack(depth):
    """`depth` layers Linear(32, 32) with Tanh between them, batch 16 (the find-unused table)."""

    def make(nn):
        layers = []
        for i in range(depth):
            layers.append(nn.Linear(32, 32))
            if i < depth - 1:
                layers.append(nn.Tanh())
        return nn.Sequential(*layers), torch.randn(16, 32), torch.randn(16, 32)

    return make


FIND_UNUSED_DEPTHS = (3, 20)
FIND_UNUSED_CASES = [
    ("torch", False),
    ("torch", True),
    ("ours", False),
    ("ours", True),
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


def join_gloo_group(rank, port):
    """One thread, then this process joins the gloo group on 127.0.0.1."""
    torch.set_num_threads(1)
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=WORLD_SIZE)


def worker(rank, port, rounds, number):
    join_gloo_group(rank, port)
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


def find_unused_worker(rank, port, rounds, number):
    """The find_unused_parameters table: median over rounds of the mean step time, in ms."""
    join_gloo_group(rank, port)
    try:
        if rank == 0:
            labels = [f"{lib} {'on' if on else 'off'}" for lib, on in FIND_UNUSED_CASES]
            print(f"{'layers':>6s} " + " ".join(f"{label:>10s}" for label in labels) + "  ms/step")
        for depth in FIND_UNUSED_DEPTHS:
            make = linear_tanh_stack(depth)
            steps = [
                build(lib, make, {"find_unused_parameters": on}, rank)
                for lib, on in FIND_UNUSED_CASES
            ]
            times = [[] for _ in steps]
            for _ in range(rounds):
                for i, step in enumerate(steps):
                    times[i].append(time_block(step, number))
            if rank == 0:
                medians = [statistics.median(t) * 1e3 for t in times]
                print(f"{depth:6d} " + " ".join(f"{m:10.2f}" for m in medians), flush=True)
    finally:
        dist.destroy_process_group()


GIL_PASSES = 200


def gil_model():
    """The Python-bound model of the GIL table and its input."""
    torch.manual_seed(0)
    return ann.Sequential(*[ann.Linear(4, 4) for _ in range(100)]), torch.randn(2, 4)


def gil_passes(model, x):
    """The timed work: GIL_PASSES forward passes without autograd."""
    with torch.no_grad():
        for _ in range(GIL_PASSES):
            model(x)


def gil_process(start, done, rounds):
    """One of the two processes: wait for the parent's start signal, run, report, per round."""
    torch.set_num_threads(1)
    model, x = gil_model()
    gil_passes(model, x)  # warm up
    for _ in range(rounds):
        start.wait()
        gil_passes(model, x)
        done.wait()


def gil_table(rounds):
    """Print the median time of each way of running two replicas (ms)."""
    torch.set_num_threads(1)
    replicas = [gil_model() for _ in range(2)]
    for model, x in replicas:
        gil_passes(model, x)  # warm up

    def one():
        gil_passes(*replicas[0])

    def one_after_the_other():
        for replica in replicas:
            gil_passes(*replica)

    def two_threads():
        threads = [threading.Thread(target=gil_passes, args=replica) for replica in replicas]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    ctx = mp.get_context("spawn")
    start, done = ctx.Barrier(3), ctx.Barrier(3)
    processes = [ctx.Process(target=gil_process, args=(start, done, rounds)) for _ in range(2)]
    for process in processes:
        process.start()

    def two_processes():
        start.wait()
        done.wait()

    cases = [
        ("one replica, one thread", one),
        ("two replicas, one after the other in one thread", one_after_the_other),
        ("two replicas, two threads of one process", two_threads),
        ("two replicas, two processes", two_processes),
    ]
    times = {label: [] for label, _ in cases}
    for _ in range(rounds):
        for label, run in cases:
            begin = time.perf_counter()
            run()
            times[label].append(time.perf_counter() - begin)
    for process in processes:
        process.join()
    for label, _ in cases:
        print(f"{label:50s} {statistics.median(times[label]) * 1e3:7.0f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--find-unused", action="store_true", help="the book's find-unused table")
    parser.add_argument("--threads", action="store_true", help="the book's GIL table")
    parser.add_argument("--rounds", type=int, help="rounds (default 21; 31 with --find-unused)")
    parser.add_argument(
        "--number", type=int, help="steps per timing (default 20; 50 with --find-unused)"
    )
    args = parser.parse_args()
    if args.threads:
        gil_table(args.rounds or 11)
        return
    rounds = args.rounds or (31 if args.find_unused else 21)
    number = args.number or (50 if args.find_unused else 20)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    target = find_unused_worker if args.find_unused else worker
    mp.spawn(target, args=(port, rounds, number), nprocs=WORLD_SIZE, join=True)


if __name__ == "__main__":
    main()
