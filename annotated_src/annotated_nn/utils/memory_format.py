r"""Change the memory layout of convolution weights only; mirrors `torch.nn.utils.memory_format`. / 只改变卷积权重的内存布局，对应 `torch.nn.utils.memory_format`。

=== "中文"

    同一个形状为 `(N, C, H, W)` 的张量可以有不同的内存布局：默认的连续布局（NCHW）里
    同一通道的像素彼此相邻；`torch.channels_last`（NHWC）里同一像素的各通道彼此相邻，
    即通道维的步长是 1。形状和下标含义都不变，变的只是步长（stride）。在 GPU 上
    （尤其是半精度配合支持张量核心的显卡），cuDNN 的卷积用 NHWC 布局往往快得多。

    [`convert_conv2d_weight_memory_format`][annotated_nn.utils.memory_format.convert_conv2d_weight_memory_format]
    递归地走遍模块树，只把 `Conv2d` 与 `ConvTranspose2d` 的权重（weight）换成指定布局；
    [`convert_conv3d_weight_memory_format`][annotated_nn.utils.memory_format.convert_conv3d_weight_memory_format]
    对 `Conv3d` 与 `ConvTranspose3d` 做同样的事（配合 `torch.channels_last_3d`）。
    相比之下，`model.to(memory_format=torch.channels_last)` 会改动每一个 4 维的参数和缓冲区，
    其中很多层并不因此受益。只改卷积权重时，卷积选用快速的 NHWC 内核，输入在需要时被
    重排一次；卷积之间的层若也兼容 channels_last，激活值就一路保持这种布局。

    1.5.1 → 2.13：1.5.1 只有二维版本，复制权重时写作 `clone().contiguous(memory_format)`；
    三维版本是后来加的。

=== "English"

    One tensor of shape `(N, C, H, W)` can be laid out in memory in different ways: in the
    default contiguous layout (NCHW) the pixels of one channel sit next to each other; in
    `torch.channels_last` (NHWC) the channels of one pixel do, i.e. the channel dimension has
    stride 1. The shape and the meaning of each index stay; only the strides change. On GPUs
    (especially half precision on cards with tensor cores) cuDNN's convolutions often run much
    faster in NHWC.

    [`convert_conv2d_weight_memory_format`][annotated_nn.utils.memory_format.convert_conv2d_weight_memory_format]
    walks the module tree recursively and gives only the weights of `Conv2d` and
    `ConvTranspose2d` the requested layout;
    [`convert_conv3d_weight_memory_format`][annotated_nn.utils.memory_format.convert_conv3d_weight_memory_format]
    does the same for `Conv3d` and `ConvTranspose3d` (with `torch.channels_last_3d`). By
    contrast, `model.to(memory_format=torch.channels_last)` changes every 4-dimensional
    parameter and buffer, and many of those layers gain nothing. Converting only the conv
    weights makes convolutions pick the fast NHWC kernels, with the input permuted once where
    needed; when the layers between convolutions handle channels_last too, the activations keep
    that layout all along.

    1.5.1 → 2.13: 1.5.1 had the 2-D version only, copying the weight with
    `clone().contiguous(memory_format)`; the 3-D version came later.
"""

from __future__ import annotations

from typing import TypeVar

import torch

__all__ = [
    "convert_conv2d_weight_memory_format",
    "convert_conv3d_weight_memory_format",
]

# 中: 返回的就是传入的那个模块，类型变量让类型检查器保留它的具体类型。
# EN: The module passed in is the one returned; the type variable lets type checkers keep its
# EN: exact type.
_M = TypeVar("_M")


def convert_conv2d_weight_memory_format(module: _M, memory_format: torch.memory_format) -> _M:
    r"""Give every 2-D conv weight in `module` the layout `memory_format`. / 把 `module` 中所有二维卷积的权重换成 `memory_format` 布局。

    === "中文"

        `module` 本身以及它的所有子模块（submodule）中，凡是 `Conv2d`、`ConvTranspose2d`
        （包括它们的子类，例如惰性模块 `LazyConv2d`）都被转换；其他层不动。转换是就地的，
        返回的就是 `module`，便于链式调用。

        识别的是本库的这两个类，也识别 torch.nn 的同名类：两者互不为子类，而 torch.nn 的模型
        传进来时也应该和 torch 的函数一样被转换。

        惰性卷积在物化（materialize）之前没有真正的权重，转换它会抛出 `ValueError`，与 torch
        相同；`memory_format` 与权重的维数不符（例如 `torch.channels_last_3d`）或为
        `torch.preserve_format` 时抛出 `RuntimeError`。

    === "English"

        Every `Conv2d` and `ConvTranspose2d` (subclasses included, such as the lazy module
        `LazyConv2d`) among `module` itself and all its submodules is converted; other layers
        are left alone. The conversion is in place, and `module` itself is returned, handy for
        chaining.

        Both this library's two classes and torch.nn's classes of the same names are
        recognized: neither is a subclass of the other, and a torch.nn model passed in should be
        converted just as torch's function does.

        A lazy conv has no real weight before it is materialized, and converting it raises
        `ValueError`, as in torch; a `memory_format` that does not fit the weight's rank (e.g.
        `torch.channels_last_3d`), or `torch.preserve_format`, raises `RuntimeError`.

    Args:
        module: A conv module or any module containing some. / 卷积模块，或含有卷积的任意模块。
        memory_format: The layout, e.g. `torch.channels_last` or `torch.contiguous_format`. / 目标布局，例如 `torch.channels_last` 或 `torch.contiguous_format`。

    Returns:
        `module` itself. / `module` 本身。

    Raises:
        ValueError: A lazy conv is not materialized yet. / 惰性卷积尚未物化。
        RuntimeError: The layout does not fit a 4-D weight. / 布局不适用于 4 维权重。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> from annotated_nn.utils.memory_format import convert_conv2d_weight_memory_format
        >>> model = nn.Sequential(nn.Conv2d(8, 4, 3), nn.ReLU())
        >>> model = convert_conv2d_weight_memory_format(model, torch.channels_last)
        >>> model[0].weight.is_contiguous(memory_format=torch.channels_last)
        True
    """
    # 中: 在函数里才导入：本文件随 `annotated_nn.utils` 加载时，卷积层所在的模块还不能导入。
    # EN: Imported inside the function: when this file loads with `annotated_nn.utils`, the
    # EN: file holding the conv layers cannot be imported yet.
    from annotated_nn.modules.conv import Conv2d, ConvTranspose2d

    conv_types = (Conv2d, ConvTranspose2d, torch.nn.Conv2d, torch.nn.ConvTranspose2d)
    return _convert_conv_weights(module, memory_format, conv_types)


def convert_conv3d_weight_memory_format(module: _M, memory_format: torch.memory_format) -> _M:
    r"""Give every 3-D conv weight in `module` the layout `memory_format`. / 把 `module` 中所有三维卷积的权重换成 `memory_format` 布局。

    === "中文"

        与 [`convert_conv2d_weight_memory_format`][annotated_nn.utils.memory_format.convert_conv2d_weight_memory_format]
        相同，只是针对 `Conv3d`、`ConvTranspose3d`（本库的与 torch.nn 的），它们的权重是 5 维的，
        对应的通道在后布局是 `torch.channels_last_3d`（NDHWC）。

    === "English"

        Like [`convert_conv2d_weight_memory_format`][annotated_nn.utils.memory_format.convert_conv2d_weight_memory_format],
        but for `Conv3d` and `ConvTranspose3d` (this library's and torch.nn's), whose weights
        are 5-dimensional; their channels-last layout is `torch.channels_last_3d` (NDHWC).

    Args:
        module: A conv module or any module containing some. / 卷积模块，或含有卷积的任意模块。
        memory_format: The layout, e.g. `torch.channels_last_3d`. / 目标布局，例如 `torch.channels_last_3d`。

    Returns:
        `module` itself. / `module` 本身。

    Raises:
        ValueError: A lazy conv is not materialized yet. / 惰性卷积尚未物化。
        RuntimeError: The layout does not fit a 5-D weight. / 布局不适用于 5 维权重。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> from annotated_nn.utils.memory_format import convert_conv3d_weight_memory_format
        >>> conv = convert_conv3d_weight_memory_format(nn.Conv3d(8, 4, 3), torch.channels_last_3d)
        >>> conv.weight.is_contiguous(memory_format=torch.channels_last_3d)
        True
    """
    # 中: 同样延迟导入；只是换成三维的两个类。
    # EN: The same deferred import, with the two 3-D classes instead.
    from annotated_nn.modules.conv import Conv3d, ConvTranspose3d

    conv_types = (Conv3d, ConvTranspose3d, torch.nn.Conv3d, torch.nn.ConvTranspose3d)
    return _convert_conv_weights(module, memory_format, conv_types)


def _convert_conv_weights(module: _M, memory_format: torch.memory_format, conv_types: tuple) -> _M:
    r"""Convert the weights of `conv_types` modules in the tree under `module`. / 转换 `module` 之下整棵树中属于 `conv_types` 的模块的权重。

    === "中文"

        两个公开函数的共同部分（torch 把同样的几行在两个函数里各写了一遍）。先处理 `module`
        自己，再依次递归进入每个直接子模块（child module），所以是前序遍历；共享的卷积
        被遇到几次就转换几次，结果相同。

    === "English"

        The part both public functions share (torch writes the same few lines in each of them).
        It handles `module` itself first, then recurses into each child module in turn, a
        pre-order walk; a shared conv is converted as often as it is met, with the same result.

    Args:
        module: The root of the tree to walk. / 要遍历的树的根。
        memory_format: The layout to apply. / 要使用的布局。
        conv_types: The module classes whose weight is converted. / 需要转换权重的模块类。

    Returns:
        `module` itself. / `module` 本身。
    """
    # 中: `detach()` 让复制不被自动求导（autograd）记录。`clone(memory_format=...)` 得到新布局的副本；
    # 中: 随后对同一尺寸 `resize_` 并再次指定布局，要求的步长就是该布局的标准步长（与 torch 相同的
    # 中: 两步）。赋值给 `.data` 只换掉张量内容：参数对象不变，优化器、钩子仍指向它；`.grad` 不转换。
    # EN: `detach()` keeps autograd from recording the copy. `clone(memory_format=...)` yields a
    # EN: copy in the new layout; the following `resize_` to the same size, naming the layout
    # EN: again, asks for exactly that layout's standard strides (torch's two steps). Assigning
    # EN: `.data` swaps only the tensor's contents: the parameter object stays, so optimizers
    # EN: and hooks still point at it; `.grad` is not converted.
    if isinstance(module, conv_types):
        weight_data = module.weight.detach().clone(memory_format=memory_format)
        module.weight.data = weight_data.resize_(weight_data.size(), memory_format=memory_format)
    # 中: 递归进入直接子模块；更深的后代由递归调用处理。
    # EN: Recurse into the child modules; deeper descendants are handled by the recursive calls.
    for child in module.children():
        _convert_conv_weights(child, memory_format, conv_types)
    return module
