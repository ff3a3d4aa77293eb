r"""Train `SimpleNet` twice, with annotated_nn + annotated_optim and with torch.nn + torch.optim, and compare. / 分别用 annotated_nn + annotated_optim 与 torch.nn + torch.optim 训练 `SimpleNet` 并对比。

=== "中文"

    运行 `python -m annotated_examples.train`（或 `make train`）。两个模型从同一个随机种子构造，
    参数逐位相同。一边是我们的整套实现：`annotated_nn` 的模型、`annotated_optim.SGD`（带动量）
    和 `annotated_optim.lr_scheduler.CosineAnnealingLR`；另一边是 torch 的 `torch.nn`、
    `torch.optim.SGD` 和 torch 的同名调度器。每一步两边用同一个 batch。
    每隔 `--print-every` 步打印两边的损失，若打印出的数字有任何一位不同就以非零状态退出。
    这是对"行为与 torch 完全一致"最直观的检验：前向传播（forward pass）、反向传播
    （backward pass）、参数注册顺序（它决定优化器看到参数的顺序）、优化器的更新和学习率的
    变化都必须一致，损失才可能一样。

    数据是合成的：随机图像，标签由一个固定的随机线性"教师"给出，所以损失确实会下降。
    CPU 上默认 300 步只需几秒；有 CUDA 时自动使用 GPU。

=== "English"

    Run `python -m annotated_examples.train` (or `make train`). Both models are built from the
    same seed, so their parameters are bit-identical. One side is our whole stack: an
    `annotated_nn` model, `annotated_optim.SGD` (with momentum) and
    `annotated_optim.lr_scheduler.CosineAnnealingLR`; the other is torch's `torch.nn`,
    `torch.optim.SGD` and torch's scheduler of the same name. Each step feeds both the same
    batch. Every `--print-every` steps it prints both losses and exits non-zero if any printed
    digit differs. This is the most direct check of "behaves exactly like torch": the forward
    pass, the backward pass, the parameter registration order (which fixes the order the
    optimizer sees), the optimizer's update and the learning-rate schedule must all agree for
    the losses to match.

    The data is synthetic: random images labeled by a fixed random linear "teacher", so the
    loss really goes down. The default 300 steps take a few seconds on a CPU; CUDA is used when
    present.
"""

import argparse
import sys
import time
from collections.abc import Sequence

import torch
import torch.nn.functional as F
from tqdm import tqdm

import annotated_nn
import annotated_optim
from annotated_examples.models import build_simplenet


def make_dataset(
    num_samples: int, seed: int, device: torch.device
) -> tuple[torch.Tensor, torch.Tensor]:
    r"""Random `1×32×32` images with teacher labels. / 随机 `1×32×32` 图像及"教师"标签。

    === "中文"

        用独立的 `torch.Generator` 生成数据，不消耗全局随机数流，因此不影响模型初始化。

    === "English"

        Uses its own `torch.Generator`, leaving the global random stream (and so model
        initialization) untouched.

    Args:
        num_samples: Number of images. / 图像数目。
        seed: Seed of the data generator. / 数据生成器的种子。
        device: Where the tensors go. / 张量放在哪个设备。

    Returns:
        `(images, labels)` of shapes `(num_samples, 1, 32, 32)` and `(num_samples,)`. / 图像与标签。
    """
    generator = torch.Generator().manual_seed(seed)
    images = torch.randn(num_samples, 1, 32, 32, generator=generator)
    teacher = torch.randn(32 * 32, 10, generator=generator)
    labels = (images.flatten(1) @ teacher).argmax(dim=1)
    return images.to(device), labels.to(device)


def main(argv: Sequence[str] | None = None) -> int:
    r"""Run the side-by-side training; return the exit status. / 运行并排训练，返回退出状态。

    === "中文"

        每步先训练 annotated_nn 的模型，再训练 torch.nn 的孪生模型，二者看到完全相同的数据。
        打印用 `tqdm.write`，不会打乱进度条。

    === "English"

        Each step trains the annotated_nn model, then its torch.nn twin, on exactly the same
        data. Lines are printed with `tqdm.write`, which keeps the progress bar intact.

    Args:
        argv: Command-line arguments (default: `sys.argv[1:]`). / 命令行参数（默认 `sys.argv[1:]`）。

    Returns:
        0 when every printed pair agrees, 1 otherwise. / 打印的每对损失都一致时为 0，否则为 1。
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300, help="training steps (default 300)")
    parser.add_argument("--print-every", type=int, default=25, help="print losses every N steps")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--digits", type=int, default=6, help="decimals printed and compared")
    parser.add_argument("--threads", type=int, default=1, help="CPU threads for torch (default 1)")
    args = parser.parse_args(argv)

    # 中: 这么小的模型用一个线程最快；多线程在繁忙的机器上反而因争抢变慢。退出时恢复原设置。
    # EN: One thread is fastest for a model this small; several threads contend on a busy machine.
    #     The previous setting is restored on exit.
    previous_threads = torch.get_num_threads()
    torch.set_num_threads(args.threads)
    try:
        return _train(args)
    finally:
        torch.set_num_threads(previous_threads)


def _train(args: argparse.Namespace) -> int:
    r"""The training loop behind [`main`][annotated_examples.train.main]. / [`main`][annotated_examples.train.main] 背后的训练循环。

    === "中文"

        构造两个模型、优化器与调度器，逐步训练（每步先 `optimizer.step()` 再
        `scheduler.step()`），按间隔打印并比较损失，最后比较全部参数。

    === "English"

        Builds both models, optimizers and schedulers, trains step by step (`optimizer.step()`
        before `scheduler.step()` each step), prints and compares the losses at intervals, and
        finally compares every parameter.

    Args:
        args: Parsed command-line options. / 解析后的命令行选项。

    Returns:
        0 when every printed pair agrees, 1 otherwise. / 打印的每对损失都一致时为 0，否则为 1。
    """

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    images, labels = make_dataset(2048, args.seed + 1, device)

    # 中: 两次构造前都重置种子：相同的随机数调用序列 → 相同的初始参数。每一边用自己的
    #     模块系统、优化器和调度器（`optim` 是 `annotated_optim` 或 `torch.optim`）。
    # EN: Reseed before each construction: the same sequence of random calls → the same weights.
    #     Each side uses its own module system, optimizer and scheduler (`optim` is
    #     `annotated_optim` or `torch.optim`).
    models, optimizers, schedulers = {}, {}, {}
    stacks = (("annotated_nn", annotated_nn, annotated_optim), ("torch.nn", torch.nn, torch.optim))
    for name, nn, optim in stacks:
        torch.manual_seed(args.seed)
        models[name] = build_simplenet(nn).to(device)
        optimizers[name] = optim.SGD(models[name].parameters(), lr=args.lr, momentum=0.9)
        schedulers[name] = optim.lr_scheduler.CosineAnnealingLR(optimizers[name], T_max=args.steps)

    batch_order = torch.randint(
        0,
        images.shape[0],
        (args.steps, args.batch_size),
        generator=torch.Generator().manual_seed(args.seed),
    )
    print(f"training SimpleNet on {device} for {args.steps} steps (annotated_nn vs torch.nn)")
    mismatches = 0
    start = time.perf_counter()
    progress = tqdm(range(1, args.steps + 1), desc="train", unit="step", file=sys.stderr)
    for step in progress:
        index = batch_order[step - 1].to(device)
        x, y = images[index], labels[index]
        losses = {}
        for name, model in models.items():
            optimizers[name].zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizers[name].step()
            schedulers[name].step()
            losses[name] = loss.item()
        if step % args.print_every == 0 or step == args.steps:
            shown = {name: f"{value:.{args.digits}f}" for name, value in losses.items()}
            same = shown["annotated_nn"] == shown["torch.nn"]
            mismatches += not same
            tqdm.write(
                f"step {step:5d}  annotated_nn {shown['annotated_nn']}  "
                f"torch.nn {shown['torch.nn']}  {'same' if same else 'DIFFERENT'}"
            )
    progress.close()

    # 中: 最后比较全部参数的最大绝对差：它说明一致不只是"打印出来看着一样"。
    # EN: Finally compare every parameter: agreement is more than "the printed digits look equal".
    max_diff = max(
        (a - b).abs().max().item()
        for a, b in zip(
            models["annotated_nn"].parameters(), models["torch.nn"].parameters(), strict=True
        )
    )
    elapsed = time.perf_counter() - start
    print(f"max |parameter difference| after {args.steps} steps: {max_diff:.3e}  ({elapsed:.1f} s)")
    if mismatches:
        print(f"FAIL: {mismatches} printed loss pairs differ", file=sys.stderr)
        return 1
    print("OK: annotated_nn and torch.nn agree at every printed step")
    return 0


if __name__ == "__main__":
    sys.exit(main())
