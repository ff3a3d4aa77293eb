r"""Record activations and gradients with hooks, then remove them. / 用钩子记录激活值与梯度，用完即移除。

=== "中文"

    `with Recorder(model) as rec:` 进入时给选中的子模块注册前向钩子（记录输出）与完整反向钩子
    （`register_full_backward_hook`，记录对输出的梯度）；退出 `with` 块时调用每个句柄
    （handle）的 `remove()`，模型恢复原样。把句柄攒起来、统一移除，是使用钩子最重要的习惯：
    忘记移除的钩子会一直运行，还会通过闭包持有张量，造成内存泄漏。

    记录的是 `detach()` 后的张量：它们与计算图断开，不会让整张图因为被引用而无法释放。

=== "English"

    `with Recorder(model) as rec:` registers, on entry, a forward hook (recording outputs) and a
    full backward hook (`register_full_backward_hook`, recording gradients w.r.t. outputs) on
    the selected submodules; leaving the `with` block calls `remove()` on every handle and the
    model is as before. Collecting handles and removing them together is the key habit with
    hooks: a forgotten hook keeps running and, through its closure, keeps tensors alive, leaking
    memory.

    Recorded tensors are `detach()`ed: cut from the graph, they do not keep the whole graph
    alive by reference.

Note: Note [full backward hooks and in-place ops] 完整反向钩子与就地操作
    === "中文"

        完整反向钩子把模块的输出包进一个自定义 autograd Function。如果下游用就地操作修改这个输出
        （典型的是 ResNet 中的 `ReLU(inplace=True)` 紧跟在 BatchNorm 之后），autograd 会报错
        `Output 0 of BackwardHookFunction is a view and is being modified inplace`。
        因此在这样的模型上只记录激活值（`gradients=False`），或用 `modules=` 只选择输出不会被就地
        修改的模块。`annotated_nn` 与 `torch.nn` 在这里行为相同。

    === "English"

        A full backward hook wraps the module's outputs in a custom autograd Function. If
        something downstream modifies that output in place (typically ResNet's
        `ReLU(inplace=True)` right after a BatchNorm), autograd raises `Output 0 of
        BackwardHookFunction is a view and is being modified inplace`. On such models record
        activations only (`gradients=False`), or pick with `modules=` modules whose outputs are
        not modified in place. `annotated_nn` and `torch.nn` behave the same here.
"""

from collections.abc import Iterable
from typing import Any

import torch

__all__ = ["Recorder"]


class Recorder:
    r"""Context manager recording per-module activations and output gradients. / 按模块记录激活值与输出梯度的上下文管理器。

    === "中文"

        `activations[name]` 与 `gradients[name]` 是列表：模块每被调用（或反向经过）一次就追加一个张量。
        默认选择所有叶子模块（没有子模块的模块）。

    === "English"

        `activations[name]` and `gradients[name]` are lists: one tensor is appended per call (or
        per backward pass through the module). By default all leaf modules (those without
        children) are selected.

    Args:
        model: The model to observe. / 要观察的模型。
        modules: Names to record (default: all leaf modules). / 要记录的模块名（默认所有叶子模块）。
        activations: Whether to record outputs. / 是否记录输出。
        gradients: Whether to record output gradients. / 是否记录输出的梯度。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> net = nn.Sequential(nn.Linear(4, 3), nn.Tanh())
        >>> with Recorder(net) as rec:
        ...     net(torch.randn(2, 4, requires_grad=True)).sum().backward()
        >>> sorted(rec.activations), rec.gradients["1"][0].shape
        (['0', '1'], torch.Size([2, 3]))
        >>> len(net[0]._forward_hooks), len(net[0]._backward_hooks)
        (0, 0)
    """

    def __init__(
        self,
        model: Any,
        modules: Iterable[str] | None = None,
        activations: bool = True,
        gradients: bool = True,
    ) -> None:
        r"""Remember what to record; no hook is registered yet. / 记下要记录什么；此时还不注册钩子。

        === "中文"

            钩子只在 `__enter__` 中注册，保证"注册"与"移除"总是成对出现在同一个 `with` 块里。

        === "English"

            Hooks are registered in `__enter__` only, so registering and removing always pair up
            within one `with` block.

        Args:
            model: The model to observe. / 要观察的模型。
            modules: Names to record (default: all leaf modules). / 要记录的模块名（默认所有叶子模块）。
            activations: Whether to record outputs. / 是否记录输出。
            gradients: Whether to record output gradients. / 是否记录输出的梯度。
        """
        self.model = model
        if modules is None:
            modules = [
                n for n, m in model.named_modules() if n and not any(True for _ in m.children())
            ]
        self.names = list(modules)
        self.record_activations = activations
        self.record_gradients = gradients
        self.activations: dict[str, list[torch.Tensor]] = {}
        self.gradients: dict[str, list[torch.Tensor]] = {}
        self.handles: list[Any] = []

    def __enter__(self) -> "Recorder":
        r"""Register the hooks and start recording. / 注册钩子，开始记录。

        === "中文"

            每次进入都清空之前的记录。

        === "English"

            Each entry clears earlier records.

        Returns:
            The recorder itself. / 记录器本身。
        """
        self.activations.clear()
        self.gradients.clear()
        for name in self.names:
            module = self.model.get_submodule(name)
            if self.record_activations:
                self.handles.append(module.register_forward_hook(self._forward_hook(name)))
            if self.record_gradients:
                self.handles.append(module.register_full_backward_hook(self._backward_hook(name)))
        return self

    def __exit__(self, *exc_info: Any) -> None:
        r"""Remove every hook, even when the block raised. / 移除全部钩子，`with` 块抛出异常时也如此。

        === "中文"

            返回 `None`，因此块内的异常照常向外传播。

        === "English"

            Returns `None`, so an exception from the block propagates as usual.

        Args:
            *exc_info: Exception type, value and traceback (unused). / 异常类型、值与回溯（未使用）。
        """
        for handle in self.handles:
            handle.remove()
        self.handles.clear()

    def _forward_hook(self, name: str) -> Any:
        r"""Make the forward hook that records module `name`'s output. / 生成记录模块 `name` 输出的前向钩子。

        === "中文"

            只记录张量输出（多输出模块取第一个张量）。

        === "English"

            Records tensor outputs only (the first tensor for multi-output modules).

        Args:
            name: Dotted module name. / 带点的模块名。

        Returns:
            A forward hook. / 前向钩子。
        """

        def hook(module: Any, args: Any, output: Any) -> None:
            r"""Store a detached copy of the output. / 保存输出的 detach 副本。

            === "中文"

                返回 `None`，不改变输出。

            === "English"

                Returns `None`, leaving the output unchanged.

            Args:
                module: The module. / 模块。
                args: Its inputs. / 它的输入。
                output: Its output. / 它的输出。
            """
            tensor = (
                output
                if isinstance(output, torch.Tensor)
                else next((o for o in output if isinstance(o, torch.Tensor)), None)
            )
            if tensor is not None:
                self.activations.setdefault(name, []).append(tensor.detach())

        return hook

    def _backward_hook(self, name: str) -> Any:
        r"""Make the backward hook that records module `name`'s output gradient. / 生成记录模块 `name` 输出梯度的反向钩子。

        === "中文"

            完整反向钩子收到 `(module, grad_input, grad_output)`；这里保存 `grad_output[0]`。

        === "English"

            A full backward hook receives `(module, grad_input, grad_output)`; this keeps
            `grad_output[0]`.

        Args:
            name: Dotted module name. / 带点的模块名。

        Returns:
            A full backward hook. / 完整反向钩子。
        """

        def hook(module: Any, grad_input: Any, grad_output: Any) -> None:
            r"""Store a detached copy of the output gradient. / 保存输出梯度的 detach 副本。

            === "中文"

                返回 `None`，不改变传回的梯度。

            === "English"

                Returns `None`, leaving the gradients unchanged.

            Args:
                module: The module. / 模块。
                grad_input: Gradients w.r.t. its inputs. / 对输入的梯度。
                grad_output: Gradients w.r.t. its outputs. / 对输出的梯度。
            """
            if grad_output and grad_output[0] is not None:
                self.gradients.setdefault(name, []).append(grad_output[0].detach())

        return hook
