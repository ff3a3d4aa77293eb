"""Time annotated_nn's reparametrizations and pruning against torch's, in one process.

Each case builds the same small model with torch.nn and with annotated_nn, parametrizes it
(orthogonal, weight_norm or spectral_norm in training mode, on every Linear / Conv2d weight) and
times one forward + backward pass on a fixed batch; the "pruned" cases prune every weight with
`l1_unstructured` (amount 0.5) and time one forward pass, as the pruning hook runs there. The two libraries are timed in interleaved
rounds (alternating which goes first) so that machine noise hits both alike. It prints the median
time of each and the median of the per-round ratios ours/torch.

    python benchmarks/bench_parametrize.py [--rounds N] [--number N]
"""

import argparse
import statistics
import timeit

import torch
import torch.nn as tnn
import torch.nn.utils.parametrizations as tPs
import torch.nn.utils.prune as tprune

import annotated_nn as ann
import annotated_nn.utils.parametrizations as aPs
import annotated_nn.utils.prune as aprune

LIBS = {"torch": (tnn, tPs), "ours": (ann, aPs)}
PRUNE = {"torch": tprune, "ours": aprune}


def mlp(nn):
    """A 3-layer MLP on 64 features, and its input."""
    model = nn.Sequential(
        nn.Linear(64, 128), nn.Tanh(), nn.Linear(128, 128), nn.Tanh(), nn.Linear(128, 10)
    )
    return model, torch.randn(32, 64)


def convnet(nn):
    """A small conv net on 16x16 images, and its input."""
    model = nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1),
        nn.ReLU(),
        nn.Conv2d(16, 16, 3, padding=1),
        nn.ReLU(),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(16, 10),
    )
    return model, torch.randn(8, 3, 16, 16)


CASES = [
    ("mlp", mlp, "none", {}),
    ("mlp", mlp, "orthogonal", {}),
    ("mlp", mlp, "orthogonal", {"orthogonal_map": "cayley"}),
    ("mlp", mlp, "orthogonal", {"orthogonal_map": "householder", "use_trivialization": False}),
    ("mlp", mlp, "weight_norm", {}),
    ("mlp", mlp, "spectral_norm", {}),
    ("conv", convnet, "none", {}),
    ("conv", convnet, "orthogonal", {}),
    ("conv", convnet, "weight_norm", {}),
    ("conv", convnet, "spectral_norm", {}),
    ("mlp", mlp, "pruned (forward)", {}),
    ("conv", convnet, "pruned (forward)", {}),
]


def build(lib, make, how, options):
    """The model of one library, parametrized; a closure running forward + backward."""
    nn, P = LIBS[lib]
    torch.manual_seed(0)
    model, x = make(nn)
    pruned = how.startswith("pruned")
    if how != "none":
        for layer in model:
            if isinstance(layer, (nn.Linear, nn.Conv2d)):
                if pruned:
                    PRUNE[lib].l1_unstructured(layer, "weight", amount=0.5)
                else:
                    getattr(P, how)(layer, **options)
    model.train()

    def step():
        if pruned:
            with torch.no_grad():
                model(x)
            return
        model.zero_grad(set_to_none=True)
        model(x).square().mean().backward()

    step()  # warm up outside the timing
    return step


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--number", type=int, default=20, help="steps per timing")
    args = parser.parse_args()
    torch.set_num_threads(1)
    print(
        f"{'model':6s} {'parametrization':34s} {'torch ms':>9s} {'ours ms':>9s} {'ours/torch':>10s}"
    )
    for label, make, how, options in CASES:
        steps = {lib: build(lib, make, how, options) for lib in LIBS}
        times = {"torch": [], "ours": []}
        ratios = []
        for r in range(args.rounds):
            order = ("torch", "ours") if r % 2 == 0 else ("ours", "torch")
            got = {}
            for lib in order:
                got[lib] = min(timeit.repeat(steps[lib], number=args.number, repeat=3))
                got[lib] /= args.number
                times[lib].append(got[lib])
            ratios.append(got["ours"] / got["torch"])
        name = how + "".join(f" {v}" for v in options.values() if v is not False)
        name += " triv=False" if options.get("use_trivialization") is False else ""
        print(
            f"{label:6s} {name:34s} {statistics.median(times['torch']) * 1e3:9.3f} "
            f"{statistics.median(times['ours']) * 1e3:9.3f} {statistics.median(ratios):10.3f}"
        )


if __name__ == "__main__":
    main()
