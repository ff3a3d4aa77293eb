r"""Multi-process data parallelism: `DistributedDataParallel`. / 多进程数据并行：`DistributedDataParallel`。

=== "中文"

    DDP（DistributedDataParallel）让每个进程各持一份完整的模型、各吃一份不同的数据，
    只在反向传播（backward pass）里做一件事：把各进程的梯度求平均。于是每个进程的优化器
    拿到相同的梯度、做相同的更新，各份模型始终保持一致，不必每步复制模块（这是它比
    `DataParallel` 快的原因之一）。

    这个类本身是一个只有一个子模块（submodule）`module` 的包装模块；真正的工作都交给
    `torch.distributed` 的 C++ 部件，本文件只负责把它们接到模块系统上：

    - 构造时：检查参数、用 `_sync_module_states` 把 rank 0 的参数与缓冲区（buffer）广播给
      所有进程（`init_sync=False` 时不广播；给了弃用的 `broadcast_buffers=False` 时不广播
      缓冲区），再把参数分进若干"桶"（bucket，`dist._compute_bucket_assignment_by_size`），
      桶的次序与参数的注册顺序相反，然后建出 `dist.Reducer`。Reducer 在每个参数的梯度累加节点上
      注册自动求导（autograd）钩子（hook）。
    - 反向传播时：桶按次序发出，一个桶里的梯度全部就绪、且排在它前面的桶都已发出，Reducer
      就为这个桶发起一次 all-reduce，通信与其余梯度的计算重叠进行；全部完成后把平均后的梯度
      写回各参数的 `.grad`。
    - 前向传播（forward pass）前后：`_pre_forward` 通知 Reducer 新的一轮开始、按需广播缓冲区；
      `_post_forward` 告诉 Reducer 本轮要等哪些梯度（`find_unused_parameters`），必要时让输出
      穿过 `_DDPSink` 这个自动求导节点。

    还有：`no_sync()` 累积梯度而不通信；`join()` 处理各进程数据量不等的情况；
    `register_comm_hook` 替换梯度的通信方式（压缩、PowerSGD 等）。

    1.5.1 → 2.13：构造参数从 9 个增加到 20 个；单进程多 GPU 模式（多个 `device_ids`、
    进程内复制模块）已经取消，每个进程只管一个设备；`broadcast_buffers` 被弃用，改为
    `forward_sync_buffers`。

=== "English"

    DDP (DistributedDataParallel) gives every process a full copy of the model and a different
    slice of the data, and does one thing in the backward pass: it averages the gradients
    across processes. Every process's optimizer then sees the same gradients and makes the
    same update, so the copies stay identical without replicating the module on every step
    (one reason it is faster than `DataParallel`).

    The class itself is a wrapper module with one submodule, `module`; the real work is done by
    the C++ parts of `torch.distributed`, and this file only connects them to the module system:

    - At construction: check the arguments, broadcast rank 0's parameters and buffers to all
      processes with `_sync_module_states` (nothing with `init_sync=False`; not the buffers
      with the deprecated `broadcast_buffers=False`), group the parameters into "buckets"
      (`dist._compute_bucket_assignment_by_size`), ordered opposite to the parameters'
      registration, and build a `dist.Reducer`. The Reducer registers an autograd hook on each
      parameter's gradient accumulator.
    - In the backward pass: buckets go out in order; once every gradient of a bucket is ready
      and every bucket before it has gone out, the Reducer starts one all-reduce for that
      bucket, overlapping communication with the rest of the gradient computation; when all are
      done it writes the averaged gradients back into `.grad`.
    - Around the forward pass: `_pre_forward` tells the Reducer a new iteration starts and
      broadcasts buffers if asked; `_post_forward` tells it which gradients to wait for
      (`find_unused_parameters`) and, when needed, routes the output through `_DDPSink`, an
      autograd node.

    Also: `no_sync()` accumulates gradients without communicating; `join()` handles processes
    with different amounts of data; `register_comm_hook` replaces how gradients are
    communicated (compression, PowerSGD, ...).

    1.5.1 → 2.13: the constructor grew from 9 arguments to 20; the single-process multi-GPU
    mode (several `device_ids`, replicas inside one process) is gone, each process drives one
    device; `broadcast_buffers` is deprecated, replaced by `forward_sync_buffers`.
"""

import copy
import functools
import inspect
import itertools
import logging
import os
import sys
import warnings
import weakref
from collections import defaultdict, deque
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum, auto
from typing import TYPE_CHECKING, Any, Optional

import torch
import torch.distributed as dist
from torch._utils import _get_device_index
from torch.autograd import Function, Variable
from torch.distributed.algorithms.join import Join, Joinable, JoinHook
from torch.utils._pytree import tree_flatten, tree_unflatten

from annotated_nn.modules.batchnorm import SyncBatchNorm
from annotated_nn.modules.module import Module
from annotated_nn.modules.sparse import Embedding, EmbeddingBag
from annotated_nn.parallel.scatter_gather import gather, scatter_kwargs
from annotated_nn.parameter import UninitializedParameter

# 中: RPC 框架是可选编译的；有它时，模块的输出可以是一个 `RRef`（远程引用），下面几个
# 中: 遍历输出的函数要认得它。
# EN: The RPC framework is an optional build feature; when present, a module's output may be an
# EN: `RRef` (remote reference), which the output-walking helpers below must recognize.
RPC_AVAILABLE = False

# DIFF(torch 2.13): DDP's layer checks know torch.nn's classes as well as ours
# 中: DDP 在两处按层的类判断：哪些参数产生稀疏梯度（开了 `sparse` 的 Embedding/EmbeddingBag），
# 中: 以及 CPU 上不允许的 SyncBatchNorm。torch 只认 torch.nn 的类；这里两家的类都认，于是交给
# 中: 本类的 torch.nn 模型在这两处表现得和交给 torch 的 DDP 一样。
# EN: DDP checks layer classes in two places: which parameters make sparse gradients (an
# EN: Embedding/EmbeddingBag with `sparse` on) and SyncBatchNorm, refused on CPU. torch knows
# EN: torch.nn's classes only; here both libraries' classes count, so a torch.nn model handed to
# EN: this class behaves in those two places as under torch's DDP.
_SPARSE_CAPABLE_LAYERS = (Embedding, EmbeddingBag, torch.nn.Embedding, torch.nn.EmbeddingBag)
_SYNC_BATCHNORM_CLASSES = (SyncBatchNorm, torch.nn.SyncBatchNorm)

# 中: 默认桶大小 25 MiB，以及 MiB 到字节的换算系数。
# EN: The default bucket size of 25 MiB, and the MiB-to-bytes factor.
_DEFAULT_BUCKET_CAP_MB = 25
_MB_TO_BYTES = 1024 * 1024


@dataclass(frozen=True)
class _BucketCapacityConfig:
    r"""The bucket size limits, derived once from the user's arguments. / 由用户参数一次算出的桶大小上限。

    === "中文"

        桶越小，all-reduce 开始得越早、与反向计算重叠得越多，但通信次数也越多；桶越大则相反。
        这个不可变对象在构造时由 `create()` 建出，保存三个字节数：普通桶的上限
        `bucket_bytes_cap`、用户逐桶指定的上限 `per_bucket_bytes_caps`（可以为空），以及第一个桶
        的上限 `first_bucket_bytes_cap`。第一轮之后 Reducer 按梯度就绪的顺序重建桶，第一个桶
        装的就是梯度最先算出的参数（通常是最后定义的那些），让它小一点，第一次通信就能更早开始。
        开了 `find_unused_parameters`（且不是静态图）时不会重建：桶按注册顺序切分，这个较小的
        桶装的是最先定义的参数，排在最后归约。

    === "English"

        Smaller buckets start their all-reduce sooner and overlap more with the backward
        computation, at the price of more communication calls; larger ones do the opposite.
        This immutable object, built once by `create()` at construction, holds three byte counts:
        the ordinary cap `bucket_bytes_cap`, the per-bucket caps `per_bucket_bytes_caps` a user
        may give (possibly empty), and the cap of the first bucket `first_bucket_bytes_cap`.
        After the first iteration the Reducer rebuilds the buckets in gradient-ready order, so
        the first bucket holds the gradients computed first (usually those of the parameters
        defined last); keeping it small lets the first communication start earlier. With
        `find_unused_parameters` on (and no static graph) there is no rebuild: buckets are cut in
        registration order, and this smaller bucket holds the parameters defined first and is
        reduced last.

    Args:
        bucket_bytes_cap: The ordinary bucket cap in bytes. / 普通桶的上限（字节）。
        per_bucket_bytes_caps: Per-bucket caps in bytes, or empty. / 逐桶的上限（字节），可为空。
        first_bucket_bytes_cap: The first bucket's cap in bytes. / 第一个桶的上限（字节）。
    """

    bucket_bytes_cap: int
    per_bucket_bytes_caps: tuple[int, ...]
    first_bucket_bytes_cap: int

    @classmethod
    def create(
        cls,
        bucket_cap_mb: int | None,
        bucket_cap_mb_list: list[int] | None,
        use_python_reducer: bool,
    ) -> "_BucketCapacityConfig":
        r"""Turn the user's MiB arguments into byte caps. / 把用户以 MiB 给出的参数换算成字节上限。

        === "中文"

            `bucket_cap_mb` 为 None 时用默认的 25 MiB，并且第一个桶用更小的
            `dist._DEFAULT_FIRST_BUCKET_BYTES`（1 MiB）；用户一旦自己给了大小，第一个桶就与
            其它桶一样大。给了 `bucket_cap_mb_list` 时它优先：每个桶各有上限，普通上限取
            其中最大的一个。

        === "English"

            With `bucket_cap_mb` None the default 25 MiB is used and the first bucket gets the
            smaller `dist._DEFAULT_FIRST_BUCKET_BYTES` (1 MiB); once the user gives a size, the
            first bucket is as large as the others. A `bucket_cap_mb_list` takes precedence:
            each bucket gets its own cap and the ordinary cap is the largest of them.

        Args:
            bucket_cap_mb: One cap in MiB, or None for the default. / 统一的上限（MiB），None 用默认值。
            bucket_cap_mb_list: Per-bucket caps in MiB, or None. / 逐桶的上限（MiB），或 None。
            use_python_reducer: Whether the Python reducer (compiled autograd) is in use. / 是否使用 Python 版 reducer（编译的自动求导）。

        Returns:
            The configuration. / 配置对象。

        Raises:
            AssertionError: Per-bucket caps with the Python reducer. / 逐桶上限与 Python reducer 同时使用。
        """
        # 中: 记下用户是否用了默认值：只有用默认值时第一个桶才单独变小。
        # EN: Remember whether the default is used: only then does the first bucket get smaller.
        is_using_default = bucket_cap_mb is None
        effective_bucket_cap_mb = (
            bucket_cap_mb if bucket_cap_mb is not None else _DEFAULT_BUCKET_CAP_MB
        )

        # 中: 逐桶上限只有 C++ Reducer 支持；换算成字节时先乘再取整（允许小数 MiB）。
        # EN: Only the C++ Reducer supports per-bucket caps; the conversion multiplies first and
        # EN: truncates after (fractional MiB are allowed).
        per_bucket_bytes_caps: tuple[int, ...] = ()
        if bucket_cap_mb_list:
            if use_python_reducer:
                raise AssertionError(
                    "when using bucket_cap_mb_list, python reducer is not supported"
                )
            # 中: 每个桶的上限各自换算成字节。
            # EN: Each bucket's cap is converted to bytes on its own.
            per_bucket_bytes_caps = tuple(
                int(cap_mb * _MB_TO_BYTES) for cap_mb in bucket_cap_mb_list
            )
            # 中: 普通上限取最大的那个；给了逐桶上限就不算用默认值。
            # EN: The ordinary cap is the largest one; per-bucket caps count as not the default.
            effective_bucket_cap_mb = max(bucket_cap_mb_list)
            is_using_default = False

        # 中: 第一个桶：默认设置下是 1 MiB，否则与普通上限相同。
        # EN: The first bucket: 1 MiB under the defaults, otherwise the ordinary cap.
        bucket_bytes_cap = int(effective_bucket_cap_mb * _MB_TO_BYTES)
        first_bucket_bytes_cap = (
            dist._DEFAULT_FIRST_BUCKET_BYTES if is_using_default else bucket_bytes_cap
        )
        # 中: 三个字节数组成不可变的配置。
        # EN: The three byte counts form the immutable config.
        return cls(
            bucket_bytes_cap=bucket_bytes_cap,
            per_bucket_bytes_caps=per_bucket_bytes_caps,
            first_bucket_bytes_cap=first_bucket_bytes_cap,
        )

    @property
    def bucket_cap_mb(self) -> int:
        r"""The ordinary cap in whole MiB. / 以整 MiB 计的普通上限。

        === "中文"

            整除得到的 MiB 数，小于 1 MiB 的上限得到 0；只有延迟 all-reduce 的广播与编译路径
            读它。

        === "English"

            Whole MiB by floor division, so a cap under 1 MiB gives 0; only the delayed
            all-reduce broadcast and the compiled path read it.

        Returns:
            `bucket_bytes_cap // 2**20`. / `bucket_bytes_cap // 2**20`。
        """
        return self.bucket_bytes_cap // _MB_TO_BYTES

    @property
    def has_custom_per_bucket_caps(self) -> bool:
        r"""Whether the user gave per-bucket caps. / 用户是否给了逐桶上限。

        === "中文"

            即 `per_bucket_bytes_caps` 不为空。

        === "English"

            That is, `per_bucket_bytes_caps` is not empty.

        Returns:
            True when per-bucket caps exist. / 有逐桶上限时为 True。
        """
        return len(self.per_bucket_bytes_caps) > 0

    def compute_bucket_size_limits(
        self,
        static_graph: bool,
        find_unused_parameters: bool,
    ) -> tuple[list[int], list[int]]:
        r"""The caps for the first bucketing, and those for the later rebuild. / 第一次分桶用的上限，以及之后重建时用的上限。

        === "中文"

            构造时参数的顺序只是注册顺序，不一定是反向传播里梯度就绪的顺序。若某些 rank 上
            有参数没被用到、模型又在反向里做别的集合通信，过早发出的 all-reduce 可能与别的
            通信错配。所以除非开了 `find_unused_parameters`（且不是静态图），第一轮只用一个
            无限大的桶（`sys.maxsize`），等第一轮结束后 Reducer 按真实的梯度就绪顺序重建桶。
            开了 `find_unused_parameters`（且不是静态图）时 Reducer 从不重建，这里按注册顺序
            分出的桶会一直用到训练结束。第二个返回值交给 Reducer 用于重建：空列表表示让 Reducer
            用它自己的默认规则（先一个 `first_bucket_bytes_cap` 大小的桶，其余用普通上限）。

        === "English"

            At construction the parameter order is only the registration order, not necessarily
            the order in which gradients become ready. If some rank leaves parameters unused and
            the model runs other collectives in its backward pass, an all-reduce issued too
            early may pair up with the wrong collective. So unless `find_unused_parameters` is on
            (and the graph is not static), the first iteration uses a single unbounded bucket
            (`sys.maxsize`), and after it the Reducer rebuilds the buckets in the real order of
            gradient readiness. With `find_unused_parameters` on (and no static graph) the
            Reducer never rebuilds, so the buckets cut here in registration order last the whole
            training. The second return value goes to the Reducer for that rebuild: an empty
            list lets it use its own default rule (one bucket capped at `first_bucket_bytes_cap`,
            then the ordinary cap).

        Args:
            static_graph: Whether the graph is declared static. / 是否声明为静态图。
            find_unused_parameters: Whether unused parameters are searched for. / 是否查找未用到的参数。

        Returns:
            `(limits for the first bucketing, limits for rebuilding)`. / `(首次分桶上限, 重建上限)`。
        """
        # 中: 情形 1：用户逐桶指定，两次都用它。
        # EN: Case 1: the user's per-bucket caps, used for both.
        if self.has_custom_per_bucket_caps:
            limits = list(self.per_bucket_bytes_caps)
            return (limits, limits)

        # 中: 情形 2：一个无限大的桶；或先一个小的第一桶、再普通大小；或全部普通大小。
        # EN: Case 2: one unbounded bucket; or a small first bucket then ordinary ones; or all
        # EN: ordinary.
        if static_graph or not find_unused_parameters:
            bucket_size_limits = [sys.maxsize]
        elif self.first_bucket_bytes_cap < self.bucket_bytes_cap:
            bucket_size_limits = [self.first_bucket_bytes_cap, self.bucket_bytes_cap]
        else:
            bucket_size_limits = [self.bucket_bytes_cap]
        return (bucket_size_limits, [])


# 中: 没有编译分布式支持的 torch 上，这些名字不存在；于是只在可用时导入，类仍然能定义。
# EN: On a torch built without distributed support these names do not exist; they are imported
# EN: only when available, so the class can still be defined.
if dist.is_available():
    from torch.distributed.distributed_c10d import (
        ReduceOp,
        _get_default_group,
        _rank_not_in_group,
    )
    from torch.distributed.utils import (
        _alloc_storage,
        _cast_forward_inputs,
        _free_storage,
        _sync_module_states,
        _to_kwargs,
        _verify_param_shape_across_processes,
    )
if dist.rpc.is_available():
    RPC_AVAILABLE = True
    from torch.distributed.rpc import RRef

if TYPE_CHECKING:
    from torch.utils.hooks import RemovableHandle


__all__ = ["DistributedDataParallel"]

# 中: 用 torch 的日志器名字：用户为 "torch.nn.parallel.distributed" 配置的级别与处理器，
# 中: 对本文件发出的日志同样生效。
# EN: torch's logger name: the level and handlers a user configures for
# EN: "torch.nn.parallel.distributed" apply to the records this file emits as well.
logger = logging.getLogger("torch.nn.parallel.distributed")


@dataclass
class _MixedPrecision:
    r"""DDP's own mixed-precision settings (experimental). / DDP 自带的混合精度设置（实验性）。

    === "中文"

        三个数据类型各管一件事：`param_dtype` 是前向与反向计算时参数与输入的类型；
        `reduce_dtype` 是梯度通信的类型；`buffer_dtype` 是缓冲区的类型。每个低精度类型都要
        显式给出，不给就不转。输入只转换其中的浮点张量；缓冲区却全部转换，连整数的
        `num_batches_tracked` 也不例外。前向与反向之外，参数保持全精度，所以状态字典
        （state_dict）里的参数是全精度的，缓冲区则是 `buffer_dtype` 类型。

    === "English"

        Each of the three dtypes governs one thing: `param_dtype` is the type of the parameters
        and of the inputs during forward and backward computation; `reduce_dtype` is the type
        in which gradients are communicated; `buffer_dtype` is the buffers' type. Each low
        precision must be named explicitly; what is not given is not cast. Of the inputs only
        the floating-point tensors are cast, but every buffer is, the integer
        `num_batches_tracked` included. Outside forward and backward the parameters stay in full
        precision, so the state_dict holds full-precision parameters, while its buffers are of
        `buffer_dtype`.

    Args:
        param_dtype: Compute dtype of parameters. / 参数的计算类型。
        reduce_dtype: Dtype of gradient reduction. / 梯度归约的类型。
        buffer_dtype: Dtype of buffers. / 缓冲区的类型。
    """

    param_dtype: torch.dtype | None = None
    reduce_dtype: torch.dtype | None = None
    buffer_dtype: torch.dtype | None = None


def _cast_buffers(mixed_precision_config, root_module):
    r"""Cast every buffer DDP manages to `buffer_dtype`. / 把 DDP 管理的缓冲区都转成 `buffer_dtype`。

    === "中文"

        替换的是 `buf.data`，缓冲区对象本身不变，模块里的引用依然有效；被标记为
        `_ddp_ignored` 的缓冲区不动。

    === "English"

        It replaces `buf.data`, so the buffer object stays the same and the module's reference
        remains valid; buffers marked `_ddp_ignored` are left alone.

    Args:
        mixed_precision_config: The `_MixedPrecision` settings. / `_MixedPrecision` 混合精度设置。
        root_module: The wrapped module. / 被包装的模块。
    """
    for buf in root_module.buffers():
        if hasattr(buf, "_ddp_ignored") and buf._ddp_ignored:
            continue
        buf.data = buf.to(dtype=mixed_precision_config.buffer_dtype)


def _setup_mixed_precision_params(mixed_precision_config, root_module):
    r"""Give every parameter an empty low-precision twin. / 为每个参数配一个空的低精度孪生张量。

    === "中文"

        `_mp_param` 是 `param_dtype` 类型、形状相同的张量，建好后立刻释放存储（大小为 0），
        每次前向传播前才分配并拷入数值；`_fp_param` 记住全精度的 `param.data`。换回发生在
        反向传播之中：混合精度的通信钩子在参数所在的桶归约完成后就把它换回全精度（不需要梯度的
        参数没有钩子，在反向传播结束时换回）。

    === "English"

        `_mp_param` is a same-shaped tensor of `param_dtype` whose storage is freed right away
        (size 0); it is allocated and filled before each forward pass. `_fp_param` remembers the
        full-precision `param.data`. It is swapped back during the backward pass: the
        mixed-precision comm hook restores it as soon as the parameter's bucket is reduced
        (parameters that need no gradient have no hook and are restored when the backward pass
        ends).

    Args:
        mixed_precision_config: The `_MixedPrecision` settings. / `_MixedPrecision` 混合精度设置。
        root_module: The wrapped module. / 被包装的模块。
    """
    for param in root_module.parameters():
        # 中: 被忽略的参数不参与混合精度；已经有孪生张量的（重复调用）不再建。
        # EN: Ignored parameters take no part in mixed precision; ones that already have a twin
        # EN: (a repeated call) get no new one.
        if hasattr(param, "_ddp_ignored") and param._ddp_ignored:
            continue
        # 中: 建好就释放存储：只留下形状与类型，不占内存，直到前向前才分配。
        # EN: The storage is freed right after creation: only shape and dtype remain, taking no
        # EN: memory until allocated before forward.
        if not hasattr(param, "_mp_param"):
            param._mp_param = torch.zeros_like(
                param,
                device=param.device,
                dtype=mixed_precision_config.param_dtype,
                requires_grad=param.requires_grad,
            )
            # 中: `_fp_param` 指向全精度数据，反向传播中桶归约完成后换回它。
            # EN: `_fp_param` points at the full-precision data, swapped back in the backward
            # EN: pass once the bucket is reduced.
            _free_storage(param._mp_param)
            param._fp_param = param.data


def _tree_flatten_with_rref(output):
    r"""Flatten a module output (unwrapping a local `RRef`). / 把模块输出压平（本地 `RRef` 先拆开）。

    === "中文"

        用 pytree 把任意嵌套的输出压成一个叶子列表，并返回还原所需的结构描述，
        以及输出原本是不是 `RRef`，好在还原时再包回去。

    === "English"

        Uses pytree to flatten an arbitrarily nested output into a list of leaves, returning the
        structure needed to rebuild it and whether the output was an `RRef`, so that the
        rebuild can wrap it again.

    Args:
        output: The module's output. / 模块的输出。

    Returns:
        `(leaves, treespec, output_is_rref)`. / `(叶子列表, 结构描述, 是否为 RRef)`。
    """
    output_is_rref = RPC_AVAILABLE and isinstance(output, RRef)
    if output_is_rref:
        output_tensor_list, treespec = tree_flatten(output.local_value())
    else:
        output_tensor_list, treespec = tree_flatten(output)
    return output_tensor_list, treespec, output_is_rref


def _tree_unflatten_with_rref(output, treespec, output_is_rref):
    r"""Rebuild what `_tree_flatten_with_rref` flattened. / 还原 `_tree_flatten_with_rref` 压平的输出。

    === "中文"

        按结构描述重建嵌套结构；原来是 `RRef` 的再包成 `RRef`。

    === "English"

        Rebuilds the nested structure from the spec, wrapping it in an `RRef` again if it was
        one.

    Args:
        output: The leaves. / 叶子列表。
        treespec: The structure spec. / 结构描述。
        output_is_rref: Whether to wrap in an `RRef`. / 是否包成 `RRef`。

    Returns:
        The rebuilt output. / 还原后的输出。
    """
    output = tree_unflatten(output, treespec)
    if output_is_rref:
        output = RRef(output)
    return output


def _find_tensors(obj):
    r"""All tensors inside a nested output. / 找出嵌套输出里的全部张量。

    === "中文"

        递归进入 list、tuple、dict 的值、dataclass 的字段，以及本进程拥有的 `RRef`。
        `find_unused_parameters=True` 时，Reducer 从这些张量出发遍历计算图，
        找出本轮没有参与计算的参数。1.5.1 → 2.13：新增对 dataclass 与 `RRef` 的支持。

    === "English"

        Recurses into lists, tuples, dict values, dataclass fields and `RRef`s owned by this
        process. With `find_unused_parameters=True` the Reducer walks the graph from these
        tensors to find the parameters this iteration did not use.
        1.5.1 → 2.13: dataclasses and `RRef`s are new.

    Args:
        obj: A module output. / 模块输出。

    Returns:
        An iterable of tensors. / 张量的可迭代对象。
    """
    # 中: 远程引用只有在本进程是它的所有者时才能取到值；远程的 RRef 不展开。
    # EN: A remote reference yields its value only when this process owns it; a remote RRef is
    # EN: not expanded.
    if RPC_AVAILABLE and isinstance(obj, RRef):
        if obj.is_owner():
            return _find_tensors(obj.local_value())
    if isinstance(obj, torch.Tensor):
        return [obj]
    # 中: 容器：逐个递归再串起来（惰性的 chain，调用方用 `list(...)` 展开）。
    # EN: Containers: recurse into each item and chain the results (a lazy chain; the caller
    # EN: expands it with `list(...)`).
    if isinstance(obj, (list, tuple)):
        return itertools.chain.from_iterable(map(_find_tensors, obj))
    if isinstance(obj, dict):
        return itertools.chain.from_iterable(map(_find_tensors, obj.values()))
    # 中: dataclass 按字段顺序递归；其它对象里找不到张量。
    # EN: A dataclass recurses in field order; any other object holds no tensor.
    if is_dataclass(obj):
        return itertools.chain.from_iterable(
            map(_find_tensors, (getattr(obj, f.name) for f in fields(obj)))
        )
    return []


def _dump_DDP_relevant_env_vars():
    r"""Print the environment variables that affect DDP. / 打印影响 DDP 的环境变量。

    === "中文"

        调试用：每个变量打印一行 `env:NAME=value`，没设置的显示 `N/A`。清单覆盖 rank 与地址、
        可见的 CUDA 设备、Gloo 与 NCCL 的网络和调试选项。

    === "English"

        A debugging aid: prints one `env:NAME=value` line per variable, `N/A` when unset. The
        list covers rank and address, visible CUDA devices, and Gloo's and NCCL's network and
        debugging options.
    """
    # 中: 前几项是进程组的基本设置，其余是两种通信后端的选项。
    # EN: The first ones are the process group's basic settings; the rest are options of the two
    # EN: communication backends.
    relevant_env_vars = [
        "RANK",
        "LOCAL_RANK",
        "WORLD_SIZE",
        "MASTER_PORT",
        "MASTER_ADDR",
        "CUDA_VISIBLE_DEVICES",
        # 中: Gloo 与 NCCL 选用哪块网卡、传输方式，以及阻塞等待与调试输出。
        # EN: Which network interface and transport Gloo and NCCL use, plus blocking wait and
        # EN: debug output.
        "GLOO_SOCKET_IFNAME",
        "GLOO_DEVICE_TRANSPORT",
        "NCCL_SOCKET_IFNAME",
        "TORCH_NCCL_BLOCKING_WAIT",
        "NCCL_DEBUG",
        "NCCL_DEBUG_SUBSYS",
        "NCCL_IB_DISABLE",
        # 中: 以下都是 NCCL 的选项：点对点、共享内存、线程与缓冲、通道、InfiniBand、拓扑等。
        # EN: The rest are NCCL options: peer-to-peer, shared memory, threads and buffers,
        # EN: channels, InfiniBand, topology and so on.
        "NCCL_P2P_DISABLE",
        "NCCL_P2P_LEVEL",
        "NCCL_SHM_DISABLE",
        # 中: 线程数、缓冲大小与通道数。
        # EN: Thread counts, buffer size and channel counts.
        "NCCL_SOCKET_NTHREADS",
        "NCCL_NSOCKS_PERTHREAD",
        "NCCL_BUFFSIZE",
        "NCCL_NTHREADS",
        # 中: 环、通道数与检查。
        # EN: Rings, channel counts and checks.
        "NCCL_RINGS",
        "NCCL_MAX_NCHANNELS",
        "NCCL_MIN_NCHANNELS",
        "NCCL_CHECKS_DISABLE",
        "NCCL_CHECK_POINTERS",
        "NCCL_LAUNCH_MODE",
        # 中: InfiniBand 相关。
        # EN: InfiniBand settings.
        "NCCL_IB_HCA",
        "NCCL_IB_TIMEOUT",
        "NCCL_IB_RETRY_CNT",
        "NCCL_IB_GID_INDEX",
        "NCCL_IB_SL",
        "NCCL_IB_TC",
        "NCCL_IB_AR_THRESHOLD",
        "NCCL_IB_CUDA_SUPPORT",
        # 中: GPUDirect RDMA 与算法阈值。
        # EN: GPUDirect RDMA and algorithm thresholds.
        "NCCL_NET_GDR_LEVEL",
        "NCCL_NET_GDR_READ",
        "NCCL_SINGLE_RING_THRESHOLD",
        "NCCL_LL_THRESHOLD",
        "NCCL_TREE_THRESHOLD",
        # 中: 算法、协议、CPU 亲和性与调试文件。
        # EN: Algorithm, protocol, CPU affinity and debug file.
        "NCCL_ALGO",
        "NCCL_PROTO",
        "NCCL_IGNORE_CPU_AFFINITY",
        "NCCL_DEBUG_FILE",
        # 中: CollNet、拓扑文件与异步错误处理。
        # EN: CollNet, topology files and asynchronous error handling.
        "NCCL_COLLNET_ENABLE",
        "NCCL_TOPO_FILE",
        "NCCL_TOPO_DUMP_FILE",
        "TORCH_NCCL_ASYNC_ERROR_HANDLING",
    ]
    # 中: 拼成一个字符串、一次打印完，多进程同时输出时各自的几十行不至于互相穿插。
    # EN: Build one string and print it at once, so that the dozens of lines of processes
    # EN: printing at the same time do not interleave.
    formatted_output = ""
    for var in relevant_env_vars:
        value = os.environ.get(var, "N/A")
        formatted_output += f"env:{var}={value}\n"
    print(formatted_output)


class _BufferCommHookLocation(Enum):
    r"""Where a buffer comm hook runs: before or after the forward pass. / 缓冲区通信钩子在前向传播之前还是之后运行。

    === "中文"

        `PRE_FORWARD` 在前向计算开始前同步缓冲区（与默认的广播同一时机）；`POST_FORWARD`
        在前向计算之后，钩子可以返回 future，由 Reducer 在反向传播结束时等待，让通信与
        反向计算重叠。

    === "English"

        `PRE_FORWARD` syncs buffers before the forward computation (when the default broadcast
        happens); `POST_FORWARD` after it, and the hook may return futures that the Reducer
        awaits at the end of the backward pass, overlapping communication with it.
    """

    PRE_FORWARD = auto()
    POST_FORWARD = auto()


@dataclass
class _BufferCommHook:
    r"""A registered buffer comm hook: function, state, location. / 已注册的缓冲区通信钩子：函数、状态、位置。

    === "中文"

        由 `_register_buffer_comm_hook` 建出，存在 `self.buffer_hook` 上；有了它，DDP 就不再
        用默认的从 rank 0 广播，而是调用这个钩子同步缓冲区。

    === "English"

        Built by `_register_buffer_comm_hook` and kept as `self.buffer_hook`; once it exists,
        DDP no longer uses the default broadcast from rank 0 but calls this hook to sync the
        buffers.

    Args:
        buffer_comm_hook: `hook(state, named_buffers)`. / `hook(state, named_buffers)`。
        buffer_comm_hook_state: Passed as `state`. / 作为 `state` 传入。
        buffer_comm_hook_location: When it runs. / 何时运行。
    """

    buffer_comm_hook: Callable
    buffer_comm_hook_state: Any
    buffer_comm_hook_location: _BufferCommHookLocation


class _DDPSink(Function):
    r"""An identity autograd node on the module's outputs. / 挂在模块输出上的恒等自动求导节点。

    === "中文"

        前向时原样（默认先 clone）返回输入；反向时它的 `backward` 是整张计算图里最先运行的
        DDP 代码，于是 DDP 可以在那里做只能在反向传播里做的事：

        - 静态图的第一轮：向自动求导引擎排队一个回调 `reducer._delay_all_reduce`，它在整个
          反向传播结束时运行，那时才知道哪些参数真的被用到，再一次性做 all-reduce。
        - `find_unused_parameters=True`：`set_materialize_grads(False)` 让没有参与损失的输出
          收到的梯度保持 None（而不是被填成全零），Reducer 据此把对应的参数记为本进程未使用；
          只有在每个进程上都未使用时，它们的 `.grad` 才不被改动，否则同样得到平均后的梯度。

        默认 clone 输出，是为了让用户对损失做就地（in-place）修改时不触发"视图被就地修改"的报错；
        `_set_ddp_sink_clone(False)` 可以关掉以省内存。

    === "English"

        Forward returns its inputs unchanged (cloned by default); in the backward pass its
        `backward` is the first DDP code to run in the whole graph, so DDP does there what can
        only be done during the backward pass:

        - First iteration of a static graph: queue the callback `reducer._delay_all_reduce`
          with the autograd engine; it runs when the whole backward pass has finished, when it is
          known which parameters were really used, and all-reduces them at once.
        - `find_unused_parameters=True`: `set_materialize_grads(False)` keeps the gradient of an
          output that took no part in the loss None (instead of filling it with zeros), and the
          Reducer then counts the corresponding parameters as unused in this process; their
          `.grad` is left alone only if they are unused in every process, otherwise it gets the
          averaged gradient as usual.

        Outputs are cloned by default so that an in-place change of the loss by the user does
        not raise the "view modified in-place" error; `_set_ddp_sink_clone(False)` turns it off
        to save memory.
    """

    @staticmethod
    def forward(ctx, ddp_weakref, *inputs):
        r"""Pass the inputs through (cloned by default). / 原样传出输入（默认 clone）。

        === "中文"

            只保存 DDP 对象的弱引用，避免计算图让 DDP 一直存活。

        === "English"

            Only a weak reference to the DDP object is saved, so the graph does not keep DDP
            alive.

        Args:
            ctx: The autograd context. / 自动求导上下文。
            ddp_weakref: A weak reference to the DDP module. / 指向 DDP 模块的弱引用。
            *inputs: The flattened outputs of the module. / 压平后的模块输出。

        Returns:
            The same values, as a tuple. / 同样的值组成的 tuple。
        """
        # 中: 不把 None 梯度物化为零：未参与损失的输出，其梯度保持 None。
        # EN: Do not materialize None gradients as zeros: an output unused by the loss keeps a
        # EN: None gradient.
        ctx.set_materialize_grads(False)
        ctx.ddp_weakref = ddp_weakref
        ret = inputs
        if ddp_weakref()._ddp_sink_clone:
            ret = tuple(inp.clone() if isinstance(inp, torch.Tensor) else inp for inp in inputs)
        return ret

    @staticmethod
    def backward(ctx, *grad_outputs):
        r"""Queue the delayed all-reduce of a static graph's first iteration. / 为静态图的第一轮排队延迟的 all-reduce。

        === "中文"

            只排队一次（用 `_static_graph_delay_allreduce_enqueued` 标记）；梯度原样传回，
            弱引用参数对应的梯度是 None。

        === "English"

            Queued only once (flagged by `_static_graph_delay_allreduce_enqueued`); gradients
            pass through unchanged, with None for the weak-reference argument.

        Args:
            ctx: The autograd context. / 自动求导上下文。
            *grad_outputs: Gradients of the outputs. / 各输出的梯度。

        Returns:
            `(None, *grad_outputs)`. / `(None, *grad_outputs)`。
        """
        # 中: 引擎在整个反向传播结束时运行排队的回调，那时所有梯度都已就绪。
        # EN: The engine runs queued callbacks when the whole backward pass ends, when every
        # EN: gradient is ready.
        ddp_weakref = ctx.ddp_weakref()
        reducer = ddp_weakref.reducer
        static_graph = ddp_weakref.static_graph
        delay_ar_enqueued = static_graph and ddp_weakref._static_graph_delay_allreduce_enqueued
        if static_graph and not delay_ar_enqueued:
            Variable._execution_engine.queue_callback(reducer._delay_all_reduce)
            ddp_weakref._static_graph_delay_allreduce_enqueued = True
        return (None, *grad_outputs)


class _DDPJoinHook(JoinHook):
    r"""DDP's join hook: shadow the collectives of processes still training. / DDP 的 join 钩子：替已经没数据的进程陪跑集合通信。

    === "中文"

        数据量不等时，先用完数据的进程（"已加入"的进程）若直接离开，其它进程的 all-reduce
        就等不到它而卡住。`Join` 上下文管理器在退出时反复调用 `main_hook`：每调用一次，
        就按其它进程一轮前向加反向的顺序发出同样的集合通信，但贡献全零的梯度。
        所有进程都加入后调用 `post_hook`，把最后加入的进程的模型广播给所有进程。

    === "English"

        With uneven data, a process that runs out first ("joined") would leave the others'
        all-reduces waiting forever. On exit the `Join` context manager calls `main_hook`
        repeatedly: each call issues the same collectives, in the same order, as one forward and
        backward iteration of the others, contributing all-zero gradients. Once every process
        has joined it calls `post_hook`, which broadcasts the model of a last joiner to all.

    Args:
        ddp: The DDP module. / DDP 模块。
        divide_by_initial_world_size: Divide by the initial world size, not the live one. / 按初始进程数而不是剩余进程数求平均。
    """

    def __init__(self, ddp, divide_by_initial_world_size):
        r"""Check the DDP object and record the averaging rule. / 检查 DDP 对象并记下求平均的规则。

        === "中文"

            同时告诉日志器本次训练用了不均匀输入的 join。

        === "English"

            Also tells the logger that this training uses the uneven-input join.

        Args:
            ddp: The DDP module. / DDP 模块。
            divide_by_initial_world_size: The averaging rule. / 求平均的规则。

        Raises:
            AssertionError: `ddp` is not a DDP module or has no logger. / `ddp` 不是 DDP 模块或没有日志器。
        """
        # 中: 报错文字与 torch 相同；检查的是本文件的 DDP 类。
        # EN: The error texts are torch's; the check is against this file's DDP class.
        if not isinstance(ddp, DistributedDataParallel):
            raise AssertionError(
                "DDP join hook requires passing in a DistributedDataParallel "
                f"instance as the state, got {type(ddp).__name__}"
            )
        if ddp.logger is None:
            raise AssertionError("ddp.logger must not be None")
        # 中: 记进日志数据；除法规则存在 DDP 上，`_pre_forward` 交给 Reducer 时读取。
        # EN: Recorded in the logging data; the division rule is stored on DDP, read when
        # EN: `_pre_forward` hands it to the Reducer.
        ddp.logger._set_uneven_input_join()
        self.ddp = ddp
        self.ddp._divide_by_initial_world_size = divide_by_initial_world_size
        super().__init__()

    def main_hook(self):
        r"""Shadow one iteration's collectives of the non-joined processes. / 陪跑未加入进程一轮的集合通信。

        === "中文"

            顺序必须与 `_pre_forward` 与反向传播里的通信一一对应：桶重建、缓冲区同步、
            "本轮要不要同步梯度"的 all-reduce，然后每个桶一次 all-reduce、未使用参数表的
            all-reduce，最后推送重建后的参数顺序。

        === "English"

            The order must match the communication of `_pre_forward` and the backward pass one
            to one: bucket rebuild, buffer sync, the "sync gradients this iteration?"
            all-reduce, then one all-reduce per bucket, the all-reduce of the unused-parameter
            map, and finally pushing the rebuilt parameter order.
        """
        # 中: 桶在整个训练中只重建一次，已加入的进程也要参与这次重建。
        # EN: Buckets are rebuilt once per training; a joined process must take part too.
        ddp = self.ddp
        ddp.reducer._rebuild_buckets()

        # 中: 若其它进程会在前向前广播缓冲区，这里陪一次；源 rank 由各进程协商。
        # EN: If the others broadcast buffers before forward, match it; the source rank is
        # EN: agreed on among the processes.
        ddp._check_and_sync_module_buffers()

        # 中: 问其它进程这一轮要不要同步梯度（它们可能在 `no_sync()` 里）；不同步则下一轮的
        # 中: 前向也不同步缓冲区，所以把结果存进 `require_forward_param_sync`。
        # EN: Ask the others whether this iteration syncs gradients (they may be in `no_sync()`);
        # EN: if not, the next forward skips buffer sync as well, hence the result is stored in
        # EN: `require_forward_param_sync`.
        should_sync_backwards = ddp._check_global_requires_backward_grad_sync(is_joined_rank=True)
        ddp.require_forward_param_sync = should_sync_backwards
        if not should_sync_backwards:
            return

        # 中: 每个桶一次 all-reduce（贡献零梯度）；查找未使用参数时还要陪一次使用表的 all-reduce。
        # EN: One all-reduce per bucket (contributing zeros); when searching for unused
        # EN: parameters, also match the all-reduce of the usage map.
        ddp._match_all_reduce_for_bwd_pass()
        if ddp.find_unused_parameters:
            ddp._match_unused_params_allreduce()

        # 中: 重建后的参数顺序只推送一次。
        # EN: The rebuilt parameter order is pushed only once.
        ddp.reducer._push_all_rebuilt_params()

    def post_hook(self, is_last_joiner: bool):
        r"""Make every process hold the last joiner's model. / 让所有进程都持有最后加入者的模型。

        === "中文"

            最后加入的进程训练得最久，它的模型最新，以它为准广播。

        === "English"

            The last joiner trained longest, so its model is the newest; it is broadcast.

        Args:
            is_last_joiner: Whether this process is among the last to join. / 本进程是否是最后加入者之一。
        """
        self.ddp._sync_final_model(is_last_joiner)


class DistributedDataParallel(Module, Joinable):
    r"""Data parallelism across processes, averaging gradients in the backward pass. / 跨进程的数据并行：在反向传播中对梯度求平均。

    === "中文"

        用法：每个进程先 `torch.distributed.init_process_group(...)`，在同一个种子下建出同样的
        模型，再用 `DistributedDataParallel(model)` 包起来；之后像普通模块一样调用、反向、
        优化。构造时 rank 0 的参数与缓冲区会广播给所有进程；每次反向传播结束时，每个参数的
        `.grad` 都是各进程梯度的平均值。DDP 不切分输入：给每个进程喂哪一份数据由用户决定
        （通常用 `DistributedSampler`）。

        需要记住的几点：

        - 构造、前向和反向都是同步点：所有进程都必须走到同一步，否则会卡住。
        - 构造后不要再增删参数：Reducer 在构造时记下了参数列表和它们的钩子（缓冲区则在每次
          同步前重新收集）。
        - 各进程的参数注册顺序必须一致：最初的分桶就是按这个顺序的倒序进行的。
        - 缓冲区（例如 BatchNorm 的滑动统计量）默认在每次前向前从 rank 0 广播（`join()` 之内
          改从仍在训练的最大 rank 广播；`no_sync()` 之后的第一次前向不广播），
          所以其它进程上一轮更新的统计量会被覆盖。
        - 损失若是求和而非求平均，`M` 个进程每个 `N` 个样本得到的梯度是单进程 `M*N` 个样本
          的 `1/M`，因为 DDP 求的是平均。
        - 状态字典的键带 `module.` 前缀；加载到不带 DDP 的模型前要去掉它
          （`consume_prefix_in_state_dict_if_present`）。
        - 它只配合 `.backward()` 使用：梯度必须累加进 `.grad`，`torch.autograd.grad` 不行。

        本类是 annotated_nn 的 `Module`（`module` 是真正的子模块，`parameters()`、
        `state_dict()`、`train()`、`repr` 都能看到它），通信全部交给 torch 的 C++ 部件
        `dist.Reducer`、`dist.Logger` 与 `dist._broadcast_coalesced`。

    === "English"

        Usage: each process calls `torch.distributed.init_process_group(...)`, builds the same
        model from the same seed and wraps it in `DistributedDataParallel(model)`; then it is
        called, backpropagated and optimized like any module. At construction rank 0's
        parameters and buffers are broadcast to every process; at the end of each backward pass
        every parameter's `.grad` holds the average of the processes' gradients. DDP does not
        split the input: which data each process gets is up to the user (usually through a
        `DistributedSampler`).

        Points to remember:

        - Construction, forward and backward are synchronization points: every process must
          reach the same step, or they hang.
        - Do not add or remove parameters after construction: the Reducer recorded the
          parameter list and their hooks then (buffers are collected again before every sync).
        - Parameters must be registered in the same order in every process: the initial
          buckets are formed in the reverse of that order.
        - Buffers (BatchNorm's running statistics, say) are broadcast from rank 0 before every
          forward by default (inside `join()` from the highest rank still training instead;
          not before the first forward after `no_sync()`), so the statistics other ranks updated in the previous iteration
          are overwritten.
        - If the loss is summed rather than averaged, `M` processes of `N` samples each get
          `1/M` of the gradient of one process with `M*N` samples, since DDP averages.
        - State_dict keys carry a `module.` prefix; strip it
          (`consume_prefix_in_state_dict_if_present`) before loading into a model without DDP.
        - It works with `.backward()` only: gradients must accumulate into `.grad`;
          `torch.autograd.grad` does not work.

        This class is an annotated_nn `Module` (`module` is a real submodule, seen by
        `parameters()`, `state_dict()`, `train()` and `repr`); all communication goes through
        torch's C++ parts `dist.Reducer`, `dist.Logger` and `dist._broadcast_coalesced`.

    Args:
        module: The module to parallelize. / 要并行的模块。
        device_ids: `None`, or one CUDA device for a single-device GPU module. / `None`，或单设备 GPU 模块所在的那一个 CUDA 设备。
        output_device: Output device of a single-device GPU module. / 单设备 GPU 模块的输出设备。
        dim: Kept for `scatter`/`gather`; DDP never splits inputs. / 供 `scatter`/`gather` 使用；DDP 本身不切分输入。
        broadcast_buffers: Deprecated form of `forward_sync_buffers`. / `forward_sync_buffers` 的弃用写法。
        init_sync: Verify shapes and broadcast state at construction. / 构造时检查形状并广播状态。
        process_group: The group to reduce over (default: the world). / 归约所用的进程组（默认全体）。
        bucket_cap_mb: Bucket size in MiB (default 25). / 桶大小（MiB，默认 25）。
        find_unused_parameters: Detect parameters unused in a forward pass. / 检测前向中未用到的参数。
        check_reduction: Deprecated, ignored. / 已弃用，被忽略。
        gradient_as_bucket_view: Make `.grad` views into the buckets. / 让 `.grad` 成为桶的视图。
        static_graph: Declare the graph the same every iteration. / 声明每轮的计算图都相同。
        delay_all_reduce_named_params: `(name, param)` pairs reduced late. / 延后归约的 `(name, param)` 对。
        param_to_hook_all_reduce: The parameter that triggers the delayed reduce. / 触发延后归约的参数。
        mixed_precision: A `_MixedPrecision` config. / `_MixedPrecision` 配置。
        device_mesh: A 1-D mesh instead of `process_group`. / 1 维设备网格，代替 `process_group`。
        skip_all_reduce_unused_params: Skip reducing unused parameters. / 不归约未用到的参数。
        bucket_cap_mb_list: Per-bucket sizes in MiB. / 逐桶大小（MiB）。
        batched_grad_copy: Copy gradients into a bucket in one batch. / 批量地把梯度拷入桶。
        forward_sync_buffers: Broadcast buffers before each forward (default True). / 每次前向前广播缓冲区（默认 True）。

    Attributes:
        module: The wrapped module. / 被包装的模块。

    Examples:
        >>> import torch, torch.distributed as dist, annotated_nn as nn
        >>> dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
        >>> ddp = nn.parallel.DistributedDataParallel(nn.Linear(3, 2))
        >>> ddp(torch.ones(4, 3)).sum().backward()
        >>> [name for name, _ in ddp.named_parameters()]
        ['module.weight', 'module.bias']
        >>> dist.destroy_process_group()
    """

    # DIFF(torch 2.13): torch.compile's DDPOptimizer does not see this DDP
    # 中: 这个类属性在 DDP 前向期间指向正在运行的 DDP 对象，torch.compile 的 DDPOptimizer 据此按
    # 中: 桶切分图。但 dynamo 读的是 torch 自己的类的同名属性，所以对本类不会按桶切分。
    # EN: During a DDP forward this class attribute points at the running DDP object, and
    # EN: torch.compile's DDPOptimizer uses it to split graphs at bucket boundaries. Dynamo reads
    # EN: the attribute of torch's own class, though, so no splitting happens for this class.
    _active_ddp_module: Optional["DistributedDataParallel"] = None

    def __init__(
        self,
        module,
        device_ids=None,
        output_device=None,
        dim=0,
        broadcast_buffers=None,
        init_sync=True,
        process_group=None,
        bucket_cap_mb=None,
        find_unused_parameters=False,
        check_reduction=False,
        gradient_as_bucket_view=False,
        static_graph=False,
        delay_all_reduce_named_params=None,
        param_to_hook_all_reduce=None,
        mixed_precision: _MixedPrecision | None = None,
        device_mesh=None,
        skip_all_reduce_unused_params=False,
        bucket_cap_mb_list: list[int] | None = None,
        batched_grad_copy=False,
        forward_sync_buffers: bool | None = None,
    ):
        r"""Check the arguments, sync the state, build the Reducer. / 检查参数、同步状态、建出 Reducer。

        === "中文"

            按顺序：

            1. 初始化 `Module` 与 `Joinable`；`delay_all_reduce_named_params` 与
               `param_to_hook_all_reduce` 必须同时给出（否则 `ValueError`）；选定进程组
               （`process_group`、`device_mesh` 或默认的全体进程组；两者都给、或网格不是 1 维时
               `RuntimeError`）。
            2. 去掉要忽略的参数（模型的 `_ddp_params_and_buffers_to_ignore` 与延后归约的参数），
               再检查剩下的参数：至少有一个需要梯度（否则 `RuntimeError`；有延后归约的参数时
               只记一条 info 日志）；`device_ids` 至多一个元素；设备类型恰好一种——有延后归约的
               参数而剩下的参数一个也没有（全被延后或忽略）时，也在这里失败，报错里的类型集合
               是空的 `set()`；`device_ids`/`output_device` 只用于单设备 GPU 模块。后三项不满足
               时都是 `ValueError`。
            3. 记下各项设置，处理 `broadcast_buffers` 的弃用警告与 `check_reduction` 的警告，
               拒绝未初始化参数（惰性模块还没运行过）。
            4. 算出桶大小；若有延后归约的参数，先为它们建好缓冲并注册钩子。
            5. 按模块顺序收集要归约的参数；`init_sync` 时检查各进程参数形状一致，并把 rank 0
               的参数与缓冲区广播出去（给了弃用的 `broadcast_buffers=False` 时不广播缓冲区）。
            6. 分桶，建出 Reducer 与 Logger（`_ddp_init_helper`）。
            7. 混合精度、静态图与编译路径的收尾设置。

            报错文字、警告与 torch 相同。

        === "English"

            In order:

            1. Initialize `Module` and `Joinable`; `delay_all_reduce_named_params` and
               `param_to_hook_all_reduce` must come together (else `ValueError`); choose the
               process group (`process_group`, `device_mesh` or the default world group; both
               given, or a mesh that is not 1-D, is a `RuntimeError`).
            2. Drop the ignored parameters (the model's `_ddp_params_and_buffers_to_ignore` and
               the delayed ones), then check the remaining ones: at least one requires a
               gradient (else `RuntimeError`; with delayed parameters only an info record is
               logged); `device_ids` holds at most one element; there is exactly one device
               type, which also fails when there are delayed parameters and no parameter
               remains (all delayed or ignored), the error naming the empty set `set()`; and
               `device_ids`/`output_device` are only for single-device GPU modules. The last
               three fail with `ValueError`.
            3. Record the settings, handle the `broadcast_buffers` deprecation warnings and the
               `check_reduction` warning, refuse uninitialized parameters (a lazy module not
               run yet).
            4. Work out the bucket sizes; with delayed parameters, build their buffer and
               register the hook first.
            5. Collect the parameters to reduce in module order; with `init_sync`, check that
               every process has the same parameter shapes and broadcast rank 0's parameters
               and buffers (not the buffers when the deprecated `broadcast_buffers=False` is
               given).
            6. Bucket them and build the Reducer and the Logger (`_ddp_init_helper`).
            7. Finishing settings for mixed precision, static graph and the compiled path.

            Error texts and warnings are torch's.

        Args:
            module: The module to parallelize. / 要并行的模块。
            device_ids: `None` or one CUDA device. / `None` 或一个 CUDA 设备。
            output_device: Output device of a GPU module. / GPU 模块的输出设备。
            dim: Stored as `self.dim`. / 保存为 `self.dim`。
            broadcast_buffers: Deprecated buffer-sync flag. / 已弃用的缓冲区同步开关。
            init_sync: Sync at construction. / 构造时是否同步。
            process_group: The process group. / 进程组。
            bucket_cap_mb: Bucket size in MiB. / 桶大小（MiB）。
            find_unused_parameters: Detect unused parameters. / 检测未用到的参数。
            check_reduction: Deprecated. / 已弃用。
            gradient_as_bucket_view: Gradients as bucket views. / 梯度作为桶的视图。
            static_graph: Static graph. / 静态图。
            delay_all_reduce_named_params: Delayed `(name, param)` pairs. / 延后归约的 `(name, param)` 对。
            param_to_hook_all_reduce: Trigger of the delayed reduce. / 延后归约的触发参数。
            mixed_precision: Mixed-precision config. / 混合精度配置。
            device_mesh: A 1-D device mesh. / 1 维设备网格。
            skip_all_reduce_unused_params: Skip unused parameters. / 跳过未用到的参数。
            bucket_cap_mb_list: Per-bucket sizes in MiB. / 逐桶大小（MiB）。
            batched_grad_copy: Batched gradient copies. / 批量拷贝梯度。
            forward_sync_buffers: Buffer sync before forward. / 前向前同步缓冲区。

        Raises:
            ValueError: Inconsistent delayed-reduce arguments, no parameter left besides the delayed and ignored ones, devices or `device_ids`. / 延后归约参数不成对、除延后与忽略的参数外一个不剩、设备或 `device_ids` 不合法。
            RuntimeError: Both group and mesh, a mesh that is not 1-D, no trainable parameter, or uninitialized parameters. / 同时给了进程组与网格、网格不是 1 维、没有可训练参数，或有未初始化参数。
        """
        # 中: 第 1 步。`Module.__init__` 不会顺着 MRO 调用 `Joinable.__init__`（`call_super_init`
        # 中: 为 False），所以显式调用它，建出 `_join_config`（默认不在 join 中）。
        # 中: 编译的自动求导可以选用 Python 版 reducer；日志器在 Reducer 建好之前为 None。
        # EN: Step 1. `Module.__init__` does not go on along the MRO to `Joinable.__init__`
        # EN: (`call_super_init` is False), so it is called explicitly, creating `_join_config`
        # EN: (not in a join by default). Compiled autograd may choose the Python reducer; the
        # EN: logger is None until the Reducer exists.
        super().__init__()
        Joinable.__init__(self)
        self._use_python_reducer = torch._dynamo.utils.get_optimize_ddp_mode() == "python_reducer"
        self.logger: dist.Logger | None = None
        # 中: 延后归约的两个参数必须同时给出或同时不给。
        # EN: The two delayed-reduce arguments come together or not at all.
        if bool(delay_all_reduce_named_params is not None) != bool(
            param_to_hook_all_reduce is not None
        ):
            self._log_and_throw(
                ValueError,
                "delay_all_reduce_named_params and param_to_hook_all_reduce "
                "need to be set at the same time.",
            )

        # 中: 进程组：两者都给是错误；都不给用默认的全体进程组；给了 1 维网格就取它那一维的组。
        # 中: 注意第一个条件检查的是 `process_group` 的真值。
        # EN: The process group: giving both is an error; giving neither uses the default world
        # EN: group; a 1-D mesh yields the group of its one dimension. Note that the first test
        # EN: uses the truth value of `process_group`.
        if process_group and device_mesh is not None:
            raise RuntimeError("Cannot specify both process_group and device_mesh arguments.")
        elif process_group is None and device_mesh is None:
            self.process_group = _get_default_group()
        elif device_mesh is None:
            self.process_group = process_group
        else:
            # 中: 只接受 1 维网格；记下网格本身，进程组取第 0 维的组。
            # EN: Only a 1-D mesh is accepted; the mesh itself is kept, and the group is that of
            # EN: dimension 0.
            if device_mesh.ndim != 1:
                raise RuntimeError(f"Only 1D device mesh is supported, but got {device_mesh}.")
            self.device_mesh = device_mesh
            self.process_group = device_mesh.get_group(mesh_dim=0)
            # 中: 网格是从更大的根网格切出来的（DDP 与张量并行组合）：先把模块转换成
            # 中: DDP 能处理的形式；这必须在检查未初始化参数之前。
            # EN: A mesh sliced from a larger root mesh (DDP combined with tensor parallelism):
            # EN: first transform the module into a form DDP can handle; this must come before
            # EN: the uninitialized-parameter check.
            root_mesh = device_mesh._get_root_mesh()
            if root_mesh != device_mesh:
                from torch.distributed.tensor.parallel.ddp import _pre_dp_module_transform

                _pre_dp_module_transform(module)

        # 中: 第 2 步。要忽略的参数与缓冲区：模型上的 `_ddp_params_and_buffers_to_ignore`
        # 中: （由 `_set_params_and_buffers_to_ignore_for_model` 设置），再加上延后归约的参数。
        # 中: 名字都是全限定名，例如 "0.weight"。
        # EN: Step 2. Parameters and buffers to ignore: the model's
        # EN: `_ddp_params_and_buffers_to_ignore` (set by
        # EN: `_set_params_and_buffers_to_ignore_for_model`), plus the delayed parameters. Names
        # EN: are fully qualified, e.g. "0.weight".
        self._delay_all_reduce_params = []
        if hasattr(module, "_ddp_params_and_buffers_to_ignore"):
            self.parameters_to_ignore = set(module._ddp_params_and_buffers_to_ignore)
        else:
            self.parameters_to_ignore = set()
        # 中: 延后的参数按名字忽略，参数对象另存一份供建缓冲使用。
        # EN: Delayed parameters are ignored by name; the parameter objects are kept for
        # EN: building the buffer.
        if delay_all_reduce_named_params is not None:
            for name, param in delay_all_reduce_named_params:
                self.parameters_to_ignore.add(name)
                self._delay_all_reduce_params.append(param)

        # 中: DDP 管理的参数：按全名去掉要忽略的。
        # EN: The parameters DDP manages: the ignored ones removed by full name.
        self._module_parameters = [
            p for n, p in module.named_parameters() if n not in self.parameters_to_ignore
        ]
        # 中: 剩下的参数一个需要梯度的都没有时 DDP 无事可做，报错；除非有延后归约的参数，
        # 中: 那时只记一条 info 日志。若参数全被延后或忽略、一个不剩，下面的设备类型检查
        # 中: 会报 ValueError。
        # EN: With no remaining parameter requiring a gradient DDP has nothing to do and raises;
        # EN: unless some parameters are delayed, which only logs an info record. If every
        # EN: parameter was delayed or ignored, none remains, and the device-type check below
        # EN: raises a ValueError.
        if not any(p.requires_grad for p in self._module_parameters):
            if len(self._delay_all_reduce_params):
                logger.info("Delay the AllReduce of all parameters.")
            else:
                # 中: 此时 Logger 还不存在，`_log_and_throw` 只抛出。
                # EN: The Logger does not exist yet, so `_log_and_throw` only raises.
                self._log_and_throw(
                    RuntimeError,
                    "DistributedDataParallel is not needed when a module "
                    "doesn't have any parameter that requires a gradient.",
                )

        # 中: 每个进程只驱动一个设备，所以 `device_ids` 至多一个元素（1.5.1 允许多个）。
        # EN: Each process drives one device, so `device_ids` holds at most one element (1.5.1
        # EN: allowed several).
        if device_ids is not None and len(device_ids) > 1:
            self._log_and_throw(
                ValueError,
                "device_ids can only be None or contain a single element.",
            )

        # 中: 参数分布在多个设备上是允许的（多设备模块），但设备类型只能有一种。
        # EN: Parameters on several devices are allowed (a multi-device module), but only one
        # EN: device type.
        self.is_multi_device_module = len({p.device for p in self._module_parameters}) > 1
        distinct_device_types = {
            p.device.type for p in self._module_parameters if p.device is not None
        }
        # 中: 报错给出实际看到的设备类型集合（例如 `{'cpu', 'meta'}`；没有剩下的参数时是
        # 中: `set()`）；通过后记下唯一的类型。
        # EN: The error shows the set of device types seen (e.g. `{'cpu', 'meta'}`, or `set()`
        # EN: when no parameter remains); once passed, the single type is recorded.
        if len(distinct_device_types) != 1:
            self._log_and_throw(
                ValueError,
                "DistributedDataParallel's input module must be on "
                f"the same type of devices, but input module parameters locate in {distinct_device_types}.",
            )
        self.device_type = next(iter(distinct_device_types))

        # 中: CPU 模块与多设备模块不接受 `device_ids`/`output_device`：输入与模块由用户自己放到
        # 中: 正确的设备上，两者都记为 None。只有单设备 GPU 模块记下设备编号，前向时 DDP 会
        # 中: 把输入搬到 `device_ids[0]` 上；`output_device` 默认与它相同。
        # EN: CPU modules and multi-device modules take no `device_ids`/`output_device`: the user
        # EN: places inputs and module on the right devices, and both are recorded as None. Only
        # EN: a single-device GPU module records device indices; the forward then moves inputs
        # EN: to `device_ids[0]`, and `output_device` defaults to the same.
        if (
            device_ids is None
            or len(device_ids) == 0
            or self.device_type == "cpu"
            or self.is_multi_device_module
        ):
            # 中: 报错里列出参数所在的全部设备，说明为何不接受这两个参数。
            # EN: The error lists every device holding parameters, showing why the two
            # EN: arguments are refused.
            if device_ids or output_device:
                devices = {p.device for p in self._module_parameters}
                # 中: 注意判断用的是真值：`device_ids=[]` 与 `output_device=0` 都不报错。
                # EN: Note the test uses truth values: `device_ids=[]` and `output_device=0` both
                # EN: pass silently.
                self._log_and_throw(
                    ValueError,
                    "DistributedDataParallel device_ids and output_device arguments "
                    "only work with single-device/multiple-device GPU modules or CPU modules, "
                    f"but got device_ids {device_ids}, output_device {output_device}, "
                    f"and module parameters {devices}.",
                )
            # 中: 这种情形下 DDP 不搬运输入，也不搬运输出。
            # EN: In this case DDP moves neither inputs nor outputs.
            self.device_ids = None
            self.output_device = None
        else:
            # 中: 规整成整数编号；`output_device` 默认是 `device_ids[0]`。
            # EN: Normalized to integer indices; `output_device` defaults to `device_ids[0]`.
            self.device_ids = [_get_device_index(x, True) for x in device_ids]
            if output_device is None:
                output_device = device_ids[0]
            self.output_device = _get_device_index(output_device, True)

        # 中: 第 3 步。`self.module = module` 经 `Module.__setattr__` 把模型登记为子模块，
        # 中: 于是 `parameters()`、`state_dict()`（键带 `module.` 前缀）、`train()`、`repr` 都能
        # 中: 看到它。`static_graph` 先记为 False，第 7 步再由 `_set_static_graph` 打开。
        # EN: Step 3. `self.module = module` goes through `Module.__setattr__` and registers the
        # EN: model as a submodule, so `parameters()`, `state_dict()` (keys prefixed `module.`),
        # EN: `train()` and `repr` see it. `static_graph` starts False; step 7 turns it on
        # EN: through `_set_static_graph`.
        self.static_graph = False
        self.dim = dim
        # DIFF(torch 2.13): a torch.nn.Module passed in is not a submodule
        # 中: 与 torch 一样不检查 `module` 的类型，torch.nn 的模型也能训练（按层的类判断的两处
        # 中: 也认 torch.nn 的类）；但 torch.nn.Module 不是本项目的 `Module`，只会成为普通属性，
        # 中: `parameters()`、`state_dict()` 看不到它（与 torch 的 DDP 包装 annotated_nn 模型时的情形正好相反）。
        # EN: Like torch, the type of `module` is not checked: a torch.nn model trains too (the
        # EN: two layer-class checks know torch.nn's classes). But a torch.nn.Module is not this
        # EN: project's `Module`, so it becomes a plain attribute that `parameters()` and
        # EN: `state_dict()` do not see (the mirror image of torch's DDP wrapping an annotated_nn
        # EN: model).
        self.module = module
        self.device = next(iter(self._module_parameters)).device

        # 中: 缓冲区同步：2.13 弃用 `broadcast_buffers`，改用 `forward_sync_buffers`。区别在于
        # 中: 旧的 `broadcast_buffers=False` 连构造时的同步也关掉，新的只管运行时的同步（前向前，
        # 中: 以及 join 结束时）。两个都给时以新的为准；只要给了旧的就发出 FutureWarning。
        # EN: Buffer sync: 2.13 deprecates `broadcast_buffers`, replacing it with
        # EN: `forward_sync_buffers`. The difference: the old `broadcast_buffers=False` also
        # EN: turns off the sync at construction, the new one governs only the runtime syncs
        # EN: (before forward, and at the end of a join). With both given the new one wins;
        # EN: giving the old one always warns with a FutureWarning.
        if broadcast_buffers is not None:
            # 中: 两个都给：旧参数的值被忽略。
            # EN: Both given: the old argument's value is ignored.
            if forward_sync_buffers is not None:
                # 中: `stacklevel=2` 让警告指向用户构造 DDP 的那一行。
                # EN: `stacklevel=2` points the warning at the user's line constructing DDP.
                warnings.warn(
                    "Both `broadcast_buffers` and `forward_sync_buffers` were "
                    "specified. `broadcast_buffers` is deprecated and its value "
                    "is ignored when `forward_sync_buffers` is provided.",
                    FutureWarning,
                    stacklevel=2,
                )
            else:
                # 中: 只给了旧参数：它仍然生效，警告提醒两者对构造时同步的不同影响。
                # EN: Only the old argument: it still takes effect; the warning points out how the
                # EN: two differ for the construction-time sync.
                warnings.warn(
                    "`broadcast_buffers` is deprecated. Use `forward_sync_buffers` "
                    "instead. IMPORTANT: unlike `broadcast_buffers=False`, "
                    "`forward_sync_buffers=False` still syncs buffers at "
                    # 中: 后半句说明何时仍该用旧参数：各 rank 自己的缓冲区，构造时不能被同步。
                    # EN: The second half says when to keep the old argument: rank-local buffers
                    # EN: that must not be synced at construction.
                    "init. If you rely on buffers NOT being synced at "
                    "init (e.g. rank-local buffers), keep using "
                    "`broadcast_buffers=False` until `init_sync_buffers` "
                    "is available.",
                    FutureWarning,
                    stacklevel=2,
                )
        # 中: 由此得出两个开关：前向前是否同步、构造时是否连缓冲区一起同步。
        # EN: This yields two switches: whether to sync before forward, and whether the
        # EN: construction-time sync includes buffers.
        if forward_sync_buffers is not None:
            self.forward_sync_buffers = forward_sync_buffers
            init_sync_buffers = True
        else:
            effective_broadcast = broadcast_buffers if broadcast_buffers is not None else True
            self.forward_sync_buffers = effective_broadcast
            init_sync_buffers = effective_broadcast

        # 中: 其余设置原样记下；`require_*` 两个标志由 `no_sync()` 与 `_post_forward` 切换。
        # EN: The remaining settings are recorded as given; the two `require_*` flags are
        # EN: switched by `no_sync()` and `_post_forward`.
        self.find_unused_parameters = find_unused_parameters
        self.require_backward_grad_sync = True
        self.require_forward_param_sync = True
        self.gradient_as_bucket_view = gradient_as_bucket_view
        self.batched_grad_copy = batched_grad_copy
        self.mixed_precision = mixed_precision
        if self.mixed_precision is not None:
            logger.warning("Received mixed precision config %s", self.mixed_precision)

        # 中: `check_reduction` 已无作用（Reducer 自己保证每轮的归约完成），只发警告。
        # EN: `check_reduction` has no effect any more (the Reducer itself makes sure every
        # EN: iteration's reduction completes); it only warns.
        if check_reduction:
            warnings.warn(
                "The `check_reduction` argument in `DistributedDataParallel` "
                "module is deprecated. Please avoid using it.",
                FutureWarning,
                stacklevel=2,
            )

        # 中: 未初始化参数没有形状，无法分桶与广播：惰性模块必须先跑一次前向。检查本项目的
        # 中: 和 torch 的两种未初始化参数（两者互不为子类）。
        # EN: An uninitialized parameter has no shape, so it cannot be bucketed or broadcast:
        # EN: a lazy module must run one forward first. Both this project's and torch's
        # EN: uninitialized parameters are checked (neither subclasses the other).
        for param in self._module_parameters:
            if isinstance(
                param, (UninitializedParameter, torch.nn.parameter.UninitializedParameter)
            ):
                # 中: 报错建议先跑一次假的前向，让惰性模块物化参数。
                # EN: The error suggests a dummy forward pass so that the lazy modules
                # EN: materialize their parameters.
                self._log_and_throw(
                    RuntimeError,
                    "Modules with uninitialized parameters can't be used with `DistributedDataParallel`. "
                    "Run a dummy forward pass to correctly initialize the modules",
                )
        # 中: 广播参数与缓冲区时按 250 MiB 一批打包。
        # EN: Broadcasting parameters and buffers packs them in batches sized by 250 MiB.
        self.broadcast_bucket_size = 250 * 1024 * 1024

        # 中: 第 4 步。桶大小。
        # EN: Step 4. Bucket sizes.
        self._bucket_config = _BucketCapacityConfig.create(
            bucket_cap_mb=bucket_cap_mb,
            bucket_cap_mb_list=bucket_cap_mb_list,
            use_python_reducer=self._use_python_reducer,
        )
        # 中: 几个旧属性名继续提供同样的值，供读取它们的代码使用；`bucket_cap_mb` 此后是整 MiB 数。
        # EN: A few older attribute names keep offering the same values for code that reads
        # EN: them; `bucket_cap_mb` is whole MiB from here on.
        self.bucket_bytes_cap = self._bucket_config.bucket_bytes_cap
        self.bucket_bytes_cap_list = list(self._bucket_config.per_bucket_bytes_caps)
        self.bucket_bytes_cap_default = (
            self._bucket_config.first_bucket_bytes_cap < self._bucket_config.bucket_bytes_cap
        )
        bucket_cap_mb = self._bucket_config.bucket_cap_mb

        # 中: 输入从 CPU 拷到 GPU 时是否用单独的 CUDA 流（环境变量可以关掉）。
        # EN: Whether CPU-to-GPU input copies use a side CUDA stream (an environment variable can
        # EN: turn it off).
        self.use_side_stream_for_tensor_copies = (
            os.environ.get("PYTORCH_DDP_USE_SIDE_STREAM", "1") == "1"
        )

        # 中: 延后归约的参数不进 Reducer：它们的梯度放在一整块缓冲里，由另一个参数的钩子触发
        # 中: 一次 all-reduce。若所有需要梯度的参数都是延后的，就不建 Reducer，直接返回。
        # EN: Delayed parameters stay out of the Reducer: their gradients live in one flat
        # EN: buffer, all-reduced once when another parameter's hook fires. If every parameter
        # EN: needing a gradient is delayed, no Reducer is built and construction ends here.
        self._delay_grad_buffer: torch.Tensor | None = None
        self._delay_grad_views: list[torch.Tensor] = []
        self._delay_all_reduce_all_params = False
        # 中: 注册过程中会判断是否全部延后，结果写在 `_delay_all_reduce_all_params` 上。
        # EN: Registration decides whether everything is delayed and writes the verdict to
        # EN: `_delay_all_reduce_all_params`.
        if len(self._delay_all_reduce_params) != 0:
            self._register_delay_all_reduce_hook(
                bucket_cap_mb=bucket_cap_mb,
                param_to_hook_all_reduce=param_to_hook_all_reduce,
                device_ids=device_ids,
            )
            if self._delay_all_reduce_all_params:
                return

        # 中: 第 5 步。按模块顺序收集要归约的参数，以及哪些会产生稀疏梯度。
        # EN: Step 5. Collect the parameters to reduce in module order, and which of them
        # EN: produce sparse gradients.
        self.skip_all_reduce_unused_params = skip_all_reduce_unused_params
        parameters, expect_sparse_gradient = self._build_params_for_reducer()

        # 中: 构造时的集合通信都由 `init_sync` 控制：先核对各进程参数的形状与步长一致（不一致就
        # 中: 报错，而不是日后算出错的结果），再把 rank 0 的参数（和按设置而定的缓冲区）
        # 中: 广播出去，让所有副本从同一个起点出发。
        # EN: Every construction-time collective is gated by `init_sync`: first check that all
        # EN: processes have parameters of the same shapes and strides (an error now rather than
        # EN: wrong results later), then broadcast rank 0's parameters (and, depending on the
        # EN: setting, buffers) so all replicas start from the same point.
        if init_sync:
            _verify_param_shape_across_processes(self.process_group, parameters)
            # 中: 源是 rank 0；忽略的名字不广播；缓冲区是否同步见上面的 `init_sync_buffers`。
            # EN: The source is rank 0; ignored names are not broadcast; whether buffers go
            # EN: along is `init_sync_buffers` from above.
            _sync_module_states(
                module=self.module,
                process_group=self.process_group,
                broadcast_bucket_size=self.broadcast_bucket_size,
                src=0,
                params_and_buffers_to_ignore=self.parameters_to_ignore,
                broadcast_buffers=init_sync_buffers,
            )

        # 中: 第 6 步。参数下标到全限定名的映射（设置了环境变量 `TORCH_DISTRIBUTED_DEBUG` 时，
        # 中: Reducer 报错用名字说明是哪个参数），然后分桶、建 Reducer 与 Logger。通信钩子的列表
        # 中: 随后建立。
        # EN: Step 6. The index-to-name map (with the environment variable
        # EN: `TORCH_DISTRIBUTED_DEBUG` set, the Reducer names parameters in its errors), then
        # EN: bucketing and the Reducer and Logger. The comm-hook list is created after.
        param_to_name_mapping = self._build_debug_param_to_name_mapping(parameters)
        self._ddp_init_helper(
            parameters,
            expect_sparse_gradient,
            param_to_name_mapping,
            static_graph,
        )
        self._comm_hooks: list[tuple[Callable, object]] = []

        # 中: 第 7 步。混合精度：建低精度孪生参数、转换缓冲区，准备一条复制用的流。
        # EN: Step 7. Mixed precision: build the low-precision twins, cast buffers, and set up a
        # EN: stream for the copies.
        if self.mixed_precision is not None:
            _setup_mixed_precision_params(self.mixed_precision, self.module)
            _cast_buffers(self.mixed_precision, self.module)
            self._mp_stream = torch.Stream()
            self._submodule_to_event = defaultdict(deque)
            # 中: 根模块的前向预钩子（forward pre-hook）发起到低精度的复制；每个子模块的前向预钩子
            # 中: 在计算前等待自己的复制完成。
            # EN: A forward pre-hook on the root starts the low-precision copies; a forward
            # EN: pre-hook on every submodule waits for its own copies before computing.
            self.module.register_forward_pre_hook(
                self._root_copy_hook, prepend=False, with_kwargs=True
            )
            # 中: 根模块自己也在 `modules()` 里，所以它同样会等待自己的复制。
            # EN: The root is in `modules()` as well, so it also waits for its own copies.
            for module in self.module.modules():
                module.register_forward_pre_hook(
                    self._module_wait_for_copy_hook,
                    prepend=False,
                    with_kwargs=True,
                )
            # 中: 归约用一个专门的通信钩子：all-reduce 之后把梯度升回全精度、参数换回全精度；
            # 中: 再告诉 Reducer 参数的低精度类型，让它的类型检查对得上。
            # EN: Reduction uses a dedicated comm hook: after the all-reduce it upcasts the
            # EN: gradients and swaps the full-precision parameters back; then the Reducer is told
            # EN: the low-precision parameter dtype so that its type checks agree.
            from torch.distributed.algorithms.ddp_comm_hooks.mixed_precision_hooks import (
                _AllreduceUpcastHookState,
                _reducer_allreduce_and_upcast_hook,
            )

            # 中: 钩子状态里有 DDP 的弱引用和一条专门用于升精度的流（在函数内导入以免循环导入）。
            # EN: The hook state holds a weak reference to DDP and a stream dedicated to the
            # EN: upcast (imported locally to avoid a circular import).
            upcast_hook_state = _AllreduceUpcastHookState(
                ddp_weakref=weakref.ref(self),
                upcast_stream=torch.Stream(),
            )
            # 中: 经公开的 `register_comm_hook` 注册，所以之后用户不能再注册别的通信钩子。
            # EN: Registered through the public `register_comm_hook`, so the user cannot register
            # EN: another comm hook afterwards.
            self.register_comm_hook(
                upcast_hook_state,
                _reducer_allreduce_and_upcast_hook,
            )
            self.reducer._set_mixed_precision_param_dtype(self.mixed_precision.param_dtype)

        # 中: 桶还没按真实顺序重建过；静态图在这里才真正打开（它需要已建好的 Reducer）。
        # EN: Buckets are not rebuilt in the real order yet; the static graph is switched on
        # EN: only here (it needs the Reducer built).
        self._has_rebuilt_buckets = False
        if static_graph:
            self._set_static_graph()
        self._lazy_init_ran = False

        # 中: 编译的自动求导路径：不用 Reducer 的钩子，而在每个参数的梯度累加后各自做
        # 中: all-reduce，交给 inductor 合并这些通信。
        # EN: The compiled-autograd path: instead of the Reducer's hooks, each parameter does its
        # EN: own all-reduce after its gradient accumulates, and inductor fuses the
        # EN: communication.
        self._accum_grad_hooks: list[RemovableHandle] = []
        if self._use_python_reducer:
            torch._inductor.config._fuse_ddp_communication = True
            torch._inductor.config._fuse_ddp_bucket_size = bucket_cap_mb
            # DIFF(torch 2.13): the dynamo inline list is left unchanged
            # 中: torch 在这里把自己的 DDP 文件加入 dynamo 的内联名单（`torch.nn` 在 dynamo 的跳过
            # 中: 名单上，否则不会被追踪）；annotated_nn 不在任何跳过名单上，dynamo 本来就追踪它，
            # 中: 所以不改这个全局名单。
            # EN: torch adds its own DDP file to dynamo's inline list here (`torch.nn` is on
            # EN: dynamo's skip list, so it would not be traced otherwise); annotated_nn is on no
            # EN: skip list and is traced anyway, so this global list is left alone.
            self._register_accum_grad_hook()

        # 中: `_DDPSink` 默认 clone 输出。
        # EN: `_DDPSink` clones outputs by default.
        self._ddp_sink_clone = True

    @property
    def broadcast_buffers(self) -> bool:
        r"""Deprecated alias of `forward_sync_buffers`. / `forward_sync_buffers` 的弃用别名。

        === "中文"

            读写都转给 `forward_sync_buffers`；读写时不发出警告，只有构造参数会警告。

        === "English"

            Reads and writes go to `forward_sync_buffers`; they do not warn, only the
            constructor argument does.

        Returns:
            Whether buffers are synced before forward. / 前向前是否同步缓冲区。
        """
        return self.forward_sync_buffers

    @broadcast_buffers.setter
    def broadcast_buffers(self, value: bool) -> None:
        r"""Set `forward_sync_buffers`. / 设置 `forward_sync_buffers`。

        === "中文"

            赋值经 `Module.__setattr__` 落到这个 property 上（它不是参数、缓冲区或子模块）。

        === "English"

            The assignment passes through `Module.__setattr__` to this property (it is not a
            parameter, buffer or submodule).

        Args:
            value: The new flag. / 新的开关值。
        """
        self.forward_sync_buffers = value

    def _register_accum_grad_hook(self):
        r"""Compiled path: one all-reduce per parameter after its gradient accumulates. / 编译路径：每个参数的梯度累加后各做一次 all-reduce。

        === "中文"

            用函数式集合通信（`_functional_collectives`），编译器能看见并合并这些通信。
            有通信钩子时改为调用钩子；`no_sync()` 中或梯度为 None 时什么也不做。

        === "English"

            Uses the functional collectives (`_functional_collectives`), which the compiler can
            see and fuse. With comm hooks it calls them instead; inside `no_sync()` or with a
            None gradient it does nothing.
        """
        import torch.distributed._functional_collectives as fcol

        def compiled_accum_grad_hook(
            param,
            *,
            param_index: int,
        ):
            r"""Average one parameter's gradient across processes. / 在各进程间平均一个参数的梯度。

            === "中文"

                先除以进程数再求和，得到平均值，拷回 `param.grad`。

            === "English"

                Divides by the number of processes, then sums, giving the average, copied back
                into `param.grad`.

            Args:
                param: The parameter whose gradient is ready. / 梯度已就绪的参数。
                param_index: Its index among the module's parameters. / 它在模块参数中的下标。
            """
            # 中: `no_sync()` 中不通信；没有梯度的参数也跳过。
            # EN: No communication inside `no_sync()`; parameters without a gradient are skipped.
            if not self.require_backward_grad_sync:
                return
            if param.grad is None:
                return
            # 中: 通信钩子收到的是 `(param.grad, param)`，而不是一个桶。
            # EN: Comm hooks receive `(param.grad, param)` here, not a bucket.
            if self._comm_hooks:
                for hook, state in self._comm_hooks:
                    hook(state, (param.grad, param))
            else:
                gradient = param.grad / self.process_group.size()
                gradient = fcol.all_reduce(gradient, "sum", self.process_group)
                param.grad.copy_(gradient)

        # 中: 只给需要梯度的参数注册；下标用的是 `_module_parameters` 里的位置。
        # EN: Registered only on parameters that need gradients; the index is the position in
        # EN: `_module_parameters`.
        for index, param in enumerate(self._module_parameters):
            if not param.requires_grad:
                continue
            # 中: 句柄留在 `_accum_grad_hooks` 里，以便之后移除。
            # EN: The handles stay in `_accum_grad_hooks` so they can be removed later.
            self._accum_grad_hooks.append(
                param.register_post_accumulate_grad_hook(
                    functools.partial(
                        compiled_accum_grad_hook,
                        param_index=index,
                    )
                )
            )

    def _delayed_all_reduce_hook(self, grad):
        r"""Start the all-reduce of the delayed parameters' gradient buffer. / 发起延后参数梯度缓冲的 all-reduce。

        === "中文"

            作为张量钩子挂在 `param_to_hook_all_reduce` 上。用户应选一个梯度在延后参数之后才算出的
            参数，这样钩子运行时延后参数的梯度已经写进缓冲（缓冲在 `_clear_grad_buffer` 里充当它们的
            `.grad`）；这一点没有任何检查。先除以进程数，再异步 all-reduce；不等待结果，梯度原样
            返回。

        === "English"

            A tensor hook on `param_to_hook_all_reduce`. The user is to pick a parameter whose
            gradient is computed after those of the delayed parameters, so that when the hook runs
            their gradients are already in the buffer (which serves as their `.grad`, set up in
            `_clear_grad_buffer`); nothing checks this. It divides by the number of processes and
            starts an asynchronous all-reduce without waiting; the gradient passes through.

        Args:
            grad: The hooked parameter's gradient. / 被挂上钩子的那个参数的梯度。

        Returns:
            `grad`, unchanged. / 原样的 `grad`。
        """
        world_size = dist.get_world_size(self.process_group)
        self._delay_grad_buffer.div_(world_size)
        _ = dist.all_reduce(self._delay_grad_buffer, group=self.process_group, async_op=True)
        return grad

    def _register_delay_all_reduce_hook(
        self,
        bucket_cap_mb,
        param_to_hook_all_reduce,
        device_ids,
    ):
        r"""Set up the delayed all-reduce for `delay_all_reduce_named_params`. / 为 `delay_all_reduce_named_params` 建立延后的 all-reduce。

        === "中文"

            五步：建一整块梯度缓冲；从 rank 0 广播这些参数；在触发参数上挂钩子；为每个参数
            切出一段缓冲作为梯度视图；最后检查是否所有需要梯度的参数都被延后了。

        === "English"

            Five steps: build one flat gradient buffer; broadcast these parameters from rank
            0; hook the trigger parameter; cut each parameter's gradient view out of the
            buffer; finally check whether every parameter needing a gradient is delayed.

        Args:
            bucket_cap_mb: Whole-MiB bucket cap, passed as the broadcast's batch size, which `_broadcast_coalesced` reads as bytes. / 整 MiB 的桶上限，作为广播的批大小传入，而 `_broadcast_coalesced` 把它当作字节数。
            param_to_hook_all_reduce: The trigger parameter. / 触发参数。
            device_ids: Where the buffer lives (CPU when None). / 缓冲所在设备（None 时为 CPU）。
        """
        # 中: 第 1、2 步：缓冲的长度是全部延后参数的元素总数；参数先对齐到 rank 0 的值。
        # EN: Steps 1 and 2: the buffer is as long as all delayed parameters together; the
        # EN: parameters are first aligned with rank 0's values.
        device = torch.device("cpu") if device_ids is None else device_ids[0]
        self._delay_grad_buffer = torch.zeros(
            sum(p.numel() for p in self._delay_all_reduce_params),
            device=device,
        )
        detached_params = [p.detach() for p in self._delay_all_reduce_params]
        dist._broadcast_coalesced(self.process_group, detached_params, bucket_cap_mb, 0)

        # 中: 第 3、4 步：挂钩子；按参数顺序切出连续的视图，形状与参数相同。
        # EN: Steps 3 and 4: the hook; contiguous views cut in parameter order, shaped like the
        # EN: parameters.
        param_to_hook_all_reduce.register_hook(self._delayed_all_reduce_hook)
        offset = 0
        for param in self._delay_all_reduce_params:
            grad_view = self._delay_grad_buffer[offset : (offset + param.numel())].view(param.shape)
            self._delay_grad_views.append(grad_view)
            offset = offset + param.numel()

        # 中: 第 5 步：只要还有一个需要梯度、又没被忽略的参数，就仍需要 Reducer。
        # EN: Step 5: as long as one parameter needs a gradient and is not ignored, the Reducer
        # EN: is still needed.
        for module_name, module in self.module.named_modules():
            for param_name, param in module.named_parameters(recurse=False):
                if param.requires_grad:
                    full_name = f"{module_name}.{param_name}"
                    if full_name not in self.parameters_to_ignore:
                        return
        self._delay_all_reduce_all_params = True

    def _setup_in_backward_optimizers(self):
        r"""Take over optimizers applied in the backward pass. / 接管在反向传播中运行的优化器。

        === "中文"

            若用户用 `apply_optimizer_in_backward` 让优化器在反向中逐参数运行，这些优化器必须
            在梯度归约之后才运行。于是移除它原先注册的钩子，改用一个通信钩子：all-reduce 完成后
            再运行优化器（只支持 all-reduce，运行后这些参数的 `.grad` 被设为 None）。

        === "English"

            If the user made optimizers run per parameter in the backward pass with
            `apply_optimizer_in_backward`, they must run after the gradient reduction. So the
            hooks it registered are removed and a comm hook takes over: it runs the optimizers
            once the all-reduce is done (all-reduce only; afterwards those parameters' `.grad`
            is set to None).
        """
        # 中: 只看 DDP 管理的参数（`_module_parameters` 不含被忽略的参数）。
        # EN: Only parameters DDP manages (`_module_parameters` excludes ignored ones).
        if any(hasattr(p, "_in_backward_optimizers") for p in self._module_parameters):
            torch._C._log_api_usage_once("ddp.optimizer_in_backward")
            param_to_handle_map = (
                dist.optim.apply_optimizer_in_backward.param_to_optim_hook_handle_map
            )
            for p in self._module_parameters:
                for handle in param_to_handle_map.get(p, []):
                    handle.remove()

            # 中: 钩子通过弱引用找到 DDP；在函数内导入以免循环导入。
            # EN: The hook reaches DDP through a weak reference; the import is local to avoid a
            # EN: circular import.
            ddp_weakref = weakref.ref(self)
            from torch.distributed.algorithms.ddp_comm_hooks.optimizer_overlap_hooks import (
                _apply_optim_in_backward_hook,
            )

            # 中: 钩子知道梯度是否是桶的视图；Reducer 也被告知优化器在反向中运行。
            # EN: The hook knows whether gradients are bucket views; the Reducer is told that
            # EN: optimizers run in the backward pass.
            self.register_comm_hook(
                ddp_weakref,
                _apply_optim_in_backward_hook(gradient_is_bucket_view=self.gradient_as_bucket_view),
            )
            self.reducer._set_optimizer_in_backward()

    def _fire_reducer_autograd_hook(self, idx, *unused):
        r"""Mixed precision: tell the Reducer that parameter `idx` has its gradient. / 混合精度：告诉 Reducer 第 `idx` 个参数的梯度已就绪。

        === "中文"

            混合精度下前向用的是低精度孪生张量，Reducer 构造时挂在全精度参数上的钩子不会触发，
            所以在低精度张量的梯度累加节点上另挂钩子，由它转调 Reducer。

        === "English"

            With mixed precision the forward uses the low-precision twins, so the hooks the
            Reducer put on the full-precision parameters never fire; a hook on the twin's
            gradient accumulator calls the Reducer instead.

        Args:
            idx: The parameter's index in the Reducer. / 参数在 Reducer 中的下标。
            *unused: The accumulator hook's arguments, ignored. / 累加节点钩子的参数，忽略。
        """
        self.reducer._autograd_hook(idx)

    def _root_copy_hook(self, *args: Any, **kwargs: Any) -> None:
        r"""Mixed precision: start the low-precision copies before forward. / 混合精度：前向前发起低精度复制。

        === "中文"

            在单独的流上为每个子模块的参数分配并填充低精度孪生张量，把 `param.data` 指向它，
            再为每个子模块记录一个事件，子模块计算前等待它。已累积的全精度梯度也降为低精度，
            以免反向时类型不符。

        === "English"

            On a side stream it allocates and fills each submodule's low-precision twins, points
            `param.data` at them, and records one event per submodule that the submodule waits
            for before computing. Accumulated full-precision gradients are cast down too, so the
            backward pass does not meet mismatched types.

        Args:
            *args: The forward pre-hook's arguments, ignored. / 前向预钩子的参数，忽略。
            **kwargs: The forward pre-hook's keyword arguments, ignored. / 前向预钩子的关键字参数，忽略。
        """
        # 中: 上一轮没用到的子模块可能留下事件，先清空。
        # EN: Submodules unused last iteration may have left events; clear them first.
        self._submodule_to_event = defaultdict(deque)
        with self._mp_stream:
            for submodule in self.module.modules():
                for param in submodule.parameters(recurse=False):
                    if hasattr(param, "_ddp_ignored") and param._ddp_ignored:
                        continue
                    # 中: `copy_` 顺带完成向低精度的类型转换。
                    # EN: `copy_` performs the cast to low precision on the way.
                    _alloc_storage(param._mp_param, param.size())
                    with torch.no_grad():
                        param._mp_param.copy_(param.data)
                        if param.grad is not None:
                            param.grad.data = param.grad.to(self.mixed_precision.param_dtype)
                    param.data = param._mp_param
                # 中: 每个子模块一个事件，排在它自己的队列里。
                # EN: One event per submodule, queued under it.
                copy_event = torch.Event()
                copy_event.record()
                self._submodule_to_event[submodule].append(copy_event)

    def _module_wait_for_copy_hook(
        self,
        module,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        r"""Mixed precision: wait for this submodule's copies, then hook its twins. / 混合精度：等待本子模块的复制完成，再给孪生张量挂钩子。

        === "中文"

            同一子模块在一轮里被调用多次时，只有第一次有事件可等。钩子要在这里、而不是在构造时
            注册，因为此时参数的 `.data` 才是低精度张量；通过 `p.expand_as(p)` 的 `grad_fn`
            拿到它的梯度累加节点。

        === "English"

            When a submodule is called several times in one iteration, only the first call has
            an event to wait for. The hooks are registered here rather than at construction
            because only now is the parameter's `.data` the low-precision tensor; the gradient
            accumulator is reached through the `grad_fn` of `p.expand_as(p)`.

        Args:
            module: The submodule about to run. / 即将运行的子模块。
            *args: Its positional inputs, ignored. / 它的位置输入，忽略。
            **kwargs: Its keyword inputs, ignored. / 它的关键字输入，忽略。
        """
        try:
            event = self._submodule_to_event[module].popleft()
        except IndexError:
            return

        # 中: 当前流等待复制流上的事件；不需要梯度或被忽略的参数不挂钩子。
        # EN: The current stream waits for the event of the copy stream; parameters not needing
        # EN: gradients or ignored get no hook.
        event.wait(stream=torch.accelerator.current_stream())
        for p in module.parameters(recurse=False):
            if not p.requires_grad or (hasattr(p, "_ddp_ignored") and p._ddp_ignored):
                continue
            # 中: 句柄与累加节点一起存在参数上，累加节点因此不会被回收。
            # EN: The handle is kept on the parameter together with the accumulator, which keeps
            # EN: the accumulator alive.
            tmp = p.expand_as(p)
            grad_acc = tmp.grad_fn.next_functions[0][0]
            hook = grad_acc.register_hook(
                functools.partial(self._fire_reducer_autograd_hook, p._idx)
            )
            p._ddp_mp_hook_state = (grad_acc, hook)

    def _log_and_throw(self, err_type, err_msg):
        r"""Record the error in the DDP log, then raise it. / 先把错误写进 DDP 日志，再抛出。

        === "中文"

            Logger 建好之前（构造早期）只抛出，不记录。

        === "English"

            Before the Logger exists (early in construction) it only raises.

        Args:
            err_type: The exception class. / 异常类。
            err_msg: The message. / 报错信息。

        Raises:
            Exception: `err_type(err_msg)`, always. / 总是抛出 `err_type(err_msg)`。
        """
        if self.logger is not None:
            self.logger.set_error_and_log(f"{str(err_type)}: {err_msg}")
        raise err_type(err_msg)

    def _ddp_init_helper(
        self,
        parameters,
        expect_sparse_gradient,
        param_to_name_mapping,
        static_graph,
    ):
        r"""Bucket the parameters and build the Reducer and the Logger. / 给参数分桶，建出 Reducer 与 Logger。

        === "中文"

            分桶按参数顺序进行，再把桶的列表反过来交给 Reducer：参数通常按定义顺序在前向中使用，
            所以反向时最后定义的参数最先得到梯度，倒序的桶大致就是梯度就绪的顺序。第一轮之后
            Reducer 还会按真实的就绪顺序重建一次，只有开了 `find_unused_parameters` 而不是静态图时
            不重建（见 `_BucketCapacityConfig`）。随后建出 Logger 并记下构造信息，检查
            SyncBatchNorm。

        === "English"

            Bucketing follows the parameter order, and the bucket list is then reversed for the
            Reducer: parameters are usually used in the forward in definition order, so in the
            backward pass the ones defined last get their gradients first, and reversed buckets
            roughly follow the order in which gradients become ready. After the first iteration
            the Reducer rebuilds once in the real order, except with `find_unused_parameters` on
            and no static graph, where it never rebuilds (see `_BucketCapacityConfig`). Then the
            Logger is built and records the construction data, and SyncBatchNorm is checked.

        Args:
            parameters: The parameters to reduce, in module order. / 要归约的参数（模块顺序）。
            expect_sparse_gradient: Per-parameter sparse flags. / 逐参数的稀疏标志。
            param_to_name_mapping: Index to full name. / 下标到全名的映射。
            static_graph: Whether the graph is static. / 是否静态图。
        """
        # 中: 首次分桶的上限（通常是一个无限大的桶）与留给重建的上限。
        # EN: The caps of the first bucketing (usually one unbounded bucket) and those left for
        # EN: the rebuild.
        (
            bucket_size_limits,
            bucket_size_limits_for_rebuilding,
        ) = self._bucket_config.compute_bucket_size_limits(
            static_graph=static_graph,
            find_unused_parameters=self.find_unused_parameters,
        )
        # 中: C++ 按大小分桶：桶里只放同类型、同设备的张量，稀疏梯度的参数独占一个桶。
        # EN: C++ assigns buckets by size: a bucket holds tensors of one dtype and device only,
        # EN: and a parameter with a sparse gradient gets a bucket of its own.
        (
            bucket_indices,
            per_bucket_size_limits,
        ) = dist._compute_bucket_assignment_by_size(
            parameters,
            bucket_size_limits,
            expect_sparse_gradient,
        )

        # 中: 混合精度的钩子经 Python 转调 Reducer，需要知道参数的下标。
        # EN: The mixed-precision hooks call the Reducer from Python and need the parameter
        # EN: index.
        if self.mixed_precision is not None:
            for i, p in enumerate(parameters):
                p._idx = i

        # 中: 桶的列表与各桶上限都倒过来；`first_bucket_bytes_cap` 是 Reducer 按就绪顺序重建时
        # 中: 第一个（最先就绪的）桶的上限，默认设置下比其它桶小，好让第一次通信早点开始。
        # EN: The bucket list and its caps are both reversed; `first_bucket_bytes_cap` caps the
        # EN: first (earliest ready) bucket when the Reducer rebuilds in ready order, smaller than
        # EN: the others under the defaults so that the first communication starts earlier.
        self.reducer = dist.Reducer(
            parameters,
            list(reversed(bucket_indices)),
            list(reversed(per_bucket_size_limits)),
            self.process_group,
            expect_sparse_gradient,
            # 中: 其余依次是：普通上限、两个行为开关、下标到名字的映射、第一个桶的上限、
            # 中: 是否跳过未用参数、是否 Python 版、重建上限、是否批量拷贝。
            # EN: Then, in order: the ordinary cap, two behavior switches, the index-to-name
            # EN: map, the first bucket's cap, skipping unused parameters, the Python reducer,
            # EN: the rebuild caps, batched copying.
            self.bucket_bytes_cap,
            self.find_unused_parameters,
            self.gradient_as_bucket_view,
            # 中: 名字映射只用于报错信息；之后是第一个桶的上限。
            # EN: The name map only serves error messages; next comes the first bucket's cap.
            param_to_name_mapping,
            self._bucket_config.first_bucket_bytes_cap,
            self.skip_all_reduce_unused_params,
            self._use_python_reducer,
            bucket_size_limits_for_rebuilding,
            self.batched_grad_copy,
        )

        # 中: Reducer 只弱引用 Logger，避免两者互相引用形成环。
        # EN: The Reducer holds the Logger weakly, avoiding a reference cycle between the two.
        self.logger = dist.Logger(self.reducer)
        self.reducer.set_logger(self.logger)

        # 中: 模型里有没有 `SyncBatchNorm`（两家的类都认，见文件开头的 DIFF），记进日志数据。
        # EN: Whether the model holds a `SyncBatchNorm` (either library's class: see the DIFF at
        # EN: the top of the file), for the logging data.
        has_sync_bn = any(isinstance(m, _SYNC_BATCHNORM_CLASSES) for m in self.module.modules())

        # 中: 构造时就能确定的日志数据：模块类名、设备、缓冲区同步设置、是否静态图。
        # EN: Logging data known at construction: module class name, devices, buffer-sync
        # EN: setting, static graph or not.
        self.logger.set_construction_data_and_log(
            self.module.__class__.__name__,
            [] if self.device_ids is None else self.device_ids,
            -1 if self.output_device is None else self.output_device,
            self.forward_sync_buffers,
            has_sync_bn,
            static_graph,
        )
        # 中: 最后检查 SyncBatchNorm 是否在 CPU 上（此时 Logger 已在，报错会被记录）。
        # EN: Finally check for SyncBatchNorm on a CPU module (the Logger exists now, so the
        # EN: error gets recorded).
        self._passing_sync_batchnorm_handle(self.module)

    def __getstate__(self):
        r"""Pickle state: everything but the group, the Reducer and the Logger. / pickle 状态：除进程组、Reducer 与 Logger 外的一切。

        === "中文"

            这三样是 C++ 对象，不能序列化；反序列化时 `__setstate__` 重新建出它们。只支持默认
            进程组（恢复时只能取回它）。`broadcast_buffers` 现在是 property，为了兼容旧代码
            仍以同名键写入状态。

        === "English"

            These three are C++ objects that cannot be pickled; `__setstate__` rebuilds them
            when unpickling. Only the default process group is supported (it is the only one
            that can be found again). `broadcast_buffers` is a property now; for old code it is
            still written into the state under that key.

        Returns:
            A shallow copy of `__dict__` without them. / 去掉它们的 `__dict__` 浅拷贝。

        Raises:
            RuntimeError: A non-default process group. / 非默认进程组。
        """
        self._check_default_group()
        attrs = copy.copy(self.__dict__)
        del attrs["process_group"]
        del attrs["reducer"]
        del attrs["logger"]
        attrs["broadcast_buffers"] = self.forward_sync_buffers
        return attrs

    def __setstate__(self, state):
        r"""Unpickle: restore the state, then rebuild the Reducer. / 反序列化：恢复状态，再重建 Reducer。

        === "中文"

            进程组取默认的那个；为旧版本保存的对象补上缺少的标志；旧状态里的
            `broadcast_buffers` 用来给 `forward_sync_buffers` 赋初值，并且必须从实例字典里
            去掉，否则它会遮住同名 property。然后像构造时一样收集参数、建 Reducer，
            静态图的设置也恢复。不做构造时的广播。

        === "English"

            The process group is the default one; flags missing from older pickles are filled
            in; an old state's `broadcast_buffers` seeds `forward_sync_buffers` and must leave the
            instance dict, or it would shadow the property of that name. Then the parameters are
            collected and the Reducer built as at construction, and the static-graph setting is
            restored. There is no construction-time broadcast.

        Args:
            state: What `__getstate__` returned. / `__getstate__` 的返回值。

        Raises:
            AssertionError: A static graph without a Logger. / 静态图却没有 Logger。
        """
        # 中: 先定进程组，再让 `Module.__setstate__` 写回其余状态并补齐模块的表。
        # EN: The process group first; then `Module.__setstate__` writes back the rest and fills
        # EN: in the module tables.
        self.process_group = _get_default_group()
        super().__setstate__(state)
        self.__dict__.setdefault("require_forward_param_sync", True)
        self.__dict__.setdefault("require_backward_grad_sync", True)
        old_broadcast = self.__dict__.pop("broadcast_buffers", True)
        self.__dict__.setdefault("forward_sync_buffers", old_broadcast)
        # 中: 与构造函数第 5、6 步相同的重建。
        # EN: The same rebuild as steps 5 and 6 of the constructor.
        parameters, expect_sparse_gradient = self._build_params_for_reducer()
        param_to_name_mapping = self._build_debug_param_to_name_mapping(parameters)
        self._ddp_init_helper(
            parameters,
            expect_sparse_gradient,
            param_to_name_mapping,
            self.static_graph,
        )
        # 中: 新的 Reducer 与 Logger 也要知道这是静态图。
        # EN: The new Reducer and Logger must learn that the graph is static too.
        if self.static_graph:
            self.reducer._set_static_graph()
            if self.logger is None:
                raise AssertionError("self.logger must not be None when static_graph is True")
            self.logger._set_static_graph()

    def _build_params_for_reducer(self):
        r"""The parameters to reduce, in module order, and their sparse flags. / 要归约的参数（模块顺序）及其稀疏标志。

        === "中文"

            按 `named_modules()` 的顺序逐个模块取它自己的参数（`recurse=False`），只要需要梯度
            且没被忽略的；共享的参数只保留第一次出现。`Embedding`/`EmbeddingBag` 在
            `sparse=True` 时产生稀疏梯度。顺带更新要同步的缓冲区列表。

        === "English"

            Walks `named_modules()` in order and takes each module's own parameters
            (`recurse=False`) that need gradients and are not ignored; a shared parameter is kept
            only at its first appearance. `Embedding`/`EmbeddingBag` with `sparse=True` produce
            sparse gradients. It also refreshes the list of buffers to sync.

        Returns:
            `(parameters, expect_sparse_gradient)`. / `(参数列表, 稀疏标志列表)`。
        """
        # 中: 每个参数配上它所在的模块，后面判断稀疏梯度要看模块类型。
        # EN: Each parameter is paired with its module; the sparse check below looks at the
        # EN: module type.
        modules_and_parameters = [
            (module, parameter)
            for module_name, module in self.module.named_modules()
            # 中: 只要需要梯度、且全名不在忽略集合里的参数。
            # EN: Only parameters that need gradients and whose full name is not ignored.
            for parameter in [
                param
                for param_name, param in module.named_parameters(recurse=False)
                if param.requires_grad
                and f"{module_name}.{param_name}" not in self.parameters_to_ignore
            ]
        ]

        # 中: 去重，保留首次出现的位置（共享权重只归约一次）。
        # EN: Deduplicate, keeping the first position (a shared weight is reduced once).
        seen = set()
        unique_pairs = []
        for module, parameter in modules_and_parameters:
            if parameter not in seen:
                seen.add(parameter)
                unique_pairs.append((module, parameter))
        parameters = [parameter for _, parameter in unique_pairs]

        def produces_sparse_gradient(module):
            r"""Whether `module` makes sparse gradients. / `module` 是否产生稀疏梯度。

            === "中文"

                只有开了 `sparse` 的 `Embedding` 与 `EmbeddingBag`（本项目的类，也认 torch.nn 的，
                见 `__init__` 里关于 torch.nn 模块的 DIFF）。

            === "English"

                Only `Embedding` and `EmbeddingBag` with `sparse` on (this project's classes, and
                torch.nn's too: see the DIFF about torch.nn modules in `__init__`).

            Args:
                module: The owning module. / 参数所属的模块。

            Returns:
                The flag. / 标志。
            """
            if isinstance(module, _SPARSE_CAPABLE_LAYERS):
                return module.sparse
            return False

        # 中: 稀疏标志与参数一一对应；缓冲区列表也在这里刷新。
        # EN: One sparse flag per parameter; the buffer list is refreshed here too.
        expect_sparse_gradient = [produces_sparse_gradient(module) for module, _ in unique_pairs]
        self._assign_modules_buffers()
        return parameters, expect_sparse_gradient

    def _assign_modules_buffers(self):
        r"""Refresh the buffers DDP syncs. / 刷新 DDP 要同步的缓冲区。

        === "中文"

            用户可能在训练中把缓冲区整个换掉（重新赋值），所以每次同步前都重新从
            `named_buffers()` 取一遍，去掉被忽略的。`modules_buffers` 是列表，
            `named_module_buffers` 是名字到缓冲区的字典（给缓冲区通信钩子用）。

        === "English"

            A user may replace a buffer wholesale (reassign it) during training, so they are
            fetched from `named_buffers()` again before every sync, minus the ignored ones.
            `modules_buffers` is a list, `named_module_buffers` a name-to-buffer dict (for the
            buffer comm hook).
        """
        # 中: 忽略集合同时管参数与缓冲区，按全名比较。
        # EN: The ignore set covers parameters and buffers alike, compared by full name.
        named_module_buffers = [
            (buffer, buffer_name)
            for buffer_name, buffer in self.module.named_buffers()
            if buffer_name not in self.parameters_to_ignore
        ]
        # 中: 同一批缓冲区的两种视图：列表给广播用，字典给缓冲区钩子用。
        # EN: Two views of the same buffers: the list for the broadcast, the dict for the
        # EN: buffer hook.
        self.modules_buffers = [buffer for (buffer, buffer_name) in named_module_buffers]
        self.named_module_buffers = {
            buffer_name: buffer for (buffer, buffer_name) in named_module_buffers
        }

    def _build_debug_param_to_name_mapping(self, parameters):
        r"""Map each Reducer index to the parameter's full name. / 把 Reducer 的每个下标映射到参数全名。

        === "中文"

            设置了环境变量 `TORCH_DISTRIBUTED_DEBUG`（`INFO` 或 `DETAIL`）时，Reducer 报告
            "某参数没有收到梯度"之类的错误会用这些名字，否则只给下标。再走一遍模块树，
            两边的参数集合必须完全一致，否则是 DDP 自己的 bug。

        === "English"

            With the environment variable `TORCH_DISTRIBUTED_DEBUG` set (`INFO` or `DETAIL`), the
            Reducer uses these names in errors such as "a parameter did not receive a
            gradient"; otherwise it gives indices only. It walks the module tree again; the two
            parameter sets must match exactly, otherwise it is a bug in DDP itself.

        Args:
            parameters: The Reducer's parameters. / Reducer 的参数列表。

        Returns:
            `{index: full name}`. / `{下标: 全名}`。

        Raises:
            ValueError: The two walks disagree. / 两次遍历的结果不一致。
        """
        # 中: 共享参数在模块树里出现多次，字典里留下的是最后一次出现时的名字。
        # EN: A shared parameter appears several times in the tree; the dict keeps the name of
        # EN: its last appearance.
        param_to_param_index = {parameters[i]: i for i in range(len(parameters))}
        param_set = set(parameters)
        param_index_to_param_fqn = {}
        for module_name, module in self.module.named_modules():
            for param_name, param in module.named_parameters(recurse=False):
                # 中: 与 `_build_params_for_reducer` 相同的筛选；筛出的参数却不在列表里就是 bug。
                # EN: The same filter as `_build_params_for_reducer`; a parameter passing it but
                # EN: missing from the list is a bug.
                fqn = f"{module_name}.{param_name}"
                if fqn not in self.parameters_to_ignore and param.requires_grad:
                    if param not in param_set:
                        self._log_and_throw(
                            ValueError,
                            f"Param with name {fqn} found in module parameters, but not DDP parameters."
                            " This indicates a bug in DDP, please report an issue to PyTorch.",
                        )
                    # 中: 按 Reducer 中的下标记下全名。
                    # EN: Record the full name under the Reducer index.
                    param_index = param_to_param_index[param]
                    param_index_to_param_fqn[param_index] = fqn

        # 中: 每个参数都必须有名字。
        # EN: Every parameter must have a name.
        if len(param_set) != len(param_index_to_param_fqn):
            # 中: 报错文字与 torch 逐字相同。
            # EN: The message is torch's word for word.
            self._log_and_throw(
                ValueError,
                "Expected param to name mapping to cover all parameters, but"
                f" got conflicting lengths: {len(param_set)} vs "
                f"{len(param_index_to_param_fqn)}. This indicates a bug in DDP"
                ", please report an issue to PyTorch.",
            )
        return param_index_to_param_fqn

    def _get_parameters(self, m, recurse=True):
        r"""Parameters of `m`, preferring `_former_parameters`. / `m` 的参数，优先取 `_former_parameters`。

        === "中文"

            `_former_parameters` 是 `DataParallel` 复制出的副本上保存原参数的地方；
            DDP 自己已不再调用这个方法。

        === "English"

            `_former_parameters` is where a `DataParallel` replica keeps the original
            parameters; DDP itself no longer calls this method.

        Args:
            m: A module. / 模块。
            recurse: Include submodules. / 是否包含子模块。

        Yields:
            The parameters. / 参数。
        """

        def model_parameters(m):
            r"""One module's own parameters. / 单个模块自己的参数。

            === "中文"

                有 `_former_parameters` 就用它，否则 `parameters(recurse=False)`。

            === "English"

                `_former_parameters` if present, else `parameters(recurse=False)`.

            Args:
                m: A module. / 模块。

            Yields:
                The parameters. / 参数。
            """
            ps = (
                m._former_parameters.values()
                if hasattr(m, "_former_parameters")
                else m.parameters(recurse=False)
            )
            yield from ps

        for mod in m.modules() if recurse else [m]:
            yield from model_parameters(mod)

    def _check_default_group(self):
        r"""Refuse to pickle unless the default process group is used. / 不是默认进程组时拒绝 pickle。

        === "中文"

            本意是让“没有默认进程组”也算不支持，但 torch 2.13 的 `_get_default_group` 此时抛的是
            ValueError，`except RuntimeError` 接不住：例如 `destroy_process_group()` 之后 pickle，
            调用者收到的是 ValueError（"Default process group has not been initialized ..."），
            而不是下面的 RuntimeError（与 torch 相同）。

        === "English"

            A missing default group is meant to count as unsupported too, but in torch 2.13
            `_get_default_group` then raises ValueError, which `except RuntimeError` does not
            catch: pickling after `destroy_process_group()`, say, gives the caller that
            ValueError ("Default process group has not been initialized ...") rather than the
            RuntimeError below (as in torch).

        Raises:
            RuntimeError: A process group other than the default one. / 用的不是默认进程组。
            ValueError: No default process group at all. / 根本没有默认进程组。
        """
        # 中: 判断与报错分开：先得出结论，再统一经 `_log_and_throw` 报错。
        # EN: Deciding and raising are separate: first reach the verdict, then raise through
        # EN: `_log_and_throw`.
        pickle_not_supported = False
        # 中: 只接住 RuntimeError；没有默认进程组时 `_get_default_group` 抛的 ValueError 直接传出。
        # EN: Only RuntimeError is caught; the ValueError `_get_default_group` raises when there
        # EN: is no default group propagates.
        try:
            if self.process_group != _get_default_group():
                pickle_not_supported = True
        except RuntimeError:
            pickle_not_supported = True

        if pickle_not_supported:
            # 中: 文字说明了唯一支持的用法：`init_process_group` 之后不传 `process_group`。
            # EN: The text names the only supported use: `init_process_group`, then no
            # EN: `process_group` argument.
            self._log_and_throw(
                RuntimeError,
                "DDP Pickling/Unpickling are only supported "
                "when using DDP with the default process "
                "group. That is, when you have called "
                "init_process_group and have not passed "
                "process_group argument to DDP constructor",
            )

    @contextmanager
    def no_sync(self):
        r"""Accumulate gradients locally, without communication. / 只在本地累积梯度，不做通信。

        === "中文"

            在这个上下文里做的前向加反向只把梯度累加进 `.grad`；离开上下文后第一次前向加反向
            才做 all-reduce，平均的是累积后的总梯度。用于梯度累积：少通信几次。
            注意前向必须也在上下文里：是否同步在前向时就决定了（`_post_forward` 读这个标志）。

        === "English"

            Forward and backward passes inside only accumulate into `.grad`; the first forward
            plus backward after leaving does the all-reduce, averaging the accumulated total.
            Used for gradient accumulation: fewer communications. Note the forward must be inside
            too: whether to sync is decided during the forward (`_post_forward` reads the flag).

        Yields:
            Nothing. / 无。

        Examples:
            >>> import torch, torch.distributed as dist, annotated_nn as nn
            >>> dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
            >>> ddp = nn.parallel.DistributedDataParallel(nn.Linear(2, 1))
            >>> with ddp.no_sync():
            ...     ddp(torch.ones(1, 2)).sum().backward()
            >>> ddp(torch.ones(1, 2)).sum().backward()
            >>> ddp.module.bias.grad
            tensor([2.])
            >>> dist.destroy_process_group()
        """
        # 中: 退出时恢复原值而不是设为 True，所以嵌套使用也正确。
        # EN: On exit the old value is restored rather than set to True, so nesting works.
        old_require_backward_grad_sync = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = old_require_backward_grad_sync

    @classmethod
    def _get_active_ddp_module(cls):
        r"""The DDP object whose forward is running, if any. / 正在运行前向的 DDP 对象（若有）。

        === "中文"

            供 TorchDynamo 查询，它据此知道当前是否在 DDP 的前向里。

        === "English"

            TorchDynamo asks it to learn whether a DDP forward is running.

        Returns:
            The active DDP module or None. / 活动的 DDP 模块或 None。
        """
        return cls._active_ddp_module

    @contextmanager
    @torch._disable_dynamo(recursive=False)
    def _inside_ddp_forward(self):
        r"""Mark this DDP object as active during the wrapped forward. / 在被包装模块前向期间把本 DDP 对象标记为活动的。

        === "中文"

            保存并恢复之前的值，这样嵌套的 DDP（外层 DDP 里还有内层 DDP）退出时不会把外层的
            标记清掉。这个函数本身不被 dynamo 追踪。

        === "English"

            Saves and restores the previous value, so that a nested DDP (an inner DDP inside an
            outer one) does not clear the outer one's mark on exit. Dynamo does not trace this
            function itself.

        Yields:
            Nothing. / 无。
        """
        old = DistributedDataParallel._active_ddp_module
        DistributedDataParallel._active_ddp_module = self
        try:
            yield
        finally:
            DistributedDataParallel._active_ddp_module = old

    def _run_ddp_forward(self, *inputs, **kwargs):
        r"""Call the wrapped module. / 调用被包装的模块。

        === "中文"

            走完整的 `module(...)`，所以模块自己的钩子都会运行；不用 Python 归约器时，
            还在调用期间把自己标记为活动的 DDP。

        === "English"

            Goes through the full `module(...)`, so the module's own hooks run; unless the
            python reducer is in use, it also marks itself as the active DDP during the call.

        Args:
            *inputs: Positional inputs. / 位置输入。
            **kwargs: Keyword inputs. / 关键字输入。

        Returns:
            The module's output. / 模块的输出。
        """
        if self._use_python_reducer:
            return self.module(*inputs, **kwargs)
        else:
            with self._inside_ddp_forward():
                return self.module(*inputs, **kwargs)

    def _clear_grad_buffer(self):
        r"""Point the delayed parameters' `.grad` at the shared buffer. / 让延后参数的 `.grad` 指向共享缓冲。

        === "中文"

            反向前 `.grad` 已经是缓冲里的视图，引擎就会把梯度就地累加进缓冲，all-reduce 一次就
            覆盖所有延后参数。`.grad` 全为 None（用户 `zero_grad(set_to_none=True)` 之后）时
            一次性清零整块缓冲；否则只把重新挂上的视图清零。

        === "English"

            With `.grad` already a view into the buffer before backward, the engine accumulates
            in-place into the buffer, and one all-reduce covers every delayed parameter. When all
            `.grad` are None (after `zero_grad(set_to_none=True)`) the whole buffer is zeroed at
            once; otherwise only the re-attached views are zeroed.
        """
        # 中: 没有延后参数时什么都不做。
        # EN: Nothing to do without delayed parameters.
        if self._delay_grad_buffer is not None:
            all_param_grad_none = all(param.grad is None for param in self._delay_all_reduce_params)
            for index, param in enumerate(self._delay_all_reduce_params):
                if param.grad is None:
                    param.grad = self._delay_grad_views[index]
                    # 中: 视图里可能有上一轮的值，其它参数又还有梯度：只清这一段。
                    # EN: The view may hold last iteration's values while other parameters still
                    # EN: have gradients: clear this slice only.
                    if not all_param_grad_none:
                        param.grad.zero_()
            if all_param_grad_none:
                self._delay_grad_buffer.zero_()

    def _lazy_init(self):
        r"""Setup deferred to the first forward. / 推迟到第一次前向才做的设置。

        === "中文"

            目前只有接管反向中的优化器：用户可能在构造 DDP 之后才调用
            `apply_optimizer_in_backward`。

        === "English"

            Currently only taking over in-backward optimizers: the user may call
            `apply_optimizer_in_backward` after constructing DDP.
        """
        self._setup_in_backward_optimizers()
        self._lazy_init_ran = True

    def _pre_forward(self, *inputs, **kwargs):
        r"""Everything DDP does before the wrapped forward. / DDP 在被包装模块前向之前做的一切。

        === "中文"

            按顺序：延迟初始化；通知 Reducer 新一轮开始（开启梯度且需要同步时）；通知 join
            上下文本进程还没加入；必要时重建桶（每次训练至多一次）；在前向前同步缓冲区；
            join 中告诉已加入的进程本轮是否同步梯度；最后把输入搬到设备上（GPU 模块）、
            按混合精度转换输入。

        === "English"

            In order: lazy init; tell the Reducer a new iteration starts (with grad enabled and
            sync required); tell the join context this process has not joined; rebuild buckets
            if due (at most once per training); sync buffers before forward; in a join, tell the
            joined processes whether this iteration syncs gradients; finally move inputs to the
            device (GPU modules) and cast them for mixed precision.

        Args:
            *inputs: Positional inputs. / 位置输入。
            **kwargs: Keyword inputs. / 关键字输入。

        Returns:
            `(inputs, kwargs)` to call the module with. / 用来调用模块的 `(inputs, kwargs)`。
        """
        # 中: 编译路径什么都不做；延迟初始化只在第一次（且不在编译中）运行。
        # EN: The compiled path does nothing; lazy init runs only the first time (and not while
        # EN: compiling).
        if self._use_python_reducer:
            return inputs, kwargs
        if not self._lazy_init_ran and not torch.compiler.is_compiling():
            self._lazy_init()
        if self._delay_all_reduce_all_params:
            return inputs, kwargs

        # 中: 只有开启梯度、且不在 `no_sync()` 中时，这一轮才算 Reducer 的一轮（也采样运行时统计）。
        # EN: Only with grad enabled and outside `no_sync()` is this a Reducer iteration (it
        # EN: also samples runtime stats).
        if torch.is_grad_enabled() and self.require_backward_grad_sync:
            if self.logger is None:
                raise AssertionError("self.logger must not be None")
            self.logger.set_runtime_stats_and_log()
            self.reducer.prepare_for_forward()

        # 中: 在 join 中时，这里发出"我还没加入"的 all-reduce；Reducer 拿着这个句柄，
        # 中: 以便按仍在训练的进程数求平均（若 `divide_by_initial_world_size=False`）。
        # EN: Inside a join this issues the "not joined yet" all-reduce; the Reducer keeps the
        # EN: handle, to average over the processes still training (if
        # EN: `divide_by_initial_world_size=False`).
        work = Join.notify_join_context(self)
        if work:
            self.reducer._set_forward_pass_work_handle(
                work,
                self._divide_by_initial_world_size,
            )

        # 中: 重建桶会先分配新桶再释放旧桶，放在前向计算之前，避开激活值占满内存的峰值。
        # EN: Rebuilding allocates new buckets before freeing the old ones; doing it before the
        # EN: forward computation avoids the memory peak of activations.
        if torch.is_grad_enabled() and self.reducer._rebuild_buckets():
            logger.info("Reducer buckets have been rebuilt in this iteration.")
            self._has_rebuilt_buckets = True

        # 中: 默认在这里从 rank 0 广播缓冲区（除非注册了前向后运行的缓冲区钩子；`join()` 之内
        # 中: 广播源是仍在训练的最大 rank，见 `_sync_buffers`）。
        # EN: By default buffers are broadcast from rank 0 here (unless a post-forward buffer
        # EN: hook is registered; inside `join()` the source is the highest rank still training,
        # EN: see `_sync_buffers`).
        if self._check_sync_bufs_pre_fwd():
            self._sync_buffers()

        # 中: 与已加入进程的 `main_hook` 里的那次 all-reduce 配对。
        # EN: Pairs with the all-reduce in the joined processes' `main_hook`.
        if self._join_config.enable:
            self._check_global_requires_backward_grad_sync(is_joined_rank=False)

        # 中: 单设备 GPU 模块：把输入搬到 `device_ids[0]`（可用单独的流）；CPU 模块原样返回。
        # 中: 混合精度下再把浮点输入转成 `param_dtype`。
        # EN: A single-device GPU module: move the inputs to `device_ids[0]` (possibly on a side
        # EN: stream); a CPU module returns them as they are. With mixed precision, floating
        # EN: inputs are then cast to `param_dtype`.
        if self.device_ids:
            moved_inputs, moved_kwargs = _to_kwargs(
                inputs,
                kwargs,
                torch.device(self.device_type, self.device_ids[0]),
                self.use_side_stream_for_tensor_copies,
            )
            # 中: `_to_kwargs` 为每个设备返回一份，这里只有一个设备，取第 0 份。
            # EN: `_to_kwargs` returns one copy per device; there is one device, so take copy 0.
            args, kwargs = moved_inputs[0], moved_kwargs[0]
            # 中: 只转换浮点张量。
            # EN: Only floating-point tensors are cast.
            if self.mixed_precision is not None:
                args, kwargs = _cast_forward_inputs(
                    self.mixed_precision.param_dtype,
                    *args,
                    **kwargs,
                )
            return args, kwargs
        else:
            # 中: CPU 或多设备模块：输入已由用户放好，只在混合精度下转换类型。
            # EN: A CPU or multi-device module: the user placed the inputs already; they are
            # EN: only cast with mixed precision.
            if self.mixed_precision is not None:
                inputs, kwargs = _cast_forward_inputs(
                    self.mixed_precision.param_dtype,
                    *inputs,
                    **kwargs,
                )
            return inputs, kwargs

    def _post_forward(self, output):
        r"""Everything DDP does after the wrapped forward. / DDP 在被包装模块前向之后做的一切。

        === "中文"

            按顺序：前向后运行的缓冲区钩子；告诉 Reducer 准备反向（查找未使用参数时从输出出发
            遍历计算图）；需要时让输出穿过 `_DDPSink`；重新挂好延后参数的梯度缓冲。

        === "English"

            In order: the post-forward buffer hook; prepare the Reducer for backward (when
            searching for unused parameters, walking the graph from the output); route the
            output through `_DDPSink` when needed; re-attach the delayed parameters' gradient
            buffer.

        Args:
            output: The wrapped module's output. / 被包装模块的输出。

        Returns:
            The output, possibly with its tensors replaced by `_DDPSink`'s. / 输出；其中的张量可能换成了 `_DDPSink` 的输出。
        """
        if self._use_python_reducer:
            return output
        if self._delay_all_reduce_all_params:
            self._clear_grad_buffer()
            return output

        # 中: 注册了"前向后"位置的缓冲区钩子时，在这里同步缓冲区。
        # EN: With a buffer hook at the "post forward" location, buffers are synced here.
        if self._check_sync_bufs_post_fwd():
            self._sync_buffers()

        # 中: 要同步的一轮：下一次前向可以同步缓冲区；查找未使用参数时把输出里的张量交给
        # 中: Reducer，它从这些张量出发遍历计算图，没走到的参数不等梯度就标记为就绪。不同步的一轮
        # 中: （`no_sync()` 或无梯度）把 `require_forward_param_sync` 设为 False，于是下一次
        # 中: 前向不广播缓冲区。
        # EN: An iteration that syncs: the next forward may sync buffers; when searching for
        # EN: unused parameters, the output's tensors go to the Reducer, which walks the graph
        # EN: from them and marks every parameter not reached as ready without waiting for a
        # EN: gradient. An iteration without sync (`no_sync()` or no grad) sets
        # EN: `require_forward_param_sync` False, so the next forward broadcasts no buffers.
        if torch.is_grad_enabled() and self.require_backward_grad_sync:
            self.require_forward_param_sync = True
            if self.find_unused_parameters and not self.static_graph:
                self.reducer.prepare_for_backward(list(_find_tensors(output)))
            else:
                self.reducer.prepare_for_backward([])
        else:
            self.require_forward_param_sync = False

        # 中: `_DDPSink` 只在两种情形下需要：查找未使用参数（非静态图），以及静态图还没排队
        # 中: 延迟 all-reduce 的第一轮。
        # EN: `_DDPSink` is needed in two cases only: searching for unused parameters (not a
        # EN: static graph), and a static graph's first iteration, before the delayed
        # EN: all-reduce is queued.
        if (self.find_unused_parameters and not self.static_graph) or (
            self.static_graph and not self._static_graph_delay_allreduce_enqueued
        ):
            output_tensor_list, treespec, output_is_rref = _tree_flatten_with_rref(output)
            # 中: 没有 `grad_fn` 的张量不经过 `_DDPSink`，原样放回（否则会出问题，见 torch 的
            # 中: issue 60733）。
            # EN: Tensors without a `grad_fn` bypass `_DDPSink` and are put back as they are
            # EN: (routing them through causes trouble; see torch issue 60733).
            output_placeholders: list[torch.Tensor | None] = [
                None for _ in range(len(output_tensor_list))
            ]
            for i, output in enumerate(output_tensor_list):
                if torch.is_tensor(output) and output.grad_fn is None:
                    output_placeholders[i] = output

            # 中: 其余的叶子都穿过 `_DDPSink`，再按原结构装回。
            # EN: Every other leaf passes through `_DDPSink`, then the structure is rebuilt.
            passthrough_tensor_list = _DDPSink.apply(
                weakref.ref(self),
                *output_tensor_list,
            )
            for i in range(len(output_placeholders)):
                if output_placeholders[i] is None:
                    output_placeholders[i] = passthrough_tensor_list[i]
            output = _tree_unflatten_with_rref(output_placeholders, treespec, output_is_rref)

        # 中: 前向结束时重新挂好延后参数的梯度视图。
        # EN: At the end of the forward, re-attach the delayed parameters' gradient views.
        self._clear_grad_buffer()
        return output

    def forward(self, *inputs, **kwargs):
        r"""`_pre_forward`, the wrapped module, `_post_forward`. / `_pre_forward`、被包装模块、`_post_forward`。

        === "中文"

            整个调用在 profiler 里显示为一段 "DistributedDataParallel.forward"。通常经
            `module(...)` 调用被包装的模块。所有参数都延后归约时改为直接调用 `module.forward`
            （不经过模块的钩子），但这条分支只在 Python 归约器模式或 dynamo 追踪时才走得到：即时模式下，
            这样构造的 DDP 在 `__init__` 中提前返回，没有设置 `_lazy_init_ran`，第一次前向就在
            `_pre_forward` 里抛出 AttributeError（与 torch 相同）。

        === "English"

            The whole call shows in the profiler as one "DistributedDataParallel.forward"
            range. It normally calls the wrapped module as `module(...)`. When every parameter is
            delayed it calls `module.forward` directly instead (skipping the module's hooks), but
            that branch is reached only in python-reducer mode or while dynamo traces: in eager
            mode such a DDP returned early from `__init__` without setting `_lazy_init_ran`, so
            its first forward raises an AttributeError in `_pre_forward` (as torch's does).

        Args:
            *inputs: Positional inputs. / 位置输入。
            **kwargs: Keyword inputs. / 关键字输入。

        Returns:
            The module's output. / 模块的输出。
        """
        with torch.autograd.profiler.record_function("DistributedDataParallel.forward"):
            inputs, kwargs = self._pre_forward(*inputs, **kwargs)
            output = (
                self.module.forward(*inputs, **kwargs)
                if self._delay_all_reduce_all_params
                else self._run_ddp_forward(*inputs, **kwargs)
            )
            return self._post_forward(output)

    def scatter(self, inputs, kwargs, device_ids):
        r"""Split inputs across devices along `self.dim` (kept for compatibility). / 沿 `self.dim` 把输入切到各设备（为兼容保留）。

        === "中文"

            DDP 自己不再调用它（每个进程只有一个设备）；委托给
            [`scatter_kwargs`][annotated_nn.parallel.scatter_gather.scatter_kwargs]。

        === "English"

            DDP itself no longer calls it (one device per process); it delegates to
            [`scatter_kwargs`][annotated_nn.parallel.scatter_gather.scatter_kwargs].

        Args:
            inputs: Positional inputs. / 位置输入。
            kwargs: Keyword inputs. / 关键字输入。
            device_ids: Target devices. / 目标设备。

        Returns:
            `(per-device inputs, per-device kwargs)`. / `(每设备输入, 每设备关键字参数)`。
        """
        return scatter_kwargs(inputs, kwargs, device_ids, dim=self.dim)

    def to_kwargs(self, inputs, kwargs, device_id):
        r"""Move inputs to one device (kept for compatibility). / 把输入搬到一个设备上（为兼容保留）。

        === "中文"

            与 `_pre_forward` 里 GPU 路径的搬运相同。

        === "English"

            The same move as the GPU path of `_pre_forward`.

        Args:
            inputs: Positional inputs. / 位置输入。
            kwargs: Keyword inputs. / 关键字输入。
            device_id: The device index. / 设备编号。

        Returns:
            `(moved inputs, moved kwargs)`, each a one-element tuple. / `(搬运后的输入, 关键字参数)`，各为单元素 tuple。
        """
        return _to_kwargs(
            inputs,
            kwargs,
            torch.device(self.device_type, device_id),
            self.use_side_stream_for_tensor_copies,
        )

    def gather(self, outputs, output_device):
        r"""Concatenate outputs on `output_device` (kept for compatibility). / 把输出拼接到 `output_device`（为兼容保留）。

        === "中文"

            委托给 [`gather`][annotated_nn.parallel.scatter_gather.gather]，沿 `self.dim` 拼接。

        === "English"

            Delegates to [`gather`][annotated_nn.parallel.scatter_gather.gather], along
            `self.dim`.

        Args:
            outputs: Per-device outputs. / 各设备的输出。
            output_device: Target device. / 目标设备。

        Returns:
            The gathered output. / 汇总后的输出。
        """
        return gather(outputs, output_device, dim=self.dim)

    def train(self, mode=True):
        r"""Switch training mode (reaching the wrapped module). / 切换训练模式（作用到被包装的模块）。

        === "中文"

            就是 `Module.train`：`module` 是子模块，所以它和它的子模块一起切换。

        === "English"

            Just `Module.train`: `module` is a submodule, so it and its submodules switch too.

        Args:
            mode: True for training, False for evaluation. / True 为训练，False 为评估。

        Returns:
            self. / 自身。
        """
        super().train(mode)
        return self

    def _check_global_requires_backward_grad_sync(self, is_joined_rank):
        r"""Join: agree on whether this iteration syncs gradients. / join：商定本轮是否同步梯度。

        === "中文"

            未加入、且需要同步的进程贡献 1，其它贡献 0，求和。未加入的进程不等待结果，只是
            发出配对的 all-reduce；已加入的进程等待，结果非零就说明还有进程要同步。

        === "English"

            A non-joined process that syncs contributes 1, everything else 0, summed. Non-joined
            processes do not wait, they only issue the matching all-reduce; joined processes
            wait, and a nonzero result means some process syncs.

        Args:
            is_joined_rank: Whether this process has joined. / 本进程是否已加入。

        Returns:
            For a joined process, whether to sync; else None. / 已加入进程返回是否同步，否则 None。
        """
        if not is_joined_rank and self.require_backward_grad_sync:
            requires_sync_tensor = torch.ones(1, device=self.device)
        else:
            requires_sync_tensor = torch.zeros(1, device=self.device)

        # 中: 只有已加入的一方需要读结果。
        # EN: Only the joined side needs to read the result.
        work = dist.all_reduce(requires_sync_tensor, group=self.process_group, async_op=True)
        if is_joined_rank:
            work.wait()
            should_sync_backwards = requires_sync_tensor.item() != 0
            return should_sync_backwards
        else:
            return None

    def _check_and_sync_module_buffers(self):
        r"""Join: match the buffer sync of the non-joined processes. / join：陪跑未加入进程的缓冲区同步。

        === "中文"

            已加入的进程不能当源（它的缓冲区已经过时），所以以 False 参与源 rank 的商定。

        === "English"

            A joined process cannot be the source (its buffers are stale), so it takes part in
            agreeing on the source rank with False.
        """
        if self._check_sync_bufs_pre_fwd():
            authoritative_rank = self._find_common_rank(self._distributed_rank, False)
            self._sync_module_buffers(authoritative_rank)

    def _sync_final_model(self, is_last_joiner):
        r"""Join: broadcast a last joiner's parameters and buffers. / join：广播最后加入者的参数与缓冲区。

        === "中文"

            最后加入者中 rank 最大的那个当源。

        === "English"

            Among the last joiners, the one with the largest rank is the source.

        Args:
            is_last_joiner: Whether this process is a last joiner. / 本进程是否是最后加入者。
        """
        # 中: 这里由 `forward_sync_buffers` 决定是否带上缓冲区（构造时的同步看的则是构造函数里的
        # 中: `init_sync_buffers`），忽略的名字照样跳过。
        # EN: Here `forward_sync_buffers` decides whether buffers come along (the
        # EN: construction-time sync looks at the constructor's `init_sync_buffers` instead);
        # EN: ignored names are skipped as usual.
        self._authoritative_rank = self._find_common_rank(self._distributed_rank, is_last_joiner)
        # 中: 从商定的 rank 出发，而不是固定的 rank 0。
        # EN: From the agreed rank, not a fixed rank 0.
        _sync_module_states(
            module=self.module,
            process_group=self.process_group,
            broadcast_bucket_size=self.broadcast_bucket_size,
            src=self._authoritative_rank,
            params_and_buffers_to_ignore=self.parameters_to_ignore,
            broadcast_buffers=self.forward_sync_buffers,
        )

    def _match_all_reduce_for_bwd_pass(self):
        r"""Join: one zero-gradient reduction per bucket. / join：每个桶一次零梯度归约。

        === "中文"

            从 Reducer 取桶的顺序（桶可能已经重建），每个桶放全零张量，经通信钩子（默认是
            all-reduce）发出，保证与其它进程的桶一一配对；最后等全部完成。

        === "English"

            Takes the bucket order from the Reducer (buckets may have been rebuilt), puts an
            all-zero tensor in each, and runs it through the comm hook (all-reduce by default),
            so each pairs with the other processes' buckets; then waits for all of them.
        """
        comm_work = []
        grad_buckets = self.reducer._get_zeros_like_grad_buckets()
        for grad_bucket in grad_buckets:
            work = self.reducer._run_comm_hook(grad_bucket)
            comm_work.append(work)
        for work in comm_work:
            work.wait()

    def _match_unused_params_allreduce(self):
        r"""Join: match the all-reduce of the parameter usage map. / join：陪跑参数使用表的 all-reduce。

        === "中文"

            查找未使用参数时，各进程在反向中对"本地用到了哪些参数"的表做 all-reduce。

        === "English"

            When searching for unused parameters, processes all-reduce the map of "which
            parameters were used locally" during the backward pass.
        """
        locally_used_param_map = self.reducer._get_local_used_map()
        self.process_group.allreduce(locally_used_param_map)

    def join(
        self,
        divide_by_initial_world_size: bool = True,
        enable: bool = True,
        throw_on_early_termination: bool = False,
    ):
        r"""Context manager for training with uneven inputs. / 各进程输入数量不等时训练用的上下文管理器。

        === "中文"

            把训练循环放进 `with ddp.join():`。先用完数据的进程在退出上下文时不会离开，而是
            反复陪跑其它进程的集合通信（见 `_DDPJoinHook`），直到所有进程都用完；最后把最后
            加入者的模型广播给所有进程。

            - `divide_by_initial_world_size=True`（默认）：梯度总是除以初始进程数，每个样本
              权重相同；False 时除以仍在训练的进程数。
            - `throw_on_early_termination=True`：一旦有进程用完数据，所有进程都抛出
              RuntimeError，由用户处理；此时前一个参数被忽略。模型里还有 DDP 之外的集合通信
              （例如 SyncBatchNorm）时必须用它，因为陪跑只认识 DDP 自己的通信。

        === "English"

            Put the training loop inside `with ddp.join():`. A process that runs out of data
            first does not leave on exit; it keeps shadowing the others' collectives (see
            `_DDPJoinHook`) until all have run out, and finally the model of a last joiner is
            broadcast to everyone.

            - `divide_by_initial_world_size=True` (default): gradients are always divided by
              the initial number of processes, weighting every sample alike; False divides by
              the number still training.
            - `throw_on_early_termination=True`: as soon as one process runs out, every process
              raises RuntimeError for the user to handle; the previous argument is then
              ignored. It is required when the model has collectives besides DDP's (such as
              SyncBatchNorm), since the shadowing only knows DDP's own communication.

        Args:
            divide_by_initial_world_size: Average over the initial world size. / 按初始进程数求平均。
            enable: Turn uneven-input detection on. / 是否启用不均匀输入检测。
            throw_on_early_termination: Raise everywhere once one process runs out. / 有进程用完数据时各处都抛出。

        Returns:
            A `Join` context manager. / `Join` 上下文管理器。
        """
        return Join(
            [self],
            enable,
            throw_on_early_termination,
            divide_by_initial_world_size=divide_by_initial_world_size,
        )

    def join_hook(
        self,
        **kwargs,
    ):
        r"""The `JoinHook` for this DDP object. / 本 DDP 对象的 `JoinHook`。

        === "中文"

            `Join` 构造时调用；同一个上下文里的所有 `Joinable` 收到相同的关键字参数，DDP 只读
            `divide_by_initial_world_size`（默认 True）。

        === "English"

            Called when a `Join` is built; all `Joinable`s of one context receive the same
            keyword arguments, of which DDP reads only `divide_by_initial_world_size` (default
            True).

        Args:
            **kwargs: Join options. / join 的选项。

        Returns:
            A `_DDPJoinHook`. / 一个 `_DDPJoinHook`。
        """
        divide_by_initial_world_size = kwargs.get("divide_by_initial_world_size", True)
        return _DDPJoinHook(self, divide_by_initial_world_size=divide_by_initial_world_size)

    @property
    def join_device(self):
        r"""The device for the join's own collectives. / join 自身集合通信所用的设备。

        === "中文"

            即第一个参数所在的设备。

        === "English"

            The device of the first parameter.

        Returns:
            `self.device`. / `self.device`。
        """
        return self.device

    @property
    def join_process_group(self):
        r"""The process group for the join's own collectives. / join 自身集合通信所用的进程组。

        === "中文"

            即 DDP 的进程组。

        === "English"

            DDP's own process group.

        Returns:
            `self.process_group`. / `self.process_group`。
        """
        return self.process_group

    def _register_buffer_comm_hook(
        self,
        state,
        hook: Callable,
        comm_hook_location=_BufferCommHookLocation.POST_FORWARD,
    ):
        r"""Replace the buffer broadcast with a custom hook. / 用自定义钩子替换缓冲区的广播。

        === "中文"

            钩子收到 `(state, {name: buffer})`（名字到缓冲区的字典），可以做任意归约（例如对计数器求和或平均），
            而不是默认的从 rank 0 广播。返回 future 列表时，Reducer 在反向传播结束前等待它们；
            这种用法宜配 `POST_FORWARD`。

        === "English"

            The hook receives `(state, {name: buffer})` and may run any reduction (summing or
            averaging a counter, say) instead of the default broadcast from rank 0. If it returns
            a list of futures, the Reducer awaits them before the backward pass ends; that use
            fits `POST_FORWARD`.

        Args:
            state: Passed to the hook. / 传给钩子。
            hook: The hook. / 钩子。
            comm_hook_location: Before or after the forward pass. / 在前向之前还是之后运行。

        Raises:
            AssertionError: `hook` is not callable. / `hook` 不可调用。
        """
        if not callable(hook):
            raise AssertionError(f"hook must be callable, got {type(hook).__name__}")
        self.buffer_hook = _BufferCommHook(
            buffer_comm_hook=hook,
            buffer_comm_hook_state=state,
            buffer_comm_hook_location=comm_hook_location,
        )

    def register_comm_hook(self, state: object, hook: Callable) -> None:
        r"""Replace how gradient buckets are communicated. / 替换梯度桶的通信方式。

        === "中文"

            `hook(state, bucket)` 在一个桶就绪、且排在它前面的桶都已发出时被调用（桶按次序
            发出），必须返回一个 `torch.futures.Future`，其结果是一个与 `bucket.buffer()` 形状
            相同的张量，Reducer 把它拷回各参数的梯度。
            桶里的梯度**没有**预先除以进程数，求平均要钩子自己做。
            `torch.distributed.algorithms.ddp_comm_hooks` 里现成的有 `allreduce_hook`、
            `fp16_compress_hook`、`bf16_compress_hook`、PowerSGD 等。只能注册一次，且要在第一次
            反向之前。钩子必须有一个名为 `bucket` 的参数，而且要有 `__name__` 与 `__qualname__`：
            检查按名字读它们，所以 `functools.partial` 或带 `__call__` 的对象报 AttributeError
            （与 torch 相同），要包成一个函数再注册。

        === "English"

            `hook(state, bucket)` is called when a bucket is ready and every bucket before it
            has gone out (buckets go out in order); it must return a
            `torch.futures.Future` whose result is one tensor shaped like `bucket.buffer()`,
            which the Reducer copies back into the parameters' gradients. The bucket's gradients
            are *not* pre-divided by the number of processes; averaging is the hook's job.
            Ready-made ones in `torch.distributed.algorithms.ddp_comm_hooks` include
            `allreduce_hook`, `fp16_compress_hook`, `bf16_compress_hook` and PowerSGD. It can be
            registered once only, before the first backward. The hook must have a parameter
            named `bucket` and must have `__name__` and `__qualname__`: the checks read them, so
            a `functools.partial` or an object with `__call__` raises AttributeError (as in
            torch); wrap it in a function before registering.

        Args:
            state: Per-process state passed to the hook (error feedback, a process group, ...). / 传给钩子的本进程状态（误差反馈、进程组等）。
            hook: `hook(state, bucket) -> Future[Tensor]`. / `hook(state, bucket) -> Future[Tensor]`。

        Raises:
            TypeError: Not callable, or BF16 without CUDA+NCCL or XPU+XCCL. / 不可调用，或没有 CUDA+NCCL 或 XPU+XCCL 却用 BF16。
            ValueError: Wrong annotations. / 类型标注不对。
            KeyError: No parameter named `bucket`. / 没有名为 `bucket` 的参数。
            AttributeError: The hook has no `__name__` (e.g. `functools.partial`). / 钩子没有 `__name__`（例如 `functools.partial`）。
            RuntimeError: A comm hook was already registered. / 已经注册过通信钩子。
        """
        # 中: 先检查钩子，再把名字记进日志，最后交给 Reducer（它拒绝第二次注册）。
        # EN: Check the hook, record its name in the log, then hand it to the Reducer (which
        # EN: refuses a second registration).
        self._check_comm_hook(hook)
        if self.logger is None:
            raise AssertionError("self.logger must not be None")
        self.logger._set_comm_hook_name(hook.__qualname__)
        self._comm_hooks.append((hook, state))
        dist._register_comm_hook(self.reducer, state, hook)

    def _register_builtin_comm_hook(self, comm_hook_type):
        r"""Register one of the C++ built-in comm hooks. / 注册 C++ 内置的通信钩子之一。

        === "中文"

            `dist.BuiltinCommHookType.ALLREDUCE` 或 `FP16_COMPRESS`，在 C++ 里实现，省去
            Python 钩子的开销。同样只能注册一次。

        === "English"

            `dist.BuiltinCommHookType.ALLREDUCE` or `FP16_COMPRESS`, implemented in C++ and
            sparing the overhead of a Python hook. Also registrable once only.

        Args:
            comm_hook_type: A `dist.BuiltinCommHookType`. / 一个 `dist.BuiltinCommHookType`。
        """
        if self.logger is None:
            raise AssertionError("self.logger must not be None")
        self.logger._set_comm_hook_name(str(comm_hook_type))
        dist._register_builtin_comm_hook(self.reducer, comm_hook_type)

    def _register_fused_optim(self, optim: type, *args, optim_params=None, **kwargs):
        r"""Run an optimizer on each parameter as soon as its gradient is reduced. / 每个参数的梯度一归约完就运行优化器。

        === "中文"

            优化与其余梯度的通信重叠，且一次只需一个参数的优化器状态。只能注册一次，不能与
            `register_comm_hook`、梯度累积或 `no_sync` 组合。

        === "English"

            Optimization overlaps with the communication of the remaining gradients, and only
            one parameter's optimizer state is needed at a time. Registrable once only, and not
            combinable with `register_comm_hook`, gradient accumulation or `no_sync`.

        Args:
            optim: A `torch.optim.Optimizer` class. / `torch.optim.Optimizer` 的一个类。
            *args: Passed to `optim`. / 传给 `optim`。
            optim_params: Parameters to optimize (default: all DDP's). / 要优化的参数（默认 DDP 的全部参数）。
            **kwargs: Passed to `optim`. / 传给 `optim`。

        Raises:
            RuntimeError: `optim` does not support overlapping. / `optim` 不支持重叠。
        """
        from torch.distributed.algorithms._optimizer_overlap import _as_overlapped_optim

        overlapped_optim = _as_overlapped_optim(optim, optim_params, *args, **kwargs)
        try:
            overlapped_optim.register_ddp(self)
        except NotImplementedError as e:
            raise RuntimeError(
                f"{optim} does not support overlapped DDP. Please file an issue to PyTorch or the respective owner of {optim}."
            ) from e

    def _distributed_broadcast_coalesced(self, tensors, buffer_size, authoritative_rank=0):
        r"""Broadcast tensors from one rank, packed in batches. / 从一个 rank 广播张量，打包成批。

        === "中文"

            `dist._broadcast_coalesced` 按 `buffer_size` 字节把张量拼成扁平的批次广播，
            再拆回原张量（就地写入）。

        === "English"

            `dist._broadcast_coalesced` packs the tensors into flat batches sized by
            `buffer_size` bytes, broadcasts them and unpacks into the original tensors
            (in-place).

        Args:
            tensors: The tensors. / 张量。
            buffer_size: Batch size in bytes. / 批大小（字节）。
            authoritative_rank: The source rank. / 源 rank。
        """
        dist._broadcast_coalesced(self.process_group, tensors, buffer_size, authoritative_rank)

    def _check_sync_bufs_post_fwd(self):
        r"""Whether to sync buffers after forward. / 是否在前向后同步缓冲区。

        === "中文"

            `will_sync_module_buffers()` 成立，并且注册了位置为 `POST_FORWARD` 的缓冲区钩子时
            才是。

        === "English"

            When `will_sync_module_buffers()` holds and a buffer hook is registered at
            `POST_FORWARD`.

        Returns:
            The decision. / 判断结果。
        """
        return (
            self.will_sync_module_buffers()
            and hasattr(self, "buffer_hook")
            and self.buffer_hook.buffer_comm_hook_location == _BufferCommHookLocation.POST_FORWARD
        )

    def _check_sync_bufs_pre_fwd(self):
        r"""Whether to sync buffers before forward. / 是否在前向前同步缓冲区。

        === "中文"

            `will_sync_module_buffers()` 成立，并且没有缓冲区钩子（默认广播）或钩子位置是
            `PRE_FORWARD` 时是。

        === "English"

            When `will_sync_module_buffers()` holds and there is no buffer hook (the default
            broadcast) or one at `PRE_FORWARD`.

        Returns:
            The decision. / 判断结果。
        """
        return self.will_sync_module_buffers() and (
            not hasattr(self, "buffer_hook")
            or self.buffer_hook.buffer_comm_hook_location == _BufferCommHookLocation.PRE_FORWARD
        )

    def will_sync_module_buffers(self):
        r"""Whether buffers are synced in this forward. / 本次前向是否同步缓冲区。

        === "中文"

            三个条件：上一次前向属于要同步梯度的一轮（开启梯度、不在 `no_sync()` 里；所以
            `no_sync()` 之后的第一次前向不广播）、开启了 `forward_sync_buffers`、确实有缓冲区。

        === "English"

            Three conditions: the previous forward belonged to an iteration that syncs gradients
            (grad enabled, outside `no_sync()`; so the first forward after `no_sync()` broadcasts
            nothing), `forward_sync_buffers` is on, and there are buffers.

        Returns:
            The decision. / 判断结果。
        """
        return (
            self.require_forward_param_sync
            and self.forward_sync_buffers
            and len(self.modules_buffers) > 0
        )

    def _find_common_rank(self, input_rank, rank_cond):
        r"""The largest rank among those whose `rank_cond` holds. / `rank_cond` 成立的进程中最大的 rank。

        === "中文"

            条件不成立的进程贡献 -1，对所有进程取最大值。结果为 -1 说明没有任何进程满足条件，
            这是 PyTorch 的 bug。

        === "English"

            A process whose condition fails contributes -1, and the maximum over all processes
            is taken. A result of -1 means no process qualified, which is a PyTorch bug.

        Args:
            input_rank: This process's rank. / 本进程的 rank。
            rank_cond: Whether this process is a candidate. / 本进程是否是候选。

        Returns:
            The agreed rank. / 商定的 rank。

        Raises:
            ValueError: No candidate at all. / 没有任何候选。
        """
        # 中: 一个元素的张量放在 DDP 的设备上，对全体进程取最大值。
        # EN: A one-element tensor on DDP's device, maximized over all processes.
        rank_to_use = torch.tensor(
            [input_rank if rank_cond else -1],
            device=self.device,
        )
        dist.all_reduce(rank_to_use, op=ReduceOp.MAX, group=self.process_group)
        # 中: 没有候选就是 bug；结果以 Python 数返回。
        # EN: No candidate means a bug; the result is returned as a Python number.
        if rank_to_use.item() == -1:
            self._log_and_throw(
                ValueError,
                "BUG! Expected rank_cond to be true for at least one process."
                " This indicates a bug in PyTorch, please report an issue.",
            )
        return rank_to_use.item()

    def _sync_buffers(self):
        r"""Sync the module's buffers from the authoritative rank. / 从权威 rank 同步模块的缓冲区。

        === "中文"

            平时权威 rank 是 0；在 join 中 rank 0 可能已经加入、缓冲区已过时，于是在仍训练的
            进程中商定一个：`_find_common_rank` 取其中最大的 rank。只要开启了 join
            （`with ddp.join():` 之内），即使还没有进程加入也这样做，所以那时广播源是最后一个
            rank，不是 0。同步是对缓冲区的就地写入，但不增加它们的版本计数：若先前某次前向
            为反向保存了缓冲区、而那次反向还没运行（例如两次前向之后才一次反向），反向时就不会
            报"已被就地修改"的错。

        === "English"

            Normally the authoritative rank is 0; in a join rank 0 may have joined already with
            stale buffers, so one is agreed on among those still training: `_find_common_rank`
            takes the largest of their ranks. This holds whenever join is enabled (inside
            `with ddp.join():`), even before any process has joined, so the source is then the
            last rank, not 0. The sync writes the
            buffers in-place without bumping their version counters: if an earlier forward saved
            a buffer for a backward pass that has not run yet (two forwards before one backward,
            say), that backward does not fail with "modified by an inplace operation".
        """
        with torch.no_grad():
            if self._join_config.enable:
                authoritative_rank = self._find_common_rank(self._distributed_rank, True)
            else:
                authoritative_rank = 0
            # 中: 缓冲区可能被重新赋值过，先刷新列表。
            # EN: Buffers may have been reassigned; refresh the list first.
            self._assign_modules_buffers()
            with torch.autograd._unsafe_preserve_version_counter(tuple(self.modules_buffers)):
                self._sync_module_buffers(authoritative_rank)

    def _sync_module_buffers(self, authoritative_rank):
        r"""Broadcast the buffers, or run the buffer comm hook. / 广播缓冲区，或运行缓冲区通信钩子。

        === "中文"

            钩子返回的 future 交给 Reducer，在反向结束前等待。

        === "English"

            Futures returned by the hook go to the Reducer, awaited before the backward pass
            ends.

        Args:
            authoritative_rank: The source rank of the broadcast. / 广播的源 rank。
        """
        if not hasattr(self, "buffer_hook"):
            self._default_broadcast_coalesced(authoritative_rank=authoritative_rank)
        else:
            hook = self.buffer_hook.buffer_comm_hook
            state = self.buffer_hook.buffer_comm_hook_state
            futs = hook(state, self.named_module_buffers)
            if futs is not None:
                self.reducer._install_post_backward_futures(futs)

    def _default_broadcast_coalesced(self, bufs=None, bucket_size=None, authoritative_rank=0):
        r"""Broadcast buffers, with the defaults filled in. / 广播缓冲区，缺省值自动补上。

        === "中文"

            缺省时用 `self.modules_buffers` 与 `self.broadcast_bucket_size`（250 MiB）。

        === "English"

            Defaults are `self.modules_buffers` and `self.broadcast_bucket_size` (250 MiB).

        Args:
            bufs: The tensors (default: the module's buffers). / 张量（默认模块的缓冲区）。
            bucket_size: Batch size in bytes. / 批大小（字节）。
            authoritative_rank: The source rank. / 源 rank。
        """
        if bufs is None:
            bufs = self.modules_buffers
        if bucket_size is None:
            bucket_size = self.broadcast_bucket_size
        self._distributed_broadcast_coalesced(bufs, bucket_size, authoritative_rank)

    def _passing_sync_batchnorm_handle(self, module):
        r"""Refuse SyncBatchNorm on CPU. / 拒绝 CPU 上的 SyncBatchNorm。

        === "中文"

            SyncBatchNorm 的同步路径只支持 GPU，所以 CPU 上的模型里只要有一个 `SyncBatchNorm`，
            构造就失败，报错与 torch 相同。annotated_nn 与 torch.nn 的 `SyncBatchNorm` 都认（见文件
            开头的 DIFF）。

        === "English"

            SyncBatchNorm's synchronized path works on GPUs only, so a CPU model holding any
            `SyncBatchNorm` fails to construct, with torch's error. Both annotated_nn's and
            torch.nn's `SyncBatchNorm` count (see the DIFF at the top of the file).

        Args:
            module: The wrapped module. / 被包装的模块。

        Raises:
            ValueError: SyncBatchNorm in a CPU module. / CPU 模块里有 SyncBatchNorm。
        """
        # 中: 通过 `_log_and_throw` 抛出：错误先记进 Logger 的数据，再抛给用户。
        # EN: Raised through `_log_and_throw`: the error is recorded in the Logger's data first.
        for layer in module.modules():
            if isinstance(layer, _SYNC_BATCHNORM_CLASSES) and self.device_type == "cpu":
                self._log_and_throw(
                    ValueError,
                    "SyncBatchNorm layers only work with GPU modules",
                )

    def _check_comm_hook(self, hook):
        r"""Validate a comm hook before registering it. / 注册前检查通信钩子。

        === "中文"

            必须可调用；若参数 `bucket` 或返回值带了类型标注，标注必须分别是
            `dist.GradBucket` 与 `torch.futures.Future[torch.Tensor]`（按名字查 `bucket` 参数：
            没有这个名字的参数时，查找 `sig.parameters["bucket"]` 抛 KeyError；它在第几个位置
            不管）。BF16 压缩钩子按 `hook.__name__` 识别，需要 CUDA+NCCL 2.10 以上或
            XPU+XCCL，所以在纯 CPU 的 gloo 上注册它会报 TypeError；没有 `__name__` 的可调用对象
            （`functools.partial`、带 `__call__` 的实例）在这里报 AttributeError。

        === "English"

            It must be callable; if the `bucket` parameter or the return value is annotated,
            the annotations must be `dist.GradBucket` and `torch.futures.Future[torch.Tensor]`
            (`bucket` is looked up by name: with no parameter of that name the lookup
            `sig.parameters["bucket"]` raises KeyError; its position does not matter). The BF16
            compression hooks are recognized by `hook.__name__` and need CUDA+NCCL 2.10 or later,
            or XPU+XCCL, so registering one on CPU-only gloo raises TypeError; a callable without
            `__name__` (a `functools.partial`, an instance with `__call__`) raises AttributeError
            here.

        Args:
            hook: The hook. / 钩子。

        Raises:
            TypeError: Not callable, or BF16 unsupported. / 不可调用，或不支持 BF16。
            ValueError: Wrong annotations. / 类型标注不对。
            KeyError: No parameter named `bucket`. / 没有名为 `bucket` 的参数。
            AttributeError: The hook has no `__name__`. / 钩子没有 `__name__`。
        """
        if not callable(hook):
            self._log_and_throw(TypeError, "Communication hook must be callable.")

        # 中: 只检查写了的标注；`inspect._empty` 表示没写。
        # EN: Only annotations that are present are checked; `inspect._empty` means absent.
        sig = inspect.signature(hook)
        if (
            sig.parameters["bucket"].annotation != inspect._empty
            and sig.parameters["bucket"].annotation != dist.GradBucket
        ):
            # 中: 标注写了别的类型，说明钩子的签名与 DDP 的约定不符。
            # EN: Another annotated type means the hook's signature does not match DDP's
            # EN: contract.
            self._log_and_throw(
                ValueError,
                "Communication hook: bucket annotation should be dist.GradBucket.",
            )
        # 中: 返回值标注同理。
        # EN: Likewise for the return annotation.
        if (
            sig.return_annotation != inspect._empty
            and sig.return_annotation != torch.futures.Future[torch.Tensor]
        ):
            self._log_and_throw(
                ValueError,
                "Communication hook: return annotation should be torch.futures.Future[torch.Tensor].",
            )

        # 中: BF16：两条支持的路径之一必须可用；`and` 短路，没有 NCCL 时不会去查它的版本。
        # EN: BF16: one of the two supported paths must be available; `and` short-circuits, so
        # EN: the NCCL version is not queried without NCCL.
        if hook.__name__ in ["bf16_compress_hook", "bf16_compress_wrapper_hook"]:
            cuda_supported = (torch.version.cuda is not None) or torch.version.hip is not None
            # 中: NCCL 要 2.10 以上；XPU 要 XCCL 且有 XPU 设备。
            # EN: NCCL must be 2.10 or later; XPU needs XCCL and an XPU device.
            nccl_supported = (
                dist.is_available()
                and dist.is_nccl_available()
                and torch.cuda.nccl.version() >= (2, 10)
            )
            xpu_xccl_supported = (
                dist.is_available() and dist.is_xccl_available() and torch.xpu.is_available()
            )
            # 中: 两条路都不通就报 TypeError，文字与 torch 相同。
            # EN: With neither path available it raises TypeError, with torch's text.
            if not ((cuda_supported and nccl_supported) or xpu_xccl_supported):
                self._log_and_throw(
                    TypeError,
                    "BF16 all reduce communication hook required CUDA 11+ and NCCL 2.10+ or XPU and XCCL",
                )

    @property
    def _distributed_rank(self):
        r"""This process's rank in DDP's group. / 本进程在 DDP 进程组中的 rank。

        === "中文"

            每次读取都向进程组询问。

        === "English"

            Asks the process group on every read.

        Returns:
            The rank. / 本进程的 rank。
        """
        return dist.get_rank(self.process_group)

    @staticmethod
    def _get_data_parallel_params(module, named_params=False):
        r"""The parameters DDP manages: those not marked `_ddp_ignored`. / DDP 管理的参数：没有 `_ddp_ignored` 标记的参数。

        === "中文"

            反向中运行优化器的通信钩子用它找参数。

        === "English"

            The comm hook that runs optimizers in the backward pass uses it to find
            parameters.

        Args:
            module: The module. / 模块。
            named_params: Yield `(name, param)` pairs. / 产出 `(name, param)` 对。

        Yields:
            Parameters, or pairs. / 参数或名字与参数对。
        """
        # 中: 注意 `named_params=True` 时产出的是 tuple，`hasattr` 检查的是 tuple 本身，
        # 中: 所以此时什么都不会被滤掉（与 torch 相同）。
        # EN: Note that with `named_params=True` the items are tuples and `hasattr` tests the
        # EN: tuple itself, so nothing is filtered out then (as in torch).
        for param in module.parameters() if not named_params else module.named_parameters():
            if not hasattr(param, "_ddp_ignored"):
                yield param

    @staticmethod
    def _set_params_and_buffers_to_ignore_for_model(module, params_and_buffers_to_ignore):
        r"""Mark parameters and buffers, by full name, for DDP to ignore. / 按全名标记让 DDP 忽略的参数与缓冲区。

        === "中文"

            在包装之前对模型调用。名字用全限定名（`submodule.param`，子模块名加参数名）。被忽略的参数不归约、
            不广播，缓冲区也不同步；它们还被打上 `_ddp_ignored` 标记。

        === "English"

            Call it on the model before wrapping. Names are fully qualified
            (`submodule.param`). Ignored parameters are neither reduced nor broadcast, and
            ignored buffers are not synced; they are also flagged `_ddp_ignored`.

        Args:
            module: The model. / 模型。
            params_and_buffers_to_ignore: Full names to ignore. / 要忽略的全名。
        """
        module._ddp_params_and_buffers_to_ignore = params_and_buffers_to_ignore
        for name, param in module.named_parameters():
            if name in params_and_buffers_to_ignore:
                param._ddp_ignored = True
        for name, buffer in module.named_buffers():
            if name in params_and_buffers_to_ignore:
                buffer._ddp_ignored = True

    def _get_ddp_logging_data(self):
        r"""A dict of DDP's logging data, for debugging. / DDP 日志数据组成的字典，用于调试。

        === "中文"

            构造参数、桶大小、进程组信息、运行时统计等；训练一段后若
            `can_set_static_graph` 为真，通常可以打开 `static_graph`。

        === "English"

            Constructor arguments, bucket sizes, process-group facts, runtime stats and so on;
            if `can_set_static_graph` is true after some training, `static_graph` can usually
            be turned on.

        Returns:
            String entries merged with integer entries. / 字符串项与整数项合并的字典。
        """
        if self.logger is None:
            raise AssertionError("self.logger must not be None")
        ddp_logging_data = self.logger._get_ddp_logging_data()
        return {**ddp_logging_data.strs_map, **ddp_logging_data.ints_map}

    def _set_ddp_runtime_logging_sample_rate(self, sample_rate):
        r"""How often runtime stats are sampled. / 运行时统计的采样频率。

        === "中文"

            前 10 轮总会记录，之后每 `sample_rate` 轮记录一次（默认 100）。

        === "English"

            The first 10 iterations are always recorded, then one in every `sample_rate`
            (default 100).

        Args:
            sample_rate: At least 1. / 至少为 1。

        Raises:
            ValueError: `sample_rate < 1`. / `sample_rate < 1`。
        """
        if sample_rate < 1:
            self._log_and_throw(
                ValueError,
                "DDP runtime logging sample rate should be equal or greater than 1",
            )
        self.reducer._set_ddp_runtime_logging_sample_rate(sample_rate)

    def _set_static_graph(self):
        r"""Declare the graph static. / 声明计算图是静态的。

        === "中文"

            静态图：每轮用到的参数集合与计算方式都不变。于是第一轮记录下来即可，不必每轮
            遍历图找未使用参数；还支持可重入的反向、多次激活检查点等。第一轮的 all-reduce
            延迟到整个反向结束（见 `_DDPSink`）。推荐用构造参数 `static_graph=True`，它在内部
            调用这里。重复设置只警告；同时开了 `find_unused_parameters` 也警告（不需要）。

        === "English"

            A static graph: the set of used parameters and the way they are computed never
            change between iterations. So recording the first iteration suffices, with no graph
            walk for unused parameters each iteration; reentrant backward, repeated activation
            checkpointing and the like also work. The first iteration's all-reduce is delayed
            to the end of the backward pass (see `_DDPSink`). The constructor argument
            `static_graph=True` is preferred; it calls this internally. Setting it twice only
            warns; so does also having `find_unused_parameters` on (it is not needed).
        """
        if self.static_graph:
            warnings.warn(
                "You've set static_graph to be True, no need to set it again.",
                stacklevel=2,
            )
            return
        # 中: 标志、Reducer 与 Logger 三处都要知道。
        # EN: The flag, the Reducer and the Logger must all know.
        self.static_graph = True
        self._static_graph_delay_allreduce_enqueued = False
        self.reducer._set_static_graph()
        if self.logger is None:
            raise AssertionError("self.logger must not be None")
        self.logger._set_static_graph()
        # 中: 静态图自己会找出未用的参数，`find_unused_parameters` 多余，提醒一下。
        # EN: A static graph finds unused parameters by itself, so `find_unused_parameters` is
        # EN: redundant; a reminder is issued.
        if self.find_unused_parameters:
            # 中: `stacklevel=2` 指向调用 `_set_static_graph` 的那一行（构造时即构造函数内部）。
            # EN: `stacklevel=2` points at the line calling `_set_static_graph` (inside the
            # EN: constructor when set at construction).
            warnings.warn(
                "You passed find_unused_parameters=true to DistributedDataParallel, "
                "`_set_static_graph` will detect unused parameters automatically, so "
                "you do not need to set find_unused_parameters=true, just be sure these "
                "unused parameters will not change during training loop while calling "
                "`_set_static_graph`.",
                stacklevel=2,
            )

    def _remove_autograd_hooks(self):
        r"""Remove the Reducer's hooks from the parameters. / 从参数上移除 Reducer 的钩子。

        === "中文"

            之后反向传播不再触发梯度归约。

        === "English"

            Afterwards the backward pass no longer triggers gradient reduction.
        """
        self.reducer._remove_autograd_hooks()

    def _check_reducer_finalized(self):
        r"""Check that the Reducer finished the last backward pass. / 检查 Reducer 是否完成了上一次反向。

        === "中文"

            在 `.backward()` 之后调用，能及早发现某些桶没有完成归约的问题，而不是在后面出现
            难以定位的错误。

        === "English"

            Called after `.backward()`, it catches buckets that did not finish reducing early,
            rather than as a hard-to-trace error later.
        """
        self.reducer._check_reducer_finalized()

    def _set_sparse_metadata(self, global_unique_ids):
        r"""Pass sparse-gradient metadata to the Reducer. / 把稀疏梯度的元数据交给 Reducer。

        === "中文"

            原样转交。

        === "English"

            Passed on unchanged.

        Args:
            global_unique_ids: Per-parameter tensors of unique ids. / 逐参数的唯一 id 张量。
        """
        self.reducer._set_sparse_metadata(global_unique_ids)

    def _update_process_group(self, new_process_group):
        r"""Switch to another process group without rebuilding DDP. / 不重建 DDP 而换一个进程组。

        === "中文"

            用于动态缩放进程数：重置 Reducer 状态并强制重建桶；本进程不在新组里时只重置。
            自定义通信钩子里的进程组要用户自己更新。

        === "English"

            For growing or shrinking the world: resets the Reducer's state and forces a bucket
            rebuild; if this process is not in the new group, it only resets. Process groups
            inside custom comm hooks are the user's to update.

        Args:
            new_process_group: The new group. / 新的进程组。
        """
        self._has_rebuilt_buckets = False
        self.reducer._reset_state()
        if not _rank_not_in_group(new_process_group):
            self.process_group = new_process_group
            self.reducer._update_process_group(new_process_group)

    def _set_ddp_sink_clone(self, val: bool):
        r"""Whether `_DDPSink` clones the outputs. / `_DDPSink` 是否 clone 输出。

        === "中文"

            默认 True；不会就地修改损失时可以设为 False，省下 clone 的内存与时间。

        === "English"

            True by default; when the loss is never modified in-place it can be False, saving
            the memory and time of the clone.

        Args:
            val: The flag. / 开关值。
        """
        self._ddp_sink_clone = val
