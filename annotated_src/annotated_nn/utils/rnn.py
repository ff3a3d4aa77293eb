r"""Packed and padded batches of variable-length sequences; mirrors `torch.nn.utils.rnn`. / 变长序列批次的打包与填充，对应 `torch.nn.utils.rnn`。

=== "中文"

    一个批次里的序列长短不一时，有两种表示。填充（padding）表示把它们补到同一长度，
    叠成 `T x B x *`（`batch_first=True` 时为 `B x T x *`）的张量；打包表示
    [`PackedSequence`][annotated_nn.utils.rnn.PackedSequence] 则按时间步把仍未结束的序列的元素
    依次排开，不留任何填充，循环层（`RNN`、`LSTM`、`GRU`）的融合内核直接在这种布局上运行，
    不会在填充位置上做无用的计算。

    本模块的函数在两种表示之间转换：`pad_sequence` 把张量列表填充成一个张量，
    `pack_padded_sequence` 把填充后的张量打包，`pad_packed_sequence` 反过来解包并填充；
    `pack_sequence` 与 `unpack_sequence` 直接在张量列表和打包序列之间转换，
    `unpad_sequence` 把填充张量拆回列表。真正的打包、解包与填充由 torch 的内核完成
    （`_VF._pack_padded_sequence`、`_VF._pad_packed_sequence`、`torch._C._nn.pad_sequence`），
    这里负责参数处理、按长度排序与还原批次顺序。

    我们的 `PackedSequence` 是 torch 的 `PackedSequence` 的子类：annotated_nn 的循环层接受两者，
    torch 的循环层和 `torch.nn.utils.rnn` 的函数也接受我们的。

    1.5.1 → 2.13：`unpad_sequence` 与 `unpack_sequence` 是新增的；`pad_sequence` 从 Python
    循环改为一个 C++ 内核，并新增 `padding_side`；`PackedSequence.to` 改用 `_parse_to` 解析参数，
    以位置参数给出的 `non_blocking` 也能传到两个索引张量；`pack_padded_sequence`
    把列表形式的长度明确放到 CPU 上。

=== "English"

    A batch of sequences of different lengths has two representations. The padded one extends
    them to one length and stacks them into a `T x B x *` tensor (`B x T x *` with
    `batch_first=True`); the packed one, [`PackedSequence`][annotated_nn.utils.rnn.PackedSequence],
    lays out, step by step, the elements of the sequences not yet finished, with no padding at
    all. The fused kernels of the recurrent layers (`RNN`, `LSTM`, `GRU`) run on that layout
    directly and waste no work on padded positions.

    The functions here convert between the two: `pad_sequence` pads a list of tensors into one
    tensor, `pack_padded_sequence` packs a padded tensor, `pad_packed_sequence` unpacks and pads
    again; `pack_sequence` and `unpack_sequence` go straight between a list of tensors and a
    packed sequence, and `unpad_sequence` splits a padded tensor back into a list. The packing,
    unpacking and padding themselves are torch's kernels (`_VF._pack_padded_sequence`,
    `_VF._pad_packed_sequence`, `torch._C._nn.pad_sequence`); this file handles the arguments,
    the sorting by length and the restoring of the batch order.

    Our `PackedSequence` subclasses torch's `PackedSequence`: annotated_nn's recurrent layers
    take both, and torch's recurrent layers and the functions of `torch.nn.utils.rnn` take ours
    too.

    1.5.1 → 2.13: `unpad_sequence` and `unpack_sequence` are new; `pad_sequence` went from a
    Python loop to one C++ kernel and gained `padding_side`; `PackedSequence.to` now parses its
    arguments with `_parse_to`, so a `non_blocking` given positionally reaches the two index
    tensors too; `pack_padded_sequence` puts lengths given as a list explicitly on the CPU.
"""

import warnings
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import torch
from torch import _VF, Tensor
from torch.nn.utils.rnn import PackedSequence as _TorchPackedSequence
from torch.nn.utils.rnn import PackedSequence_
from torch.utils._typing_utils import copy_method_params
from typing_extensions import Self

__all__ = [
    "PackedSequence",
    "invert_permutation",
    "pack_padded_sequence",
    "pad_packed_sequence",
    "pad_sequence",
    "unpad_sequence",
    "pack_sequence",
    "unpack_sequence",
]

_T = TypeVar("_T")
_R = TypeVar("_R")


def bind(optional: _T | None, fn: Callable[[_T], _R]) -> _R | None:
    r"""Apply `fn` to a value that may be None. / 对可能为 None 的值应用 `fn`。

    === "中文"

        `None` 原样返回，否则返回 `fn(optional)`。打包时没有排序（`enforce_sorted=True`）的
        打包序列的两个索引张量都是 `None`，迁移设备或锁页时用它跳过它们。

    === "English"

        Returns `None` as it is, otherwise `fn(optional)`. Both index tensors of a packed
        sequence are `None` when packing did not sort (`enforce_sorted=True`); moving to a
        device or pinning skips them through this.

    Args:
        optional: A value or None. / 一个值或 None。
        fn: Function applied to a present value. / 值存在时应用的函数。

    Returns:
        `fn(optional)`, or None. / `fn(optional)` 或 None。
    """
    if optional is None:
        return None
    return fn(optional)


# DIFF(torch 2.13): our PackedSequence is a subclass of torch's PackedSequence
# 中: torch 的循环层、`torch.distributed` 的 `_recursive_to` 以及用户代码都用
# 中: `isinstance(x, torch.nn.utils.rnn.PackedSequence)` 识别打包序列；作为子类，我们的对象能通过
# 中: 这些检查（`torch.nn.LSTM` 可以直接接受它），字段布局 `PackedSequence_` 也就是 torch 自己的
# 中: 具名元组类。可观察到的差别：`type(x) is torch.nn.utils.rnn.PackedSequence` 为 False，
# 中: `__mro__` 多一层，类的 `__annotations__` 列出四个字段（为 TorchScript，见类体中的说明）。
# 中: repr、元组相等、pickle 与字段访问都不变。
# EN: torch's recurrent layers, `torch.distributed`'s `_recursive_to` and user code recognize a
# EN: packed sequence by `isinstance(x, torch.nn.utils.rnn.PackedSequence)`; as a subclass, ours
# EN: passes those checks (`torch.nn.LSTM` takes it directly), and the field layout
# EN: `PackedSequence_` is torch's own named-tuple class. Observable differences:
# EN: `type(x) is torch.nn.utils.rnn.PackedSequence` is False, `__mro__` has one more class,
# EN: and the class's `__annotations__` lists the four fields (for TorchScript, see the note in
# EN: the class body). The repr, tuple equality, pickling and field access are unchanged.
class PackedSequence(_TorchPackedSequence):
    r"""A batch of variable-length sequences packed step by step. / 按时间步打包的变长序列批次。

    === "中文"

        这是一个四元具名元组 `(data, batch_sizes, sorted_indices, unsorted_indices)`：

        - `data`：所有序列的元素按时间步排开。第 `t` 步放的是长度大于 `t` 的序列在该步的元素，
          按排序后的批次顺序排列。例如 `abc` 与 `x` 两条序列打包后 `data` 为 `axbc`。
        - `batch_sizes`：每个时间步还有多少条序列，上例为 `[2, 1, 1]`；长度就是最长序列的长度。
          它总是 CPU 上的 int64 张量，因为内核要在主机上读取它来安排循环。
        - `sorted_indices`：打包前按长度降序排序所用的排列，排序后的第 `i` 条是原批次的第
          `sorted_indices[i]` 条；打包时没有排序（`enforce_sorted=True`）则为 `None`。
        - `unsorted_indices`：它的逆排列，用来把结果排回用户的批次顺序。

        `data` 可以在任何设备上、是任何 dtype；两个索引张量是 int64，与 `data` 在同一设备上。
        `to` 等方法只转换 `data`，索引张量只跟着换设备，`batch_sizes` 从不移动。
        不要手工构造它，应使用 `pack_padded_sequence` 或 `pack_sequence`；构造时只检查
        `batch_sizes` 在不在 CPU 上，不检查两个排列是否互逆。

    === "English"

        A four-field named tuple `(data, batch_sizes, sorted_indices, unsorted_indices)`:

        - `data`: the elements of all sequences laid out step by step. Step `t` holds the
          elements at `t` of the sequences longer than `t`, in sorted batch order. For example,
          the sequences `abc` and `x` pack into the `data` `axbc`.
        - `batch_sizes`: how many sequences are still running at each step, `[2, 1, 1]` above;
          its length is the longest sequence's length. It is always an int64 CPU tensor, because
          the kernels read it on the host to schedule their loop.
        - `sorted_indices`: the permutation that sorted the batch by decreasing length before
          packing; the `i`-th sorted sequence is the original sequence `sorted_indices[i]`. It is
          `None` when packing did not sort (`enforce_sorted=True`).
        - `unsorted_indices`: its inverse, which puts results back into the user's batch order.

        `data` may live on any device with any dtype; the index tensors are int64 on the same
        device as `data`. `to` and its relatives convert `data` only, the index tensors just
        follow its device, and `batch_sizes` never moves. Do not build one by hand: use
        `pack_padded_sequence` or `pack_sequence`. The constructor checks only that
        `batch_sizes` is on the CPU, not that the two permutations are inverse to each other.

    Attributes:
        data: Packed data, or a `(data, batch_sizes)` pair. / 打包数据，或 `(data, batch_sizes)` 二元组。
        batch_sizes: Sequences running at each step, on CPU. / 每个时间步的序列数，在 CPU 上。
        sorted_indices: Sorting permutation, or None. / 排序用的排列，或 None。
        unsorted_indices: Its inverse; None to compute it. / 它的逆排列；None 表示自动计算。

    Examples:
        >>> import torch
        >>> from annotated_nn.utils.rnn import pack_sequence
        >>> packed = pack_sequence([torch.tensor([1, 2, 3]), torch.tensor([4])])
        >>> packed.data, packed.batch_sizes
        (tensor([1, 4, 2, 3]), tensor([2, 1, 1]))
        >>> isinstance(packed, torch.nn.utils.rnn.PackedSequence)
        True
    """

    # 中: 字段类型在这里重复一遍，不产生任何类属性。TorchScript 找具名元组的字段类型时只看本类
    # 中: 和直接基类，而 torch 的 `PackedSequence` 本身没有注解（注解在 `PackedSequence_` 上）；
    # 中: 没有这几行，TorchScript 会把 `sorted_indices` 当成 `Tensor`，编译
    # 中: `pack_padded_sequence` 失败。
    # EN: The field types are repeated here; they create no class attributes. TorchScript looks
    # EN: for a named tuple's field types on the class and its direct base only, and torch's
    # EN: `PackedSequence` has no annotations of its own (they sit on `PackedSequence_`);
    # EN: without these lines TorchScript takes `sorted_indices` for a `Tensor` and fails to
    # EN: compile `pack_padded_sequence`.
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None
    unsorted_indices: Tensor | None

    def __new__(
        cls,
        data: Tensor,
        batch_sizes: Tensor | None = None,
        sorted_indices: Tensor | None = None,
        unsorted_indices: Tensor | None = None,
    ) -> Self:
        r"""Normalize the arguments, then build the tuple. / 规范化参数，再构造元组。

        === "中文"

            参数的两种写法与检查都在 `_packed_sequence_init_args` 里。之后直接调用具名元组
            `PackedSequence_` 的 `__new__`，绕过 torch 的 `PackedSequence.__new__`，
            因为它只会把同样的规范化再做一遍。

        === "English"

            The two calling forms and the checks live in `_packed_sequence_init_args`. The
            tuple is then built by the named tuple `PackedSequence_`'s `__new__` directly,
            bypassing torch's `PackedSequence.__new__`, which would only repeat the same
            normalization.

        Args:
            data: Packed data, or a `(data, batch_sizes)` pair. / 打包数据，或 `(data, batch_sizes)` 二元组。
            batch_sizes: Sequences running at each step. / 每个时间步的序列数。
            sorted_indices: Sorting permutation, or None. / 排序用的排列，或 None。
            unsorted_indices: Its inverse, or None. / 它的逆排列，或 None。

        Returns:
            The new packed sequence. / 新的打包序列。

        Raises:
            ValueError: `batch_sizes` not on the CPU. / `batch_sizes` 不在 CPU 上。
            AssertionError: No `batch_sizes` and `data` is not a pair. / 未给 `batch_sizes` 且 `data` 不是二元组。
            AttributeError: `batch_sizes` is not a tensor (a list, say): its `.device` is read. / `batch_sizes` 不是张量（例如列表）：要读它的 `.device`。
        """
        return PackedSequence_.__new__(
            cls,
            *_packed_sequence_init_args(data, batch_sizes, sorted_indices, unsorted_indices),
        )

    def pin_memory(self) -> Self:
        r"""Copy `data` and the indices into pinned memory. / 把 `data` 与索引复制到锁页内存。

        === "中文"

            锁页内存让随后向加速器的复制可以异步进行。`batch_sizes` 不动：它留在普通的 CPU
            内存里由主机读取。没有加速器时 `Tensor.pin_memory` 报错，这里也一样。

        === "English"

            Pinned memory lets a later copy to an accelerator run asynchronously.
            `batch_sizes` stays as it is: it remains in ordinary CPU memory for the host to
            read. Without an accelerator `Tensor.pin_memory` raises, and so does this.

        Returns:
            A new packed sequence of the same class. / 同一类的新打包序列。

        Raises:
            RuntimeError: No accelerator is available. / 没有可用的加速器。
        """
        return type(self)(
            self.data.pin_memory(),
            self.batch_sizes,
            bind(self.sorted_indices, lambda t: t.pin_memory()),
            bind(self.unsorted_indices, lambda t: t.pin_memory()),
        )

    @copy_method_params(torch.Tensor.to)
    def to(self, *args: Any, **kwargs: Any) -> Self:
        r"""Convert `data` like `Tensor.to`; the indices follow its device. / 像 `Tensor.to` 那样转换 `data`，索引跟随其设备。

        === "中文"

            参数与 `Tensor.to` 相同（dtype、设备、另一个张量，以及 `non_blocking`、
            `memory_format`）。`data` 已经符合要求时返回 `self` 本身，否则返回一个新对象：
            两个索引张量只搬到 `data` 的新设备上，仍是 int64，并沿用 `non_blocking` 与
            `memory_format`；`batch_sizes` 留在 CPU 上。`copy=True` 总是报 `RuntimeError`：
            它让 `data` 必然变成新张量，而随后解析参数的 `_parse_to` 不接受 `copy`。
            1.5.1 → 2.13：1.5.1 只把除 `device`、`dtype` 以外的关键字参数转给索引张量，
            位置参数形式的选项对它们不起作用。

        === "English"

            Takes what `Tensor.to` takes (a dtype, a device, another tensor, and `non_blocking`,
            `memory_format`). Returns `self` itself when `data` already fits, else a new object:
            the two index tensors only move to `data`'s new device, stay int64, and get the same
            `non_blocking` and `memory_format`; `batch_sizes` stays on the CPU. `copy=True`
            always raises `RuntimeError`: it makes `data` a new tensor for sure, and `_parse_to`,
            which then parses the arguments, does not accept `copy`. 1.5.1 → 2.13: 1.5.1 passed only the keyword
            arguments other than `device` and `dtype` on to the indices, so options given
            positionally did not reach them.

        Args:
            *args: Positional arguments of `Tensor.to`. / `Tensor.to` 的位置参数。
            **kwargs: Keyword arguments of `Tensor.to`. / `Tensor.to` 的关键字参数。

        Returns:
            `self`, or a converted copy of the same class. / `self`，或同一类的转换后副本。

        Raises:
            RuntimeError: `copy=True` was given. / 传入了 `copy=True`。

        Examples:
            >>> import torch
            >>> from annotated_nn.utils.rnn import pack_sequence
            >>> packed = pack_sequence([torch.ones(2), torch.ones(1)])
            >>> packed.to(torch.float32) is packed
            True
            >>> packed.to("meta").data.device
            device(type='meta')
        """
        # 中: 先只转换 `data`：`Tensor.to` 在无事可做时返回原张量，此时整个打包序列原样返回，
        # 中: 不复制任何东西。
        # EN: Convert `data` alone first: `Tensor.to` returns the same tensor when there is
        # EN: nothing to do, and then the whole packed sequence is returned as it is, copying
        # EN: nothing.
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self

        # 中: 索引张量不能收到用户的 dtype（它们必须保持 int64），所以用 `_parse_to` 按
        # 中: `Tensor.to` 的规则解析参数，只取出 `non_blocking` 与 `memory_format`；
        # 中: 目标设备取自已转换的 `data.device`。`_parse_to` 不接受 `copy`，`copy=True` 在这里报错。
        # EN: The index tensors must not receive the user's dtype (they stay int64), so
        # EN: `_parse_to` parses the arguments by `Tensor.to`'s rules and only `non_blocking`
        # EN: and `memory_format` are kept; the target device is taken from the converted
        # EN: `data.device`. `_parse_to` rejects `copy`, so `copy=True` raises here.
        _device, _dtype, non_blocking, memory_format = torch._C._nn._parse_to(*args, **kwargs)

        def follow_data(index: Tensor) -> Tensor:
            r"""Move an index tensor to `data`'s device. / 把索引张量移到 `data` 所在设备。

            === "中文"

                只换设备，不换 dtype；`non_blocking` 与 `memory_format` 与 `data` 的转换相同。

            === "English"

                Changes the device only, never the dtype; `non_blocking` and `memory_format`
                are those of `data`'s conversion.

            Args:
                index: `sorted_indices` or `unsorted_indices`. / `sorted_indices` 或 `unsorted_indices`。

            Returns:
                The index tensor on `data`'s device. / 位于 `data` 所在设备的索引张量。
            """
            return index.to(data.device, non_blocking=non_blocking, memory_format=memory_format)

        # 中: `type(self)` 让子类的转换结果仍是子类；`batch_sizes` 原样沿用。
        # EN: `type(self)` keeps a subclass's result in the subclass; `batch_sizes` is reused as
        # EN: it is.
        sorted_indices = bind(self.sorted_indices, follow_data)
        unsorted_indices = bind(self.unsorted_indices, follow_data)
        return type(self)(data, self.batch_sizes, sorted_indices, unsorted_indices)

    @copy_method_params(torch.Tensor.cuda)
    def cuda(self, *args: Any, **kwargs: Any) -> Self:
        r"""Move `data` to a CUDA device, like `Tensor.cuda`. / 像 `Tensor.cuda` 那样把 `data` 移到 CUDA 设备。

        === "中文"

            先用一个与 `data` 同 dtype、同设备的空张量试着执行 `to(*args, **kwargs)`：
            若结果已经在 CUDA 上（参数里给了 CUDA 设备），就按原参数调用 `to`；
            否则补上 `device="cuda"` 再调用。没有 CUDA 的 torch 在转换时报 `AssertionError`。

        === "English"

            First tries `to(*args, **kwargs)` on an empty tensor of `data`'s dtype and device:
            if the result is on CUDA already (the arguments named a CUDA device), `to` is called
            with the arguments as they are; otherwise `device="cuda"` is added first. A torch
            built without CUDA raises `AssertionError` during the conversion.

        Args:
            *args: Positional arguments of `Tensor.to`. / `Tensor.to` 的位置参数。
            **kwargs: Keyword arguments of `Tensor.to`. / `Tensor.to` 的关键字参数。

        Returns:
            `self`, or a copy on CUDA. / `self`，或位于 CUDA 上的副本。

        Raises:
            AssertionError: Torch built without CUDA. / torch 编译时未启用 CUDA。
        """
        # 中: 用空张量试探参数是否已经指向 CUDA 设备；试探本身不复制 `data`。
        # EN: An empty probe tells whether the arguments already name a CUDA device; probing
        # EN: copies nothing of `data`.
        probe = torch.tensor((), dtype=self.data.dtype, device=self.data.device)
        if probe.to(*args, **kwargs).is_cuda:
            return self.to(*args, **kwargs)
        kwargs["device"] = "cuda"
        return self.to(*args, **kwargs)

    @copy_method_params(torch.Tensor.cpu)
    def cpu(self, *args: Any, **kwargs: Any) -> Self:
        r"""Move `data` to the CPU, like `Tensor.cpu`. / 像 `Tensor.cpu` 那样把 `data` 移到 CPU。

        === "中文"

            与 `cuda` 同理：空张量试探结果已在 CPU 上就按原参数调用 `to`，否则补上
            `device="cpu"`。`data` 已在 CPU 上且不需要其他转换时返回 `self` 本身。

        === "English"

            As in `cuda`: if the empty probe lands on the CPU, `to` is called with the arguments
            as they are, otherwise with `device="cpu"` added. When `data` is on the CPU already
            and nothing else changes, `self` itself is returned.

        Args:
            *args: Positional arguments of `Tensor.to`. / `Tensor.to` 的位置参数。
            **kwargs: Keyword arguments of `Tensor.to`. / `Tensor.to` 的关键字参数。

        Returns:
            `self`, or a copy on the CPU. / `self`，或位于 CPU 上的副本。
        """
        # 中: 与 `cuda` 相同的试探，只是判断的设备类型是 `"cpu"`。
        # EN: The same probe as in `cuda`, testing for the device type `"cpu"` instead.
        probe = torch.tensor((), dtype=self.data.dtype, device=self.data.device)
        if probe.to(*args, **kwargs).device.type == "cpu":
            return self.to(*args, **kwargs)
        kwargs["device"] = "cpu"
        return self.to(*args, **kwargs)

    def double(self) -> Self:
        r"""Convert `data` to `torch.float64`. / 把 `data` 转为 `torch.float64`。

        === "中文"

            等价于 `self.to(dtype=torch.double)`；索引张量不变。

        === "English"

            Same as `self.to(dtype=torch.double)`; the index tensors are unchanged.

        Returns:
            `self` or a converted copy. / `self` 或转换后的副本。
        """
        return self.to(dtype=torch.double)

    def float(self) -> Self:
        r"""Convert `data` to `torch.float32`. / 把 `data` 转为 `torch.float32`。

        === "中文"

            等价于 `self.to(dtype=torch.float)`；索引张量不变。

        === "English"

            Same as `self.to(dtype=torch.float)`; the index tensors are unchanged.

        Returns:
            `self` or a converted copy. / `self` 或转换后的副本。
        """
        return self.to(dtype=torch.float)

    def half(self) -> Self:
        r"""Convert `data` to `torch.float16`. / 把 `data` 转为 `torch.float16`。

        === "中文"

            等价于 `self.to(dtype=torch.half)`；索引张量不变。

        === "English"

            Same as `self.to(dtype=torch.half)`; the index tensors are unchanged.

        Returns:
            `self` or a converted copy. / `self` 或转换后的副本。
        """
        return self.to(dtype=torch.half)

    def long(self) -> Self:
        r"""Convert `data` to `torch.int64`. / 把 `data` 转为 `torch.int64`。

        === "中文"

            等价于 `self.to(dtype=torch.long)`；索引张量不变。

        === "English"

            Same as `self.to(dtype=torch.long)`; the index tensors are unchanged.

        Returns:
            `self` or a converted copy. / `self` 或转换后的副本。
        """
        return self.to(dtype=torch.long)

    def int(self) -> Self:
        r"""Convert `data` to `torch.int32`. / 把 `data` 转为 `torch.int32`。

        === "中文"

            等价于 `self.to(dtype=torch.int)`；索引张量不变。

        === "English"

            Same as `self.to(dtype=torch.int)`; the index tensors are unchanged.

        Returns:
            `self` or a converted copy. / `self` 或转换后的副本。
        """
        return self.to(dtype=torch.int)

    def short(self) -> Self:
        r"""Convert `data` to `torch.int16`. / 把 `data` 转为 `torch.int16`。

        === "中文"

            等价于 `self.to(dtype=torch.short)`；索引张量不变。

        === "English"

            Same as `self.to(dtype=torch.short)`; the index tensors are unchanged.

        Returns:
            `self` or a converted copy. / `self` 或转换后的副本。
        """
        return self.to(dtype=torch.short)

    def char(self) -> Self:
        r"""Convert `data` to `torch.int8`. / 把 `data` 转为 `torch.int8`。

        === "中文"

            等价于 `self.to(dtype=torch.int8)`；索引张量不变。

        === "English"

            Same as `self.to(dtype=torch.int8)`; the index tensors are unchanged.

        Returns:
            `self` or a converted copy. / `self` 或转换后的副本。
        """
        return self.to(dtype=torch.int8)

    def byte(self) -> Self:
        r"""Convert `data` to `torch.uint8`. / 把 `data` 转为 `torch.uint8`。

        === "中文"

            等价于 `self.to(dtype=torch.uint8)`；索引张量不变。

        === "English"

            Same as `self.to(dtype=torch.uint8)`; the index tensors are unchanged.

        Returns:
            `self` or a converted copy. / `self` 或转换后的副本。
        """
        return self.to(dtype=torch.uint8)

    @property
    def is_cuda(self) -> bool:
        r"""Whether `data` is on a CUDA device. / `data` 是否在 CUDA 设备上。

        === "中文"

            只看 `data`：索引张量总跟随它，`batch_sizes` 总在 CPU 上，不参与判断。

        === "English"

            Looks at `data` only: the index tensors always follow it, and `batch_sizes`, always
            on the CPU, plays no part.

        Returns:
            `data.is_cuda`. / `data.is_cuda`。
        """
        return self.data.is_cuda

    def is_pinned(self) -> bool:
        r"""Whether `data` is in pinned memory. / `data` 是否在锁页内存中。

        === "中文"

            只看 `data`，与 `is_cuda` 相同。

        === "English"

            Looks at `data` only, as `is_cuda` does.

        Returns:
            `data.is_pinned()`. / `data.is_pinned()`。
        """
        return self.data.is_pinned()


def _packed_sequence_init_args(
    data: Tensor,
    batch_sizes: Tensor | None = None,
    sorted_indices: Tensor | None = None,
    unsorted_indices: Tensor | None = None,
) -> tuple[Tensor, Tensor, Tensor | None, Tensor | None]:
    r"""Normalize the constructor's arguments into four fields. / 把构造参数规范化为四个字段。

    === "中文"

        支持两种写法：`PackedSequence(data, batch_sizes, sorted_indices)` 与
        `PackedSequence((data, batch_sizes), sorted_indices=...)`。未给 `unsorted_indices` 时由
        `sorted_indices` 求逆得到（两者都没有就都是 `None`）；给了的话不验证它是否真是逆排列。
        在 torch 里这个函数与 `_packed_sequence_init` 是为 TorchScript 单独写的，因为
        TorchScript 不支持具名元组的构造函数。

    === "English"

        Supports two forms: `PackedSequence(data, batch_sizes, sorted_indices)` and
        `PackedSequence((data, batch_sizes), sorted_indices=...)`. A missing
        `unsorted_indices` is computed by inverting `sorted_indices` (both stay `None` when
        neither is given); a given one is not checked to be the inverse. In torch this function
        and `_packed_sequence_init` are separate helpers for TorchScript, which does not support
        constructors on named tuples.

    Args:
        data: Packed data, or a `(data, batch_sizes)` pair. / 打包数据，或 `(data, batch_sizes)` 二元组。
        batch_sizes: Sequences running at each step, or None. / 每个时间步的序列数，或 None。
        sorted_indices: Sorting permutation, or None. / 排序用的排列，或 None。
        unsorted_indices: Its inverse, or None. / 它的逆排列，或 None。

    Returns:
        `(data, batch_sizes, sorted_indices, unsorted_indices)`. / 四个字段组成的元组。

    Raises:
        ValueError: `batch_sizes` not on the CPU. / `batch_sizes` 不在 CPU 上。
        AssertionError: No `batch_sizes` and `data` is not a pair. / 未给 `batch_sizes` 且 `data` 不是二元组。
        AttributeError: `batch_sizes` is not a tensor (a list, say): its `.device` is read. / `batch_sizes` 不是张量（例如列表）：要读它的 `.device`。
    """
    # 中: 逆排列总是先求，与选用哪种写法无关。
    # EN: The inverse is computed first, whichever calling form is used.
    if unsorted_indices is None:
        unsorted_indices = invert_permutation(sorted_indices)

    # 中: 第一种写法：四个字段分开给出。
    # EN: The first form: the four fields are given separately.
    if batch_sizes is not None:
        # 中: `batch_sizes` 必须在 CPU 上，错误文本与 torch 一致（包括其中的
        # 中: `pack_padded_sequences` 笔误和文档链接）。
        # EN: `batch_sizes` must be on the CPU; the error text is torch's, including its
        # EN: `pack_padded_sequences` typo and documentation link.
        if batch_sizes.device.type != "cpu":
            raise ValueError(
                "batch_sizes should always be on CPU. "
                "Instances of PackedSequence should never be created manually. "
                "They should be instantiated by functions like pack_sequence "
                "and pack_padded_sequences in nn.utils.rnn. "
                "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence"
            )
        # 中: 两个排列不做任何检查（dtype、设备、是否互逆都不查），原样成为字段。
        # EN: The two permutations are not checked at all (neither dtype, device nor being
        # EN: inverse to each other) and become fields as they are.
        return data, batch_sizes, sorted_indices, unsorted_indices

    # 中: 第二种写法：`data` 本身是 `(data, batch_sizes)` 二元组；此时不检查 `batch_sizes` 的设备。
    # EN: The second form: `data` is itself a `(data, batch_sizes)` pair; the device of
    # EN: `batch_sizes` is not checked in this form.
    if not (isinstance(data, (list, tuple)) and len(data) == 2):
        raise AssertionError("Expected data to be a list or tuple of length 2")
    return data[0], data[1], sorted_indices, unsorted_indices


def _packed_sequence_init(
    data: Tensor,
    batch_sizes: Tensor | None = None,
    sorted_indices: Tensor | None = None,
    unsorted_indices: Tensor | None = None,
) -> PackedSequence:
    r"""Build a PackedSequence from normalized arguments. / 由规范化后的参数构造 PackedSequence。

    === "中文"

        打包函数都通过它构造结果。规范化在这里做一次，`PackedSequence.__new__` 里又做一次；
        第二次是无害的重复（逆排列已经有了，不会再算）。结果总是本模块的 `PackedSequence`。

    === "English"

        The packing functions build their results through this. The normalization runs here
        and again in `PackedSequence.__new__`; the second run is a harmless repeat (the inverse
        is already there and is not computed again). The result is always this module's
        `PackedSequence`.

    Args:
        data: Packed data, or a `(data, batch_sizes)` pair. / 打包数据，或 `(data, batch_sizes)` 二元组。
        batch_sizes: Sequences running at each step, or None. / 每个时间步的序列数，或 None。
        sorted_indices: Sorting permutation, or None. / 排序用的排列，或 None。
        unsorted_indices: Its inverse, or None. / 它的逆排列，或 None。

    Returns:
        The packed sequence. / 打包序列。
    """
    data, batch_sizes, sorted_indices, unsorted_indices = _packed_sequence_init_args(
        data, batch_sizes, sorted_indices, unsorted_indices
    )
    return PackedSequence(data, batch_sizes, sorted_indices, unsorted_indices)


def invert_permutation(permutation: Tensor | None) -> Tensor | None:
    r"""The inverse of a permutation, or None. / 排列的逆排列，或 None。

    === "中文"

        对 `0..n-1` 的排列 `p` 返回 `q`，使 `q[p[i]] == i`：一次 `scatter_` 把 `arange(n)`
        写到 `p` 指定的位置。打包序列用它由 `sorted_indices` 得到 `unsorted_indices`。
        结果与 `permutation` 同 dtype、同设备。

    === "English"

        For a permutation `p` of `0..n-1`, returns `q` with `q[p[i]] == i`: one `scatter_`
        writes `arange(n)` to the positions `p` names. Packed sequences get `unsorted_indices`
        from `sorted_indices` this way. The result has `permutation`'s dtype and device.

    Args:
        permutation: A 1-D index tensor, or None. / 一维索引张量，或 None。

    Returns:
        The inverse permutation, or None. / 逆排列，或 None。

    Examples:
        >>> import torch
        >>> from annotated_nn.utils.rnn import invert_permutation
        >>> invert_permutation(torch.tensor([2, 0, 1]))
        tensor([1, 2, 0])
    """
    if permutation is None:
        return None
    # 中: 每个位置恰好被写一次，所以 `empty_like` 的未初始化内容不会留下来。
    # EN: Every position is written exactly once, so nothing of `empty_like`'s uninitialized
    # EN: memory survives.
    inverse = torch.empty_like(permutation, memory_format=torch.legacy_contiguous_format)
    positions = torch.arange(0, permutation.numel(), device=permutation.device)
    inverse.scatter_(0, permutation, positions)
    return inverse


def pack_padded_sequence(
    input: Tensor,
    lengths: Tensor | list[int],
    batch_first: bool = False,
    enforce_sorted: bool = True,
) -> PackedSequence:
    r"""Pack a padded batch of variable-length sequences. / 打包一个填充过的变长序列批次。

    === "中文"

        `input` 形状为 `T x B x *`（`batch_first=True` 时为 `B x T x *`），`lengths` 给出每条
        序列的实际长度，超出长度的部分被丢弃。步骤：

        1. 把 `lengths` 变成 int64 张量：列表放到 CPU 上；张量只转换 dtype，不换设备，
           所以不在 CPU 上的长度张量会被内核拒绝。
        2. `enforce_sorted=False` 时按长度降序排序，并把 `input` 的批次重排成同样的顺序，
           排列记为 `sorted_indices`；`enforce_sorted=True` 时要求长度已经降序，否则内核报错。
        3. 内核 `_VF._pack_padded_sequence` 生成 `data` 与 `batch_sizes`。
        4. 包装成 `PackedSequence`，并由 `sorted_indices` 求出 `unsorted_indices`。

        `enforce_sorted=True` 只在导出 ONNX 时才需要。所有长度必须大于 0。

    === "English"

        `input` is `T x B x *` (`B x T x *` with `batch_first=True`), and `lengths` gives each
        sequence's real length; whatever lies beyond it is dropped. The steps:

        1. Make `lengths` an int64 tensor: a list is put on the CPU; a tensor only changes its
           dtype, not its device, so a lengths tensor off the CPU is rejected by the kernel.
        2. With `enforce_sorted=False`, sort by decreasing length and reorder `input`'s batch
           the same way, keeping the permutation as `sorted_indices`; with
           `enforce_sorted=True` the lengths must already decrease, else the kernel raises.
        3. The kernel `_VF._pack_padded_sequence` produces `data` and `batch_sizes`.
        4. Wrap them into a `PackedSequence`, with `unsorted_indices` inverted from
           `sorted_indices`.

        `enforce_sorted=True` is only needed for ONNX export. Every length must be above 0.

    Args:
        input: Padded batch, `T x B x *` or `B x T x *`. / 填充后的批次，`T x B x *` 或 `B x T x *`。
        lengths: Length of each sequence, list or CPU tensor. / 每条序列的长度，列表或 CPU 张量。
        batch_first: Whether `input` is `B x T x *`. / `input` 是否为 `B x T x *`。
        enforce_sorted: Require decreasing lengths instead of sorting. / 要求长度已降序而不自行排序。

    Returns:
        The packed sequence. / 打包序列。

    Raises:
        RuntimeError: Unsorted lengths with `enforce_sorted=True`, a length of 0 or less, or
            `lengths` off the CPU (kernel checks). / 长度未降序而 `enforce_sorted=True`、
            有长度不大于 0，或 `lengths` 不在 CPU 上（内核检查）。

    Examples:
        >>> import torch
        >>> from annotated_nn.utils.rnn import pack_padded_sequence
        >>> padded = torch.tensor([[1, 2, 0], [3, 4, 5]])
        >>> packed = pack_padded_sequence(padded, [2, 3], batch_first=True, enforce_sorted=False)
        >>> packed.data, packed.sorted_indices
        (tensor([3, 1, 4, 2, 5]), tensor([1, 0]))
    """
    # 中: 第 1 步：长度变成 CPU 上的 int64 张量，列表与张量分开处理。
    # EN: Step 1: the lengths become an int64 tensor on the CPU; lists and tensors take
    # EN: separate paths.
    if not isinstance(lengths, torch.Tensor):
        # 中: Python 列表在 `torch.jit.trace` 下会被当作常量写进计算图，所以追踪时先警告
        # 中: （文本与 torch 一致，`stacklevel=2` 指向调用者）。
        # EN: Under `torch.jit.trace` a Python list is baked into the graph as a constant, so
        # EN: tracing warns first (torch's text; `stacklevel=2` points at the caller).
        if torch._C._get_tracing_state():
            warnings.warn(
                "pack_padded_sequence has been called with a Python list of "
                "sequence lengths. The tracer cannot track the data flow of Python "
                "values, and it will treat them as constants, likely rendering "
                "the trace incorrect for any other combination of lengths.",
                stacklevel=2,
            )
        # 中: 显式指定 `device="cpu"`：即使用 `torch.set_default_device` 改了默认设备，
        # 中: 由列表构造的长度张量也在内核要求的 CPU 上。
        # EN: `device="cpu"` is explicit: even with another default device set by
        # EN: `torch.set_default_device`, lengths built from a list land on the CPU the kernel
        # EN: requires.
        lengths = torch.as_tensor(lengths, dtype=torch.int64, device="cpu")
    else:
        # 中: 张量只转换 dtype；设备保持不变，不在 CPU 上的长度留给内核去拒绝。
        # EN: A tensor only changes its dtype; its device is kept, and lengths off the CPU are
        # EN: left for the kernel to reject.
        lengths = lengths.to(dtype=torch.int64)

    # 中: 第 2 步。排序用的排列跟着 `input` 的设备走，才能用于 `index_select`；长度留在 CPU 上。
    # EN: Step 2. The sorting permutation follows `input`'s device so that `index_select` can
    # EN: use it; the lengths stay on the CPU.
    if enforce_sorted:
        sorted_indices = None
    else:
        lengths, sorted_indices = torch.sort(lengths, descending=True)
        sorted_indices = sorted_indices.to(input.device)
        batch_dim = 0 if batch_first else 1
        input = input.index_select(batch_dim, sorted_indices)

    # 中: 第 3、4 步：内核打包，然后包装；`None` 让逆排列在包装时求出。
    # EN: Steps 3 and 4: the kernel packs, then the result is wrapped; `None` lets the inverse
    # EN: be computed while wrapping.
    data, batch_sizes = _VF._pack_padded_sequence(input, lengths, batch_first)
    return _packed_sequence_init(data, batch_sizes, sorted_indices, None)


def pad_packed_sequence(
    sequence: PackedSequence,
    batch_first: bool = False,
    padding_value: float = 0.0,
    total_length: int | None = None,
) -> tuple[Tensor, Tensor]:
    r"""Unpack a packed sequence into a padded tensor and lengths. / 把打包序列解包为填充张量和长度。

    === "中文"

        `pack_padded_sequence` 的逆操作。输出 `T x B x *`（`batch_first=True` 时为 `B x T x *`），
        `T` 默认是最长序列的长度，即 `len(batch_sizes)`；填充位置为 `padding_value`。
        批次恢复成打包前用户的顺序，长度张量（CPU 上的 int64）也一样。

        `total_length` 把 `T` 补到固定值：在 `DataParallel` 里各副本只看到一部分批次，
        各自的最长长度不同，用它才能把各副本的输出拼接起来。它小于最长长度时报 `ValueError`。

        接受任何带这四个字段的打包序列，包括 torch 的 `PackedSequence`。

    === "English"

        The inverse of `pack_padded_sequence`. The output is `T x B x *` (`B x T x *` with
        `batch_first=True`), `T` being by default the longest length, that is
        `len(batch_sizes)`; padded positions hold `padding_value`. The batch returns to the
        user's order from before packing, and so does the lengths tensor (int64 on the CPU).

        `total_length` pads `T` to a fixed value: inside `DataParallel` each replica sees part
        of the batch with its own longest length, and only a fixed `T` lets the replicas'
        outputs be concatenated. A value below the longest length raises `ValueError`.

        Any packed sequence with these four fields is accepted, torch's `PackedSequence` too.

    Args:
        sequence: The packed batch. / 打包的批次。
        batch_first: Whether the output is `B x T x *`. / 输出是否为 `B x T x *`。
        padding_value: Value of padded positions. / 填充位置的值。
        total_length: Pad the time dimension to this, or None. / 把时间维补到该长度，或 None。

    Returns:
        `(padded, lengths)`. / `(填充张量, 长度)`。

    Raises:
        ValueError: `total_length` below the longest length. / `total_length` 小于最长序列长度。

    Examples:
        >>> import torch
        >>> from annotated_nn.utils.rnn import pack_sequence, pad_packed_sequence
        >>> packed = pack_sequence([torch.tensor([1]), torch.tensor([2, 3])], enforce_sorted=False)
        >>> pad_packed_sequence(packed, batch_first=True, padding_value=-1)
        (tensor([[ 1, -1],
                [ 2,  3]]), tensor([1, 2]))
    """
    # 中: 时间步数就是 `batch_sizes` 的长度，即最长序列的长度。
    # EN: The number of steps is the length of `batch_sizes`, that is the longest length.
    max_seq_length = sequence.batch_sizes.size(0)

    # 中: `total_length` 只能把时间维加长，不能截短；错误文本与 torch 一致。
    # EN: `total_length` can only extend the time dimension, never cut it; the error text is
    # EN: torch's.
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError(
                "Expected total_length to be at least the length "
                "of the longest sequence in input, but got "
                f"total_length={total_length} and max sequence length being {max_seq_length}"
            )
        max_seq_length = total_length

    # 中: 内核按排序后的批次顺序填充。若打包时排过序，用 `unsorted_indices` 把输出与长度排回
    # 中: 原顺序；长度在 CPU 上而索引跟随 `data` 的设备，所以索引长度前先 `.cpu()`。
    # 中: 1.5.1 → 2.13：1.5.1 直接用 `lengths[unsorted_indices]`，没有 `.cpu()`。
    # EN: The kernel pads in sorted batch order. If packing sorted the batch,
    # EN: `unsorted_indices` puts output and lengths back in the original order; the lengths are
    # EN: on the CPU while the indices follow `data`'s device, hence `.cpu()` before indexing.
    # EN: 1.5.1 → 2.13: 1.5.1 used `lengths[unsorted_indices]` directly, without `.cpu()`.
    padded_output, lengths = _VF._pad_packed_sequence(
        sequence.data, sequence.batch_sizes, batch_first, padding_value, max_seq_length
    )
    unsorted_indices = sequence.unsorted_indices
    if unsorted_indices is None:
        return padded_output, lengths

    # 中: 输出沿批次维重排，长度用 CPU 上的索引重排。
    # EN: The output is reordered along the batch dimension, the lengths with the indices on
    # EN: the CPU.
    batch_dim = 0 if batch_first else 1
    return (
        padded_output.index_select(batch_dim, unsorted_indices),
        lengths[unsorted_indices.cpu()],
    )


def pad_sequence(
    sequences: Tensor | list[Tensor],
    batch_first: bool = False,
    padding_value: float = 0.0,
    padding_side: str = "right",
) -> Tensor:
    r"""Pad a list of variable-length tensors into one tensor. / 把变长张量列表填充成一个张量。

    === "中文"

        每个张量形状为 `L x *`（`*` 在所有张量中相同）。结果为 `T x B x *`（`batch_first=True`
        时为 `B x T x *`），`B` 是张量个数，`T` 是最长的 `L`。`padding_side="right"` 把数据靠前、
        填充放在后面，`"left"` 反之。填充本身由一个 C++ 内核完成。

        任何可迭代对象都行（先转成元组），例如生成器；一个张量会沿第 0 维拆开。不可迭代时
        报 `RuntimeError`；空序列、`padding_side` 取值不对、尾部形状不一致由内核报错。

    === "English"

        Each tensor is `L x *` (`*` the same for all). The result is `T x B x *`
        (`B x T x *` with `batch_first=True`), `B` being the number of tensors and `T` the
        largest `L`. `padding_side="right"` puts the data first and the padding after it,
        `"left"` the other way round. The padding itself is one C++ kernel.

        Any iterable works (it is made a tuple first), a generator for instance; a tensor is
        split along dimension 0. A non-iterable raises `RuntimeError`; an empty sequence, a
        wrong `padding_side` or mismatched trailing shapes are reported by the kernel.

    Args:
        sequences: Tensors of shape `L x *`. / 形状为 `L x *` 的张量。
        batch_first: Whether the output is `B x T x *`. / 输出是否为 `B x T x *`。
        padding_value: Value of padded positions. / 填充位置的值。
        padding_side: `"right"` or `"left"`. / `"right"` 或 `"left"`。

    Returns:
        The padded tensor. / 填充后的张量。

    Raises:
        RuntimeError: Non-iterable input, empty input, bad `padding_side`, or mismatched
            shapes. / 输入不可迭代或为空、`padding_side` 取值不对，或形状不一致。

    Examples:
        >>> import torch
        >>> from annotated_nn.utils.rnn import pad_sequence
        >>> pad_sequence([torch.tensor([1, 2]), torch.tensor([3])], batch_first=True)
        tensor([[1, 2],
                [3, 0]])
        >>> pad_sequence([torch.tensor([1, 2]), torch.tensor([3])], True, padding_side="left")
        tensor([[1, 2],
                [0, 3]])
    """
    # 中: 即时执行时接受任何可迭代对象，转成元组交给内核。TorchScript 没有 `Iterable`，
    # 中: 所以被 TorchScript 编译或被 `torch.jit.trace` 追踪时，torch 跳过这项检查，只把一个张量
    # 中: 沿第 0 维拆开，列表原样传下去；这里保留同样的分支，追踪结果才与 torch 相同。
    # EN: Eagerly, any iterable is accepted and made a tuple for the kernel. TorchScript has no
    # EN: `Iterable`, so when compiled by TorchScript or traced by `torch.jit.trace`, torch
    # EN: skips that check, only splits a tensor along dimension 0 and passes a list on as it
    # EN: is; the same branch is kept here so that traces match torch's.
    if not (torch.jit.is_tracing() or torch.jit.is_scripting()):
        if not isinstance(sequences, Iterable):
            raise RuntimeError(
                "pad_sequence: Expected iterable for input sequences, but got arg of type: "
                f"{type(sequences)}"
            )
        # 中: 生成器在这里被一次性取完；迭代一个张量得到它沿第 0 维的切片，与追踪分支的
        # 中: `unbind(0)` 相同。
        # EN: A generator is drained here once; iterating a tensor yields its slices along
        # EN: dimension 0, the same as `unbind(0)` in the traced branch.
        sequences = tuple(sequences)
    elif isinstance(sequences, torch.Tensor):
        sequences = sequences.unbind(0)

    # 中: 内核假定所有张量的尾部维度与 dtype 和第一个相同。
    # EN: The kernel assumes every tensor has the first one's trailing dimensions and dtype.
    return torch._C._nn.pad_sequence(sequences, batch_first, padding_value, padding_side)


def unpad_sequence(
    padded_sequences: Tensor,
    lengths: Tensor,
    batch_first: bool = False,
) -> list[Tensor]:
    r"""Split a padded tensor back into variable-length tensors. / 把填充张量拆回变长张量列表。

    === "中文"

        `pad_sequence` 的逆操作：对批次中的第 `i` 条，取前 `lengths[i]` 个时间步。
        注意：`batch_first=False` 时它用 `transpose_` 就地交换调用者张量的前两维，
        调用之后传入的 `padded_sequences` 变成 `B x T x *`（与 torch 相同）。
        `lengths` 的条数必须等于批大小，否则 `zip(strict=True)` 报 `ValueError`。
        每条结果都经布尔掩码索引得到，是新张量，不是视图。

    === "English"

        The inverse of `pad_sequence`: for the `i`-th member of the batch, keep the first
        `lengths[i]` steps. Beware: with `batch_first=False` it swaps the first two dimensions
        of the caller's tensor in place with `transpose_`, so after the call the
        `padded_sequences` passed in is `B x T x *` (as in torch). `lengths` must have one entry
        per batch member, else `zip(strict=True)` raises `ValueError`. Each result comes from
        boolean-mask indexing: a new tensor, not a view.

    Args:
        padded_sequences: Padded batch, `T x B x *` or `B x T x *`. / 填充后的批次，`T x B x *` 或 `B x T x *`。
        lengths: Length of each sequence. / 每条序列的长度。
        batch_first: Whether the input is `B x T x *`. / 输入是否为 `B x T x *`。

    Returns:
        One tensor per sequence, in batch order. / 按批次顺序，每条序列一个张量。

    Raises:
        ValueError: `lengths` and the batch differ in size. / `lengths` 的条数与批大小不同。

    Examples:
        >>> import torch
        >>> from annotated_nn.utils.rnn import unpad_sequence
        >>> padded = torch.tensor([[1, 2], [3, 0]])
        >>> unpad_sequence(padded, torch.tensor([2, 1]), batch_first=True)
        [tensor([1, 2]), tensor([3])]
    """
    # 中: 先把批次维换到最前（就地修改调用者的张量，与 torch 一致），然后逐条迭代。
    # EN: Bring the batch dimension to the front first (in place on the caller's tensor, as
    # EN: torch does), then iterate over the batch.
    if not batch_first:
        padded_sequences.transpose_(0, 1)

    # 中: 一个时间下标与每个长度比较，得到“前 length 步”的布尔掩码；下标放在 `lengths` 的设备上。
    # EN: Comparing one step index with each length gives the mask "first `length` steps"; the
    # EN: index lives on `lengths`' device.
    max_length = padded_sequences.shape[1]
    step_index = torch.arange(max_length, device=lengths.device)
    unpadded_sequences = []
    for sequence, length in zip(padded_sequences, lengths, strict=True):
        unpadded_sequences.append(sequence[step_index < length])
    return unpadded_sequences


def pack_sequence(
    sequences: list[Tensor],
    enforce_sorted: bool = True,
) -> PackedSequence:
    r"""Pack a list of variable-length tensors. / 打包一个变长张量列表。

    === "中文"

        相当于先 `pad_sequence`（时间维在前）再 `pack_padded_sequence`，长度取自各张量的第 0 维。
        `enforce_sorted=True` 时列表必须按长度降序排列。
        1.5.1 → 2.13：长度现在以张量而不是列表传给 `pack_padded_sequence`。

    === "English"

        `pad_sequence` (time dimension first) followed by `pack_padded_sequence`, with the
        lengths taken from each tensor's dimension 0. With `enforce_sorted=True` the list must be
        sorted by decreasing length. 1.5.1 → 2.13: the lengths now reach
        `pack_padded_sequence` as a tensor instead of a list.

    Args:
        sequences: Tensors of shape `L x *`. / 形状为 `L x *` 的张量。
        enforce_sorted: Require decreasing lengths instead of sorting. / 要求长度已降序而不自行排序。

    Returns:
        The packed sequence. / 打包序列。

    Raises:
        RuntimeError: An empty list, a tensor of length 0, trailing dimensions that differ, or
            unsorted lengths with `enforce_sorted=True`. / 空列表、长度为 0 的张量、其余维度不一致，或长度未降序而 `enforce_sorted=True`。

    Examples:
        >>> import torch
        >>> from annotated_nn.utils.rnn import pack_sequence
        >>> pack_sequence([torch.tensor([1, 2, 3]), torch.tensor([4, 5]), torch.tensor([6])]).data
        tensor([1, 4, 6, 2, 5, 3])
    """
    # 中: `as_tensor` 在默认设备上由 Python 整数构造长度张量，通常就是内核要求的 CPU；
    # 中: 若 `torch.set_default_device` 改了默认设备，内核会拒绝它，与 torch 相同。
    # EN: `as_tensor` builds the lengths from Python ints on the default device, normally the
    # EN: CPU the kernel requires; with another default device set by `torch.set_default_device`
    # EN: the kernel rejects them, as in torch.
    lengths = torch.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences: PackedSequence) -> list[Tensor]:
    r"""Unpack a packed sequence into a list of tensors. / 把打包序列解包为张量列表。

    === "中文"

        `pack_sequence` 的逆操作：先 `pad_packed_sequence(batch_first=True)`，再
        `unpad_sequence`，列表按打包前用户的批次顺序排列。

    === "English"

        The inverse of `pack_sequence`: `pad_packed_sequence(batch_first=True)`, then
        `unpad_sequence`; the list follows the user's batch order from before packing.

    Args:
        packed_sequences: The packed batch. / 打包的批次。

    Returns:
        One tensor per sequence. / 每条序列一个张量。

    Examples:
        >>> import torch
        >>> from annotated_nn.utils.rnn import pack_sequence, unpack_sequence
        >>> unpack_sequence(pack_sequence([torch.tensor([1]), torch.tensor([2, 3])], False))
        [tensor([1]), tensor([2, 3])]
    """
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded_sequences, lengths, batch_first=True)
