r"""Padding layers: grow a tensor's borders by constant, reflected, replicated or circular values. / 填充层：用常数、反射、复制或循环值扩展张量的边界。

=== "中文"

    填充层没有参数（parameter）也没有缓冲区（buffer），只保存一个 `padding` tuple，
    `forward` 就是一次 `F.pad` 调用。四个家族只差在 `F.pad` 的 `mode`：
    `constant`（填常数，`ZeroPad*` 是值为 0 的特例）、`reflect`（以边界为镜面反射，
    不重复边界元素）、`replicate`（重复边界元素）与 `circular`（从另一侧绕回来）。
    `padding` 的顺序从最后一维开始：`(左, 右, 上, 下, 前, 后)`；整数会被扩成这种 tuple，
    所以 `repr` 里总能看到完整的 tuple。

=== "English"

    Padding layers have no parameters and no buffers; they store one `padding` tuple and
    `forward` is a single `F.pad` call. The four families differ only in `F.pad`'s `mode`:
    `constant` (fill a value; `ZeroPad*` is the special case 0), `reflect` (mirror at the
    border without repeating the border element), `replicate` (repeat the border element)
    and `circular` (wrap around from the other side). `padding` is ordered from the last
    dimension back: `(left, right, top, bottom, front, back)`; an int is expanded to such a
    tuple, so the `repr` always shows the full tuple.
"""

from collections.abc import Sequence

import torch.nn.functional as F
from torch import Tensor
from torch.nn.common_types import _size_2_t, _size_4_t, _size_6_t

from .module import Module
from .utils import _ntuple, _pair, _quadruple

__all__ = [
    "CircularPad1d",
    "CircularPad2d",
    "CircularPad3d",
    "ConstantPad1d",
    "ConstantPad2d",
    "ConstantPad3d",
    "ReflectionPad1d",
    "ReflectionPad2d",
    "ReflectionPad3d",
    "ReplicationPad1d",
    "ReplicationPad2d",
    "ReplicationPad3d",
    "ZeroPad1d",
    "ZeroPad2d",
    "ZeroPad3d",
]


class _CircularPadNd(Module):
    r"""Family base of circular padding: one `F.pad(..., "circular")` call. / circular 填充的家族基类：一次 `F.pad(..., "circular")` 调用。

    === "中文"

        `circular` 模式循环填充：一侧补上的值取自另一侧，仿佛信号是周期的。
        基类没有 `__init__`：1/2/3 维子类把 `padding` 规整成长度
        2、4、6 的 tuple 后保存。
        与其他家族不同，它在 `forward` 里先调用子类的 `_check_input_dim` 检查输入维数，
        维数不对时抛出 `ValueError`。

    === "English"

        The `circular` mode means to wrap around, so the values added on one side are
        copied from the opposite side, as if the signal were periodic. The base has no
        `__init__`: the 1/2/3-d subclasses normalize `padding` to a tuple of length 2, 4
        or 6 and store it. Unlike the other families it first calls the subclass's
        `_check_input_dim` in `forward` and raises `ValueError` for a wrong number of
        dimensions.
    """

    __constants__ = ["padding"]
    padding: Sequence[int]

    def _check_input_dim(self, input):
        r"""Check the number of input dimensions; subclasses implement it. / 检查输入维数；由子类实现。

        === "中文"

            基类本身不知道合法的维数，所以直接抛出 `NotImplementedError`。

        === "English"

            The base does not know the allowed dimensions, so it raises
            `NotImplementedError`.

        Args:
            input: Tensor about to be padded. / 将要填充的张量。

        Raises:
            NotImplementedError: Always, in the base. / 在基类中总是抛出。
        """
        raise NotImplementedError

    def forward(self, input: Tensor) -> Tensor:
        r"""Pad `input` in `circular` mode via `F.pad`. / 通过 `F.pad` 以 `circular` 模式填充 `input`。

        === "中文"

            `padding` 的长度决定填充哪几个末尾维度，其余维度保持不变。

        === "English"

            The length of `padding` decides which trailing dimensions are padded; the
            others stay as they are.

        Args:
            input: Tensor to pad. / 要填充的张量。

        Returns:
            The padded tensor. / 填充后的张量。

        Raises:
            ValueError: Wrong number of input dimensions (from `_check_input_dim`). / 输入维数不对（来自 `_check_input_dim`）。
        """
        # 中: 先由子类检查维数（只接受无批次与有批次两种），不合法时抛出 `ValueError`，文本与 torch 相同。
        # EN: The subclass checks the rank first (unbatched or batched only) and raises `ValueError`
        # EN: with torch's text otherwise.
        self._check_input_dim(input)
        # 中: 每侧的填充量不能超过该维长度，否则 `F.pad` 报 "wrapping around more than once"（已实测）。
        # EN: No side may pad more than the dimension's length, else `F.pad` complains about
        # EN: "wrapping around more than once" (checked by running it).
        return F.pad(input, self.padding, "circular")

    def extra_repr(self) -> str:
        r"""Describe the padding tuple alone. / 只描述填充 tuple。

        === "中文"

            只列出 tuple 本身，例如 `(1, 1, 2, 0)`，前面没有 `padding=`。

        === "English"

            Only the tuple itself, for example `(1, 1, 2, 0)`, without a `padding=`
            prefix.

        Returns:
            The description string. / 描述字符串。
        """
        return f"{self.padding}"


class CircularPad1d(_CircularPadNd):
    r"""Pad by wrapping around over the last dimension. / 在最后一个维度上循环填充。

    === "中文"

        输入形状为 `(C, W)` 或 `(N, C, W)`。整数 `padding` 会扩成长度 2 的 tuple，
        顺序为 `(左, 右)`。

    === "English"

        Inputs are `(C, W)` or `(N, C, W)`. An int `padding` becomes a 2-tuple ordered
        `(left, right)`.

    Args:
        padding: An int for every side, or a 2-tuple `(left, right)`. / 对各边相同的整数，或 2 元 tuple `(左, 右)`。

    Raises:
        ValueError: Input is not 2-D or 3-D. / 输入不是 2 维或 3 维。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.CircularPad1d(1)(torch.tensor([[[1.0, 2.0, 3.0]]]))
        tensor([[[3., 1., 2., 3., 1.]]])
    """

    padding: tuple[int, int]

    def __init__(self, padding: _size_2_t) -> None:
        r"""Store the normalized padding. / 保存规整后的填充量。

        === "中文"

            `padding` 规整为长度 2 的 tuple。

        === "English"

            `padding` is normalized to a 2-tuple.

        Args:
            padding: Int or 2-tuple. / 整数或 2 元 tuple。
        """
        super().__init__()
        self.padding = _pair(padding)

    def _check_input_dim(self, input) -> None:
        r"""Accept only 2-D (unbatched) or 3-D (batched) input. / 只接受 2 维（无批次）或 3 维（有批次）输入。

        === "中文"

            其他维数抛出 `ValueError`，消息里给出实际维数。

        === "English"

            Any other count raises `ValueError` naming the actual count.

        Args:
            input: Tensor about to be padded. / 将要填充的张量。

        Raises:
            ValueError: Input is not 2-D or 3-D. / 输入不是 2 维或 3 维。
        """
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class CircularPad2d(_CircularPadNd):
    r"""Pad by wrapping around over the last 2 dimensions. / 在最后 2 个维度上循环填充。

    === "中文"

        输入形状为 `(C, H, W)` 或 `(N, C, H, W)`。整数 `padding` 会扩成长度 4 的 tuple，
        顺序为 `(左, 右, 上, 下)`。

    === "English"

        Inputs are `(C, H, W)` or `(N, C, H, W)`. An int `padding` becomes a 4-tuple
        ordered `(left, right, top, bottom)`.

    Args:
        padding: An int for every side, or a 4-tuple `(left, right, top, bottom)`. / 对各边相同的整数，或 4 元 tuple `(左, 右, 上, 下)`。

    Raises:
        ValueError: Input is not 3-D or 4-D. / 输入不是 3 维或 4 维。
    """

    padding: tuple[int, int, int, int]

    def __init__(self, padding: _size_4_t) -> None:
        r"""Store the normalized padding. / 保存规整后的填充量。

        === "中文"

            `padding` 规整为长度 4 的 tuple。

        === "English"

            `padding` is normalized to a 4-tuple.

        Args:
            padding: Int or 4-tuple. / 整数或 4 元 tuple。
        """
        super().__init__()
        self.padding = _quadruple(padding)

    def _check_input_dim(self, input) -> None:
        r"""Accept only 3-D (unbatched) or 4-D (batched) input. / 只接受 3 维（无批次）或 4 维（有批次）输入。

        === "中文"

            其他维数抛出 `ValueError`，消息里给出实际维数。

        === "English"

            Any other count raises `ValueError` naming the actual count.

        Args:
            input: Tensor about to be padded. / 将要填充的张量。

        Raises:
            ValueError: Input is not 3-D or 4-D. / 输入不是 3 维或 4 维。
        """
        if input.dim() != 3 and input.dim() != 4:
            raise ValueError(f"expected 3D or 4D input (got {input.dim()}D input)")


class CircularPad3d(_CircularPadNd):
    r"""Pad by wrapping around over the last 3 dimensions. / 在最后 3 个维度上循环填充。

    === "中文"

        输入形状为 `(C, D, H, W)` 或 `(N, C, D, H, W)`。整数 `padding` 会扩成长度 6 的 tuple，
        顺序为 `(左, 右, 上, 下, 前, 后)`。

    === "English"

        Inputs are `(C, D, H, W)` or `(N, C, D, H, W)`. An int `padding` becomes a
        6-tuple ordered `(left, right, top, bottom, front, back)`.

    Args:
        padding: An int for every side, or a 6-tuple `(left, right, top, bottom, front, back)`. / 对各边相同的整数，或 6 元 tuple `(左, 右, 上, 下, 前, 后)`。

    Raises:
        ValueError: Input is not 4-D or 5-D. / 输入不是 4 维或 5 维。
    """

    padding: tuple[int, int, int, int, int, int]

    def __init__(self, padding: _size_6_t) -> None:
        r"""Store the normalized padding. / 保存规整后的填充量。

        === "中文"

            `padding` 规整为长度 6 的 tuple。

        === "English"

            `padding` is normalized to a 6-tuple.

        Args:
            padding: Int or 6-tuple. / 整数或 6 元 tuple。
        """
        super().__init__()
        self.padding = _ntuple(6)(padding)

    def _check_input_dim(self, input) -> None:
        r"""Accept only 4-D (unbatched) or 5-D (batched) input. / 只接受 4 维（无批次）或 5 维（有批次）输入。

        === "中文"

            其他维数抛出 `ValueError`，消息里给出实际维数。

        === "English"

            Any other count raises `ValueError` naming the actual count.

        Args:
            input: Tensor about to be padded. / 将要填充的张量。

        Raises:
            ValueError: Input is not 4-D or 5-D. / 输入不是 4 维或 5 维。
        """
        if input.dim() != 4 and input.dim() != 5:
            raise ValueError(f"expected 4D or 5D input (got {input.dim()}D input)")


class _ConstantPadNd(Module):
    r"""Family base of constant padding: stores `value`, pads with it. / 常数填充的家族基类：保存 `value` 并用它填充。

    === "中文"

        `constant` 模式把每个新位置都填成同一个常数 `value`。
        基类只保存 `value`；`padding` 由 1/2/3 维子类规整后保存，
        因为只有子类知道 tuple 应有多长。`repr` 同时列出 `padding` 与 `value`。

    === "English"

        The `constant` mode means to fill every new position with one constant `value`.
        The base only stores `value`; the 1/2/3-d subclasses normalize and store
        `padding`, since only they know how long the tuple must be. The `repr` lists
        both `padding` and `value`.

    Args:
        value: Fill value for the new positions. / 新位置的填充值。
    """

    __constants__ = ["padding", "value"]
    value: float
    padding: Sequence[int]

    def __init__(self, value: float) -> None:
        r"""Store the fill value. / 保存填充值。

        === "中文"

            这里不检查 `value` 的类型；`F.pad` 在前向传播（forward pass）时才使用它。

        === "English"

            No type check happens here; `F.pad` uses the value during the forward pass.

        Args:
            value: Fill value. / 填充值。
        """
        super().__init__()
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        r"""Pad `input` with `value` via `F.pad`. / 通过 `F.pad` 用 `value` 填充 `input`。

        === "中文"

            `padding` 的长度决定填充哪几个末尾维度；负数会裁掉边界。

        === "English"

            The length of `padding` decides how many trailing dimensions are padded;
            negative sizes crop instead.

        Args:
            input: Tensor to pad. / 要填充的张量。

        Returns:
            The padded tensor. / 填充后的张量。
        """
        # 中: `constant` 模式对输入维数没有限制，只要求维数不少于 `len(padding) // 2`：例如
        # 中: `ConstantPad1d` 也能填充一维或六维张量（已实测）；其余三个模式只接受有/无批次两种维数。
        # EN: The `constant` mode puts no limit on the input's rank beyond having at least
        # EN: `len(padding) // 2` dimensions: `ConstantPad1d` also pads a 1-D or a 6-D tensor
        # EN: (checked by running it); the other three modes accept only the batched and unbatched
        # EN: ranks.
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        r"""Describe `padding` and `value`. / 描述 `padding` 与 `value`。

        === "中文"

            两项都列出，例如 `padding=(1, 1), value=3.5`。

        === "English"

            For example `padding=(1, 1), value=3.5`.

        Returns:
            The description string. / 描述字符串。
        """
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    r"""Pad with a constant value over the last dimension. / 在最后一个维度上用常数填充。

    === "中文"

        输入形状为 `(C, W)` 或 `(N, C, W)`。整数 `padding` 会扩成长度 2 的 tuple，
        顺序为 `(左, 右)`。

    === "English"

        Inputs are `(C, W)` or `(N, C, W)`. An int `padding` becomes a 2-tuple ordered
        `(left, right)`.

    Args:
        padding: An int for every side, or a 2-tuple `(left, right)`. / 对各边相同的整数，或 2 元 tuple `(左, 右)`。
        value: Fill value. / 填充值。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.ConstantPad1d((1, 2), 9.0)(torch.tensor([[1.0, 2.0]]))
        tensor([[9., 1., 2., 9., 9.]])
    """

    padding: tuple[int, int]

    def __init__(self, padding: _size_2_t, value: float) -> None:
        r"""Store `value` in the base, then the normalized padding. / 先在基类保存 `value`，再保存规整后的填充量。

        === "中文"

            `padding` 规整为长度 2 的 tuple。

        === "English"

            `padding` is normalized to a 2-tuple.

        Args:
            padding: Int or 2-tuple. / 整数或 2 元 tuple。
            value: Fill value. / 填充值。
        """
        super().__init__(value)
        self.padding = _pair(padding)


class ConstantPad2d(_ConstantPadNd):
    r"""Pad with a constant value over the last 2 dimensions. / 在最后 2 个维度上用常数填充。

    === "中文"

        输入形状为 `(C, H, W)` 或 `(N, C, H, W)`。整数 `padding` 会扩成长度 4 的 tuple，
        顺序为 `(左, 右, 上, 下)`。

    === "English"

        Inputs are `(C, H, W)` or `(N, C, H, W)`. An int `padding` becomes a 4-tuple
        ordered `(left, right, top, bottom)`.

    Args:
        padding: An int for every side, or a 4-tuple `(left, right, top, bottom)`. / 对各边相同的整数，或 4 元 tuple `(左, 右, 上, 下)`。
        value: Fill value. / 填充值。
    """

    # 中: torch 在这一个子类上重复写了 `__constants__`，内容与基类相同；照抄以保持类属性一致。
    # EN: torch repeats `__constants__` on this one subclass with the base's content; copied to keep
    # EN: the class attributes equal.
    __constants__ = ["padding", "value"]
    padding: tuple[int, int, int, int]

    def __init__(self, padding: _size_4_t, value: float) -> None:
        r"""Store `value` in the base, then the normalized padding. / 先在基类保存 `value`，再保存规整后的填充量。

        === "中文"

            `padding` 规整为长度 4 的 tuple。

        === "English"

            `padding` is normalized to a 4-tuple.

        Args:
            padding: Int or 4-tuple. / 整数或 4 元 tuple。
            value: Fill value. / 填充值。
        """
        super().__init__(value)
        self.padding = _quadruple(padding)


class ConstantPad3d(_ConstantPadNd):
    r"""Pad with a constant value over the last 3 dimensions. / 在最后 3 个维度上用常数填充。

    === "中文"

        输入形状为 `(C, D, H, W)` 或 `(N, C, D, H, W)`。整数 `padding` 会扩成长度 6 的 tuple，
        顺序为 `(左, 右, 上, 下, 前, 后)`。

    === "English"

        Inputs are `(C, D, H, W)` or `(N, C, D, H, W)`. An int `padding` becomes a
        6-tuple ordered `(left, right, top, bottom, front, back)`.

    Args:
        padding: An int for every side, or a 6-tuple `(left, right, top, bottom, front, back)`. / 对各边相同的整数，或 6 元 tuple `(左, 右, 上, 下, 前, 后)`。
        value: Fill value. / 填充值。
    """

    padding: tuple[int, int, int, int, int, int]

    def __init__(self, padding: _size_6_t, value: float) -> None:
        r"""Store `value` in the base, then the normalized padding. / 先在基类保存 `value`，再保存规整后的填充量。

        === "中文"

            `padding` 规整为长度 6 的 tuple。

        === "English"

            `padding` is normalized to a 6-tuple.

        Args:
            padding: Int or 6-tuple. / 整数或 6 元 tuple。
            value: Fill value. / 填充值。
        """
        super().__init__(value)
        self.padding = _ntuple(6)(padding)


class _ReflectionPadNd(Module):
    r"""Family base of reflect padding: one `F.pad(..., "reflect")` call. / reflect 填充的家族基类：一次 `F.pad(..., "reflect")` 调用。

    === "中文"

        `reflect` 模式以边界为镜面反射，但不重复边界元素，因此每个填充量都必须小于该维的长度。
        基类没有 `__init__`：1/2/3 维子类把 `padding` 规整成长度
        2、4、6 的 tuple 后保存。

    === "English"

        The `reflect` mode means to mirror at the border without repeating the border
        element, so each padding size must be smaller than the padded dimension. The
        base has no `__init__`: the 1/2/3-d subclasses normalize `padding` to a tuple of
        length 2, 4 or 6 and store it.
    """

    __constants__ = ["padding"]
    padding: Sequence[int]

    def forward(self, input: Tensor) -> Tensor:
        r"""Pad `input` in `reflect` mode via `F.pad`. / 通过 `F.pad` 以 `reflect` 模式填充 `input`。

        === "中文"

            `padding` 的长度决定填充哪几个末尾维度，其余维度保持不变。

        === "English"

            The length of `padding` decides which trailing dimensions are padded; the
            others stay as they are.

        Args:
            input: Tensor to pad. / 要填充的张量。

        Returns:
            The padded tensor. / 填充后的张量。
        """
        # 中: 不另查维数，维数不合时由 `F.pad` 报错：维数少于填充所需时是 `RuntimeError`，够了但组合
        # 中: 不支持时是 `NotImplementedError`。`reflect` 不重复边界元素，
        # 中: 所以每个填充量都必须小于该维长度，否则 `F.pad` 报错（已实测）。
        # EN: No rank check of its own: a wrong rank makes `F.pad` raise, `RuntimeError` when the
        # EN: input has fewer dimensions than the padding needs, `NotImplementedError` when it has
        # EN: enough but the combination is not supported.
        # EN: `reflect` does not repeat the border element, so each padding size must be smaller
        # EN: than the dimension, else `F.pad` fails (checked by running it).
        return F.pad(input, self.padding, "reflect")

    def extra_repr(self) -> str:
        r"""Describe the padding tuple alone. / 只描述填充 tuple。

        === "中文"

            只列出 tuple 本身，例如 `(1, 1, 2, 0)`，前面没有 `padding=`。

        === "English"

            Only the tuple itself, for example `(1, 1, 2, 0)`, without a `padding=`
            prefix.

        Returns:
            The description string. / 描述字符串。
        """
        return f"{self.padding}"


class ReflectionPad1d(_ReflectionPadNd):
    r"""Pad by mirroring at the border over the last dimension. / 在最后一个维度上镜面反射填充。

    === "中文"

        输入形状为 `(C, W)` 或 `(N, C, W)`。整数 `padding` 会扩成长度 2 的 tuple，
        顺序为 `(左, 右)`。

    === "English"

        Inputs are `(C, W)` or `(N, C, W)`. An int `padding` becomes a 2-tuple ordered
        `(left, right)`.

    Args:
        padding: An int for every side, or a 2-tuple `(left, right)`. / 对各边相同的整数，或 2 元 tuple `(左, 右)`。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.ReflectionPad1d(2)(torch.tensor([[[1.0, 2.0, 3.0]]]))
        tensor([[[3., 2., 1., 2., 3., 2., 1.]]])
    """

    padding: tuple[int, int]

    def __init__(self, padding: _size_2_t) -> None:
        r"""Store the normalized padding. / 保存规整后的填充量。

        === "中文"

            `padding` 规整为长度 2 的 tuple。

        === "English"

            `padding` is normalized to a 2-tuple.

        Args:
            padding: Int or 2-tuple. / 整数或 2 元 tuple。
        """
        super().__init__()
        self.padding = _pair(padding)


class ReflectionPad2d(_ReflectionPadNd):
    r"""Pad by mirroring at the border over the last 2 dimensions. / 在最后 2 个维度上镜面反射填充。

    === "中文"

        输入形状为 `(C, H, W)` 或 `(N, C, H, W)`。整数 `padding` 会扩成长度 4 的 tuple，
        顺序为 `(左, 右, 上, 下)`。

    === "English"

        Inputs are `(C, H, W)` or `(N, C, H, W)`. An int `padding` becomes a 4-tuple
        ordered `(left, right, top, bottom)`.

    Args:
        padding: An int for every side, or a 4-tuple `(left, right, top, bottom)`. / 对各边相同的整数，或 4 元 tuple `(左, 右, 上, 下)`。
    """

    padding: tuple[int, int, int, int]

    def __init__(self, padding: _size_4_t) -> None:
        r"""Store the normalized padding. / 保存规整后的填充量。

        === "中文"

            `padding` 规整为长度 4 的 tuple。

        === "English"

            `padding` is normalized to a 4-tuple.

        Args:
            padding: Int or 4-tuple. / 整数或 4 元 tuple。
        """
        super().__init__()
        self.padding = _quadruple(padding)


class ReflectionPad3d(_ReflectionPadNd):
    r"""Pad by mirroring at the border over the last 3 dimensions. / 在最后 3 个维度上镜面反射填充。

    === "中文"

        输入形状为 `(C, D, H, W)` 或 `(N, C, D, H, W)`。整数 `padding` 会扩成长度 6 的 tuple，
        顺序为 `(左, 右, 上, 下, 前, 后)`。

    === "English"

        Inputs are `(C, D, H, W)` or `(N, C, D, H, W)`. An int `padding` becomes a
        6-tuple ordered `(left, right, top, bottom, front, back)`.

    Args:
        padding: An int for every side, or a 6-tuple `(left, right, top, bottom, front, back)`. / 对各边相同的整数，或 6 元 tuple `(左, 右, 上, 下, 前, 后)`。
    """

    padding: tuple[int, int, int, int, int, int]

    def __init__(self, padding: _size_6_t) -> None:
        r"""Store the normalized padding. / 保存规整后的填充量。

        === "中文"

            `padding` 规整为长度 6 的 tuple。

        === "English"

            `padding` is normalized to a 6-tuple.

        Args:
            padding: Int or 6-tuple. / 整数或 6 元 tuple。
        """
        super().__init__()
        self.padding = _ntuple(6)(padding)


class _ReplicationPadNd(Module):
    r"""Family base of replicate padding: one `F.pad(..., "replicate")` call. / replicate 填充的家族基类：一次 `F.pad(..., "replicate")` 调用。

    === "中文"

        `replicate` 模式把边界元素按需要的次数重复。
        基类没有 `__init__`：1/2/3 维子类把 `padding` 规整成长度
        2、4、6 的 tuple 后保存。

    === "English"

        The `replicate` mode means to repeat the border element as many times as asked.
        The base has no `__init__`: the 1/2/3-d subclasses normalize `padding` to a
        tuple of length 2, 4 or 6 and store it.
    """

    __constants__ = ["padding"]
    padding: Sequence[int]

    def forward(self, input: Tensor) -> Tensor:
        r"""Pad `input` in `replicate` mode via `F.pad`. / 通过 `F.pad` 以 `replicate` 模式填充 `input`。

        === "中文"

            `padding` 的长度决定填充哪几个末尾维度，其余维度保持不变。

        === "English"

            The length of `padding` decides which trailing dimensions are padded; the
            others stay as they are.

        Args:
            input: Tensor to pad. / 要填充的张量。

        Returns:
            The padded tensor. / 填充后的张量。
        """
        # 中: 不另查维数，维数不合时由 `F.pad` 报错：维数少于填充所需时是 `RuntimeError`，够了但组合
        # 中: 不支持时是 `NotImplementedError`。填充量没有上限，边界元素想重复多少次都行。
        # EN: No rank check of its own: a wrong rank makes `F.pad` raise, `RuntimeError` when the
        # EN: input has fewer dimensions than the padding needs, `NotImplementedError` when it has
        # EN: enough but the combination is not supported. The padding size has no upper bound:
        # EN: the border element repeats as often as asked.
        return F.pad(input, self.padding, "replicate")

    def extra_repr(self) -> str:
        r"""Describe the padding tuple alone. / 只描述填充 tuple。

        === "中文"

            只列出 tuple 本身，例如 `(1, 1, 2, 0)`，前面没有 `padding=`。

        === "English"

            Only the tuple itself, for example `(1, 1, 2, 0)`, without a `padding=`
            prefix.

        Returns:
            The description string. / 描述字符串。
        """
        return f"{self.padding}"


class ReplicationPad1d(_ReplicationPadNd):
    r"""Pad by repeating the border element over the last dimension. / 在最后一个维度上复制边界元素填充。

    === "中文"

        输入形状为 `(C, W)` 或 `(N, C, W)`。整数 `padding` 会扩成长度 2 的 tuple，
        顺序为 `(左, 右)`。

    === "English"

        Inputs are `(C, W)` or `(N, C, W)`. An int `padding` becomes a 2-tuple ordered
        `(left, right)`.

    Args:
        padding: An int for every side, or a 2-tuple `(left, right)`. / 对各边相同的整数，或 2 元 tuple `(左, 右)`。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.ReplicationPad1d((2, 1))(torch.tensor([[[1.0, 2.0, 3.0]]]))
        tensor([[[1., 1., 1., 2., 3., 3.]]])
    """

    padding: tuple[int, int]

    def __init__(self, padding: _size_2_t) -> None:
        r"""Store the normalized padding. / 保存规整后的填充量。

        === "中文"

            `padding` 规整为长度 2 的 tuple。

        === "English"

            `padding` is normalized to a 2-tuple.

        Args:
            padding: Int or 2-tuple. / 整数或 2 元 tuple。
        """
        super().__init__()
        self.padding = _pair(padding)


class ReplicationPad2d(_ReplicationPadNd):
    r"""Pad by repeating the border element over the last 2 dimensions. / 在最后 2 个维度上复制边界元素填充。

    === "中文"

        输入形状为 `(C, H, W)` 或 `(N, C, H, W)`。整数 `padding` 会扩成长度 4 的 tuple，
        顺序为 `(左, 右, 上, 下)`。

    === "English"

        Inputs are `(C, H, W)` or `(N, C, H, W)`. An int `padding` becomes a 4-tuple
        ordered `(left, right, top, bottom)`.

    Args:
        padding: An int for every side, or a 4-tuple `(left, right, top, bottom)`. / 对各边相同的整数，或 4 元 tuple `(左, 右, 上, 下)`。
    """

    padding: tuple[int, int, int, int]

    def __init__(self, padding: _size_4_t) -> None:
        r"""Store the normalized padding. / 保存规整后的填充量。

        === "中文"

            `padding` 规整为长度 4 的 tuple。

        === "English"

            `padding` is normalized to a 4-tuple.

        Args:
            padding: Int or 4-tuple. / 整数或 4 元 tuple。
        """
        super().__init__()
        self.padding = _quadruple(padding)


class ReplicationPad3d(_ReplicationPadNd):
    r"""Pad by repeating the border element over the last 3 dimensions. / 在最后 3 个维度上复制边界元素填充。

    === "中文"

        输入形状为 `(C, D, H, W)` 或 `(N, C, D, H, W)`。整数 `padding` 会扩成长度 6 的 tuple，
        顺序为 `(左, 右, 上, 下, 前, 后)`。

    === "English"

        Inputs are `(C, D, H, W)` or `(N, C, D, H, W)`. An int `padding` becomes a
        6-tuple ordered `(left, right, top, bottom, front, back)`.

    Args:
        padding: An int for every side, or a 6-tuple `(left, right, top, bottom, front, back)`. / 对各边相同的整数，或 6 元 tuple `(左, 右, 上, 下, 前, 后)`。
    """

    padding: tuple[int, int, int, int, int, int]

    def __init__(self, padding: _size_6_t) -> None:
        r"""Store the normalized padding. / 保存规整后的填充量。

        === "中文"

            `padding` 规整为长度 6 的 tuple。

        === "English"

            `padding` is normalized to a 6-tuple.

        Args:
            padding: Int or 6-tuple. / 整数或 6 元 tuple。
        """
        super().__init__()
        self.padding = _ntuple(6)(padding)


class ZeroPad1d(ConstantPad1d):
    r"""Pad with zeros over the last dimension. / 在最后一个维度上用零填充。

    === "中文"

        就是 `value=0.0` 的 `ConstantPad1d`，但 `repr` 只显示填充 tuple，不显示 `value`。

    === "English"

        Simply `ConstantPad1d` with `value=0.0`, except that the `repr` shows only the
        padding tuple, not the value.

    Args:
        padding: An int for every side, or a 2-tuple `(left, right)`. / 对各边相同的整数，或 2 元 tuple `(左, 右)`。
    """

    padding: tuple[int, int]

    def __init__(self, padding: _size_2_t) -> None:
        r"""Delegate to the constant pad with value 0.0. / 交给值为 0.0 的常数填充。

        === "中文"

            填充值固定为浮点数 `0.0`。

        === "English"

            The fill value is fixed to the float `0.0`.

        Args:
            padding: Int or 2-tuple. / 整数或 2 元 tuple。
        """
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        r"""Describe the padding tuple alone. / 只描述填充 tuple。

        === "中文"

            覆盖常数填充的 `extra_repr`，省去总是 0 的 `value`。

        === "English"

            Overrides the constant pad's `extra_repr` to drop the always-zero `value`.

        Returns:
            The description string. / 描述字符串。
        """
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    r"""Pad with zeros over the last 2 dimensions. / 在最后 2 个维度上用零填充。

    === "中文"

        就是 `value=0.0` 的 `ConstantPad2d`，但 `repr` 只显示填充 tuple，不显示 `value`。

    === "English"

        Simply `ConstantPad2d` with `value=0.0`, except that the `repr` shows only the
        padding tuple, not the value.

    Args:
        padding: An int for every side, or a 4-tuple `(left, right, top, bottom)`. / 对各边相同的整数，或 4 元 tuple `(左, 右, 上, 下)`。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.ZeroPad2d((1, 0, 0, 1))(torch.ones(1, 1, 1))
        tensor([[[0., 1.],
                 [0., 0.]]])
    """

    padding: tuple[int, int, int, int]

    def __init__(self, padding: _size_4_t) -> None:
        r"""Delegate to the constant pad with value 0.0. / 交给值为 0.0 的常数填充。

        === "中文"

            填充值固定为浮点数 `0.0`。

        === "English"

            The fill value is fixed to the float `0.0`.

        Args:
            padding: Int or 4-tuple. / 整数或 4 元 tuple。
        """
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        r"""Describe the padding tuple alone. / 只描述填充 tuple。

        === "中文"

            覆盖常数填充的 `extra_repr`，省去总是 0 的 `value`。

        === "English"

            Overrides the constant pad's `extra_repr` to drop the always-zero `value`.

        Returns:
            The description string. / 描述字符串。
        """
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    r"""Pad with zeros over the last 3 dimensions. / 在最后 3 个维度上用零填充。

    === "中文"

        就是 `value=0.0` 的 `ConstantPad3d`，但 `repr` 只显示填充 tuple，不显示 `value`。

    === "English"

        Simply `ConstantPad3d` with `value=0.0`, except that the `repr` shows only the
        padding tuple, not the value.

    Args:
        padding: An int for every side, or a 6-tuple `(left, right, top, bottom, front, back)`. / 对各边相同的整数，或 6 元 tuple `(左, 右, 上, 下, 前, 后)`。
    """

    padding: tuple[int, int, int, int, int, int]

    def __init__(self, padding: _size_6_t) -> None:
        r"""Delegate to the constant pad with value 0.0. / 交给值为 0.0 的常数填充。

        === "中文"

            填充值固定为浮点数 `0.0`。

        === "English"

            The fill value is fixed to the float `0.0`.

        Args:
            padding: Int or 6-tuple. / 整数或 6 元 tuple。
        """
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        r"""Describe the padding tuple alone. / 只描述填充 tuple。

        === "中文"

            覆盖常数填充的 `extra_repr`，省去总是 0 的 `value`。

        === "English"

            Overrides the constant pad's `extra_repr` to drop the always-zero `value`.

        Returns:
            The description string. / 描述字符串。
        """
        return f"{self.padding}"
