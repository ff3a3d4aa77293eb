r"""A model summary from forward hooks: layer, output shape, parameters. / 用前向钩子做模型摘要：层、输出形状、参数数。

=== "中文"

    思路：给每个子模块（submodule）注册一个前向钩子（forward hook），然后用一个示例输入跑一次
    前向传播（forward pass）；钩子按**调用顺序**被触发，每触发一次就记下一行
    （模块名、类名、输出形状、该模块自己的参数数）。跑完后在 `finally` 里移除全部钩子，
    即使前向传播出错模型也不会残留钩子。

    只有真正被调用的模块才会出现；被调用多次的模块（共享的层）出现多次。这与
    `print(model)`（按注册顺序列出结构）互为补充。

=== "English"

    The idea: register a forward hook on every submodule and run one forward pass on an example
    input; the hooks fire in **call order**, each firing adding one row (module name, class
    name, output shape, the module's own parameter count). Afterwards a `finally` block removes
    every hook, so the model keeps none even if the forward pass fails.

    Only modules that are actually called appear; a module called several times (a shared
    layer) appears several times. This complements `print(model)`, which lists the structure
    in registration order.
"""

import dataclasses
from typing import Any

import torch

__all__ = ["ModelSummary", "SummaryRow", "summary"]


@dataclasses.dataclass
class SummaryRow:
    r"""One line of the summary. / 摘要中的一行。

    === "中文"

        `params` 只数模块**直接**拥有的参数（`parameters(recurse=False)`），
        因此把各行相加不会重复计算容器里子模块的参数。

    === "English"

        `params` counts only the parameters the module owns **directly**
        (`parameters(recurse=False)`), so summing the rows does not count a container's
        children twice.

    Attributes:
        name: Dotted module name. / 带点的模块名。
        layer: Class name. / 类名。
        output_shape: Output shape(s). / 输出形状。
        params: Own parameter count. / 自身参数数。
    """

    name: str
    layer: str
    output_shape: Any
    params: int


@dataclasses.dataclass
class ModelSummary:
    r"""The rows plus totals, printable as a table. / 各行与合计，可打印成表格。

    === "中文"

        `total_params` 与 `trainable_params` 由 `model.parameters()` 统计（已去重），
        所以共享权重只算一次。

    === "English"

        `total_params` and `trainable_params` come from `model.parameters()` (deduplicated), so
        shared weights count once.

    Attributes:
        rows: One row per call. / 每次调用一行。
        total_params: All parameters. / 参数总数。
        trainable_params: Parameters with `requires_grad`. / 需要梯度的参数数。
    """

    rows: list[SummaryRow]
    total_params: int
    trainable_params: int

    def __str__(self) -> str:
        r"""Format as a fixed-width table. / 格式化为等宽表格。

        === "中文"

            列宽按内容自适应，最后两行是合计。

        === "English"

            Column widths fit the content; the last two lines are the totals.

        Returns:
            The table. / 表格文本。
        """
        header = ("Layer (name)", "Output shape", "Param #")
        cells = [(f"{r.layer} ({r.name})", str(r.output_shape), f"{r.params:,}") for r in self.rows]
        widths = [max(len(row[i]) for row in [header, *cells]) for i in range(3)]
        line = "-" * (sum(widths) + 4)
        lines = [
            line,
            f"{header[0]:<{widths[0]}}  {header[1]:<{widths[1]}}  {header[2]:>{widths[2]}}",
            line,
        ]
        lines += [f"{a:<{widths[0]}}  {b:<{widths[1]}}  {c:>{widths[2]}}" for a, b, c in cells]
        lines += [
            line,
            f"Total params: {self.total_params:,}",
            f"Trainable params: {self.trainable_params:,}",
        ]
        return "\n".join(lines)


def _shape_of(output: Any) -> Any:
    r"""Describe an output by its shape(s). / 用形状描述一个输出。

    === "中文"

        张量给出 `list(shape)`；tuple/list 递归；其它对象给出类型名。

    === "English"

        A tensor gives `list(shape)`; tuples/lists recurse; anything else gives its type name.

    Args:
        output: A module's output. / 模块输出。

    Returns:
        A shape list, nested lists, or a type name. / 形状列表、嵌套列表或类型名。
    """
    if isinstance(output, torch.Tensor):
        return list(output.shape)
    if isinstance(output, (tuple, list)):
        return [_shape_of(o) for o in output]
    return type(output).__name__


def summary(model: Any, *inputs: Any, **kwargs: Any) -> ModelSummary:
    r"""Run `model(*inputs, **kwargs)` once and summarize each called submodule. / 运行一次 `model(*inputs, **kwargs)`，汇总每个被调用的子模块。

    === "中文"

        在 `torch.no_grad()` 下运行，不构建计算图。注意：模型处于训练模式时，
        BatchNorm 等层会在这次调用中更新运行统计量——需要时先 `model.eval()`。

    === "English"

        Runs under `torch.no_grad()`, building no graph. Note: in training mode, layers such as
        BatchNorm update their running statistics during this call; call `model.eval()` first if
        that matters.

    Args:
        model: An `annotated_nn` or `torch.nn` module. / `annotated_nn` 或 `torch.nn` 的模块。
        *inputs: Example positional inputs. / 示例位置输入。
        **kwargs: Example keyword inputs. / 示例关键字输入。

    Returns:
        The summary. / 摘要。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> s = summary(nn.Sequential(nn.Linear(4, 3), nn.ReLU()), torch.randn(2, 4))
        >>> [(r.name, r.output_shape, r.params) for r in s.rows]
        [('0', [2, 3], 15), ('1', [2, 3], 0)]
    """
    rows: list[SummaryRow] = []
    handles = []

    def make_hook(name: str) -> Any:
        r"""Make the hook that records module `name`. / 生成记录模块 `name` 的钩子。

        === "中文"

            钩子本身拿不到模块名，所以用闭包把名字带进去。

        === "English"

            A hook does not receive the module's name, so a closure carries it in.

        Args:
            name: Dotted module name. / 带点的模块名。

        Returns:
            A forward hook. / 前向钩子。
        """

        def hook(module: Any, args: Any, output: Any) -> None:
            r"""Append one row for this call. / 为这次调用追加一行。

            === "中文"

                返回 `None`，不改变模块输出。

            === "English"

                Returns `None`, leaving the output unchanged.

            Args:
                module: The module just called. / 刚被调用的模块。
                args: Its positional inputs. / 它的位置输入。
                output: Its output. / 它的输出。
            """
            params = sum(p.numel() for p in module.parameters(recurse=False))
            rows.append(SummaryRow(name, type(module).__name__, _shape_of(output), params))

        return hook

    try:
        # 中: 跳过根模块本身（名字为空串），它的输出就是整个模型的输出。
        # EN: Skip the root (empty name); its output is the whole model's output.
        for name, module in model.named_modules():
            if name:
                handles.append(module.register_forward_hook(make_hook(name)))
        with torch.no_grad():
            model(*inputs, **kwargs)
    finally:
        for handle in handles:
            handle.remove()

    params = list(model.parameters())
    return ModelSummary(
        rows=rows,
        total_params=sum(p.numel() for p in params),
        trainable_params=sum(p.numel() for p in params if p.requires_grad),
    )
