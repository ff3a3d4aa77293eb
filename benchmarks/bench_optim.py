"""Time annotated_optim's step() against torch.optim's, same implementation path, in one process.

The parameters are a ResNet-18-sized list (the 62 tensors of torchvision's resnet18, 11.7 M
elements) with fixed gradients. Each case builds one optimizer from each library and times
`step()`, interleaving the two (alternating which goes first) so that machine noise hits both
alike. It prints the median time of each and the median of the per-round ratios ours/torch.

    python benchmarks/bench_optim.py [--rounds N] [--quick]
"""

import argparse
import statistics
import timeit

import torch
import torch.optim as toptim

import annotated_optim as aoptim


def resnet18_shapes():
    """The parameter shapes of torchvision's resnet18, in registration order."""
    shapes = [(64, 3, 7, 7), (64,), (64,)]
    in_channels = 64
    for channels, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        for block in range(2):
            first_in = in_channels if block == 0 else channels
            shapes += [(channels, first_in, 3, 3), (channels,), (channels,)]
            shapes += [(channels, channels, 3, 3), (channels,), (channels,)]
            if block == 0 and (stride != 1 or in_channels != channels):
                shapes += [(channels, in_channels, 1, 1), (channels,), (channels,)]
        in_channels = channels
    return shapes + [(1000, 512), (1000,)]


def make_params(shapes):
    """Leaf tensors with fixed values and gradients."""
    generator = torch.Generator().manual_seed(0)
    params = []
    for shape in shapes:
        p = torch.randn(shape, generator=generator).requires_grad_()
        p.grad = torch.randn(shape, generator=generator) * 1e-3
        params.append(p)
    return params


CASES = [
    ("SGD momentum", "SGD", dict(lr=0.01, momentum=0.9)),
    ("SGD nesterov wd", "SGD", dict(lr=0.01, momentum=0.9, nesterov=True, weight_decay=1e-4)),
    ("Adam", "Adam", dict(lr=1e-3)),
    ("Adam amsgrad", "Adam", dict(lr=1e-3, amsgrad=True, weight_decay=1e-4)),
    ("AdamW", "AdamW", dict(lr=1e-3)),
    ("RMSprop centered mom", "RMSprop", dict(lr=1e-3, momentum=0.9, centered=True)),
    ("Adagrad", "Adagrad", dict(lr=1e-2)),
]
PATHS = [
    ("single", dict(foreach=False)),
    ("foreach", dict(foreach=True)),
    ("fused", dict(fused=True)),
]
FUSED = {"SGD", "Adam", "AdamW", "Adagrad"}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--quick", action="store_true", help="a smaller parameter list")
    args = parser.parse_args()
    torch.set_num_threads(1)
    shapes = resnet18_shapes()
    if args.quick:
        shapes = shapes[:20]
    print(
        f"{len(shapes)} tensors, {sum(torch.Size(s).numel() for s in shapes) / 1e6:.1f} M elements"
    )
    print(f"{'case':28s} {'path':8s} {'torch ms':>9s} {'ours ms':>9s} {'ours/torch':>10s}")
    for label, name, options in CASES:
        for path, flags in PATHS:
            if path == "fused" and name not in FUSED:
                continue
            steppers = {}
            for lib, optim in (("torch", toptim), ("ours", aoptim)):
                opt = getattr(optim, name)(make_params(shapes), **options, **flags)
                opt.step()  # create the state outside the timing
                steppers[lib] = opt.step
            times = {"torch": [], "ours": []}
            ratios = []
            for r in range(args.rounds):
                order = ("torch", "ours") if r % 2 == 0 else ("ours", "torch")
                got = {}
                for lib in order:
                    got[lib] = min(timeit.repeat(steppers[lib], number=1, repeat=3))
                    times[lib].append(got[lib])
                ratios.append(got["ours"] / got["torch"])
            print(
                f"{label:28s} {path:8s} {statistics.median(times['torch']) * 1e3:9.2f} "
                f"{statistics.median(times['ours']) * 1e3:9.2f} {statistics.median(ratios):10.3f}"
            )


if __name__ == "__main__":
    main()
