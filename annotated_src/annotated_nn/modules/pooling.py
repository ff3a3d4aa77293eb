r"""Pooling layers: max, average, fractional, power-average and adaptive pooling. / 池化层：最大、平均、分数、幂平均与自适应池化。

=== "中文"

    池化层没有参数（parameter），只有超参数。每个家族一个基类保存超参数并给出
    `extra_repr`，1/2/3 维子类只在 `forward` 中调用对应的 `F.*_pool{1,2,3}d`。
    注意各家族对尺寸参数的处理并不统一：`MaxPool*`、`AvgPool2d/3d`、`LPPool*` 与
    自适应池化原样保存用户给的整数或 tuple；`AvgPool1d`、`MaxUnpool*`、`FractionalMaxPool*`
    则先规整成 tuple——这会直接反映在 `repr` 中。

=== "English"

    Pooling layers have no parameters, only hyper-parameters. Each family has a base class
    that stores them and provides `extra_repr`; the 1/2/3-d subclasses only call the matching
    `F.*_pool{1,2,3}d` in `forward`. The families do not treat size arguments alike:
    `MaxPool*`, `AvgPool2d/3d`, `LPPool*` and adaptive pooling store the user's int or tuple as
    given, while `AvgPool1d`, `MaxUnpool*` and `FractionalMaxPool*` normalize to tuples first,
    which shows directly in the `repr`.
"""

import torch.nn.functional as F
from torch import Tensor
from torch.nn.common_types import (
    _ratio_2_t,
    _ratio_3_t,
    _size_1_t,
    _size_2_opt_t,
    _size_2_t,
    _size_3_opt_t,
    _size_3_t,
    _size_any_opt_t,
    _size_any_t,
)

from .module import Module
from .utils import _pair, _single, _triple

__all__ = [
    "MaxPool1d",
    "MaxPool2d",
    "MaxPool3d",
    "MaxUnpool1d",
    "MaxUnpool2d",
    "MaxUnpool3d",
    "AvgPool1d",
    "AvgPool2d",
    "AvgPool3d",
    "FractionalMaxPool2d",
    "FractionalMaxPool3d",
    "LPPool1d",
    "LPPool2d",
    "LPPool3d",
    "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d",
    "AdaptiveMaxPool3d",
    "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d",
    "AdaptiveAvgPool3d",
]


class _MaxPoolNd(Module):
    r"""Family base of max pooling: stores the window settings. / 最大池化的家族基类：保存窗口设置。

    === "中文"

        基类保存 `kernel_size`、`stride`（默认等于 `kernel_size`，即窗口不重叠）、
        `padding`、`dilation`、`return_indices`、`ceil_mode`，并且原样保存，不做规整；
        子类 `MaxPool1d/2d/3d` 只加上 `forward`。`return_indices=True` 时 `forward`
        还返回最大值的位置，供 `MaxUnpool*` 使用。填充值视为负无穷。

    === "English"

        The base stores `kernel_size`, `stride` (defaulting to `kernel_size`, i.e. windows do
        not overlap), `padding`, `dilation`, `return_indices` and `ceil_mode`, all as given,
        without normalizing; the subclasses `MaxPool1d/2d/3d` only add `forward`. With
        `return_indices=True` `forward` also returns where the maxima were, for `MaxUnpool*`.
        Padding counts as negative infinity.

    Args:
        kernel_size: Window size. / 窗口大小。
        stride: Window step; None means `kernel_size`. / 窗口步长；None 表示等于 `kernel_size`。
        padding: Implicit negative-infinity padding on both sides. / 两侧的隐式负无穷填充。
        dilation: Spacing between window elements. / 窗口元素间距。
        return_indices: Also return the argmax positions. / 是否同时返回最大值位置。
        ceil_mode: Round the output size up instead of down. / 输出尺寸向上而非向下取整。
    """

    # 中: `__constants__` 是给 TorchScript 的：`torch.jit.script` 把这些属性编译成常量，
    # 中: 下面的类型注解告诉它属性的类型。即时执行时 `Module` 不读这两者。
    # EN: `__constants__` is for TorchScript: `torch.jit.script` compiles these attributes as
    # EN: constants, and the annotations below give it their types. `Module` reads neither in
    # EN: eager execution.
    __constants__ = [
        "kernel_size",
        "stride",
        "padding",
        "dilation",
        "return_indices",
        "ceil_mode",
    ]
    # 中: 这里只注解两个布尔属性；尺寸类属性由各维子类按 `_size_1_t`/`_size_2_t`/`_size_3_t` 注解。
    # EN: Only the two booleans are annotated here; the subclasses annotate the size attributes
    # EN: as `_size_1_t`/`_size_2_t`/`_size_3_t`.
    return_indices: bool
    ceil_mode: bool

    def __init__(
        self,
        kernel_size: _size_any_t,
        stride: _size_any_t | None = None,
        padding: _size_any_t = 0,
        dilation: _size_any_t = 1,
        return_indices: bool = False,
        ceil_mode: bool = False,
    ) -> None:
        r"""Store the settings as given. / 原样保存各项设置。

        === "中文"

            不做任何校验；非法取值在 `forward` 中由 `F.max_pool*d` 报错。

        === "English"

            No validation here; invalid values are reported by `F.max_pool*d` in `forward`.

        Args:
            kernel_size: Window size. / 窗口大小。
            stride: Window step; None means `kernel_size`. / 窗口步长；None 表示等于 `kernel_size`。
            padding: Implicit padding on both sides. / 两侧的隐式填充。
            dilation: Spacing between window elements. / 窗口元素间距。
            return_indices: Also return the argmax positions. / 是否同时返回最大值位置。
            ceil_mode: Round the output size up. / 输出尺寸向上取整。
        """
        # 中: 池化层没有参数，模块只是一组存好的超参数：原样保存（整数就存整数，`repr` 显示用户写的值），
        # 中: 每次前向传播再交给 `F.max_pool*d`，校验也在那里发生。模块形式让它能放进 `Sequential`。
        # EN: A pooling layer has no parameters; the module is just stored hyper-parameters, kept as
        # EN: given (an int stays an int, so `repr` shows what the user wrote) and handed to
        # EN: `F.max_pool*d` at every forward pass, where validation also happens. Being a module
        # EN: lets it sit in a `Sequential`.
        super().__init__()
        self.kernel_size = kernel_size
        # 中: `stride` 为 None 时取 `kernel_size`（窗口互不重叠）。用 `is not None` 判断，所以 `stride=0`
        # 中: 会原样保留，到前向传播时由 `F.max_pool*d` 报 "stride should not be zero"。
        # EN: A None `stride` becomes `kernel_size` (non-overlapping windows). The test is
        # EN: `is not None`, so `stride=0` is kept and fails in the forward pass with
        # EN: "stride should not be zero" from `F.max_pool*d`.
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self) -> str:
        r"""Describe the window settings. / 描述窗口设置。

        === "中文"

            列出窗口相关设置，不包括 `return_indices`。

        === "English"

            `return_indices` is not included.

        Returns:
            The description string. / 描述字符串。
        """
        return (
            "kernel_size={kernel_size}, stride={stride}, padding={padding}"
            ", dilation={dilation}, ceil_mode={ceil_mode}".format(**self.__dict__)
        )


class MaxPool1d(_MaxPoolNd):
    r"""1D max pooling over `(N, C, L)`. / 对 `(N, C, L)` 做一维最大池化。

    === "中文"

        每个窗口输出其中的最大值。也接受 `(C, L)` 输入。

    === "English"

        Each window yields its maximum. A `(C, L)` input is accepted too.

    Args:
        kernel_size: Window size. / 窗口大小。
        stride: Window step; None means `kernel_size`. / 窗口步长；None 表示等于 `kernel_size`。
        padding: Implicit padding on both sides. / 两侧的隐式填充。
        dilation: Spacing between window elements. / 窗口元素间距。
        return_indices: Also return the argmax positions. / 是否同时返回最大值位置。
        ceil_mode: Round the output size up. / 输出尺寸向上取整。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.MaxPool1d(2)(torch.tensor([[[1.0, 3.0, 2.0, 0.0]]]))
        tensor([[[3., 2.]]])
    """

    kernel_size: _size_1_t
    stride: _size_1_t
    padding: _size_1_t
    dilation: _size_1_t

    def forward(self, input: Tensor):
        r"""Apply `F.max_pool1d`. / 调用 `F.max_pool1d`。

        === "中文"

            `return_indices=True` 时返回 `(输出, 位置)`。

        === "English"

            Returns `(output, indices)` when `return_indices=True`.

        Args:
            input: Input `(N, C, L)` or `(C, L)`. / 输入 `(N, C, L)` 或 `(C, L)`。

        Returns:
            The pooled tensor, or it with the indices. / 池化结果，或结果与位置。
        """
        # 中: 把构造时存下的超参数交给 `F.max_pool1d`。它按 `return_indices` 分派（`boolean_dispatch`）：
        # 中: 为 True 时改调 `max_pool1d_with_indices`，返回 `(输出, 位置)` 二元组。
        # EN: Hand the stored hyper-parameters to `F.max_pool1d`. It dispatches on `return_indices`
        # EN: (`boolean_dispatch`): when True it calls `max_pool1d_with_indices`, which returns an
        # EN: `(output, indices)` pair.
        return F.max_pool1d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.dilation,
            # 中: `ceil_mode=True` 时输出尺寸向上取整：越出边界的窗口只要起点在输入或左侧填充内就保留，
            # 中: 起点落在右侧填充里的窗口被丢弃（torch 文档所述）。
            # EN: With `ceil_mode=True` the output size rounds up: a window running off the end is
            # EN: kept if it starts inside the input or the left padding, and dropped if it would
            # EN: start in the right padding (as torch's documentation states).
            ceil_mode=self.ceil_mode,
            return_indices=self.return_indices,
        )


class MaxPool2d(_MaxPoolNd):
    r"""2D max pooling over `(N, C, H, W)`. / 对 `(N, C, H, W)` 做二维最大池化。

    === "中文"

        读者熟悉的 `SimpleNet` 中 `max_pool2d(relu(conv(x)), 2)` 的模块版本。
        尺寸参数可为整数或 `(高, 宽)`。也接受 `(C, H, W)` 输入。

    === "English"

        The module form of `max_pool2d(relu(conv(x)), 2)` in the readers' familiar `SimpleNet`.
        Size arguments are an int or `(height, width)`. A `(C, H, W)` input is accepted too.

    Args:
        kernel_size: Window size. / 窗口大小。
        stride: Window step; None means `kernel_size`. / 窗口步长；None 表示等于 `kernel_size`。
        padding: Implicit padding on both sides. / 两侧的隐式填充。
        dilation: Spacing between window elements. / 窗口元素间距。
        return_indices: Also return the argmax positions. / 是否同时返回最大值位置。
        ceil_mode: Round the output size up. / 输出尺寸向上取整。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> m = nn.MaxPool2d(2)
        >>> m
        MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
        >>> m(torch.randn(1, 6, 30, 30)).shape
        torch.Size([1, 6, 15, 15])
    """

    kernel_size: _size_2_t
    stride: _size_2_t
    padding: _size_2_t
    dilation: _size_2_t

    def forward(self, input: Tensor):
        r"""Apply `F.max_pool2d`. / 调用 `F.max_pool2d`。

        === "中文"

            `return_indices=True` 时返回 `(输出, 位置)`。

        === "English"

            Returns `(output, indices)` when `return_indices=True`.

        Args:
            input: Input `(N, C, H, W)` or `(C, H, W)`. / 输入 `(N, C, H, W)` 或 `(C, H, W)`。

        Returns:
            The pooled tensor, or it with the indices. / 池化结果，或结果与位置。
        """
        # 中: `MaxPool1d.forward` 的二维版本：调用 `F.max_pool2d`，同样按 `return_indices` 分派。
        # EN: The 2-D counterpart of `MaxPool1d.forward`: it calls `F.max_pool2d`, which dispatches
        # EN: on `return_indices` the same way.
        return F.max_pool2d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.dilation,
            # 中: `ceil_mode` 的规则同 `MaxPool1d.forward`，逐个空间维适用。
            # EN: `ceil_mode` follows the rule in `MaxPool1d.forward`, per spatial dimension.
            ceil_mode=self.ceil_mode,
            return_indices=self.return_indices,
        )


class MaxPool3d(_MaxPoolNd):
    r"""3D max pooling over `(N, C, D, H, W)`. / 对 `(N, C, D, H, W)` 做三维最大池化。

    === "中文"

        尺寸参数可为整数或 `(深, 高, 宽)`。也接受 `(C, D, H, W)` 输入。

    === "English"

        Size arguments are an int or `(depth, height, width)`. A `(C, D, H, W)` input is
        accepted too.

    Args:
        kernel_size: Window size. / 窗口大小。
        stride: Window step; None means `kernel_size`. / 窗口步长；None 表示等于 `kernel_size`。
        padding: Implicit padding on both sides. / 两侧的隐式填充。
        dilation: Spacing between window elements. / 窗口元素间距。
        return_indices: Also return the argmax positions. / 是否同时返回最大值位置。
        ceil_mode: Round the output size up. / 输出尺寸向上取整。
    """

    kernel_size: _size_3_t
    stride: _size_3_t
    padding: _size_3_t
    dilation: _size_3_t

    def forward(self, input: Tensor):
        r"""Apply `F.max_pool3d`. / 调用 `F.max_pool3d`。

        === "中文"

            `return_indices=True` 时返回 `(输出, 位置)`。

        === "English"

            Returns `(output, indices)` when `return_indices=True`.

        Args:
            input: Input `(N, C, D, H, W)` or `(C, D, H, W)`. / 输入 `(N, C, D, H, W)` 或 `(C, D, H, W)`。

        Returns:
            The pooled tensor, or it with the indices. / 池化结果，或结果与位置。
        """
        # 中: `MaxPool1d.forward` 的三维版本：调用 `F.max_pool3d`，同样按 `return_indices` 分派。
        # EN: The 3-D counterpart of `MaxPool1d.forward`: it calls `F.max_pool3d`, which dispatches
        # EN: on `return_indices` the same way.
        return F.max_pool3d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.dilation,
            # 中: `ceil_mode` 的规则同 `MaxPool1d.forward`，逐个空间维适用。
            # EN: `ceil_mode` follows the rule in `MaxPool1d.forward`, per spatial dimension.
            ceil_mode=self.ceil_mode,
            return_indices=self.return_indices,
        )


class _MaxUnpoolNd(Module):
    r"""Family base of max unpooling: only the repr. / 最大反池化的家族基类：只提供 repr。

    === "中文"

        反池化把 `MaxPool*(return_indices=True)` 的输出放回记录的位置，其余位置填 0。
        各维子类自己在 `__init__` 中把尺寸规整成 tuple，基类只给出 `extra_repr`。

    === "English"

        Unpooling puts the output of `MaxPool*(return_indices=True)` back at the recorded
        positions and fills the rest with zeros. Each subclass normalizes sizes to tuples in its
        own `__init__`; the base only supplies `extra_repr`.
    """

    def extra_repr(self) -> str:
        r"""Describe kernel, stride and padding. / 描述窗口、步长与填充。

        === "中文"

            三项设置此时都已是 tuple。

        === "English"

            All three are tuples by now.

        Returns:
            The description string. / 描述字符串。
        """
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    r"""Partial inverse of `MaxPool1d`. / `MaxPool1d` 的部分逆运算。

    === "中文"

        非最大值在池化时已丢失，所以只能"部分"还原。多个输入尺寸可能池化成同一尺寸，
        可用 `output_size` 指定要还原的尺寸。

    === "English"

        Non-maximal values are lost by pooling, hence only a partial inverse. Several input sizes
        can pool to the same size; `output_size` picks the one to restore.

    Args:
        kernel_size: Window size. / 窗口大小。
        stride: Window step; None means `kernel_size`. / 窗口步长；None 表示等于 `kernel_size`。
        padding: Padding used by the pooling. / 池化时使用的填充。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> out, idx = nn.MaxPool1d(2, return_indices=True)(torch.tensor([[[1.0, 3.0, 2.0, 0.0]]]))
        >>> nn.MaxUnpool1d(2)(out, idx)
        tensor([[[0., 3., 2., 0.]]])
    """

    kernel_size: _size_1_t
    stride: _size_1_t
    padding: _size_1_t

    def __init__(
        self,
        kernel_size: _size_1_t,
        stride: _size_1_t | None = None,
        padding: _size_1_t = 0,
    ) -> None:
        r"""Store the sizes as 1-tuples. / 以 1 元 tuple 保存尺寸。

        === "中文"

            `stride` 为 None 时取 `kernel_size`，即窗口互不重叠。

        === "English"

            `stride` defaults to `kernel_size` when None, i.e. the windows do not overlap.

        Args:
            kernel_size: Window size. / 窗口大小。
            stride: Window step. / 窗口步长。
            padding: Padding used by the pooling. / 池化时使用的填充。
        """
        # 中: 与 `MaxPool*` 不同，这里立即用 `_single` 规整成 1 元 tuple（`repr` 显示 `(2,)`）；
        # 中: 三项应与产生 `indices` 的那个池化层一致，`F.max_unpool1d` 用它们推算默认输出尺寸。
        # EN: Unlike `MaxPool*`, `_single` normalizes to 1-tuples right away (`repr` shows `(2,)`);
        # EN: the three should match the pooling layer that produced `indices`, since
        # EN: `F.max_unpool1d` derives the default output size from them.
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if (stride is not None) else kernel_size)
        self.padding = _single(padding)

    def forward(
        self, input: Tensor, indices: Tensor, output_size: list[int] | None = None
    ) -> Tensor:
        r"""Apply `F.max_unpool1d`. / 调用 `F.max_unpool1d`。

        === "中文"

            `indices` 来自 `MaxPool1d(return_indices=True)`，未记录的位置填 0。

        === "English"

            `indices` come from `MaxPool1d(return_indices=True)`; positions not recorded are
            filled with 0.

        Args:
            input: Pooled values. / 池化后的值。
            indices: Argmax positions. / 最大值位置。
            output_size: Size to restore, or None. / 要还原的尺寸，或 None。

        Returns:
            The unpooled tensor. / 反池化结果。
        """
        # 中: `output_size` 每次调用时给出（例如原输入的 `size()`），用来在"多个输入尺寸池化成同一尺寸"时
        # 中: 选定要还原的那个；为 None 时默认尺寸是 `(in - 1)*stride + kernel_size - 2*padding`。
        # EN: `output_size` comes with each call (e.g. the original input's `size()`) to pick the
        # EN: size to restore when several input sizes pool to one; with None the default is
        # EN: `(in - 1)*stride + kernel_size - 2*padding`.
        return F.max_unpool1d(
            input, indices, self.kernel_size, self.stride, self.padding, output_size
        )


class MaxUnpool2d(_MaxUnpoolNd):
    r"""Partial inverse of `MaxPool2d`. / `MaxPool2d` 的部分逆运算。

    === "中文"

        与 `MaxUnpool1d` 相同，作用于两个空间维。

    === "English"

        As `MaxUnpool1d`, over two spatial dimensions.

    Args:
        kernel_size: Window size. / 窗口大小。
        stride: Window step; None means `kernel_size`. / 窗口步长；None 表示等于 `kernel_size`。
        padding: Padding used by the pooling. / 池化时使用的填充。
    """

    kernel_size: _size_2_t
    stride: _size_2_t
    padding: _size_2_t

    def __init__(
        self,
        kernel_size: _size_2_t,
        stride: _size_2_t | None = None,
        padding: _size_2_t = 0,
    ) -> None:
        r"""Store the sizes as 2-tuples. / 以 2 元 tuple 保存尺寸。

        === "中文"

            `stride` 为 None 时取 `kernel_size`，即窗口互不重叠。

        === "English"

            `stride` defaults to `kernel_size` when None, i.e. the windows do not overlap.

        Args:
            kernel_size: Window size. / 窗口大小。
            stride: Window step. / 窗口步长。
            padding: Padding used by the pooling. / 池化时使用的填充。
        """
        # 中: 同 `MaxUnpool1d.__init__`，用 `_pair` 规整成 2 元 tuple。
        # EN: As `MaxUnpool1d.__init__`, with `_pair` making 2-tuples.
        super().__init__()
        self.kernel_size = _pair(kernel_size)
        self.stride = _pair(stride if (stride is not None) else kernel_size)
        self.padding = _pair(padding)

    def forward(
        self, input: Tensor, indices: Tensor, output_size: list[int] | None = None
    ) -> Tensor:
        r"""Apply `F.max_unpool2d`. / 调用 `F.max_unpool2d`。

        === "中文"

            `indices` 来自 `MaxPool2d(return_indices=True)`，未记录的位置填 0。

        === "English"

            `indices` come from `MaxPool2d(return_indices=True)`; positions not recorded are
            filled with 0.

        Args:
            input: Pooled values. / 池化后的值。
            indices: Argmax positions. / 最大值位置。
            output_size: Size to restore, or None. / 要还原的尺寸，或 None。

        Returns:
            The unpooled tensor. / 反池化结果。
        """
        # 中: 同 `MaxUnpool1d.forward`，默认尺寸逐个空间维按同一公式推算。
        # EN: As `MaxUnpool1d.forward`; the default size uses the same formula per spatial
        # EN: dimension.
        return F.max_unpool2d(
            input, indices, self.kernel_size, self.stride, self.padding, output_size
        )


class MaxUnpool3d(_MaxUnpoolNd):
    r"""Partial inverse of `MaxPool3d`. / `MaxPool3d` 的部分逆运算。

    === "中文"

        与 `MaxUnpool1d` 相同，作用于三个空间维。

    === "English"

        As `MaxUnpool1d`, over three spatial dimensions.

    Args:
        kernel_size: Window size. / 窗口大小。
        stride: Window step; None means `kernel_size`. / 窗口步长；None 表示等于 `kernel_size`。
        padding: Padding used by the pooling. / 池化时使用的填充。
    """

    kernel_size: _size_3_t
    stride: _size_3_t
    padding: _size_3_t

    def __init__(
        self,
        kernel_size: _size_3_t,
        stride: _size_3_t | None = None,
        padding: _size_3_t = 0,
    ) -> None:
        r"""Store the sizes as 3-tuples. / 以 3 元 tuple 保存尺寸。

        === "中文"

            `stride` 为 None 时取 `kernel_size`，即窗口互不重叠。

        === "English"

            `stride` defaults to `kernel_size` when None, i.e. the windows do not overlap.

        Args:
            kernel_size: Window size. / 窗口大小。
            stride: Window step. / 窗口步长。
            padding: Padding used by the pooling. / 池化时使用的填充。
        """
        # 中: 同 `MaxUnpool1d.__init__`，用 `_triple` 规整成 3 元 tuple。
        # EN: As `MaxUnpool1d.__init__`, with `_triple` making 3-tuples.
        super().__init__()
        self.kernel_size = _triple(kernel_size)
        self.stride = _triple(stride if (stride is not None) else kernel_size)
        self.padding = _triple(padding)

    def forward(
        self, input: Tensor, indices: Tensor, output_size: list[int] | None = None
    ) -> Tensor:
        r"""Apply `F.max_unpool3d`. / 调用 `F.max_unpool3d`。

        === "中文"

            `indices` 来自 `MaxPool3d(return_indices=True)`，未记录的位置填 0。

        === "English"

            `indices` come from `MaxPool3d(return_indices=True)`; positions not recorded are
            filled with 0.

        Args:
            input: Pooled values. / 池化后的值。
            indices: Argmax positions. / 最大值位置。
            output_size: Size to restore, or None. / 要还原的尺寸，或 None。

        Returns:
            The unpooled tensor. / 反池化结果。
        """
        # 中: 同 `MaxUnpool1d.forward`，默认尺寸逐个空间维按同一公式推算。
        # EN: As `MaxUnpool1d.forward`; the default size uses the same formula per spatial
        # EN: dimension.
        return F.max_unpool3d(
            input, indices, self.kernel_size, self.stride, self.padding, output_size
        )


class _AvgPoolNd(Module):
    r"""Family base of average pooling: constants and repr only. / 平均池化的家族基类：只有常量与 repr。

    === "中文"

        与 `_MaxPoolNd` 不同，这个基类没有 `__init__`：三个子类各自保存参数，且做法不同——
        `AvgPool1d` 规整成 1 元 tuple，`AvgPool2d/3d` 原样保存并多出 `divisor_override`。
        `count_include_pad` 决定填充出来的 0 是否计入平均的分母。
        `extra_repr` 只列出窗口、步长与填充。

    === "English"

        Unlike `_MaxPoolNd` this base has no `__init__`: the three subclasses store their
        settings themselves, and differently: `AvgPool1d` normalizes to 1-tuples, while
        `AvgPool2d/3d` keep values as given and add `divisor_override`. `count_include_pad`
        decides whether padded zeros count in the average's denominator. `extra_repr` lists only
        kernel, stride and padding.
    """

    __constants__ = [
        "kernel_size",
        "stride",
        "padding",
        "ceil_mode",
        "count_include_pad",
    ]

    def extra_repr(self) -> str:
        r"""Describe kernel, stride and padding. / 描述窗口、步长与填充。

        === "中文"

            `ceil_mode` 等其余设置不出现在 `repr` 中。

        === "English"

            `ceil_mode` and the other settings do not appear in the `repr`.

        Returns:
            The description string. / 描述字符串。
        """
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_AvgPoolNd):
    r"""1D average pooling over `(N, C, L)`. / 对 `(N, C, L)` 做一维平均池化。

    === "中文"

        每个窗口输出其平均值。尺寸以 1 元 tuple 保存，所以 `repr` 显示 `kernel_size=(3,)`。

    === "English"

        Each window yields its mean. Sizes are stored as 1-tuples, so the `repr` shows
        `kernel_size=(3,)`.

    Args:
        kernel_size: Window size. / 窗口大小。
        stride: Window step; None means `kernel_size`. / 窗口步长；None 表示等于 `kernel_size`。
        padding: Implicit zero padding on both sides. / 两侧的隐式零填充。
        ceil_mode: Round the output size up. / 输出尺寸向上取整。
        count_include_pad: Count padded zeros in the average. / 平均时是否计入填充的 0。

    Examples:
        >>> import annotated_nn as nn
        >>> nn.AvgPool1d(3, stride=2)
        AvgPool1d(kernel_size=(3,), stride=(2,), padding=(0,))
    """

    kernel_size: _size_1_t
    stride: _size_1_t
    padding: _size_1_t
    ceil_mode: bool
    count_include_pad: bool

    def __init__(
        self,
        kernel_size: _size_1_t,
        stride: _size_1_t = None,
        padding: _size_1_t = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
    ) -> None:
        r"""Store the settings, sizes as 1-tuples. / 保存设置，尺寸规整为 1 元 tuple。

        === "中文"

            `stride` 为 None 时取 `kernel_size`，即窗口互不重叠。

        === "English"

            `stride` defaults to `kernel_size` when None, i.e. the windows do not overlap.

        Args:
            kernel_size: Window size. / 窗口大小。
            stride: Window step. / 窗口步长。
            padding: Implicit zero padding. / 隐式零填充。
            ceil_mode: Round the output size up. / 输出尺寸向上取整。
            count_include_pad: Count padded zeros in the average. / 平均时是否计入填充的 0。
        """
        # 中: 与 `AvgPool2d/3d` 不同，这里规整成 1 元 tuple（torch 如此），`repr` 因而显示 `(3,)`。
        # 中: 没有 `divisor_override`：`F.avg_pool1d` 本身就没有这个参数。
        # EN: Unlike `AvgPool2d/3d`, sizes become 1-tuples (as in torch), so the `repr` shows
        # EN: `(3,)`.
        # EN: There is no `divisor_override`: `F.avg_pool1d` has no such argument.
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply `F.avg_pool1d`. / 调用 `F.avg_pool1d`。

        === "中文"

            各项设置按位置传入函数。

        === "English"

            The settings are passed positionally.

        Args:
            input: Input `(N, C, L)` or `(C, L)`. / 输入 `(N, C, L)` 或 `(C, L)`。

        Returns:
            The pooled tensor. / 池化结果。
        """
        # 中: 超参数按 `F.avg_pool1d` 的位置顺序传入。`count_include_pad=True` 时，落在填充上的 0 也计入
        # 中: 分母，边界处的平均值因此被拉向 0。
        # EN: The hyper-parameters go in `F.avg_pool1d`'s positional order. With
        # EN: `count_include_pad=True` the padded zeros count in the denominator, so averages at the
        # EN: border are pulled toward 0.
        return F.avg_pool1d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
        )


class AvgPool2d(_AvgPoolNd):
    r"""2D average pooling over `(N, C, H, W)`. / 对 `(N, C, H, W)` 做二维平均池化。

    === "中文"

        尺寸原样保存。`divisor_override` 给定时，用它代替窗口元素个数作为分母。

    === "English"

        Sizes are stored as given. When `divisor_override` is set, it replaces the number of
        window elements as the denominator.

    Args:
        kernel_size: Window size. / 窗口大小。
        stride: Window step; None means `kernel_size`. / 窗口步长；None 表示等于 `kernel_size`。
        padding: Implicit zero padding on both sides. / 两侧的隐式零填充。
        ceil_mode: Round the output size up. / 输出尺寸向上取整。
        count_include_pad: Count padded zeros in the average. / 平均时是否计入填充的 0。
        divisor_override: Fixed denominator, or None. / 固定分母，或 None。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.AvgPool2d(2)(torch.ones(1, 1, 4, 4)).shape
        torch.Size([1, 1, 2, 2])
    """

    # 中: 覆盖基类的 `__constants__`，多列出 `divisor_override`（供 TorchScript 使用）。
    # EN: Overrides the base's `__constants__` to add `divisor_override` (for TorchScript).
    __constants__ = [
        "kernel_size",
        "stride",
        "padding",
        "ceil_mode",
        "count_include_pad",
        "divisor_override",
    ]

    # 中: 属性的类型注解供 TorchScript 使用；与 torch 一样，`divisor_override` 没有注解。
    # EN: Attribute annotations for TorchScript; as in torch, `divisor_override` has none.
    kernel_size: _size_2_t
    stride: _size_2_t
    padding: _size_2_t
    ceil_mode: bool
    count_include_pad: bool

    def __init__(
        self,
        kernel_size: _size_2_t,
        stride: _size_2_t | None = None,
        padding: _size_2_t = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: int | None = None,
    ) -> None:
        r"""Store the settings as given. / 原样保存设置。

        === "中文"

            `stride` 为 None 时取 `kernel_size`，即窗口互不重叠。

        === "English"

            `stride` defaults to `kernel_size` when None, i.e. the windows do not overlap.

        Args:
            kernel_size: Window size. / 窗口大小。
            stride: Window step. / 窗口步长。
            padding: Implicit zero padding. / 隐式零填充。
            ceil_mode: Round the output size up. / 输出尺寸向上取整。
            count_include_pad: Count padded zeros in the average. / 平均时是否计入填充的 0。
            divisor_override: Fixed denominator, or None. / 固定分母，或 None。
        """
        # 中: 原样保存，不规整（与 `AvgPool1d` 不同，`repr` 显示用户写的整数或 tuple）；`stride` 为 None
        # 中: 时取 `kernel_size`。`divisor_override` 给定时，`F.avg_pool2d` 用它代替窗口元素个数作分母，
        # 中: 此时 `count_include_pad` 不再起作用。
        # EN: Stored as given, not normalized (unlike `AvgPool1d`, the `repr` shows the user's int
        # EN: or tuple); a None `stride` becomes `kernel_size`. When `divisor_override` is set,
        # EN: `F.avg_pool2d` divides by it instead of the window's element count, and
        # EN: `count_include_pad` no longer matters.
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply `F.avg_pool2d`. / 调用 `F.avg_pool2d`。

        === "中文"

            各项设置按位置传入函数。

        === "English"

            The settings are passed positionally.

        Args:
            input: Input `(N, C, H, W)` or `(C, H, W)`. / 输入 `(N, C, H, W)` 或 `(C, H, W)`。

        Returns:
            The pooled tensor. / 池化结果。
        """
        # 中: `AvgPool1d.forward` 的二维版本，按位置多传一个 `divisor_override`。
        # EN: The 2-D counterpart of `AvgPool1d.forward`, passing `divisor_override` positionally
        # EN: too.
        return F.avg_pool2d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            # 中: `ceil_mode` 与 `count_include_pad` 的含义同 `AvgPool1d`。
            # EN: `ceil_mode` and `count_include_pad` mean what they do in `AvgPool1d`.
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
        )


class AvgPool3d(_AvgPoolNd):
    r"""3D average pooling over `(N, C, D, H, W)`. / 对 `(N, C, D, H, W)` 做三维平均池化。

    === "中文"

        与 `AvgPool2d` 相同，作用于三个空间维；还带一个兼容旧 pickle 的 `__setstate__`。

    === "English"

        As `AvgPool2d`, over three spatial dimensions; it also has a `__setstate__` for old
        pickles.

    Args:
        kernel_size: Window size. / 窗口大小。
        stride: Window step; None means `kernel_size`. / 窗口步长；None 表示等于 `kernel_size`。
        padding: Implicit zero padding on both sides. / 两侧的隐式零填充。
        ceil_mode: Round the output size up. / 输出尺寸向上取整。
        count_include_pad: Count padded zeros in the average. / 平均时是否计入填充的 0。
        divisor_override: Fixed denominator, or None. / 固定分母，或 None。
    """

    # 中: 同 `AvgPool2d`：覆盖基类的 `__constants__`，多列出 `divisor_override`。
    # EN: As in `AvgPool2d`: overrides the base's `__constants__` to add `divisor_override`.
    __constants__ = [
        "kernel_size",
        "stride",
        "padding",
        "ceil_mode",
        "count_include_pad",
        "divisor_override",
    ]

    # 中: 属性的类型注解供 TorchScript 使用；`divisor_override` 同样没有注解。
    # EN: Attribute annotations for TorchScript; `divisor_override` again has none.
    kernel_size: _size_3_t
    stride: _size_3_t
    padding: _size_3_t
    ceil_mode: bool
    count_include_pad: bool

    def __init__(
        self,
        kernel_size: _size_3_t,
        stride: _size_3_t | None = None,
        padding: _size_3_t = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: int | None = None,
    ) -> None:
        r"""Store the settings as given. / 原样保存设置。

        === "中文"

            `stride` 为 None 时取 `kernel_size`，即窗口互不重叠。

        === "English"

            `stride` defaults to `kernel_size` when None, i.e. the windows do not overlap.

        Args:
            kernel_size: Window size. / 窗口大小。
            stride: Window step. / 窗口步长。
            padding: Implicit zero padding. / 隐式零填充。
            ceil_mode: Round the output size up. / 输出尺寸向上取整。
            count_include_pad: Count padded zeros in the average. / 平均时是否计入填充的 0。
            divisor_override: Fixed denominator, or None. / 固定分母，或 None。
        """
        # 中: 同 `AvgPool2d.__init__`：原样保存，`stride` 为 None 时取 `kernel_size`。
        # EN: As `AvgPool2d.__init__`: stored as given, a None `stride` becomes `kernel_size`.
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply `F.avg_pool3d`. / 调用 `F.avg_pool3d`。

        === "中文"

            各项设置按位置传入函数。

        === "English"

            The settings are passed positionally.

        Args:
            input: Input `(N, C, D, H, W)` or `(C, D, H, W)`. / 输入 `(N, C, D, H, W)` 或 `(C, D, H, W)`。

        Returns:
            The pooled tensor. / 池化结果。
        """
        # 中: `AvgPool1d.forward` 的三维版本，按位置多传一个 `divisor_override`。
        # EN: The 3-D counterpart of `AvgPool1d.forward`, passing `divisor_override` positionally
        # EN: too.
        return F.avg_pool3d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            # 中: `ceil_mode` 与 `count_include_pad` 的含义同 `AvgPool1d`。
            # EN: `ceil_mode` and `count_include_pad` mean what they do in `AvgPool1d`.
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
        )

    def __setstate__(self, d):
        r"""Restore from a pickle, filling settings old versions lacked. / 从 pickle 恢复，补上旧版本缺少的设置。

        === "中文"

            很早的版本没有 `padding`、`ceil_mode`、`count_include_pad`，补上它们的默认值。
            注意没有补 `divisor_override`。

        === "English"

            Very old versions lacked `padding`, `ceil_mode` and `count_include_pad`; their
            defaults are filled in. Note that `divisor_override` is not.

        Args:
            d: The unpickled `__dict__`. / 反序列化得到的 `__dict__`。
        """
        # 中: 先由 `Module.__setstate__` 恢复 `__dict__`；`setdefault` 只补缺失的键，
        # 中: 不覆盖 pickle 里已有的值。不补 `divisor_override`：缺它的旧 pickle 在 `forward`
        # 中: 读该属性时抛 `AttributeError`（torch 同样如此，已实测）。
        # EN: `Module.__setstate__` restores `__dict__` first; `setdefault` only fills missing keys
        # EN: and never overwrites pickled values. `divisor_override` is not filled: an old pickle
        # EN: without it raises `AttributeError` when `forward` reads it (torch too; checked by
        # EN: running it).
        super().__setstate__(d)
        self.__dict__.setdefault("padding", 0)
        self.__dict__.setdefault("ceil_mode", False)
        self.__dict__.setdefault("count_include_pad", True)


class FractionalMaxPool2d(Module):
    r"""2D fractional max pooling with random window positions. / 窗口位置随机的二维分数最大池化。

    === "中文"

        输出尺寸可以是输入的任意比例（`output_ratio`）或指定值（`output_size`），二者只能给一个。
        窗口位置由随机样本决定；`_random_samples` 可固定这些样本，并作为缓冲区（buffer）
        登记（传 None 时登记为 None，不进状态字典）。

    === "English"

        The output size can be any fraction of the input (`output_ratio`) or a given size
        (`output_size`); exactly one of the two. Window positions come from random samples;
        `_random_samples` can pin them and is registered as a buffer (None when not given, and
        then absent from the state dict).

    Args:
        kernel_size: Window size. / 窗口大小。
        output_size: Target output size. / 目标输出尺寸。
        output_ratio: Target ratio in (0, 1). / 目标比例，位于 (0, 1)。
        return_indices: Also return the argmax positions. / 是否同时返回最大值位置。
        _random_samples: Fixed random samples, or None. / 固定的随机样本，或 None。

    Raises:
        ValueError: Neither or both sizes given, or a ratio outside (0, 1). / 两个尺寸都没给或都给了，或比例不在 (0, 1)。
    """

    __constants__ = ["kernel_size", "return_indices", "output_size", "output_ratio"]

    kernel_size: _size_2_t
    return_indices: bool
    output_size: _size_2_t
    output_ratio: _ratio_2_t

    def __init__(
        self,
        kernel_size: _size_2_t,
        output_size: _size_2_t | None = None,
        output_ratio: _ratio_2_t | None = None,
        return_indices: bool = False,
        _random_samples=None,
    ) -> None:
        r"""Store the settings and validate the size choice. / 保存设置并校验尺寸选项。

        === "中文"

            缓冲区在校验之前登记，校验顺序：两者皆无 → 两者皆有 → 比例范围。

        === "English"

            The buffer is registered before validation; checks run in the order: neither given
            → both given → ratio range.

        Args:
            kernel_size: Window size. / 窗口大小。
            output_size: Target output size. / 目标输出尺寸。
            output_ratio: Target ratio. / 目标比例。
            return_indices: Also return the argmax positions. / 是否同时返回最大值位置。
            _random_samples: Fixed random samples, or None. / 固定的随机样本，或 None。

        Raises:
            ValueError: Invalid size choice. / 尺寸选项无效。
        """
        # 中: 与 `MaxPool2d` 不同，`kernel_size` 立即用 `_pair` 规整成 2 元 tuple。
        # EN: Unlike `MaxPool2d`, `_pair` turns `kernel_size` into a 2-tuple right away.
        super().__init__()
        self.kernel_size = _pair(kernel_size)
        self.return_indices = return_indices
        # 中: `_random_samples` 登记为缓冲区：给定时随 `.to()` 迁移，并写入状态字典；为 None 时只占位，
        # 中: 不进状态字典（已实测）。
        # EN: `_random_samples` is registered as a buffer: when given, it moves with `.to()` and is
        # EN: saved in the state_dict; None only reserves the slot and stays out of the state_dict
        # EN: (checked by running it).
        self.register_buffer("_random_samples", _random_samples)
        # 中: 两个尺寸选项都规整成 tuple，None 保持 None；下面的检查顺序决定先报哪个错，文本与 torch 相同。
        # EN: Both size options become tuples, None stays None; the order of the checks below
        # EN: decides which error comes first, with torch's texts.
        self.output_size = _pair(output_size) if output_size is not None else None
        self.output_ratio = _pair(output_ratio) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(
                "FractionalMaxPool2d requires specifying either an output size, or a pooling ratio"
            )
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        # 中: 比例必须在每一维都严格位于 (0, 1)：分数最大池化只能缩小。报错里打印的是用户原来给的值。
        # EN: The ratio must lie strictly in (0, 1) in every dimension: fractional max pooling only
        # EN: shrinks. The message prints the value as the user gave it.
        if self.output_ratio is not None:
            if not (0 < self.output_ratio[0] < 1 and 0 < self.output_ratio[1] < 1):
                raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input: Tensor):
        r"""Apply `F.fractional_max_pool2d`. / 调用 `F.fractional_max_pool2d`。

        === "中文"

            没有固定样本时，每次调用都从全局随机数生成器抽取新样本。

        === "English"

            Without pinned samples each call draws new ones from the global random generator.

        Args:
            input: Input `(N, C, H, W)` or `(C, H, W)`. / 输入 `(N, C, H, W)` 或 `(C, H, W)`。

        Returns:
            The pooled tensor, or it with the indices. / 池化结果，或结果与位置。
        """
        # 中: `_random_samples` 为 None 时，`F.fractional_max_pool2d` 每次调用都用 `torch.rand` 抽取形状
        # 中: `(N, C, 2)` 的新样本（无批次时 N 为 1），同一输入两次前向传播的结果可能不同（已实测）；
        # 中: 固定样本才可复现。给的是 `output_ratio` 时，输出尺寸在每次调用时按 `int(输入尺寸 * 比例)` 计算。
        # EN: With `_random_samples` None, `F.fractional_max_pool2d` draws fresh `(N, C, 2)` samples
        # EN: (N is 1 when unbatched) with `torch.rand` at every call, so two forward passes on one
        # EN: input can differ (checked by running it); pinned samples make it reproducible. Given
        # EN: `output_ratio`, the output size is `int(input size * ratio)`, computed at every call.
        return F.fractional_max_pool2d(
            input,
            self.kernel_size,
            self.output_size,
            self.output_ratio,
            self.return_indices,
            _random_samples=self._random_samples,
        )


class FractionalMaxPool3d(Module):
    r"""3D fractional max pooling with random window positions. / 窗口位置随机的三维分数最大池化。

    === "中文"

        与 `FractionalMaxPool2d` 相同，作用于三个空间维；另外在构造时检查 `kernel_size` 为正。

    === "English"

        As `FractionalMaxPool2d`, over three spatial dimensions; it also checks at construction
        that `kernel_size` is positive.

    Args:
        kernel_size: Window size. / 窗口大小。
        output_size: Target output size. / 目标输出尺寸。
        output_ratio: Target ratio in (0, 1). / 目标比例，位于 (0, 1)。
        return_indices: Also return the argmax positions. / 是否同时返回最大值位置。
        _random_samples: Fixed random samples, or None. / 固定的随机样本，或 None。

    Raises:
        ValueError: Non-positive kernel, or an invalid size choice. / 窗口不为正，或尺寸选项无效。
    """

    __constants__ = ["kernel_size", "return_indices", "output_size", "output_ratio"]
    kernel_size: _size_3_t
    return_indices: bool
    output_size: _size_3_t
    output_ratio: _ratio_3_t

    def __init__(
        self,
        kernel_size: _size_3_t,
        output_size: _size_3_t | None = None,
        output_ratio: _ratio_3_t | None = None,
        return_indices: bool = False,
        _random_samples=None,
    ) -> None:
        r"""Validate the kernel, store the settings, validate the size choice. / 校验窗口，保存设置，再校验尺寸选项。

        === "中文"

            `kernel_size` 的检查最先发生（在登记缓冲区之前）。

        === "English"

            The `kernel_size` check comes first (before the buffer is registered).

        Args:
            kernel_size: Window size. / 窗口大小。
            output_size: Target output size. / 目标输出尺寸。
            output_ratio: Target ratio. / 目标比例。
            return_indices: Also return the argmax positions. / 是否同时返回最大值位置。
            _random_samples: Fixed random samples, or None. / 固定的随机样本，或 None。

        Raises:
            ValueError: Invalid kernel or size choice. / 窗口或尺寸选项无效。
        """
        super().__init__()
        # 中: 先于一切检查 `kernel_size` 为正（`FractionalMaxPool2d` 没有这一步）：整数与 tuple/list
        # 中: 分别判断；其他类型不在这里检查。报错文本与 torch 相同。
        # EN: First of all, check that `kernel_size` is positive (`FractionalMaxPool2d` has no such
        # EN: step): ints and tuples/lists are tested separately; other types are not checked here.
        # EN: The message is torch's.
        if (isinstance(kernel_size, int) and kernel_size <= 0) or (
            isinstance(kernel_size, (tuple, list)) and not all(k > 0 for k in kernel_size)
        ):
            raise ValueError(f"kernel_size must be greater than 0, but got {kernel_size}")
        # 中: 其余与 `FractionalMaxPool2d.__init__` 相同，只是用 `_triple` 规整成 3 元 tuple；
        # 中: `_random_samples` 同样登记为缓冲区。
        # EN: The rest is `FractionalMaxPool2d.__init__` with `_triple` making 3-tuples;
        # EN: `_random_samples` is again registered as a buffer.
        self.kernel_size = _triple(kernel_size)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        # 中: 尺寸选项与检查顺序同 `FractionalMaxPool2d`，报错文本里的类名不同。
        # EN: Size options and check order as in `FractionalMaxPool2d`, with this class's name in
        # EN: the message.
        self.output_size = _triple(output_size) if output_size is not None else None
        self.output_ratio = _triple(output_ratio) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(
                "FractionalMaxPool3d requires specifying either an output size, or a pooling ratio"
            )
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        # 中: 三个维度的比例都必须严格位于 (0, 1)。
        # EN: All three ratios must lie strictly in (0, 1).
        if self.output_ratio is not None:
            if not (
                0 < self.output_ratio[0] < 1
                and 0 < self.output_ratio[1] < 1
                and 0 < self.output_ratio[2] < 1
            ):
                raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input: Tensor):
        r"""Apply `F.fractional_max_pool3d`. / 调用 `F.fractional_max_pool3d`。

        === "中文"

            没有固定样本时，每次调用都从全局随机数生成器抽取新样本。

        === "English"

            Without pinned samples each call draws new ones from the global random generator.

        Args:
            input: Input `(N, C, D, H, W)` or `(C, D, H, W)`. / 输入 `(N, C, D, H, W)` 或 `(C, D, H, W)`。

        Returns:
            The pooled tensor, or it with the indices. / 池化结果，或结果与位置。
        """
        # 中: 同 `FractionalMaxPool2d.forward`，只是样本形状为 `(N, C, 3)`，每个空间维一个随机数。
        # EN: As `FractionalMaxPool2d.forward`, except that the samples are `(N, C, 3)`, one random
        # EN: number per spatial dimension.
        return F.fractional_max_pool3d(
            input,
            self.kernel_size,
            self.output_size,
            self.output_ratio,
            self.return_indices,
            _random_samples=self._random_samples,
        )


class _LPPoolNd(Module):
    r"""Family base of power-average pooling. / 幂平均池化的家族基类。

    === "中文"

        LP 池化在每个窗口上计算 `(sum x^p)^(1/p)`：`p=1` 为求和，`p` 趋于无穷时接近最大池化。
        基类原样保存 `norm_type`、`kernel_size`、`stride`（可为 None，由 `F.lp_pool*d`
        解释为等于 `kernel_size`）与 `ceil_mode`。

    === "English"

        LP pooling computes `(sum x^p)^(1/p)` over each window: `p=1` is a sum, and large `p`
        approaches max pooling. The base stores `norm_type`, `kernel_size`, `stride` (may be
        None, which `F.lp_pool*d` reads as `kernel_size`) and `ceil_mode` as given.

    Args:
        norm_type: The power p. / 幂次 p。
        kernel_size: Window size. / 窗口大小。
        stride: Window step, or None. / 窗口步长，或 None。
        ceil_mode: Round the output size up. / 输出尺寸向上取整。
    """

    __constants__ = ["norm_type", "kernel_size", "stride", "ceil_mode"]

    norm_type: float
    ceil_mode: bool

    def __init__(
        self,
        norm_type: float,
        kernel_size: _size_any_t,
        stride: _size_any_t | None = None,
        ceil_mode: bool = False,
    ) -> None:
        r"""Store the settings as given. / 原样保存设置。

        === "中文"

            与 `_MaxPoolNd` 不同，`stride` 为 None 时保持 None。

        === "English"

            Unlike `_MaxPoolNd`, a None `stride` stays None.

        Args:
            norm_type: The power p. / 幂次 p。
            kernel_size: Window size. / 窗口大小。
            stride: Window step, or None. / 窗口步长，或 None。
            ceil_mode: Round the output size up. / 输出尺寸向上取整。
        """
        # 中: 全部原样保存。`stride` 为 None 时保持 None（`repr` 显示 `stride=None`）：`F.lp_pool*d` 把 None
        # 中: 交给 `avg_pool*d` 的默认值，也就是 `kernel_size`。
        # EN: All stored as given. A None `stride` stays None (`repr` shows `stride=None`):
        # EN: `F.lp_pool*d` leaves it to `avg_pool*d`'s default, which is `kernel_size`.
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def extra_repr(self) -> str:
        r"""Describe the power and window settings. / 描述幂次与窗口设置。

        === "中文"

            四项设置全部列出。

        === "English"

            All four settings are listed.

        Returns:
            The description string. / 描述字符串。
        """
        return (
            "norm_type={norm_type}, kernel_size={kernel_size}, stride={stride}, "
            "ceil_mode={ceil_mode}".format(**self.__dict__)
        )


class LPPool1d(_LPPoolNd):
    r"""1D power-average pooling. / 一维幂平均池化。

    === "中文"

        公式与各项设置见家族基类 `_LPPoolNd`。

    === "English"

        See `_LPPoolNd` for the formula and settings.

    Args:
        norm_type: The power p. / 幂次 p。
        kernel_size: Window size. / 窗口大小。
        stride: Window step, or None. / 窗口步长，或 None。
        ceil_mode: Round the output size up. / 输出尺寸向上取整。
    """

    kernel_size: _size_1_t
    stride: _size_1_t

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply `F.lp_pool1d`. / 调用 `F.lp_pool1d`。

        === "中文"

            `norm_type` 先转成 float 再传给函数。

        === "English"

            `norm_type` is converted to float first.

        Args:
            input: Input `(N, C, L)` or `(C, L)`. / 输入 `(N, C, L)` 或 `(C, L)`。

        Returns:
            The pooled tensor. / 池化结果。
        """
        # 中: `F.lp_pool1d` 先对 `x^p` 做平均池化，再乘回窗口大小（完整窗口时即得 `Σx^p`），最后开 `p` 次方；
        # 中: `p` 为正负无穷时改用 `|x|` 上的最大（最小）池化。填充固定为 0，本类也没有 `padding` 参数。
        # EN: `F.lp_pool1d` average-pools `x^p`, multiplies back by the window size (giving `Σx^p`
        # EN: for a full window), then takes the `p`-th root; for `p` of plus or minus infinity it
        # EN: max-pools (min-pools) `|x|` instead. Padding is fixed at 0, and this class has no
        # EN: `padding` argument.
        return F.lp_pool1d(
            input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode
        )


class LPPool2d(_LPPoolNd):
    r"""2D power-average pooling. / 二维幂平均池化。

    === "中文"

        公式与各项设置见家族基类 `_LPPoolNd`。

    === "English"

        See `_LPPoolNd` for the formula and settings.

    Args:
        norm_type: The power p. / 幂次 p。
        kernel_size: Window size. / 窗口大小。
        stride: Window step, or None. / 窗口步长，或 None。
        ceil_mode: Round the output size up. / 输出尺寸向上取整。
    """

    kernel_size: _size_2_t
    stride: _size_2_t

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply `F.lp_pool2d`. / 调用 `F.lp_pool2d`。

        === "中文"

            `norm_type` 先转成 float 再传给函数。

        === "English"

            `norm_type` is converted to float first.

        Args:
            input: Input `(N, C, H, W)` or `(C, H, W)`. / 输入 `(N, C, H, W)` 或 `(C, H, W)`。

        Returns:
            The pooled tensor. / 池化结果。
        """
        # 中: `LPPool1d.forward` 的二维版本：调用 `F.lp_pool2d`，窗口大小按 `kH * kW` 乘回。
        # EN: The 2-D counterpart of `LPPool1d.forward`: it calls `F.lp_pool2d`, multiplying back by
        # EN: `kH * kW`.
        return F.lp_pool2d(
            input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode
        )


class LPPool3d(_LPPoolNd):
    r"""3D power-average pooling. / 三维幂平均池化。

    === "中文"

        公式与各项设置见家族基类 `_LPPoolNd`。

    === "English"

        See `_LPPoolNd` for the formula and settings.

    Args:
        norm_type: The power p. / 幂次 p。
        kernel_size: Window size. / 窗口大小。
        stride: Window step, or None. / 窗口步长，或 None。
        ceil_mode: Round the output size up. / 输出尺寸向上取整。
    """

    kernel_size: _size_3_t
    stride: _size_3_t

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply `F.lp_pool3d`. / 调用 `F.lp_pool3d`。

        === "中文"

            `norm_type` 先转成 float 再传给函数。

        === "English"

            `norm_type` is converted to float first.

        Args:
            input: Input `(N, C, D, H, W)` or `(C, D, H, W)`. / 输入 `(N, C, D, H, W)` 或 `(C, D, H, W)`。

        Returns:
            The pooled tensor. / 池化结果。
        """
        # 中: `LPPool1d.forward` 的三维版本：调用 `F.lp_pool3d`，窗口大小按 `kD * kH * kW` 乘回。
        # EN: The 3-D counterpart of `LPPool1d.forward`: it calls `F.lp_pool3d`, multiplying back by
        # EN: `kD * kH * kW`.
        return F.lp_pool3d(
            input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode
        )


class _AdaptiveMaxPoolNd(Module):
    r"""Family base of adaptive max pooling: you choose the output size. / 自适应最大池化的家族基类：由用户指定输出尺寸。

    === "中文"

        自适应池化不指定窗口，而是指定输出尺寸，窗口大小与位置由内核按输入尺寸算出。
        `output_size` 中的 None 表示该维保持输入大小（见 `_list_with_default`）。
        基类原样保存 `output_size` 与 `return_indices`。

    === "English"

        Adaptive pooling takes an output size instead of a window; the kernel works out window
        sizes and positions from the input size. A None in `output_size` keeps that dimension's
        input size (see `_list_with_default`). The base stores `output_size` and
        `return_indices` as given.

    Args:
        output_size: Target output size; entries may be None. / 目标输出尺寸，可含 None。
        return_indices: Also return the argmax positions. / 是否同时返回最大值位置。
    """

    __constants__ = ["output_size", "return_indices"]
    return_indices: bool

    def __init__(self, output_size: _size_any_opt_t, return_indices: bool = False) -> None:
        r"""Store the settings as given. / 原样保存设置。

        === "中文"

            这里不做任何校验。

        === "English"

            No validation is done here.

        Args:
            output_size: Target output size. / 目标输出尺寸。
            return_indices: Also return the argmax positions. / 是否同时返回最大值位置。
        """
        # 中: 原样保存：`output_size` 里的 None 留到前向传播时，由 `F.adaptive_max_pool2d/3d` 按输入尺寸填补。
        # EN: Stored as given: a None inside `output_size` waits for the forward pass, where
        # EN: `F.adaptive_max_pool2d/3d` fills it from the input's size.
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def extra_repr(self) -> str:
        r"""Describe the output size. / 描述输出尺寸。

        === "中文"

            只列出 `output_size`，不包括 `return_indices`。

        === "English"

            Only `output_size`; `return_indices` is not included.

        Returns:
            The description string. / 描述字符串。
        """
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    r"""1D adaptive max pooling. / 一维自适应最大池化。

    === "中文"

        输出长度固定为 `output_size`。

    === "English"

        The output length is `output_size`, whatever the input length.

    Args:
        output_size: Target output length. / 目标输出长度。
        return_indices: Also return the argmax positions. / 是否同时返回最大值位置。
    """

    output_size: _size_1_t

    def forward(self, input: Tensor):
        r"""Apply `F.adaptive_max_pool1d`. / 调用 `F.adaptive_max_pool1d`。

        === "中文"

            `return_indices=True` 时返回 `(输出, 位置)`。

        === "English"

            Returns `(output, indices)` when `return_indices=True`.

        Args:
            input: Input `(N, C, L)` or `(C, L)`. / 输入 `(N, C, L)` 或 `(C, L)`。

        Returns:
            The pooled tensor, or it with the indices. / 池化结果，或结果与位置。
        """
        # 中: 内核按输入长度为每个输出位置算出窗口的起止；`return_indices` 按位置传入，
        # 中: `F.adaptive_max_pool1d` 据它分派，为 True 时返回 `(输出, 位置)`。一维版本不接受 None。
        # EN: The kernel works out each output position's window bounds from the input length;
        # EN: `return_indices` goes in positionally and `F.adaptive_max_pool1d` dispatches on it,
        # EN: returning `(output, indices)` when True. The 1-D version takes no None.
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    r"""2D adaptive max pooling. / 二维自适应最大池化。

    === "中文"

        输出的高宽固定为 `output_size`，其中可含 None。

    === "English"

        The output height and width are `output_size`, which may hold None.

    Args:
        output_size: Target output size. / 目标输出尺寸。
        return_indices: Also return the argmax positions. / 是否同时返回最大值位置。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.AdaptiveMaxPool2d((None, 7))(torch.randn(1, 64, 10, 9)).shape
        torch.Size([1, 64, 10, 7])
    """

    output_size: _size_2_opt_t

    def forward(self, input: Tensor):
        r"""Apply `F.adaptive_max_pool2d`. / 调用 `F.adaptive_max_pool2d`。

        === "中文"

            `return_indices=True` 时返回 `(输出, 位置)`。

        === "English"

            Returns `(output, indices)` when `return_indices=True`.

        Args:
            input: Input `(N, C, H, W)` or `(C, H, W)`. / 输入 `(N, C, H, W)` 或 `(C, H, W)`。

        Returns:
            The pooled tensor, or it with the indices. / 池化结果，或结果与位置。
        """
        # 中: 二维版本：`F.adaptive_max_pool2d` 先用 `_list_with_default` 把 None 换成输入对应维的大小，
        # 中: 再交给内核；同样按 `return_indices` 分派。
        # EN: The 2-D counterpart: `F.adaptive_max_pool2d` first swaps each None for the input's
        # EN: size in that dimension (`_list_with_default`), then calls the kernel; it dispatches on
        # EN: `return_indices` likewise.
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    r"""3D adaptive max pooling. / 三维自适应最大池化。

    === "中文"

        输出的深高宽固定为 `output_size`，其中可含 None。

    === "English"

        The output depth, height and width are `output_size`, which may hold None.

    Args:
        output_size: Target output size. / 目标输出尺寸。
        return_indices: Also return the argmax positions. / 是否同时返回最大值位置。
    """

    output_size: _size_3_opt_t

    def forward(self, input: Tensor):
        r"""Apply `F.adaptive_max_pool3d`. / 调用 `F.adaptive_max_pool3d`。

        === "中文"

            `return_indices=True` 时返回 `(输出, 位置)`。

        === "English"

            Returns `(output, indices)` when `return_indices=True`.

        Args:
            input: Input `(N, C, D, H, W)` or `(C, D, H, W)`. / 输入 `(N, C, D, H, W)` 或 `(C, D, H, W)`。

        Returns:
            The pooled tensor, or it with the indices. / 池化结果，或结果与位置。
        """
        # 中: 三维版本，与 `AdaptiveMaxPool2d.forward` 相同：None 由 `_list_with_default` 填补。
        # EN: The 3-D counterpart, as `AdaptiveMaxPool2d.forward`: `_list_with_default` fills None.
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class _AdaptiveAvgPoolNd(Module):
    r"""Family base of adaptive average pooling. / 自适应平均池化的家族基类。

    === "中文"

        与 `_AdaptiveMaxPoolNd` 相同，只是求平均且没有 `return_indices`。
        `AdaptiveAvgPool2d(1)` 即常见的"全局平均池化"。

    === "English"

        Like `_AdaptiveMaxPoolNd`, but averaging and without `return_indices`.
        `AdaptiveAvgPool2d(1)` is the common "global average pooling".

    Args:
        output_size: Target output size; entries may be None. / 目标输出尺寸，可含 None。
    """

    __constants__ = ["output_size"]

    def __init__(self, output_size: _size_any_opt_t) -> None:
        r"""Store the output size as given. / 原样保存输出尺寸。

        === "中文"

            这里不做任何校验。

        === "English"

            No validation is done here.

        Args:
            output_size: Target output size. / 目标输出尺寸。
        """
        super().__init__()
        self.output_size = output_size

    def extra_repr(self) -> str:
        r"""Describe the output size. / 描述输出尺寸。

        === "中文"

            这是唯一的一项设置。

        === "English"

            It is the only setting.

        Returns:
            The description string. / 描述字符串。
        """
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    r"""1D adaptive average pooling. / 一维自适应平均池化。

    === "中文"

        输出长度固定为 `output_size`。

    === "English"

        The output length is `output_size`, whatever the input length.

    Args:
        output_size: Target output length. / 目标输出长度。
    """

    output_size: _size_1_t

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply `F.adaptive_avg_pool1d`. / 调用 `F.adaptive_avg_pool1d`。

        === "中文"

            直接转交给函数形式。

        === "English"

            A direct hand-off to the functional form.

        Args:
            input: Input `(N, C, L)` or `(C, L)`. / 输入 `(N, C, L)` 或 `(C, L)`。

        Returns:
            The pooled tensor. / 池化结果。
        """
        # 中: `F.adaptive_avg_pool1d` 就是 `torch.adaptive_avg_pool1d`，`output_size` 必须是整数（不接受 None）。
        # EN: `F.adaptive_avg_pool1d` is `torch.adaptive_avg_pool1d`; `output_size` must be an int
        # EN: (None is refused).
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    r"""2D adaptive average pooling. / 二维自适应平均池化。

    === "中文"

        输出的高宽固定为 `output_size`，其中可含 None。

    === "English"

        The output height and width are `output_size`, which may hold None.

    Args:
        output_size: Target output size. / 目标输出尺寸。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> m = nn.AdaptiveAvgPool2d(1)
        >>> m
        AdaptiveAvgPool2d(output_size=1)
        >>> m(torch.randn(2, 8, 5, 7)).shape
        torch.Size([2, 8, 1, 1])
    """

    output_size: _size_2_opt_t

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply `F.adaptive_avg_pool2d`. / 调用 `F.adaptive_avg_pool2d`。

        === "中文"

            直接转交给函数形式。

        === "English"

            A direct hand-off to the functional form.

        Args:
            input: Input `(N, C, H, W)` or `(C, H, W)`. / 输入 `(N, C, H, W)` 或 `(C, H, W)`。

        Returns:
            The pooled tensor. / 池化结果。
        """
        # 中: `F.adaptive_avg_pool2d` 用 `_list_with_default` 把 None 换成输入对应维的大小；
        # 中: `output_size=1` 即全局平均池化。
        # EN: `F.adaptive_avg_pool2d` swaps each None for the input's size in that dimension
        # EN: (`_list_with_default`); `output_size=1` is global average pooling.
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    r"""3D adaptive average pooling. / 三维自适应平均池化。

    === "中文"

        输出的深高宽固定为 `output_size`，其中可含 None。

    === "English"

        The output depth, height and width are `output_size`, which may hold None.

    Args:
        output_size: Target output size. / 目标输出尺寸。
    """

    output_size: _size_3_opt_t

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply `F.adaptive_avg_pool3d`. / 调用 `F.adaptive_avg_pool3d`。

        === "中文"

            直接转交给函数形式。

        === "English"

            A direct hand-off to the functional form.

        Args:
            input: Input `(N, C, D, H, W)` or `(C, D, H, W)`. / 输入 `(N, C, D, H, W)` 或 `(C, D, H, W)`。

        Returns:
            The pooled tensor. / 池化结果。
        """
        # 中: 三维版本，与 `AdaptiveAvgPool2d.forward` 相同：None 由 `_list_with_default` 填补。
        # EN: The 3-D counterpart, as `AdaptiveAvgPool2d.forward`: `_list_with_default` fills None.
        return F.adaptive_avg_pool3d(input, self.output_size)
