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
from torch.nn.utils.rnn import PackedSequence
from typing_extensions import deprecated

from annotated_nn import init
from annotated_nn.parameter import Parameter

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
# DIFF(torch 2.13): EN: the typing-only `@overload` stubs of RNN/LSTM/GRU (`__init__`, `forward`) are left out; runtime behaviour is unchanged.

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

    __constants__ = [
        "mode",
        "input_size",
        "hidden_size",
        "num_layers",
        "bias",
        "batch_first",
        "dropout",
        "bidirectional",
        "proj_size",
    ]
    __jit_unused_properties__ = ["all_weights"]

    mode: str
    input_size: int
    hidden_size: int
    num_layers: int
    bias: bool
    batch_first: bool
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
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
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
        if dropout > 0 and num_layers == 1:
            warnings.warn(
                "dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects "
                f"num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
                stacklevel=2,
            )
        if not isinstance(bias, bool):
            raise TypeError(f"bias should be of type bool, got: {type(bias).__name__}")
        if not isinstance(batch_first, bool):
            raise TypeError(
                f"batch_first should be of type bool, got: {type(batch_first).__name__}"
            )
        if not isinstance(input_size, int):
            raise TypeError(f"input_size should be of type int, got: {type(input_size).__name__}")
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError(
                "proj_size should be a positive integer or zero to disable projections"
            )
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")

        if mode == "LSTM":
            gate_size = 4 * hidden_size
        elif mode == "GRU":
            gate_size = 3 * hidden_size
        elif mode in ("RNN_TANH", "RNN_RELU"):
            gate_size = hidden_size
        else:
            raise ValueError("Unrecognized RNN mode: " + mode)

        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                # 中: 有投影时隐状态 h 的宽度是 proj_size；第 2 层起的输入是上一层各方向 h 的拼接。
                # EN: With a projection, h is proj_size wide; later layers take the concatenated h of all directions below.
                real_hidden_size = proj_size if proj_size > 0 else hidden_size
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions

                # 中: 即使 bias=False 也分配两个偏置（与 torch 相同，只是不登记，随机数消耗因此不变）。
                # EN: Both biases are allocated even with bias=False (as torch does; they are just not registered).
                # 中: 第二个偏置 b_hh 在数学上多余，为与 cuDNN 的权重布局兼容而保留。
                # EN: The second bias b_hh is mathematically redundant; it exists for cuDNN's weight layout.
                w_ih = Parameter(torch.empty((gate_size, layer_input_size), **factory_kwargs))
                w_hh = Parameter(torch.empty((gate_size, real_hidden_size), **factory_kwargs))
                b_ih = Parameter(torch.empty(gate_size, **factory_kwargs))
                b_hh = Parameter(torch.empty(gate_size, **factory_kwargs))
                if self.proj_size == 0:
                    layer_params = (w_ih, w_hh, b_ih, b_hh) if bias else (w_ih, w_hh)
                else:
                    w_hr = Parameter(torch.empty((proj_size, hidden_size), **factory_kwargs))
                    layer_params = (w_ih, w_hh, b_ih, b_hh, w_hr) if bias else (w_ih, w_hh, w_hr)

                suffix = "_reverse" if direction == 1 else ""
                param_names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    param_names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                if self.proj_size > 0:
                    param_names += ["weight_hr_l{}{}"]
                param_names = [x.format(layer, suffix) for x in param_names]

                for name, param in zip(param_names, layer_params, strict=True):
                    setattr(self, name, param)
                self._flat_weights_names.extend(param_names)
                self._all_weights.append(param_names)

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
        self._flat_weights = [
            getattr(self, wn) if hasattr(self, wn) else None for wn in self._flat_weights_names
        ]
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
        first_fw = self._flat_weights[0]
        dtype = first_fw.dtype
        for fw in self._flat_weights:
            if (
                not isinstance(fw, Tensor)
                or fw.dtype != dtype
                or not fw.is_cuda
                or not torch.backends.cudnn.is_acceptable(fw)
            ):
                return

        # 中: 若有参数共享内存，打包会破坏它们的关系，于是退回较慢的拷贝路径。
        # EN: If parameters alias, packing would break that; fall back to the slower copying path.
        unique_data_ptrs = {p.data_ptr() for p in self._flat_weights}
        if len(unique_data_ptrs) != len(self._flat_weights):
            return

        with torch.cuda.device_of(first_fw):
            import torch.backends.cudnn.rnn as rnn

            # 中: 打包是对参数的就地操作，不能被 autograd 记录。
            # EN: Packing works in place on the parameters and must not be recorded by autograd.
            with torch.no_grad():
                if torch._use_cudnn_rnn_flatten_weight():
                    num_weights = 4 if self.bias else 2
                    if self.proj_size > 0:
                        num_weights += 1
                    torch._cudnn_rnn_flatten_weight(
                        self._flat_weights,
                        num_weights,
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
        self._flat_weight_refs = []
        ret = super()._apply(fn, recurse)
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
        if not torch.jit.is_scripting():
            if (
                input.dtype != self._flat_weights[0].dtype
                and not torch._C._is_any_autocast_enabled()
            ):
                raise ValueError(
                    f"RNN input dtype ({input.dtype}) does not match weight dtype ({self._flat_weights[0].dtype}). "
                    f"Convert input: input.to({self._flat_weights[0].dtype}), or convert model: model.to({input.dtype})"
                )
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(
                f"input must have {expected_input_dim} dimensions, got {input.dim()}"
            )
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
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
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

            例如 `torch.func.functional_call` 临时替换了参数：此时弱引用指向的旧对象与
            当前属性不同，需要重建扁平列表。

        === "English"

            E.g. `torch.func.functional_call` swaps the parameters temporarily: the weak
            reference then points at another object than the current attribute, and the flat
            list must be rebuilt.

        Returns:
            True if some weight changed. / 有权重变化时为 True。
        """
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
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
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
        if not torch.jit.is_scripting():
            if self._weights_have_changed():
                self._init_flat_weights()

    def __getstate__(self):
        r"""Pickle state without the weak references. / 去掉弱引用后的 pickle 状态。

        === "中文"

            弱引用不能 pickle（也不能 deepcopy），所以从状态中删除；`__setstate__` 会重建。

        === "English"

            Weak references cannot be pickled (nor deep-copied), so they are dropped from the
            state; `__setstate__` rebuilds them.

        Returns:
            A copy of `__dict__` without `_flat_weight_refs`. / 去掉 `_flat_weight_refs` 的 `__dict__` 副本。
        """
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
        super().__setstate__(d)
        if "all_weights" in d:
            self._all_weights = d["all_weights"]
        if "proj_size" not in d:
            self.proj_size = 0

        if not isinstance(self._all_weights[0][0], str):
            num_layers = self.num_layers
            num_directions = 2 if self.bidirectional else 1
            self._flat_weights_names = []
            self._all_weights = []
            for layer in range(num_layers):
                for direction in range(num_directions):
                    suffix = "_reverse" if direction == 1 else ""
                    weights = [
                        "weight_ih_l{}{}",
                        "weight_hh_l{}{}",
                        "bias_ih_l{}{}",
                        "bias_hh_l{}{}",
                        "weight_hr_l{}{}",
                    ]
                    weights = [x.format(layer, suffix) for x in weights]
                    if self.bias:
                        if self.proj_size > 0:
                            self._all_weights += [weights]
                            self._flat_weights_names.extend(weights)
                        else:
                            self._all_weights += [weights[:4]]
                            self._flat_weights_names.extend(weights[:4])
                    else:
                        if self.proj_size > 0:
                            self._all_weights += [weights[:2]] + [weights[-1:]]
                            # 中: 此处与 torch 相同地 extend 了一个嵌套 list（torch 的原样行为）。
                            # EN: Like torch, this extends with a nested list (torch's behaviour as is).
                            self._flat_weights_names.extend(weights[:2] + [weights[-1:]])
                        else:
                            self._all_weights += [weights[:2]]
                            self._flat_weights_names.extend(weights[:2])
            self._flat_weights = [
                getattr(self, wn) if hasattr(self, wn) else None for wn in self._flat_weights_names
            ]

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

            `proj_size` 只属于 LSTM，传给 RNN 直接报错。

        === "English"

            `proj_size` belongs to LSTM only; passing it to RNN is an error.

        Args:
            *args: Positional constructor arguments. / 位置构造参数。
            **kwargs: Keyword constructor arguments. / 关键字构造参数。

        Raises:
            ValueError: `proj_size` given or unknown nonlinearity. / 传了 `proj_size` 或非线性未知。
        """
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(
                f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'."
            )
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
        self._update_flat_weights()

        num_directions = 2 if self.bidirectional else 1
        orig_input = input
        if isinstance(orig_input, PackedSequence):
            input, batch_sizes, sorted_indices, unsorted_indices = input
            max_batch_size = batch_sizes[0]
            if hx is None:
                hx = torch.zeros(
                    self.num_layers * num_directions,
                    max_batch_size,
                    self.hidden_size,
                    dtype=input.dtype,
                    device=input.device,
                )
            else:
                # 中: 用户给的 hx 按原批次顺序排列，内核需要按长度排序后的顺序。
                # EN: The user's hx is in the original batch order; the kernel needs the sorted one.
                hx = self.permute_hidden(hx, sorted_indices)
        else:
            batch_sizes = None
            if input.dim() not in (2, 3):
                raise ValueError(
                    f"RNN: Expected input to be 2D or 3D, got {input.dim()}D tensor instead"
                )
            is_batched = input.dim() == 3
            batch_dim = 0 if self.batch_first else 1
            if not is_batched:
                input = input.unsqueeze(batch_dim)
                if hx is not None:
                    if hx.dim() != 2:
                        raise RuntimeError(
                            f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor"
                        )
                    hx = hx.unsqueeze(1)
            else:
                if hx is not None and hx.dim() != 3:
                    raise RuntimeError(
                        f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor"
                    )
            max_batch_size = input.size(0) if self.batch_first else input.size(1)
            sorted_indices = None
            unsorted_indices = None
            if hx is None:
                hx = torch.zeros(
                    self.num_layers * num_directions,
                    max_batch_size,
                    self.hidden_size,
                    dtype=input.dtype,
                    device=input.device,
                )
            else:
                hx = self.permute_hidden(hx, sorted_indices)

        if hx is None:
            raise AssertionError("hx must not be None")
        self.check_forward_args(input, hx, batch_sizes)
        if self.mode != "RNN_TANH" and self.mode != "RNN_RELU":
            raise AssertionError(f"mode must be RNN_TANH or RNN_RELU, got {self.mode}")
        kernel = _rnn_impls[self.mode]
        # 中: 内核有两个重载：非打包版在 hx 前无 batch_sizes、末尾多一个 batch_first。
        # EN: The kernel has two overloads: the unpacked one has no batch_sizes before hx and takes batch_first last.
        if batch_sizes is None:
            result = kernel(
                input,
                hx,
                self._flat_weights,
                self.bias,
                self.num_layers,
                self.dropout,
                self.training,
                self.bidirectional,
                self.batch_first,
            )
        else:
            result = kernel(
                input,
                batch_sizes,
                hx,
                self._flat_weights,
                self.bias,
                self.num_layers,
                self.dropout,
                self.training,
                self.bidirectional,
            )

        output = result[0]
        hidden = result[1]

        if isinstance(orig_input, PackedSequence):
            output_packed = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
            return output_packed, self.permute_hidden(hidden, unsorted_indices)

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
        self.check_input(input, batch_sizes)
        self.check_hidden_size(
            hidden[0],
            self.get_expected_hidden_size(input, batch_sizes),
            "Expected hidden[0] size {}, got {}",
        )
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
        if permutation is None:
            return hx
        return _apply_permutation(hx[0], permutation), _apply_permutation(hx[1], permutation)

    def forward(self, input, hx=None):
        r"""Run all layers over the whole sequence with `_VF.lstm`. / 用 `_VF.lstm` 跑完所有层和整个序列。

        === "中文"

            与 `RNN.forward` 结构相同，区别：默认 `h_0` 宽 `proj_size`（若有）而 `c_0` 宽
            `hidden_size`；非打包输入时先检查形状、再重排（RNN 是反过来的，但非打包时排列为 None，
            所以结果一样）；返回 `(output, (h_n, c_n))`。

        === "English"

            Same structure as `RNN.forward`, except: the default `h_0` is `proj_size` wide (if
            set) while `c_0` is `hidden_size` wide; for unpacked input the shapes are checked
            before permuting (the reverse of RNN, but the permutation is None there, so it
            makes no difference); it returns `(output, (h_n, c_n))`.

        Args:
            input: Tensor or PackedSequence. / 张量或 PackedSequence。
            hx: `(h_0, c_0)`, or None for zeros. / `(h_0, c_0)`；None 表示全零。

        Returns:
            `(output, (h_n, c_n))`. / `(output, (h_n, c_n))`。

        Raises:
            ValueError: Input not 2-D or 3-D. / 输入不是 2 维或 3 维。
            RuntimeError: State rank or shape mismatch. / 状态维数或形状不符。
        """
        self._update_flat_weights()

        orig_input = input
        batch_sizes = None
        num_directions = 2 if self.bidirectional else 1
        real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
        if isinstance(orig_input, PackedSequence):
            input, batch_sizes, sorted_indices, unsorted_indices = input
            max_batch_size = batch_sizes[0]
            if hx is None:
                h_zeros = torch.zeros(
                    self.num_layers * num_directions,
                    max_batch_size,
                    real_hidden_size,
                    dtype=input.dtype,
                    device=input.device,
                )
                c_zeros = torch.zeros(
                    self.num_layers * num_directions,
                    max_batch_size,
                    self.hidden_size,
                    dtype=input.dtype,
                    device=input.device,
                )
                hx = (h_zeros, c_zeros)
            else:
                hx = self.permute_hidden(hx, sorted_indices)
        else:
            if input.dim() not in (2, 3):
                raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {input.dim()}D instead")
            is_batched = input.dim() == 3
            batch_dim = 0 if self.batch_first else 1
            if not is_batched:
                input = input.unsqueeze(batch_dim)
            max_batch_size = input.size(0) if self.batch_first else input.size(1)
            sorted_indices = None
            unsorted_indices = None
            if hx is None:
                h_zeros = torch.zeros(
                    self.num_layers * num_directions,
                    max_batch_size,
                    real_hidden_size,
                    dtype=input.dtype,
                    device=input.device,
                )
                c_zeros = torch.zeros(
                    self.num_layers * num_directions,
                    max_batch_size,
                    self.hidden_size,
                    dtype=input.dtype,
                    device=input.device,
                )
                hx = (h_zeros, c_zeros)
                self.check_forward_args(input, hx, batch_sizes)
            else:
                if is_batched:
                    if hx[0].dim() != 3 or hx[1].dim() != 3:
                        msg = (
                            "For batched 3-D input, hx and cx should "
                            f"also be 3-D but got ({hx[0].dim()}-D, {hx[1].dim()}-D) tensors"
                        )
                        raise RuntimeError(msg)
                else:
                    if hx[0].dim() != 2 or hx[1].dim() != 2:
                        msg = (
                            "For unbatched 2-D input, hx and cx should "
                            f"also be 2-D but got ({hx[0].dim()}-D, {hx[1].dim()}-D) tensors"
                        )
                        raise RuntimeError(msg)
                    hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
                self.check_forward_args(input, hx, batch_sizes)
                hx = self.permute_hidden(hx, sorted_indices)

        if batch_sizes is None:
            result = _VF.lstm(
                input,
                hx,
                self._flat_weights,
                self.bias,
                self.num_layers,
                self.dropout,
                self.training,
                self.bidirectional,
                self.batch_first,
            )
        else:
            result = _VF.lstm(
                input,
                batch_sizes,
                hx,
                self._flat_weights,
                self.bias,
                self.num_layers,
                self.dropout,
                self.training,
                self.bidirectional,
            )
        output = result[0]
        hidden = result[1:]

        if isinstance(orig_input, PackedSequence):
            output_packed = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
            return output_packed, self.permute_hidden(hidden, unsorted_indices)
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

            `proj_size` 只属于 LSTM，传给 GRU 直接报错。

        === "English"

            `proj_size` belongs to LSTM only; passing it to GRU is an error.

        Args:
            *args: Positional constructor arguments. / 位置构造参数。
            **kwargs: Keyword constructor arguments. / 关键字构造参数。

        Raises:
            ValueError: `proj_size` given. / 传了 `proj_size`。
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
        self._update_flat_weights()

        orig_input = input
        if isinstance(orig_input, PackedSequence):
            input, batch_sizes, sorted_indices, unsorted_indices = input
            max_batch_size = batch_sizes[0]
            if hx is None:
                num_directions = 2 if self.bidirectional else 1
                hx = torch.zeros(
                    self.num_layers * num_directions,
                    max_batch_size,
                    self.hidden_size,
                    dtype=input.dtype,
                    device=input.device,
                )
            else:
                hx = self.permute_hidden(hx, sorted_indices)
        else:
            batch_sizes = None
            if input.dim() not in (2, 3):
                raise ValueError(f"GRU: Expected input to be 2D or 3D, got {input.dim()}D instead")
            is_batched = input.dim() == 3
            batch_dim = 0 if self.batch_first else 1
            if not is_batched:
                input = input.unsqueeze(batch_dim)
                if hx is not None:
                    if hx.dim() != 2:
                        raise RuntimeError(
                            f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor"
                        )
                    hx = hx.unsqueeze(1)
            else:
                if hx is not None and hx.dim() != 3:
                    raise RuntimeError(
                        f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor"
                    )
            max_batch_size = input.size(0) if self.batch_first else input.size(1)
            sorted_indices = None
            unsorted_indices = None
            if hx is None:
                num_directions = 2 if self.bidirectional else 1
                hx = torch.zeros(
                    self.num_layers * num_directions,
                    max_batch_size,
                    self.hidden_size,
                    dtype=input.dtype,
                    device=input.device,
                )
            else:
                hx = self.permute_hidden(hx, sorted_indices)

        self.check_forward_args(input, hx, batch_sizes)
        if batch_sizes is None:
            result = _VF.gru(
                input,
                hx,
                self._flat_weights,
                self.bias,
                self.num_layers,
                self.dropout,
                self.training,
                self.bidirectional,
                self.batch_first,
            )
        else:
            result = _VF.gru(
                input,
                batch_sizes,
                hx,
                self._flat_weights,
                self.bias,
                self.num_layers,
                self.dropout,
                self.training,
                self.bidirectional,
            )
        output = result[0]
        hidden = result[1]

        if isinstance(orig_input, PackedSequence):
            output_packed = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
            return output_packed, self.permute_hidden(hidden, unsorted_indices)
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
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(
            torch.empty((num_chunks * hidden_size, input_size), **factory_kwargs)
        )
        self.weight_hh = Parameter(
            torch.empty((num_chunks * hidden_size, hidden_size), **factory_kwargs)
        )
        if bias:
            self.bias_ih = Parameter(torch.empty(num_chunks * hidden_size, **factory_kwargs))
            self.bias_hh = Parameter(torch.empty(num_chunks * hidden_size, **factory_kwargs))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)

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
        if input.dim() not in (1, 2):
            raise ValueError(f"RNNCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"RNNCell: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)

        if hx is None:
            hx = torch.zeros(
                input.size(0), self.hidden_size, dtype=input.dtype, device=input.device
            )
        else:
            hx = hx.unsqueeze(0) if not is_batched else hx

        if self.nonlinearity == "tanh":
            ret = _VF.rnn_tanh_cell(
                input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh
            )
        elif self.nonlinearity == "relu":
            ret = _VF.rnn_relu_cell(
                input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh
            )
        else:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")

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
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(
                        f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got {value.dim()}D instead"
                    )
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)

        if hx is None:
            zeros = torch.zeros(
                input.size(0), self.hidden_size, dtype=input.dtype, device=input.device
            )
            hx = (zeros, zeros)
        else:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0)) if not is_batched else hx

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
        if input.dim() not in (1, 2):
            raise ValueError(f"GRUCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"GRUCell: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)

        if hx is None:
            hx = torch.zeros(
                input.size(0), self.hidden_size, dtype=input.dtype, device=input.device
            )
        else:
            hx = hx.unsqueeze(0) if not is_batched else hx

        ret = _VF.gru_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)

        if not is_batched:
            ret = ret.squeeze(0)
        return ret
