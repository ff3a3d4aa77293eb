r"""Fold and Unfold: convert between images and columns of sliding blocks. / Fold 与 Unfold：在图像与滑动块的列之间转换。

=== "中文"

    `Unfold`（又称 im2col）把输入 `(N, C, *)` 中每个滑动窗口展平成一列，得到
    `(N, C·∏kernel_size, L)`，`L` 是窗口个数；卷积可以写成“unfold + 矩阵乘法”。
    `Fold`（col2im）反过来把这些列放回 `output_size` 大小的图像，重叠位置的值相加，
    所以 `Fold(Unfold(x))` 一般不等于 `x`。两者都没有参数（parameter），尺寸参数原样保存，
    `repr` 中显示的就是用户给的值。

=== "English"

    `Unfold` (a.k.a. im2col) flattens every sliding window of an `(N, C, *)` input into a
    column, giving `(N, C·∏kernel_size, L)` where `L` is the number of windows; a convolution
    can be written as "unfold + matrix multiply". `Fold` (col2im) puts such columns back into
    an image of size `output_size`, summing overlapping positions, so `Fold(Unfold(x))` is in
    general not `x`. Neither has parameters; the size arguments are stored as given, and the
    `repr` shows exactly the user's values.
"""

import torch.nn.functional as F
from torch import Tensor
from torch.nn.common_types import _size_any_t

from .module import Module

__all__ = ["Fold", "Unfold"]


class Fold(Module):
    r"""Sum columns of sliding blocks back into an image (col2im). / 把滑动块的列求和放回图像（col2im）。

    === "中文"

        输入 `(N, C·∏kernel_size, L)` 或无批次的 `(C·∏kernel_size, L)`；`L` 必须等于
        由 `output_size`、`kernel_size`、`dilation`、`padding`、`stride` 算出的窗口数，
        否则 `F.fold` 抛出 `RuntimeError`。目前只支持二维图像。

    === "English"

        Input `(N, C·∏kernel_size, L)` or unbatched `(C·∏kernel_size, L)`; `L` must equal the
        number of windows implied by `output_size`, `kernel_size`, `dilation`, `padding` and
        `stride`, otherwise `F.fold` raises `RuntimeError`. Only 2-D images are supported.

    Args:
        output_size: Spatial size of the output image. / 输出图像的空间尺寸。
        kernel_size: Size of the sliding blocks. / 滑动块的大小。
        dilation: Spacing between block elements. / 块内元素的间隔。
        padding: Implicit zero padding on both sides. / 两侧的隐式零填充。
        stride: Step of the sliding blocks. / 滑动块的步长。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.Fold(output_size=(3, 3), kernel_size=2)(torch.ones(1, 4, 4))[0, 0]
        tensor([[1., 2., 1.],
                [2., 4., 2.],
                [1., 2., 1.]])
    """

    __constants__ = ["output_size", "kernel_size", "dilation", "padding", "stride"]
    output_size: _size_any_t
    kernel_size: _size_any_t
    dilation: _size_any_t
    padding: _size_any_t
    stride: _size_any_t

    def __init__(
        self,
        output_size: _size_any_t,
        kernel_size: _size_any_t,
        dilation: _size_any_t = 1,
        padding: _size_any_t = 0,
        stride: _size_any_t = 1,
    ) -> None:
        r"""Store the five size settings unchanged. / 原样保存五个尺寸设置。

        === "中文"

            不规整成 tuple，也不做检查；错误在前向传播（forward pass）时由 `F.fold` 报告。

        === "English"

            Nothing is normalized to tuples or checked; `F.fold` reports errors during the
            forward pass.

        Args:
            output_size: Spatial size of the output image. / 输出图像的空间尺寸。
            kernel_size: Size of the sliding blocks. / 滑动块的大小。
            dilation: Spacing between block elements. / 块内元素的间隔。
            padding: Implicit zero padding on both sides. / 两侧的隐式零填充。
            stride: Step of the sliding blocks. / 滑动块的步长。
        """
        # 中: 原样保存：`F.fold` 在每次调用时才用 `_pair` 把五项规整成 2 元 tuple，交给只处理二维图像的
        # 中: `col2im` 内核。
        # EN: Stored as given: at every call `F.fold` normalizes the five with `_pair` into 2-tuples
        # EN: for the `col2im` kernel, which handles 2-D images only.
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input: Tensor) -> Tensor:
        r"""Combine the columns via `F.fold`. / 通过 `F.fold` 合并各列。

        === "中文"

            重叠位置的值相加。

        === "English"

            Values at overlapping positions are summed.

        Args:
            input: Columns `(N, C·∏kernel_size, L)`. / 列张量 `(N, C·∏kernel_size, L)`。

        Returns:
            Image `(N, C, *output_size)`. / 图像 `(N, C, *output_size)`。
        """
        # 中: 输入的最后一维 `L` 必须等于按 `output_size` 等五项算出的窗口数，否则 `col2im` 报 `RuntimeError`；
        # 中: 也接受无批次的二维输入 `(C·∏kernel_size, L)`（已实测）。
        # EN: The input's last dimension `L` must equal the number of windows implied by the five
        # EN: settings, else `col2im` raises `RuntimeError`; an unbatched 2-D input
        # EN: `(C·∏kernel_size, L)` works too (checked by running it).
        return F.fold(
            input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride
        )

    def extra_repr(self) -> str:
        r"""Describe all five settings. / 描述全部五个设置。

        === "中文"

            按 `output_size, kernel_size, dilation, padding, stride` 的顺序列出。

        === "English"

            Listed in the order `output_size, kernel_size, dilation, padding, stride`.

        Returns:
            The description string. / 描述字符串。
        """
        return (
            f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
            f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}"
        )


class Unfold(Module):
    r"""Extract sliding blocks as columns (im2col). / 把滑动块提取为列（im2col）。

    === "中文"

        输入 `(N, C, H, W)` 或无批次的 `(C, H, W)`，输出 `(N, C·∏kernel_size, L)`。
        目前只支持四维（有批次）或三维（无批次）输入，其他维数由 `F.unfold` 报错。

    === "English"

        Input `(N, C, H, W)` or unbatched `(C, H, W)`, output `(N, C·∏kernel_size, L)`.
        Only 4-D (batched) or 3-D (unbatched) input is supported; other ranks make
        `F.unfold` raise.

    Args:
        kernel_size: Size of the sliding blocks. / 滑动块的大小。
        dilation: Spacing between block elements. / 块内元素的间隔。
        padding: Implicit zero padding on both sides. / 两侧的隐式零填充。
        stride: Step of the sliding blocks. / 滑动块的步长。
    """

    __constants__ = ["kernel_size", "dilation", "padding", "stride"]
    kernel_size: _size_any_t
    dilation: _size_any_t
    padding: _size_any_t
    stride: _size_any_t

    def __init__(
        self,
        kernel_size: _size_any_t,
        dilation: _size_any_t = 1,
        padding: _size_any_t = 0,
        stride: _size_any_t = 1,
    ) -> None:
        r"""Store the four size settings unchanged. / 原样保存四个尺寸设置。

        === "中文"

            不规整成 tuple，也不做检查；错误在前向传播（forward pass）时由 `F.unfold` 报告。

        === "English"

            Nothing is normalized to tuples or checked; `F.unfold` reports errors during the
            forward pass.

        Args:
            kernel_size: Size of the sliding blocks. / 滑动块的大小。
            dilation: Spacing between block elements. / 块内元素的间隔。
            padding: Implicit zero padding on both sides. / 两侧的隐式零填充。
            stride: Step of the sliding blocks. / 滑动块的步长。
        """
        # 中: 与 `Fold` 相同，原样保存；`F.unfold` 每次调用时用 `_pair` 规整后交给 `im2col` 内核。
        # EN: As in `Fold`, stored as given; `F.unfold` normalizes them with `_pair` for the
        # EN: `im2col` kernel at every call.
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input: Tensor) -> Tensor:
        r"""Extract the blocks via `F.unfold`. / 通过 `F.unfold` 提取滑动块。

        === "中文"

            每个窗口展平成输出中的一列。

        === "English"

            Every window becomes one column of the output.

        Args:
            input: Image `(N, C, H, W)`. / 图像 `(N, C, H, W)`。

        Returns:
            Columns `(N, C·∏kernel_size, L)`. / 列张量 `(N, C·∏kernel_size, L)`。
        """
        # 中: 输出 `(N, C·∏kernel_size, L)`；重叠的窗口各自复制一份元素，所以输出可能比输入大得多。
        # EN: Output `(N, C·∏kernel_size, L)`; overlapping windows each copy their elements, so the
        # EN: output can be much larger than the input.
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        r"""Describe all four settings. / 描述全部四个设置。

        === "中文"

            按 `kernel_size, dilation, padding, stride` 的顺序列出。

        === "English"

            Listed in the order `kernel_size, dilation, padding, stride`.

        Returns:
            The description string. / 描述字符串。
        """
        return (
            f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
            f"padding={self.padding}, stride={self.stride}"
        )
