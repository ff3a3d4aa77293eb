r"""Gradient flow: mean |grad| of each layer's weights, as numbers and as a PNG. / 梯度流：各层权重梯度绝对值的均值，给出数值并画成 PNG。

=== "中文"

    反向传播（backward pass）之后，逐个参数（parameter）计算 `grad.abs().mean()` 与 `grad.abs().max()`。
    按网络从输入到输出的顺序画出来，就能看到梯度在哪里消失（越靠近输入越接近 0）
    或爆炸。默认跳过偏置：偏置的梯度通常远大于权重的，放在一起会压扁图形。

    画图使用 matplotlib 的 Agg 后端，直接构造 `Figure` 与 `FigureCanvasAgg`，不经过 `pyplot`：
    不依赖显示器，也不改动全局的 pyplot 状态。

=== "English"

    After the backward pass, compute `grad.abs().mean()` and `grad.abs().max()` per parameter.
    Plotted in network order from input to output, this shows where gradients vanish (close to
    0 near the input) or explode. Biases are skipped by default: their gradients are usually much
    larger than the weights' and would flatten the plot.

    Plotting uses matplotlib's Agg backend by building a `Figure` and a `FigureCanvasAgg`
    directly, without `pyplot`: no display needed and no global pyplot state touched.
"""

from pathlib import Path
from typing import Any

__all__ = ["grad_flow", "plot_grad_flow"]


def grad_flow(model: Any, include_bias: bool = False) -> list[tuple[str, float, float]]:
    r"""Mean and max |grad| per parameter, in registration order. / 按注册顺序给出每个参数梯度绝对值的均值与最大值。

    === "中文"

        没有梯度（`grad is None`，例如未参与计算）或不需要梯度的参数被跳过。

    === "English"

        Parameters without a gradient (`grad is None`, e.g. unused) or not requiring one are
        skipped.

    Args:
        model: A module after `backward()`. / 已完成 `backward()` 的模块。
        include_bias: Whether to include bias parameters. / 是否包含偏置参数。

    Returns:
        `[(name, mean_abs_grad, max_abs_grad), ...]`. / `[(名字, 梯度绝对值均值, 最大值), ...]`。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> net = nn.Linear(3, 1)
        >>> net(torch.ones(1, 3)).sum().backward()
        >>> grad_flow(net)
        [('weight', 1.0, 1.0)]
    """
    rows = []
    for name, param in model.named_parameters():
        if not param.requires_grad or param.grad is None:
            continue
        if not include_bias and name.rsplit(".", 1)[-1] == "bias":
            continue
        magnitude = param.grad.detach().abs()
        rows.append((name, magnitude.mean().item(), magnitude.max().item()))
    return rows


def plot_grad_flow(model: Any, path: str | Path, include_bias: bool = False) -> Path:
    r"""Write a bar chart of the gradient flow to the PNG file `path`. / 把梯度流柱状图写入 PNG 文件 `path`。

    === "中文"

        浅色柱是最大值，深色柱是均值；纵轴用对数刻度，使相差几个数量级的层都看得清。

    === "English"

        Light bars are the maxima, dark bars the means; the log-scaled y axis keeps layers
        orders of magnitude apart readable.

    Args:
        model: A module after `backward()`. / 已完成 `backward()` 的模块。
        path: Output file. / 输出文件。
        include_bias: Whether to include bias parameters. / 是否包含偏置参数。

    Returns:
        The path written. / 写入的路径。

    Raises:
        ValueError: No parameter has a gradient yet. / 还没有任何参数有梯度。
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rows = grad_flow(model, include_bias=include_bias)
    if not rows:
        raise ValueError("no parameter has a gradient; call backward() first")
    names = [r[0] for r in rows]
    positions = range(len(rows))

    figure = Figure(figsize=(max(6.0, 0.4 * len(rows)), 4.5))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.bar(positions, [r[2] for r in rows], color="lightsteelblue", label="max |grad|")
    axes.bar(positions, [r[1] for r in rows], color="steelblue", label="mean |grad|")
    axes.set_xticks(list(positions), names, rotation=90, fontsize=7)
    axes.set_yscale("log")
    axes.set_ylabel("|grad|")
    axes.set_title("Gradient flow")
    axes.legend()
    figure.tight_layout()

    path = Path(path)
    figure.savefig(path, format="png")
    return path
