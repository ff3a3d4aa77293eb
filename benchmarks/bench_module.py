"""Time annotated_nn.Module against torch.nn.Module side by side, in one process.

Each case builds the same object with both libraries and times the same operation,
interleaving the two (alternating which goes first) so that machine noise hits both alike.
It prints the median time of each and the median of the per-round ratios ours/torch.

    python benchmarks/bench_module.py [--rounds N] [--quick]
"""

import argparse
import statistics
import timeit

import torch
import torch.nn as tnn

import annotated_nn as ann


def tree(nn, width, depth, parameters=True):
    """A module tree of width**depth leaves, each with a weight, a bias and a buffer.

    With parameters=False the weight and bias are buffers too: operations on a tensor subclass
    such as our Parameter pay a dispatch check that torch.nn.Parameter is exempt from in torch's
    C++ code, and this variant measures the Python side alone.
    """

    class Leaf(nn.Module):
        def __init__(self):
            super().__init__()
            if parameters:
                self.weight = nn.Parameter(torch.zeros(4))
                self.bias = nn.Parameter(torch.zeros(1))
            else:
                self.register_buffer("weight", torch.zeros(4))
                self.register_buffer("bias", torch.zeros(1))
            self.register_buffer("stat", torch.zeros(1))

    def level(d):
        m = nn.Module()
        for i in range(width):
            m.add_module(f"m{i}", level(d - 1) if d > 1 else Leaf())
        return m

    return level(depth)


def cases(nn):
    """name -> (setup result, callable) for one library."""

    class Tiny(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.zeros(1))
            self.sub = nn.Module()

        def forward(self, x):
            return x

    plain, hooked = Tiny(), Tiny()
    hooked.register_forward_pre_hook(lambda m, a: None)
    hooked.register_forward_hook(lambda m, a, o: None)
    x = torch.zeros(1)
    big = tree(nn, 10, 4)  # 10,000 leaves, 11,111 modules
    buffers_only = tree(nn, 10, 3, parameters=False)
    mid = tree(nn, 10, 3)  # 1,000 leaves
    mid_sd = mid.state_dict()
    param = nn.Parameter(torch.zeros(1))
    conv_tree = tree(nn, 10, 2)

    def set_param():
        plain.w = param

    def set_plain():
        plain.counter = 1

    return {
        "__call__ (no hooks)": (lambda: plain(x), 20000),
        "__call__ (pre-hook + hook)": (lambda: hooked(x), 10000),
        "__getattr__ parameter": (lambda: plain.w, 50000),
        "__getattr__ submodule": (lambda: plain.sub, 50000),
        "__setattr__ parameter": (set_param, 20000),
        "__setattr__ plain attribute": (set_plain, 20000),
        "named_parameters() 10k-module tree": (lambda: sum(1 for _ in big.named_parameters()), 3),
        "named_modules() 10k-module tree": (lambda: sum(1 for _ in big.named_modules()), 3),
        "state_dict() 1k-leaf tree": (lambda: mid.state_dict(), 10),
        "state_dict() 1k-leaf tree, buffers only": (lambda: buffers_only.state_dict(), 10),
        "load_state_dict() 1k-leaf tree": (lambda: mid.load_state_dict(mid_sd), 5),
        "to(torch.float64) 100-leaf tree": (
            lambda: conv_tree.to(torch.float64).to(torch.float32),
            20,
        ),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--quick", action="store_true", help="3 rounds, for a smoke run")
    args = parser.parse_args()
    rounds = 3 if args.quick else args.rounds

    theirs, ours = cases(tnn), cases(ann)
    print(
        f"torch {torch.__version__}; {rounds} interleaved rounds; ratio = annotated_nn / torch.nn (lower is faster)"
    )
    print(f"| {'case':44} | {'torch.nn':>12} | {'annotated_nn':>12} | {'ratio':>6} |")
    print(f"|{'-' * 46}|{'-' * 14}|{'-' * 14}|{'-' * 8}|")
    worst = 0.0
    for name, (fn_t, number) in theirs.items():
        fn_o = ours[name][0]
        if args.quick:
            number = max(1, number // 10)
        fn_t(), fn_o()  # warm up
        t_times, o_times, ratios = [], [], []
        for r in range(rounds):
            order = [(fn_t, t_times), (fn_o, o_times)]
            if r % 2:
                order.reverse()
            for fn, sink in order:
                sink.append(timeit.timeit(fn, number=number) / number)
            ratios.append(o_times[-1] / t_times[-1])
        ratio = statistics.median(ratios)
        worst = max(worst, ratio)
        print(
            f"| {name:44} | {statistics.median(t_times) * 1e6:9.2f} µs | "
            f"{statistics.median(o_times) * 1e6:9.2f} µs | {ratio:6.3f} |"
        )
    print(f"worst median ratio: {worst:.3f}")


if __name__ == "__main__":
    main()
