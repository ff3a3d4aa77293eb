r"""`Flatten` and `Unflatten`: reshape layers for use inside `Sequential`. / `Flatten` 与 `Unflatten`：可放进 `Sequential` 的变形层。

=== "中文"

    读者熟悉的 `SimpleNet` 在 `forward` 里写 `x.view(-1, 16*6*6)`；把网络写成
    `Sequential` 时没有地方写这行代码，`Flatten` 就是它的模块形式。两者都没有参数（parameter）。

=== "English"

    The readers' familiar `SimpleNet` writes `x.view(-1, 16*6*6)` inside `forward`; a network
    written as a `Sequential` has no place for that line, and `Flatten` is its module form.
    Neither layer has parameters.
"""

from torch import Tensor
from torch.types import _size

from .module import Module

__all__ = ["Flatten", "Unflatten"]


class Flatten(Module):
    r"""Flatten dimensions `start_dim..end_dim` into one. / 把第 `start_dim` 到 `end_dim` 维展平成一维。

    === "中文"

        默认 `start_dim=1` 保留批次维，只展平其余各维；这与 `torch.flatten` 默认从第 0 维
        开始不同。内部用 `Tensor.flatten`，能返回视图时不拷贝。

    === "English"

        The default `start_dim=1` keeps the batch dimension and flattens the rest; unlike
        `torch.flatten`, which starts at dimension 0 by default. It uses `Tensor.flatten`, which
        returns a view without copying when it can.

    Args:
        start_dim: First dimension to flatten. / 开始展平的维度。
        end_dim: Last dimension to flatten. / 结束展平的维度。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.Flatten()(torch.randn(32, 1, 5, 5)).shape
        torch.Size([32, 25])
        >>> nn.Flatten(0, 2)(torch.randn(32, 1, 5, 5)).shape
        torch.Size([160, 5])
    """

    __constants__ = ["start_dim", "end_dim"]
    start_dim: int
    end_dim: int

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        r"""Store the dimension range. / 保存维度范围。

        === "中文"

            不做校验；越界在 `forward` 中由 `Tensor.flatten` 报错。

        === "English"

            No validation; out-of-range dimensions fail in `forward`, from `Tensor.flatten`.

        Args:
            start_dim: First dimension to flatten. / 开始展平的维度。
            end_dim: Last dimension to flatten. / 结束展平的维度。
        """
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        r"""Flatten `input` over the stored range. / 在保存的范围上展平 `input`。

        === "中文"

            等价于 `input.flatten(start_dim, end_dim)`，能返回视图时不拷贝。

        === "English"

            Same as `input.flatten(start_dim, end_dim)`; no copy when a view can be returned.

        Args:
            input: Any tensor. / 任意张量。

        Returns:
            The flattened tensor. / 展平后的张量。
        """
        # 中: 默认范围 `1..-1` 保留第 0 维（批次维）；`Tensor.flatten` 能返回视图时不拷贝，
        # 中: 例如输入是连续的时候。
        # EN: The default range `1..-1` keeps dimension 0 (the batch); `Tensor.flatten` returns a
        # EN: view without copying when it can, e.g. for a contiguous input.
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        r"""Describe the dimension range. / 描述维度范围。

        === "中文"

            两个维度都列出，例如 `start_dim=1, end_dim=-1`。

        === "English"

            For example `start_dim=1, end_dim=-1`.

        Returns:
            The description string. / 描述字符串。
        """
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    r"""Split dimension `dim` into the shape `unflattened_size`. / 把第 `dim` 维拆成形状 `unflattened_size`。

    === "中文"

        `Flatten` 的逆操作。`unflattened_size` 必须是由 int 组成的 tuple 或 list，
        可以含一个 `-1` 让该维自动推断。构造时检查类型，错误信息指明出错的元素位置。
        1.5.1 → 2.13：1.5.1 已有 `Flatten`，但还没有 `Unflatten`（1.7 才加入）。

    === "English"

        The inverse of `Flatten`. `unflattened_size` must be a tuple or list of ints and may
        hold one `-1` to infer that size. The type is checked at construction, and the message
        names the offending element's position.
        1.5.1 → 2.13: 1.5.1 already had `Flatten` but not yet `Unflatten` (added in 1.7).

    Args:
        dim: The dimension to split. / 要拆分的维度。
        unflattened_size: The new shape of that dimension. / 该维的新形状。

    Raises:
        TypeError: `unflattened_size` is not a tuple/list of ints. / `unflattened_size` 不是由 int 组成的 tuple/list。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.Unflatten(1, (2, 5, 5))(torch.randn(2, 50)).shape
        torch.Size([2, 2, 5, 5])
    """

    __constants__ = ["dim", "unflattened_size"]
    dim: int
    unflattened_size: _size

    def __init__(self, dim: int, unflattened_size: _size) -> None:
        r"""Validate `unflattened_size` and store both arguments. / 校验 `unflattened_size` 并保存两个参数。

        === "中文"

            校验在保存之前，失败时对象不会留下任何属性。`unflattened_size` 原样保存
            （list 仍是 list），这会反映在 `repr` 中。

        === "English"

            Validation happens before storing, so a failure leaves no attributes behind.
            `unflattened_size` is stored as given (a list stays a list), which shows in the `repr`.

        Args:
            dim: The dimension to split. / 要拆分的维度。
            unflattened_size: The new shape of that dimension. / 该维的新形状。

        Raises:
            TypeError: `unflattened_size` is not a tuple/list of ints. / `unflattened_size` 不是由 int 组成的 tuple/list。
        """
        # 中: 先校验再保存：失败时 `dim` 与 `unflattened_size` 都不会留下。`dim` 不检查，
        # 中: 越界要到 `forward` 中由 `Tensor.unflatten` 报告。
        # EN: Check, then store: a failure leaves neither `dim` nor `unflattened_size` behind. `dim`
        # EN: is not checked; out of range, it fails in `forward`, from `Tensor.unflatten`.
        super().__init__()
        self._require_tuple_int(unflattened_size)
        self.dim = dim
        self.unflattened_size = unflattened_size

    def _require_tuple_int(self, input) -> None:
        r"""Raise `TypeError` unless `input` is a tuple or list of ints. / 若 `input` 不是由 int 组成的 tuple 或 list，抛出 `TypeError`。

        === "中文"

            两种错误信息：容器类型不对时报告类型名；某个元素不是 int 时报告它的类型与下标。
            注意 `bool` 是 `int` 的子类，会被接受。

        === "English"

            Two messages: a wrong container reports its type name; a non-int element reports
            its type and index. Note that `bool` subclasses `int` and is accepted.

        Args:
            input: The value to check. / 要检查的值。

        Raises:
            TypeError: Wrong container or element type. / 容器或元素类型不对。
        """
        # 中: 容器是 tuple 或 list 时逐个检查元素，报出第一个非 int 元素的类型与下标；
        # 中: `torch.Size` 是 tuple 的子类，也能通过。
        # EN: For a tuple or list, check each element and report the first non-int one's type and
        # EN: index; `torch.Size` subclasses tuple and passes too.
        if isinstance(input, (tuple, list)):
            for idx, elem in enumerate(input):
                if not isinstance(elem, int):
                    raise TypeError(
                        "unflattened_size must be tuple of ints, "
                        + f"but found element of type {type(elem).__name__} at pos {idx}"
                    )
            return
        # 中: 其他任何值（包括单个 int）一律拒绝。两种报错文本都与 torch 相同（注意前一条少了 "a"）。
        # EN: Anything else (a lone int included) is refused. Both messages are torch's (note that
        # EN: the first one lacks an "a").
        raise TypeError(
            f"unflattened_size must be a tuple of ints, but found type {type(input).__name__}"
        )

    def forward(self, input: Tensor) -> Tensor:
        r"""Split dimension `dim` of `input`. / 拆分 `input` 的第 `dim` 维。

        === "中文"

            等价于 `input.unflatten(dim, unflattened_size)`；尺寸之积必须等于该维大小。

        === "English"

            Same as `input.unflatten(dim, unflattened_size)`; the sizes must multiply to that
            dimension's length.

        Args:
            input: Any tensor. / 任意张量。

        Returns:
            The reshaped tensor. / 变形后的张量。
        """
        # 中: `Tensor.unflatten` 能返回视图时不拷贝；`unflattened_size` 里的一个 `-1` 由该维大小推断。
        # EN: `Tensor.unflatten` returns a view when it can; one `-1` in `unflattened_size` is
        # EN: inferred from the dimension's size.
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        r"""Describe the dimension and the new shape. / 描述维度与新形状。

        === "中文"

            维度与新形状都列出，例如 `dim=1, unflattened_size=(2, 5, 5)`。

        === "English"

            For example `dim=1, unflattened_size=(2, 5, 5)`.

        Returns:
            The description string. / 描述字符串。
        """
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
