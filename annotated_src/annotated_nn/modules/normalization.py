r"""Normalization layers that do not keep running statistics. / 不维护滑动统计量的归一化层。

=== "中文"

    本文件对应 `torch.nn.modules.normalization`：`LayerNorm`、`GroupNorm`、`RMSNorm`
    以及两个局部响应归一化层。与 BatchNorm（见 `batchnorm.py`）不同，它们只用当前输入
    自身的统计量，训练和评估模式下行为完全相同，所以没有缓冲区（buffer），也不关心
    `self.training`。可学习的仿射变换是普通参数（parameter）：`weight` 初始化为 1，
    `bias` 初始化为 0，因此刚构造出来的层只做“纯归一化”。每个 `forward` 只把参数原样交给
    `torch.nn.functional` 中对应的函数（`CrossMapLRN2d` 例外，它调用一个自动求导函数）。

=== "English"

    This file mirrors `torch.nn.modules.normalization`: `LayerNorm`, `GroupNorm`, `RMSNorm`
    and the two local-response layers. Unlike BatchNorm (see `batchnorm.py`) they normalize
    with statistics of the current input only, so they behave the same in training and
    evaluation, own no buffers and never look at `self.training`. The learnable affine
    transform is made of ordinary parameters: `weight` starts at 1 and `bias` at 0, so a
    fresh layer only normalizes. Every `forward` hands its arguments to the matching
    `torch.nn.functional` call (except `CrossMapLRN2d`, which calls an autograd Function).
"""

import numbers

import torch
from torch import Size, Tensor

# 中: CrossMapLRN2d 的自动求导函数是数值内核，直接用 torch 的实现。
# EN: CrossMapLRN2d's autograd Function is a numerical kernel, so torch's own is used.
from torch.nn.modules._functions import CrossMapLRN2d as _cross_map_lrn2d

from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["LocalResponseNorm", "CrossMapLRN2d", "LayerNorm", "GroupNorm", "RMSNorm"]


class LocalResponseNorm(Module):
    r"""Local response normalization across channels (AlexNet style). / 跨通道的局部响应归一化（AlexNet 风格）。

    === "中文"

        每个位置的值除以相邻 `size` 个通道平方和的函数：
        `b_c = a_c / (k + alpha / n * sum(a_{c'}^2)) ** beta`。没有参数，也没有缓冲区，
        只保存四个超参数。

    === "English"

        Each value is divided by a function of the squared sum over `size` neighboring
        channels: `b_c = a_c / (k + alpha / n * sum(a_{c'}^2)) ** beta`. It owns no parameter
        and no buffer, only four hyper-parameters.

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.LocalResponseNorm(2)
        LocalResponseNorm(2, alpha=0.0001, beta=0.75, k=1.0)
        >>> nn.LocalResponseNorm(2)(torch.ones(1, 3, 2, 2)).shape
        torch.Size([1, 3, 2, 2])
    """

    __constants__ = ["size", "alpha", "beta", "k"]
    size: int
    alpha: float
    beta: float
    k: float

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> None:
        r"""Store the four hyper-parameters. / 保存四个超参数。

        === "中文"

            只是记录数值；没有任何张量需要创建。

        === "English"

            Only records the numbers; there is no tensor to create.

        Args:
            size: Number of neighboring channels used. / 参与求和的相邻通道数。
            alpha: Multiplicative factor. / 乘法系数。
            beta: Exponent. / 指数。
            k: Additive constant. / 加性常数。
        """
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input: Tensor) -> Tensor:
        r"""Normalize `input` across channels. / 跨通道归一化 `input`。

        === "中文"

            调用 `F.local_response_norm`；通道维是第 1 维。

        === "English"

            Calls `F.local_response_norm`; channels are dimension 1.

        Args:
            input: Tensor of shape `(N, C, *)`. / 形状为 `(N, C, *)` 的张量。

        Returns:
            Tensor of the same shape. / 同形状的张量。
        """
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        r"""Describe the hyper-parameters for `repr`. / 为 `repr` 描述超参数。

        === "中文"

            格式与 torch 完全相同，例如 `2, alpha=0.0001, beta=0.75, k=1.0`。

        === "English"

            Same format as torch, e.g. `2, alpha=0.0001, beta=0.75, k=1.0`.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)


class CrossMapLRN2d(Module):
    r"""Legacy cross-map LRN for 4D input (Lua Torch heritage). / 面向 4 维输入的旧式跨通道 LRN（源自 Lua Torch）。

    === "中文"

        与 [`LocalResponseNorm`][annotated_nn.modules.normalization.LocalResponseNorm]
        计算同类的量，但走一个手写的自动求导函数，只接受 4 维输入。两者的数值并不相同：
        torch 的这个函数在滑动窗口求和时有一处差一（第 0 个通道的平方从不移出窗口），
        本库照样保留，输出与 torch 逐位一致。注意默认 `k=1` 是整数，所以 `repr` 里显示 `k=1`
        而不是 `k=1.0`。

    === "English"

        Computes the same kind of quantity as
        [`LocalResponseNorm`][annotated_nn.modules.normalization.LocalResponseNorm] through a
        hand-written autograd Function and accepts 4D input only. The numbers are not the same:
        torch's Function has an off-by-one in its running window sum (channel 0's square never
        leaves the window), which this library keeps, so the output equals torch's bit for bit.
        The default `k=1` is an int, hence `k=1` (not `k=1.0`) in the repr.

    Examples:
        >>> import annotated_nn as nn
        >>> nn.CrossMapLRN2d(3)
        CrossMapLRN2d(3, alpha=0.0001, beta=0.75, k=1)
    """

    size: int
    alpha: float
    beta: float
    k: float

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1) -> None:
        r"""Store the four hyper-parameters. / 保存四个超参数。

        === "中文"

            与 `LocalResponseNorm` 相同，只是 `k` 的默认值是整数 1。

        === "English"

            As for `LocalResponseNorm`, except that `k` defaults to the int 1.

        Args:
            size: Number of neighboring channels used. / 参与求和的相邻通道数。
            alpha: Multiplicative factor. / 乘法系数。
            beta: Exponent. / 指数。
            k: Additive constant. / 加性常数。
        """
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply cross-map LRN. / 应用跨通道 LRN。

        === "中文"

            通过 torch 的 `CrossMapLRN2d.apply` 自动求导函数计算。

        === "English"

            Computed by torch's `CrossMapLRN2d.apply` autograd Function.

        Args:
            input: Tensor of shape `(N, C, H, W)`. / 形状为 `(N, C, H, W)` 的张量。

        Returns:
            Tensor of the same shape. / 同形状的张量。
        """
        return _cross_map_lrn2d.apply(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        r"""Describe the hyper-parameters for `repr`. / 为 `repr` 描述超参数。

        === "中文"

            格式与 `LocalResponseNorm` 相同。

        === "English"

            Same format as `LocalResponseNorm`.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)


_shape_t = int | list[int] | Size


class LayerNorm(Module):
    r"""Normalize over the trailing `normalized_shape` dimensions. / 在末尾 `normalized_shape` 几维上归一化。

    === "中文"

        对每个样本，在最后 `len(normalized_shape)` 维上求均值和（有偏）方差，
        归一化后再做逐元素仿射 `y * weight + bias`。`weight`、`bias` 的形状就是
        `normalized_shape`（不同于 BatchNorm 按通道各一个数）。Transformer 每层都用它。
        整数 `normalized_shape` 会被转成一元组，所以 `repr` 显示 `(4,)`。

    === "English"

        For each sample, mean and (biased) variance are taken over the last
        `len(normalized_shape)` dimensions, then an elementwise affine `y * weight + bias`
        follows. `weight` and `bias` have shape `normalized_shape` (not one number per
        channel as in BatchNorm). Every Transformer layer uses it. An int `normalized_shape`
        becomes a 1-tuple, hence `(4,)` in the repr.

    Examples:
        >>> import torch, annotated_nn as nn
        >>> ln = nn.LayerNorm(4)
        >>> ln
        LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)
        >>> ln(torch.arange(8.).view(2, 4)).mean(-1).abs().max() < 1e-6
        tensor(True)
    """

    __constants__ = ["normalized_shape", "eps", "elementwise_affine"]
    normalized_shape: tuple[int, ...]
    eps: float
    elementwise_affine: bool

    def __init__(
        self,
        normalized_shape: _shape_t,
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        r"""Create `weight`/`bias` of shape `normalized_shape` (if affine). / 创建形状为 `normalized_shape` 的 `weight`/`bias`（若启用仿射）。

        === "中文"

            先用 `torch.empty` 占位，再由 [`reset_parameters`][annotated_nn.modules.normalization.LayerNorm.reset_parameters]
            填成 1 和 0。关闭仿射时仍把 `weight`、`bias` 登记为 `None`，
            这样 `ln.weight` 可以访问，却不出现在状态字典（state_dict）里。
            1.5.1 → 2.13：新增 `bias` 开关和 `device`/`dtype` 工厂参数。

        === "English"

            Placeholders come from `torch.empty`, then
            [`reset_parameters`][annotated_nn.modules.normalization.LayerNorm.reset_parameters]
            fills them with ones and zeros. Without affine, `weight` and `bias` are still
            registered as `None`, so `ln.weight` exists but stays out of the state_dict.
            1.5.1 → 2.13: the `bias` switch and the `device`/`dtype` factory kwargs were added.

        Args:
            normalized_shape: Trailing shape to normalize over (int or sequence). / 要归一化的末尾形状（整数或序列）。
            eps: Added to the variance for stability. / 加到方差上以保证数值稳定。
            elementwise_affine: Whether to learn `weight` (and `bias`). / 是否学习 `weight`（及 `bias`）。
            bias: Whether to learn `bias` (only with affine). / 是否学习 `bias`（仅在仿射时有效）。
            device: Device of the new parameters. / 新参数所在设备。
            dtype: Dtype of the new parameters. / 新参数的数据类型。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        # 中: 整数（含 numpy 整数等 Integral）统一变成一元组；
        # 中: 其他序列（list、`torch.Size`）转成 tuple。元素本身不做转换：
        # 中: `np.int64(4)` 会原样留在元组里。
        # EN: Any Integral (numpy ints included) becomes a 1-tuple; other sequences (list,
        # EN: `torch.Size`) become a tuple. The elements are not converted: `np.int64(4)` stays
        # EN: as is.
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        # 中: 与 BatchNorm 按通道一个数不同，
        # 中: `weight`/`bias` 的形状就是整个 `normalized_shape`：
        # 中: 每个被归一化的元素各有一个缩放和平移。`bias=False` 只去掉 `bias`。
        # EN: Unlike BatchNorm's one value per channel, `weight`/`bias` have the whole
        # EN: `normalized_shape`: one scale and one shift per normalized element. `bias=False`
        # EN: drops only `bias`.
        if self.elementwise_affine:
            self.weight = Parameter(torch.empty(self.normalized_shape, **factory_kwargs))
            if bias:
                self.bias = Parameter(torch.empty(self.normalized_shape, **factory_kwargs))
            else:
                self.register_parameter("bias", None)
        else:
            # 中: 关闭仿射时两个名字都登记为 None：`F.layer_norm` 收到 None 就不做仿射，
            # 中: 状态字典里也没有它们；`bias` 参数此时不起作用。
            # EN: Without affine both names are registered as None: `F.layer_norm` skips the
            # EN: affine step for None, and the state_dict leaves them out; `bias` has no effect.
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

        # 中: `torch.empty` 的内容是任意的，必须立刻填成 1 和 0。
        # EN: `torch.empty` holds arbitrary values, so they are filled with 1 and 0 at once.
        self.reset_parameters()

    def reset_parameters(self) -> None:
        r"""Set `weight` to 1 and `bias` to 0. / 把 `weight` 置 1、`bias` 置 0。

        === "中文"

            确定性初始化，不消耗随机数，所以不会打乱其他层的随机序列。

        === "English"

            Deterministic: it draws no random numbers, so other layers' random streams are
            left untouched.
        """
        if self.elementwise_affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply layer normalization. / 应用层归一化。

        === "中文"

            调用 `F.layer_norm`；`weight`/`bias` 为 `None` 时 torch 会跳过仿射。

        === "English"

            Calls `F.layer_norm`; torch skips the affine step for a `None` weight or bias.

        Args:
            input: Tensor whose trailing dims equal `normalized_shape`. / 末尾几维等于 `normalized_shape` 的张量。

        Returns:
            Tensor of the same shape. / 同形状的张量。
        """
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        r"""Describe shape, eps and affine flags. / 描述形状、eps 与仿射开关。

        === "中文"

            `bias=` 显示的是 `bias` 参数是否存在，而不是构造参数本身。

        === "English"

            `bias=` shows whether a bias parameter exists, not the constructor argument.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        return (
            "{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}, "
            "bias={use_bias}".format(**self.__dict__, use_bias=self.bias is not None)
        )


class GroupNorm(Module):
    r"""Normalize over groups of channels. / 按通道分组归一化。

    === "中文"

        把 `num_channels` 个通道分成 `num_groups` 组，每个样本每组单独求均值和方差；
        仿射参数仍然按通道各一个。`num_groups=1` 相当于对整个样本做 LayerNorm，
        `num_groups=num_channels` 相当于 InstanceNorm（但带按通道仿射）。
        与批大小无关，小批量训练时常用来替代 BatchNorm。

    === "English"

        The `num_channels` channels are split into `num_groups` groups; mean and variance
        are taken per sample and per group, while the affine parameters stay per channel.
        `num_groups=1` is a LayerNorm over the whole sample, `num_groups=num_channels` an
        InstanceNorm (with per-channel affine). It does not depend on the batch size,
        which makes it a BatchNorm replacement for small batches.

    Examples:
        >>> import annotated_nn as nn
        >>> nn.GroupNorm(2, 4)
        GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)
    """

    __constants__ = ["num_groups", "num_channels", "eps", "affine"]
    num_groups: int
    num_channels: int
    eps: float
    affine: bool

    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        eps: float = 1e-5,
        affine: bool = True,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ) -> None:
        r"""Check divisibility, then create per-channel affine parameters. / 检查整除，再创建按通道的仿射参数。

        === "中文"

            通道数必须能被组数整除，否则在创建任何参数之前抛出 `ValueError`。
            1.5.1 → 2.13：新增仅限关键字的 `bias` 以及 `device`/`dtype` 工厂参数。

        === "English"

            The channel count must be divisible by the group count, otherwise a
            `ValueError` is raised before any parameter exists.
            1.5.1 → 2.13: the keyword-only `bias` and the `device`/`dtype` kwargs were added.

        Args:
            num_groups: Number of groups. / 组数。
            num_channels: Number of channels expected in the input. / 输入的通道数。
            eps: Added to the variance for stability. / 加到方差上以保证数值稳定。
            affine: Whether to learn per-channel `weight`/`bias`. / 是否学习按通道的 `weight`/`bias`。
            device: Device of the new parameters. / 新参数所在设备。
            dtype: Dtype of the new parameters. / 新参数的数据类型。
            bias: Whether to learn `bias` (only with affine). / 是否学习 `bias`（仅在仿射时有效）。

        Raises:
            ValueError: `num_channels` not divisible by `num_groups`. / `num_channels` 不能被 `num_groups` 整除。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        # 中: 整除检查在创建任何参数之前，信息与 torch 相同。
        # 中: `num_groups=0` 在这里得到的是 `%` 抛出的 ZeroDivisionError，
        # 中: 而不是 ValueError（torch 同样如此）。
        # EN: The divisibility check comes before any parameter exists, with torch's message.
        # EN: `num_groups=0` gets a ZeroDivisionError from `%` here rather than a ValueError (as in
        # EN: torch).
        if num_channels % num_groups != 0:
            raise ValueError(
                f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})"
            )

        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        # 中: 统计量按组计算，但仿射参数按通道：形状 `(num_channels,)`。
        # 中: `F.group_norm` 会检查它与输入第 1 维一致，
        # 中: 所以通道数不对的输入在那里报错；没有仿射参数时，
        # 中: 只要组数能整除输入的通道数，就没有任何检查。
        # EN: Statistics are per group, but the affine parameters are per channel: shape
        # EN: `(num_channels,)`. `F.group_norm` checks it against input dimension 1, so an input
        # EN: with the wrong channel count fails there; without affine parameters nothing checks
        # EN: it, as long as the groups divide the input's channels.
        if self.affine:
            self.weight = Parameter(torch.empty(num_channels, **factory_kwargs))
            if bias:
                self.bias = Parameter(torch.empty(num_channels, **factory_kwargs))
            else:
                self.register_parameter("bias", None)
        else:
            # 中: 与 LayerNorm 相同：关闭仿射时两者都是 None，`bias` 参数不起作用。
            # EN: As in LayerNorm: without affine both are None and `bias` has no effect.
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

        # 中: 把 `torch.empty` 的任意内容填成 1 和 0。
        # EN: Replace the arbitrary `torch.empty` contents with 1 and 0.
        self.reset_parameters()

    def reset_parameters(self) -> None:
        r"""Set `weight` to 1 and `bias` to 0. / 把 `weight` 置 1、`bias` 置 0。

        === "中文"

            与 LayerNorm 相同的确定性初始化。

        === "English"

            The same deterministic initialization as LayerNorm.
        """
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply group normalization. / 应用分组归一化。

        === "中文"

            调用 `F.group_norm`；输入的第 1 维必须是 `num_channels`。

        === "English"

            Calls `F.group_norm`; dimension 1 of the input must be `num_channels`.

        Args:
            input: Tensor of shape `(N, C, *)`. / 形状为 `(N, C, *)` 的张量。

        Returns:
            Tensor of the same shape. / 同形状的张量。
        """
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        r"""Describe groups, channels, eps and affine flags. / 描述组数、通道数、eps 与仿射开关。

        === "中文"

            `bias=` 表示 `bias` 参数是否存在。

        === "English"

            `bias=` tells whether a bias parameter exists.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        return "{num_groups}, {num_channels}, eps={eps}, affine={affine}, bias={use_bias}".format(
            **self.__dict__, use_bias=self.bias is not None
        )


class RMSNorm(Module):
    r"""Root-mean-square normalization (no mean subtraction, no bias). / 均方根归一化（不减均值、没有 bias）。

    === "中文"

        `y = x / sqrt(mean(x**2) + eps) * weight`，在末尾 `normalized_shape` 几维上计算。
        比 LayerNorm 少了减均值和 bias，许多大语言模型用它。`eps=None` 时由
        `F.rms_norm` 取计算所用数据类型的机器精度：float32、float64 输入用各自的
        `torch.finfo(dtype).eps`，float16、bfloat16 输入则在 float32 中计算，用 float32 的 eps
        （在 CPU 上实测如此，不是 torch 文档说的输入 dtype 的 eps）。1.5.1 之后才新增（1.5.1 没有）。

    === "English"

        `y = x / sqrt(mean(x**2) + eps) * weight` over the trailing `normalized_shape`
        dimensions. Compared with LayerNorm it drops the mean subtraction and the bias;
        many large language models use it. With `eps=None`, `F.rms_norm` uses the machine
        epsilon of the computation dtype: float32 and float64 inputs get their own
        `torch.finfo(dtype).eps`, while float16 and bfloat16 inputs are computed in float32
        and get float32's eps (as measured on CPU; not the input dtype's eps that torch's docs
        state). New since 1.5.1.

    Examples:
        >>> import annotated_nn as nn
        >>> nn.RMSNorm(3)
        RMSNorm((3,), eps=None, elementwise_affine=True)
    """

    __constants__ = ["normalized_shape", "eps", "elementwise_affine"]
    normalized_shape: tuple[int, ...]
    eps: float | None
    elementwise_affine: bool

    def __init__(
        self,
        normalized_shape: _shape_t,
        eps: float | None = None,
        elementwise_affine: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        r"""Create the scale `weight` of shape `normalized_shape`. / 创建形状为 `normalized_shape` 的缩放参数 `weight`。

        === "中文"

            只有 `weight`，没有 `bias` 这个名字（连 `None` 占位也没有）。

        === "English"

            There is only `weight`; not even a `None` slot named `bias` is registered.

        Args:
            normalized_shape: Trailing shape to normalize over (int or sequence). / 要归一化的末尾形状（整数或序列）。
            eps: Stability term; `None` means the computation dtype's machine epsilon. / 稳定项；`None` 表示取计算所用数据类型的机器精度。
            elementwise_affine: Whether to learn `weight`. / 是否学习 `weight`。
            device: Device of the new parameter. / 新参数所在设备。
            dtype: Dtype of the new parameter. / 新参数的数据类型。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        # 中: `normalized_shape` 的规范化与 LayerNorm 完全相同（整数变一元组）。
        # EN: `normalized_shape` is normalized exactly as in LayerNorm (an int becomes a 1-tuple).
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        # 中: `eps=None` 原样保存，不在这里换算：`F.rms_norm` 每次按输入决定（CPU 上实测）：
        # 中: float32 与 float16/bfloat16 输入用 float32 的 eps，float64 输入用 float64 的 eps。
        # EN: `eps=None` is kept as is, not resolved here: `F.rms_norm` decides per input (measured
        # EN: on CPU): float32's eps for float32 and float16/bfloat16 inputs, float64's for float64.
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        # 中: 只有缩放 `weight`（形状 `normalized_shape`）；
        # 中: 关闭时登记为 None，`F.rms_norm` 就不缩放。
        # EN: Only the scale `weight` (shape `normalized_shape`); when off it is registered as None
        # EN: and `F.rms_norm` does not scale.
        if self.elementwise_affine:
            self.weight = Parameter(torch.empty(self.normalized_shape, **factory_kwargs))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        r"""Set `weight` to 1. / 把 `weight` 置 1。

        === "中文"

            确定性初始化，不消耗随机数。

        === "English"

            Deterministic; draws no random numbers.
        """
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        r"""Apply RMS normalization. / 应用均方根归一化。

        === "中文"

            调用 `F.rms_norm`。注意参数名是 `x`，与 torch 一致。

        === "English"

            Calls `F.rms_norm`. The argument is named `x`, as in torch.

        Args:
            x: Tensor whose trailing dims equal `normalized_shape`. / 末尾几维等于 `normalized_shape` 的张量。

        Returns:
            Tensor of the same shape. / 同形状的张量。
        """
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        r"""Describe shape, eps and the affine flag. / 描述形状、eps 与仿射开关。

        === "中文"

            没有 `bias=` 字段，因为 RMSNorm 没有偏置。

        === "English"

            There is no `bias=` field since RMSNorm has no bias.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        return "{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}".format(
            **self.__dict__
        )
