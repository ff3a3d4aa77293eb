r"""Convolution layers: `Conv1d/2d/3d`, `ConvTranspose1d/2d/3d` and their lazy versions. / 卷积层：`Conv1d/2d/3d`、`ConvTranspose1d/2d/3d` 及其惰性版本。

=== "中文"

    类层次：`_ConvNd` 保存所有卷积共有的超参数与参数并负责校验、初始化和 `repr`；
    `Conv1d/2d/3d` 只负责把参数规整成 1/2/3 元 tuple，并在 `forward` 中调用对应的
    `F.convNd`；`_ConvTransposeNd` 在 `_ConvNd` 之上加入转置卷积特有的
    `output_padding` 计算，派生出 `ConvTranspose1d/2d/3d`；`_LazyConvXdMixin`
    与 [`LazyModuleMixin`][annotated_nn.modules.lazy.LazyModuleMixin] 组合出六个惰性卷积。

=== "English"

    Class layout: `_ConvNd` holds the hyper-parameters and parameters every convolution shares
    and does validation, initialization and `repr`; `Conv1d/2d/3d` only normalize arguments
    into 1/2/3-tuples and call the matching `F.convNd` in `forward`; `_ConvTransposeNd` adds
    the transposed convolution's `output_padding` computation on top of `_ConvNd` and is the
    base of `ConvTranspose1d/2d/3d`; `_LazyConvXdMixin` combined with
    [`LazyModuleMixin`][annotated_nn.modules.lazy.LazyModuleMixin] yields the six lazy convolutions.
"""

import math
from typing import Literal

import torch
import torch.nn.functional as F
from torch import Tensor
from torch.nn.common_types import _size_1_t, _size_2_t, _size_3_t
from typing_extensions import deprecated

from annotated_nn import init
from annotated_nn.parameter import Parameter, UninitializedParameter

from .lazy import LazyModuleMixin
from .module import Module
from .utils import _pair, _reverse_repeat_tuple, _single, _triple

# DIFF(torch 2.13):
# 中: 非法 padding_mode 的报错会打印集合 {"zeros", "reflect", "replicate", "circular"}。集合字面量被编译成
# 中: frozenset 常量存进 .pyc，其元素顺序由“编译那个 .pyc 的进程”的哈希种子决定，所以 torch 的文件与我们的文件
# 中: 在同一个进程里会打印出不同的顺序。这里取 torch 的 _ConvNd.__init__ 里的那个常量，按它的顺序建集合，报错文本就与 torch 逐字相同。
# EN: An invalid padding_mode's message prints the set {"zeros", "reflect", "replicate",
# EN: "circular"}. A set literal compiles to a frozenset constant stored in the .pyc, its element
# EN: order fixed by the hash seed of the process that wrote that .pyc, so torch's file and ours
# EN: print different orders in one process. We take that constant from torch's
# EN: _ConvNd.__init__ and build the set in its order, so the message is torch's word for word.
_TORCH_PADDING_MODES = next(
    const
    for const in torch.nn.modules.conv._ConvNd.__init__.__code__.co_consts
    if isinstance(const, frozenset) and "circular" in const
)

__all__ = [
    "Conv1d",
    "Conv2d",
    "Conv3d",
    "ConvTranspose1d",
    "ConvTranspose2d",
    "ConvTranspose3d",
    "LazyConv1d",
    "LazyConv2d",
    "LazyConv3d",
    "LazyConvTranspose1d",
    "LazyConvTranspose2d",
    "LazyConvTranspose3d",
]


class _ConvNd(Module):
    r"""Family base of all convolutions: checks, parameters, init and repr. / 所有卷积的家族基类：校验、参数、初始化与 repr。

    === "中文"

        `_ConvNd` 不知道自己是几维卷积：子类把 `kernel_size`、`stride`、`padding`、
        `dilation`、`output_padding` 都规整成同样长度的 tuple 再传进来，维数就是
        `len(kernel_size)`。它负责：

        - 校验 `groups`、通道数能否被 `groups` 整除、`padding` 字符串与 `padding_mode`；
        - 预先算好 `_reversed_padding_repeated_twice`（非 `'zeros'` 填充模式下交给 `F.pad`，
          见 Note [Padding for F.pad]）；
        - 分配 `weight`：普通卷积为 `(out_channels, in_channels // groups, *kernel_size)`，
          转置卷积为 `(in_channels, out_channels // groups, *kernel_size)`；以及 `bias`；
        - `reset_parameters`、`extra_repr`（只列出非默认值）以及兼容旧 pickle 的 `__setstate__`。

        子类只需提供 `forward`（以及普通卷积的 `_conv_forward`）。

    === "English"

        `_ConvNd` does not know its own dimensionality: subclasses normalize `kernel_size`,
        `stride`, `padding`, `dilation` and `output_padding` into tuples of one length before
        calling it, and the dimensionality is `len(kernel_size)`. It takes care of:

        - validating `groups`, that channel counts divide by `groups`, the `padding` string and
          `padding_mode`;
        - precomputing `_reversed_padding_repeated_twice` (handed to `F.pad` for padding modes
          other than `'zeros'`, see Note [Padding for F.pad]);
        - allocating `weight`, `(out_channels, in_channels // groups, *kernel_size)` for a
          convolution and `(in_channels, out_channels // groups, *kernel_size)` for a transposed
          one, and `bias`;
        - `reset_parameters`, `extra_repr` (listing only non-default values) and a `__setstate__`
          that accepts old pickles.

        A subclass only supplies `forward` (and, for plain convolutions, `_conv_forward`).

    Note: Note [Padding for F.pad] 为 F.pad 准备的填充
        === "中文"

            `padding_mode='zeros'` 时，零填充由卷积内核自己完成，`padding` 直接传给
            `F.convNd`。其他模式（`'reflect'`、`'replicate'`、`'circular'`）要先用 `F.pad`
            显式填充，再以 `padding=0` 做卷积。`F.pad` 的填充序列从最后一维开始、每维
            (左, 右) 各一个数，所以 `padding=(1, 2)` 变成 `[2, 2, 1, 1]`。
            `padding='same'` 时总填充量为 `dilation * (kernel_size - 1)`，为奇数时右侧多填 1。

        === "English"

            With `padding_mode='zeros'` the convolution kernel pads with zeros itself and
            `padding` goes straight to `F.convNd`. Other modes (`'reflect'`, `'replicate'`,
            `'circular'`) pad explicitly with `F.pad` first and then convolve with `padding=0`.
            `F.pad` lists dimensions from the last one, a (left, right) pair each, so
            `padding=(1, 2)` becomes `[2, 2, 1, 1]`. For `padding='same'` the total padding is
            `dilation * (kernel_size - 1)`; when odd, the right side gets the extra one.

    Args:
        in_channels: Channels of the input. / 输入通道数。
        out_channels: Channels of the output. / 输出通道数。
        kernel_size: Kernel size, a tuple. / 卷积核尺寸（tuple）。
        stride: Stride, a tuple. / 步长（tuple）。
        padding: Padding, a tuple or `'same'`/`'valid'`. / 填充（tuple 或 `'same'`/`'valid'`）。
        dilation: Dilation, a tuple. / 空洞间隔（tuple）。
        transposed: Whether this is a transposed convolution. / 是否为转置卷积。
        output_padding: Extra output size for transposed convolutions, a tuple. / 转置卷积的输出附加尺寸（tuple）。
        groups: Number of channel groups. / 通道分组数。
        bias: Whether to learn a bias. / 是否学习偏置。
        padding_mode: `'zeros'`, `'reflect'`, `'replicate'` or `'circular'`. / 填充模式。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。

    Raises:
        ValueError: Invalid `groups`, channel counts, padding string, or padding mode. / `groups`、通道数、填充字符串或填充模式无效。
    """

    # 中: `__constants__` 是给 TorchScript 的：`torch.jit.script` 把列出的属性编译成常量；
    # 中: `Module` 本身从不读它，即时执行的 `forward` 有没有它都一样。
    # EN: `__constants__` is for TorchScript: `torch.jit.script` compiles the listed attributes as
    # EN: constants; `Module` itself never reads it, and an eager `forward` runs the same without
    # EN: it.
    __constants__ = [
        "stride",
        "padding",
        "dilation",
        "groups",
        # 中: TorchScript 常量可以是字符串，所以 `padding_mode` 也能列在这里。
        # EN: A TorchScript constant may be a string, so `padding_mode` can be listed too.
        "padding_mode",
        "output_padding",
        "in_channels",
        "out_channels",
        "kernel_size",
    ]

    # 中: 注解顺序与 torch 的 `__annotations__` 一致（torch 先单独写了 bias）。
    # EN: Annotation order matches torch's `__annotations__` (torch lists bias first).
    bias: Tensor | None
    in_channels: int
    _reversed_padding_repeated_twice: list[int]
    out_channels: int
    kernel_size: tuple[int, ...]
    stride: tuple[int, ...]
    # 中: 只有 `padding` 可能是字符串（`'same'`/`'valid'`）；其余尺寸在这里总是 tuple。
    # EN: Only `padding` may be a string (`'same'`/`'valid'`); the other sizes are always tuples.
    padding: str | tuple[int, ...]
    dilation: tuple[int, ...]
    transposed: bool
    output_padding: tuple[int, ...]
    groups: int
    padding_mode: Literal["zeros", "reflect", "replicate", "circular"]
    weight: Tensor

    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
        r"""Convolve `input` with the given weight and bias; defined by each subclass. / 用给定的权重与偏置对 `input` 卷积；由各子类定义。

        === "中文"

            这里只声明接口（函数体为空）。把权重作为参数而不是直接读 `self.weight`，
            让子类可以用别的权重复用同一套卷积逻辑：torch 的量化感知训练卷积
            （`torch.ao.nn.qat`）传入伪量化后的权重，融合的卷积 + BatchNorm 传入缩放后的权重。

        === "English"

            Only the interface is declared here (the body is empty). Taking the weight as an
            argument instead of reading `self.weight` lets subclasses reuse the same convolution
            logic with other weights: torch's quantization-aware training convolutions
            (`torch.ao.nn.qat`) pass a fake-quantized weight, and fused conv + BatchNorm passes a
            scaled one.

        Args:
            input: Input tensor. / 输入张量。
            weight: Convolution weight. / 卷积权重。
            bias: Bias or None. / 偏置或 None。

        Returns:
            The convolution output. / 卷积输出。
        """
        ...

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: tuple[int, ...],
        stride: tuple[int, ...],
        padding: str | tuple[int, ...],
        dilation: tuple[int, ...],
        transposed: bool,
        output_padding: tuple[int, ...],
        groups: int,
        bias: bool,
        padding_mode: Literal["zeros", "reflect", "replicate", "circular"],
        device=None,
        dtype=None,
    ) -> None:
        r"""Validate the arguments, store them, allocate and initialize the parameters. / 校验并保存参数，分配并初始化权重。

        === "中文"

            校验的顺序决定了同时有多处错误时先报哪一个：`groups` → 输入通道 → 输出通道 →
            填充字符串 → `'same'` 与步长 → 填充模式。
            1.5.1 → 2.13：新增 `padding='same'`/`'valid'` 以及 `device`/`dtype` 参数。

        === "English"

            The order of the checks decides which error is reported when several apply:
            `groups` → input channels → output channels → padding string → `'same'` with stride
            → padding mode.
            1.5.1 → 2.13: `padding='same'`/`'valid'` and the `device`/`dtype` arguments were
            added.

        Args:
            in_channels: Channels of the input. / 输入通道数。
            out_channels: Channels of the output. / 输出通道数。
            kernel_size: Kernel size, a tuple. / 卷积核尺寸（tuple）。
            stride: Stride, a tuple. / 步长（tuple）。
            padding: Padding, a tuple or `'same'`/`'valid'`. / 填充（tuple 或 `'same'`/`'valid'`）。
            dilation: Dilation, a tuple. / 空洞间隔（tuple）。
            transposed: Whether this is a transposed convolution. / 是否为转置卷积。
            output_padding: Extra output size for transposed convolutions. / 转置卷积的输出附加尺寸。
            groups: Number of channel groups. / 通道分组数。
            bias: Whether to learn a bias. / 是否学习偏置。
            padding_mode: The padding mode. / 填充模式。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。

        Raises:
            ValueError: Invalid `groups`, channel counts, padding string, or padding mode. / `groups`、通道数、填充字符串或填充模式无效。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        # 中: 分组检查，顺序与报错文本都与 torch 相同。每组把 `in_channels // groups` 个输入通道映射到
        # 中: `out_channels // groups` 个输出通道，所以 `groups` 必须同时整除两者。
        # EN: Group checks, in torch's order and with torch's messages. Each group maps
        # EN: `in_channels // groups` input channels to `out_channels // groups` output channels, so
        # EN: `groups` must divide both.
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        # 中: 字符串 `padding` 只能是 `'same'` 或 `'valid'`；整数与 tuple 不在这里检查。
        # EN: A string `padding` must be `'same'` or `'valid'`; ints and tuples are not checked
        # EN: here.
        valid_padding_strings = {"same", "valid"}
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError(
                    f"Invalid padding string {padding!r}, should be one of {valid_padding_strings}"
                )
            # 中: 步长大于 1 时，"输出与输入同尺寸" 无从谈起，因此拒绝。
            # EN: With a stride above 1 the output cannot match the input's size, so refuse.
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")

        # 中: 报错信息会打印这个集合；见 _TORCH_PADDING_MODES 的说明，按 torch 的顺序建集合
        # 中: 才能打印出相同的文本。
        # EN: The message prints this set; see _TORCH_PADDING_MODES: built in torch's order, it
        # EN: prints torch's text.
        valid_padding_modes = set(_TORCH_PADDING_MODES)
        if padding_mode not in valid_padding_modes:
            raise ValueError(
                f"padding_mode must be one of {valid_padding_modes}, but got padding_mode='{padding_mode}'"
            )
        # 中: 校验通过后才保存全部超参数。它们是普通属性：`extra_repr` 用 `self.__dict__` 格式化它们，
        # 中: 子类的 `forward` 每次调用都从这里读取。
        # EN: Only after the checks pass are all hyper-parameters stored. They are plain attributes:
        # EN: `extra_repr` formats them from `self.__dict__`, and the subclasses' `forward` reads
        # EN: them at every call.
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        # 中: `transposed` 与 `output_padding` 只有转置卷积真正用到；普通卷积存的是 False 与全 0 的 tuple。
        # EN: Only transposed convolutions really use `transposed` and `output_padding`; plain ones
        # EN: store False and an all-zero tuple.
        self.transposed = transposed
        self.output_padding = output_padding
        self.groups = groups
        self.padding_mode = padding_mode
        # See Note [Padding for F.pad]
        if isinstance(self.padding, str):
            # 中: 'valid' 即不填充；'same' 按每维 dilation*(k-1) 计算，
            # 中: 下标 i 从最后一维往前数，与 F.pad 的顺序一致。
            # EN: 'valid' means no padding; 'same' uses dilation*(k-1) per dimension,
            # EN: with index i counting back from the last dimension, as F.pad wants.
            self._reversed_padding_repeated_twice = [0, 0] * len(kernel_size)
            if padding == "same":
                for d, k, i in zip(
                    dilation, kernel_size, range(len(kernel_size) - 1, -1, -1), strict=False
                ):
                    # 中: 总量 `d*(k-1)` 让步长 1 的输出与输入等长；为奇数时右侧多 1，
                    # 中: 与 `F.convNd(padding='same')` 在 `'zeros'` 模式下的做法一致（已实测）。
                    # EN: A total of `d*(k-1)` keeps a stride-1 output as long as the input; when
                    # EN: odd, the right side gets the extra one, as `F.convNd(padding='same')`
                    # EN: does in `'zeros'` mode (checked by running it).
                    total_padding = d * (k - 1)
                    left_pad = total_padding // 2
                    self._reversed_padding_repeated_twice[2 * i] = left_pad
                    self._reversed_padding_repeated_twice[2 * i + 1] = total_padding - left_pad
        else:
            # 中: 整数 tuple：倒序并每项重复两次，`(ph, pw)` → `(pw, pw, ph, ph)`，两侧对称。
            # 中: 它只在构造时算一次：之后再改 `self.padding` 不会更新它，非 `'zeros'` 模式仍按旧值填充。
            # EN: An int tuple: reversed, each item twice, `(ph, pw)` → `(pw, pw, ph, ph)`, both
            # EN: sides alike. It is computed once, here: changing `self.padding` later does not
            # EN: update it, and non-`'zeros'` modes keep padding by the old value.
            self._reversed_padding_repeated_twice = _reverse_repeat_tuple(self.padding, 2)

        # 中: 权重形状。转置卷积把前两维对调成 `(in_channels, out_channels // groups, *k)`：
        # 中: 它与被它"转置"的那个卷积（把 `out_channels` 个通道映射到 `in_channels` 个）的权重同形，
        # 中: `F.conv_transpose*d` 要的就是这种布局。
        # EN: The weight's shape. A transposed convolution swaps the first two dimensions to
        # EN: `(in_channels, out_channels // groups, *k)`: the shape of the weight of the
        # EN: convolution it transposes (the one mapping `out_channels` channels to `in_channels`),
        # EN: the layout `F.conv_transpose*d` expects.
        if transposed:
            self.weight = Parameter(
                torch.empty(
                    (in_channels, out_channels // groups, *kernel_size),
                    **factory_kwargs,
                )
            )
        else:
            # 中: 普通卷积：`(out_channels, in_channels // groups, *k)`，每个输出通道只连接本组的输入通道。
            # EN: A plain convolution: `(out_channels, in_channels // groups, *k)`; each output
            # EN: channel connects only to the input channels of its own group.
            self.weight = Parameter(
                torch.empty(
                    (out_channels, in_channels // groups, *kernel_size),
                    **factory_kwargs,
                )
            )
        # 中: 两种卷积的偏置都是 `(out_channels,)`；不要偏置时登记 None 占位。最后按 `self.reset_parameters`
        # 中: 初始化，惰性卷积借此在构造期间跳过。
        # EN: Both kinds have a `(out_channels,)` bias, or a registered None without one. Last,
        # EN: initialize through `self.reset_parameters`, which lazy convolutions use to skip it
        # EN: during construction.
        if bias:
            self.bias = Parameter(torch.empty(out_channels, **factory_kwargs))
        else:
            self.register_parameter("bias", None)

        self.reset_parameters()

    def reset_parameters(self) -> None:
        r"""Re-draw `weight` and `bias` from `U(-1/sqrt(fan_in), 1/sqrt(fan_in))`. / 从 `U(-1/sqrt(fan_in), 1/sqrt(fan_in))` 重新抽取 `weight` 与 `bias`。

        === "中文"

            与 `Linear` 相同，用 `kaiming_uniform_(a=sqrt(5))` 得到 `1/sqrt(fan_in)` 的上界，
            其中 `fan_in = weight.size(1) * prod(kernel_size)`。若权重不是连续内存
            （例如被转成 channels_last），先在一块连续的临时张量上抽样再拷回，
            这样随机数按逻辑顺序填入，与连续权重得到相同的数值。

        === "English"

            As in `Linear`, `kaiming_uniform_(a=sqrt(5))` gives the bound `1/sqrt(fan_in)`,
            with `fan_in = weight.size(1) * prod(kernel_size)`. If the weight is not contiguous
            (e.g. converted to channels_last), sampling happens on a contiguous temporary and is
            copied back, so the random numbers land in logical order and the values equal those
            of a contiguous weight.
        """
        # 中: 在 `no_grad` 中进行：下面的 `copy_` 是对需要梯度的叶子张量的就地操作，在记录计算图时会报错。
        # EN: Under `no_grad`: the `copy_` below is an in-place operation on a leaf that requires
        # EN: grad, which is an error while autograd is recording.
        with torch.no_grad():
            # 中: 非连续权重（例如 `to(memory_format=torch.channels_last)` 之后再调用本方法）：在连续的临时
            # 中: 张量上抽样再拷回，随机数按逻辑下标落位，同一种子下与连续权重的数值相同（已实测）。
            # EN: A non-contiguous weight (e.g. this method called after
            # EN: `to(memory_format=torch.channels_last)`): sample into a contiguous temporary and
            # EN: copy back, so the numbers land by logical index and match a contiguous weight for
            # EN: one seed (checked by running it).
            if not self.weight.is_contiguous():
                temp_weight = torch.empty_like(self.weight, memory_format=torch.contiguous_format)
                init.kaiming_uniform_(temp_weight, a=math.sqrt(5))
                self.weight.copy_(temp_weight)
            else:
                # 中: 常见情况：就地初始化，上界 1/sqrt(fan_in)，原理见 `Linear` 的 Note [Why a=sqrt(5)]。
                # EN: The usual case: in place, bound 1/sqrt(fan_in); see `Linear`'s
                # EN: Note [Why a=sqrt(5)].
                init.kaiming_uniform_(self.weight, a=math.sqrt(5))
            # 中: 偏置用同一上界，`fan_in = weight.size(1) * prod(kernel_size)`。注意转置卷积的
            # 中: `weight.size(1)` 是 `out_channels // groups`，所以这里（以及上面权重）的 "fan_in" 按输出通道计算。
            # EN: The bias takes the same bound, `fan_in = weight.size(1) * prod(kernel_size)`.
            # EN: For a transposed convolution `weight.size(1)` is `out_channels // groups`, so
            # EN: this "fan_in" (the weight's above too) counts output channels.
            if self.bias is not None:
                fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
                bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self):
        r"""List the channels, kernel and stride, then only the non-default settings. / 列出通道数、卷积核与步长，其余只列非默认设置。

        === "中文"

            默认值（padding 全 0、dilation 全 1、output_padding 全 0、groups=1、有偏置、
            `'zeros'` 模式）不出现在 `repr` 中。`padding='same'` 这样的字符串总会列出。

        === "English"

            Defaults (all-zero padding, all-one dilation, all-zero output_padding, groups=1, a
            bias, the `'zeros'` mode) are left out of the `repr`. A padding string such as
            `'same'` is always listed.

        Returns:
            E.g. `"1, 6, kernel_size=(3, 3), stride=(1, 1)"`. / 例如 `"1, 6, kernel_size=(3, 3), stride=(1, 1)"`。
        """
        # 中: 先拼格式串、最后一次 `format(**self.__dict__)`：超参数都是普通属性，占位符直接从 `__dict__` 取值。
        # 中: 每个默认值都与同长度的 tuple 比较；字符串 `padding`（如 `'same'`）不等于任何 tuple，所以总会列出。
        # EN: Build a format string, then one `format(**self.__dict__)`: the hyper-parameters are
        # EN: plain attributes, so the placeholders read `__dict__`. Each default is compared with a
        # EN: tuple of the same length; a string `padding` (e.g. `'same'`) equals no tuple, so it is
        # EN: always listed.
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * len(self.padding):
            s += ", padding={padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation={dilation}"
        # 中: 普通卷积的 `output_padding` 总是全 0，所以只有转置卷积可能列出它。
        # EN: A plain convolution's `output_padding` is always all zeros, so only transposed ones
        # EN: can list it.
        if self.output_padding != (0,) * len(self.output_padding):
            s += ", output_padding={output_padding}"
        if self.groups != 1:
            s += ", groups={groups}"
        # 中: `bias` 存在 `_parameters` 而不在 `__dict__` 里，没有 `{bias}` 占位符可用，所以写成字面文本。
        # EN: `bias` lives in `_parameters`, not in `__dict__`, so there is no `{bias}` placeholder;
        # EN: it is written as literal text.
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode={padding_mode}"
        return s.format(**self.__dict__)

    def __setstate__(self, state):
        r"""Restore from a pickle, defaulting `padding_mode` for old ones. / 从 pickle 恢复，旧 pickle 缺少 `padding_mode` 时补默认值。

        === "中文"

            1.1 之前保存的卷积没有 `padding_mode` 属性；补上 `'zeros'` 使它们仍能正常
            前向传播与打印。

        === "English"

            Convolutions pickled before 1.1 have no `padding_mode` attribute; filling in
            `'zeros'` keeps their forward pass and repr working.

        Args:
            state: The unpickled `__dict__`. / 反序列化得到的 `__dict__`。
        """
        # 中: 先由 `Module.__setstate__` 恢复 `__dict__`，再补旧 pickle 缺的属性；补的是默认值 `'zeros'`，
        # 中: 即由卷积内核直接补零，`forward` 走 `F.convNd` 自带填充的那条路。
        # EN: `Module.__setstate__` restores `__dict__` first, then the missing attribute is filled
        # EN: in with the default `'zeros'`: the kernel pads with zeros itself, and `forward` takes
        # EN: the path where `F.convNd` does the padding.
        super().__setstate__(state)
        if not hasattr(self, "padding_mode"):
            self.padding_mode = "zeros"


class Conv1d(_ConvNd):
    r"""1D convolution over an input of shape `(N, C_in, L)`. / 对形状为 `(N, C_in, L)` 的输入做一维卷积。

    === "中文"

        严格说计算的是互相关（不翻转卷积核）。输出长度
        `L_out = floor((L + 2*padding - dilation*(kernel_size-1) - 1) / stride + 1)`。
        也接受无批次维的 `(C_in, L)` 输入。共有逻辑见 `_ConvNd`。

    === "English"

        Strictly, it computes a cross-correlation (the kernel is not flipped). The output length
        is `L_out = floor((L + 2*padding - dilation*(kernel_size-1) - 1) / stride + 1)`. An
        unbatched `(C_in, L)` input is accepted too. Shared logic lives in `_ConvNd`.

    Args:
        in_channels: Channels of the input. / 输入通道数。
        out_channels: Channels of the output. / 输出通道数。
        kernel_size: Kernel size, int or 1-tuple. / 卷积核尺寸，整数或 1 元 tuple。
        stride: Stride. / 步长。
        padding: Padding, int, tuple, `'same'` or `'valid'`. / 填充：整数、tuple、`'same'` 或 `'valid'`。
        dilation: Spacing between kernel elements. / 卷积核元素间距。
        groups: Number of channel groups. / 通道分组数。
        bias: Whether to learn a bias. / 是否学习偏置。
        padding_mode: `'zeros'`, `'reflect'`, `'replicate'` or `'circular'`. / 填充模式。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> m = nn.Conv1d(16, 33, 3, stride=2)
        >>> m(torch.randn(20, 16, 50)).shape
        torch.Size([20, 33, 24])
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: _size_1_t,
        stride: _size_1_t = 1,
        padding: str | _size_1_t = 0,
        dilation: _size_1_t = 1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: Literal["zeros", "reflect", "replicate", "circular"] = "zeros",
        device=None,
        dtype=None,
    ) -> None:
        r"""Normalize sizes to 1-tuples and build the convolution. / 把尺寸规整为 1 元 tuple 并构造卷积。

        === "中文"

            字符串形式的 `padding` 原样保留，其余尺寸都经 `_single` 转成 tuple。

        === "English"

            A string `padding` is kept as is; every other size goes through `_single`.

        Args:
            in_channels: Channels of the input. / 输入通道数。
            out_channels: Channels of the output. / 输出通道数。
            kernel_size: Kernel size. / 卷积核尺寸。
            stride: Stride. / 步长。
            padding: Padding. / 填充。
            dilation: Spacing between kernel elements. / 卷积核元素间距。
            groups: Number of channel groups. / 通道分组数。
            bias: Whether to learn a bias. / 是否学习偏置。
            padding_mode: The padding mode. / 填充模式。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        # 中: 规整后的值用带下划线的新名字：参数的类型是 `int | tuple`，新名字总是 tuple，
        # 中: 类型检查器因此不会把两者混为一谈（torch 的写法）。
        # EN: The normalized values get new, underscored names: the argument is typed `int | tuple`,
        # EN: the new name is always a tuple, so the type checker keeps them apart (torch's way).
        kernel_size_ = _single(kernel_size)
        stride_ = _single(stride)
        # 中: 字符串 `padding` 不能交给 `_single`：字符串可迭代，会被拆成单个字符。
        # EN: A string `padding` must not reach `_single`: strings are iterable and would be split
        # EN: into characters.
        padding_ = padding if isinstance(padding, str) else _single(padding)
        dilation_ = _single(dilation)
        # 中: 校验、分配与初始化都交给 `_ConvNd`。
        # EN: `_ConvNd` does the checks, the allocation and the initialization.
        super().__init__(
            in_channels,
            out_channels,
            kernel_size_,
            stride_,
            padding_,
            dilation_,
            # 中: `transposed=False`；普通卷积用不到 `output_padding`，固定传 `(0,)`，`extra_repr` 因而不列出它。
            # EN: `transposed=False`; a plain convolution has no use for `output_padding`, so `(0,)`
            # EN: is passed, which `extra_repr` leaves out.
            False,
            _single(0),
            groups,
            bias,
            padding_mode,
            **factory_kwargs,
        )

    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None):
        r"""Run `F.conv1d`, padding with `F.pad` first for non-zero modes. / 调用 `F.conv1d`；非零填充模式先用 `F.pad` 填充。

        === "中文"

            填充模式不是 `'zeros'` 时先显式填充再卷积，见 Note [Padding for F.pad]。

        === "English"

            See Note [Padding for F.pad] on `_ConvNd`.

        Args:
            input: Input `(N, C_in, L)` or `(C_in, L)`. / 输入 `(N, C_in, L)` 或 `(C_in, L)`。
            weight: Convolution weight. / 卷积权重。
            bias: Bias or None. / 偏置或 None。

        Returns:
            The convolution output. / 卷积输出。
        """
        # 中: 非 `'zeros'` 模式要两步：卷积内核只会补零，所以先用 `F.pad` 按预先算好的
        # 中: `_reversed_padding_repeated_twice` 显式填充（`'same'` 时已含左右不对称的量）。
        # EN: Non-`'zeros'` modes take two steps: the convolution kernel can only pad with zeros, so
        # EN: `F.pad` pads explicitly first, by the precomputed `_reversed_padding_repeated_twice`
        # EN: (which already holds the asymmetric amounts for `'same'`).
        if self.padding_mode != "zeros":
            return F.conv1d(
                F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode),
                weight,
                bias,
                self.stride,
                # 中: 填充已经做完，卷积本身不能再填充。
                # EN: The padding is done; the convolution itself must not pad again.
                _single(0),
                self.dilation,
                self.groups,
            )
        # 中: `'zeros'` 模式：`padding`（整数 tuple 或 `'same'`/`'valid'`）直接交给 `F.conv1d`，由内核补零。
        # EN: `'zeros'` mode: `padding` (an int tuple or `'same'`/`'valid'`) goes straight to
        # EN: `F.conv1d`, and the kernel pads with zeros.
        return F.conv1d(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input: Tensor) -> Tensor:
        r"""Convolve `input` with this layer's weight and bias. / 用本层的权重和偏置对 `input` 卷积。

        === "中文"

            直接转交给 `_conv_forward(input, self.weight, self.bias)`，使用本层自己的参数。

        === "English"

            Delegates to `_conv_forward(input, self.weight, self.bias)`.

        Args:
            input: Input `(N, C_in, L)` or `(C_in, L)`. / 输入 `(N, C_in, L)` 或 `(C_in, L)`。

        Returns:
            Output `(N, C_out, L_out)` or `(C_out, L_out)`. / 输出 `(N, C_out, L_out)` 或 `(C_out, L_out)`。
        """
        # 中: 用本层自己的参数调用 `_conv_forward`；换权重的子类（如量化感知训练）只改这一行的实参。
        # EN: Call `_conv_forward` with this layer's own parameters; subclasses that swap the weight
        # EN: (e.g. quantization-aware training) only change the arguments of this call.
        return self._conv_forward(input, self.weight, self.bias)


class Conv2d(_ConvNd):
    r"""2D convolution over an input of shape `(N, C_in, H, W)`. / 对形状为 `(N, C_in, H, W)` 的输入做二维卷积。

    === "中文"

        每个空间维的输出尺寸按 `floor((size + 2*padding - dilation*(kernel_size-1) - 1) / stride + 1)`
        计算。尺寸类参数可以是一个整数（高宽相同）或 `(高, 宽)`。也接受无批次维的
        `(C_in, H, W)` 输入。共有逻辑见 `_ConvNd`。

    === "English"

        Each spatial output size is
        `floor((size + 2*padding - dilation*(kernel_size-1) - 1) / stride + 1)`. Size arguments
        are one int (same for height and width) or `(height, width)`. An unbatched
        `(C_in, H, W)` input is accepted too. Shared logic lives in `_ConvNd`.

    Args:
        in_channels: Channels of the input. / 输入通道数。
        out_channels: Channels of the output. / 输出通道数。
        kernel_size: Kernel size, int or 2-tuple. / 卷积核尺寸，整数或 2 元 tuple。
        stride: Stride. / 步长。
        padding: Padding, int, tuple, `'same'` or `'valid'`. / 填充：整数、tuple、`'same'` 或 `'valid'`。
        dilation: Spacing between kernel elements. / 卷积核元素间距。
        groups: Number of channel groups. / 通道分组数。
        bias: Whether to learn a bias. / 是否学习偏置。
        padding_mode: `'zeros'`, `'reflect'`, `'replicate'` or `'circular'`. / 填充模式。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> m = nn.Conv2d(1, 6, 3)
        >>> m
        Conv2d(1, 6, kernel_size=(3, 3), stride=(1, 1))
        >>> m(torch.randn(1, 1, 32, 32)).shape
        torch.Size([1, 6, 30, 30])
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: _size_2_t,
        stride: _size_2_t = 1,
        padding: str | _size_2_t = 0,
        dilation: _size_2_t = 1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: Literal["zeros", "reflect", "replicate", "circular"] = "zeros",
        device=None,
        dtype=None,
    ) -> None:
        r"""Normalize sizes to 2-tuples and build the convolution. / 把尺寸规整为 2 元 tuple 并构造卷积。

        === "中文"

            字符串形式的 `padding` 原样保留，其余尺寸都经 `_pair` 转成 tuple。

        === "English"

            A string `padding` is kept as is; every other size goes through `_pair`.

        Args:
            in_channels: Channels of the input. / 输入通道数。
            out_channels: Channels of the output. / 输出通道数。
            kernel_size: Kernel size. / 卷积核尺寸。
            stride: Stride. / 步长。
            padding: Padding. / 填充。
            dilation: Spacing between kernel elements. / 卷积核元素间距。
            groups: Number of channel groups. / 通道分组数。
            bias: Whether to learn a bias. / 是否学习偏置。
            padding_mode: The padding mode. / 填充模式。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        # 中: 与 `Conv1d.__init__` 相同，只是用 `_pair` 规整成 `(高, 宽)`；字符串 `padding` 同样绕开它。
        # EN: As `Conv1d.__init__`, but `_pair` normalizes to `(height, width)`; a string `padding`
        # EN: bypasses it likewise.
        factory_kwargs = {"device": device, "dtype": dtype}
        kernel_size_ = _pair(kernel_size)
        stride_ = _pair(stride)
        padding_ = padding if isinstance(padding, str) else _pair(padding)
        dilation_ = _pair(dilation)
        # 中: 交给 `_ConvNd`；字符串 `padding` 原样传入，由它为 `'same'` 算出每维的左右填充量。
        # EN: On to `_ConvNd`; a string `padding` goes in as is, and `_ConvNd` works out the left
        # EN: and right amounts per dimension for `'same'`.
        super().__init__(
            in_channels,
            out_channels,
            kernel_size_,
            stride_,
            padding_,
            dilation_,
            # 中: `transposed=False`，`output_padding` 固定为 `(0, 0)`。
            # EN: `transposed=False`, with `output_padding` fixed to `(0, 0)`.
            False,
            _pair(0),
            groups,
            bias,
            padding_mode,
            **factory_kwargs,
        )

    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None):
        r"""Run `F.conv2d`, padding with `F.pad` first for non-zero modes. / 调用 `F.conv2d`；非零填充模式先用 `F.pad` 填充。

        === "中文"

            填充模式不是 `'zeros'` 时先显式填充再卷积，见 Note [Padding for F.pad]。

        === "English"

            See Note [Padding for F.pad] on `_ConvNd`.

        Args:
            input: Input `(N, C_in, H, W)` or `(C_in, H, W)`. / 输入 `(N, C_in, H, W)` 或 `(C_in, H, W)`。
            weight: Convolution weight. / 卷积权重。
            bias: Bias or None. / 偏置或 None。

        Returns:
            The convolution output. / 卷积输出。
        """
        # 中: 与 `Conv1d._conv_forward` 相同的两条路径，调用 `F.conv2d`；`F.pad` 收到 4 个数 `(左, 右, 上, 下)`。
        # EN: The same two paths as `Conv1d._conv_forward`, calling `F.conv2d`; `F.pad` gets four
        # EN: numbers `(left, right, top, bottom)`.
        if self.padding_mode != "zeros":
            return F.conv2d(
                F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode),
                weight,
                bias,
                self.stride,
                # 中: 已显式填充，卷积不再填充。
                # EN: Already padded explicitly; the convolution pads no more.
                _pair(0),
                self.dilation,
                self.groups,
            )
        return F.conv2d(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input: Tensor) -> Tensor:
        r"""Convolve `input` with this layer's weight and bias. / 用本层的权重和偏置对 `input` 卷积。

        === "中文"

            直接转交给 `_conv_forward(input, self.weight, self.bias)`，使用本层自己的参数。

        === "English"

            Delegates to `_conv_forward(input, self.weight, self.bias)`.

        Args:
            input: Input `(N, C_in, H, W)` or `(C_in, H, W)`. / 输入 `(N, C_in, H, W)` 或 `(C_in, H, W)`。

        Returns:
            Output `(N, C_out, H_out, W_out)` or unbatched. / 输出 `(N, C_out, H_out, W_out)` 或无批次维形式。
        """
        # 中: 与 `Conv1d.forward` 相同：用本层自己的参数调用 `_conv_forward`。
        # EN: As `Conv1d.forward`: call `_conv_forward` with this layer's own parameters.
        return self._conv_forward(input, self.weight, self.bias)


class Conv3d(_ConvNd):
    r"""3D convolution over an input of shape `(N, C_in, D, H, W)`. / 对形状为 `(N, C_in, D, H, W)` 的输入做三维卷积。

    === "中文"

        每个空间维的输出尺寸公式与 `Conv2d` 相同。尺寸类参数可以是一个整数或
        `(深, 高, 宽)`。也接受无批次维的 `(C_in, D, H, W)` 输入。共有逻辑见 `_ConvNd`。

    === "English"

        Each spatial output size follows the same formula as in `Conv2d`. Size arguments are one
        int or `(depth, height, width)`. An unbatched `(C_in, D, H, W)` input is accepted too.
        Shared logic lives in `_ConvNd`.

    Args:
        in_channels: Channels of the input. / 输入通道数。
        out_channels: Channels of the output. / 输出通道数。
        kernel_size: Kernel size, int or 3-tuple. / 卷积核尺寸，整数或 3 元 tuple。
        stride: Stride. / 步长。
        padding: Padding, int, tuple, `'same'` or `'valid'`. / 填充：整数、tuple、`'same'` 或 `'valid'`。
        dilation: Spacing between kernel elements. / 卷积核元素间距。
        groups: Number of channel groups. / 通道分组数。
        bias: Whether to learn a bias. / 是否学习偏置。
        padding_mode: `'zeros'`, `'reflect'`, `'replicate'` or `'circular'`. / 填充模式。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> m = nn.Conv3d(4, 8, 3, padding="same")
        >>> m(torch.randn(2, 4, 5, 6, 7)).shape
        torch.Size([2, 8, 5, 6, 7])
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: _size_3_t,
        stride: _size_3_t = 1,
        padding: str | _size_3_t = 0,
        dilation: _size_3_t = 1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: Literal["zeros", "reflect", "replicate", "circular"] = "zeros",
        device=None,
        dtype=None,
    ) -> None:
        r"""Normalize sizes to 3-tuples and build the convolution. / 把尺寸规整为 3 元 tuple 并构造卷积。

        === "中文"

            字符串形式的 `padding` 原样保留，其余尺寸都经 `_triple` 转成 tuple。

        === "English"

            A string `padding` is kept as is; every other size goes through `_triple`.

        Args:
            in_channels: Channels of the input. / 输入通道数。
            out_channels: Channels of the output. / 输出通道数。
            kernel_size: Kernel size. / 卷积核尺寸。
            stride: Stride. / 步长。
            padding: Padding. / 填充。
            dilation: Spacing between kernel elements. / 卷积核元素间距。
            groups: Number of channel groups. / 通道分组数。
            bias: Whether to learn a bias. / 是否学习偏置。
            padding_mode: The padding mode. / 填充模式。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        # 中: 与 `Conv1d.__init__` 相同，只是用 `_triple` 规整成 `(深, 高, 宽)`；字符串 `padding` 同样绕开它。
        # EN: As `Conv1d.__init__`, but `_triple` normalizes to `(depth, height, width)`; a string
        # EN: `padding` bypasses it likewise.
        factory_kwargs = {"device": device, "dtype": dtype}
        kernel_size_ = _triple(kernel_size)
        stride_ = _triple(stride)
        padding_ = padding if isinstance(padding, str) else _triple(padding)
        dilation_ = _triple(dilation)
        # 中: 交给 `_ConvNd`；字符串 `padding` 原样传入，由它为 `'same'` 算出每维的左右填充量。
        # EN: On to `_ConvNd`; a string `padding` goes in as is, and `_ConvNd` works out the left
        # EN: and right amounts per dimension for `'same'`.
        super().__init__(
            in_channels,
            out_channels,
            kernel_size_,
            stride_,
            padding_,
            dilation_,
            # 中: `transposed=False`，`output_padding` 固定为 `(0, 0, 0)`。
            # EN: `transposed=False`, with `output_padding` fixed to `(0, 0, 0)`.
            False,
            _triple(0),
            groups,
            bias,
            padding_mode,
            **factory_kwargs,
        )

    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None):
        r"""Run `F.conv3d`, padding with `F.pad` first for non-zero modes. / 调用 `F.conv3d`；非零填充模式先用 `F.pad` 填充。

        === "中文"

            填充模式不是 `'zeros'` 时先显式填充再卷积，见 Note [Padding for F.pad]。

        === "English"

            See Note [Padding for F.pad] on `_ConvNd`.

        Args:
            input: Input `(N, C_in, D, H, W)` or unbatched. / 输入 `(N, C_in, D, H, W)` 或无批次维形式。
            weight: Convolution weight. / 卷积权重。
            bias: Bias or None. / 偏置或 None。

        Returns:
            The convolution output. / 卷积输出。
        """
        # 中: 与 `Conv1d._conv_forward` 相同的两条路径，调用 `F.conv3d`；`F.pad` 收到 6 个数。
        # EN: The same two paths as `Conv1d._conv_forward`, calling `F.conv3d`; `F.pad` gets six
        # EN: numbers.
        if self.padding_mode != "zeros":
            return F.conv3d(
                F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode),
                weight,
                bias,
                self.stride,
                # 中: 已显式填充，卷积不再填充。
                # EN: Already padded explicitly; the convolution pads no more.
                _triple(0),
                self.dilation,
                self.groups,
            )
        return F.conv3d(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input: Tensor) -> Tensor:
        r"""Convolve `input` with this layer's weight and bias. / 用本层的权重和偏置对 `input` 卷积。

        === "中文"

            直接转交给 `_conv_forward(input, self.weight, self.bias)`，使用本层自己的参数。

        === "English"

            Delegates to `_conv_forward(input, self.weight, self.bias)`.

        Args:
            input: Input `(N, C_in, D, H, W)` or unbatched. / 输入 `(N, C_in, D, H, W)` 或无批次维形式。

        Returns:
            Output `(N, C_out, D_out, H_out, W_out)` or unbatched. / 输出 `(N, C_out, D_out, H_out, W_out)` 或无批次维形式。
        """
        # 中: 与 `Conv1d.forward` 相同：用本层自己的参数调用 `_conv_forward`。
        # EN: As `Conv1d.forward`: call `_conv_forward` with this layer's own parameters.
        return self._conv_forward(input, self.weight, self.bias)


class _ConvTransposeNd(_ConvNd):
    r"""Family base of transposed convolutions: adds `output_padding` logic. / 转置卷积的家族基类：加入 `output_padding` 的处理。

    === "中文"

        转置卷积（常被叫作"反卷积"）是卷积关于输入的梯度运算，可用来做上采样。
        它与 `_ConvNd` 共用参数与初始化，区别在于：

        - 只支持 `padding_mode='zeros'`，其他模式在构造时报错；
        - `weight` 形状为 `(in_channels, out_channels // groups, *kernel_size)`（由
          `transposed=True` 决定）；
        - 步长大于 1 时，多个输入尺寸会映射到同一个输出尺寸，反过来输出尺寸有
          `stride` 种可能。`output_padding` 选择其中之一；`forward` 若收到 `output_size`，
          由 `_output_padding` 反推出所需的 `output_padding`。

    === "English"

        A transposed convolution (often called "deconvolution") is the gradient of a convolution
        with respect to its input, and is used for upsampling. It shares parameters and
        initialization with `_ConvNd`, with these differences:

        - only `padding_mode='zeros'` is supported; other modes fail at construction;
        - `weight` has shape `(in_channels, out_channels // groups, *kernel_size)` (through
          `transposed=True`);
        - with a stride above 1, several input sizes map to one output size, so going backwards
          the output size has `stride` possible values. `output_padding` picks one; when
          `forward` receives `output_size`, `_output_padding` derives the `output_padding` needed.

    Args:
        in_channels: Channels of the input. / 输入通道数。
        out_channels: Channels of the output. / 输出通道数。
        kernel_size: Kernel size, a tuple. / 卷积核尺寸（tuple）。
        stride: Stride, a tuple. / 步长（tuple）。
        padding: Padding, a tuple. / 填充（tuple）。
        dilation: Dilation, a tuple. / 空洞间隔（tuple）。
        transposed: Always True here. / 此处总为 True。
        output_padding: Extra size on one side of the output, a tuple. / 输出一侧的附加尺寸（tuple）。
        groups: Number of channel groups. / 通道分组数。
        bias: Whether to learn a bias. / 是否学习偏置。
        padding_mode: Must be `'zeros'`. / 必须为 `'zeros'`。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。

    Raises:
        ValueError: `padding_mode` is not `'zeros'`. / `padding_mode` 不是 `'zeros'`。
    """

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride,
        padding,
        dilation,
        transposed,
        output_padding,
        groups,
        bias,
        padding_mode,
        device=None,
        dtype=None,
    ) -> None:
        r"""Reject non-zero padding modes, then build as `_ConvNd`. / 拒绝非零填充模式，再按 `_ConvNd` 构造。

        === "中文"

            这个检查先于 `_ConvNd` 的所有检查，因此例如 `groups=0` 且 `padding_mode='reflect'`
            时报的是填充模式错误。

        === "English"

            This check runs before all of `_ConvNd`'s, so e.g. `groups=0` together with
            `padding_mode='reflect'` reports the padding mode error.

        Args:
            in_channels: Channels of the input. / 输入通道数。
            out_channels: Channels of the output. / 输出通道数。
            kernel_size: Kernel size, a tuple. / 卷积核尺寸（tuple）。
            stride: Stride, a tuple. / 步长（tuple）。
            padding: Padding, a tuple. / 填充（tuple）。
            dilation: Dilation, a tuple. / 空洞间隔（tuple）。
            transposed: Always True here. / 此处总为 True。
            output_padding: Extra output size, a tuple. / 输出附加尺寸（tuple）。
            groups: Number of channel groups. / 通道分组数。
            bias: Whether to learn a bias. / 是否学习偏置。
            padding_mode: Must be `'zeros'`. / 必须为 `'zeros'`。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。

        Raises:
            ValueError: `padding_mode` is not `'zeros'`. / `padding_mode` 不是 `'zeros'`。
        """
        # 中: 先于 `_ConvNd` 的所有检查拒绝非 `'zeros'` 模式：`F.conv_transpose*d` 没有填充模式参数，
        # 中: 这里的 `padding` 也不是输入的填充，而是从输出两侧去掉的量，没有"先 `F.pad` 再卷积"的路可走。
        # 中: 报错文本与 torch 相同；类名取自 `self.__class__`，在 `Module.__init__` 之前即可读取。
        # EN: Refuse non-`'zeros'` modes before any of `_ConvNd`'s checks: `F.conv_transpose*d`
        # EN: takes no padding mode, and `padding` here is not input padding but what is removed
        # EN: from both sides of the output, so there is no "`F.pad` first" route. The message is
        # EN: torch's; the class name comes from `self.__class__`, readable before
        # EN: `Module.__init__`.
        if padding_mode != "zeros":
            raise ValueError(
                f'Only "zeros" padding mode is supported for {self.__class__.__name__}'
            )

        # 中: 其余一切（校验、保存、按转置形状分配权重、初始化）都交给 `_ConvNd`。
        # EN: Everything else (checks, storing, the transposed weight shape, initialization) is
        # EN: left to `_ConvNd`.
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            # 中: 子类总是传 `transposed=True`；`output_padding` 按子类规整好的 tuple 保存。
            # EN: Subclasses always pass `transposed=True`; `output_padding` is stored as the
            # EN: subclass normalized it.
            transposed,
            output_padding,
            groups,
            bias,
            padding_mode,
            **factory_kwargs,
        )

    def _output_padding(
        self,
        input: Tensor,
        output_size: list[int] | None,
        stride: list[int],
        padding: list[int],
        kernel_size: list[int],
        num_spatial_dims: int,
        dilation: list[int] | None = None,
    ) -> list[int]:
        r"""Work out the `output_padding` that yields `output_size`. / 反推出能得到 `output_size` 的 `output_padding`。

        === "中文"

            没有给 `output_size` 时直接用构造时的 `self.output_padding`。否则：
            `output_size` 可以只含空间维，也可以带上批次维与通道维（会被去掉）；
            对每个空间维算出最小可能尺寸
            `(in - 1)*stride - 2*padding + dilation*(kernel_size - 1) + 1`，
            最大可能尺寸为最小值加 `stride - 1`；请求的尺寸必须落在这个范围内，
            返回值是请求尺寸与最小值之差。

        === "English"

            Without `output_size` the constructor's `self.output_padding` is used. Otherwise
            `output_size` may list only the spatial sizes, or also the batch and channel sizes
            (which are dropped). For each spatial dimension the smallest possible size is
            `(in - 1)*stride - 2*padding + dilation*(kernel_size - 1) + 1` and the largest is
            that plus `stride - 1`; the requested size must lie in that range, and the result is
            the requested size minus the smallest.

        Args:
            input: The input tensor. / 输入张量。
            output_size: Requested output size, or None. / 请求的输出尺寸，或 None。
            stride: Stride per spatial dimension. / 每个空间维的步长。
            padding: Padding per spatial dimension. / 每个空间维的填充。
            kernel_size: Kernel size per spatial dimension. / 每个空间维的卷积核尺寸。
            num_spatial_dims: Number of spatial dimensions. / 空间维的个数。
            dilation: Dilation per spatial dimension, or None for 1. / 每个空间维的空洞间隔，None 表示 1。

        Returns:
            The output padding per spatial dimension. / 每个空间维的输出附加尺寸。

        Raises:
            ValueError: Wrong length or out-of-range `output_size`. / `output_size` 长度不对或超出范围。
        """
        # 中: 没给 `output_size`：用构造时的 `self.output_padding`（已是 tuple，`_single` 原样转成 tuple）。
        # EN: No `output_size`: use the constructor's `self.output_padding` (already a tuple, which
        # EN: `_single` turns into a tuple as is).
        if output_size is None:
            ret = _single(self.output_padding)
        else:
            # 中: 有批次维时非空间维是 `(N, C)` 两个，否则只有 `C`。`output_size` 可以是完整形状
            # 中: （例如目标张量的 `size()`），这时先切掉这些非空间维。
            # EN: With a batch dimension there are two non-spatial dimensions `(N, C)`, else only
            # EN: `C`. `output_size` may be a full shape (e.g. a target tensor's `size()`); then
            # EN: those non-spatial entries are sliced off first.
            has_batch_dim = input.dim() == num_spatial_dims + 2
            num_non_spatial_dims = 2 if has_batch_dim else 1
            if len(output_size) == num_non_spatial_dims + num_spatial_dims:
                output_size = output_size[num_non_spatial_dims:]
            # 中: 剩下的必须恰好是每个空间维一项；报错文本与 torch 相同。
            # EN: What remains must be exactly one entry per spatial dimension; torch's message.
            if len(output_size) != num_spatial_dims:
                raise ValueError(
                    f"ConvTranspose{num_spatial_dims}D: for {input.dim()}D input, output_size must have {num_spatial_dims} "
                    f"or {num_non_spatial_dims + num_spatial_dims} elements (got {len(output_size)})"
                )

            # 中: 为每个空间维算出可达的输出尺寸范围：这里允许 `output_padding` 取 0 到 `stride - 1`，
            # 中: 所以最大值 = 最小值 + `stride - 1`。
            # EN: Work out the reachable output sizes per spatial dimension: this code allows
            # EN: `output_padding` from 0 to `stride - 1`, so largest = smallest + `stride - 1`.
            min_sizes: list[int] = []
            max_sizes: list[int] = []
            for d in range(num_spatial_dims):
                # 中: 最小值是 `output_padding=0` 时的输出尺寸
                # 中: `(in-1)*stride - 2*padding + dilation*(k-1) + 1`；`dilation` 为 None 时按 1 计。
                # EN: The smallest is the output size with `output_padding=0`,
                # EN: `(in-1)*stride - 2*padding + dilation*(k-1) + 1`; a None `dilation` counts
                # EN: as 1.
                dim_size = (
                    (input.size(d + num_non_spatial_dims) - 1) * stride[d]
                    - 2 * padding[d]
                    + (dilation[d] if dilation is not None else 1) * (kernel_size[d] - 1)
                    + 1
                )
                min_sizes.append(dim_size)
                max_sizes.append(min_sizes[d] + stride[d] - 1)

            # 中: 请求的尺寸必须逐维落在 `[最小, 最大]` 内。
            # EN: Each requested size must lie in `[smallest, largest]`, dimension by dimension.
            for i in range(len(output_size)):
                size = output_size[i]
                min_size = min_sizes[i]
                max_size = max_sizes[i]
                # 中: 报错文本与 torch 相同；其中的输入尺寸取 `input.size()[2:]`，对无批次输入会漏掉
                # 中: 第一个空间维（torch 同样如此，已实测）。
                # EN: The message is torch's; the input size in it is `input.size()[2:]`, which
                # EN: drops the first spatial dimension of an unbatched input (torch does the same;
                # EN: checked by running it).
                if size < min_size or size > max_size:
                    raise ValueError(
                        f"requested an output size of {output_size}, but valid sizes range "
                        f"from {min_sizes} to {max_sizes} (for an input of {input.size()[2:]})"
                    )

            # 中: 所需的 `output_padding` 就是请求尺寸与最小尺寸之差，逐维给出。
            # EN: The `output_padding` needed is the requested size minus the smallest, per
            # EN: dimension.
            res: list[int] = []
            for d in range(num_spatial_dims):
                res.append(output_size[d] - min_sizes[d])

            ret = res
        return ret


class ConvTranspose1d(_ConvTransposeNd):
    r"""1D transposed convolution over an input of shape `(N, C_in, L)`. / 对形状为 `(N, C_in, L)` 的输入做一维转置卷积。

    === "中文"

        输出长度 `L_out = (L - 1)*stride - 2*padding + dilation*(kernel_size - 1) + output_padding + 1`。
        注意这里的 `padding` 是从输出两侧"去掉"的量。共有逻辑见 `_ConvTransposeNd`。

    === "English"

        Output length `L_out = (L - 1)*stride - 2*padding + dilation*(kernel_size - 1) +
        output_padding + 1`. Note that `padding` here is removed from both sides of the output.
        Shared logic lives in `_ConvTransposeNd`.

    Args:
        in_channels: Channels of the input. / 输入通道数。
        out_channels: Channels of the output. / 输出通道数。
        kernel_size: Kernel size. / 卷积核尺寸。
        stride: Stride. / 步长。
        padding: Implicit padding removed from the output. / 从输出两侧去掉的隐式填充。
        output_padding: Extra size on one side of the output. / 输出一侧的附加尺寸。
        groups: Number of channel groups. / 通道分组数。
        bias: Whether to learn a bias. / 是否学习偏置。
        dilation: Spacing between kernel elements. / 卷积核元素间距。
        padding_mode: Must be `'zeros'`. / 必须为 `'zeros'`。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> m = nn.ConvTranspose1d(4, 2, 3, stride=2)
        >>> m(torch.randn(1, 4, 5)).shape
        torch.Size([1, 2, 11])
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: _size_1_t,
        stride: _size_1_t = 1,
        padding: _size_1_t = 0,
        output_padding: _size_1_t = 0,
        groups: int = 1,
        bias: bool = True,
        dilation: _size_1_t = 1,
        padding_mode: Literal["zeros", "reflect", "replicate", "circular"] = "zeros",
        device=None,
        dtype=None,
    ) -> None:
        r"""Normalize sizes to 1-tuples and build the layer. / 把尺寸规整为 1 元 tuple 并构造层。

        === "中文"

            注意参数顺序与 `Conv1d` 不同：`output_padding` 在 `groups` 前，`dilation` 在 `bias` 后。

        === "English"

            Mind the argument order, unlike `Conv1d`: `output_padding` comes before `groups`, and
            `dilation` after `bias`.

        Args:
            in_channels: Channels of the input. / 输入通道数。
            out_channels: Channels of the output. / 输出通道数。
            kernel_size: Kernel size. / 卷积核尺寸。
            stride: Stride. / 步长。
            padding: Padding. / 填充。
            output_padding: Extra output size. / 输出附加尺寸。
            groups: Number of channel groups. / 通道分组数。
            bias: Whether to learn a bias. / 是否学习偏置。
            dilation: Spacing between kernel elements. / 卷积核元素间距。
            padding_mode: Must be `'zeros'`. / 必须为 `'zeros'`。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        # 中: 所有尺寸（包括 `output_padding`）都经 `_single` 规整；与 `Conv1d` 不同，`padding` 没有
        # 中: `'same'`/`'valid'` 字符串形式，`F.conv_transpose1d` 只接受整数。
        # EN: Every size (`output_padding` included) goes through `_single`; unlike `Conv1d`,
        # EN: `padding` has no `'same'`/`'valid'` string form, since `F.conv_transpose1d` takes
        # EN: ints.
        factory_kwargs = {"device": device, "dtype": dtype}
        kernel_size = _single(kernel_size)
        stride = _single(stride)
        padding = _single(padding)
        dilation = _single(dilation)
        output_padding = _single(output_padding)
        # 中: 按 `_ConvNd` 的参数顺序转交（与本类自己的参数顺序不同）。
        # EN: Passed on in `_ConvNd`'s argument order (not this class's own order).
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            # 中: `transposed=True`：`_ConvNd` 据此按 `(in, out // groups, *k)` 分配权重。
            # EN: `transposed=True`: `_ConvNd` then allocates the weight as
            # EN: `(in, out // groups, *k)`.
            True,
            output_padding,
            groups,
            bias,
            padding_mode,
            **factory_kwargs,
        )

    def forward(self, input: Tensor, output_size: list[int] | None = None) -> Tensor:
        r"""Apply `F.conv_transpose1d`, optionally to a requested output size. / 调用 `F.conv_transpose1d`，可指定输出尺寸。

        === "中文"

            `padding_mode` 在构造后被改成非 `'zeros'` 时在这里报错。

        === "English"

            Raises here if `padding_mode` was changed away from `'zeros'` after construction.

        Args:
            input: Input `(N, C_in, L)` or `(C_in, L)`. / 输入 `(N, C_in, L)` 或 `(C_in, L)`。
            output_size: Requested output size, or None. / 请求的输出尺寸，或 None。

        Returns:
            Output `(N, C_out, L_out)` or `(C_out, L_out)`. / 输出 `(N, C_out, L_out)` 或 `(C_out, L_out)`。

        Raises:
            ValueError: Non-zero padding mode or bad `output_size`. / 非零填充模式或 `output_size` 无效。
        """
        # 中: 构造时已拒绝非 `'zeros'` 模式；这里再查一次，拦住构造后被改过的 `padding_mode`。
        # 中: 报错文本与 torch 相同（与构造时的措辞不同）。
        # EN: Construction already refused non-`'zeros'` modes; checking again catches a
        # EN: `padding_mode` changed afterwards. The message is torch's (worded unlike the
        # EN: constructor's).
        if self.padding_mode != "zeros":
            raise ValueError("Only `zeros` padding mode is supported for ConvTranspose1d")

        # 中: `padding` 在构造时已由 `_single` 规整成 tuple；构造后被赋成 list 或 int 时在此报错，
        # 中: 这个检查也让类型检查器确认下面传入的是 tuple。
        # EN: `_single` made `padding` a tuple at construction; a list or int assigned afterwards
        # EN: fails here, and the check tells the type checker that a tuple is passed below.
        if not isinstance(self.padding, tuple):
            raise AssertionError("self.padding must be a tuple")
        # 中: 给了 `output_size` 就反推所需的 `output_padding`，否则用构造时的值。
        # EN: With `output_size`, work out the `output_padding` it needs; else the constructor's.
        num_spatial_dims = 1
        output_padding = self._output_padding(
            input,
            output_size,
            self.stride,  # type: ignore[arg-type]
            self.padding,  # type: ignore[arg-type]
            self.kernel_size,  # type: ignore[arg-type]
            # 中: 空间维数让 `_output_padding` 判断输入有无批次维、`output_size` 前面有几项非空间维。
            # EN: The number of spatial dimensions tells `_output_padding` whether the input is
            # EN: batched and how many non-spatial entries `output_size` may lead with.
            num_spatial_dims,
            self.dilation,  # type: ignore[arg-type]
        )
        # 中: 注意 `F.conv_transpose1d` 的参数顺序：`output_padding` 在 `groups` 前，`dilation` 在最后，
        # 中: 与 `F.conv1d` 不同。
        # EN: Mind `F.conv_transpose1d`'s argument order: `output_padding` before `groups`, and
        # EN: `dilation` last, unlike `F.conv1d`.
        return F.conv_transpose1d(
            input,
            self.weight,
            self.bias,
            self.stride,
            self.padding,
            # 中: 传的是刚算出的值，而不是 `self.output_padding`。
            # EN: The value just computed, not `self.output_padding`.
            output_padding,
            self.groups,
            self.dilation,
        )


class ConvTranspose2d(_ConvTransposeNd):
    r"""2D transposed convolution over an input of shape `(N, C_in, H, W)`. / 对形状为 `(N, C_in, H, W)` 的输入做二维转置卷积。

    === "中文"

        每个空间维的输出尺寸为
        `(in - 1)*stride - 2*padding + dilation*(kernel_size - 1) + output_padding + 1`。
        常用于解码器、生成网络中的上采样。共有逻辑见 `_ConvTransposeNd`。

    === "English"

        Each spatial output size is
        `(in - 1)*stride - 2*padding + dilation*(kernel_size - 1) + output_padding + 1`.
        Common for upsampling in decoders and generators. Shared logic lives in
        `_ConvTransposeNd`.

    Args:
        in_channels: Channels of the input. / 输入通道数。
        out_channels: Channels of the output. / 输出通道数。
        kernel_size: Kernel size. / 卷积核尺寸。
        stride: Stride. / 步长。
        padding: Implicit padding removed from the output. / 从输出两侧去掉的隐式填充。
        output_padding: Extra size on one side of the output. / 输出一侧的附加尺寸。
        groups: Number of channel groups. / 通道分组数。
        bias: Whether to learn a bias. / 是否学习偏置。
        dilation: Spacing between kernel elements. / 卷积核元素间距。
        padding_mode: Must be `'zeros'`. / 必须为 `'zeros'`。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> down = nn.Conv2d(16, 16, 3, stride=2, padding=1)
        >>> up = nn.ConvTranspose2d(16, 16, 3, stride=2, padding=1)
        >>> x = torch.randn(1, 16, 12, 12)
        >>> up(down(x), output_size=x.size()).shape
        torch.Size([1, 16, 12, 12])
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: _size_2_t,
        stride: _size_2_t = 1,
        padding: _size_2_t = 0,
        output_padding: _size_2_t = 0,
        groups: int = 1,
        bias: bool = True,
        dilation: _size_2_t = 1,
        padding_mode: Literal["zeros", "reflect", "replicate", "circular"] = "zeros",
        device=None,
        dtype=None,
    ) -> None:
        r"""Normalize sizes to 2-tuples and build the layer. / 把尺寸规整为 2 元 tuple 并构造层。

        === "中文"

            参数顺序与 `ConvTranspose1d` 相同。

        === "English"

            Same argument order as `ConvTranspose1d`.

        Args:
            in_channels: Channels of the input. / 输入通道数。
            out_channels: Channels of the output. / 输出通道数。
            kernel_size: Kernel size. / 卷积核尺寸。
            stride: Stride. / 步长。
            padding: Padding. / 填充。
            output_padding: Extra output size. / 输出附加尺寸。
            groups: Number of channel groups. / 通道分组数。
            bias: Whether to learn a bias. / 是否学习偏置。
            dilation: Spacing between kernel elements. / 卷积核元素间距。
            padding_mode: Must be `'zeros'`. / 必须为 `'zeros'`。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        # 中: 与 `ConvTranspose1d.__init__` 相同，只是用 `_pair` 规整成 `(高, 宽)`。
        # EN: As `ConvTranspose1d.__init__`, but `_pair` normalizes to `(height, width)`.
        factory_kwargs = {"device": device, "dtype": dtype}
        kernel_size = _pair(kernel_size)
        stride = _pair(stride)
        padding = _pair(padding)
        dilation = _pair(dilation)
        output_padding = _pair(output_padding)
        # 中: 按 `_ConvNd` 的参数顺序转交（与本类自己的参数顺序不同）。
        # EN: Passed on in `_ConvNd`'s argument order (not this class's own order).
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            # 中: `transposed=True`，按转置形状分配权重。
            # EN: `transposed=True`: the weight gets the transposed shape.
            True,
            output_padding,
            groups,
            bias,
            padding_mode,
            **factory_kwargs,
        )

    def forward(self, input: Tensor, output_size: list[int] | None = None) -> Tensor:
        r"""Apply `F.conv_transpose2d`, optionally to a requested output size. / 调用 `F.conv_transpose2d`，可指定输出尺寸。

        === "中文"

            `output_size` 可以直接传入目标张量的 `size()`，批次维与通道维会被忽略。

        === "English"

            `output_size` may be a target tensor's `size()`; its batch and channel sizes are
            ignored.

        Args:
            input: Input `(N, C_in, H, W)` or `(C_in, H, W)`. / 输入 `(N, C_in, H, W)` 或 `(C_in, H, W)`。
            output_size: Requested output size, or None. / 请求的输出尺寸，或 None。

        Returns:
            Output `(N, C_out, H_out, W_out)` or unbatched. / 输出 `(N, C_out, H_out, W_out)` 或无批次维形式。

        Raises:
            ValueError: Non-zero padding mode or bad `output_size`. / 非零填充模式或 `output_size` 无效。
        """
        # 中: 与 `ConvTranspose1d.forward` 相同的两项检查（报错文本里的类名不同）。
        # EN: The same two checks as `ConvTranspose1d.forward` (with this class's name in the
        # EN: message).
        if self.padding_mode != "zeros":
            raise ValueError("Only `zeros` padding mode is supported for ConvTranspose2d")

        if not isinstance(self.padding, tuple):
            raise AssertionError("self.padding must be a tuple")
        # 中: 两个空间维：`output_size` 可以是 `(H, W)`，也可以是带 `(N, C)` 或 `C` 的完整形状。
        # EN: Two spatial dimensions: `output_size` may be `(H, W)` or a full shape with `(N, C)`
        # EN: or `C` in front.
        num_spatial_dims = 2
        output_padding = self._output_padding(
            input,
            output_size,
            self.stride,  # type: ignore[arg-type]
            self.padding,  # type: ignore[arg-type]
            self.kernel_size,  # type: ignore[arg-type]
            # 中: 与 `ConvTranspose1d.forward` 相同，用空间维数区分批次/通道维。
            # EN: As in `ConvTranspose1d.forward`, the spatial count tells batch and channel
            # EN: entries apart.
            num_spatial_dims,
            self.dilation,  # type: ignore[arg-type]
        )

        # 中: 调用 `F.conv_transpose2d`，参数顺序同 `ConvTranspose1d.forward`（`dilation` 在最后）。
        # EN: Call `F.conv_transpose2d`, in the argument order of `ConvTranspose1d.forward`
        # EN: (`dilation` last).
        return F.conv_transpose2d(
            input,
            self.weight,
            self.bias,
            self.stride,
            self.padding,
            # 中: 刚算出的值，而不是 `self.output_padding`。
            # EN: The value just computed, not `self.output_padding`.
            output_padding,
            self.groups,
            self.dilation,
        )


class ConvTranspose3d(_ConvTransposeNd):
    r"""3D transposed convolution over an input of shape `(N, C_in, D, H, W)`. / 对形状为 `(N, C_in, D, H, W)` 的输入做三维转置卷积。

    === "中文"

        输出尺寸公式与 `ConvTranspose2d` 相同，逐维计算。共有逻辑见 `_ConvTransposeNd`。

    === "English"

        The output size formula is that of `ConvTranspose2d`, per dimension. Shared logic lives
        in `_ConvTransposeNd`.

    Args:
        in_channels: Channels of the input. / 输入通道数。
        out_channels: Channels of the output. / 输出通道数。
        kernel_size: Kernel size. / 卷积核尺寸。
        stride: Stride. / 步长。
        padding: Implicit padding removed from the output. / 从输出两侧去掉的隐式填充。
        output_padding: Extra size on one side of the output. / 输出一侧的附加尺寸。
        groups: Number of channel groups. / 通道分组数。
        bias: Whether to learn a bias. / 是否学习偏置。
        dilation: Spacing between kernel elements. / 卷积核元素间距。
        padding_mode: Must be `'zeros'`. / 必须为 `'zeros'`。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> m = nn.ConvTranspose3d(2, 3, 2, stride=2)
        >>> m(torch.randn(1, 2, 3, 4, 5)).shape
        torch.Size([1, 3, 6, 8, 10])
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: _size_3_t,
        stride: _size_3_t = 1,
        padding: _size_3_t = 0,
        output_padding: _size_3_t = 0,
        groups: int = 1,
        bias: bool = True,
        dilation: _size_3_t = 1,
        padding_mode: Literal["zeros", "reflect", "replicate", "circular"] = "zeros",
        device=None,
        dtype=None,
    ) -> None:
        r"""Normalize sizes to 3-tuples and build the layer. / 把尺寸规整为 3 元 tuple 并构造层。

        === "中文"

            参数顺序与 `ConvTranspose1d` 相同。

        === "English"

            Same argument order as `ConvTranspose1d`.

        Args:
            in_channels: Channels of the input. / 输入通道数。
            out_channels: Channels of the output. / 输出通道数。
            kernel_size: Kernel size. / 卷积核尺寸。
            stride: Stride. / 步长。
            padding: Padding. / 填充。
            output_padding: Extra output size. / 输出附加尺寸。
            groups: Number of channel groups. / 通道分组数。
            bias: Whether to learn a bias. / 是否学习偏置。
            dilation: Spacing between kernel elements. / 卷积核元素间距。
            padding_mode: Must be `'zeros'`. / 必须为 `'zeros'`。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        # 中: 与 `ConvTranspose1d.__init__` 相同，只是用 `_triple` 规整成 `(深, 高, 宽)`。
        # EN: As `ConvTranspose1d.__init__`, but `_triple` normalizes to `(depth, height, width)`.
        factory_kwargs = {"device": device, "dtype": dtype}
        kernel_size = _triple(kernel_size)
        stride = _triple(stride)
        padding = _triple(padding)
        dilation = _triple(dilation)
        output_padding = _triple(output_padding)
        # 中: 按 `_ConvNd` 的参数顺序转交（与本类自己的参数顺序不同）。
        # EN: Passed on in `_ConvNd`'s argument order (not this class's own order).
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            # 中: `transposed=True`，按转置形状分配权重。
            # EN: `transposed=True`: the weight gets the transposed shape.
            True,
            output_padding,
            groups,
            bias,
            padding_mode,
            **factory_kwargs,
        )

    def forward(self, input: Tensor, output_size: list[int] | None = None) -> Tensor:
        r"""Apply `F.conv_transpose3d`, optionally to a requested output size. / 调用 `F.conv_transpose3d`，可指定输出尺寸。

        === "中文"

            与 `ConvTranspose2d.forward` 相同，只是三个空间维。

        === "English"

            As `ConvTranspose2d.forward`, with three spatial dimensions.

        Args:
            input: Input `(N, C_in, D, H, W)` or unbatched. / 输入 `(N, C_in, D, H, W)` 或无批次维形式。
            output_size: Requested output size, or None. / 请求的输出尺寸，或 None。

        Returns:
            Output `(N, C_out, D_out, H_out, W_out)` or unbatched. / 输出 `(N, C_out, D_out, H_out, W_out)` 或无批次维形式。

        Raises:
            ValueError: Non-zero padding mode or bad `output_size`. / 非零填充模式或 `output_size` 无效。
        """
        # 中: 与 `ConvTranspose1d.forward` 相同的两项检查（报错文本里的类名不同）。
        # EN: The same two checks as `ConvTranspose1d.forward` (with this class's name in the
        # EN: message).
        if self.padding_mode != "zeros":
            raise ValueError("Only `zeros` padding mode is supported for ConvTranspose3d")

        if not isinstance(self.padding, tuple):
            raise AssertionError("self.padding must be a tuple")
        # 中: 三个空间维：`output_size` 可以是 `(D, H, W)`，也可以是带 `(N, C)` 或 `C` 的完整形状。
        # EN: Three spatial dimensions: `output_size` may be `(D, H, W)` or a full shape with
        # EN: `(N, C)` or `C` in front.
        num_spatial_dims = 3
        output_padding = self._output_padding(
            input,
            output_size,
            self.stride,  # type: ignore[arg-type]
            self.padding,  # type: ignore[arg-type]
            self.kernel_size,  # type: ignore[arg-type]
            # 中: 与 `ConvTranspose1d.forward` 相同，用空间维数区分批次/通道维。
            # EN: As in `ConvTranspose1d.forward`, the spatial count tells batch and channel
            # EN: entries apart.
            num_spatial_dims,
            self.dilation,  # type: ignore[arg-type]
        )

        # 中: 调用 `F.conv_transpose3d`，参数顺序同 `ConvTranspose1d.forward`（`dilation` 在最后）。
        # EN: Call `F.conv_transpose3d`, in the argument order of `ConvTranspose1d.forward`
        # EN: (`dilation` last).
        return F.conv_transpose3d(
            input,
            self.weight,
            self.bias,
            self.stride,
            self.padding,
            # 中: 刚算出的值，而不是 `self.output_padding`。
            # EN: The value just computed, not `self.output_padding`.
            output_padding,
            self.groups,
            self.dilation,
        )


class _ConvTransposeMixin(_ConvTransposeNd):
    r"""Deprecated old name of `_ConvTransposeNd`, kept for old code. / `_ConvTransposeNd` 已弃用的旧名字，为旧代码保留。

    === "中文"

        早期版本（包括 1.5.1）的转置卷积继承自 `_ConvTransposeMixin`。2.13 保留这个类
        只为兼容，构造时发出 `FutureWarning`。

    === "English"

        Transposed convolutions of early versions (1.5.1 included) derived from
        `_ConvTransposeMixin`. 2.13 keeps the class only for compatibility; constructing it
        emits a `FutureWarning`.

    Args:
        *args: Passed to `_ConvTransposeNd`. / 传给 `_ConvTransposeNd`。
        **kwargs: Passed to `_ConvTransposeNd`. / 传给 `_ConvTransposeNd`。
    """

    @deprecated(
        "`_ConvTransposeMixin` is a deprecated internal class. Please consider using public APIs.",
        category=FutureWarning,
    )
    def __init__(self, *args, **kwargs) -> None:
        r"""Warn, then build as `_ConvTransposeNd`. / 发出警告，再按 `_ConvTransposeNd` 构造。

        === "中文"

            警告由 `typing_extensions.deprecated` 装饰器发出。

        === "English"

            The warning comes from the `typing_extensions.deprecated` decorator.

        Args:
            *args: Passed to `_ConvTransposeNd`. / 传给 `_ConvTransposeNd`。
            **kwargs: Passed to `_ConvTransposeNd`. / 传给 `_ConvTransposeNd`。
        """
        super().__init__(*args, **kwargs)


class _LazyConvXdMixin(LazyModuleMixin):
    r"""Lazy logic shared by the six lazy convolutions. / 六个惰性卷积共用的惰性逻辑。

    === "中文"

        惰性卷积在构造时把 `in_channels` 记为 0，第一次前向传播时由输入的通道维得到它：
        批量输入 `(N, C, *spatial)` 取第 1 维，无批次输入 `(C, *spatial)` 取第 0 维。
        之后按普通卷积或转置卷积的形状物化 `weight` 与 `bias`，再调用 `_ConvNd.reset_parameters`。
        子类只需实现 `_get_num_spatial_dims`（1、2 或 3）。

    === "English"

        A lazy convolution records `in_channels` as 0 when built and reads it from the input's
        channel dimension on the first forward pass: dimension 1 of a batched
        `(N, C, *spatial)` input, dimension 0 of an unbatched `(C, *spatial)` one. It then
        materializes `weight` and `bias` with the plain or transposed shape and calls
        `_ConvNd.reset_parameters`. Subclasses only implement `_get_num_spatial_dims` (1, 2 or 3).
    """

    groups: int
    transposed: bool
    in_channels: int
    out_channels: int
    kernel_size: tuple[int, ...]
    weight: UninitializedParameter
    bias: UninitializedParameter

    def reset_parameters(self) -> None:
        r"""Initialize like `_ConvNd`, but only once materialized. / 与 `_ConvNd` 相同地初始化，但仅在物化之后。

        === "中文"

            构造期间 `_ConvNd.__init__` 会调用本方法，那时 `in_channels` 为 0，跳过。

        === "English"

            `_ConvNd.__init__` calls this during construction, when `in_channels` is 0: skipped.
        """
        # 中: MRO 为 LazyConvXd → _LazyConvXdMixin → LazyModuleMixin → ConvXd → _ConvNd
        # 中: （转置版本为 … → ConvTransposeXd → _ConvTransposeNd → _ConvNd），
        # 中: 所以 super().reset_parameters() 落到 _ConvNd.reset_parameters。
        # 中: 两个条件各管一种情形：构造期间权重是 `(0, 0, *k)` 的普通空参数，只能靠 `in_channels == 0`
        # 中: 跳过；物化之前被手动调用时，靠 `has_uninitialized_params()` 跳过。
        # EN: The MRO is LazyConvXd → _LazyConvXdMixin → LazyModuleMixin → ConvXd → _ConvNd
        # EN: (… → ConvTransposeXd → _ConvTransposeNd → _ConvNd for the transposed ones),
        # EN: so super().reset_parameters() lands on _ConvNd.reset_parameters.
        # EN: Each condition covers one case: during construction the weight is an ordinary empty
        # EN: `(0, 0, *k)` parameter, skipped only by `in_channels == 0`; a manual call before
        # EN: materialization is skipped by `has_uninitialized_params()`.
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor, *args, **kwargs) -> None:  # type: ignore[override]
        r"""Read `in_channels` from `input`, then materialize and initialize. / 由 `input` 读出 `in_channels`，再物化并初始化。

        === "中文"

            与构造时一样检查 `in_channels` 能否被 `groups` 整除。`ConvTranspose*d` 的
            `forward` 还接受 `output_size`，因此这里用 `*args, **kwargs` 收下并忽略额外参数。

        === "English"

            Checks, as construction does, that `in_channels` divides by `groups`. The `forward`
            of `ConvTranspose*d` also takes `output_size`, so extra arguments are accepted via
            `*args, **kwargs` and ignored.

        Args:
            input: The first input. / 第一次的输入。
            *args: Other forward arguments, ignored. / 其余前向参数，忽略。
            **kwargs: Keyword forward arguments, ignored. / 关键字前向参数，忽略。

        Raises:
            ValueError: `in_channels` not divisible by `groups`. / `in_channels` 不能被 `groups` 整除。
            RuntimeError: `input` has the wrong number of dimensions. / `input` 维数不对。
        """
        # 中: 由 `LazyModuleMixin` 的前向预钩子（`with_kwargs=True`）以 forward 的参数调用，仅在仍有占位
        # 中: 参数时工作。参数若已由 `load_state_dict` 物化，这里什么也不做，`in_channels` 会一直是 0
        # 中: （`repr` 显示 `Conv2d(0, ...)`；torch 同样如此，已实测），不像 `LazyLinear` 那样补上。
        # EN: Called by `LazyModuleMixin`'s forward pre-hook (`with_kwargs=True`) with the forward
        # EN: arguments; it only acts while placeholders remain. If `load_state_dict` materialized
        # EN: the parameters, nothing happens here and `in_channels` stays 0 for good (`repr` shows
        # EN: `Conv2d(0, ...)`; torch does the same, checked by running it), unlike `LazyLinear`,
        # EN: which fills it in.
        if self.has_uninitialized_params():
            # 中: 从输入的通道维读出 `in_channels`，补做构造时因 0 而形同虚设的整除检查（文本同 `_ConvNd`）。
            # 中: `out_channels` 的整除检查也因构造时传 0 而被跳过，这里没有补：不能整除时要到卷积内核才报错。
            # EN: Read `in_channels` from the input's channel dimension and redo the divisibility
            # EN: check that 0 made void at construction (`_ConvNd`'s text). The `out_channels`
            # EN: check was skipped too by passing 0, and is not redone here: an indivisible value
            # EN: only fails in the convolution kernel.
            self.in_channels = self._get_in_channels(input)
            if self.in_channels % self.groups != 0:
                raise ValueError("in_channels must be divisible by groups")
            # 中: 类型守卫：此刻 `weight` 必须仍是占位参数。
            # EN: A type guard: `weight` must still be a placeholder at this point.
            if not isinstance(self.weight, UninitializedParameter):
                raise AssertionError("self.weight must be an UninitializedParameter")
            # 中: 形状规则与 `_ConvNd.__init__` 相同。转置卷积：`(in, out // groups, *k)`。`materialize` 按
            # 中: 占位参数记下的 `device`/`dtype` 分配 `torch.empty`，并把它的类换成 `Parameter`。
            # EN: The shape rules of `_ConvNd.__init__`. Transposed: `(in, out // groups, *k)`.
            # EN: `materialize` allocates `torch.empty` with the placeholder's `device`/`dtype` and
            # EN: switches its class to `Parameter`.
            if self.transposed:
                self.weight.materialize(
                    (
                        self.in_channels,
                        self.out_channels // self.groups,
                        *self.kernel_size,
                    )
                )
            # 中: 普通卷积：`(out, in // groups, *k)`。
            # EN: Plain: `(out, in // groups, *k)`.
            else:
                self.weight.materialize(
                    (
                        self.out_channels,
                        self.in_channels // self.groups,
                        *self.kernel_size,
                    )
                )
            # 中: 偏置总是 `(out_channels,)`；构造时没要偏置则它是 None，跳过。
            # EN: The bias is always `(out_channels,)`; None (no bias wanted) is skipped.
            if self.bias is not None:
                if not isinstance(self.bias, UninitializedParameter):
                    raise AssertionError("self.bias must be an UninitializedParameter")
                self.bias.materialize((self.out_channels,))
            # 中: 现在没有占位参数且 `in_channels != 0`，`reset_parameters` 才真正执行 `_ConvNd` 的初始化。
            # 中: 之后由 `LazyModuleMixin` 移除钩子，并把类换成 `cls_to_become`。
            # EN: With no placeholder left and `in_channels != 0`, `reset_parameters` now really
            # EN: runs `_ConvNd`'s initialization. `LazyModuleMixin` then removes its hooks and
            # EN: switches the class to `cls_to_become`.
            self.reset_parameters()

    def _get_in_channels(self, input: Tensor) -> int:
        r"""The channel count of `input`, batched or not. / `input` 的通道数，不论有无批次维。

        === "中文"

            输入必须恰好有 `空间维数 + 1`（无批次）或 `空间维数 + 2`（有批次）维。

        === "English"

            The input must have exactly `spatial dims + 1` (unbatched) or `spatial dims + 2`
            (batched) dimensions.

        Args:
            input: The input tensor. / 输入张量。

        Returns:
            The number of input channels. / 输入通道数。

        Raises:
            RuntimeError: Wrong number of dimensions. / 维数不对。
        """
        # 中: 合法维数：通道维 + 空间维（无批次），或再加一个批次维。
        # EN: Valid ranks: channel + spatial dimensions (unbatched), or one more for the batch.
        num_spatial_dims = self._get_num_spatial_dims()
        num_dims_no_batch = num_spatial_dims + 1
        num_dims_batch = num_dims_no_batch + 1
        # 中: 其余维数抛出 `RuntimeError`，文本与 torch 相同；此时参数还未物化，模块保持惰性。
        # EN: Any other rank raises `RuntimeError` with torch's text; nothing is materialized yet,
        # EN: so the module stays lazy.
        if input.dim() not in (num_dims_no_batch, num_dims_batch):
            raise RuntimeError(
                f"Expected {num_dims_no_batch}D (unbatched) or {num_dims_batch}D (batched) input "
                f"to {self.__class__.__name__}, but "
                f"got input of size: {input.shape}"
            )
        # 中: 有批次维时通道在第 1 维，否则在第 0 维。
        # EN: Channels are dimension 1 with a batch dimension, dimension 0 without.
        return input.shape[1] if input.dim() == num_dims_batch else input.shape[0]

    def _get_num_spatial_dims(self) -> int:
        r"""How many spatial dimensions this convolution has; subclasses answer. / 本卷积有几个空间维；由子类回答。

        === "中文"

            基类中抛出 `NotImplementedError`。

        === "English"

            Raises `NotImplementedError` in the base class.

        Returns:
            1, 2 or 3 in subclasses. / 子类中为 1、2 或 3。

        Raises:
            NotImplementedError: In the base class. / 在基类中。
        """
        raise NotImplementedError


# 中: 六个惰性卷积都遵循同一模式：以 in_channels=0、out_channels=0、bias=False 构造非惰性父类，
# 中: 再放入占位的 weight（与 bias），最后补上真正的 out_channels。
# EN: All six lazy convolutions follow one pattern: build the plain parent with in_channels=0,
# EN: out_channels=0 and bias=False, put in placeholder weight (and bias), then set the real
# EN: out_channels.


class LazyConv1d(_LazyConvXdMixin, Conv1d):  # type: ignore[misc]
    r"""A `Conv1d` whose `in_channels` comes from the first input. / `in_channels` 由第一次输入决定的 `Conv1d`。

    === "中文"

        第一次前向传播后变成 `Conv1d`。流程见 `_LazyConvXdMixin` 与
        Note [Lazy module lifecycle]。

    === "English"

        Becomes a `Conv1d` after the first forward pass. See `_LazyConvXdMixin` and
        Note [Lazy module lifecycle].

    Args:
        out_channels: Channels of the output. / 输出通道数。
        kernel_size: Kernel size. / 卷积核尺寸。
        stride: Stride. / 步长。
        padding: Padding. / 填充。
        dilation: Spacing between kernel elements. / 卷积核元素间距。
        groups: Number of channel groups. / 通道分组数。
        bias: Whether to learn a bias. / 是否学习偏置。
        padding_mode: The padding mode. / 填充模式。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。
    """

    # 中: 物化之后 forward 与 repr 都来自 Conv1d。
    # EN: After materialization forward and repr come from Conv1d.
    cls_to_become = Conv1d  # type: ignore[assignment]

    def __init__(
        self,
        out_channels: int,
        kernel_size: _size_1_t,
        stride: _size_1_t = 1,
        padding: _size_1_t = 0,
        dilation: _size_1_t = 1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: Literal["zeros", "reflect", "replicate", "circular"] = "zeros",
        device=None,
        dtype=None,
    ) -> None:
        r"""Build a zero-channel `Conv1d`, then put placeholders in. / 先构造零通道的 `Conv1d`，再放入占位参数。

        === "中文"

            见上方注释中的共同模式。

        === "English"

            Follows the common pattern described in the comment above the class.

        Args:
            out_channels: Channels of the output. / 输出通道数。
            kernel_size: Kernel size. / 卷积核尺寸。
            stride: Stride. / 步长。
            padding: Padding. / 填充。
            dilation: Spacing between kernel elements. / 卷积核元素间距。
            groups: Number of channel groups. / 通道分组数。
            bias: Whether to learn a bias. / 是否学习偏置。
            padding_mode: The padding mode. / 填充模式。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        # 中: 经 `LazyModuleMixin.__init__` 进入 `Conv1d.__init__`。两个通道数都传 0：权重成为 `(0, 0, *k)`
        # 中: 的空张量，`_LazyConvXdMixin.reset_parameters` 因 `in_channels == 0` 跳过初始化。
        # 中: 代价：`_ConvNd` 对 `out_channels` 的 `groups` 整除检查遇到 0 总能通过（见 `initialize_parameters`）。
        # EN: Reaches `Conv1d.__init__` through `LazyModuleMixin.__init__`. Both channel counts are
        # EN: 0: the weight is an empty `(0, 0, *k)` tensor and `_LazyConvXdMixin.reset_parameters`
        # EN: skips initialization since `in_channels == 0`. The cost: `_ConvNd`'s check that
        # EN: `groups` divides `out_channels` always passes for 0 (see `initialize_parameters`).
        super().__init__(
            0,
            0,
            kernel_size,
            stride,
            padding,
            dilation,
            groups,
            # 中: bias 固定传 False：占位的 bias 随后放入，不必先分配一个马上被替换的张量。
            # EN: bias is False on purpose: a placeholder bias follows, no tensor to allocate and
            # EN: discard.
            False,
            padding_mode,
            **factory_kwargs,
        )
        # 中: 占位权重替换空权重；`out_channels` 换成真实值；要偏置时占位偏置替换登记的 None。
        # EN: A placeholder replaces the empty weight; `out_channels` gets its real value; if a
        # EN: bias is wanted, a placeholder replaces the registered None.
        self.weight = UninitializedParameter(**factory_kwargs)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(**factory_kwargs)

    def _get_num_spatial_dims(self) -> int:
        r"""One spatial dimension. / 一个空间维。

        === "中文"

            输入为 `(N, C, L)` 或 `(C, L)`。

        === "English"

            The input is `(N, C, L)` or `(C, L)`.

        Returns:
            1.
        """
        return 1


class LazyConv2d(_LazyConvXdMixin, Conv2d):  # type: ignore[misc]
    r"""A `Conv2d` whose `in_channels` comes from the first input. / `in_channels` 由第一次输入决定的 `Conv2d`。

    === "中文"

        第一次前向传播后变成 `Conv2d`。流程见 `_LazyConvXdMixin` 与
        Note [Lazy module lifecycle]。

    === "English"

        Becomes a `Conv2d` after the first forward pass. See `_LazyConvXdMixin` and
        Note [Lazy module lifecycle].

    Args:
        out_channels: Channels of the output. / 输出通道数。
        kernel_size: Kernel size. / 卷积核尺寸。
        stride: Stride. / 步长。
        padding: Padding. / 填充。
        dilation: Spacing between kernel elements. / 卷积核元素间距。
        groups: Number of channel groups. / 通道分组数。
        bias: Whether to learn a bias. / 是否学习偏置。
        padding_mode: The padding mode. / 填充模式。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> m = nn.LazyConv2d(6, 3)
        >>> _ = m(torch.randn(1, 3, 8, 8))
        >>> m
        Conv2d(3, 6, kernel_size=(3, 3), stride=(1, 1))
    """

    cls_to_become = Conv2d  # type: ignore[assignment]

    def __init__(
        self,
        out_channels: int,
        kernel_size: _size_2_t,
        stride: _size_2_t = 1,
        padding: _size_2_t = 0,
        dilation: _size_2_t = 1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: Literal["zeros", "reflect", "replicate", "circular"] = "zeros",
        device=None,
        dtype=None,
    ) -> None:
        r"""Build a zero-channel `Conv2d`, then put placeholders in. / 先构造零通道的 `Conv2d`，再放入占位参数。

        === "中文"

            与 `LazyConv1d.__init__` 相同的模式。

        === "English"

            The same pattern as `LazyConv1d.__init__`.

        Args:
            out_channels: Channels of the output. / 输出通道数。
            kernel_size: Kernel size. / 卷积核尺寸。
            stride: Stride. / 步长。
            padding: Padding. / 填充。
            dilation: Spacing between kernel elements. / 卷积核元素间距。
            groups: Number of channel groups. / 通道分组数。
            bias: Whether to learn a bias. / 是否学习偏置。
            padding_mode: The padding mode. / 填充模式。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        # 中: 同 `LazyConv1d.__init__`：以 0 个输入、0 个输出通道构造 `Conv2d`，得到 `(0, 0, kH, kW)` 的空权重。
        # EN: As `LazyConv1d.__init__`: build a `Conv2d` with 0 input and 0 output channels,
        # EN: giving an empty `(0, 0, kH, kW)` weight.
        super().__init__(
            0,
            0,
            kernel_size,
            stride,
            padding,
            dilation,
            groups,
            # 中: bias 固定传 False，原因同 `LazyConv1d`：占位偏置随后放入。
            # EN: bias is False for `LazyConv1d`'s reason: a placeholder bias follows.
            False,
            padding_mode,
            **factory_kwargs,
        )
        # 中: 放入占位参数并补上真实的 `out_channels`，同 `LazyConv1d`。
        # EN: Put in the placeholders and set the real `out_channels`, as in `LazyConv1d`.
        self.weight = UninitializedParameter(**factory_kwargs)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(**factory_kwargs)

    def _get_num_spatial_dims(self) -> int:
        r"""Two spatial dimensions. / 两个空间维。

        === "中文"

            输入为 `(N, C, H, W)` 或 `(C, H, W)`。

        === "English"

            The input is `(N, C, H, W)` or `(C, H, W)`.

        Returns:
            2.
        """
        return 2


class LazyConv3d(_LazyConvXdMixin, Conv3d):  # type: ignore[misc]
    r"""A `Conv3d` whose `in_channels` comes from the first input. / `in_channels` 由第一次输入决定的 `Conv3d`。

    === "中文"

        第一次前向传播后变成 `Conv3d`。流程见 `_LazyConvXdMixin` 与
        Note [Lazy module lifecycle]。

    === "English"

        Becomes a `Conv3d` after the first forward pass. See `_LazyConvXdMixin` and
        Note [Lazy module lifecycle].

    Args:
        out_channels: Channels of the output. / 输出通道数。
        kernel_size: Kernel size. / 卷积核尺寸。
        stride: Stride. / 步长。
        padding: Padding. / 填充。
        dilation: Spacing between kernel elements. / 卷积核元素间距。
        groups: Number of channel groups. / 通道分组数。
        bias: Whether to learn a bias. / 是否学习偏置。
        padding_mode: The padding mode. / 填充模式。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。
    """

    cls_to_become = Conv3d  # type: ignore[assignment]

    def __init__(
        self,
        out_channels: int,
        kernel_size: _size_3_t,
        stride: _size_3_t = 1,
        padding: _size_3_t = 0,
        dilation: _size_3_t = 1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: Literal["zeros", "reflect", "replicate", "circular"] = "zeros",
        device=None,
        dtype=None,
    ) -> None:
        r"""Build a zero-channel `Conv3d`, then put placeholders in. / 先构造零通道的 `Conv3d`，再放入占位参数。

        === "中文"

            与 `LazyConv1d.__init__` 相同的模式。

        === "English"

            The same pattern as `LazyConv1d.__init__`.

        Args:
            out_channels: Channels of the output. / 输出通道数。
            kernel_size: Kernel size. / 卷积核尺寸。
            stride: Stride. / 步长。
            padding: Padding. / 填充。
            dilation: Spacing between kernel elements. / 卷积核元素间距。
            groups: Number of channel groups. / 通道分组数。
            bias: Whether to learn a bias. / 是否学习偏置。
            padding_mode: The padding mode. / 填充模式。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        # 中: 同 `LazyConv1d.__init__`：以 0 个输入、0 个输出通道构造 `Conv3d`，得到 `(0, 0, kD, kH, kW)`
        # 中: 的空权重。
        # EN: As `LazyConv1d.__init__`: build a `Conv3d` with 0 input and 0 output channels,
        # EN: giving an empty `(0, 0, kD, kH, kW)` weight.
        super().__init__(
            0,
            0,
            kernel_size,
            stride,
            padding,
            dilation,
            groups,
            # 中: bias 固定传 False，原因同 `LazyConv1d`：占位偏置随后放入。
            # EN: bias is False for `LazyConv1d`'s reason: a placeholder bias follows.
            False,
            padding_mode,
            **factory_kwargs,
        )
        # 中: 放入占位参数并补上真实的 `out_channels`，同 `LazyConv1d`。
        # EN: Put in the placeholders and set the real `out_channels`, as in `LazyConv1d`.
        self.weight = UninitializedParameter(**factory_kwargs)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(**factory_kwargs)

    def _get_num_spatial_dims(self) -> int:
        r"""Three spatial dimensions. / 三个空间维。

        === "中文"

            输入为 `(N, C, D, H, W)` 或 `(C, D, H, W)`。

        === "English"

            The input is `(N, C, D, H, W)` or `(C, D, H, W)`.

        Returns:
            3.
        """
        return 3


class LazyConvTranspose1d(_LazyConvXdMixin, ConvTranspose1d):  # type: ignore[misc]
    r"""A `ConvTranspose1d` whose `in_channels` comes from the first input. / `in_channels` 由第一次输入决定的 `ConvTranspose1d`。

    === "中文"

        第一次前向传播后变成 `ConvTranspose1d`。权重按转置形状
        `(in_channels, out_channels // groups, *kernel_size)` 物化。

    === "English"

        Becomes a `ConvTranspose1d` after the first forward pass. The weight is materialized with
        the transposed shape `(in_channels, out_channels // groups, *kernel_size)`.

    Args:
        out_channels: Channels of the output. / 输出通道数。
        kernel_size: Kernel size. / 卷积核尺寸。
        stride: Stride. / 步长。
        padding: Padding. / 填充。
        output_padding: Extra output size. / 输出附加尺寸。
        groups: Number of channel groups. / 通道分组数。
        bias: Whether to learn a bias. / 是否学习偏置。
        dilation: Spacing between kernel elements. / 卷积核元素间距。
        padding_mode: Must be `'zeros'`. / 必须为 `'zeros'`。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。
    """

    cls_to_become = ConvTranspose1d  # type: ignore[assignment]

    def __init__(
        self,
        out_channels: int,
        kernel_size: _size_1_t,
        stride: _size_1_t = 1,
        padding: _size_1_t = 0,
        output_padding: _size_1_t = 0,
        groups: int = 1,
        bias: bool = True,
        dilation: _size_1_t = 1,
        padding_mode: Literal["zeros", "reflect", "replicate", "circular"] = "zeros",
        device=None,
        dtype=None,
    ) -> None:
        r"""Build a zero-channel `ConvTranspose1d`, then put placeholders in. / 先构造零通道的 `ConvTranspose1d`，再放入占位参数。

        === "中文"

            与 `LazyConv1d.__init__` 相同的模式，参数顺序随 `ConvTranspose1d`。

        === "English"

            The same pattern as `LazyConv1d.__init__`, with `ConvTranspose1d`'s argument order.

        Args:
            out_channels: Channels of the output. / 输出通道数。
            kernel_size: Kernel size. / 卷积核尺寸。
            stride: Stride. / 步长。
            padding: Padding. / 填充。
            output_padding: Extra output size. / 输出附加尺寸。
            groups: Number of channel groups. / 通道分组数。
            bias: Whether to learn a bias. / 是否学习偏置。
            dilation: Spacing between kernel elements. / 卷积核元素间距。
            padding_mode: Must be `'zeros'`. / 必须为 `'zeros'`。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        # 中: 同 `LazyConv1d.__init__`，只是参数按 `ConvTranspose1d` 的顺序排列（`output_padding` 在
        # 中: `groups` 前，`dilation` 在 `bias` 后）。两个通道数为 0 时转置形状的权重也是 `(0, 0, k)`。
        # EN: As `LazyConv1d.__init__`, with the arguments in `ConvTranspose1d`'s order
        # EN: (`output_padding` before `groups`, `dilation` after `bias`). With both channel counts
        # EN: 0 the transposed weight shape is `(0, 0, k)` as well.
        super().__init__(
            0,
            0,
            kernel_size,
            stride,
            padding,
            output_padding,
            groups,
            # 中: bias 固定传 False，原因同 `LazyConv1d`：占位偏置随后放入。
            # EN: bias is False for `LazyConv1d`'s reason: a placeholder bias follows.
            False,
            dilation,
            padding_mode,
            **factory_kwargs,
        )
        # 中: 放入占位参数并补上真实的 `out_channels`；物化时 `transposed=True` 决定权重按转置形状分配。
        # EN: Put in the placeholders and set the real `out_channels`; at materialization
        # EN: `transposed=True` selects the transposed weight shape.
        self.weight = UninitializedParameter(**factory_kwargs)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(**factory_kwargs)

    def _get_num_spatial_dims(self) -> int:
        r"""One spatial dimension. / 一个空间维。

        === "中文"

            输入为 `(N, C, L)` 或 `(C, L)`。

        === "English"

            The input is `(N, C, L)` or `(C, L)`.

        Returns:
            1.
        """
        return 1


class LazyConvTranspose2d(_LazyConvXdMixin, ConvTranspose2d):  # type: ignore[misc]
    r"""A `ConvTranspose2d` whose `in_channels` comes from the first input. / `in_channels` 由第一次输入决定的 `ConvTranspose2d`。

    === "中文"

        第一次前向传播后变成 `ConvTranspose2d`。权重按转置形状物化。

    === "English"

        Becomes a `ConvTranspose2d` after the first forward pass. The weight is materialized with
        the transposed shape.

    Args:
        out_channels: Channels of the output. / 输出通道数。
        kernel_size: Kernel size. / 卷积核尺寸。
        stride: Stride. / 步长。
        padding: Padding. / 填充。
        output_padding: Extra output size. / 输出附加尺寸。
        groups: Number of channel groups. / 通道分组数。
        bias: Whether to learn a bias. / 是否学习偏置。
        dilation: Spacing between kernel elements. / 卷积核元素间距。
        padding_mode: Must be `'zeros'`. / 必须为 `'zeros'`。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。
    """

    cls_to_become = ConvTranspose2d  # type: ignore[assignment]

    def __init__(
        self,
        out_channels: int,
        kernel_size: _size_2_t,
        stride: _size_2_t = 1,
        padding: _size_2_t = 0,
        output_padding: _size_2_t = 0,
        groups: int = 1,
        bias: bool = True,
        dilation: int = 1,
        padding_mode: Literal["zeros", "reflect", "replicate", "circular"] = "zeros",
        device=None,
        dtype=None,
    ) -> None:
        r"""Build a zero-channel `ConvTranspose2d`, then put placeholders in. / 先构造零通道的 `ConvTranspose2d`，再放入占位参数。

        === "中文"

            与 `LazyConvTranspose1d.__init__` 相同的模式。

        === "English"

            The same pattern as `LazyConvTranspose1d.__init__`.

        Args:
            out_channels: Channels of the output. / 输出通道数。
            kernel_size: Kernel size. / 卷积核尺寸。
            stride: Stride. / 步长。
            padding: Padding. / 填充。
            output_padding: Extra output size. / 输出附加尺寸。
            groups: Number of channel groups. / 通道分组数。
            bias: Whether to learn a bias. / 是否学习偏置。
            dilation: Spacing between kernel elements. / 卷积核元素间距。
            padding_mode: Must be `'zeros'`. / 必须为 `'zeros'`。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        # 中: 同 `LazyConvTranspose1d.__init__`，构造的是 `ConvTranspose2d`。
        # EN: As `LazyConvTranspose1d.__init__`, building a `ConvTranspose2d`.
        super().__init__(
            0,
            0,
            kernel_size,
            stride,
            padding,
            output_padding,
            groups,
            # 中: bias 固定传 False，原因同 `LazyConv1d`：占位偏置随后放入。
            # EN: bias is False for `LazyConv1d`'s reason: a placeholder bias follows.
            False,
            dilation,
            padding_mode,
            **factory_kwargs,
        )
        # 中: 放入占位参数并补上真实的 `out_channels`，同 `LazyConvTranspose1d`。
        # EN: Put in the placeholders and set the real `out_channels`, as in `LazyConvTranspose1d`.
        self.weight = UninitializedParameter(**factory_kwargs)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(**factory_kwargs)

    def _get_num_spatial_dims(self) -> int:
        r"""Two spatial dimensions. / 两个空间维。

        === "中文"

            输入为 `(N, C, H, W)` 或 `(C, H, W)`。

        === "English"

            The input is `(N, C, H, W)` or `(C, H, W)`.

        Returns:
            2.
        """
        return 2


class LazyConvTranspose3d(_LazyConvXdMixin, ConvTranspose3d):  # type: ignore[misc]
    r"""A `ConvTranspose3d` whose `in_channels` comes from the first input. / `in_channels` 由第一次输入决定的 `ConvTranspose3d`。

    === "中文"

        第一次前向传播后变成 `ConvTranspose3d`。权重按转置形状物化。

    === "English"

        Becomes a `ConvTranspose3d` after the first forward pass. The weight is materialized with
        the transposed shape.

    Args:
        out_channels: Channels of the output. / 输出通道数。
        kernel_size: Kernel size. / 卷积核尺寸。
        stride: Stride. / 步长。
        padding: Padding. / 填充。
        output_padding: Extra output size. / 输出附加尺寸。
        groups: Number of channel groups. / 通道分组数。
        bias: Whether to learn a bias. / 是否学习偏置。
        dilation: Spacing between kernel elements. / 卷积核元素间距。
        padding_mode: Must be `'zeros'`. / 必须为 `'zeros'`。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。
    """

    cls_to_become = ConvTranspose3d  # type: ignore[assignment]

    def __init__(
        self,
        out_channels: int,
        kernel_size: _size_3_t,
        stride: _size_3_t = 1,
        padding: _size_3_t = 0,
        output_padding: _size_3_t = 0,
        groups: int = 1,
        bias: bool = True,
        dilation: _size_3_t = 1,
        padding_mode: Literal["zeros", "reflect", "replicate", "circular"] = "zeros",
        device=None,
        dtype=None,
    ) -> None:
        r"""Build a zero-channel `ConvTranspose3d`, then put placeholders in. / 先构造零通道的 `ConvTranspose3d`，再放入占位参数。

        === "中文"

            与 `LazyConvTranspose1d.__init__` 相同的模式。

        === "English"

            The same pattern as `LazyConvTranspose1d.__init__`.

        Args:
            out_channels: Channels of the output. / 输出通道数。
            kernel_size: Kernel size. / 卷积核尺寸。
            stride: Stride. / 步长。
            padding: Padding. / 填充。
            output_padding: Extra output size. / 输出附加尺寸。
            groups: Number of channel groups. / 通道分组数。
            bias: Whether to learn a bias. / 是否学习偏置。
            dilation: Spacing between kernel elements. / 卷积核元素间距。
            padding_mode: Must be `'zeros'`. / 必须为 `'zeros'`。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        # 中: 同 `LazyConvTranspose1d.__init__`，构造的是 `ConvTranspose3d`。
        # EN: As `LazyConvTranspose1d.__init__`, building a `ConvTranspose3d`.
        super().__init__(
            0,
            0,
            kernel_size,
            stride,
            padding,
            output_padding,
            groups,
            # 中: bias 固定传 False，原因同 `LazyConv1d`：占位偏置随后放入。
            # EN: bias is False for `LazyConv1d`'s reason: a placeholder bias follows.
            False,
            dilation,
            padding_mode,
            **factory_kwargs,
        )
        # 中: 放入占位参数并补上真实的 `out_channels`，同 `LazyConvTranspose1d`。
        # EN: Put in the placeholders and set the real `out_channels`, as in `LazyConvTranspose1d`.
        self.weight = UninitializedParameter(**factory_kwargs)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(**factory_kwargs)

    def _get_num_spatial_dims(self) -> int:
        r"""Three spatial dimensions. / 三个空间维。

        === "中文"

            输入为 `(N, C, D, H, W)` 或 `(C, D, H, W)`。

        === "English"

            The input is `(N, C, D, H, W)` or `(C, D, H, W)`.

        Returns:
            3.
        """
        return 3
