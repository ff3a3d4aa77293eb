r"""Learning-rate curves of every scheduler, drawn as small SVG charts at build time. / 每个学习率调度器的学习率曲线，构建时画成小幅 SVG 图。

=== "中文"

    每张图都由真正运行的调度器算出：建一个 `annotated_optim.SGD`（`lr=0.1`，有动量，供
    `CyclicLR`/`OneCycleLR` 调动量），按 `PLOTS` 里写的参数创建调度器，记录 `STEPS` 步里每一步
    的 `get_last_lr()[0]`（`ReduceLROnPlateau` 用一段写死的指标序列驱动）。SVG 是手写的折线：
    不依赖绘图库，每张只有几 KB。文件名 `generated/lr/<名字>.svg` 在构建开始时就已知
    （`NAMES`，不导入 torch），内容由生成器进程算出。

=== "English"

    Every chart is computed by a real scheduler: an `annotated_optim.SGD` (`lr=0.1`, with
    momentum, for `CyclicLR`/`OneCycleLR` to cycle) gets the scheduler built with the arguments
    in `PLOTS`, and `get_last_lr()[0]` is recorded at each of `STEPS` steps (`ReduceLROnPlateau`
    is driven by a fixed metric sequence). The SVG is a hand-written polyline: no plotting
    library, a few KB per chart. The file names `generated/lr/<name>.svg` are known when the
    build starts (`NAMES`, no torch import); the generator process computes the content.
"""

from __future__ import annotations

STEPS = 100
BASE_LR = 0.1

# 中: （文件名, 调度器类名, 构造调用的源码文本）。调用文本原样显示在图上，也原样求值。
# EN: (file name, scheduler class, the constructor call as source text). The text is shown on
#     the chart as it is, and evaluated as it is.
PLOTS: list[tuple[str, str, str]] = [
    ("LambdaLR", "LambdaLR", "LambdaLR(opt, lr_lambda=lambda epoch: 0.97 ** epoch)"),
    ("MultiplicativeLR", "MultiplicativeLR", "MultiplicativeLR(opt, lr_lambda=lambda epoch: 0.95)"),
    ("StepLR", "StepLR", "StepLR(opt, step_size=30, gamma=0.5)"),
    ("MultiStepLR", "MultiStepLR", "MultiStepLR(opt, milestones=[20, 50, 80], gamma=0.5)"),
    ("ConstantLR", "ConstantLR", "ConstantLR(opt, factor=0.25, total_iters=40)"),
    ("LinearLR", "LinearLR", "LinearLR(opt, start_factor=0.2, end_factor=1.0, total_iters=40)"),
    ("ExponentialLR", "ExponentialLR", "ExponentialLR(opt, gamma=0.96)"),
    ("PolynomialLR", "PolynomialLR", "PolynomialLR(opt, total_iters=80, power=2.0)"),
    ("CosineAnnealingLR", "CosineAnnealingLR", "CosineAnnealingLR(opt, T_max=50, eta_min=0.01)"),
    (
        "SequentialLR",
        "SequentialLR",
        "SequentialLR(opt, schedulers=[LinearLR(opt, start_factor=0.1, total_iters=20), "
        "CosineAnnealingLR(opt, T_max=80)], milestones=[20])",
    ),
    (
        "ChainedScheduler",
        "ChainedScheduler",
        "ChainedScheduler([ExponentialLR(opt, gamma=0.98), StepLR(opt, step_size=25, gamma=0.5)])",
    ),
    (
        "ReduceLROnPlateau",
        "ReduceLROnPlateau",
        "ReduceLROnPlateau(opt, mode='min', factor=0.5, patience=5)",
    ),
    (
        "CyclicLR",
        "CyclicLR",
        "CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=20, mode='triangular2')",
    ),
    (
        "CosineAnnealingWarmRestarts",
        "CosineAnnealingWarmRestarts",
        "CosineAnnealingWarmRestarts(opt, T_0=10, T_mult=2, eta_min=0.001)",
    ),
    ("OneCycleLR", "OneCycleLR", "OneCycleLR(opt, max_lr=0.1, total_steps=100)"),
]
NAMES = [f"generated/lr/{name}.svg" for name, _cls, _args in PLOTS]


def plateau_metric(step: int) -> float:
    r"""The metric fed to `ReduceLROnPlateau`: falls for 30 steps, then flat. / 喂给 `ReduceLROnPlateau` 的指标：前 30 步下降，之后持平。

    === "中文"

        持平之后每过 `patience` 步没有改进，学习率就减半，所以曲线是一串台阶。

    === "English"

        Once it is flat, the learning rate halves after every `patience` steps without
        improvement, so the curve is a staircase.

    Args:
        step: The step number. / 步数。

    Returns:
        The metric value. / 指标值。
    """
    return max(1.0 - step / 30, 0.0)


def curve(name: str) -> list[float]:
    r"""The learning rates a scheduler sets over `STEPS` steps, from the live code. / 调度器在 `STEPS` 步中设置的学习率，由运行中的代码算出。

    === "中文"

        第 0 项是调度器构造后的学习率，之后每一步先 `optimizer.step()` 再 `scheduler.step()`
        （正确的顺序，不触发警告）。

    === "English"

        Item 0 is the learning rate after the scheduler is built; then each step calls
        `optimizer.step()` before `scheduler.step()` (the right order, no warning).

    Args:
        name: A file name from `PLOTS`. / `PLOTS` 里的文件名。

    Returns:
        `STEPS + 1` learning rates. / `STEPS + 1` 个学习率。
    """
    import torch

    import annotated_optim
    from annotated_optim import lr_scheduler

    _name, cls_name, call = next(p for p in PLOTS if p[0] == name)
    weight = torch.zeros(1, requires_grad=True)
    opt = annotated_optim.SGD([weight], lr=BASE_LR, momentum=0.9)
    namespace = {**vars(lr_scheduler), "opt": opt}
    scheduler = eval(call, namespace)  # noqa: S307 - our own fixed text
    rates = [opt.param_groups[0]["lr"]]
    for step in range(STEPS):
        weight.grad = torch.zeros(1)
        opt.step()
        if cls_name == "ReduceLROnPlateau":
            scheduler.step(plateau_metric(step))
        else:
            scheduler.step()
        rates.append(opt.param_groups[0]["lr"])
    return rates


def svg(name: str) -> str:
    r"""A 420×180 SVG line chart of one scheduler's curve. / 一个调度器曲线的 420×180 SVG 折线图。

    === "中文"

        横轴是步数（0 到 `STEPS`），纵轴从 0 到曲线最大值；标出最大值与最终值，图上方写出
        构造调用。颜色取 Material 主题的靛蓝。

    === "English"

        The x axis is the step (0 to `STEPS`), the y axis runs from 0 to the curve's maximum;
        the maximum and the final value are labelled, and the constructor call is written
        above the chart. The color is the Material theme's indigo.

    Args:
        name: A file name from `PLOTS`. / `PLOTS` 里的文件名。

    Returns:
        The SVG text. / SVG 文本。
    """
    from html import escape

    rates = curve(name)
    _name, _cls_name, call = next(p for p in PLOTS if p[0] == name)
    width, height, left, right, top, bottom = 420, 180, 44, 12, 30, 24
    plot_w, plot_h = width - left - right, height - top - bottom
    top_value = max(rates) or 1.0

    # 中: 数据坐标 → 像素坐标；y 轴向下，所以用 top + plot_h 减去。
    # EN: Data coordinates → pixels; the y axis points down, hence top + plot_h minus.
    def point(step: int, rate: float) -> str:
        r"""One polyline point. / 折线上的一个点。

        === "中文"

            保留一位小数，文件更小。

        === "English"

            One decimal place keeps the file small.

        Args:
            step: The step. / 步数。
            rate: The learning rate. / 学习率。

        Returns:
            `"x,y"`. / `"x,y"`。
        """
        x = left + plot_w * step / STEPS
        y = top + plot_h * (1 - rate / top_value)
        return f"{x:.1f},{y:.1f}"

    # 中: 长的调用分两行写（在 70 个字符以内最后一个 ", " 处断开），图的上边距随之加高。
    # EN: A long call goes on two lines (broken at the last ", " within 70 characters), and the
    #     top margin grows with it.
    lines = [call]
    if len(call) > 70:
        cut = call.rfind(", ", 0, 70) + 2
        lines = [call[:cut], "    " + call[cut:]]
    shift = 12 * (len(lines) - 1)
    top, height = top + shift, height + shift
    polyline = " ".join(point(i, r) for i, r in enumerate(rates))
    call_text = "".join(
        f'<text x="4" y="{14 + 12 * i}" font-family="monospace" font-size="10">{escape(line)}</text>'
        for i, line in enumerate(lines)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" font-family="sans-serif" font-size="11">'
        f"{call_text}"
        f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="#888"/>'
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#888"/>'
        f'<text x="{left - 4}" y="{top + 4}" text-anchor="end">{top_value:.3g}</text>'
        f'<text x="{left - 4}" y="{top + plot_h}" text-anchor="end">0</text>'
        f'<text x="{left}" y="{height - 6}">0</text>'
        f'<text x="{left + plot_w}" y="{height - 6}" text-anchor="end">step {STEPS}</text>'
        f'<text x="{left + plot_w}" y="{top - 4}" text-anchor="end">lr[{STEPS}] = {rates[-1]:.3g}</text>'
        f'<polyline fill="none" stroke="#3f51b5" stroke-width="1.6" points="{polyline}"/>'
        "</svg>\n"
    )


def all_svgs() -> dict[str, str]:
    r"""Every chart, keyed by its site path. / 所有图，以站内路径为键。

    === "中文"

        供生成器进程调用；键与 `NAMES` 一致。

    === "English"

        Called by the generator process; the keys match `NAMES`.

    Returns:
        `{path: svg}`. / `{路径: svg}`。
    """
    return {path: svg(name) for path, (name, _c, _a) in zip(NAMES, PLOTS)}
