r"""Linear layers: `Identity`, `Linear`, `Bilinear`, `LazyLinear`. / 线性层：`Identity`、`Linear`、`Bilinear`、`LazyLinear`。

=== "中文"

    这是最简单的一族带参数（parameter）的层，也是理解其余各层的模板：`__init__` 用
    `torch.empty` 分配参数再调用 `reset_parameters` 初始化；`forward` 把输入和参数
    交给 `torch.nn.functional` 中对应的函数；`extra_repr` 给出 `repr` 括号里的内容。

=== "English"

    The simplest family of layers with parameters, and the template for the others: `__init__`
    allocates parameters with `torch.empty` and then calls `reset_parameters`; `forward` hands
    the input and the parameters to the matching `torch.nn.functional` function; `extra_repr`
    supplies what goes inside the parentheses of `repr`.
"""

import math
from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor

from annotated_nn import init
from annotated_nn.parameter import Parameter, UninitializedParameter

from .lazy import LazyModuleMixin
from .module import Module

__all__ = [
    "Bilinear",
    "Identity",
    "LazyLinear",
    "Linear",
]


class Identity(Module):
    r"""A placeholder layer that returns its input unchanged. / 原样返回输入的占位层。

    === "中文"

        常用来"拿掉"网络中的某一层而不改动网络结构，例如把预训练模型的分类头换成
        `Identity()` 以取出特征。构造时接受并忽略任意参数，这样可以直接替换任何层的构造调用。

    === "English"

        Handy for "removing" a layer without changing a network's structure, e.g. replacing a
        pretrained model's classifier head with `Identity()` to get features. It accepts and
        ignores any constructor arguments, so it can stand in for any layer's construction call.

    Args:
        *args: Ignored. / 忽略。
        **kwargs: Ignored. / 忽略。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> x = torch.randn(2, 3)
        >>> nn.Identity(54, unused="argument")(x) is x
        True
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        r"""Build the module, ignoring all arguments. / 构造模块，忽略所有参数。

        === "中文"

            只调用 `Module.__init__`，没有参数也没有缓冲区（buffer）。

        === "English"

            Only calls `Module.__init__`; there are no parameters and no buffers.

        Args:
            *args: Ignored. / 忽略。
            **kwargs: Ignored. / 忽略。
        """
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        r"""Return `input` itself. / 返回 `input` 本身。

        === "中文"

            返回的是同一个对象，不是拷贝。

        === "English"

            The very same object is returned, not a copy.

        Args:
            input: Any tensor. / 任意张量。

        Returns:
            `input`. / `input` 本身。
        """
        return input


class Linear(Module):
    r"""Affine map `y = x W^T + b` over the last dimension. / 在最后一维上做仿射变换 `y = x W^T + b`。

    === "中文"

        `weight` 的形状是 `(out_features, in_features)`，即"输出在前"，因此计算时用转置
        `W^T`。`bias` 形状为 `(out_features,)`，`bias=False` 时登记为 None（仍在
        `_parameters` 中占位，`state_dict` 不含它）。输入形状 `(*, in_features)`，
        输出 `(*, out_features)`，前面任意多维原样保留。

        初始化：权重与偏置都服从 `U(-1/sqrt(in_features), 1/sqrt(in_features))`，
        权重通过 `kaiming_uniform_(a=sqrt(5))` 得到，见 Note [Why a=sqrt(5)]。

    === "English"

        `weight` has shape `(out_features, in_features)`, "outputs first", hence the transpose
        `W^T` in the formula. `bias` has shape `(out_features,)`; with `bias=False` it is
        registered as None (the slot exists in `_parameters`, but `state_dict` leaves it out).
        Input `(*, in_features)` gives output `(*, out_features)`; any leading dimensions are kept.

        Initialization: weight and bias are drawn from `U(-1/sqrt(in_features),
        1/sqrt(in_features))`; the weight via `kaiming_uniform_(a=sqrt(5))`, see
        Note [Why a=sqrt(5)].

    Note: Note [Why a=sqrt(5)] 为什么是 a=sqrt(5)
        === "中文"

            `kaiming_uniform_` 的上界是 `gain * sqrt(3 / fan_in)`，其中 leaky_relu 的
            `gain = sqrt(2 / (1 + a^2))`。取 `a = sqrt(5)` 时 `gain = sqrt(1/3)`，上界化简为
            `1 / sqrt(fan_in)`——正是早期 PyTorch（Lua Torch 传统）的默认初始化。
            这个写法保留了旧的数值，又复用了 init 模块的函数。

        === "English"

            `kaiming_uniform_` uses the bound `gain * sqrt(3 / fan_in)`, with leaky_relu's
            `gain = sqrt(2 / (1 + a^2))`. With `a = sqrt(5)`, `gain = sqrt(1/3)` and the bound
            becomes `1 / sqrt(fan_in)`: the default of early PyTorch (inherited from Lua Torch).
            The formulation keeps the old numbers while reusing the init module's functions.

    Args:
        in_features: Size of each input sample. / 每个输入样本的大小。
        out_features: Size of each output sample. / 每个输出样本的大小。
        bias: Whether to learn an additive bias. / 是否学习加性偏置。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> m = nn.Linear(20, 30)
        >>> m(torch.randn(128, 20)).shape
        torch.Size([128, 30])
        >>> m
        Linear(in_features=20, out_features=30, bias=True)
    """

    __constants__ = ["in_features", "out_features"]
    in_features: int
    out_features: int
    weight: Tensor

    def __init__(
        self,
        in_features: int,
        out_features: int,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        r"""Allocate `weight` (and `bias`) and initialize them. / 分配 `weight`（与 `bias`）并初始化。

        === "中文"

            先用 `torch.empty` 分配未初始化的内存，再统一交给 `reset_parameters` 填值：
            这样重新初始化与首次初始化走同一条路径。`device`/`dtype` 作为工厂参数
            直接传给 `torch.empty`，参数一开始就建在目标设备上（例如 `meta`）。
            1.5.1 → 2.13：新增 `device` 与 `dtype` 参数。

        === "English"

            Memory is first allocated uninitialized with `torch.empty`, then `reset_parameters`
            fills it, so re-initialization and the first initialization share one path.
            `device`/`dtype` are factory arguments passed straight to `torch.empty`, so the
            parameters are born on the target device (e.g. `meta`).
            1.5.1 → 2.13: the `device` and `dtype` arguments were added.

        Args:
            in_features: Size of each input sample. / 每个输入样本的大小。
            out_features: Size of each output sample. / 每个输出样本的大小。
            bias: Whether to learn an additive bias. / 是否学习加性偏置。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        # 中: `factory_kwargs` 交给每一次 `torch.empty`，参数一创建就在目标设备上、是目标数据类型；
        # 中: 在 meta 设备上只记录形状，不分配内存。
        # EN: `factory_kwargs` go to every `torch.empty`, so the parameters are created on the
        # EN: target device with the target dtype; on the meta device only the shape is recorded,
        # EN: no memory.
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        # 中: 尺寸存为普通属性，`extra_repr` 读取它们；`__constants__` 也列出它们，供 TorchScript 当作常量。
        # EN: The sizes are plain attributes that `extra_repr` reads; `__constants__` lists them
        # EN: too, so TorchScript treats them as constants.
        self.in_features = in_features
        self.out_features = out_features
        # 中: 形状 `(out_features, in_features)`，因此 `F.linear` 计算 `x @ W^T`。`torch.empty` 只分配、不填值，
        # 中: 数值由末尾的 `reset_parameters` 写入。
        # EN: Shape `(out_features, in_features)`, hence `x @ W^T` in `F.linear`. `torch.empty` only
        # EN: allocates; the values are written by `reset_parameters` at the end.
        self.weight = Parameter(torch.empty((out_features, in_features), **factory_kwargs))
        if bias:
            self.bias = Parameter(torch.empty(out_features, **factory_kwargs))
        else:
            # 中: 登记一个 None 参数，使 `self.bias` 总能访问（值为 None），forward 无需分支。
            # EN: Register a None parameter so `self.bias` always exists (as None) and forward needs
            # EN: no branch.
            self.register_parameter("bias", None)
        # 中: 初始化放在最后，此时两个参数都已登记。调用走的是 `self.reset_parameters`，所以子类可以重写它：
        # 中: `LazyLinear` 就借此在构造期间跳过初始化。
        # EN: Initialization comes last, once both parameters are registered. The call goes through
        # EN: `self.reset_parameters`, so a subclass can override it: `LazyLinear` uses this to skip
        # EN: initialization during construction.
        self.reset_parameters()

    def reset_parameters(self) -> None:
        r"""Re-draw `weight` and `bias` from their default distributions. / 按默认分布重新抽取 `weight` 与 `bias`。

        === "中文"

            调用顺序（先权重后偏置）决定随机数的消耗顺序；与 torch 保持一致，才能在同一
            随机种子下得到逐位相同的权重。`fan_in` 为 0（`in_features=0`）时上界取 0，
            避免除以零。

        === "English"

            The call order (weight, then bias) fixes the order in which random numbers are
            consumed; matching torch's order is what gives bit-identical weights for one seed.
            With `fan_in` 0 (`in_features=0`) the bound is 0, avoiding a division by zero.
        """
        # 中: 权重：上界 `gain * sqrt(3 / fan_in)` 在 `a=sqrt(5)` 时化简为 1/sqrt(in_features)，
        # 中: 见 Note [Why a=sqrt(5)]。`in_features=0` 时权重没有元素，`kaiming_uniform_` 只发出
        # 中: "Initializing zero-element tensors is a no-op" 警告。
        # EN: Weight: the bound `gain * sqrt(3 / fan_in)` works out to 1/sqrt(in_features) with
        # EN: `a=sqrt(5)`; see Note [Why a=sqrt(5)]. With `in_features=0` the weight has no elements
        # EN: and `kaiming_uniform_` only warns "Initializing zero-element tensors is a no-op".
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        # 中: 偏置用同一个上界 1/sqrt(fan_in)，fan_in 由权重形状算出（即 `weight.size(1)` = `in_features`）。
        # 中: fan_in 为 0 时上界取 0，偏置全为 0，而不是除以零。
        # EN: The bias takes the same bound 1/sqrt(fan_in), with fan_in computed from the weight's
        # EN: shape (`weight.size(1)`, i.e. `in_features`). A fan_in of 0 gives the bound 0, so an
        # EN: all-zero bias instead of a division by zero.
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        r"""Compute `input @ weight.T + bias` with `F.linear`. / 用 `F.linear` 计算 `input @ weight.T + bias`。

        === "中文"

            `F.linear` 在一个内核中完成矩阵乘与加偏置，`bias` 为 None 时只做矩阵乘。

        === "English"

            `F.linear` does the matrix product and the bias add in one kernel; with `bias`
            None it only multiplies.

        Args:
            input: Tensor of shape `(*, in_features)`. / 形状为 `(*, in_features)` 的张量。

        Returns:
            Tensor of shape `(*, out_features)`. / 形状为 `(*, out_features)` 的张量。
        """
        # 中: 参数在每次调用时才从模块上读取，所以构造后替换的 `self.weight`/`self.bias` 会立即生效。
        # EN: The parameters are read from the module at every call, so a `self.weight`/`self.bias`
        # EN: replaced after construction takes effect at once.
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        r"""Describe the sizes and whether there is a bias. / 描述尺寸以及是否有偏置。

        === "中文"

            `Module.__repr__` 把这个字符串放进 `Linear(...)` 的括号里。

        === "English"

            `Module.__repr__` puts this string inside the parentheses of `Linear(...)`.

        Returns:
            E.g. `"in_features=20, out_features=30, bias=True"`. / 例如 `"in_features=20, out_features=30, bias=True"`。
        """
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class NonDynamicallyQuantizableLinear(Linear):
    r"""A `Linear` that dynamic quantization must leave alone. / 动态量化时必须跳过的 `Linear`。

    === "中文"

        行为与 `Linear` 完全相同，只是换了一个类名。`MultiheadAttention` 用它作输出投影：
        该层的权重由注意力内核直接读取，不能被动态量化替换，单独的类名让量化工具能识别并跳过它。
        不在 `torch.nn` 顶层导出。

    === "English"

        Behaves exactly like `Linear`; only the class name differs. `MultiheadAttention` uses it
        for its output projection, whose weight the attention kernel reads directly, so dynamic
        quantization must not swap it out; the separate class name lets quantization tools
        recognize and skip it. Not exported at the top level of `torch.nn`.

    Args:
        in_features: Size of each input sample. / 每个输入样本的大小。
        out_features: Size of each output sample. / 每个输出样本的大小。
        bias: Whether to learn an additive bias. / 是否学习加性偏置。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。
    """

    def __init__(
        self,
        in_features: int,
        out_features: int,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        r"""Build it exactly as `Linear`. / 与 `Linear` 完全相同地构造。

        === "中文"

            原样转交给 `Linear.__init__`。

        === "English"

            Passes everything on to `Linear.__init__` unchanged.

        Args:
            in_features: Size of each input sample. / 每个输入样本的大小。
            out_features: Size of each output sample. / 每个输出样本的大小。
            bias: Whether to learn an additive bias. / 是否学习加性偏置。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        super().__init__(in_features, out_features, bias=bias, device=device, dtype=dtype)


class Bilinear(Module):
    r"""Bilinear map `y_k = x1^T W_k x2 + b_k`. / 双线性变换 `y_k = x1^T W_k x2 + b_k`。

    === "中文"

        `weight` 形状为 `(out_features, in1_features, in2_features)`：每个输出通道 k
        有一个矩阵 `W_k`。输入 `(*, in1_features)` 与 `(*, in2_features)`，输出
        `(*, out_features)`。权重与偏置都服从 `U(-1/sqrt(in1_features), 1/sqrt(in1_features))`。

    === "English"

        `weight` has shape `(out_features, in1_features, in2_features)`: one matrix `W_k` per
        output channel k. Inputs `(*, in1_features)` and `(*, in2_features)` give an output of
        `(*, out_features)`. Weight and bias are drawn from
        `U(-1/sqrt(in1_features), 1/sqrt(in1_features))`.

    Args:
        in1_features: Size of each first input sample. / 第一个输入每个样本的大小。
        in2_features: Size of each second input sample. / 第二个输入每个样本的大小。
        out_features: Size of each output sample. / 每个输出样本的大小。
        bias: Whether to learn an additive bias. / 是否学习加性偏置。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> m = nn.Bilinear(20, 30, 40)
        >>> m(torch.randn(128, 20), torch.randn(128, 30)).shape
        torch.Size([128, 40])
    """

    __constants__ = ["in1_features", "in2_features", "out_features"]
    in1_features: int
    in2_features: int
    out_features: int
    weight: Tensor

    def __init__(
        self,
        in1_features: int,
        in2_features: int,
        out_features: int,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        r"""Allocate `weight` (and `bias`) and initialize them. / 分配 `weight`（与 `bias`）并初始化。

        === "中文"

            结构与 `Linear.__init__` 相同：先 `torch.empty` 分配，再 `reset_parameters`。

        === "English"

            Same shape as `Linear.__init__`: allocate with `torch.empty`, then `reset_parameters`.

        Args:
            in1_features: Size of each first input sample. / 第一个输入每个样本的大小。
            in2_features: Size of each second input sample. / 第二个输入每个样本的大小。
            out_features: Size of each output sample. / 每个输出样本的大小。
            bias: Whether to learn an additive bias. / 是否学习加性偏置。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        # 中: 与 `Linear` 相同：参数直接建在 `device`/`dtype` 上；三个尺寸存为属性，供 `extra_repr` 读取。
        # EN: As in `Linear`: parameters are created on `device`/`dtype`; the three sizes become
        # EN: attributes that `extra_repr` reads.
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        # 中: 三维权重：`out_features` 个 `(in1_features, in2_features)` 矩阵叠在一起，第 k 个就是 `W_k`。
        # EN: A 3-D weight: `out_features` matrices of shape `(in1_features, in2_features)` stacked,
        # EN: the k-th one being `W_k`.
        self.weight = Parameter(
            torch.empty((out_features, in1_features, in2_features), **factory_kwargs)
        )

        # 中: 偏置与 `Linear` 一样：要么 `(out_features,)`，要么登记 None 占位；最后统一初始化。
        # EN: The bias is as in `Linear`: either `(out_features,)` or a registered None; then one
        # EN: initialization for both.
        if bias:
            self.bias = Parameter(torch.empty(out_features, **factory_kwargs))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        r"""Re-draw `weight` and `bias` uniformly. / 均匀分布重新抽取 `weight` 与 `bias`。

        === "中文"

            上界取 `1/sqrt(in1_features)`（`weight.size(1)`）。`in1_features` 不为正时
            无法算出上界，抛出 `ValueError`；这个检查发生在构造时调用本方法的那一刻。

        === "English"

            The bound is `1/sqrt(in1_features)` (`weight.size(1)`). A non-positive
            `in1_features` gives no bound and raises `ValueError`; the check fires when the
            constructor calls this method.

        Raises:
            ValueError: `in1_features <= 0`. / `in1_features <= 0`。
        """
        # 中: 先拒绝 `in1_features <= 0`：0 会让下面的 `1 / sqrt` 除以零（`Linear` 则把上界退化为 0）。
        # 中: 报错文本与 torch 相同。
        # EN: Refuse `in1_features <= 0` first: 0 would divide by zero in `1 / sqrt` below (`Linear`
        # EN: falls back to a bound of 0 instead). The message is torch's.
        if self.in1_features <= 0:
            raise ValueError(
                f"in1_features must be > 0, but got (in1_features={self.in1_features})"
            )
        # 中: 与 `Linear` 不同，这里不用 `kaiming_uniform_`：权重与偏置都直接取 `U(-b, b)`，
        # 中: `b = 1/sqrt(weight.size(1))` = 1/sqrt(in1_features)。只有 `in1_features` 计入；
        # 中: `_calculate_fan_in_and_fan_out` 对这个三维权重会给出 `in1_features * in2_features`。
        # EN: Unlike `Linear`, no `kaiming_uniform_`: weight and bias are both drawn from `U(-b, b)`
        # EN: with `b = 1/sqrt(weight.size(1))` = 1/sqrt(in1_features). Only `in1_features` counts;
        # EN: `_calculate_fan_in_and_fan_out` would give `in1_features * in2_features` for this
        # EN: 3-D weight.
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        r"""Apply the bilinear map with `F.bilinear`. / 用 `F.bilinear` 计算双线性变换。

        === "中文"

            两个输入除最后一维外形状必须一致。

        === "English"

            The two inputs must agree in every dimension but the last.

        Args:
            input1: Tensor `(*, in1_features)`. / 张量 `(*, in1_features)`。
            input2: Tensor `(*, in2_features)`. / 张量 `(*, in2_features)`。

        Returns:
            Tensor `(*, out_features)`. / 张量 `(*, out_features)`。
        """
        # 中: `F.bilinear` 对每个 k 计算 `x1^T W_k x2 + b_k`，一次调用得到全部 `out_features` 个输出。
        # EN: `F.bilinear` computes `x1^T W_k x2 + b_k` for every k, all `out_features` outputs in
        # EN: one call.
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        r"""Describe the three sizes and whether there is a bias. / 描述三个尺寸以及是否有偏置。

        === "中文"

            `Module.__repr__` 把这个字符串放进 `Bilinear(...)` 的括号里。

        === "English"

            `Module.__repr__` puts this string inside the parentheses of `Bilinear(...)`.

        Returns:
            The description string. / 描述字符串。
        """
        return (
            f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
            f"out_features={self.out_features}, bias={self.bias is not None}"
        )


class LazyLinear(LazyModuleMixin, Linear):
    r"""A `Linear` whose `in_features` comes from the first input. / `in_features` 由第一次输入决定的 `Linear`。

    === "中文"

        构造时 `in_features` 记为 0，`weight`（和 `bias`）是 `UninitializedParameter`。
        第一次前向传播（forward pass）时取输入最后一维作为 `in_features`，物化参数并按
        `Linear` 的规则初始化，然后对象变成 `Linear`。流程见
        Note [Lazy module lifecycle]（[`LazyModuleMixin`][annotated_nn.modules.lazy.LazyModuleMixin]）。

    === "English"

        At construction `in_features` is 0 and `weight` (and `bias`) are
        `UninitializedParameter`s. On the first forward pass the input's last dimension becomes
        `in_features`; the parameters are materialized and initialized by `Linear`'s rules, and
        the object turns into a `Linear`. See Note [Lazy module lifecycle] on
        [`LazyModuleMixin`][annotated_nn.modules.lazy.LazyModuleMixin].

    Args:
        out_features: Size of each output sample. / 每个输出样本的大小。
        bias: Whether to learn an additive bias. / 是否学习加性偏置。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> m = nn.LazyLinear(30)
        >>> _ = m(torch.randn(4, 20))
        >>> type(m).__name__, m.weight.shape
        ('Linear', torch.Size([30, 20]))
    """

    cls_to_become = Linear  # type: ignore[assignment]
    weight: UninitializedParameter
    bias: UninitializedParameter  # type: ignore[assignment]

    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None) -> None:
        r"""Build a `Linear(0, 0, False)`, then put placeholders in. / 先构造 `Linear(0, 0, False)`，再放入占位参数。

        === "中文"

            `super().__init__(0, 0, False)` 经由 `LazyModuleMixin.__init__` 进入
            `Linear.__init__`，得到一个空的 `(0, 0)` 权重（`reset_parameters` 在此时什么也不做），
            mixin 随后注册两个钩子。最后用 `UninitializedParameter` 替换权重；若需要偏置，
            也放一个占位的 `bias`（替换掉 `register_parameter("bias", None)` 留下的 None）。

        === "English"

            `super().__init__(0, 0, False)` goes through `LazyModuleMixin.__init__` into
            `Linear.__init__`, giving an empty `(0, 0)` weight (`reset_parameters` does nothing
            at this point), and the mixin then registers its two hooks. Finally the weight is
            replaced by an `UninitializedParameter`, and, if a bias is wanted, a placeholder
            `bias` replaces the None left by `register_parameter("bias", None)`.

        Args:
            out_features: Size of each output sample. / 每个输出样本的大小。
            bias: Whether to learn an additive bias. / 是否学习加性偏置。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        # 中: bias=False 是有意的：偏置占位稍后单独放入，不需要 Linear 为它分配内存。
        # 中: 调用经 `LazyModuleMixin.__init__` 到达 `Linear.__init__`，之后 mixin 才注册它的两个钩子。
        # EN: bias=False on purpose: the bias placeholder is added below; Linear need not allocate
        # EN: one. The call reaches `Linear.__init__` through `LazyModuleMixin.__init__`, which
        # EN: registers its two hooks afterwards.
        super().__init__(0, 0, False)
        # 中: 用占位参数替换 `(0, 0)` 的空权重：它只记住 `device`/`dtype`，形状等第一次前向传播再定。
        # EN: A placeholder replaces the empty `(0, 0)` weight: it only remembers `device`/`dtype`;
        # EN: the shape is decided on the first forward pass.
        self.weight = UninitializedParameter(**factory_kwargs)
        # 中: `Linear.__init__` 存的是 0，这里换成真正的 `out_features`；`in_features` 保持 0，表示"尚未推断"。
        # EN: `Linear.__init__` stored 0; the real `out_features` goes in now. `in_features` stays
        # EN: 0, meaning "not inferred yet".
        self.out_features = out_features
        # 中: 要偏置时放入占位参数，替换 `register_parameter("bias", None)` 留下的 None。
        # EN: If a bias is wanted, a placeholder replaces the None left by
        # EN: `register_parameter("bias", None)`.
        if bias:
            self.bias = UninitializedParameter(**factory_kwargs)

    def reset_parameters(self) -> None:
        r"""Initialize like `Linear`, but only once materialized. / 与 `Linear` 相同地初始化，但仅在物化之后。

        === "中文"

            构造期间 `Linear.__init__` 会调用本方法，那时参数还不存在真实数据，
            因此跳过；物化之后才转交给 `Linear.reset_parameters`。

        === "English"

            `Linear.__init__` calls this during construction, when the parameters hold no real
            data, so it is skipped; once materialized it defers to `Linear.reset_parameters`.
        """
        # 中: 两个条件各管一种情形：构造期间权重是 `(0, 0)` 的普通参数，`has_uninitialized_params()`
        # 中: 为 False，只能靠 `in_features == 0` 跳过；物化之前被手动调用时，则靠前一个条件跳过。
        # EN: Each condition covers one case: during construction the weight is an ordinary `(0, 0)`
        # EN: parameter, so `has_uninitialized_params()` is False and only `in_features == 0` skips;
        # EN: a manual call before materialization is skipped by the first condition.
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:  # type: ignore[override]
        r"""Take `in_features` from `input` and materialize the parameters. / 从 `input` 得到 `in_features` 并物化参数。

        === "中文"

            在 `torch.no_grad()` 中完成：物化与初始化不应记录进计算图。若参数已经由
            `load_state_dict` 物化而 `in_features` 仍是 0，则只核对输入最后一维与
            权重形状是否一致，再补上 `in_features`。

        === "English"

            Runs under `torch.no_grad()`: materializing and initializing must not be recorded by
            autograd. If the parameters were already materialized by `load_state_dict` while
            `in_features` is still 0, it only checks the input's last dimension against the
            weight's shape and then fills in `in_features`.

        Args:
            input: The first input, shape `(*, in_features)`. / 第一次的输入，形状 `(*, in_features)`。

        Raises:
            AssertionError: A loaded weight disagrees with the input size. / 已加载的权重与输入尺寸不符。
        """
        # 中: 由 `LazyModuleMixin` 的前向预钩子在第一次前向传播前调用。仍有占位参数时：`in_features` 取输入
        # 中: 最后一维；`materialize` 按占位参数记下的 `device`/`dtype` 分配 `torch.empty` 并把它变成
        # 中: `Parameter`；再由 `reset_parameters` 写入 `Linear` 的默认初始值。整段在 `no_grad` 中，不进计算图。
        # EN: Called by `LazyModuleMixin`'s forward pre-hook before the first forward pass. While
        # EN: placeholders remain: `in_features` is the input's last dimension; `materialize`
        # EN: allocates `torch.empty` with the placeholder's `device`/`dtype` and turns it into a
        # EN: `Parameter`; `reset_parameters` then writes `Linear`'s default values. All under
        # EN: `no_grad`, so nothing enters the computation graph.
        if self.has_uninitialized_params():
            with torch.no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                # 中: 陷阱（torch 同样如此）：输入最后一维为 0 时 `in_features` 仍是 0，初始化被跳过，
                # 中: 物化出的偏置保留 `torch.empty` 里的任意值。
                # EN: Pitfall (torch behaves the same): an input whose last dimension is 0 leaves
                # EN: `in_features` at 0, initialization is skipped, and the materialized bias keeps
                # EN: whatever `torch.empty` held.
                self.reset_parameters()
        # 中: 参数由 load_state_dict 物化时 in_features 仍为 0，这里补上并核对：输入最后一维必须等于
        # 中: 已加载权重的最后一维，否则抛出 `AssertionError`（文本与 torch 相同）。
        # EN: When load_state_dict materialized the parameters, in_features is still 0: check and
        # EN: fill it. The input's last dimension must equal the loaded weight's last one, else an
        # EN: `AssertionError` (torch's text) is raised.
        if self.in_features == 0:
            if input.shape[-1] != self.weight.shape[-1]:
                raise AssertionError(
                    f"The in_features inferred from input: {input.shape[-1]} "
                    f"is not equal to in_features from self.weight: "
                    f"{self.weight.shape[-1]}"
                )
            self.in_features = input.shape[-1]
