r"""Channel shuffle: interleave the channels of several groups. / 通道混洗：交错排列各组的通道。

=== "中文"

    ShuffleNet 中分组卷积之后使用的层：把通道分成 `groups` 组，再按“每组取一个”的顺序
    重新排列，让下一层的每一组都能看到上一层所有组的信息。没有参数（parameter）。

=== "English"

    The layer ShuffleNet uses after grouped convolutions: the channels are split into `groups`
    groups and then reordered "one from each group", so every group of the next layer sees
    information from all groups of the previous one. It has no parameters.
"""

import torch.nn.functional as F
from torch import Tensor

from .module import Module

__all__ = ["ChannelShuffle"]


class ChannelShuffle(Module):
    r"""Reorder `(N, C, *)` channels by interleaving `groups` groups. / 把 `(N, C, *)` 的通道按 `groups` 组交错重排。

    === "中文"

        通道 `g·(C/groups) + k` 移到位置 `k·groups + g`。`C` 必须能被 `groups` 整除，
        否则 `F.channel_shuffle` 抛出 `RuntimeError`。

    === "English"

        Channel `g·(C/groups) + k` moves to position `k·groups + g`. `C` must be divisible
        by `groups`, otherwise `F.channel_shuffle` raises `RuntimeError`.

    Args:
        groups: Number of channel groups. / 通道分组数。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.ChannelShuffle(2)(torch.arange(4.0).view(1, 4, 1)).flatten()
        tensor([0., 2., 1., 3.])
    """

    __constants__ = ["groups"]
    groups: int

    def __init__(self, groups: int) -> None:
        r"""Store the group count. / 保存分组数。

        === "中文"

            构造时不做检查，错误在前向传播（forward pass）时才出现。

        === "English"

            Nothing is checked here; errors only appear during the forward pass.

        Args:
            groups: Number of channel groups. / 通道分组数。
        """
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:
        r"""Reorder the channels via `F.channel_shuffle`. / 通过 `F.channel_shuffle` 重排通道。

        === "中文"

            只是一次函数调用，输出形状与输入相同。

        === "English"

            A single function call; the output has the input's shape.

        Args:
            input: Tensor of shape `(N, C, *)`. / 形状为 `(N, C, *)` 的张量。

        Returns:
            The tensor with shuffled channels. / 通道重排后的张量。
        """
        # 中: 输出形状与输入相同，但是新张量而不是视图（已实测）；通道数不能被 `groups` 整除时由
        # 中: `F.channel_shuffle` 报错。
        # EN: Same shape as the input, but a new tensor rather than a view (checked by running it);
        # EN: `F.channel_shuffle` raises when the channels do not divide by `groups`.
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        r"""Describe the group count. / 描述分组数。

        === "中文"

            形如 `groups=2` 的字符串。

        === "English"

            For example `groups=2`.

        Returns:
            The description string. / 描述字符串。
        """
        return f"groups={self.groups}"
