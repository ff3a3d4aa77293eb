"""Time one training step (forward, backward, SGD) in annotated_nn against torch.nn, in one process.

Cases: the reference MLP and a small CNN with BatchNorm. Each round times a few steps of each
library, interleaved (alternating which goes first) so machine noise hits both alike. It prints
the median step time of each and the median of the per-round ratios ours/torch. The kernels are
the same, so the ratio measures the module system's Python overhead inside a real step.

    python benchmarks/bench_training.py [--rounds N] [--steps K] [--threads T] [--quick]
"""

import argparse
import statistics
import time

import torch
import torch.nn.functional as F

import annotated_nn
from annotated_examples.models import build_mlp


def small_cnn(nn):
    """Conv-BN-ReLU ×2, pooling, linear: a small CNN with BatchNorm buffers."""
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1, bias=False),
        nn.BatchNorm2d(16),
        nn.ReLU(inplace=True),
        nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1, bias=False),
        nn.BatchNorm2d(32),
        nn.ReLU(inplace=True),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(32, 10),
    )


CASES = {
    "mlp 784-256-128-10, batch 64": (lambda nn: build_mlp(nn), (64, 784)),
    "small CNN + BatchNorm, batch 16x3x32x32": (small_cnn, (16, 3, 32, 32)),
}


def make_step(nn, builder, shape):
    """Build model, optimizer and data for one library; return a function doing one training step."""
    torch.manual_seed(0)
    model = builder(nn)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = torch.randn(shape, generator=torch.Generator().manual_seed(1))
    y = torch.randint(0, 10, (shape[0],), generator=torch.Generator().manual_seed(2))

    def step():
        optimizer.zero_grad()
        F.cross_entropy(model(x), y).backward()
        optimizer.step()

    return step


def time_steps(step, steps):
    start = time.perf_counter()
    for _ in range(steps):
        step()
    return (time.perf_counter() - start) / steps


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--steps", type=int, default=5, help="steps per library per round")
    parser.add_argument(
        "--threads", type=int, default=1, help="torch CPU threads (default 1: less noise)"
    )
    parser.add_argument("--quick", action="store_true", help="3 rounds of 2 steps")
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.steps = 3, 2
    torch.set_num_threads(args.threads)

    print(f"{'case':<42} {'torch.nn ms':>12} {'annotated ms':>13} {'ratio':>7}")
    for name, (builder, shape) in CASES.items():
        steps = {nn: make_step(nn, builder, shape) for nn in (torch.nn, annotated_nn)}
        for step in steps.values():  # warm-up: allocator, autograd, optimizer state
            step()
        times = {torch.nn: [], annotated_nn: []}
        ratios = []
        for r in range(args.rounds):
            order = (torch.nn, annotated_nn) if r % 2 == 0 else (annotated_nn, torch.nn)
            measured = {nn: time_steps(steps[nn], args.steps) for nn in order}
            for nn, t in measured.items():
                times[nn].append(t)
            ratios.append(measured[annotated_nn] / measured[torch.nn])
        print(
            f"{name:<42} {statistics.median(times[torch.nn]) * 1e3:>12.3f} "
            f"{statistics.median(times[annotated_nn]) * 1e3:>13.3f} {statistics.median(ratios):>7.2f}"
        )


if __name__ == "__main__":
    main()
