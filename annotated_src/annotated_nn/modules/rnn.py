r"""Recurrent layers: `RNN`, `LSTM`, `GRU` and their single-step cells. / 循环层：`RNN`、`LSTM`、`GRU` 及其单步单元。

=== "中文"

    这一族分两层。`RNNBase` 把所有层、所有方向的权重按固定名字（`weight_ih_l0`、
    `bias_hh_l1_reverse`……）登记为参数（parameter），同时在 `_flat_weights` 里按内核要求的顺序
    保存一份列表；`forward` 只做形状检查和默认隐状态，然后把整张列表交给一个融合内核
    （`_VF.rnn_tanh`、`_VF.lstm`、`_VF.gru`），时间循环完全在内核中完成。
    单元类（`RNNCell` 等）只算一个时间步，由用户自己写循环。

=== "English"

    The family has two levels. `RNNBase` registers the weights of every layer and direction
    as parameters under fixed names (`weight_ih_l0`, `bias_hh_l1_reverse`, ...) and also keeps
    them in `_flat_weights`, a list in the order the kernel expects; `forward` only checks
    shapes and builds default hidden states, then hands the whole list to one fused kernel
    (`_VF.rnn_tanh`, `_VF.lstm`, `_VF.gru`), which runs the time loop itself. The cell classes
    (`RNNCell` and friends) compute one time step; the user writes the loop.
"""

import math
import numbers
import warnings
import weakref

import torch
from torch import _VF, Tensor

# 中: 打包输入按 torch 的 `PackedSequence` 检查：我们的 `PackedSequence` 是它的子类，所以一次
# 中: `isinstance` 同时接受 torch 的和我们的打包序列；打包输出总是用我们的类构造。
# EN: Packed input is checked against torch's `PackedSequence`: ours subclasses it, so one
# EN: `isinstance` accepts torch's packed sequences and ours alike; packed output is always
# EN: built with our class.
from torch.nn.utils.rnn import PackedSequence as _TorchPackedSequence
from typing_extensions import deprecated

from annotated_nn import init
from annotated_nn.parameter import Parameter
from annotated_nn.utils.rnn import PackedSequence

from .module import Module

__all__ = [
    "RNNBase",
    "RNN",
    "LSTM",
    "GRU",
    "RNNCellBase",
    "RNNCell",
    "LSTMCell",
    "GRUCell",
]

# DIFF(torch 2.13): 中: 省略了 RNN/LSTM/GRU 的 `@overload` 类型存根（`__init__`、`forward`），它们只服务于类型检查器，运行时行为不变。
# DIFF(torch 2.13): EN: the typing-only `@overload` stubs of RNN/LSTM/GRU (`__init__`, `forward`) are left out; runtime behavior is unchanged.

# 中: 普通 RNN 的两种模式各自对应的融合内核（按 mode 字符串查表）。
# EN: The fused kernel for each of the two plain-RNN modes, looked up by the mode string.
_rnn_impls = {
    "RNN_TANH": _VF.rnn_tanh,
    "RNN_RELU": _VF.rnn_relu,
}


def _apply_permutation(tensor: Tensor, permutation: Tensor, dim: int = 1) -> Tensor:
    r"""Reorder `tensor` along `dim` by `permutation`. / 按 `permutation` 沿 `dim` 重排 `tensor`。

    === "中文"

        PackedSequence 内部按长度降序排列批次；隐状态的批次维是第 1 维，需要用
        `sorted_indices` 排进内核、再用 `unsorted_indices` 排回用户的顺序。

    === "English"

        A PackedSequence keeps its batch sorted by decreasing length; hidden states have the
        batch in dimension 1, so they are permuted with `sorted_indices` on the way into the
        kernel and with `unsorted_indices` on the way back to the user's order.

    Args:
        tensor: Tensor to reorder. / 要重排的张量。
        permutation: 1-D index tensor. / 一维下标张量。
        dim: Dimension to reorder. / 要重排的维度。

    Returns:
        The reordered tensor. / 重排后的张量。

    Examples:
        >>> import torch
        >>> _apply_permutation(torch.tensor([[1, 2, 3]]), torch.tensor([2, 0, 1])).tolist()
        [[3, 1, 2]]
    """
    return tensor.index_select(dim, permutation)


@deprecated(
    "`apply_permutation` is deprecated, please use `tensor.index_select(dim, permutation)` instead",
    category=FutureWarning,
)
def apply_permutation(tensor: Tensor, permutation: Tensor, dim: int = 1) -> Tensor:
    r"""Deprecated public alias of `_apply_permutation`. / `_apply_permutation` 的已弃用公开别名。

    === "中文"

        调用时发出 FutureWarning，建议直接用 `tensor.index_select(dim, permutation)`。
        1.5.1 → 2.13：1.5.1 中这是正常的公开函数，现已弃用。

    === "English"

        Calling it emits a FutureWarning recommending `tensor.index_select(dim, permutation)`.
        1.5.1 → 2.13: a regular public function in 1.5.1, deprecated since.

    Args:
        tensor: Tensor to reorder. / 要重排的张量。
        permutation: 1-D index tensor. / 一维下标张量。
        dim: Dimension to reorder. / 要重排的维度。

    Returns:
        The reordered tensor. / 重排后的张量。
    """
    return _apply_permutation(tensor, permutation, dim)


class RNNBase(Module):
    r"""Base of `RNN`, `LSTM` and `GRU`: named flat weights and shape checks. / `RNN`、`LSTM`、`GRU` 的基类：具名扁平权重与形状检查。

    === "中文"

        每层每个方向有 `weight_ih`、`weight_hh`，`bias=True` 时再加 `bias_ih`、`bias_hh`，
        LSTM 且 `proj_size > 0` 时再加 `weight_hr`。`gate_size` 取决于模式：LSTM 为
        `4 * hidden_size`（四个门），GRU 为 `3 * hidden_size`，普通 RNN 为 `hidden_size`。
        名字按层、方向的顺序记在 `_flat_weights_names`，`_all_weights` 是按层方向分组的同一组名字，
        `_flat_weights` 是对应的张量列表——融合内核只接受这种扁平列表。
        1.5.1 → 2.13：新增 `proj_size`、`device`/`dtype`、构造参数的类型检查和无批次输入。

    === "English"

        Each layer and direction has `weight_ih` and `weight_hh`, plus `bias_ih` and `bias_hh`
        when `bias=True`, plus `weight_hr` for an LSTM with `proj_size > 0`. `gate_size`
        depends on the mode: `4 * hidden_size` for LSTM (four gates), `3 * hidden_size` for GRU,
        `hidden_size` for a plain RNN. The names, by layer then direction, are kept in
        `_flat_weights_names`; `_all_weights` groups the same names per layer and direction;
        `_flat_weights` is the matching list of tensors, the flat form the fused kernel takes.
        1.5.1 → 2.13: `proj_size`, `device`/`dtype`, type checks on the constructor arguments
        and unbatched input were added.

    Args:
        mode: `'LSTM'`, `'GRU'`, `'RNN_TANH'` or `'RNN_RELU'`. / 模式字符串。
        input_size: Features of the input. / 输入特征数。
        hidden_size: Features of the hidden state. / 隐状态特征数。
        num_layers: Stacked recurrent layers. / 堆叠的循环层数。
        bias: Whether to use the bias vectors. / 是否使用偏置向量。
        batch_first: Input/output as `(batch, seq, feature)`. / 输入输出是否为 `(batch, seq, feature)`。
        dropout: Dropout between layers (not after the last). / 层间 dropout 概率（最后一层之后没有）。
        bidirectional: Whether to add a reverse direction. / 是否双向。
        proj_size: LSTM projection size, 0 for none. / LSTM 投影维度，0 表示不投影。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。
    """

    # 中: TorchScript 把 `__constants__` 里的属性当作常量编译：先是模式与尺寸……
    # EN: TorchScript compiles the attributes in `__constants__` as constants: first the mode and
    # EN: the sizes ...
    __constants__ = [
        "mode",
        "input_size",
        "hidden_size",
        "num_layers",
        # 中: ……再是各个开关，`proj_size` 在最后（只对 LSTM 有意义）。
        # EN: ... then the switches, `proj_size` last (it only means something for LSTM).
        "bias",
        "batch_first",
        "dropout",
        "bidirectional",
        "proj_size",
    ]
    # 中: `all_weights` 是按名字 `getattr` 的 property，TorchScript 不编译它。
    # EN: `all_weights` is a property that calls `getattr` by name; TorchScript leaves it out.
    __jit_unused_properties__ = ["all_weights"]

    # 中: 属性类型的声明（TorchScript 与类型检查器读取），值在 `__init__` 里赋。
    # EN: Attribute type declarations (read by TorchScript and type checkers); `__init__`
    # EN: assigns the values.
    mode: str
    input_size: int
    hidden_size: int
    num_layers: int
    bias: bool
    batch_first: bool
    # 中: `dropout` 是 float：`__init__` 存的是 `float(dropout)`，所以整数 0 也变成 0.0。
    # EN: `dropout` is a float: `__init__` stores `float(dropout)`, so an integer 0 becomes 0.0.
    dropout: float
    bidirectional: bool
    proj_size: int

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device=None,
        dtype=None,
    ) -> None:
        r"""Check the arguments, create every weight, initialize. / 检查参数、创建全部权重并初始化。

        === "中文"

            属性先于检查赋值（与 torch 相同），然后按 torch 的顺序检查：dropout 范围 →
            dropout 与单层的警告 → bias、batch_first、input_size、hidden_size 的类型和取值 →
            num_layers → proj_size → mode。权重按层、方向创建并用 `setattr` 登记，
            最后 `_init_flat_weights` 建立扁平列表，`reset_parameters` 填值。

        === "English"

            Attributes are assigned before the checks (as in torch), which then run in torch's
            order: dropout range → the dropout-with-one-layer warning → types and values of
            bias, batch_first, input_size, hidden_size → num_layers → proj_size → mode. Weights
            are created per layer and direction and registered via `setattr`; finally
            `_init_flat_weights` builds the flat list and `reset_parameters` fills the values.

        Args:
            mode: `'LSTM'`, `'GRU'`, `'RNN_TANH'` or `'RNN_RELU'`. / 模式字符串。
            input_size: Features of the input. / 输入特征数。
            hidden_size: Features of the hidden state. / 隐状态特征数。
            num_layers: Stacked recurrent layers. / 堆叠的循环层数。
            bias: Whether to use the bias vectors. / 是否使用偏置向量。
            batch_first: Input/output as `(batch, seq, feature)`. / 输入输出是否为 `(batch, seq, feature)`。
            dropout: Dropout between layers. / 层间 dropout 概率。
            bidirectional: Whether to add a reverse direction. / 是否双向。
            proj_size: LSTM projection size, 0 for none. / LSTM 投影维度，0 表示不投影。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。

        Raises:
            ValueError: Bad dropout, sizes, proj_size or mode. / dropout、尺寸、proj_size 或模式不合法。
            TypeError: Non-bool bias/batch_first or non-int sizes. / bias/batch_first 不是 bool 或尺寸不是 int。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        # 中: 先赋属性、后检查（torch 的顺序）：检查失败时对象已半成形，但报错与 torch 一致。
        # EN: Attributes first, checks after (torch's order): a failing check leaves a half-built
        # EN: object, but the errors match torch's.
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        # 中: `dropout` 存成 float，而合法性在下面才检查：所以 `dropout=None` 或 `"abc"` 得到的是
        # 中: `float()` 自己的 TypeError/ValueError，而不是下面那条信息（torch 也如此）。
        # EN: `dropout` is stored as a float before its check below, so `dropout=None` or `"abc"`
        # EN: gets `float()`'s own TypeError/ValueError instead of the message below (as in
        # EN: torch).
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        # 中: `_flat_weight_refs` 先是空列表，最后由 `_init_flat_weights` 填满。
        # EN: `_flat_weight_refs` starts empty; `_init_flat_weights` fills it at the end.
        self._flat_weight_refs: list[weakref.ReferenceType[Parameter] | None] = []
        num_directions = 2 if bidirectional else 1

        # 中: bool 是 numbers.Number 的子类，需单独排除。
        # EN: bool is a numbers.Number subclass, so it is excluded explicitly.
        if (
            not isinstance(dropout, numbers.Number)
            or not 0 <= dropout <= 1
            or isinstance(dropout, bool)
        ):
            raise ValueError(
                "dropout should be a number in range [0, 1] representing the probability of an element being zeroed"
            )
        # 中: dropout 只加在层与层之间，单层时它什么也不做，所以只警告不报错。经由 `RNN`/`LSTM`/`GRU`
        # 中: 构造时，`stacklevel=2` 指向它们在本文件里的 `__init__`，而不是用户代码。
        # EN: Dropout only acts between layers, so with one layer it does nothing: a warning, not
        # EN: an error. When built through `RNN`/`LSTM`/`GRU`, `stacklevel=2` points at their
        # EN: `__init__` in this file, not at user code.
        if dropout > 0 and num_layers == 1:
            warnings.warn(
                "dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects "
                f"num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
                stacklevel=2,
            )
        # 中: `bias`、`batch_first` 必须是真正的 bool（否则 TypeError）。
        # EN: `bias` and `batch_first` must be real bools (else TypeError).
        if not isinstance(bias, bool):
            raise TypeError(f"bias should be of type bool, got: {type(bias).__name__}")
        if not isinstance(batch_first, bool):
            raise TypeError(
                f"batch_first should be of type bool, got: {type(batch_first).__name__}"
            )
        # 中: 尺寸必须是 int（否则 TypeError）且为正数（否则 ValueError）。bool 是 int 的子类，
        # 中: 所以 `input_size=True` 会被当作 1 接受（torch 也如此，`repr` 显示 `RNN(True, 4)`）。
        # EN: Sizes must be ints (else TypeError) and positive (else ValueError). bool is an int
        # EN: subclass, so `input_size=True` is accepted as 1 (as in torch; the `repr` shows
        # EN: `RNN(True, 4)`).
        if not isinstance(input_size, int):
            raise TypeError(f"input_size should be of type int, got: {type(input_size).__name__}")
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        # 中: `num_layers` 与 `proj_size` 只检查取值、不检查类型。投影必须比 `hidden_size` 小，
        # 中: 否则谈不上“投影降维”。
        # EN: `num_layers` and `proj_size` get value checks only, no type checks. A projection
        # EN: must be smaller than `hidden_size`; otherwise it would not reduce anything.
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError(
                "proj_size should be a positive integer or zero to disable projections"
            )
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")

        # 中: 每个权重矩阵的行把各个门上下堆叠：LSTM 四块（i、f、g、o），GRU 三块（r、z、n），
        # 中: 普通 RNN 一块。
        # EN: Each weight matrix stacks the gates row-wise: four blocks for LSTM (i, f, g, o),
        # EN: three for GRU (r, z, n), one for a plain RNN.
        if mode == "LSTM":
            gate_size = 4 * hidden_size
        elif mode == "GRU":
            gate_size = 3 * hidden_size
        elif mode in ("RNN_TANH", "RNN_RELU"):
            gate_size = hidden_size
        else:
            raise ValueError("Unrecognized RNN mode: " + mode)

        # 中: 名字的两种视图：`_flat_weights_names` 按内核顺序平铺，`_all_weights` 按层、方向分组
        # 中: （供 `all_weights` 使用）。
        # EN: Two views of the names: `_flat_weights_names` flat in kernel order, `_all_weights`
        # EN: grouped by layer and direction (used by `all_weights`).
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                # 中: 有投影时隐状态 h 的宽度是 proj_size；从第二层起，输入是前一层各方向 h 的拼接。
                # EN: With a projection, h is proj_size wide; later layers take the concatenated h
                # EN: of all directions below.
                real_hidden_size = proj_size if proj_size > 0 else hidden_size
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions

                # 中: 即使 bias=False 也分配两个偏置（与 torch 相同），只是不登记；`torch.empty` 不消耗
                # 中: 随机数，`reset_parameters` 也只初始化登记过的参数。
                # EN: Both biases are allocated even with bias=False (as torch does), just not
                # EN: registered; `torch.empty` draws no random numbers, and `reset_parameters`
                # EN: initializes registered parameters only.
                # 中: torch 的注释说第二个偏置 b_hh 是为兼容 cuDNN 而保留的，标准定义只需一个偏置。
                # 中: 对 RNN/LSTM 它确实只是与 b_ih 相加；但 GRU 的候选门里 b_hn 位于 `r * (...)` 之内，
                # 中: 并不多余。
                # EN: torch's comment says the second bias b_hh is there for cuDNN compatibility and
                # EN: the standard definition needs one. For RNN/LSTM it is indeed just added to
                # EN: b_ih; in GRU's candidate gate, though, b_hn sits inside `r * (...)`, so it is
                # EN: not redundant there.
                w_ih = Parameter(torch.empty((gate_size, layer_input_size), **factory_kwargs))
                w_hh = Parameter(torch.empty((gate_size, real_hidden_size), **factory_kwargs))
                b_ih = Parameter(torch.empty(gate_size, **factory_kwargs))
                b_hh = Parameter(torch.empty(gate_size, **factory_kwargs))
                # 中: 元组顺序就是内核在扁平列表里期待的顺序：w_ih、w_hh[、b_ih、b_hh][、w_hr]。
                # 中: `w_hr` 形状为 `(proj_size, hidden_size)`，每步把 h 从 `hidden_size` 投影到 `proj_size`。
                # EN: The tuple order is the order the kernel expects in the flat list: w_ih, w_hh[,
                # EN: b_ih, b_hh][, w_hr]. `w_hr` is `(proj_size, hidden_size)` and projects h from
                # EN: `hidden_size` down to `proj_size` at every step.
                if self.proj_size == 0:
                    layer_params = (w_ih, w_hh, b_ih, b_hh) if bias else (w_ih, w_hh)
                else:
                    w_hr = Parameter(torch.empty((proj_size, hidden_size), **factory_kwargs))
                    layer_params = (w_ih, w_hh, b_ih, b_hh, w_hr) if bias else (w_ih, w_hh, w_hr)

                # 中: 名字 `weight_ih_l{k}{suffix}` 等，反向方向加 `_reverse`；列表与上面的元组一一对应
                # 中: （zip 用 strict=True 保证长度一致）。这些名字就是状态字典的键。
                # EN: Names `weight_ih_l{k}{suffix}` and so on, `_reverse` for the backward
                # EN: direction; the list matches the tuple above one to one (zip with strict=True
                # EN: checks the lengths). These names are the state_dict keys.
                suffix = "_reverse" if direction == 1 else ""
                param_names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    param_names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                if self.proj_size > 0:
                    param_names += ["weight_hr_l{}{}"]
                param_names = [x.format(layer, suffix) for x in param_names]

                # 中: 先 `setattr` 登记（`Module.__setattr__` 把 Parameter 放进 `_parameters`），
                # 中: 再把名字加进 `_flat_weights_names`：顺序反过来的话，本类的 `__setattr__` 会去写
                # 中: 还不存在的 `_flat_weights`。
                # EN: First `setattr` registers them (`Module.__setattr__` puts a Parameter into
                # EN: `_parameters`), then the names join `_flat_weights_names`: the other way
                # EN: round, this class's `__setattr__` would write into `_flat_weights`, which
                # EN: does not exist yet.
                for name, param in zip(param_names, layer_params, strict=True):
                    setattr(self, name, param)
                self._flat_weights_names.extend(param_names)
                self._all_weights.append(param_names)

        # 中: 先建扁平列表（CUDA 上还会打包成一块连续内存），再填初值：`init.uniform_` 是就地写入，
        # 中: 打包后的视图同样适用。
        # EN: Build the flat list first (on CUDA it also packs one contiguous buffer), then fill
        # EN: the values: `init.uniform_` writes in place, which works on the packed views too.
        self._init_flat_weights()
        self.reset_parameters()

    def _init_flat_weights(self) -> None:
        r"""Rebuild `_flat_weights` and its weak references from the names. / 按名字重建 `_flat_weights` 及其弱引用。

        === "中文"

            按 `_flat_weights_names` 取出当前登记的参数（不存在则为 None），并记录弱引用，
            以便之后判断权重对象是否被替换过；最后尝试 `flatten_parameters`。

        === "English"

            Looks up the currently registered parameter for each name in `_flat_weights_names`
            (None if missing) and records weak references so that a later replacement of a
            weight object can be detected; then tries `flatten_parameters`.
        """
        # 中: 按名字取当前登记的对象；缺失的名字留 None 空位，`flatten_parameters` 见到空位就不打包。
        # EN: Fetch the currently registered object per name; a missing name leaves a None hole,
        # EN: and `flatten_parameters` does not pack a list with holes.
        self._flat_weights = [
            getattr(self, wn) if hasattr(self, wn) else None for wn in self._flat_weights_names
        ]
        # 中: 弱引用只用来在以后判断“还是不是同一个对象”，不会让被替换掉的参数继续存活；
        # 中: 它们也不能 pickle，见 `__getstate__`。
        # EN: The weak references only answer "is it still the same object?" later, without
        # EN: keeping replaced parameters alive; they cannot be pickled either, see
        # EN: `__getstate__`.
        self._flat_weight_refs = [
            weakref.ref(w) if w is not None else None for w in self._flat_weights
        ]
        self.flatten_parameters()

    def __setattr__(self, attr, value) -> None:
        r"""Keep `_flat_weights` in sync when a weight is reassigned. / 重新赋值权重时同步 `_flat_weights`。

        === "中文"

            `rnn.weight_ih_l0 = Parameter(...)` 之后，内核必须看到新张量，所以先更新扁平列表
            中对应位置，再走 `Module.__setattr__` 的正常登记。

        === "English"

            After `rnn.weight_ih_l0 = Parameter(...)` the kernel must see the new tensor, so the
            matching slot of the flat list is updated first, then `Module.__setattr__` registers
            the value as usual.

        Args:
            attr: Attribute name. / 属性名。
            value: New value. / 新值。
        """
        # 中: `hasattr` 守卫：`__init__` 早期名字列表还不存在。注意槽位在 `Module.__setattr__`
        # 中: 校验之前就被改写（与 torch 相同）：给参数名赋普通张量会抛 TypeError，但扁平列表已
        # 中: 指向那个被拒绝的张量，之后的 `forward` 会用它，因为登记的参数没变、弱引用察觉不到。
        # EN: The `hasattr` guard covers early `__init__`, before the name list exists. Note that
        # EN: the slot is rewritten before `Module.__setattr__` validates (as in torch): assigning a
        # EN: plain tensor to a parameter name raises TypeError, yet the flat list already holds the
        # EN: rejected tensor and later `forward` calls use it, since the registered parameter is
        # EN: unchanged and the weak-reference check sees nothing.
        if hasattr(self, "_flat_weights_names") and attr in self._flat_weights_names:
            idx = self._flat_weights_names.index(attr)
            self._flat_weights[idx] = value
        super().__setattr__(attr, value)

    def flatten_parameters(self) -> None:
        r"""Pack the weights into one contiguous cuDNN buffer when possible. / 在可能时把权重打包进一块连续的 cuDNN 内存。

        === "中文"

            只有全部权重都是同 dtype 的 CUDA 张量、cuDNN 可用且互不共享内存时才做事；
            在 CPU 上总是在第一批检查处提前返回。打包后每个参数变成大缓冲区的一个视图，
            cuDNN 内核就不必每次前向传播（forward pass）都拷贝权重。

        === "English"

            Acts only when every weight is a CUDA tensor of one dtype acceptable to cuDNN and no
            two weights share memory; on CPU it always returns at the first checks. Afterwards
            every parameter is a view into one large buffer, so the cuDNN kernel need not copy
            the weights on every forward pass.
        """
        # 中: 构造途中列表可能还不完整（或有 None），此时什么也不做。
        # EN: During construction the list may still be incomplete (or hold None): do nothing.
        if len(self._flat_weights) != len(self._flat_weights_names):
            return
        for w in self._flat_weights:
            if not isinstance(w, Tensor):
                return
        # 中: 第一个权重的 dtype 作为基准，它所在的设备也是之后打包的设备。
        # EN: The first weight's dtype is the reference; its device is where packing happens.
        first_fw = self._flat_weights[0]
        dtype = first_fw.dtype
        # 中: 每个权重都必须是与之同 dtype 的 CUDA 张量，且 cuDNN 可用并接受它
        # 中: （`is_acceptable`：cuDNN 已启用、dtype 受支持）；CPU 上在这里就返回。
        # EN: Every weight must be a CUDA tensor of that dtype that cuDNN accepts
        # EN: (`is_acceptable`: cuDNN enabled and available, dtype supported); on CPU this is
        # EN: where it returns.
        for fw in self._flat_weights:
            if (
                not isinstance(fw, Tensor)
                or fw.dtype != dtype
                or not fw.is_cuda
                or not torch.backends.cudnn.is_acceptable(fw)
            ):
                return

        # 中: 若有参数共享内存，打包会破坏它们的关系，于是退回较慢的拷贝路径。torch 的注释说
        # 中: 比较起始地址就够了：部分重叠的参数本来就违反 `named_parameters` 的唯一性假设。
        # EN: If parameters alias, packing would break that; fall back to the slower copying
        # EN: path. torch's comment says comparing start pointers suffices: partly overlapping
        # EN: parameters would already break `named_parameters`' uniqueness assumption.
        unique_data_ptrs = {p.data_ptr() for p in self._flat_weights}
        if len(unique_data_ptrs) != len(self._flat_weights):
            return

        # 中: 在第一个权重所在的 GPU 上打包；`torch.backends.cudnn.rnn` 用到时才导入。
        # EN: Pack on the GPU of the first weight; `torch.backends.cudnn.rnn` is imported only
        # EN: when needed.
        with torch.cuda.device_of(first_fw):
            import torch.backends.cudnn.rnn as rnn

            # 中: 打包是对参数的就地操作，不能被 autograd 记录。没有 cuDNN 的构建（如 CPU 版）
            # 中: 上 `_use_cudnn_rnn_flatten_weight()` 为 False。每层每方向的权重个数：2 或 4，
            # 中: 有投影再加 1；打包把它们拷进一整块连续内存，并让各参数变成其中的视图。
            # EN: Packing works in place on the parameters and must not be recorded by autograd.
            # EN: `_use_cudnn_rnn_flatten_weight()` is False on builds without cuDNN (such as the
            # EN: CPU build). Weights per layer and direction: 2 or 4, plus 1 with a projection;
            # EN: packing copies them into one contiguous buffer and makes each parameter a view.
            with torch.no_grad():
                if torch._use_cudnn_rnn_flatten_weight():
                    num_weights = 4 if self.bias else 2
                    if self.proj_size > 0:
                        num_weights += 1
                    # 中: 传入扁平列表和每组的张量个数（即列表里的步长）……
                    # EN: Pass the flat list and the tensors per group (its stride in the list) ...
                    torch._cudnn_rnn_flatten_weight(
                        self._flat_weights,
                        num_weights,
                        # 中: ……其余参数描述布局：cuDNN 的模式编号、各尺寸、层数与方向；
                        # 中: `bidirectional` 没有类型检查，所以显式转成 bool。
                        # EN: ... the rest describe the layout: cuDNN's mode number, the sizes,
                        # EN: layers and directions; `bidirectional` is not type-checked, hence
                        # EN: the explicit bool.
                        self.input_size,
                        rnn.get_cudnn_mode(self.mode),
                        self.hidden_size,
                        self.proj_size,
                        self.num_layers,
                        self.batch_first,
                        bool(self.bidirectional),
                    )

    def _apply(self, fn, recurse=True):
        r"""Apply `fn` like `Module._apply`, then rebuild the flat weights. / 像 `Module._apply` 一样应用 `fn`，再重建扁平权重。

        === "中文"

            `to()`、`float()` 等可能把参数换成新对象，`_flat_weights` 里的旧引用随之失效，
            所以之后必须 `_init_flat_weights`。

        === "English"

            `to()`, `float()` and friends may replace the parameters with new objects, which
            makes the old references in `_flat_weights` stale, hence `_init_flat_weights` after.

        Args:
            fn: Function applied to each tensor. / 作用在每个张量上的函数。
            recurse: Whether to recurse into submodules. / 是否递归到子模块（submodule）。

        Returns:
            `self`. / `self` 本身。
        """
        # 中: 先丢掉弱引用：`torch.utils.swap_tensors` 拒绝交换带弱引用的张量（"Cannot swap t1
        # 中: because it has weakref associated with it"），而开启
        # 中: `torch.__future__.set_swap_module_params_on_conversion(True)` 时 `_apply` 正是用它换参数。
        # EN: Drop the weak references first: `torch.utils.swap_tensors` refuses tensors that have
        # EN: weakrefs ("Cannot swap t1 because it has weakref associated with it"), and with
        # EN: `torch.__future__.set_swap_module_params_on_conversion(True)` `_apply` swaps
        # EN: parameters exactly that way.
        self._flat_weight_refs = []
        ret = super()._apply(fn, recurse)
        # 中: 然后按名字重建扁平列表与弱引用，并在 CUDA 上重新打包。torch 的注释提醒：第三方设备
        # 中: 类型可能依赖这一步才能正确 `.to()` LSTM 这类模块。
        # EN: Then rebuild the flat list and weak references by name, repacking on CUDA. torch's
        # EN: comment warns that third-party device types likely rely on this step to `.to()`
        # EN: modules like LSTM properly.
        self._init_flat_weights()
        return ret

    def reset_parameters(self) -> None:
        r"""Draw every weight from `U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))`. / 所有权重取自 `U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))`。

        === "中文"

            按 `parameters()` 的顺序（即登记顺序）逐个调用 `init.uniform_`，
            随机数消耗顺序与 torch 一致，所以同一种子得到相同的权重。

        === "English"

            Calls `init.uniform_` on each parameter in `parameters()` order (registration
            order), consuming random numbers as torch does, so one seed gives the same weights.
        """
        # 中: 所有参数（包括偏置和 `weight_hr`）用同一个界 `1/sqrt(hidden_size)`；`hidden_size > 0`
        # 中: 已在 `__init__` 检查过，条件表达式只是防御。
        # EN: Every parameter (biases and `weight_hr` included) gets the same bound
        # EN: `1/sqrt(hidden_size)`; `__init__` already checked `hidden_size > 0`, so the
        # EN: conditional is only defensive.
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def check_input(self, input: Tensor, batch_sizes: Tensor | None) -> None:
        r"""Check the input's dtype, rank and feature size. / 检查输入的 dtype、维数与特征数。

        === "中文"

            dtype 必须与权重一致（autocast 开启时除外）；打包输入是 2 维，其他是 3 维；
            最后一维必须等于 `input_size`。

        === "English"

            The dtype must match the weights' (unless autocast is on); packed data is 2-D,
            anything else 3-D; the last dimension must equal `input_size`.

        Args:
            input: Batched input (or packed data). / 有批次的输入（或打包数据）。
            batch_sizes: Batch sizes of a PackedSequence, or None. / PackedSequence 的批大小，或 None。

        Raises:
            ValueError: Dtype mismatch. / dtype 不一致。
            RuntimeError: Wrong rank or feature size. / 维数或特征数不对。
        """
        # 中: 仅在 eager 模式（未被 TorchScript 编译）下检查：输入 dtype 必须等于第一个权重的 dtype，
        # 中: 除非开着某种 autocast（由它负责转换）。
        # EN: Eager mode only (not under TorchScript): the input dtype must equal the first
        # EN: weight's, unless some autocast is on (it does the casting).
        if not torch.jit.is_scripting():
            if (
                input.dtype != self._flat_weights[0].dtype
                and not torch._C._is_any_autocast_enabled()
            ):
                # 中: 报错信息同时给出两种改法：转换输入，或转换模型。
                # EN: The message suggests both fixes: convert the input, or the model.
                raise ValueError(
                    f"RNN input dtype ({input.dtype}) does not match weight dtype ({self._flat_weights[0].dtype}). "
                    f"Convert input: input.to({self._flat_weights[0].dtype}), or convert model: model.to({input.dtype})"
                )
        # 中: 打包数据是 `(sum(lengths), input_size)`，2 维；其余必须是 3 维（无批次输入已由
        # 中: `forward` 补上批次维）。
        # EN: Packed data is `(sum(lengths), input_size)`, 2-D; anything else must be 3-D
        # EN: (`forward` has already given unbatched input a batch dimension).
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(
                f"input must have {expected_input_dim} dimensions, got {input.dim()}"
            )
        # 中: 两种情况下最后一维都是特征数，必须等于 `input_size`。
        # EN: Either way the last dimension holds the features and must equal `input_size`.
        if self.input_size != input.size(-1):
            raise RuntimeError(
                f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got {input.size(-1)}"
            )

    def get_expected_hidden_size(
        self, input: Tensor, batch_sizes: Tensor | None
    ) -> tuple[int, int, int]:
        r"""Shape `h_0` must have for this input. / 对该输入 `h_0` 应有的形状。

        === "中文"

            `(num_layers * num_directions, batch, proj_size 或 hidden_size)`；打包输入的批大小
            取 `batch_sizes[0]`（第一个时间步的批最大）。

        === "English"

            `(num_layers * num_directions, batch, proj_size or hidden_size)`; for packed input
            the batch is `batch_sizes[0]` (the first time step has the largest batch).

        Args:
            input: Batched input (or packed data). / 有批次的输入（或打包数据）。
            batch_sizes: Batch sizes of a PackedSequence, or None. / PackedSequence 的批大小，或 None。

        Returns:
            The expected shape as a tuple. / 期望形状（tuple）。
        """
        # 中: 批大小：打包时是 `batch_sizes[0]`（第一个时间步包含全部序列），否则按
        # 中: `batch_first` 取第 0 或第 1 维。
        # EN: The batch: `batch_sizes[0]` when packed (the first time step has every sequence),
        # EN: otherwise dimension 0 or 1 by `batch_first`.
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        # 中: 第一维把层和方向摊平成 `num_layers * num_directions`；h 的宽度有投影时是 `proj_size`。
        # EN: The first dimension flattens layers and directions into
        # EN: `num_layers * num_directions`; h is `proj_size` wide when projected.
        num_directions = 2 if self.bidirectional else 1
        if self.proj_size > 0:
            expected_hidden_size = (self.num_layers * num_directions, mini_batch, self.proj_size)
        else:
            expected_hidden_size = (self.num_layers * num_directions, mini_batch, self.hidden_size)
        return expected_hidden_size

    def check_hidden_size(
        self,
        hx: Tensor,
        expected_hidden_size: tuple[int, int, int],
        msg: str = "Expected hidden size {}, got {}",
    ) -> None:
        r"""Raise if `hx` does not have the expected shape. / `hx` 形状不符时报错。

        === "中文"

            `torch.Size` 与 tuple 可以直接比较；报错信息里期望值是 tuple、实际值是 list。

        === "English"

            A `torch.Size` compares equal to a tuple; the message shows the expected shape as a
            tuple and the actual one as a list.

        Args:
            hx: Hidden state. / 隐状态。
            expected_hidden_size: Expected shape. / 期望形状。
            msg: Message template with two `{}`. / 含两个 `{}` 的报错模板。

        Raises:
            RuntimeError: Shape mismatch. / 形状不符。
        """
        if hx.size() != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def _weights_have_changed(self):
        r"""Whether a registered weight is no longer the object last seen. / 登记的权重是否已不是上次见到的对象。

        === "中文"

            例如 `functional_call` 临时替换了参数：此时弱引用指向的旧对象与当前属性不同，
            需要重建扁平列表。对本库的模块要用 `annotated_nn.utils.stateless.functional_call`；
            `torch.func.functional_call` 只接受 torch 的模块，对本库的模块会抛 TypeError。

        === "English"

            E.g. `functional_call` swaps the parameters temporarily: the weak reference then
            points at another object than the current attribute, and the flat list must be
            rebuilt. For this library's modules use `annotated_nn.utils.stateless.functional_call`;
            `torch.func.functional_call` accepts torch modules only and raises TypeError here.

        Returns:
            True if some weight changed. / 有权重变化时为 True。
        """
        # 中: 逐个名字比较“当前登记的对象”与“弱引用记住的对象”，发现一个不同就停。名字缺失或
        # 中: 弱引用为 None 的槽位不算变化；`strict=True` 要求两张列表等长。
        # EN: Per name, compare the registered object with the one the weak reference remembers;
        # EN: stop at the first difference. A missing name or a None reference does not count as
        # EN: a change; `strict=True` requires the two lists to have equal length.
        weights_changed = False
        for ref, name in zip(self._flat_weight_refs, self._flat_weights_names, strict=True):
            weight = getattr(self, name) if hasattr(self, name) else None
            if weight is not None and ref is not None and ref() is not weight:
                weights_changed = True
                break
        return weights_changed

    def check_forward_args(self, input: Tensor, hidden: Tensor, batch_sizes: Tensor | None) -> None:
        r"""Check the input and the hidden state together. / 同时检查输入与隐状态。

        === "中文"

            `LSTM` 重写此方法以分别检查 `h_0` 与 `c_0`。

        === "English"

            `LSTM` overrides it to check `h_0` and `c_0` separately.

        Args:
            input: Batched input (or packed data). / 有批次的输入（或打包数据）。
            hidden: Hidden state. / 隐状态。
            batch_sizes: Batch sizes of a PackedSequence, or None. / PackedSequence 的批大小，或 None。
        """
        # 中: 先查输入（dtype、维数、特征数），再按输入推出 `h_0` 应有的形状并比较。
        # EN: The input first (dtype, rank, features), then `h_0` against the shape derived from
        # EN: the input.
        self.check_input(input, batch_sizes)
        expected_hidden_size = self.get_expected_hidden_size(input, batch_sizes)
        self.check_hidden_size(hidden, expected_hidden_size)

    def permute_hidden(self, hx: Tensor, permutation: Tensor | None):
        r"""Reorder the batch dimension of `hx`, if a permutation is given. / 若给出排列，重排 `hx` 的批次维。

        === "中文"

            非打包输入的排列为 None，原样返回。

        === "English"

            For unpacked input the permutation is None and `hx` comes back unchanged.

        Args:
            hx: Hidden state. / 隐状态。
            permutation: Index tensor or None. / 下标张量或 None。

        Returns:
            The (re)ordered hidden state. / （重排后的）隐状态。
        """
        if permutation is None:
            return hx
        return _apply_permutation(hx, permutation)

    def extra_repr(self) -> str:
        r"""Sizes, then only the options that differ from the defaults. / 先列尺寸，再只列非默认的选项。

        === "中文"

            与 torch 一致地用 `str.format(**self.__dict__)` 填值，因此 `dropout` 显示为 float。

        === "English"

            Filled with `str.format(**self.__dict__)` as torch does, so `dropout` shows as a float.

        Returns:
            The text inside the parentheses of `repr`. / `repr` 括号里的内容。
        """
        # 中: 先写两个尺寸，再只追加与默认值不同的选项，顺序与 torch 相同；占位符最后由
        # 中: `__dict__` 填值。
        # EN: The two sizes first, then only the options that differ from their defaults, in
        # EN: torch's order; `__dict__` fills the placeholders at the end.
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        # 中: `bias` 与 `batch_first` 在 `__init__` 里已确认是真正的 bool，按身份比较没有问题。
        # EN: `__init__` made sure `bias` and `batch_first` are real bools, so comparing
        # EN: identity is safe.
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        # 中: `is not False` 比较的是身份：`bidirectional` 不做类型检查，传 1 会显示
        # 中: `bidirectional=1`（torch 也如此）。
        # EN: `is not False` compares identity: `bidirectional` is not type-checked, so passing 1
        # EN: shows `bidirectional=1` (as in torch).
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    def _update_flat_weights(self) -> None:
        r"""Rebuild the flat list if a weight was swapped. / 若权重被替换则重建扁平列表。

        === "中文"

            每次前向传播开头调用，代价只是一次引用比较。

        === "English"

            Called at the start of every forward pass; it costs one identity check per weight.
        """
        # 中: 扁平列表在两次前向传播之间可能过时：例如 `functional_call` 结束、原参数放回之后，
        # 中: 列表里还是借来的张量，要到这里才换回来。TorchScript 下跳过。
        # EN: The flat list can go stale between forward passes: after a `functional_call`
        # EN: puts the original parameters back, the list still holds the borrowed tensors until
        # EN: this check swaps them back. Skipped under TorchScript.
        if not torch.jit.is_scripting():
            if self._weights_have_changed():
                self._init_flat_weights()

    def __getstate__(self):
        r"""Pickle state without the weak references. / 去掉弱引用后的 pickle 状态。

        === "中文"

            弱引用不能 pickle，所以从状态中删除；`__setstate__` 会重建。`copy.deepcopy` 也经过
            这一对方法，于是副本的弱引用指向它自己的参数（若直接拷贝，弱引用会原样共享，
            仍指向原模块的参数）。

        === "English"

            Weak references cannot be pickled, so they are dropped from the state;
            `__setstate__` rebuilds them. `copy.deepcopy` goes through this pair too, so a copy's
            weak references point at its own parameters (copied directly, a weak reference would
            be shared as is, still pointing at the original's parameters).

        Returns:
            A copy of `__dict__` without `_flat_weight_refs`. / 去掉 `_flat_weight_refs` 的 `__dict__` 副本。
        """
        # 中: 先同步扁平列表，保证存下的是当前登记的参数；再复制 `__dict__` 并删掉弱引用。
        # 中: `_flat_weights` 里的参数与 `_parameters` 里的是同一批对象，pickle 的备忘表让它们
        # 中: 恢复后仍是同一批对象。
        # EN: Sync the flat list first so that the current parameters are saved; then copy
        # EN: `__dict__` and drop the weak references. The parameters in `_flat_weights` are the
        # EN: very objects in `_parameters`, and pickle's memo keeps them identical after loading.
        self._update_flat_weights()
        state = self.__dict__.copy()
        del state["_flat_weight_refs"]
        return state

    def __setstate__(self, d):
        r"""Restore from pickle, upgrading very old layouts. / 从 pickle 恢复，并升级很旧的布局。

        === "中文"

            1.8 之前保存的 LSTM 没有 `proj_size`，补为 0；更早的版本把 `_all_weights` 存成张量
            而不是名字，此时按层、方向重新生成名字列表。最后重建弱引用。

        === "English"

            LSTMs saved before 1.8 have no `proj_size`, so it is set to 0; still older versions
            stored tensors instead of names in `_all_weights`, in which case the name lists are
            regenerated by layer and direction. Finally the weak references are rebuilt.

        Args:
            d: The pickled `__dict__`. / pickle 中的 `__dict__`。
        """
        # 中: 先由 `Module.__setstate__` 恢复 `__dict__`（并补齐旧 pickle 缺少的钩子字典等）。
        # 中: 更旧的状态把分组存在公开键 `all_weights` 下，改放进 `_all_weights`。
        # EN: `Module.__setstate__` restores `__dict__` first (and fills in the hook dicts and
        # EN: such that old pickles lack). Older states kept the groups under the public key
        # EN: `all_weights`; they move to `_all_weights`.
        super().__setstate__(d)
        if "all_weights" in d:
            self._all_weights = d["all_weights"]
        # 中: torch 的注释：PyTorch 1.8 给 LSTM 加了 `proj_size`，之前 `torch.save(module)` 存下的
        # 中: LSTM 没有它，补 0（不投影）以保持兼容。
        # EN: torch's comment: PyTorch 1.8 added `proj_size` to LSTM; LSTMs saved with
        # EN: `torch.save(module)` before that lack it, so 0 (no projection) keeps them working.
        if "proj_size" not in d:
            self.proj_size = 0

        # 中: 分组里存的不是名字（旧格式存的是张量）时，按层、方向重新生成名字：先列出全部五个
        # 中: 候选名，再按 `bias` 与 `proj_size` 取子集，与 `__init__` 的命名规则一致。
        # EN: If the groups hold something other than names (the old format stored tensors),
        # EN: regenerate the names per layer and direction: list all five candidates, then take
        # EN: the subset for `bias` and `proj_size`, following `__init__`'s naming rule.
        if not isinstance(self._all_weights[0][0], str):
            num_layers = self.num_layers
            num_directions = 2 if self.bidirectional else 1
            self._flat_weights_names = []
            self._all_weights = []
            for layer in range(num_layers):
                for direction in range(num_directions):
                    # 中: 每层每方向一组，命名规则同 `__init__`（反向加 `_reverse`）。
                    # EN: One group per layer and direction, named as in `__init__` (`_reverse`
                    # EN: for the backward direction).
                    suffix = "_reverse" if direction == 1 else ""
                    weights = [
                        "weight_ih_l{}{}",
                        "weight_hh_l{}{}",
                        "bias_ih_l{}{}",
                        "bias_hh_l{}{}",
                        "weight_hr_l{}{}",
                    ]
                    # 中: 填入层号与后缀，例如 `weight_ih_l1_reverse`。
                    # EN: Fill in the layer number and suffix, e.g. `weight_ih_l1_reverse`.
                    weights = [x.format(layer, suffix) for x in weights]
                    # 中: 有偏置：有投影时全部五个，否则前四个。
                    # EN: With biases: all five with a projection, else the first four.
                    if self.bias:
                        if self.proj_size > 0:
                            self._all_weights += [weights]
                            self._flat_weights_names.extend(weights)
                        else:
                            self._all_weights += [weights[:4]]
                            self._flat_weights_names.extend(weights[:4])
                    else:
                        # 中: 无偏置：两个权重，有投影再加 `weight_hr`。
                        # EN: Without biases: the two weights, plus `weight_hr` with a projection.
                        if self.proj_size > 0:
                            self._all_weights += [weights[:2]] + [weights[-1:]]
                            # 中: 此处与 torch 相同地 extend 了一个嵌套 list（`_all_weights` 也多
                            # 中: 出一组）。下面的 `hasattr` 遇到这个 list 元素会抛 TypeError，所以
                            # 中: 旧格式、无偏置且 `proj_size > 0` 的状态无法恢复（torch 原样如此）。
                            # EN: Like torch, this extends with a nested list (and `_all_weights`
                            # EN: gets an extra group). The `hasattr` below raises TypeError on that
                            # EN: list element, so an old-format state without bias and with
                            # EN: `proj_size > 0` cannot be restored (torch's behavior as is).
                            self._flat_weights_names.extend(weights[:2] + [weights[-1:]])
                        else:
                            self._all_weights += [weights[:2]]
                            self._flat_weights_names.extend(weights[:2])
            # 中: 按新名字重建扁平列表（缺失的留 None）。
            # EN: Rebuild the flat list from the new names (None where missing).
            self._flat_weights = [
                getattr(self, wn) if hasattr(self, wn) else None for wn in self._flat_weights_names
            ]

        # 中: 弱引用没有被 pickle（见 `__getstate__`），这里重建；注意不会调用 `flatten_parameters`。
        # EN: The weak references were not pickled (see `__getstate__`); rebuild them here.
        # EN: Note that `flatten_parameters` is not called.
        self._flat_weight_refs = [
            weakref.ref(w) if w is not None else None for w in self._flat_weights
        ]

    @property
    def all_weights(self) -> list[list[Parameter]]:
        r"""The weights grouped by layer and direction. / 按层与方向分组的权重。

        === "中文"

            每组顺序为 `weight_ih, weight_hh[, bias_ih, bias_hh][, weight_hr]`。

        === "English"

            Each group is ordered `weight_ih, weight_hh[, bias_ih, bias_hh][, weight_hr]`.

        Returns:
            A list of lists of parameters. / 参数列表的列表。
        """
        return [[getattr(self, weight) for weight in weights] for weights in self._all_weights]

    def _replicate_for_data_parallel(self):
        r"""Replica for DataParallel with its own flat-weight lists. / 供 DataParallel 用的副本，扁平权重列表各自独立。

        === "中文"

            浅拷贝的副本会和原模块共用同一个 list 对象，复制后各自拷贝一份。

        === "English"

            A shallow replica would share the very list objects with the original, so each
            list is copied.

        Returns:
            The replica. / 副本。
        """
        replica = super()._replicate_for_data_parallel()
        replica._flat_weights = replica._flat_weights[:]
        replica._flat_weights_names = replica._flat_weights_names[:]
        return replica


class RNN(RNNBase):
    r"""Elman RNN with a tanh or ReLU activation. / 采用 tanh 或 ReLU 激活的 Elman 循环网络。

    === "中文"

        每步计算 `h_t = act(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)`，`act` 是 `tanh` 或 `relu`，对应模式 `RNN_TANH`/`RNN_RELU`。构造参数的位置顺序是
        `input_size, hidden_size, num_layers, nonlinearity, bias, ...`：第 4 个位置参数是
        `nonlinearity`，而 `RNNBase` 没有这个参数，所以 `__init__` 先把它取出再转交其余参数。

    === "English"

        Each step computes `h_t = act(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)`; `act` is `tanh` or `relu`, i.e. mode `RNN_TANH`/`RNN_RELU`. The positional order is
        `input_size, hidden_size, num_layers, nonlinearity, bias, ...`: the fourth positional
        argument is `nonlinearity`, which `RNNBase` does not take, so `__init__` removes it
        before passing the rest on.

    Args:
        *args: `input_size, hidden_size, num_layers, nonlinearity, bias, batch_first, dropout, bidirectional`. / 按位置传入的构造参数。
        **kwargs: The same by keyword, plus `device`, `dtype`. / 同名关键字参数，另有 `device`、`dtype`。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> rnn = nn.RNN(10, 20, 2)
        >>> output, hn = rnn(torch.randn(5, 3, 10), torch.randn(2, 3, 20))
        >>> output.shape, hn.shape
        (torch.Size([5, 3, 20]), torch.Size([2, 3, 20]))
    """

    def __init__(self, *args, **kwargs):
        r"""Pick out `nonlinearity`, map it to a mode, build the base. / 取出 `nonlinearity`，换成模式，构造基类。

        === "中文"

            `proj_size` 只属于 LSTM，以关键字传给 RNN 时报错（位置参数形式不检查，见下面的注释）。

        === "English"

            `proj_size` belongs to LSTM only; passing it to RNN by keyword is an error (the
            positional form is not checked; see the note below).

        Args:
            *args: Positional constructor arguments. / 位置构造参数。
            **kwargs: Keyword constructor arguments. / 关键字构造参数。

        Raises:
            ValueError: `proj_size` by keyword, or unknown nonlinearity. / 以关键字传了 `proj_size`，或非线性未知。
        """
        # 中: 只拦关键字形式的 `proj_size`：第九个位置参数会漏过去，造出带 `weight_hr_l0` 的 RNN，
        # 中: 默认隐状态随后在 `forward` 里形状不符（torch 也如此）。`nonlinearity` 是第四个位置
        # 中: 参数，取出后从 `args` 删掉，剩下的正好对上 `RNNBase` 的位置顺序；没按位置给就从
        # 中: `kwargs` 取，默认 `"tanh"`。在 `Module.__init__` 之前给 `self` 赋值可行，因为普通
        # 中: 字符串属性不需要模块的内部字典。
        # EN: Only a keyword `proj_size` is caught: a ninth positional argument slips through and
        # EN: builds an RNN with `weight_hr_l0`, whose default hidden state then has the wrong
        # EN: shape in `forward` (as in torch). `nonlinearity` is the fourth positional argument;
        # EN: taking it out of `args` leaves exactly `RNNBase`'s positional order; otherwise it
        # EN: comes from `kwargs`, default `"tanh"`. Assigning to `self` before `Module.__init__`
        # EN: works because a plain string attribute needs none of the module's internal dicts.
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        # 中: 非线性换成模式字符串，模式决定 `gate_size` 和内核（`_rnn_impls`）。
        # EN: The nonlinearity becomes the mode string, which picks `gate_size` and the kernel
        # EN: (`_rnn_impls`).
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(
                f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'."
            )
        # 中: 模式在前，其余位置参数和关键字参数原样交给 `RNNBase`。
        # EN: The mode first, the remaining positional and keyword arguments passed on to
        # EN: `RNNBase` as they are.
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):
        r"""Run all layers over the whole sequence in one kernel call. / 一次内核调用跑完所有层和整个序列。

        === "中文"

            接受三种输入：3 维有批次张量、2 维无批次张量（临时补一个批次维，输出再去掉），
            或 PackedSequence（取出数据与 `batch_sizes`，隐状态按 `sorted_indices` 重排）。
            `hx` 缺省为全零。1.5.1 → 2.13：新增无批次输入。

        === "English"

            Takes three kinds of input: a batched 3-D tensor, an unbatched 2-D tensor (a batch
            dimension is added for the kernel and removed from the result), or a PackedSequence
            (its data and `batch_sizes` are unpacked; hidden states are reordered by
            `sorted_indices`). `hx` defaults to zeros. 1.5.1 → 2.13: unbatched input was added.

        Args:
            input: Tensor or PackedSequence. / 张量或 PackedSequence。
            hx: Initial hidden state, or None for zeros. / 初始隐状态；None 表示全零。

        Returns:
            `(output, h_n)`; `output` is packed if the input was. / `(output, h_n)`；输入是打包的则输出也是。

        Raises:
            ValueError: Input not 2-D or 3-D. / 输入不是 2 维或 3 维。
            RuntimeError: `hx` rank or shape mismatch. / `hx` 维数或形状不符。
        """
        # 中: 若参数对象被换过（如 `functional_call`），先重建扁平列表，内核才能看到当前的参数。
        # EN: If a parameter object was swapped (e.g. by `functional_call`), rebuild the flat list
        # EN: first so that the kernel sees the current parameters.
        self._update_flat_weights()

        # 中: 打包输入：拆出数据 `(sum(lengths), input_size)`、每个时间步的批大小 `batch_sizes`，
        # 中: 以及两个排列。最大批大小是 `batch_sizes[0]`。
        # EN: Packed input: unpack the data `(sum(lengths), input_size)`, the per-step batch
        # EN: sizes `batch_sizes` and the two permutations. The largest batch is `batch_sizes[0]`.
        num_directions = 2 if self.bidirectional else 1
        orig_input = input
        if isinstance(orig_input, _TorchPackedSequence):
            input, batch_sizes, sorted_indices, unsorted_indices = input
            max_batch_size = batch_sizes[0]
            if hx is None:
                # 中: 默认 h_0 是与输入同 dtype、同设备的全零，形状
                # 中: `(num_layers * num_directions, max_batch, hidden_size)`。
                # EN: The default h_0 is zeros of the input's dtype and device, shaped
                # EN: `(num_layers * num_directions, max_batch, hidden_size)`.
                hx = torch.zeros(
                    self.num_layers * num_directions,
                    max_batch_size,
                    self.hidden_size,
                    dtype=input.dtype,
                    device=input.device,
                )
            else:
                # 中: 用户给的 hx 按原批次顺序排列，内核需要按长度排序后的顺序。`enforce_sorted=True`
                # 中: 打包时 `sorted_indices` 为 None，原样使用。重排发生在形状检查之前，所以多出来的批次
                # 中: 行会被悄悄丢掉，而不是报错（torch 也如此）。
                # EN: The user's hx is in the original batch order; the kernel needs the sorted one.
                # EN: Packed with `enforce_sorted=True`, `sorted_indices` is None and hx is used as
                # EN: is. The reordering comes before the shape check, so extra batch rows are
                # EN: silently dropped rather than reported (as in torch).
                hx = self.permute_hidden(hx, sorted_indices)
        else:
            # 中: 普通张量：没有 `batch_sizes`；只接受 2 维（无批次）或 3 维。
            # EN: A plain tensor: no `batch_sizes`; only 2-D (unbatched) or 3-D is accepted.
            batch_sizes = None
            if input.dim() not in (2, 3):
                raise ValueError(
                    f"RNN: Expected input to be 2D or 3D, got {input.dim()}D tensor instead"
                )
            # 中: 无批次输入在 `batch_dim` 处补一个大小为 1 的批次维。
            # EN: Unbatched input gets a size-1 batch dimension at `batch_dim`.
            is_batched = input.dim() == 3
            batch_dim = 0 if self.batch_first else 1
            if not is_batched:
                input = input.unsqueeze(batch_dim)
                # 中: hx（若给出）必须是 2 维，批次维补在第 1 维——隐状态的批次维总在第 1 维，
                # 中: 与 `batch_first` 无关。
                # EN: hx, if given, must be 2-D and gets its batch dimension at 1, since hidden
                # EN: states always keep the batch in dimension 1, whatever `batch_first` says.
                if hx is not None:
                    if hx.dim() != 2:
                        raise RuntimeError(
                            f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor"
                        )
                    hx = hx.unsqueeze(1)
            else:
                # 中: 有批次时 hx（若给出）必须是 3 维。
                # EN: Batched: hx, if given, must be 3-D.
                if hx is not None and hx.dim() != 3:
                    raise RuntimeError(
                        f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor"
                    )
            # 中: 普通张量没有排列；批大小按 `batch_first` 取。
            # EN: A plain tensor has no permutation; the batch size depends on `batch_first`.
            max_batch_size = input.size(0) if self.batch_first else input.size(1)
            sorted_indices = None
            unsorted_indices = None
            if hx is None:
                # 中: 默认 h_0 为全零，与输入同 dtype、同设备。
                # EN: The default h_0 is zeros of the input's dtype and device.
                hx = torch.zeros(
                    self.num_layers * num_directions,
                    max_batch_size,
                    self.hidden_size,
                    dtype=input.dtype,
                    device=input.device,
                )
            else:
                # 中: 对 None 排列调用 `permute_hidden` 什么也不做，只是与打包分支保持同样的写法。
                # EN: `permute_hidden` with a None permutation does nothing; it only mirrors the
                # EN: packed branch.
                hx = self.permute_hidden(hx, sorted_indices)

        # 中: 到这里 hx 不可能是 None，这一句只为类型收窄。两条路径都要检查输入与 hx 的形状；
        # 中: 模式断言同样只是防御。
        # EN: hx cannot be None here; the assertion only narrows the type. Both paths check the
        # EN: input and hx shapes; the mode assertion is defensive too.
        if hx is None:
            raise AssertionError("hx must not be None")
        self.check_forward_args(input, hx, batch_sizes)
        if self.mode != "RNN_TANH" and self.mode != "RNN_RELU":
            raise AssertionError(f"mode must be RNN_TANH or RNN_RELU, got {self.mode}")
        kernel = _rnn_impls[self.mode]
        # 中: 内核有两个重载：非打包版在 hx 前无 batch_sizes、末尾多一个 batch_first
        # 中: （打包数据没有批次维可言）。
        # EN: The kernel has two overloads: the unpacked one has no batch_sizes before hx and
        # EN: takes batch_first last (packed data has no batch dimension to place).
        if batch_sizes is None:
            result = kernel(
                input,
                hx,
                # 中: 整张扁平列表加上 `self.bias`，内核据此把列表切成每层每方向一组（2 或 4 个张量）。
                # EN: The whole flat list plus `self.bias`, from which the kernel cuts one group
                # EN: per layer and direction (2 or 4 tensors).
                self._flat_weights,
                self.bias,
                self.num_layers,
                # 中: 层间 dropout 只在 `self.training` 为真时生效。
                # EN: Inter-layer dropout applies only while `self.training` is true.
                self.dropout,
                self.training,
                self.bidirectional,
                self.batch_first,
            )
        else:
            # 中: 打包版：`batch_sizes` 紧跟在数据之后……
            # EN: The packed overload: `batch_sizes` right after the data ...
            result = kernel(
                input,
                batch_sizes,
                hx,
                self._flat_weights,
                self.bias,
                # 中: ……其余参数同上，只是没有 `batch_first`。
                # EN: ... the rest as above, minus `batch_first`.
                self.num_layers,
                self.dropout,
                self.training,
                self.bidirectional,
            )

        # 中: 结果是 `(output, h_n)`：output 是最后一层每个时间步的 h，h_n 是每层每方向最后的 h。
        # EN: The result is `(output, h_n)`: output holds the last layer's h at every step, h_n
        # EN: the final h of every layer and direction.
        output = result[0]
        hidden = result[1]

        # 中: 打包输入得到打包输出，沿用同样的 `batch_sizes` 与排列；h_n 用 `unsorted_indices`
        # 中: 排回用户的批次顺序。
        # EN: Packed in, packed out, with the same `batch_sizes` and permutations; h_n goes back
        # EN: to the user's batch order through `unsorted_indices`.
        if isinstance(orig_input, _TorchPackedSequence):
            # 中: 输出与输入同属一族：我们的打包序列（含其子类）得到我们的类，其余的得到 torch 的类，
            # 中: 与 `torch.nn.RNN` 总是返回 torch 的类相对应。
            # EN: The output joins the input's family: our packed sequences (subclasses included)
            # EN: get our class, any other gets torch's, matching `torch.nn.RNN`, which always
            # EN: returns torch's class.
            packed_class = (
                PackedSequence if isinstance(orig_input, PackedSequence) else _TorchPackedSequence
            )
            output_packed = packed_class(output, batch_sizes, sorted_indices, unsorted_indices)
            return output_packed, self.permute_hidden(hidden, unsorted_indices)

        # 中: 去掉前面补的批次维：output 在 `batch_dim`，h_n 在第 1 维。
        # EN: Remove the batch dimensions added earlier: output's at `batch_dim`, h_n's at 1.
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = hidden.squeeze(1)

        return output, self.permute_hidden(hidden, unsorted_indices)


class LSTM(RNNBase):
    r"""Long short-term memory, optionally with a projection of `h`. / 长短期记忆网络，可选对 `h` 投影。

    === "中文"

        每步有输入门、遗忘门、候选值、输出门四块，所以 `gate_size = 4 * hidden_size`；
        细胞状态 `c` 宽 `hidden_size`。`proj_size > 0` 时 `h_t = W_hr (o_t * tanh(c_t))`，
        `h` 只有 `proj_size` 宽，`weight_hh` 的输入维也随之变为 `proj_size`。
        1.5.1 → 2.13：新增 `proj_size`（1.8）与无批次输入。

    === "English"

        Each step has input, forget, cell-candidate and output blocks, so
        `gate_size = 4 * hidden_size`; the cell state `c` is `hidden_size` wide. With
        `proj_size > 0`, `h_t = W_hr (o_t * tanh(c_t))`, so `h` is only `proj_size` wide and
        `weight_hh` takes `proj_size` inputs. 1.5.1 → 2.13: `proj_size` (1.8) and unbatched
        input were added.

    Args:
        *args: `input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional, proj_size`. / 按位置传入的构造参数。
        **kwargs: The same by keyword, plus `device`, `dtype`. / 同名关键字参数，另有 `device`、`dtype`。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> lstm = nn.LSTM(10, 20, proj_size=5)
        >>> output, (hn, cn) = lstm(torch.randn(5, 3, 10))
        >>> output.shape, hn.shape, cn.shape
        (torch.Size([5, 3, 5]), torch.Size([1, 3, 5]), torch.Size([1, 3, 20]))
    """

    def __init__(self, *args, **kwargs):
        r"""Build the base in `'LSTM'` mode. / 以 `'LSTM'` 模式构造基类。

        === "中文"

            LSTM 没有自己的参数，全部转交 `RNNBase`。

        === "English"

            LSTM has no arguments of its own; all go to `RNNBase`.

        Args:
            *args: Positional constructor arguments. / 位置构造参数。
            **kwargs: Keyword constructor arguments. / 关键字构造参数。
        """
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(
        self, input: Tensor, batch_sizes: Tensor | None
    ) -> tuple[int, int, int]:
        r"""Shape `c_0` must have: always `hidden_size` wide. / `c_0` 应有的形状：宽度总是 `hidden_size`。

        === "中文"

            与 `get_expected_hidden_size` 的区别只在最后一维：投影只作用于 `h`，不作用于 `c`。

        === "English"

            Differs from `get_expected_hidden_size` only in the last dimension: the projection
            applies to `h`, not to `c`.

        Args:
            input: Batched input (or packed data). / 有批次的输入（或打包数据）。
            batch_sizes: Batch sizes of a PackedSequence, or None. / PackedSequence 的批大小，或 None。

        Returns:
            The expected shape as a tuple. / 期望形状（tuple）。
        """
        # 中: 批大小的取法与 `get_expected_hidden_size` 相同，最后一维固定为 `hidden_size`。
        # EN: The batch is found as in `get_expected_hidden_size`; the last dimension is always
        # EN: `hidden_size`.
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, mini_batch, self.hidden_size)

    def check_forward_args(
        self, input: Tensor, hidden: tuple[Tensor, Tensor], batch_sizes: Tensor | None
    ) -> None:
        r"""Check the input, `h_0` and `c_0`. / 检查输入、`h_0` 与 `c_0`。

        === "中文"

            两个状态各用自己的报错信息（`hidden[0]`、`hidden[1]`）。

        === "English"

            Each state has its own message (`hidden[0]`, `hidden[1]`).

        Args:
            input: Batched input (or packed data). / 有批次的输入（或打包数据）。
            hidden: `(h_0, c_0)`. / `(h_0, c_0)`。
            batch_sizes: Batch sizes of a PackedSequence, or None. / PackedSequence 的批大小，或 None。
        """
        # 中: `h_0` 的宽度可能是 `proj_size`（基类的规则）……
        # EN: `h_0` may be `proj_size` wide (the base class rule) ...
        self.check_input(input, batch_sizes)
        self.check_hidden_size(
            hidden[0],
            self.get_expected_hidden_size(input, batch_sizes),
            "Expected hidden[0] size {}, got {}",
        )
        # 中: ……`c_0` 的宽度总是 `hidden_size`。
        # EN: ... `c_0` is always `hidden_size` wide.
        self.check_hidden_size(
            hidden[1],
            self.get_expected_cell_size(input, batch_sizes),
            "Expected hidden[1] size {}, got {}",
        )

    def permute_hidden(
        self, hx: tuple[Tensor, Tensor], permutation: Tensor | None
    ) -> tuple[Tensor, Tensor]:
        r"""Reorder both `h` and `c` along the batch dimension. / 沿批次维同时重排 `h` 与 `c`。

        === "中文"

            LSTM 的状态是一对张量，两者都要重排。

        === "English"

            An LSTM's state is a pair of tensors; both are reordered.

        Args:
            hx: `(h, c)`. / `(h, c)`。
            permutation: Index tensor or None. / 下标张量或 None。

        Returns:
            The (re)ordered pair. / （重排后的）状态对。
        """
        # 中: h 与 c 的批次维都在第 1 维，用同一个排列重排，返回新的二元组。
        # EN: h and c both keep the batch in dimension 1; the same permutation reorders both,
        # EN: returning a new pair.
        if permutation is None:
            return hx
        return _apply_permutation(hx[0], permutation), _apply_permutation(hx[1], permutation)

    def forward(self, input, hx=None):
        r"""Run all layers over the whole sequence with `_VF.lstm`. / 用 `_VF.lstm` 跑完所有层和整个序列。

        === "中文"

            与 `RNN.forward` 结构相同，区别：默认 `h_0` 宽 `proj_size`（若有）而 `c_0` 宽
            `hidden_size`；非打包输入时先检查形状、再重排（RNN 是反过来的，但非打包时排列为 None，
            所以结果一样）；打包输入时根本不调用 `check_forward_args`（与 torch 相同），错误的
            `(h_0, c_0)` 或输入 dtype 只会以内核报错的形式出现；返回 `(output, (h_n, c_n))`。

        === "English"

            Same structure as `RNN.forward`, except: the default `h_0` is `proj_size` wide (if
            set) while `c_0` is `hidden_size` wide; for unpacked input the shapes are checked
            before permuting (the reverse of RNN, but the permutation is None there, so it
            makes no difference); for packed input `check_forward_args` is not called at all
            (as in torch), so a wrong `(h_0, c_0)` or input dtype surfaces only as a kernel
            error; it returns `(output, (h_n, c_n))`.

        Args:
            input: Tensor or PackedSequence. / 张量或 PackedSequence。
            hx: `(h_0, c_0)`, or None for zeros. / `(h_0, c_0)`；None 表示全零。

        Returns:
            `(output, (h_n, c_n))`. / `(output, (h_n, c_n))`。

        Raises:
            ValueError: Input not 2-D or 3-D. / 输入不是 2 维或 3 维。
            RuntimeError: State rank or shape mismatch. / 状态维数或形状不符。
        """
        # 中: 与 `RNN.forward` 相同，先让扁平列表跟上当前的参数对象。
        # EN: As in `RNN.forward`, first bring the flat list up to date with the parameter objects.
        self._update_flat_weights()

        # 中: 状态是一对：h 宽 `real_hidden_size`（有投影时为 `proj_size`），c 总是宽 `hidden_size`。
        # EN: The state is a pair: h is `real_hidden_size` wide (`proj_size` with a projection),
        # EN: c is always `hidden_size` wide.
        orig_input = input
        batch_sizes = None
        num_directions = 2 if self.bidirectional else 1
        real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
        if isinstance(orig_input, _TorchPackedSequence):
            # 中: 打包输入：拆包同 `RNN.forward`；默认 (h_0, c_0) 是两个宽度不同的全零张量。
            # EN: Packed input: unpacked as in `RNN.forward`; the default (h_0, c_0) is two zero
            # EN: tensors of different widths.
            input, batch_sizes, sorted_indices, unsorted_indices = input
            max_batch_size = batch_sizes[0]
            if hx is None:
                # 中: 默认 h_0 的宽度为 `real_hidden_size`。
                # EN: The default h_0 is `real_hidden_size` wide.
                h_zeros = torch.zeros(
                    self.num_layers * num_directions,
                    max_batch_size,
                    real_hidden_size,
                    dtype=input.dtype,
                    device=input.device,
                )
                # 中: c_0 的宽度是 `hidden_size`，不受投影影响。
                # EN: c_0 is `hidden_size` wide, untouched by the projection.
                c_zeros = torch.zeros(
                    self.num_layers * num_directions,
                    max_batch_size,
                    self.hidden_size,
                    dtype=input.dtype,
                    device=input.device,
                )
                # 中: 内核要的是 (h, c) 二元组。
                # EN: The kernel takes the (h, c) tuple.
                hx = (h_zeros, c_zeros)
            else:
                # 中: 用户的 (h_0, c_0) 排成内核的顺序。注意打包分支不调用 `check_forward_args`
                # 中: （torch 也如此）：形状或 dtype 不对时只会在内核里报错，信息也不那么直接，
                # 中: 例如 “got an incorrect number of RNN parameters”。
                # EN: The user's (h_0, c_0) go into the kernel's order. Note that the packed branch
                # EN: never calls `check_forward_args` (as in torch): a wrong shape or dtype only
                # EN: fails inside the kernel, with a less direct message such as "got an incorrect
                # EN: number of RNN parameters".
                hx = self.permute_hidden(hx, sorted_indices)
        else:
            # 中: 普通张量：只接受 2 维或 3 维；无批次输入补批次维（同 `RNN.forward`）。
            # EN: A plain tensor: 2-D or 3-D only; unbatched input gets a batch dimension (as in
            # EN: `RNN.forward`).
            if input.dim() not in (2, 3):
                raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {input.dim()}D instead")
            is_batched = input.dim() == 3
            batch_dim = 0 if self.batch_first else 1
            if not is_batched:
                input = input.unsqueeze(batch_dim)
            # 中: 这里只处理输入；用户给的 (h_0, c_0) 的维数在下面的 else 分支里检查。
            # EN: Only the input is handled here; a user's (h_0, c_0) has its rank checked in the
            # EN: else branch below.
            max_batch_size = input.size(0) if self.batch_first else input.size(1)
            sorted_indices = None
            unsorted_indices = None
            if hx is None:
                # 中: 默认状态：同样宽度规则的两个全零张量，建好后立即检查输入。
                # EN: Default state: two zero tensors with the same width rule, then the input is
                # EN: checked at once.
                h_zeros = torch.zeros(
                    self.num_layers * num_directions,
                    max_batch_size,
                    real_hidden_size,
                    dtype=input.dtype,
                    device=input.device,
                )
                # 中: c_0 同样宽 `hidden_size`。
                # EN: c_0 is again `hidden_size` wide.
                c_zeros = torch.zeros(
                    self.num_layers * num_directions,
                    max_batch_size,
                    self.hidden_size,
                    dtype=input.dtype,
                    device=input.device,
                )
                hx = (h_zeros, c_zeros)
                # 中: 默认状态的形状必然正确，这一步实际检查的是输入（dtype、维数、特征数）。
                # EN: The default state's shapes are right by construction; this call really checks
                # EN: the input (dtype, rank, features).
                self.check_forward_args(input, hx, batch_sizes)
            else:
                # 中: 用户给的状态：h 与 c 的维数都要与输入相符（有批次为 3 维，无批次为 2 维），
                # 中: 报错信息把两者的维数一起列出；无批次时两者都在第 1 维补批次维。
                # EN: A user-given state: h and c must both match the input's rank (3-D batched,
                # EN: 2-D unbatched), and the message lists both ranks; when unbatched both get
                # EN: a batch dimension at 1.
                if is_batched:
                    if hx[0].dim() != 3 or hx[1].dim() != 3:
                        msg = (
                            "For batched 3-D input, hx and cx should "
                            f"also be 3-D but got ({hx[0].dim()}-D, {hx[1].dim()}-D) tensors"
                        )
                        raise RuntimeError(msg)
                else:
                    # 中: 无批次：两者都必须是 2 维，然后各自在第 1 维补批次维。
                    # EN: Unbatched: both must be 2-D, then each gets a batch dimension at 1.
                    if hx[0].dim() != 2 or hx[1].dim() != 2:
                        msg = (
                            "For unbatched 2-D input, hx and cx should "
                            f"also be 2-D but got ({hx[0].dim()}-D, {hx[1].dim()}-D) tensors"
                        )
                        raise RuntimeError(msg)
                    hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
                # 中: 先检查再重排；排列为 None，所以重排什么也不做。
                # EN: Check, then permute; the permutation is None, so permuting does nothing.
                self.check_forward_args(input, hx, batch_sizes)
                hx = self.permute_hidden(hx, sorted_indices)

        # 中: `_VF.lstm` 的两个重载与 `RNN.forward` 的内核相同：打包版多 `batch_sizes`、少
        # 中: `batch_first`。
        # EN: `_VF.lstm` has the same two overloads as the kernel in `RNN.forward`: the packed one
        # EN: adds `batch_sizes` and drops `batch_first`.
        if batch_sizes is None:
            result = _VF.lstm(
                input,
                hx,
                self._flat_weights,
                self.bias,
                self.num_layers,
                # 中: 层间 dropout 只在训练模式下生效。
                # EN: Inter-layer dropout applies in training mode only.
                self.dropout,
                self.training,
                self.bidirectional,
                self.batch_first,
            )
        else:
            # 中: 打包版：`batch_sizes` 紧跟在数据之后，其余参数同上，只是没有 `batch_first`。
            # EN: The packed overload: `batch_sizes` right after the data, the rest as above,
            # EN: minus `batch_first`.
            result = _VF.lstm(
                input,
                batch_sizes,
                hx,
                self._flat_weights,
                self.bias,
                self.num_layers,
                # 中: 层间 dropout 同样只在训练模式下生效。
                # EN: Inter-layer dropout again applies in training mode only.
                self.dropout,
                self.training,
                self.bidirectional,
            )
        # 中: 结果是 `(output, h_n, c_n)`，所以 `hidden = result[1:]` 是 (h_n, c_n) 二元组。
        # EN: The result is `(output, h_n, c_n)`, so `hidden = result[1:]` is the (h_n, c_n) pair.
        output = result[0]
        hidden = result[1:]

        # 中: 打包输入得到打包输出；(h_n, c_n) 都按 `unsorted_indices` 排回用户顺序。
        # EN: Packed in, packed out; (h_n, c_n) both return to the user's order through
        # EN: `unsorted_indices`.
        if isinstance(orig_input, _TorchPackedSequence):
            # 中: 输出的类按 `RNN.forward` 中的同一规则选择。
            # EN: The output's class is chosen by the same rule as in `RNN.forward`.
            packed_class = (
                PackedSequence if isinstance(orig_input, PackedSequence) else _TorchPackedSequence
            )
            output_packed = packed_class(output, batch_sizes, sorted_indices, unsorted_indices)
            return output_packed, self.permute_hidden(hidden, unsorted_indices)

        # 中: 无批次时去掉补上的批次维（h 与 c 都在第 1 维）。
        # EN: Unbatched: drop the added batch dimensions (dimension 1 of h and c).
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = (hidden[0].squeeze(1), hidden[1].squeeze(1))
        return output, self.permute_hidden(hidden, unsorted_indices)


class GRU(RNNBase):
    r"""Gated recurrent unit with reset and update gates. / 带重置门与更新门的门控循环单元。

    === "中文"

        三块（重置门、更新门、候选状态），所以 `gate_size = 3 * hidden_size`。
        与 LSTM 不同，GRU 只有一个状态 `h`。1.5.1 → 2.13：新增无批次输入。

    === "English"

        Three blocks (reset gate, update gate, candidate state), so
        `gate_size = 3 * hidden_size`. Unlike LSTM, a GRU has one state, `h`.
        1.5.1 → 2.13: unbatched input was added.

    Args:
        *args: `input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional`. / 按位置传入的构造参数。
        **kwargs: The same by keyword, plus `device`, `dtype`. / 同名关键字参数，另有 `device`、`dtype`。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> gru = nn.GRU(10, 20, batch_first=True)
        >>> output, hn = gru(torch.randn(3, 5, 10))
        >>> output.shape, hn.shape
        (torch.Size([3, 5, 20]), torch.Size([1, 3, 20]))
    """

    def __init__(self, *args, **kwargs):
        r"""Reject `proj_size`, build the base in `'GRU'` mode. / 拒绝 `proj_size`，以 `'GRU'` 模式构造基类。

        === "中文"

            `proj_size` 只属于 LSTM，以关键字传给 GRU 时报错；只检查关键字形式：作为第 8 个位置参数传入时
            不会被拦下，造出的模块要到 `forward` 时才因隐状态形状不符而报错（torch 也如此）。

        === "English"

            `proj_size` belongs to LSTM only; passing it to GRU by keyword is an error. Only the
            keyword form is checked: given as the 8th positional argument it gets through, and the
            module fails only in `forward`, on the hidden state's shape (as in torch).

        Args:
            *args: Positional constructor arguments. / 位置构造参数。
            **kwargs: Keyword constructor arguments. / 关键字构造参数。

        Raises:
            ValueError: `proj_size` given by keyword. / 以关键字传了 `proj_size`。
        """
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        r"""Run all layers over the whole sequence with `_VF.gru`. / 用 `_VF.gru` 跑完所有层和整个序列。

        === "中文"

            结构与 `RNN.forward` 相同，只是内核换成 `_VF.gru`，报错前缀为 `GRU:`。

        === "English"

            Same structure as `RNN.forward` with `_VF.gru` as the kernel and `GRU:` as the
            message prefix.

        Args:
            input: Tensor or PackedSequence. / 张量或 PackedSequence。
            hx: Initial hidden state, or None for zeros. / 初始隐状态；None 表示全零。

        Returns:
            `(output, h_n)`. / `(output, h_n)`。

        Raises:
            ValueError: Input not 2-D or 3-D. / 输入不是 2 维或 3 维。
            RuntimeError: `hx` rank or shape mismatch. / `hx` 维数或形状不符。
        """
        # 中: 与 `RNN.forward` 相同，先让扁平列表跟上当前的参数对象。
        # EN: As in `RNN.forward`, first bring the flat list up to date with the parameter objects.
        self._update_flat_weights()

        # 中: 打包输入：拆包、默认全零 h_0、或把用户的 h_0 排成内核顺序，都与 `RNN.forward` 相同。
        # EN: Packed input: unpacking, the zero default h_0, or reordering the user's h_0 for the
        # EN: kernel, all as in `RNN.forward`.
        orig_input = input
        if isinstance(orig_input, _TorchPackedSequence):
            input, batch_sizes, sorted_indices, unsorted_indices = input
            max_batch_size = batch_sizes[0]
            if hx is None:
                # 中: `num_directions` 只在需要默认状态的地方才算。
                # EN: `num_directions` is computed only where a default state needs it.
                num_directions = 2 if self.bidirectional else 1
                # 中: 默认 h_0：全零，`(num_layers * num_directions, max_batch, hidden_size)`。
                # EN: Default h_0: zeros, `(num_layers * num_directions, max_batch, hidden_size)`.
                hx = torch.zeros(
                    self.num_layers * num_directions,
                    max_batch_size,
                    self.hidden_size,
                    dtype=input.dtype,
                    device=input.device,
                )
            else:
                # 中: 排成内核的顺序；与 RNN 一样，多出来的批次行在检查前就被丢掉。
                # EN: Into the kernel's order; as with RNN, extra batch rows are dropped before
                # EN: the check.
                hx = self.permute_hidden(hx, sorted_indices)
        else:
            # 中: 普通张量：2 维或 3 维；无批次时输入在 `batch_dim`、hx 在第 1 维补批次维，
            # 中: 报错文字与 `RNN.forward` 相同（前缀为 `GRU:`）。
            # EN: A plain tensor: 2-D or 3-D; when unbatched, the input gets a batch dimension at
            # EN: `batch_dim` and hx at 1, with `RNN.forward`'s messages (prefix `GRU:`).
            batch_sizes = None
            if input.dim() not in (2, 3):
                raise ValueError(f"GRU: Expected input to be 2D or 3D, got {input.dim()}D instead")
            # 中: 无批次：输入在 `batch_dim` 补批次维……
            # EN: Unbatched: the input gets its batch dimension at `batch_dim` ...
            is_batched = input.dim() == 3
            batch_dim = 0 if self.batch_first else 1
            if not is_batched:
                input = input.unsqueeze(batch_dim)
                # 中: ……hx（若给出）须为 2 维，并在第 1 维补批次维。
                # EN: ... and hx, if given, must be 2-D and gets it at 1.
                if hx is not None:
                    if hx.dim() != 2:
                        raise RuntimeError(
                            f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor"
                        )
                    hx = hx.unsqueeze(1)
            else:
                # 中: 有批次时 hx（若给出）必须是 3 维。
                # EN: Batched: hx, if given, must be 3-D.
                if hx is not None and hx.dim() != 3:
                    raise RuntimeError(
                        f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor"
                    )
            # 中: 普通张量没有排列；批大小按 `batch_first` 取。
            # EN: A plain tensor has no permutation; the batch size depends on `batch_first`.
            max_batch_size = input.size(0) if self.batch_first else input.size(1)
            sorted_indices = None
            unsorted_indices = None
            if hx is None:
                num_directions = 2 if self.bidirectional else 1
                # 中: 默认 h_0：与输入同 dtype、同设备的全零。
                # EN: Default h_0: zeros of the input's dtype and device.
                hx = torch.zeros(
                    self.num_layers * num_directions,
                    max_batch_size,
                    self.hidden_size,
                    dtype=input.dtype,
                    device=input.device,
                )
            else:
                # 中: `permute_hidden(hx, None)` 原样返回 hx。
                # EN: `permute_hidden(hx, None)` returns hx unchanged.
                hx = self.permute_hidden(hx, sorted_indices)

        # 中: 两条路径都检查（与 LSTM 不同，打包输入也查）；内核 `_VF.gru` 的两个重载同 RNN。
        # EN: Both paths are checked (unlike LSTM, packed input too); the kernel `_VF.gru` has
        # EN: the same two overloads as RNN's.
        self.check_forward_args(input, hx, batch_sizes)
        if batch_sizes is None:
            result = _VF.gru(
                input,
                hx,
                self._flat_weights,
                self.bias,
                self.num_layers,
                # 中: 层间 dropout 只在训练模式下生效。
                # EN: Inter-layer dropout applies in training mode only.
                self.dropout,
                self.training,
                self.bidirectional,
                self.batch_first,
            )
        else:
            # 中: 打包版：`batch_sizes` 紧跟在数据之后，其余参数同上，只是没有 `batch_first`。
            # EN: The packed overload: `batch_sizes` right after the data, the rest as above,
            # EN: minus `batch_first`.
            result = _VF.gru(
                input,
                batch_sizes,
                hx,
                self._flat_weights,
                # 中: `self.bias` 决定每组是 2 个还是 4 个张量。
                # EN: `self.bias` decides whether each group has 2 or 4 tensors.
                self.bias,
                self.num_layers,
                self.dropout,
                self.training,
                self.bidirectional,
            )
        # 中: 结果是 `(output, h_n)`；打包进、打包出，h_n 排回用户顺序。
        # EN: The result is `(output, h_n)`; packed in, packed out, with h_n back in the user's
        # EN: order.
        output = result[0]
        hidden = result[1]

        if isinstance(orig_input, _TorchPackedSequence):
            # 中: 输出的类按 `RNN.forward` 中的同一规则选择。
            # EN: The output's class is chosen by the same rule as in `RNN.forward`.
            packed_class = (
                PackedSequence if isinstance(orig_input, PackedSequence) else _TorchPackedSequence
            )
            output_packed = packed_class(output, batch_sizes, sorted_indices, unsorted_indices)
            return output_packed, self.permute_hidden(hidden, unsorted_indices)
        # 中: 无批次时去掉补上的批次维：output 在 `batch_dim`，h_n 在第 1 维。
        # EN: Unbatched: drop the added batch dimensions, output's at `batch_dim`, h_n's at 1.
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = hidden.squeeze(1)
        return output, self.permute_hidden(hidden, unsorted_indices)


class RNNCellBase(Module):
    r"""Base of the single-step cells: `weight_ih`, `weight_hh` and two biases. / 单步单元的基类：`weight_ih`、`weight_hh` 与两个偏置。

    === "中文"

        `num_chunks` 是门的块数（RNNCell 1、GRUCell 3、LSTMCell 4），权重第一维是
        `num_chunks * hidden_size`。没有层数、方向、dropout，也没有扁平权重：单元的内核直接
        接收四个张量。`bias=False` 时两个偏置登记为 None。

    === "English"

        `num_chunks` is the number of gate blocks (RNNCell 1, GRUCell 3, LSTMCell 4); weights
        have `num_chunks * hidden_size` rows. There are no layers, directions, dropout or flat
        weights: a cell's kernel takes the four tensors directly. With `bias=False` both biases
        are registered as None.

    Args:
        input_size: Features of the input. / 输入特征数。
        hidden_size: Features of the hidden state. / 隐状态特征数。
        bias: Whether to use the bias vectors. / 是否使用偏置向量。
        num_chunks: Number of gate blocks. / 门的块数。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。
    """

    __constants__ = ["input_size", "hidden_size", "bias"]

    input_size: int
    hidden_size: int
    bias: bool
    weight_ih: Tensor
    weight_hh: Tensor

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool,
        num_chunks: int,
        device=None,
        dtype=None,
    ) -> None:
        r"""Allocate the weights and initialize them. / 分配权重并初始化。

        === "中文"

            登记顺序 `weight_ih, weight_hh, bias_ih, bias_hh` 决定 `reset_parameters`
            的随机数消耗顺序与状态字典（state_dict）的键顺序。

        === "English"

            The registration order `weight_ih, weight_hh, bias_ih, bias_hh` fixes the order
            in which `reset_parameters` draws random numbers and the state_dict key order.

        Args:
            input_size: Features of the input. / 输入特征数。
            hidden_size: Features of the hidden state. / 隐状态特征数。
            bias: Whether to use the bias vectors. / 是否使用偏置向量。
            num_chunks: Number of gate blocks. / 门的块数。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        # 中: 与 `RNNBase` 不同，单元类不检查参数的类型或取值。
        # EN: Unlike `RNNBase`, cells check neither the types nor the values of their arguments.
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        # 中: 两个权重矩阵，行数都是 `num_chunks * hidden_size`（各门上下堆叠）；单元没有投影，
        # 中: 所以 `weight_hh` 的列数就是 `hidden_size`。
        # EN: Two weight matrices, both with `num_chunks * hidden_size` rows (the gates stacked);
        # EN: cells have no projection, so `weight_hh` has `hidden_size` columns.
        self.weight_ih = Parameter(
            torch.empty((num_chunks * hidden_size, input_size), **factory_kwargs)
        )
        self.weight_hh = Parameter(
            torch.empty((num_chunks * hidden_size, hidden_size), **factory_kwargs)
        )
        # 中: 无偏置时登记 None 占位：`cell.bias_ih` 仍可访问（值为 None），但不进 `parameters()`
        # 中: 与状态字典；单元内核接受 None 偏置。
        # EN: Without biases, None placeholders are registered: `cell.bias_ih` still exists
        # EN: (as None) but stays out of `parameters()` and the state_dict; the cell kernels
        # EN: accept None biases.
        if bias:
            self.bias_ih = Parameter(torch.empty(num_chunks * hidden_size, **factory_kwargs))
            self.bias_hh = Parameter(torch.empty(num_chunks * hidden_size, **factory_kwargs))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)

        # 中: 全部登记完再统一初始化，随机数按登记顺序消耗。
        # EN: Initialize once everything is registered; the draws follow registration order.
        self.reset_parameters()

    def extra_repr(self) -> str:
        r"""Sizes, then `bias` and `nonlinearity` if not default. / 先列尺寸，再列非默认的 `bias` 与 `nonlinearity`。

        === "中文"

            `nonlinearity` 只有 `RNNCell` 有，所以先看 `__dict__` 里是否存在。

        === "English"

            Only `RNNCell` has `nonlinearity`, so its presence in `__dict__` is checked first.

        Returns:
            The text inside the parentheses of `repr`. / `repr` 括号里的内容。
        """
        # 中: 先看 `__dict__` 里有没有这些键：`bias` 与 `nonlinearity` 都是普通属性；`RNNCell` 的
        # 中: `nonlinearity` 在 `super().__init__` 之后才赋值。
        # EN: Look the keys up in `__dict__` first: `bias` and `nonlinearity` are plain
        # EN: attributes, and `RNNCell` sets `nonlinearity` only after `super().__init__`.
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self) -> None:
        r"""Draw every weight from `U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))`. / 所有权重取自 `U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))`。

        === "中文"

            与 `RNNBase.reset_parameters` 相同，按 `parameters()` 顺序调用 `init.uniform_`。

        === "English"

            As in `RNNBase.reset_parameters`: `init.uniform_` in `parameters()` order.
        """
        # 中: 同一个界 `1/sqrt(hidden_size)`；`bias=False` 时两个偏置是 None，不在 `parameters()` 里。
        # 中: 单元类没有检查 `hidden_size`，所以这里的条件表达式真能起作用：0 时界为 0。
        # EN: The same bound `1/sqrt(hidden_size)`; with `bias=False` both biases are None and not
        # EN: in `parameters()`. Cells do not check `hidden_size`, so the conditional matters here:
        # EN: 0 gives a bound of 0.
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)


class RNNCell(RNNCellBase):
    r"""One Elman RNN step: `h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh)`. / 一步 Elman RNN：`h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh)`。

    === "中文"

        `nonlinearity` 在构造时不检查；未知值要到 `forward` 才报 RuntimeError（与 torch 相同）。

    === "English"

        `nonlinearity` is not checked at construction; an unknown value raises RuntimeError
        only in `forward` (as in torch).

    Args:
        input_size: Features of the input. / 输入特征数。
        hidden_size: Features of the hidden state. / 隐状态特征数。
        bias: Whether to use the bias vectors. / 是否使用偏置向量。
        nonlinearity: `'tanh'` or `'relu'`. / `'tanh'` 或 `'relu'`。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> cell = nn.RNNCell(10, 20)
        >>> cell(torch.randn(3, 10)).shape
        torch.Size([3, 20])
    """

    __constants__ = ["input_size", "hidden_size", "bias", "nonlinearity"]
    nonlinearity: str

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        nonlinearity: str = "tanh",
        device=None,
        dtype=None,
    ) -> None:
        r"""Build a one-chunk cell and remember the nonlinearity. / 构造单块单元并记下非线性。

        === "中文"

            1.5.1 → 2.13：新增 `device` 与 `dtype` 参数。

        === "English"

            1.5.1 → 2.13: the `device` and `dtype` arguments were added.

        Args:
            input_size: Features of the input. / 输入特征数。
            hidden_size: Features of the hidden state. / 隐状态特征数。
            bias: Whether to use the bias vectors. / 是否使用偏置向量。
            nonlinearity: `'tanh'` or `'relu'`. / `'tanh'` 或 `'relu'`。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__(input_size, hidden_size, bias, num_chunks=1, **factory_kwargs)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        r"""Compute one step with `_VF.rnn_tanh_cell` or `_VF.rnn_relu_cell`. / 用 `_VF.rnn_tanh_cell` 或 `_VF.rnn_relu_cell` 算一步。

        === "中文"

            1 维输入视为无批次：补批次维、计算、再去掉。`hx` 缺省为全零。
            1.5.1 → 2.13：新增无批次输入。

        === "English"

            A 1-D input is unbatched: a batch dimension is added, the step computed, and the
            dimension removed. `hx` defaults to zeros. 1.5.1 → 2.13: unbatched input was added.

        Args:
            input: `(batch, input_size)` or `(input_size,)`. / `(batch, input_size)` 或 `(input_size,)`。
            hx: Hidden state, or None for zeros. / 隐状态；None 表示全零。

        Returns:
            The next hidden state. / 下一步隐状态。

        Raises:
            ValueError: Input or hidden not 1-D/2-D. / 输入或隐状态不是 1/2 维。
            RuntimeError: Unknown nonlinearity. / 非线性未知。
        """
        # 中: 单元的输入是一个时间步：`(batch, input_size)` 或无批次的 `(input_size,)`；hx 也只能是
        # 中: 1 维或 2 维。这里只查维数，输入与 hx 是否一致（都带批次或都不带）并不检查。
        # EN: A cell's input is one time step: `(batch, input_size)` or unbatched
        # EN: `(input_size,)`; hx may only be 1-D or 2-D too. Only ranks are checked here, not
        # EN: whether input and hx agree (both batched or both not).
        if input.dim() not in (1, 2):
            raise ValueError(f"RNNCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"RNNCell: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        # 中: 无批次输入在第 0 维补批次维（单元没有 `batch_first`，批次总在第 0 维）。
        # EN: Unbatched input gets a batch dimension at 0 (cells have no `batch_first`; the batch
        # EN: is always dimension 0).
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)

        # 中: 默认 hx 为 `(batch, hidden_size)` 的全零；给出的 hx 在无批次时同样补第 0 维。
        # EN: The default hx is zeros of `(batch, hidden_size)`; a given hx gets dimension 0
        # EN: added too when unbatched.
        if hx is None:
            hx = torch.zeros(
                input.size(0), self.hidden_size, dtype=input.dtype, device=input.device
            )
        else:
            hx = hx.unsqueeze(0) if not is_batched else hx

        # 中: 按 `nonlinearity` 选单步内核：`"tanh"` 用 `rnn_tanh_cell`……
        # EN: `nonlinearity` picks the single-step kernel: `"tanh"` uses `rnn_tanh_cell` ...
        if self.nonlinearity == "tanh":
            ret = _VF.rnn_tanh_cell(
                input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh
            )
        # 中: ……`"relu"` 用 `rnn_relu_cell`，参数完全相同（偏置可以是 None）。
        # EN: ... `"relu"` uses `rnn_relu_cell`, with the same arguments (the biases may be None).
        elif self.nonlinearity == "relu":
            ret = _VF.rnn_relu_cell(
                input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh
            )
        else:
            # 中: 未知值到这里才报 RuntimeError（构造时不检查）。
            # EN: An unknown value fails only here, with RuntimeError (construction does not
            # EN: check it).
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")

        # 中: 无批次时去掉补上的批次维，返回 `(hidden_size,)`。
        # EN: Unbatched: drop the added batch dimension, returning `(hidden_size,)`.
        if not is_batched:
            ret = ret.squeeze(0)

        return ret


class LSTMCell(RNNCellBase):
    r"""One LSTM step, returning `(h', c')`. / 一步 LSTM，返回 `(h', c')`。

    === "中文"

        四块门，权重有 `4 * hidden_size` 行。单元版没有 `proj_size`。

    === "English"

        Four gate blocks, so the weights have `4 * hidden_size` rows. The cell has no
        `proj_size`.

    Args:
        input_size: Features of the input. / 输入特征数。
        hidden_size: Features of the hidden state. / 隐状态特征数。
        bias: Whether to use the bias vectors. / 是否使用偏置向量。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> h, c = nn.LSTMCell(10, 20)(torch.randn(3, 10))
        >>> h.shape, c.shape
        (torch.Size([3, 20]), torch.Size([3, 20]))
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        r"""Build a four-chunk cell. / 构造四块单元。

        === "中文"

            1.5.1 → 2.13：新增 `device` 与 `dtype` 参数。

        === "English"

            1.5.1 → 2.13: the `device` and `dtype` arguments were added.

        Args:
            input_size: Features of the input. / 输入特征数。
            hidden_size: Features of the hidden state. / 隐状态特征数。
            bias: Whether to use the bias vectors. / 是否使用偏置向量。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__(input_size, hidden_size, bias, num_chunks=4, **factory_kwargs)

    def forward(
        self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None
    ) -> tuple[Tensor, Tensor]:
        r"""Compute one step with `_VF.lstm_cell`. / 用 `_VF.lstm_cell` 算一步。

        === "中文"

            缺省状态时 `h` 与 `c` 用同一个全零张量（内核不会就地修改它）。

        === "English"

            Without a state, `h` and `c` share one zero tensor (the kernel does not modify it
            in place).

        Args:
            input: `(batch, input_size)` or `(input_size,)`. / `(batch, input_size)` 或 `(input_size,)`。
            hx: `(h, c)`, or None for zeros. / `(h, c)`；None 表示全零。

        Returns:
            `(h', c')`. / `(h', c')`。

        Raises:
            ValueError: Input or a state not 1-D/2-D. / 输入或某个状态不是 1/2 维。
        """
        # 中: 输入 1 维或 2 维；状态 (h, c) 的每个元素也要 1 维或 2 维，报错里用 `hx[0]`/`hx[1]`
        # 中: 指明是哪一个。
        # EN: The input is 1-D or 2-D; each element of the state (h, c) must be too, and the
        # EN: message names which one via `hx[0]`/`hx[1]`.
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(
                        f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got {value.dim()}D instead"
                    )
        # 中: 无批次输入在第 0 维补批次维。
        # EN: Unbatched input gets a batch dimension at 0.
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)

        # 中: 缺省状态时 h 与 c 共用同一个全零张量（内核不会就地修改它）；给出的状态在无批次时
        # 中: 两者都补第 0 维。
        # EN: Without a state, h and c share one zero tensor (the kernel does not modify it in
        # EN: place); a given state gets dimension 0 added to both when unbatched.
        if hx is None:
            zeros = torch.zeros(
                input.size(0), self.hidden_size, dtype=input.dtype, device=input.device
            )
            hx = (zeros, zeros)
        else:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0)) if not is_batched else hx

        # 中: 单步内核返回新的 (h', c')；无批次时两者都去掉批次维。
        # EN: The single-step kernel returns the new (h', c'); unbatched, both lose the batch
        # EN: dimension.
        ret = _VF.lstm_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)

        if not is_batched:
            ret = (ret[0].squeeze(0), ret[1].squeeze(0))
        return ret


class GRUCell(RNNCellBase):
    r"""One GRU step. / 一步 GRU。

    === "中文"

        三块门，权重有 `3 * hidden_size` 行。

    === "English"

        Three gate blocks, so the weights have `3 * hidden_size` rows.

    Args:
        input_size: Features of the input. / 输入特征数。
        hidden_size: Features of the hidden state. / 隐状态特征数。
        bias: Whether to use the bias vectors. / 是否使用偏置向量。
        device: Device for the parameters. / 参数所在设备。
        dtype: Dtype of the parameters. / 参数的数据类型。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.GRUCell(10, 20)(torch.randn(10)).shape
        torch.Size([20])
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        r"""Build a three-chunk cell. / 构造三块单元。

        === "中文"

            1.5.1 → 2.13：新增 `device` 与 `dtype` 参数。

        === "English"

            1.5.1 → 2.13: the `device` and `dtype` arguments were added.

        Args:
            input_size: Features of the input. / 输入特征数。
            hidden_size: Features of the hidden state. / 隐状态特征数。
            bias: Whether to use the bias vectors. / 是否使用偏置向量。
            device: Device for the parameters. / 参数所在设备。
            dtype: Dtype of the parameters. / 参数的数据类型。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__(input_size, hidden_size, bias, num_chunks=3, **factory_kwargs)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        r"""Compute one step with `_VF.gru_cell`. / 用 `_VF.gru_cell` 算一步。

        === "中文"

            无批次处理与 `RNNCell.forward` 相同。

        === "English"

            Unbatched input is handled as in `RNNCell.forward`.

        Args:
            input: `(batch, input_size)` or `(input_size,)`. / `(batch, input_size)` 或 `(input_size,)`。
            hx: Hidden state, or None for zeros. / 隐状态；None 表示全零。

        Returns:
            The next hidden state. / 下一步隐状态。

        Raises:
            ValueError: Input or hidden not 1-D/2-D. / 输入或隐状态不是 1/2 维。
        """
        # 中: 维数检查与无批次处理同 `RNNCell.forward`（报错前缀为 `GRUCell:`）。
        # EN: Rank checks and unbatched handling as in `RNNCell.forward` (message prefix
        # EN: `GRUCell:`).
        if input.dim() not in (1, 2):
            raise ValueError(f"GRUCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"GRUCell: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)

        # 中: 默认 hx 为全零；给出的 hx 在无批次时补第 0 维。
        # EN: The default hx is zeros; a given hx gets dimension 0 when unbatched.
        if hx is None:
            hx = torch.zeros(
                input.size(0), self.hidden_size, dtype=input.dtype, device=input.device
            )
        else:
            hx = hx.unsqueeze(0) if not is_batched else hx

        # 中: 单步内核 `_VF.gru_cell`，无批次时再去掉批次维。
        # EN: The single-step kernel `_VF.gru_cell`; unbatched, the batch dimension is dropped
        # EN: again.
        ret = _VF.gru_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)

        if not is_batched:
            ret = ret.squeeze(0)
        return ret
