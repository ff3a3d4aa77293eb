r"""CUDA memory allocated by each layer in a forward pass. / 前向传播中每层分配的 CUDA 显存。

=== "中文"

    在每个子模块上注册前向预钩子（forward pre-hook）和前向钩子：前者记下调用前的
    `torch.cuda.memory_allocated()`，后者记下调用后的值，二者之差就是这一层留下的显存
    （主要是它的输出，以及训练模式下为反向传播（backward pass）保存的中间张量）。
    容器的差值包含其子模块的差值。

    没有 CUDA 时不报错，而是返回 `available=False` 的结果并说明原因，这样同一段代码可以在
    笔记本电脑上运行。

=== "English"

    Registers a forward pre-hook and a forward hook on every submodule: the first notes
    `torch.cuda.memory_allocated()` before the call, the second after it; the difference is the
    memory the layer leaves behind (mainly its output, plus in training mode the intermediates
    saved for the backward pass). A container's delta includes its children's.

    Without CUDA it does not fail: it returns a result with `available=False` and says why, so
    the same code runs on a laptop.
"""

import dataclasses
from typing import Any

import torch

__all__ = ["MemoryProfile", "cuda_memory_profile"]


@dataclasses.dataclass
class MemoryProfile:
    r"""Per-layer memory deltas, or the reason there are none. / 逐层显存增量，或者没有增量的原因。

    === "中文"

        `rows` 中每项是 `(模块名, 类名, 调用前字节数, 调用后字节数)`，按调用顺序排列。

    === "English"

        Each item of `rows` is `(name, class name, bytes before, bytes after)`, in call order.

    Attributes:
        available: Whether CUDA was used. / 是否使用了 CUDA。
        reason: Why not, when unavailable. / 不可用时的原因。
        rows: The measurements. / 测量结果。
    """

    available: bool
    reason: str = ""
    rows: list[tuple[str, str, int, int]] = dataclasses.field(default_factory=list)

    def __str__(self) -> str:
        r"""Format as a table in MiB, or state the reason. / 以 MiB 为单位格式化为表格，或说明原因。

        === "中文"

            增量一列带正负号。

        === "English"

            The delta column is signed.

        Returns:
            The report text. / 报告文本。
        """
        if not self.available:
            return f"CUDA memory profile unavailable: {self.reason}"
        mib = 1024**2
        lines = [f"{'Layer (name)':<40} {'before MiB':>11} {'after MiB':>10} {'delta MiB':>10}"]
        for name, layer, before, after in self.rows:
            lines.append(
                f"{layer + ' (' + name + ')':<40} {before / mib:>11.2f} {after / mib:>10.2f} {(after - before) / mib:>+10.2f}"
            )
        return "\n".join(lines)


def cuda_memory_profile(model: Any, *inputs: Any, **kwargs: Any) -> MemoryProfile:
    r"""Run `model(*inputs, **kwargs)` once on CUDA and measure each layer. / 在 CUDA 上运行一次 `model(*inputs, **kwargs)` 并逐层测量。

    === "中文"

        模型与输入需要已经在 GPU 上。测量前会 `torch.cuda.synchronize()`，但
        `memory_allocated()` 统计的是缓存分配器的账目，本身与内核是否执行完无关。
        钩子在 `finally` 里全部移除。

    === "English"

        The model and inputs must already be on the GPU. It calls `torch.cuda.synchronize()`
        first, though `memory_allocated()` reads the caching allocator's books and does not
        depend on kernels having finished. All hooks are removed in a `finally` block.

    Args:
        model: A module on CUDA. / 位于 CUDA 上的模块。
        *inputs: Positional inputs on CUDA. / 位于 CUDA 上的位置输入。
        **kwargs: Keyword inputs. / 关键字输入。

    Returns:
        The profile; `available=False` without CUDA. / 测量结果；没有 CUDA 时 `available=False`。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> profile = cuda_memory_profile(nn.Linear(2, 2), torch.randn(1, 2))
        >>> profile.available == torch.cuda.is_available()
        True
    """
    if not torch.cuda.is_available():
        return MemoryProfile(available=False, reason="torch.cuda.is_available() is False")

    rows: list[tuple[str, str, int, int]] = []
    before: dict[str, list[int]] = {}
    handles = []

    def make_hooks(name: str) -> tuple[Any, Any]:
        r"""Make the pre-hook / hook pair for module `name`. / 为模块 `name` 生成预钩子与钩子这一对。

        === "中文"

            预钩子把"调用前"的读数压栈，钩子弹栈并记录一行；用栈是为了支持同一模块的递归或重复调用。

        === "English"

            The pre-hook pushes the "before" reading; the hook pops it and records a row. A stack
            handles a module called repeatedly or re-entrantly.

        Args:
            name: Dotted module name. / 带点的模块名。

        Returns:
            `(pre_hook, hook)`. / `(预钩子, 钩子)`。
        """

        def pre_hook(module: Any, args: Any) -> None:
            r"""Note memory before the call. / 记下调用前的显存。

            === "中文"

                不修改输入。

            === "English"

                Leaves the inputs unchanged.

            Args:
                module: The module. / 模块。
                args: Its inputs. / 它的输入。
            """
            before.setdefault(name, []).append(torch.cuda.memory_allocated())

        def hook(module: Any, args: Any, output: Any) -> None:
            r"""Note memory after the call and record a row. / 记下调用后的显存并记录一行。

            === "中文"

                不修改输出。

            === "English"

                Leaves the output unchanged.

            Args:
                module: The module. / 模块。
                args: Its inputs. / 它的输入。
                output: Its output. / 它的输出。
            """
            rows.append(
                (name, type(module).__name__, before[name].pop(), torch.cuda.memory_allocated())
            )

        return pre_hook, hook

    try:
        for name, module in model.named_modules():
            if name:
                pre_hook, hook = make_hooks(name)
                handles.append(module.register_forward_pre_hook(pre_hook))
                handles.append(module.register_forward_hook(hook))
        torch.cuda.synchronize()
        model(*inputs, **kwargs)
    finally:
        for handle in handles:
            handle.remove()
    return MemoryProfile(available=True, rows=rows)
