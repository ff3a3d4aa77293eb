r"""Pixel shuffle: trade channels for spatial resolution and back. / 像素重排：在通道数与空间分辨率之间互换。

=== "中文"

    两个层都没有参数（parameter），只是重新排列元素：`PixelShuffle(r)` 把形状
    `(*, C·r², H, W)` 变成 `(*, C, H·r, W·r)`，常用于超分辨率网络的上采样（“亚像素卷积”）；
    `PixelUnshuffle(r)` 是它的逆运算。元素个数不变，梯度只是按同样的方式搬回去。

=== "English"

    Neither layer has parameters; they only rearrange elements. `PixelShuffle(r)` turns shape
    `(*, C·r², H, W)` into `(*, C, H·r, W·r)` and is common for upsampling in super-resolution
    networks ("sub-pixel convolution"); `PixelUnshuffle(r)` is its inverse. The number of
    elements is unchanged, and gradients are simply moved back the same way.
"""

import torch.nn.functional as F
from torch import Tensor

from .module import Module

__all__ = ["PixelShuffle", "PixelUnshuffle"]


class PixelShuffle(Module):
    r"""Move channel blocks of size `r²` into `r×r` spatial blocks. / 把大小为 `r²` 的通道块搬到 `r×r` 的空间块中。

    === "中文"

        输入 `(*, C·r², H, W)`，输出 `(*, C, H·r, W·r)`。通道数不能被 `r²` 整除时，
        `F.pixel_shuffle` 会抛出 `RuntimeError`。

    === "English"

        Input `(*, C·r², H, W)`, output `(*, C, H·r, W·r)`. When the channel count is not
        divisible by `r²`, `F.pixel_shuffle` raises `RuntimeError`.

    Args:
        upscale_factor: The factor `r` of both spatial dimensions. / 两个空间维的放大倍数 `r`。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.PixelShuffle(2)(torch.zeros(1, 8, 3, 3)).shape
        torch.Size([1, 2, 6, 6])
    """

    __constants__ = ["upscale_factor"]
    upscale_factor: int

    def __init__(self, upscale_factor: int) -> None:
        r"""Store the upscale factor. / 保存放大倍数。

        === "中文"

            构造时不做检查，错误在前向传播（forward pass）时才出现。

        === "English"

            Nothing is checked here; errors only appear during the forward pass.

        Args:
            upscale_factor: The factor `r`. / 倍数 `r`。
        """
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:
        r"""Rearrange via `F.pixel_shuffle`. / 通过 `F.pixel_shuffle` 重排。

        === "中文"

            只是一次函数调用，没有任何状态。

        === "English"

            A single function call with no state involved.

        Args:
            input: Tensor of shape `(*, C·r², H, W)`. / 形状为 `(*, C·r², H, W)` 的张量。

        Returns:
            Tensor of shape `(*, C, H·r, W·r)`. / 形状为 `(*, C, H·r, W·r)` 的张量。
        """
        # 中: 结果是新的连续张量，不是输入的视图（已实测）；通道数不能被 `r²` 整除时由
        # 中: `F.pixel_shuffle` 报错。
        # EN: The result is a new contiguous tensor, not a view of the input (checked by running
        # EN: it); `F.pixel_shuffle` raises when the channels do not divide by `r²`.
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        r"""Describe the factor. / 描述倍数。

        === "中文"

            形如 `upscale_factor=2` 的字符串。

        === "English"

            For example `upscale_factor=2`.

        Returns:
            The description string. / 描述字符串。
        """
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    r"""Move `r×r` spatial blocks into channel blocks, undoing `PixelShuffle`. / 把 `r×r` 空间块搬回通道块，是 `PixelShuffle` 的逆运算。

    === "中文"

        输入 `(*, C, H·r, W·r)`，输出 `(*, C·r², H, W)`。空间尺寸不能被 `r` 整除时，
        `F.pixel_unshuffle` 会抛出 `RuntimeError`。

    === "English"

        Input `(*, C, H·r, W·r)`, output `(*, C·r², H, W)`. When a spatial size is not
        divisible by `r`, `F.pixel_unshuffle` raises `RuntimeError`.

    Args:
        downscale_factor: The factor `r` of both spatial dimensions. / 两个空间维的缩小倍数 `r`。
    """

    __constants__ = ["downscale_factor"]
    downscale_factor: int

    def __init__(self, downscale_factor: int) -> None:
        r"""Store the downscale factor. / 保存缩小倍数。

        === "中文"

            构造时不做检查，错误在前向传播（forward pass）时才出现。

        === "English"

            Nothing is checked here; errors only appear during the forward pass.

        Args:
            downscale_factor: The factor `r`. / 倍数 `r`。
        """
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:
        r"""Rearrange via `F.pixel_unshuffle`. / 通过 `F.pixel_unshuffle` 重排。

        === "中文"

            只是一次函数调用，没有任何状态。

        === "English"

            A single function call with no state involved.

        Args:
            input: Tensor of shape `(*, C, H·r, W·r)`. / 形状为 `(*, C, H·r, W·r)` 的张量。

        Returns:
            Tensor of shape `(*, C·r², H, W)`. / 形状为 `(*, C·r², H, W)` 的张量。
        """
        # 中: `PixelShuffle.forward` 的逆操作：同样得到新张量；高或宽不能被 `r` 整除时由
        # 中: `F.pixel_unshuffle` 报错。
        # EN: The inverse of `PixelShuffle.forward`: again a new tensor; `F.pixel_unshuffle` raises
        # EN: when the height or width does not divide by `r`.
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        r"""Describe the factor. / 描述倍数。

        === "中文"

            形如 `downscale_factor=2` 的字符串。

        === "English"

            For example `downscale_factor=2`.

        Returns:
            The description string. / 描述字符串。
        """
        return f"downscale_factor={self.downscale_factor}"
