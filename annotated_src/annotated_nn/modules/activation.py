r"""Activation layers and multi-head attention. / 激活函数层与多头注意力。

=== "中文"

    本文件对应 `torch.nn.modules.activation`。绝大多数激活层是最薄的一类模块：
    没有参数（parameter）也没有缓冲区（buffer），构造函数只保存几个超参数，
    `forward` 把它们交给 `torch.nn.functional` 里的同名函数，`extra_repr` 负责让
    `repr` 显示这些超参数。它们之所以做成模块，是为了能放进
    [`Sequential`][annotated_nn.modules.container.Sequential] 之类的容器，并能挂钩子（hook）。

    例外有两个：`PReLU` 拥有可学习的斜率参数；`MultiheadAttention` 是一个完整的子网络
    （投影权重、输出投影子模块（submodule）、掩码处理、快速路径）。`inplace=True` 的层会
    直接改写输入张量，省内存但会破坏输入，`repr` 只在它为 `True` 时才显示。

=== "English"

    This file mirrors `torch.nn.modules.activation`. Most activation layers are the
    thinnest kind of module: no parameter, no buffer; the constructor stores a few
    hyper-parameters, `forward` passes them to the function of the same name in
    `torch.nn.functional`, and `extra_repr` shows them in the `repr`. They are modules so
    that they fit into containers such as
    [`Sequential`][annotated_nn.modules.container.Sequential] and can carry hooks.

    Two exceptions: `PReLU` owns a learnable slope parameter, and `MultiheadAttention` is a
    whole sub-network (projection weights, an output-projection submodule, mask handling,
    a fast path). Layers with `inplace=True` overwrite their input, saving memory at the
    cost of destroying it; the `repr` shows `inplace=True` only when it is set.
"""

import warnings

import torch
from torch import Tensor

from .. import functional as F
from ..init import constant_, xavier_normal_, xavier_uniform_
from ..parameter import Parameter
from .linear import NonDynamicallyQuantizableLinear
from .module import Module

__all__ = [
    "Threshold",
    "ReLU",
    "RReLU",
    "Hardtanh",
    "ReLU6",
    "Sigmoid",
    "Hardsigmoid",
    "Tanh",
    "SiLU",
    "Mish",
    "Hardswish",
    "ELU",
    "CELU",
    "SELU",
    "GLU",
    "GELU",
    "Hardshrink",
    "LeakyReLU",
    "LogSigmoid",
    "Softplus",
    "Softshrink",
    "MultiheadAttention",
    "PReLU",
    "Softsign",
    "Tanhshrink",
    "Softmin",
    "Softmax",
    "Softmax2d",
    "LogSoftmax",
]


class Threshold(Module):
    r"""Replace values not above `threshold` by `value`. / 把不大于 `threshold` 的值替换为 `value`。

    === "中文"

        `y = x`（当 `x > threshold`），否则 `y = value`；NaN 保持为 NaN（它不大于 `threshold`，
        但内核不替换它）。ReLU 就是 `Threshold(0, 0)`。
        两个数都没有默认值，必须显式给出。

    === "English"

        `y = x` when `x > threshold`, otherwise `y = value`; a NaN stays NaN (it is not above
        `threshold`, but the kernel leaves it). ReLU is `Threshold(0, 0)`.
        Neither number has a default; both must be given.

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.Threshold(0.5, -1.0)(torch.tensor([0.2, 0.8]))
        tensor([-1.0000,  0.8000])
    """

    __constants__ = ["threshold", "value", "inplace"]

    threshold: float
    value: float
    inplace: bool

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        r"""Store the threshold, the replacement value and `inplace`. / 保存阈值、替换值与 `inplace`。

        === "中文"

            这里不做任何检查，只记录三个数。

        === "English"

            Nothing is checked here; the three values are only recorded.

        Args:
            threshold: Values at or below it are replaced. / 不大于它的值会被替换。
            value: The replacement. / 替换值。
            inplace: Whether to modify the input in place. / 是否就地修改输入。
        """
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply the threshold elementwise. / 逐元素应用阈值。

        === "中文"

            直接把输入交给 `F.threshold` 计算。

        === "English"

            Hands the input straight to `F.threshold`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape as `input`. / 与 `input` 同形状。
        """
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        r"""Show threshold and value (and `inplace=True` when set). / 显示阈值与替换值（设置时附加 `inplace=True`）。

        === "中文"

            输出形如 `threshold=0.5, value=-1.0`。

        === "English"

            The result looks like `threshold=0.5, value=-1.0`.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"threshold={self.threshold}, value={self.value}{inplace_str}"


class ReLU(Module):
    r"""Rectified linear unit, `max(0, x)`. / 线性整流单元 `max(0, x)`。

    === "中文"

        最常用的激活函数。没有状态，只有 `inplace` 开关。

    === "English"

        The most common activation. Stateless apart from the `inplace` switch.

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.ReLU(inplace=True)
        ReLU(inplace=True)
        >>> nn.ReLU()(torch.tensor([-1.0, 2.0]))
        tensor([0., 2.])
    """

    __constants__ = ["inplace"]
    inplace: bool

    def __init__(self, inplace: bool = False) -> None:
        r"""Store the `inplace` switch. / 保存 `inplace` 开关。

        === "中文"

            `inplace=True` 时前向传播直接改写输入。

        === "English"

            With `inplace=True` the forward pass overwrites its input.

        Args:
            inplace: Whether to modify the input in place. / 是否就地修改输入。
        """
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply ReLU elementwise. / 逐元素应用 ReLU。

        === "中文"

            直接把输入交给 `F.relu` 计算。

        === "English"

            Hands the input straight to `F.relu`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape as `input`. / 与 `input` 同形状。
        """
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        r"""Show `inplace=True` when set, else nothing. / 设置了才显示 `inplace=True`，否则为空。

        === "中文"

            默认情况下 `repr` 就是 `ReLU()`。

        === "English"

            By default the repr is just `ReLU()`.

        Returns:
            `"inplace=True"` or `""`. / `"inplace=True"` 或 `""`。
        """
        inplace_str = "inplace=True" if self.inplace else ""
        return inplace_str


class RReLU(Module):
    r"""Randomized leaky ReLU: random negative slope in training. / 随机化的 LeakyReLU：训练时负斜率随机。

    === "中文"

        训练模式下，每个负元素的斜率从 `U(lower, upper)` 中随机抽取（消耗随机数）；
        评估模式下固定为 `(lower + upper) / 2`。它是少数几个行为依赖 `self.training` 的激活层。

    === "English"

        In training mode each negative element gets a slope drawn from `U(lower, upper)`
        (consuming random numbers); in evaluation mode the slope is fixed at
        `(lower + upper) / 2`. One of the few activations whose behavior depends on
        `self.training`.

    Examples:
        >>> import annotated_nn as nn
        >>> nn.RReLU()
        RReLU(lower=0.125, upper=0.3333333333333333)
    """

    __constants__ = ["lower", "upper", "inplace"]

    lower: float
    upper: float
    inplace: bool

    def __init__(
        self, lower: float = 1.0 / 8, upper: float = 1.0 / 3, inplace: bool = False
    ) -> None:
        r"""Store the slope range and `inplace`. / 保存斜率范围与 `inplace`。

        === "中文"

            默认范围是 `[1/8, 1/3]`，所以 `repr` 里会出现 `0.3333333333333333`。

        === "English"

            The default range is `[1/8, 1/3]`, hence `0.3333333333333333` in the repr.

        Args:
            lower: Lower bound of the random slope. / 随机斜率的下界。
            upper: Upper bound of the random slope. / 随机斜率的上界。
            inplace: Whether to modify the input in place. / 是否就地修改输入。
        """
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply RReLU; randomness only in training mode. / 应用 RReLU；只有训练模式才随机。

        === "中文"

            把 `self.training` 一并交给 `F.rrelu`，由它决定是否抽随机斜率。

        === "English"

            Passes `self.training` to `F.rrelu`, which decides whether to draw random slopes.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape as `input`. / 与 `input` 同形状。
        """
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        r"""Show the slope range (and `inplace=True` when set). / 显示斜率范围（设置时附加 `inplace=True`）。

        === "中文"

            输出形如 `lower=0.125, upper=0.3333333333333333`。

        === "English"

            The result looks like `lower=0.125, upper=0.3333333333333333`.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"lower={self.lower}, upper={self.upper}{inplace_str}"


class Hardtanh(Module):
    r"""Clamp to `[min_val, max_val]`. / 截断到 `[min_val, max_val]`。

    === "中文"

        线性区间之外取常数。旧的关键字 `min_value`/`max_value` 仍被接受，但会发出
        `FutureWarning` 并改名为 `min_val`/`max_val`。`ReLU6` 是它的子类。

    === "English"

        Linear inside the interval, constant outside. The old keywords
        `min_value`/`max_value` are still accepted with a `FutureWarning` and renamed to
        `min_val`/`max_val`. `ReLU6` subclasses it.

    Examples:
        >>> import annotated_nn as nn
        >>> nn.Hardtanh(-2.0, 2.0)
        Hardtanh(min_val=-2.0, max_val=2.0)
    """

    __constants__ = ["min_val", "max_val", "inplace"]

    min_val: float
    max_val: float
    inplace: bool

    def __init__(
        self,
        min_val: float = -1.0,
        max_val: float = 1.0,
        inplace: bool = False,
        min_value: float | None = None,
        max_value: float | None = None,
    ) -> None:
        r"""Store the bounds, honoring the deprecated keyword names. / 保存上下界，兼容已弃用的关键字名。

        === "中文"

            先处理弃用参数（`stacklevel=2` 让警告指向调用者），再检查 `max_val > min_val`；
            违反时抛出的是 `AssertionError`（与 torch 一致），而不是 `ValueError`。

        === "English"

            The deprecated names are handled first (`stacklevel=2` points the warning at the
            caller), then `max_val > min_val` is checked; a violation raises
            `AssertionError` (as torch does), not `ValueError`.

        Args:
            min_val: Lower bound. / 下界。
            max_val: Upper bound. / 上界。
            inplace: Whether to modify the input in place. / 是否就地修改输入。
            min_value: Deprecated alias of `min_val`. / `min_val` 的已弃用别名。
            max_value: Deprecated alias of `max_val`. / `max_val` 的已弃用别名。

        Raises:
            AssertionError: `max_val <= min_val`. / `max_val <= min_val`。
        """
        super().__init__()
        # 中: 旧名字优先：给了 `min_value` 就覆盖 `min_val`（哪怕两者都给了），并发出
        # 中: `FutureWarning`；`stacklevel=2` 让警告指向构造 `Hardtanh(...)` 的那一行。
        # EN: The old name wins: a given `min_value` overrides `min_val` (even when both are
        # EN: given), with a `FutureWarning`; `stacklevel=2` points it at the `Hardtanh(...)` call.
        if min_value is not None:
            warnings.warn(
                "keyword argument `min_value` is deprecated and renamed to `min_val`",
                FutureWarning,
                stacklevel=2,
            )
            min_val = min_value
        # 中: 上界同理。
        # EN: Likewise for the upper bound.
        if max_value is not None:
            warnings.warn(
                "keyword argument `max_value` is deprecated and renamed to `max_val`",
                FutureWarning,
                stacklevel=2,
            )
            max_val = max_value

        # 中: 先赋值再检查，顺序与 torch 相同；区间为空或退化（`max_val <= min_val`）时抛出
        # 中: `AssertionError`，文字与 torch 相同。
        # EN: Assign first, then check, in torch's order; an empty or degenerate interval
        # EN: (`max_val <= min_val`) raises `AssertionError` with torch's text.
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise AssertionError(
                f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})"
            )

    def forward(self, input: Tensor) -> Tensor:
        r"""Clamp elementwise. / 逐元素截断。

        === "中文"

            直接把输入交给 `F.hardtanh` 计算。

        === "English"

            Hands the input straight to `F.hardtanh`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape as `input`. / 与 `input` 同形状。
        """
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        r"""Show the bounds (and `inplace=True` when set). / 显示上下界（设置时附加 `inplace=True`）。

        === "中文"

            输出形如 `min_val=-1.0, max_val=1.0`。

        === "English"

            The result looks like `min_val=-1.0, max_val=1.0`.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"min_val={self.min_val}, max_val={self.max_val}{inplace_str}"


class ReLU6(Hardtanh):
    r"""`min(max(0, x), 6)`: a Hardtanh with bounds 0 and 6. / `min(max(0, x), 6)`：上下界为 0 和 6 的 Hardtanh。

    === "中文"

        继承 `Hardtanh` 只为复用 `forward`；`repr` 不显示边界，因为它们是固定的。

    === "English"

        It subclasses `Hardtanh` only to reuse `forward`; the repr omits the bounds since
        they are fixed.

    Examples:
        >>> import annotated_nn as nn
        >>> nn.ReLU6()
        ReLU6()
    """

    def __init__(self, inplace: bool = False) -> None:
        r"""Fix the bounds to 0.0 and 6.0. / 把上下界固定为 0.0 和 6.0。

        === "中文"

            按位置把 `0.0, 6.0, inplace` 传给 `Hardtanh`。

        === "English"

            Passes `0.0, 6.0, inplace` positionally to `Hardtanh`.

        Args:
            inplace: Whether to modify the input in place. / 是否就地修改输入。
        """
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        r"""Show `inplace=True` when set, else nothing. / 设置了才显示 `inplace=True`，否则为空。

        === "中文"

            不显示固定的边界。

        === "English"

            The fixed bounds are not shown.

        Returns:
            `"inplace=True"` or `""`. / `"inplace=True"` 或 `""`。
        """
        inplace_str = "inplace=True" if self.inplace else ""
        return inplace_str


class Sigmoid(Module):
    r"""Logistic sigmoid `1 / (1 + exp(-x))`. / 逻辑斯蒂函数 `1 / (1 + exp(-x))`。

    === "中文"

        没有构造参数，直接沿用 `Module.__init__`；`forward` 调用 `torch.sigmoid`。

    === "English"

        No constructor arguments, so `Module.__init__` is used as is; `forward` calls
        `torch.sigmoid`.

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.Sigmoid()(torch.zeros(1))
        tensor([0.5000])
    """

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply the sigmoid elementwise. / 逐元素应用 sigmoid。

        === "中文"

            直接把输入交给 `torch.sigmoid` 计算。

        === "English"

            Hands the input straight to `torch.sigmoid`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape, values in (0, 1). / 同形状，取值在 (0, 1)。
        """
        return torch.sigmoid(input)


class Hardsigmoid(Module):
    r"""Piecewise-linear sigmoid: `clamp(x / 6 + 1 / 2, 0, 1)`. / 分段线性的 sigmoid：`clamp(x / 6 + 1 / 2, 0, 1)`。

    === "中文"

        移动端网络（MobileNetV3）用它代替 sigmoid，计算便宜。注意它没有 `extra_repr`，
        所以即使 `inplace=True`，`repr` 也只是 `Hardsigmoid()`。

    === "English"

        Mobile networks (MobileNetV3) use it as a cheap sigmoid. It has no `extra_repr`, so
        the repr is `Hardsigmoid()` even with `inplace=True`.
    """

    __constants__ = ["inplace"]

    inplace: bool

    def __init__(self, inplace: bool = False) -> None:
        r"""Store the `inplace` switch. / 保存 `inplace` 开关。

        === "中文"

            与 `ReLU` 的构造函数相同。

        === "English"

            As for `ReLU`.

        Args:
            inplace: Whether to modify the input in place. / 是否就地修改输入。
        """
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply Hardsigmoid elementwise. / 逐元素应用 Hardsigmoid。

        === "中文"

            直接把输入交给 `F.hardsigmoid` 计算。

        === "English"

            Hands the input straight to `F.hardsigmoid`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape, values in [0, 1]. / 同形状，取值在 [0, 1]。
        """
        return F.hardsigmoid(input, self.inplace)


class Tanh(Module):
    r"""Hyperbolic tangent. / 双曲正切。

    === "中文"

        没有构造参数；`forward` 调用 `torch.tanh`。

    === "English"

        No constructor arguments; `forward` calls `torch.tanh`.
    """

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply tanh elementwise. / 逐元素应用 tanh。

        === "中文"

            直接把输入交给 `torch.tanh` 计算。

        === "English"

            Hands the input straight to `torch.tanh`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape, values in (-1, 1). / 同形状，取值在 (-1, 1)。
        """
        return torch.tanh(input)


class SiLU(Module):
    r"""Sigmoid linear unit (swish), `x * sigmoid(x)`. / Sigmoid 线性单元（swish），`x * sigmoid(x)`。

    === "中文"

        平滑、非单调的激活函数，常见于 EfficientNet 等网络。

    === "English"

        A smooth, non-monotonic activation, common in networks such as EfficientNet.
    """

    __constants__ = ["inplace"]
    inplace: bool

    def __init__(self, inplace: bool = False) -> None:
        r"""Store the `inplace` switch. / 保存 `inplace` 开关。

        === "中文"

            与 `ReLU` 的构造函数相同。

        === "English"

            As for `ReLU`.

        Args:
            inplace: Whether to modify the input in place. / 是否就地修改输入。
        """
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply SiLU elementwise. / 逐元素应用 SiLU。

        === "中文"

            直接把输入交给 `F.silu` 计算。

        === "English"

            Hands the input straight to `F.silu`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape as `input`. / 与 `input` 同形状。
        """
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        r"""Show `inplace=True` when set, else nothing. / 设置了才显示 `inplace=True`，否则为空。

        === "中文"

            默认情况下 `repr` 就是 `SiLU()`。

        === "English"

            The default repr is `SiLU()`.

        Returns:
            `"inplace=True"` or `""`. / `"inplace=True"` 或 `""`。
        """
        inplace_str = "inplace=True" if self.inplace else ""
        return inplace_str


class Mish(Module):
    r"""Mish, `x * tanh(softplus(x))`. / Mish 激活，`x * tanh(softplus(x))`。

    === "中文"

        与 SiLU 相似的平滑激活函数。

    === "English"

        A smooth activation similar to SiLU.
    """

    __constants__ = ["inplace"]
    inplace: bool

    def __init__(self, inplace: bool = False) -> None:
        r"""Store the `inplace` switch. / 保存 `inplace` 开关。

        === "中文"

            与 `ReLU` 的构造函数相同。

        === "English"

            As for `ReLU`.

        Args:
            inplace: Whether to modify the input in place. / 是否就地修改输入。
        """
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply Mish elementwise. / 逐元素应用 Mish。

        === "中文"

            直接把输入交给 `F.mish` 计算。

        === "English"

            Hands the input straight to `F.mish`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape as `input`. / 与 `input` 同形状。
        """
        return F.mish(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        r"""Show `inplace=True` when set, else nothing. / 设置了才显示 `inplace=True`，否则为空。

        === "中文"

            默认情况下 `repr` 就是 `Mish()`。

        === "English"

            The default repr is `Mish()`.

        Returns:
            `"inplace=True"` or `""`. / `"inplace=True"` 或 `""`。
        """
        inplace_str = "inplace=True" if self.inplace else ""
        return inplace_str


class Hardswish(Module):
    r"""Piecewise approximation of SiLU: `x * hardsigmoid(x)`. / SiLU 的分段近似：`x * hardsigmoid(x)`。

    === "中文"

        与 `Hardsigmoid` 一样来自 MobileNetV3，同样没有 `extra_repr`。

    === "English"

        Like `Hardsigmoid` it comes from MobileNetV3, and likewise has no `extra_repr`.
    """

    __constants__ = ["inplace"]

    inplace: bool

    def __init__(self, inplace: bool = False) -> None:
        r"""Store the `inplace` switch. / 保存 `inplace` 开关。

        === "中文"

            与 `ReLU` 的构造函数相同。

        === "English"

            As for `ReLU`.

        Args:
            inplace: Whether to modify the input in place. / 是否就地修改输入。
        """
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply Hardswish elementwise. / 逐元素应用 Hardswish。

        === "中文"

            直接把输入交给 `F.hardswish` 计算。

        === "English"

            Hands the input straight to `F.hardswish`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape as `input`. / 与 `input` 同形状。
        """
        return F.hardswish(input, self.inplace)


class ELU(Module):
    r"""Exponential linear unit. / 指数线性单元。

    === "中文"

        `x > 0` 时为 `x`，否则为 `alpha * (exp(x) - 1)`。

    === "English"

        `x` for `x > 0`, otherwise `alpha * (exp(x) - 1)`.
    """

    __constants__ = ["alpha", "inplace"]
    alpha: float
    inplace: bool

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        r"""Store `alpha` and `inplace`. / 保存 `alpha` 与 `inplace`。

        === "中文"

            只记录数值。

        === "English"

            Only records the values.

        Args:
            alpha: Scale of the negative branch. / 负半轴的缩放系数。
            inplace: Whether to modify the input in place. / 是否就地修改输入。
        """
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply ELU elementwise. / 逐元素应用 ELU。

        === "中文"

            直接把输入交给 `F.elu` 计算。

        === "English"

            Hands the input straight to `F.elu`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape as `input`. / 与 `input` 同形状。
        """
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        r"""Show `alpha` (and `inplace=True` when set). / 显示 `alpha`（设置时附加 `inplace=True`）。

        === "中文"

            输出形如 `alpha=1.0`。

        === "English"

            The result looks like `alpha=1.0`.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"alpha={self.alpha}{inplace_str}"


class CELU(Module):
    r"""Continuously differentiable ELU. / 处处连续可导的 ELU。

    === "中文"

        `max(0, x) + min(0, alpha * (exp(x / alpha) - 1))`；`alpha=1` 时与 ELU 相同。

    === "English"

        `max(0, x) + min(0, alpha * (exp(x / alpha) - 1))`; equal to ELU for `alpha=1`.
    """

    __constants__ = ["alpha", "inplace"]
    alpha: float
    inplace: bool

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        r"""Store `alpha` and `inplace`. / 保存 `alpha` 与 `inplace`。

        === "中文"

            只记录两个数值，不做检查。

        === "English"

            Only records the two values, without checks.

        Args:
            alpha: Scale of the negative branch. / 负半轴的缩放系数。
            inplace: Whether to modify the input in place. / 是否就地修改输入。
        """
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply CELU elementwise. / 逐元素应用 CELU。

        === "中文"

            直接把输入交给 `F.celu` 计算。

        === "English"

            Hands the input straight to `F.celu`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape as `input`. / 与 `input` 同形状。
        """
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        r"""Show `alpha` (and `inplace=True` when set). / 显示 `alpha`（设置时附加 `inplace=True`）。

        === "中文"

            输出形如 `alpha=1.0`。

        === "English"

            The result looks like `alpha=1.0`.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"alpha={self.alpha}{inplace_str}"


class SELU(Module):
    r"""Scaled ELU with fixed constants for self-normalizing networks. / 自归一化网络使用的、常数固定的缩放 ELU。

    === "中文"

        `scale * (max(0, x) + min(0, alpha * (exp(x) - 1)))`，`alpha`、`scale` 是论文给出的固定常数，
        所以构造函数只有 `inplace`。

    === "English"

        `scale * (max(0, x) + min(0, alpha * (exp(x) - 1)))` with `alpha` and `scale` fixed
        by the paper, so the constructor only takes `inplace`.
    """

    __constants__ = ["inplace"]
    inplace: bool

    def __init__(self, inplace: bool = False) -> None:
        r"""Store the `inplace` switch. / 保存 `inplace` 开关。

        === "中文"

            与 `ReLU` 的构造函数相同。

        === "English"

            As for `ReLU`.

        Args:
            inplace: Whether to modify the input in place. / 是否就地修改输入。
        """
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply SELU elementwise. / 逐元素应用 SELU。

        === "中文"

            直接把输入交给 `F.selu` 计算。

        === "English"

            Hands the input straight to `F.selu`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape as `input`. / 与 `input` 同形状。
        """
        return F.selu(input, self.inplace)

    def extra_repr(self) -> str:
        r"""Show `inplace=True` when set, else nothing. / 设置了才显示 `inplace=True`，否则为空。

        === "中文"

            默认情况下 `repr` 就是 `SELU()`。

        === "English"

            By default the repr is just `SELU()`.

        Returns:
            `"inplace=True"` or `""`. / `"inplace=True"` 或 `""`。
        """
        inplace_str = "inplace=True" if self.inplace else ""
        return inplace_str


class GLU(Module):
    r"""Gated linear unit: split in two halves `a, b`, return `a * sigmoid(b)`. / 门控线性单元：对半分成 `a, b`，返回 `a * sigmoid(b)`。

    === "中文"

        输出在 `dim` 维上只有输入的一半大小，因此该维长度必须是偶数。

    === "English"

        The output is half the input's size along `dim`, so that size must be even.

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.GLU()(torch.zeros(2, 4)).shape
        torch.Size([2, 2])
    """

    __constants__ = ["dim"]
    dim: int

    def __init__(self, dim: int = -1) -> None:
        r"""Store the split dimension. / 保存切分所在的维度。

        === "中文"

            默认在最后一维上对半切分。

        === "English"

            By default the last dimension is split in half.

        Args:
            dim: Dimension to split. / 要切分的维度。
        """
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply GLU along `self.dim`. / 沿 `self.dim` 应用 GLU。

        === "中文"

            直接把输入交给 `F.glu` 计算。

        === "English"

            Hands the input straight to `F.glu`.

        Args:
            input: Tensor whose `dim` size is even. / 在 `dim` 维上长度为偶数的张量。

        Returns:
            Tensor with `dim` halved. / `dim` 维减半的张量。
        """
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        r"""Show `dim`. / 显示 `dim`。

        === "中文"

            输出形如 `dim=-1`。

        === "English"

            The result looks like `dim=-1`.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        return f"dim={self.dim}"


class GELU(Module):
    r"""Gaussian error linear unit, `x * Phi(x)`. / 高斯误差线性单元 `x * Phi(x)`。

    === "中文"

        Transformer 中常用。`approximate="tanh"` 用 tanh 近似代替精确的误差函数。
        1.5.1 → 2.13：新增 `approximate` 参数。

    === "English"

        Common in Transformers. `approximate="tanh"` replaces the exact error function by a
        tanh approximation. 1.5.1 → 2.13: the `approximate` argument was added.

    Examples:
        >>> import annotated_nn as nn
        >>> nn.GELU()
        GELU(approximate='none')
    """

    __constants__ = ["approximate"]
    approximate: str

    def __init__(self, approximate: str = "none") -> None:
        r"""Store the approximation mode. / 保存近似方式。

        === "中文"

            这里不检查取值；非法值会在 `F.gelu` 中报错。

        === "English"

            The value is not checked here; an invalid one fails inside `F.gelu`.

        Args:
            approximate: `"none"` or `"tanh"`. / `"none"` 或 `"tanh"`。
        """
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply GELU elementwise. / 逐元素应用 GELU。

        === "中文"

            直接把输入交给 `F.gelu` 计算。

        === "English"

            Hands the input straight to `F.gelu`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape as `input`. / 与 `input` 同形状。
        """
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        r"""Show the approximation mode, quoted. / 显示带引号的近似方式。

        === "中文"

            用 `repr` 加引号，所以是 `approximate='none'`。

        === "English"

            Quoted with `repr`, hence `approximate='none'`.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        return f"approximate={repr(self.approximate)}"


class Hardshrink(Module):
    r"""Zero out values with `|x| <= lambd`. / 把 `|x| <= lambd` 的值置零。

    === "中文"

        绝对值超过 `lambd` 的元素原样保留，其余变成 0。`repr` 只显示数值本身，例如 `Hardshrink(0.5)`。

    === "English"

        Elements with absolute value above `lambd` are kept as they are, the rest become 0.
        The repr shows the bare number, e.g. `Hardshrink(0.5)`.
    """

    __constants__ = ["lambd"]
    lambd: float

    def __init__(self, lambd: float = 0.5) -> None:
        r"""Store `lambd`. / 保存 `lambd`。

        === "中文"

            参数名是 `lambd`（避开 Python 关键字 `lambda`）。

        === "English"

            The argument is spelled `lambd` to avoid the Python keyword `lambda`.

        Args:
            lambd: The shrinkage threshold. / 收缩阈值。
        """
        super().__init__()
        self.lambd = lambd

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply hard shrinkage elementwise. / 逐元素应用硬收缩。

        === "中文"

            直接把输入交给 `F.hardshrink` 计算。

        === "English"

            Hands the input straight to `F.hardshrink`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape as `input`. / 与 `input` 同形状。
        """
        return F.hardshrink(input, self.lambd)

    def extra_repr(self) -> str:
        r"""Show the bare `lambd`. / 只显示 `lambd` 的数值。

        === "中文"

            没有 `lambd=` 前缀。

        === "English"

            There is no `lambd=` prefix.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        return f"{self.lambd}"


class LeakyReLU(Module):
    r"""ReLU with a small slope for negative inputs. / 负半轴带小斜率的 ReLU。

    === "中文"

        `x >= 0` 时为 `x`，否则为 `negative_slope * x`，避免负半轴梯度恒为零。

    === "English"

        `x` for `x >= 0`, otherwise `negative_slope * x`, so the negative side keeps a
        non-zero gradient.
    """

    __constants__ = ["inplace", "negative_slope"]
    inplace: bool
    negative_slope: float

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False) -> None:
        r"""Store the slope and `inplace`. / 保存斜率与 `inplace`。

        === "中文"

            只记录数值。

        === "English"

            Only records the values.

        Args:
            negative_slope: Slope for negative inputs. / 负输入的斜率。
            inplace: Whether to modify the input in place. / 是否就地修改输入。
        """
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply LeakyReLU elementwise. / 逐元素应用 LeakyReLU。

        === "中文"

            直接把输入交给 `F.leaky_relu` 计算。

        === "English"

            Hands the input straight to `F.leaky_relu`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape as `input`. / 与 `input` 同形状。
        """
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        r"""Show the slope (and `inplace=True` when set). / 显示斜率（设置时附加 `inplace=True`）。

        === "中文"

            输出形如 `negative_slope=0.01`。

        === "English"

            The result looks like `negative_slope=0.01`.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"negative_slope={self.negative_slope}{inplace_str}"


class LogSigmoid(Module):
    r"""`log(sigmoid(x))`, computed stably. / 数值稳定地计算 `log(sigmoid(x))`。

    === "中文"

        没有构造参数，直接沿用 `Module.__init__`。

    === "English"

        No constructor arguments; `Module.__init__` is used as is.
    """

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply log-sigmoid elementwise. / 逐元素应用 log-sigmoid。

        === "中文"

            直接把输入交给 `F.logsigmoid` 计算。

        === "English"

            Hands the input straight to `F.logsigmoid`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape, values below 0. / 同形状，取值小于 0。
        """
        return F.logsigmoid(input)


class Softplus(Module):
    r"""Smooth ReLU: `log(1 + exp(beta * x)) / beta`. / 平滑的 ReLU：`log(1 + exp(beta * x)) / beta`。

    === "中文"

        当 `beta * x > threshold` 时直接返回 `x`，用来避免 `exp` 溢出；这只在 `threshold` 够小时
        有效（默认 20）：例如 float32 下 `threshold=100` 时，输入 95 的结果是 `inf`。

    === "English"

        Where `beta * x > threshold` the input is returned as is, to keep `exp` from overflowing;
        that works only for a small enough `threshold` (the default 20): in float32 with
        `threshold=100`, for example, an input of 95 gives `inf`.
    """

    __constants__ = ["beta", "threshold"]
    beta: float
    threshold: float

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        r"""Store `beta` and `threshold`. / 保存 `beta` 与 `threshold`。

        === "中文"

            只记录两个数值。

        === "English"

            Only records the two values.

        Args:
            beta: Sharpness. / 陡峭程度。
            threshold: Above `beta * x > threshold` the function is linear. / `beta * x` 超过它时按线性处理。
        """
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply softplus elementwise. / 逐元素应用 softplus。

        === "中文"

            直接把输入交给 `F.softplus` 计算。

        === "English"

            Hands the input straight to `F.softplus`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape; non-negative for `beta > 0` (it may round to 0 for very negative input). / 同形状；`beta > 0` 时非负（输入很小时可能舍入为 0）。
        """
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        r"""Show `beta` and `threshold`. / 显示 `beta` 与 `threshold`。

        === "中文"

            输出形如 `beta=1.0, threshold=20.0`。

        === "English"

            The result looks like `beta=1.0, threshold=20.0`.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        return f"beta={self.beta}, threshold={self.threshold}"


class Softshrink(Module):
    r"""Soft shrinkage: move values towards 0 by `lambd`. / 软收缩：把值向 0 收缩 `lambd`。

    === "中文"

        `x - lambd`（`x > lambd`）、`x + lambd`（`x < -lambd`），其余为 0。`repr` 只显示数值。

    === "English"

        `x - lambd` for `x > lambd`, `x + lambd` for `x < -lambd`, 0 otherwise. The repr
        shows the bare number.
    """

    __constants__ = ["lambd"]
    lambd: float

    def __init__(self, lambd: float = 0.5) -> None:
        r"""Store `lambd`. / 保存 `lambd`。

        === "中文"

            `lambd` 必须非负，否则在 `F.softshrink` 中报错。

        === "English"

            `lambd` must be non-negative; otherwise `F.softshrink` raises.

        Args:
            lambd: The shrinkage amount. / 收缩量。
        """
        super().__init__()
        self.lambd = lambd

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply soft shrinkage elementwise. / 逐元素应用软收缩。

        === "中文"

            直接把输入交给 `F.softshrink` 计算。

        === "English"

            Hands the input straight to `F.softshrink`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape as `input`. / 与 `input` 同形状。
        """
        return F.softshrink(input, self.lambd)

    def extra_repr(self) -> str:
        r"""Show the bare `lambd`. / 只显示 `lambd` 的数值。

        === "中文"

            用 `str` 转换，没有 `lambd=` 前缀。

        === "English"

            Converted with `str`, without a `lambd=` prefix.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        return str(self.lambd)


def _check_arg_device(x: torch.Tensor | None) -> bool:
    r"""Whether a tensor's device suits the fused attention kernel. / 判断张量的设备是否适合融合注意力内核。

    === "中文"

        快速路径的内核只支持 CPU、CUDA 和注册的 privateuse1 后端；`None` 视为合格。

    === "English"

        The fast-path kernel supports CPU, CUDA and the registered privateuse1 backend
        only; `None` counts as acceptable.

    Args:
        x: A tensor or `None`. / 张量或 `None`。

    Returns:
        `True` if acceptable. / 合格时为 `True`。
    """
    if x is not None:
        return x.device.type in [
            "cpu",
            "cuda",
            torch.utils.backend_registration._privateuse1_backend_name,
        ]
    return True


def _arg_requires_grad(x: torch.Tensor | None) -> bool:
    r"""Whether a tensor (or `None`) requires grad. / 判断张量（或 `None`）是否需要梯度。

    === "中文"

        `None` 视为不需要梯度。快速路径的内核没有反向传播，所以有梯度需求时不能走它。

    === "English"

        `None` counts as not requiring grad. The fast-path kernel has no backward pass,
        so it cannot be used when gradients are needed.

    Args:
        x: A tensor or `None`. / 张量或 `None`。

    Returns:
        `x.requires_grad`, or `False` for `None`. / `x.requires_grad`；`None` 时为 `False`。
    """
    if x is not None:
        return x.requires_grad
    return False


def _is_make_fx_tracing():
    r"""Whether `make_fx` tracing or export is in progress. / 判断是否正在进行 `make_fx` 追踪或导出。

    === "中文"

        torch 在追踪时不让融合内核进入图，所以 `MultiheadAttention` 此时改走普通路径，
        并把输出变成连续内存，使布局与即时执行时的快速路径一致。

    === "English"

        torch keeps the fused kernel out of traced graphs, so while tracing
        `MultiheadAttention` takes the ordinary path and makes its output contiguous to
        match the layout of the eager fast path.

    Returns:
        `True` while tracing or exporting. / 追踪或导出时为 `True`。
    """
    # 中: 在 TorchScript 里只有 `else` 分支有效：
    # 中: 派发模式栈是 Python 层的 API。
    # EN: Under TorchScript only the `else` branch applies: the dispatch-mode stack is a
    # EN: Python-level API.
    if not torch.jit.is_scripting():
        torch_dispatch_mode_stack = torch.utils._python_dispatch._get_current_dispatch_mode_stack()
        # 中: `make_fx` 追踪时，栈上有一个
        # 中: `ProxyTorchDispatchMode`（按确切类型比较，子类不算）。
        # EN: `make_fx` tracing puts a `ProxyTorchDispatchMode` on the stack (compared by exact
        # EN: type, subclasses do not count).
        return (
            any(
                type(x) is torch.fx.experimental.proxy_tensor.ProxyTorchDispatchMode
                for x in torch_dispatch_mode_stack
            )
            # 中: `torch.export` 则由 `torch.compiler.is_exporting()` 报告。
            # EN: `torch.export` is reported by `torch.compiler.is_exporting()`.
            or torch.compiler.is_exporting()
        )
    else:
        return False


class MultiheadAttention(Module):
    r"""Multi-head attention from "Attention Is All You Need". / 《Attention Is All You Need》中的多头注意力。

    === "中文"

        把 query/key/value 各自线性投影到 `embed_dim`，拆成 `num_heads` 个头，每个头做缩放点积
        注意力，再拼接并经过输出投影 `out_proj`。参数的布局有两种：

        - `kdim == vdim == embed_dim`（`_qkv_same_embed_dim=True`，最常见）：三个投影矩阵
          拼成一个 `in_proj_weight`，形状 `(3*embed_dim, embed_dim)`；
        - 否则分开存成 `q_proj_weight`、`k_proj_weight`、`v_proj_weight`，`in_proj_weight` 登记为 `None`。

        `in_proj_bias` 总是拼在一起的 `(3*embed_dim,)`。`out_proj` 是一个子模块（submodule）
        `NonDynamicallyQuantizableLinear`，所以状态字典（state_dict）里出现 `out_proj.weight`。
        `bias_k`/`bias_v` 未启用时是普通属性 `None`，而不是登记的参数。

        `forward` 有两条路：满足一长串条件（评估模式、无需梯度、自注意力、`batch_first` 等）时，
        调用融合内核 `torch._native_multi_head_attention`；否则走
        `F.multi_head_attention_forward`。两条路都只是 torch 的计算内核，本类只负责挑选与传参，
        因此与 torch 的选择完全相同，结果也逐位相同。

    === "English"

        Query, key and value are each projected to `embed_dim`, split into `num_heads`
        heads, passed through scaled dot-product attention per head, concatenated and sent
        through the output projection `out_proj`. Parameters come in two layouts:

        - `kdim == vdim == embed_dim` (`_qkv_same_embed_dim=True`, the usual case): the three
          projection matrices are stacked in one `in_proj_weight` of shape
          `(3*embed_dim, embed_dim)`;
        - otherwise they are stored separately as `q_proj_weight`, `k_proj_weight`,
          `v_proj_weight`, and `in_proj_weight` is registered as `None`.

        `in_proj_bias` is always the stacked `(3*embed_dim,)`. `out_proj` is a submodule,
        a `NonDynamicallyQuantizableLinear`, hence `out_proj.weight` in the state_dict.
        Without `add_bias_kv`, `bias_k`/`bias_v` are plain attributes set to `None`, not
        registered parameters.

        `forward` has two routes: when a long list of conditions holds (eval mode, no grad
        needed, self-attention, `batch_first`, ...) it calls the fused kernel
        `torch._native_multi_head_attention`; otherwise `F.multi_head_attention_forward`.
        Both are torch kernels; this class only chooses and passes arguments, so it picks
        exactly as torch does and the results are bit-identical.

    Examples:
        >>> import torch, annotated_nn as nn
        >>> mha = nn.MultiheadAttention(8, 2, batch_first=True)
        >>> x = torch.randn(3, 5, 8)
        >>> out, w = mha(x, x, x)
        >>> out.shape, w.shape
        (torch.Size([3, 5, 8]), torch.Size([3, 5, 5]))
    """

    __constants__ = ["batch_first"]
    bias_k: torch.Tensor | None
    bias_v: torch.Tensor | None

    def __init__(
        self,
        embed_dim,
        num_heads,
        dropout=0.0,
        bias=True,
        add_bias_kv=False,
        add_zero_attn=False,
        kdim=None,
        vdim=None,
        batch_first=False,
        device=None,
        dtype=None,
    ) -> None:
        r"""Create the projection parameters and the output projection. / 创建投影参数与输出投影。

        === "中文"

            创建顺序影响随机数消耗：`out_proj` 作为 `Linear` 在构造时就做了一次
            kaiming 初始化（消耗随机数），然后
            [`_reset_parameters`][annotated_nn.modules.activation.MultiheadAttention._reset_parameters]
            再初始化输入投影。因为先后顺序与 torch 一致，同一个种子得到逐位相同的权重。
            1.5.1 → 2.13：新增 `batch_first` 与 `device`/`dtype`，并会检查 `embed_dim`、`num_heads` 为正。

        === "English"

            Creation order matters for the random stream: `out_proj`, being a `Linear`, runs
            its kaiming initialization at construction (drawing random numbers), and then
            [`_reset_parameters`][annotated_nn.modules.activation.MultiheadAttention._reset_parameters]
            initializes the input projections. With the same order as torch, the same seed
            gives bit-identical weights. 1.5.1 → 2.13: `batch_first` and `device`/`dtype`
            were added, and positive `embed_dim`/`num_heads` are checked.

        Args:
            embed_dim: Model dimension `E` (query size and output size). / 模型维度 `E`（query 与输出的大小）。
            num_heads: Number of heads; must divide `embed_dim`. / 头数，必须整除 `embed_dim`。
            dropout: Dropout probability on the attention weights. / 注意力权重上的 dropout 概率。
            bias: Whether the input and output projections have biases. / 输入与输出投影是否带偏置。
            add_bias_kv: Whether to append learnable `bias_k`/`bias_v` to key/value. / 是否在 key/value 末尾追加可学习的 `bias_k`/`bias_v`。
            add_zero_attn: Whether to append a zero position to key/value. / 是否在 key/value 末尾追加一个全零位置。
            kdim: Key feature size (default `embed_dim`). / key 的特征维度（默认 `embed_dim`）。
            vdim: Value feature size (default `embed_dim`). / value 的特征维度（默认 `embed_dim`）。
            batch_first: Whether inputs are `(N, L, E)` instead of `(L, N, E)`. / 输入是否为 `(N, L, E)` 而非 `(L, N, E)`。
            device: Device of the new parameters. / 新参数所在设备。
            dtype: Dtype of the new parameters. / 新参数的数据类型。

        Raises:
            ValueError: `embed_dim` or `num_heads` not positive. / `embed_dim` 或 `num_heads` 不为正。
            AssertionError: `embed_dim` not divisible by `num_heads`. / `embed_dim` 不能被 `num_heads` 整除。
        """
        # 中: 与 torch 相同，在调用 Module.__init__ 之前就检查（torch 没有说明为什么放在这里）；
        # 中: 错误信息逐字相同。
        # EN: Checked before Module.__init__, as in torch (which gives no reason for the place);
        # EN: the message is torch's word for word.
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(
                f"embed_dim and num_heads must be greater than 0,"
                f" got embed_dim={embed_dim} and num_heads={num_heads} instead"
            )
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        # 中: `kdim`/`vdim` 缺省时等于 `embed_dim`。
        # 中: `_qkv_same_embed_dim` 记录三路输入的特征维度是否都等于
        # 中: `embed_dim`：它决定下面的参数布局，也是快速路径的条件之一。
        # EN: `kdim`/`vdim` default to `embed_dim`. `_qkv_same_embed_dim` records whether all three
        # EN: inputs have feature size `embed_dim`: it decides the parameter layout below and is
        # EN: one of the fast-path conditions.
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim

        # 中: 每个头分到 `head_dim = embed_dim // num_heads` 维；除不尽时抛出 `AssertionError`
        # 中: （类型与文字同 torch），这一检查在 `Module.__init__` 之后。
        # EN: Each head gets `head_dim = embed_dim // num_heads` features; if that does not divide
        # EN: evenly, `AssertionError` is raised (torch's type and text), after `Module.__init__`.
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")

        # 中: 两种布局二选一；未使用的名字登记为 None，使属性总是存在。
        # 中: 分开布局时三个矩阵形状各异：`(E, E)`、`(E, kdim)`、
        # 中: `(E, vdim)`，都把输入投影到 `embed_dim`。
        # EN: One of two layouts; the unused names are registered as None so the attributes always
        # EN: exist. In the separate layout the shapes differ: `(E, E)`, `(E, kdim)`, `(E, vdim)`,
        # EN: all projecting into `embed_dim`.
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(torch.empty((embed_dim, embed_dim), **factory_kwargs))
            self.k_proj_weight = Parameter(torch.empty((embed_dim, self.kdim), **factory_kwargs))
            self.v_proj_weight = Parameter(torch.empty((embed_dim, self.vdim), **factory_kwargs))
            self.register_parameter("in_proj_weight", None)
        # 中: 拼接布局：`in_proj_weight` 的三段行依次是 W_q、W_k、W_v（各 `E` 行）。
        # 中: 自注意力时一次矩阵乘法就得到 q、k、v，
        # 中: 再沿最后一维切成三份。
        # EN: Stacked layout: the rows of `in_proj_weight` are W_q, W_k, W_v in that order (`E` rows
        # EN: each). For self-attention one matmul yields q, k and v, then the last dimension is
        # EN: split in three.
        else:
            self.in_proj_weight = Parameter(
                torch.empty((3 * embed_dim, embed_dim), **factory_kwargs)
            )
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)

        # 中: 偏置在两种布局下都是拼接的 `(3E,)`；
        # 中: `bias=False` 同时去掉输出投影的偏置。输出投影是一个 `Linear` 子模块，
        # 中: 它的权重在状态字典里叫 `out_proj.weight`。
        # EN: The bias is the stacked `(3E,)` in both layouts; `bias=False` also drops the output
        # EN: projection's bias. The output projection is a `Linear` submodule, whose weight is
        # EN: `out_proj.weight` in the state_dict.
        if bias:
            self.in_proj_bias = Parameter(torch.empty(3 * embed_dim, **factory_kwargs))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(
            embed_dim, embed_dim, bias=bias, **factory_kwargs
        )

        # 中: `add_bias_kv=True` 时，
        # 中: key/value 序列末尾各追加一个可学习的位置 `(1, 1, E)`。
        # EN: With `add_bias_kv=True`, one learnable position `(1, 1, E)` is appended to the key
        # EN: and value sequences.
        if add_bias_kv:
            self.bias_k = Parameter(torch.empty((1, 1, embed_dim), **factory_kwargs))
            self.bias_v = Parameter(torch.empty((1, 1, embed_dim), **factory_kwargs))
        else:
            # 中: 普通属性而非登记的参数：不会出现在 named_parameters 里。
            # EN: Plain attributes, not registered parameters: they stay out of named_parameters.
            self.bias_k = self.bias_v = None

        self.add_zero_attn = add_zero_attn

        self._reset_parameters()

    def _reset_parameters(self) -> None:
        r"""Initialize projections with Xavier, biases with zeros. / 用 Xavier 初始化投影矩阵，偏置置零。

        === "中文"

            顺序（决定随机数消耗）：输入投影（拼接的或 q/k/v 三个）做 Xavier 均匀初始化；
            有偏置时把 `in_proj_bias` 和 `out_proj.bias` 置零（`out_proj.weight` 保留
            `Linear` 自己的 kaiming 初始化）；最后 `bias_k`、`bias_v` 做 Xavier 正态初始化。
            注意拼接的 `in_proj_weight` 是按 `(3E, E)` 整体计算 fan 的。

        === "English"

            Order (it fixes the random draws): the input projection (stacked, or q/k/v)
            gets Xavier-uniform; with biases, `in_proj_bias` and `out_proj.bias` are zeroed
            (`out_proj.weight` keeps `Linear`'s own kaiming init); finally `bias_k` and
            `bias_v` get Xavier-normal. Note that the stacked `in_proj_weight` computes its
            fans from the whole `(3E, E)` shape.
        """
        # 中: 拼接的 `(3E, E)` 按整体算 fan（fan_in=E，fan_out=3E），
        # 中: 均匀分布的界是 `sqrt(6 / 4E)`；
        # 中: 分开布局的 `(E, E)` 则是 `sqrt(6 / 2E)`。所以两种布局的初始尺度并不相同。
        # EN: The stacked `(3E, E)` takes its fans as a whole (fan_in=E, fan_out=3E), a uniform
        # EN: bound of `sqrt(6 / 4E)`; a separate `(E, E)` gets `sqrt(6 / 2E)`. The two layouts
        # EN: therefore start at different scales.
        if self._qkv_same_embed_dim:
            xavier_uniform_(self.in_proj_weight)
        else:
            xavier_uniform_(self.q_proj_weight)
            xavier_uniform_(self.k_proj_weight)
            xavier_uniform_(self.v_proj_weight)

        # 中: 两个偏置同生同灭（都由 `bias` 决定），所以只看 `in_proj_bias` 就够了；
        # 中: `out_proj.weight` 保留 `Linear` 构造时的 kaiming 初始化。
        # EN: The two biases exist together (both follow `bias`), so testing `in_proj_bias` is
        # EN: enough; `out_proj.weight` keeps the kaiming init `Linear` gave it at construction.
        if self.in_proj_bias is not None:
            constant_(self.in_proj_bias, 0.0)
            constant_(self.out_proj.bias, 0.0)
        # 中: `(1, 1, E)` 的 fan_in 与 fan_out 都是 E，所以 Xavier 正态的标准差是 `1/sqrt(E)`。
        # EN: For `(1, 1, E)` both fans are E, so the Xavier-normal std is `1/sqrt(E)`.
        if self.bias_k is not None:
            xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            xavier_normal_(self.bias_v)

    def __setstate__(self, state):
        r"""Unpickle, defaulting `_qkv_same_embed_dim` for v1.1.0 checkpoints. / 反序列化，为 v1.1.0 的检查点补上 `_qkv_same_embed_dim`。

        === "中文"

            很早的版本没有这个属性，那时只支持拼接布局，所以缺失时补 `True`，
            再交给 [`Module.__setstate__`][annotated_nn.modules.module.Module.__setstate__]。

        === "English"

            Very old versions lacked the attribute and only had the stacked layout, so a
            missing value becomes `True` before
            [`Module.__setstate__`][annotated_nn.modules.module.Module.__setstate__] runs.

        Args:
            state: The pickled `__dict__`. / 被序列化的 `__dict__`。
        """
        if "_qkv_same_embed_dim" not in state:
            state["_qkv_same_embed_dim"] = True

        super().__setstate__(state)

    def forward(
        self,
        query: Tensor,
        key: Tensor,
        value: Tensor,
        key_padding_mask: Tensor | None = None,
        need_weights: bool = True,
        attn_mask: Tensor | None = None,
        average_attn_weights: bool = True,
        is_causal: bool = False,
    ) -> tuple[Tensor, Tensor | None]:
        r"""Compute attention output and (optionally) attention weights. / 计算注意力输出以及（可选的）注意力权重。

        === "中文"

            1. 先记下用户是否传了浮点掩码（浮点掩码不能走快速路径），再用 `F._canonical_mask`
               把两个掩码统一成浮点加性掩码（布尔 `True` 变成 `-inf`）；其他 dtype 的掩码抛出
               `AssertionError`，两个掩码 dtype 不同时只发出“已弃用”警告。
            2. 按 torch 的顺序逐条检查快速路径的条件。条件链中第一条不满足的原因写进
               `why_not_fast_path`（会覆盖第 1 步记下的浮点掩码原因）；全部满足时合并掩码并调用
               `torch._native_multi_head_attention`——但 `bias=False` 时不调用，悄悄落到普通路径。
            3. 否则：`batch_first` 时把输入转成 `(L, N, E)`（转置时保持 query/key/value 之间的
               `is` 关系，函数内部据此决定用几次矩阵乘法做输入投影），调用
               `F.multi_head_attention_forward`，再把输出转回来。

            嵌套张量（NestedTensor）只能走快速路径，走不了时抛出 `AssertionError`，信息里带上
            `why_not_fast_path`（`bias=False` 时它是空的）。

        === "English"

            1. First note whether the caller passed a floating-point mask (those cannot take
               the fast path), then `F._canonical_mask` turns both masks into float additive
               masks (boolean `True` becomes `-inf`); a mask of any other dtype raises
               `AssertionError`, and masks of two different dtypes only get a deprecation
               warning.
            2. The fast-path conditions are tested in torch's order. The first failing
               condition of the chain is recorded in `why_not_fast_path` (overwriting the
               floating-mask reason of step 1); if all hold, the masks are merged and
               `torch._native_multi_head_attention` is called — except with `bias=False`,
               which silently falls through to the ordinary path.
            3. Otherwise, with `batch_first` the inputs are transposed to `(L, N, E)` (keeping
               the `is` relations between query/key/value, from which the function decides
               how many matmuls the input projection takes), `F.multi_head_attention_forward`
               runs, and the output is transposed back.

            Nested tensors only work on the fast path; otherwise an `AssertionError` carries
            `why_not_fast_path` (empty with `bias=False`).

        Args:
            query: `(L, E)`, `(L, N, E)`, or `(N, L, E)` with `batch_first`. / `(L, E)`、`(L, N, E)`，`batch_first` 时为 `(N, L, E)`。
            key: `(S, kdim)` or batched like `query`. / `(S, kdim)`，或像 `query` 一样带批维。
            value: `(S, vdim)` or batched like `query`. / `(S, vdim)`，或像 `query` 一样带批维。
            key_padding_mask: `(N, S)` (or `(S,)`); `True`/added values mark padding keys. / `(N, S)`（或 `(S,)`）；`True` 或加性值标记要忽略的填充 key。
            need_weights: Whether to return attention weights. / 是否返回注意力权重。
            attn_mask: `(L, S)` or `(N*num_heads, L, S)` mask. / 形状 `(L, S)` 或 `(N*num_heads, L, S)` 的掩码。
            average_attn_weights: Average the weights over heads. / 是否对各头的权重取平均。
            is_causal: Hint that `attn_mask` is the causal mask. / 提示 `attn_mask` 是因果掩码。

        Returns:
            `(attn_output, attn_weights)`; weights are `None` unless `need_weights`. / `(attn_output, attn_weights)`；`need_weights` 为假时权重为 `None`。

        Raises:
            AssertionError: Nested tensor input off the fast path. / 嵌套张量输入却不满足快速路径条件。
        """
        # 中: 第 1 步：`why_not_fast_path` 为空串表示快速路径仍然可行，
        # 中: 任何原因文字都会挡住它。浮点掩码的检查必须看用户传入的原始掩码：
        # 中: 下面的规范化会把布尔掩码也变成浮点。
        # EN: Step 1: an empty `why_not_fast_path` means the fast path is still possible; any reason
        # EN: text blocks it. The floating-mask test must look at the caller's original masks: the
        # EN: canonicalization below turns boolean masks into float ones too.
        why_not_fast_path = ""
        # 中: 注意运算符优先级：`and` 先于 `or`，与 torch 原式相同。
        # EN: Mind the precedence: `and` binds before `or`, exactly as in torch's expression.
        if (
            (attn_mask is not None and torch.is_floating_point(attn_mask))
            or (key_padding_mask is not None)
            and torch.is_floating_point(key_padding_mask)
        ):
            why_not_fast_path = "floating-point masks are not supported for fast path."

        # 中: 三维 query 才算有批次维；二维 `(L, E)`
        # 中: 是无批次输入，此时 `batch_first` 被忽略。
        # EN: Only a 3D query is batched; a 2D `(L, E)` is unbatched, and `batch_first` is then
        # EN: ignored.
        is_batched = query.dim() == 3

        # 中: 规范化成 `query.dtype` 的加性浮点掩码（布尔 `True` → `-inf`，浮点掩码原样保留，
        # 中: 其他 dtype 抛出 `AssertionError`）。`key_padding_mask` 还要和 `attn_mask` 的 dtype
        # 中: 比较，不同则发出“已弃用”警告。
        # EN: Canonicalize into additive float masks of `query.dtype` (boolean `True` → `-inf`,
        # EN: float masks kept, other dtypes raise `AssertionError`). `key_padding_mask` is also
        # EN: compared with `attn_mask`'s dtype, with a deprecation warning when they differ.
        key_padding_mask = F._canonical_mask(
            mask=key_padding_mask,
            mask_name="key_padding_mask",
            other_type=F._none_or_dtype(attn_mask),
            other_name="attn_mask",
            target_type=query.dtype,
        )

        # 中: `check_other=False`：两者 dtype 的比较上面已经做过一次，不重复警告。
        # EN: `check_other=False`: the dtype comparison was already made above; no second warning.
        attn_mask = F._canonical_mask(
            mask=attn_mask,
            mask_name="attn_mask",
            other_type=None,
            other_name="",
            target_type=query.dtype,
            check_other=False,
        )

        # 中: 全局开关，可用 `torch.backends.mha.set_fastpath_enabled(False)`
        # 中: 关掉快速路径。
        # EN: The global switch; `torch.backends.mha.set_fastpath_enabled(False)` turns the fast
        # EN: path off.
        is_fastpath_enabled = torch.backends.mha.get_fastpath_enabled()

        # 中: 第 2 步：这一串条件与 torch 逐条相同、顺序相同，所以 why_not_fast_path 的文字也相同。
        # 中: 链中第一条成立的条件会覆盖第 1 步可能写下的浮点掩码原因。前两条：开关；快速路径
        # 中: 只收有批次维的三维输入。
        # EN: Step 2: these conditions match torch one by one and in order, so the recorded reason
        # EN: matches too. The first one that holds overwrites any floating-mask reason from step 1.
        # EN: The first two: the switch; the fast path takes only batched 3D input.
        if not is_fastpath_enabled:
            why_not_fast_path = "torch.backends.mha.get_fastpath_enabled() was not True"
        elif not is_batched:
            why_not_fast_path = (
                f"input not batched; expected query.dim() of 3 but got {query.dim()}"
            )
        # 中: 只对自注意力开放，而且比较的是对象身份（`is`），
        # 中: 数值相等的不同张量不算（torch 的注释说明：
        # 中: 下面的 dtype 检查只看 query）。
        # EN: Open to self-attention only, tested by identity (`is`), so equal but distinct
        # EN: tensors do not count (torch's comment notes that the dtype checks below look at
        # EN: query only).
        elif query is not key or key is not value:
            why_not_fast_path = (
                "non-self attention was used (query, key, and value are not the same Tensor)"
            )
        # 中: dtype 与布局：内核要求 query 与投影参数同 dtype，
        # 中: 并且只接受拼接的 `in_proj_weight`（分开布局时它是 None）。
        # 中: query 与权重 dtype 不同的情况按 torch 的注释反正会失败，
        # 中: 改走普通路径只是为了得到一条有用的错误信息。
        # EN: Dtype and layout: the kernel needs query and the projections in one dtype, and takes
        # EN: only the stacked `in_proj_weight` (None in the separate layout). A query/weight dtype
        # EN: mismatch fails anyway, per torch's comment; the ordinary path just gives a useful
        # EN: error message.
        elif self.in_proj_bias is not None and query.dtype != self.in_proj_bias.dtype:
            why_not_fast_path = f"dtypes of query ({query.dtype}) and self.in_proj_bias ({self.in_proj_bias.dtype}) don't match"
        elif self.in_proj_weight is None:
            why_not_fast_path = "in_proj_weight was None"
        elif query.dtype != self.in_proj_weight.dtype:
            why_not_fast_path = f"dtypes of query ({query.dtype}) and self.in_proj_weight ({self.in_proj_weight.dtype}) don't match"
        # 中: 融合内核只用于推理：它没有 dropout 参数，也没有反向传播公式。
        # 中: 奇数头数被拒绝，torch 代码里没有给出理由
        # 中: （CPU 上的内核本身能跑奇数头数，实测如此）。内核要求批次在前。
        # EN: The fused kernel is inference-only: it has no dropout argument and no backward
        # EN: formula. An odd head count is refused; torch's code gives no reason (the CPU kernel
        # EN: itself runs an odd count, as measured). The kernel wants batch-first input.
        elif self.training:
            why_not_fast_path = "training is enabled"
        elif (self.num_heads % 2) != 0:
            why_not_fast_path = "self.num_heads is not even"
        elif not self.batch_first:
            why_not_fast_path = "batch_first was not True"
        # 中: 内核的参数里没有这些额外的 key/value 位置（`bias_k`/`bias_v`、全零位置），
        # 中: 也没有分开的 q/k/v 权重。
        # EN: The kernel's arguments have no room for the extra key/value positions
        # EN: (`bias_k`/`bias_v`, the zero position), nor for separate q/k/v weights.
        elif self.bias_k is not None:
            why_not_fast_path = "self.bias_k was not None"
        elif self.bias_v is not None:
            why_not_fast_path = "self.bias_v was not None"
        elif self.add_zero_attn:
            why_not_fast_path = "add_zero_attn was enabled"
        elif not self._qkv_same_embed_dim:
            why_not_fast_path = "_qkv_same_embed_dim was not True"
        # 中: 嵌套张量带任何一个掩码都不行。文字照搬 torch，
        # 中: 说的是“同时提供两个掩码”，但条件其实是“任一个”
        # 中: （实测只给 `key_padding_mask` 也会得到这句话）。
        # EN: A nested tensor with either mask is refused. The text, copied from torch, speaks of
        # EN: supplying both masks, but the test is "either" (measured: `key_padding_mask` alone
        # EN: gets this text).
        elif query.is_nested and (key_padding_mask is not None or attn_mask is not None):
            why_not_fast_path = "supplying both src_key_padding_mask and src_mask at the same time \
                                 is not supported with NestedTensor input"
        # 中: 不带参数的 `torch.is_autocast_enabled()` 不反映 CPU 的 autocast：
        # 中: 在 `torch.autocast("cpu")` 下它是 False，快速路径照走（实测）。
        # EN: `torch.is_autocast_enabled()` without an argument does not see CPU autocast: under
        # EN: `torch.autocast("cpu")` it is False and the fast path is still taken (measured).
        elif torch.is_autocast_enabled():
            why_not_fast_path = "autocast is enabled"

        # 中: 第二轮检查只在第一轮全部通过时才做，针对内核会读到的七个张量（`out_proj.bias`
        # 中: 可能是 None，两个辅助函数都把 None 当作合格）。
        # EN: The second round runs only if the first passed entirely, over the seven tensors the
        # EN: kernel would read (`out_proj.bias` may be None; both helpers accept None).
        fast_path_blocked_by_tracing = False
        if not why_not_fast_path:
            tensor_args = (
                query,
                key,
                value,
                # 中: 走到这里时 query、key、value 是同一个张量
                # 中: （第一轮要求了自注意力）。
                # EN: By now query, key and value are one tensor (the first round required
                # EN: self-attention).
                self.in_proj_weight,
                self.in_proj_bias,
                self.out_proj.weight,
                self.out_proj.bias,
            )
            # 中: 重写了 `__torch_function__` 的张量子类或处于激活状态的
            # 中: torch function 模式都会让它为真（普通的 `Parameter` 不会），
            # 中: 这时改走由普通算子组成的路径。
            # 中: 设备检查则把内核限制在 CPU、CUDA 和注册的 privateuse1 后端上。
            # EN: A tensor subclass overriding `__torch_function__`, or an active torch-function
            # EN: mode, makes this true (a plain `Parameter` does not); the path of ordinary ops is
            # EN: taken then. The device check keeps the kernel to CPU, CUDA and the registered
            # EN: privateuse1 backend.
            if torch.overrides.has_torch_function(tensor_args):
                why_not_fast_path = "some Tensor argument has_torch_function"
            elif not all(_check_arg_device(x) for x in tensor_args):
                why_not_fast_path = (
                    "some Tensor argument's device is neither one of "
                    f"cpu, cuda or {torch.utils.backend_registration._privateuse1_backend_name}"
                )
            # 中: 融合内核没有反向传播
            # 中: （调用 backward 会报 "derivative ... is not implemented"），
            # 中: 需要梯度时必须走普通路径。参数默认需要梯度，所以评估模式下也要
            # 中: `torch.no_grad()` 或 `inference_mode()` 才能走快速路径。
            # EN: The fused kernel has no backward (backward reports "derivative ... is not
            # EN: implemented"), so it is skipped whenever gradients are needed. Parameters require
            # EN: grad by default, so even in eval mode the fast path needs `torch.no_grad()` or
            # EN: `inference_mode()`.
            elif torch.is_grad_enabled() and any(_arg_requires_grad(x) for x in tensor_args):
                why_not_fast_path = (
                    "grad is enabled and at least one of query or the "
                    "input/output projection weights or biases requires_grad"
                )
            # 中: 追踪或导出时也不走融合内核；记下这一点，
            # 中: 稍后让普通路径的输出保持连续内存。
            # EN: No fused kernel while tracing or exporting either; remember it, so the ordinary
            # EN: path's output is made contiguous later.
            elif _is_make_fx_tracing():
                why_not_fast_path = "we are running make_fx tracing"
                fast_path_blocked_by_tracing = True
            # 中: 全部通过：把两个掩码合成内核要的一个。
            # EN: All passed: merge the two masks into the one the kernel takes.
            if not why_not_fast_path:
                merged_mask, mask_type = self.merge_masks(attn_mask, key_padding_mask, query)

                # 中: 只有带偏置才真正调用内核（这里 `in_proj_weight` 不可能是 None）：
                # 中: `bias=False` 时已算好的掩码被丢弃，
                # 中: `why_not_fast_path` 仍是空串，悄悄落到下面的普通路径。
                # EN: The kernel is really called only with biases (`in_proj_weight` cannot be None
                # EN: here): with `bias=False` the merged mask is dropped, `why_not_fast_path` stays
                # EN: empty, and control silently falls to the ordinary path below.
                if self.in_proj_bias is not None and self.in_proj_weight is not None:
                    # 中: `is_causal` 不传给内核：
                    # 中: 快速路径上 `is_causal=True` 而不给掩码，
                    # 中: 得到的是非因果的注意力，普通路径则会报错（两者都已实测）。
                    # EN: `is_causal` is not passed to the kernel: on the fast path,
                    # EN: `is_causal=True` without a mask gives non-causal attention, while the
                    # EN: ordinary path raises (both measured).
                    return torch._native_multi_head_attention(
                        query,
                        key,
                        value,
                        self.embed_dim,
                        self.num_heads,
                        # 中: 拼接的输入投影，
                        # 中: 以及输出投影的权重与偏置，按位置传入。
                        # EN: The stacked input projection, then the output projection's weight
                        # EN: and bias, all positional.
                        self.in_proj_weight,
                        self.in_proj_bias,
                        self.out_proj.weight,
                        self.out_proj.bias,
                        # 中: 合并后的掩码与类型码
                        # 中: （None、1 或 2，见 `merge_masks`）；
                        # 中: 返回值与普通路径同形，`need_weights=False` 时权重为 None。
                        # EN: The merged mask and its type code (None, 1 or 2, see
                        # EN: `merge_masks`); the result has the ordinary path's form, with None
                        # EN: weights when `need_weights=False`.
                        merged_mask,
                        need_weights,
                        average_attn_weights,
                        mask_type,
                    )

        # 中: 第 3 步：普通路径。嵌套张量在这里没有实现，
        # 中: 只能报错，并带上没走快速路径的原因。
        # EN: Step 3: the ordinary path. Nested tensors are not implemented here, so it is an
        # EN: error that carries the reason the fast path was missed.
        any_nested = query.is_nested or key.is_nested or value.is_nested
        if any_nested:
            raise AssertionError(
                "MultiheadAttention does not support NestedTensor outside of its fast path. "
                + f"The fast path was not hit because {why_not_fast_path}"
            )

        if self.batch_first and is_batched:
            # 中: `F.multi_head_attention_forward` 要的是序列在前的 `(L, N, E)`，
            # 中: 所以先转置。转置时保留 `is` 关系：
            # 中: 函数内部的拼接投影用 `k is v`、`q is k` 决定做一次、两次还是三次矩阵乘法，
            # 中: 自注意力因此仍只做一次。
            # EN: `F.multi_head_attention_forward` wants sequence-first `(L, N, E)`, so transpose.
            # EN: Keep the `is` relations while transposing: the function's stacked projection
            # EN: tests `k is v` and `q is k` to choose one, two or three matmuls, so
            # EN: self-attention still takes one.
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = (x.transpose(1, 0) for x in (query, key))
                    value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))

        # 中: 分开布局：`in_proj_weight` 是 None，
        # 中: 改用 `use_separate_proj_weight=True` 传入三个矩阵。
        # 中: `in_proj_bias` 照样是拼接的那一个，由函数内部切成三段。
        # EN: Separate layout: `in_proj_weight` is None, so the three matrices go in with
        # EN: `use_separate_proj_weight=True`. `in_proj_bias` is still the stacked one, which the
        # EN: function cuts into three.
        if not self._qkv_same_embed_dim:
            attn_output, attn_output_weights = F.multi_head_attention_forward(
                query,
                key,
                value,
                self.embed_dim,
                self.num_heads,
                # 中: 这里的 `in_proj_weight` 是 None，
                # 中: 只是占住位置参数；函数改用下面三个矩阵。
                # EN: Here `in_proj_weight` is None, merely filling its positional slot; the
                # EN: function uses the three matrices below instead.
                self.in_proj_weight,
                self.in_proj_bias,
                # 中: 普通路径支持快速路径拒绝的一切：`bias_k`/`bias_v`、全零位置，以及
                # 中: `training` 为真时作用在注意力权重上的 dropout。
                # EN: The ordinary path supports all the fast path refuses: `bias_k`/`bias_v`, the
                # EN: zero position, and dropout on the attention weights when `training` is true.
                self.bias_k,
                self.bias_v,
                self.add_zero_attn,
                self.dropout,
                self.out_proj.weight,
                self.out_proj.bias,
                training=self.training,
                # 中: 传入的是第 1 步规范化后的浮点掩码，
                # 中: `is_causal` 在这里才真正被使用。
                # EN: The masks passed are the float ones from step 1; `is_causal` is really used
                # EN: only here.
                key_padding_mask=key_padding_mask,
                need_weights=need_weights,
                attn_mask=attn_mask,
                # 中: 三个分开的矩阵形状各为 `(E, E)`、`(E, kdim)`、`(E, vdim)`。
                # EN: The three separate matrices are `(E, E)`, `(E, kdim)`, `(E, vdim)`.
                use_separate_proj_weight=True,
                q_proj_weight=self.q_proj_weight,
                k_proj_weight=self.k_proj_weight,
                v_proj_weight=self.v_proj_weight,
                average_attn_weights=average_attn_weights,
                is_causal=is_causal,
            )
        # 中: 拼接布局：同样的调用，只是不带三个分开的矩阵。
        # EN: Stacked layout: the same call without the three separate matrices.
        else:
            attn_output, attn_output_weights = F.multi_head_attention_forward(
                query,
                key,
                value,
                self.embed_dim,
                self.num_heads,
                # 中: 这里是拼接的 `(3E, E)` 权重，
                # 中: 由函数按 `is` 关系一次投影或切开使用。
                # EN: Here it is the stacked `(3E, E)` weight, which the function applies in one
                # EN: projection or splits, by the `is` relations.
                self.in_proj_weight,
                self.in_proj_bias,
                self.bias_k,
                self.bias_v,
                self.add_zero_attn,
                self.dropout,
                self.out_proj.weight,
                self.out_proj.bias,
                # 中: 与上一个调用相同，掩码和各开关按关键字传入。
                # EN: As in the call above, masks and flags go by keyword.
                training=self.training,
                key_padding_mask=key_padding_mask,
                need_weights=need_weights,
                attn_mask=attn_mask,
                average_attn_weights=average_attn_weights,
                is_causal=is_causal,
            )
        # 中: 转回批次在前的布局；注意力权重本来就是
        # 中: `(N, L, S)`（或每头一份），不用转置。
        # EN: Back to batch-first; the attention weights are already `(N, L, S)` (or per head)
        # EN: and need no transpose.
        if self.batch_first and is_batched:
            attn_output = attn_output.transpose(1, 0)
            if fast_path_blocked_by_tracing:
                # 中: 追踪时让普通路径的内存布局与即时执行的快速路径一致。
                # EN: While tracing, make the ordinary path's layout match the eager fast path.
                attn_output = attn_output.contiguous()
            return attn_output, attn_output_weights
        else:
            return attn_output, attn_output_weights

    def merge_masks(
        self,
        attn_mask: Tensor | None,
        key_padding_mask: Tensor | None,
        query: Tensor,
    ) -> tuple[Tensor | None, int | None]:
        r"""Merge the two masks into one for the fused kernel. / 为融合内核把两个掩码合成一个。

        === "中文"

            返回 `(merged_mask, mask_type)`：只有填充掩码时类型为 1，原样返回；有注意力掩码时
            类型为 2，扩展成四维 `(N, num_heads, L, L)`，若两者都有则相加。
            两者都没有时返回 `(None, None)`。只在快速路径上调用；那里带掩码的嵌套 query 已被拒绝，
            所以只有在 query 是普通的 `(N, L, E)` 张量时才会读取它的形状。

        === "English"

            Returns `(merged_mask, mask_type)`: with only a padding mask the type is 1 and the
            mask is returned as is; with an attention mask the type is 2 and it is expanded to
            4D `(N, num_heads, L, L)`, plus the padding mask when both are given. With neither,
            `(None, None)`. Only called on the fast path, where a nested query with a mask has
            already been refused, so the shape is read only from a plain `(N, L, E)` query.

        Args:
            attn_mask: `(L, L)` or `(N*num_heads, L, L)` float mask, or `None`. / 浮点掩码或 `None`。
            key_padding_mask: `(N, L)` float mask, or `None`. / `(N, L)` 浮点掩码或 `None`。
            query: The query, used for its shape. / query 张量，只用其形状。

        Returns:
            `(merged_mask, mask_type)`. / `(merged_mask, mask_type)`。
        """
        # 中: 内核的类型码：None 表示没有掩码，1 表示 `(N, L)` 的填充掩码，2 表示四维的完整掩码。
        # 中: torch 的文档字符串还提到类型 0，但这段代码从不返回 0。
        # EN: The kernel's type code: None for no mask, 1 for an `(N, L)` padding mask, 2 for a full
        # EN: 4D mask. torch's docstring also mentions type 0, but this code never returns 0.
        mask_type: int | None = None
        merged_mask: Tensor | None = None

        # 中: 只有填充掩码时原样交出。
        # EN: A padding mask alone is handed over as is.
        if key_padding_mask is not None:
            mask_type = 1
            merged_mask = key_padding_mask

        # 中: 一旦有注意力掩码，类型就是 2。这里 query 不可能是嵌套张量，所以能取形状。
        # EN: Any attention mask makes the type 2. Here query cannot be nested, so it has a shape.
        if attn_mask is not None:
            batch_size, seq_len, _ = query.shape
            mask_type = 2

            # 中: 注意力掩码总是扩展为四维 `(N, H, L, L)`：
            # 中: 三维的 `(N*H, L, L)` 用 `view` 拆开（第 0 维按“批次在外、头在内”排列）；
            # 中: 二维的 `(L, L)` 用 `expand` 广播，不复制数据。
            # EN: The attention mask is always expanded to 4D `(N, H, L, L)`: a 3D `(N*H, L, L)` is
            # EN: split with `view` (dimension 0 runs batch-major, head-minor); a 2D `(L, L)` is
            # EN: broadcast with `expand`, copying no data.
            if attn_mask.dim() == 3:
                attn_mask_expanded = attn_mask.view(batch_size, -1, seq_len, seq_len)
            else:
                attn_mask_expanded = attn_mask.view(1, 1, seq_len, seq_len).expand(
                    batch_size, self.num_heads, -1, -1
                )
            merged_mask = attn_mask_expanded

            # 中: 两者都有时，把填充掩码广播到每个头、
            # 中: 每个 query 位置后相加。二者都是加性浮点掩码（被屏蔽处为 `-inf`），
            # 中: 相加就相当于对“被屏蔽”取逻辑或。
            # EN: With both, the padding mask is broadcast over heads and query positions and
            # EN: added. Both are additive float masks (`-inf` where blocked), so adding acts as a
            # EN: logical OR of "blocked".
            if key_padding_mask is not None:
                key_padding_mask_expanded = key_padding_mask.view(batch_size, 1, 1, seq_len).expand(
                    -1, self.num_heads, -1, -1
                )
                merged_mask = attn_mask_expanded + key_padding_mask_expanded

        return merged_mask, mask_type


class PReLU(Module):
    r"""LeakyReLU whose negative slope is learned. / 负半轴斜率可学习的 LeakyReLU。

    === "中文"

        斜率是参数（parameter）`weight`，可以全体共享一个（`num_parameters=1`），
        也可以每个通道一个。注意 torch 在调用 `Module.__init__` 之前就设置了
        `num_parameters`，这里保持同样顺序。

    === "English"

        The slope is the parameter `weight`, either one shared value (`num_parameters=1`)
        or one per channel. torch sets `num_parameters` before calling `Module.__init__`;
        the same order is kept here.

    Examples:
        >>> import annotated_nn as nn
        >>> nn.PReLU(3).weight
        Parameter containing:
        tensor([0.2500, 0.2500, 0.2500], requires_grad=True)
    """

    __constants__ = ["num_parameters"]
    num_parameters: int

    def __init__(
        self, num_parameters: int = 1, init: float = 0.25, device=None, dtype=None
    ) -> None:
        r"""Create the slope parameter and fill it with `init`. / 创建斜率参数并填充为 `init`。

        === "中文"

            `init` 既是构造参数，也保存为属性 `self.init`，供
            [`reset_parameters`][annotated_nn.modules.activation.PReLU.reset_parameters] 使用。
            1.5.1 → 2.13：新增 `device`/`dtype`。

        === "English"

            `init` is both a constructor argument and the attribute `self.init` used by
            [`reset_parameters`][annotated_nn.modules.activation.PReLU.reset_parameters].
            1.5.1 → 2.13: `device`/`dtype` were added.

        Args:
            num_parameters: 1, or the number of input channels. / 1 或输入通道数。
            init: Initial slope. / 初始斜率。
            device: Device of the new parameter. / 新参数所在设备。
            dtype: Dtype of the new parameter. / 新参数的数据类型。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        # 中: 在 Module.__init__ 之前赋普通属性是允许的：__setattr__ 只对参数/模块/缓冲区要求
        # 中: 先初始化。
        # EN: A plain attribute may be set before Module.__init__: __setattr__ only needs init
        # EN: for parameters, modules, buffers.
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(torch.empty(num_parameters, **factory_kwargs))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        r"""Fill the slope with `self.init`. / 把斜率填充为 `self.init`。

        === "中文"

            确定性初始化，不消耗随机数。

        === "English"

            Deterministic; draws no random numbers.
        """
        constant_(self.weight, self.init)

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply PReLU; channels are dimension 1. / 应用 PReLU；通道为第 1 维。

        === "中文"

            直接把输入交给 `F.prelu` 计算。

        === "English"

            Hands the input straight to `F.prelu`.

        Args:
            input: Any shape; dim 1 must equal `num_parameters` unless it is 1. / 任意形状；`num_parameters` 不为 1 时第 1 维须等于它。

        Returns:
            Same shape as `input`. / 与 `input` 同形状。
        """
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        r"""Show `num_parameters`. / 显示 `num_parameters`。

        === "中文"

            不显示初始值 `init`。

        === "English"

            `init` is not shown.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        return f"num_parameters={self.num_parameters}"


class Softsign(Module):
    r"""Softsign, `x / (1 + |x|)`. / 软符号函数 `x / (1 + |x|)`。

    === "中文"

        与 tanh 形状相似，但趋近 ±1 的速度更慢。没有构造参数。

    === "English"

        Shaped like tanh but approaching ±1 more slowly. No constructor arguments.
    """

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply softsign elementwise. / 逐元素应用 softsign。

        === "中文"

            直接把输入交给 `F.softsign` 计算。

        === "English"

            Hands the input straight to `F.softsign`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape, values in (-1, 1). / 同形状，取值在 (-1, 1)。
        """
        return F.softsign(input)


class Tanhshrink(Module):
    r"""Tanhshrink, `x - tanh(x)`. / tanh 收缩 `x - tanh(x)`。

    === "中文"

        没有构造参数，直接沿用 `Module.__init__`。

    === "English"

        No constructor arguments; `Module.__init__` is used as is.
    """

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply tanhshrink elementwise. / 逐元素应用 tanhshrink。

        === "中文"

            直接把输入交给 `F.tanhshrink` 计算。

        === "English"

            Hands the input straight to `F.tanhshrink`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape as `input`. / 与 `input` 同形状。
        """
        return F.tanhshrink(input)


class Softmin(Module):
    r"""Softmin along `dim`: `softmax(-x)`. / 沿 `dim` 的 softmin，即 `softmax(-x)`。

    === "中文"

        与 [`Softmax`][annotated_nn.modules.activation.Softmax] 的结构完全相同，包括
        `__setstate__` 和 `_stacklevel=5`。

    === "English"

        Built exactly like [`Softmax`][annotated_nn.modules.activation.Softmax], including
        `__setstate__` and `_stacklevel=5`.
    """

    __constants__ = ["dim"]
    dim: int | None

    def __init__(self, dim: int | None = None) -> None:
        r"""Store `dim`. / 保存 `dim`。

        === "中文"

            `None` 表示让 `F.softmin` 按旧规则推断并发出警告。

        === "English"

            `None` lets `F.softmin` guess by a legacy rule, with a warning.

        Args:
            dim: Dimension to normalize over. / 做归一化的维度。
        """
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        r"""Unpickle, adding `dim = None` for very old pickles. / 反序列化，为很旧的 pickle 补上 `dim = None`。

        === "中文"

            与 `Softmax.__setstate__` 的做法完全相同。

        === "English"

            As `Softmax.__setstate__`.

        Args:
            state: The pickled `__dict__`. / 被序列化的 `__dict__`。
        """
        super().__setstate__(state)
        if not hasattr(self, "dim"):
            self.dim = None

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply softmin along `self.dim`. / 沿 `self.dim` 应用 softmin。

        === "中文"

            直接把输入交给 `F.softmin` 计算。

        === "English"

            Hands the input straight to `F.softmin`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape; sums to 1 along `dim`. / 同形状，沿 `dim` 求和为 1。
        """
        return F.softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        r"""Show `dim`. / 显示 `dim`。

        === "中文"

            输出形如 `dim=1`。

        === "English"

            The result looks like `dim=1`.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        return f"dim={self.dim}"


class Softmax(Module):
    r"""Softmax along `dim`. / 沿 `dim` 做 softmax。

    === "中文"

        `dim=None` 时 `F.softmax` 会按旧规则推断维度并发出警告。`_stacklevel=5`（与 torch 相同）
        越过发出警告的辅助函数、`F.softmax`、`forward` 和 `_call_impl`，落在 `module.py` 的
        `_wrapped_call_impl` 上——离用户代码还差一层（torch 2.13 实测也是如此）。

    === "English"

        With `dim=None`, `F.softmax` guesses the dimension by a legacy rule and warns.
        `_stacklevel=5` (as in torch) skips the warning helper, `F.softmax`, `forward` and
        `_call_impl`, landing on `_wrapped_call_impl` in `module.py` — one frame short of
        user code (torch 2.13 measures the same).

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.Softmax(dim=-1)(torch.zeros(2)).tolist()
        [0.5, 0.5]
    """

    __constants__ = ["dim"]
    dim: int | None

    def __init__(self, dim: int | None = None) -> None:
        r"""Store `dim`. / 保存 `dim`。

        === "中文"

            只记录维度。

        === "English"

            Only records the dimension.

        Args:
            dim: Dimension to normalize over. / 做归一化的维度。
        """
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        r"""Unpickle, adding `dim = None` for very old pickles. / 反序列化，为很旧的 pickle 补上 `dim = None`。

        === "中文"

            早期的 Softmax 没有 `dim` 属性；这里在恢复后补上，使旧对象能继续工作。

        === "English"

            Early Softmax objects had no `dim`; it is added after restoring so that old
            objects keep working.

        Args:
            state: The pickled `__dict__`. / 被序列化的 `__dict__`。
        """
        super().__setstate__(state)
        if not hasattr(self, "dim"):
            self.dim = None

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply softmax along `self.dim`. / 沿 `self.dim` 应用 softmax。

        === "中文"

            直接把输入交给 `F.softmax` 计算。

        === "English"

            Hands the input straight to `F.softmax`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape; sums to 1 along `dim`. / 同形状，沿 `dim` 求和为 1。
        """
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        r"""Show `dim`. / 显示 `dim`。

        === "中文"

            例如 `dim=1`，未指定时为 `dim=None`。

        === "English"

            E.g. `dim=1`, or `dim=None` when unset.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        return f"dim={self.dim}"


class Softmax2d(Module):
    r"""Softmax over channels at every spatial location. / 在每个空间位置上对通道做 softmax。

    === "中文"

        相当于 `Softmax(dim=-3)`，但先检查输入是三维 `(C, H, W)` 或四维 `(N, C, H, W)`。

    === "English"

        Equivalent to `Softmax(dim=-3)`, after checking that the input is 3D `(C, H, W)` or
        4D `(N, C, H, W)`.
    """

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply softmax over the channel dimension. / 在通道维上应用 softmax。

        === "中文"

            维数不对时抛出 `ValueError`，信息与 torch 相同。

        === "English"

            A wrong rank raises `ValueError` with torch's message.

        Args:
            input: `(C, H, W)` or `(N, C, H, W)`. / 形状 `(C, H, W)` 或 `(N, C, H, W)`。

        Returns:
            Same shape; sums to 1 over channels. / 同形状，沿通道求和为 1。

        Raises:
            ValueError: Input not 3D or 4D. / 输入不是三维或四维。
        """
        if input.dim() not in (3, 4):
            raise ValueError(
                f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead"
            )
        return F.softmax(input, -3, _stacklevel=5)


class LogSoftmax(Module):
    r"""Log of softmax along `dim`, computed stably. / 沿 `dim` 的 softmax 对数，数值稳定地计算。

    === "中文"

        常与 `NLLLoss` 搭配；二者合起来等价于 `CrossEntropyLoss`。

    === "English"

        Usually paired with `NLLLoss`; together they equal `CrossEntropyLoss`.
    """

    __constants__ = ["dim"]
    dim: int | None

    def __init__(self, dim: int | None = None) -> None:
        r"""Store `dim`. / 保存 `dim`。

        === "中文"

            只记录维度。

        === "English"

            Only records the dimension.

        Args:
            dim: Dimension to normalize over. / 做归一化的维度。
        """
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        r"""Unpickle, adding `dim = None` for very old pickles. / 反序列化，为很旧的 pickle 补上 `dim = None`。

        === "中文"

            与 `Softmax.__setstate__` 的做法完全相同。

        === "English"

            As `Softmax.__setstate__`.

        Args:
            state: The pickled `__dict__`. / 被序列化的 `__dict__`。
        """
        super().__setstate__(state)
        if not hasattr(self, "dim"):
            self.dim = None

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply log-softmax along `self.dim`. / 沿 `self.dim` 应用 log-softmax。

        === "中文"

            直接把输入交给 `F.log_softmax` 计算。

        === "English"

            Hands the input straight to `F.log_softmax`.

        Args:
            input: Any shape. / 任意形状。

        Returns:
            Same shape as `input`. / 与 `input` 同形状。
        """
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        r"""Show `dim`. / 显示 `dim`。

        === "中文"

            输出形如 `dim=1`。

        === "English"

            The result looks like `dim=1`.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        return f"dim={self.dim}"
