r"""Single-process, multi-GPU data parallelism: `DataParallel`. / 单进程多 GPU 数据并行：`DataParallel`。

=== "中文"

    `DataParallel` 是一个只有一个子模块（submodule）`module` 的包装模块。每次前向传播（forward pass）
    分四步：**scatter**（把 batch 沿 `dim` 切到各 GPU）→ **replicate**（把模块复制到各 GPU）→
    **parallel_apply**（多线程在各 GPU 上同时运行副本）→ **gather**（把输出拼回 `output_device`）。
    反向传播（backward pass）时，autograd 沿 Gather → 副本 → Broadcast 原路返回，`Broadcast` 把
    各 GPU 上的梯度求和到原模块的参数（parameter）上。

    没有 GPU 时（`device_ids` 为空）它只是直接调用 `module`，这让同一份代码在 CPU 上也能运行。
    PyTorch 官方推荐多卡训练改用 `torch.nn.parallel.DistributedDataParallel`（多进程，没有 GIL
    争用，也不必每步复制模块）。

=== "English"

    `DataParallel` is a wrapper module with one submodule, `module`. Each forward pass has four
    steps: **scatter** (chunk the batch along `dim` across GPUs) → **replicate** (copy the module
    to each GPU) → **parallel_apply** (run the replicas concurrently in threads) → **gather**
    (concatenate the outputs on `output_device`). In the backward pass autograd retraces Gather →
    replicas → Broadcast, and `Broadcast` sums the per-GPU gradients into the original module's
    parameters.

    Without a GPU (`device_ids` empty) it simply calls `module`, so the same code also runs on a
    CPU. PyTorch recommends `torch.nn.parallel.DistributedDataParallel` for multi-GPU training
    (multiple processes, no GIL contention, no per-step replication).
"""

import operator
import warnings
from collections.abc import Sequence
from itertools import chain
from typing import Any, Generic, TypeVar

import torch
from torch._utils import (
    _get_all_device_indices,
    _get_available_device_type,
    _get_device_index,
    _get_devices_properties,
)

from annotated_nn.modules.module import Module
from annotated_nn.parallel.parallel_apply import parallel_apply
from annotated_nn.parallel.replicate import replicate
from annotated_nn.parallel.scatter_gather import gather, scatter_kwargs

__all__ = ["DataParallel", "data_parallel"]


def _check_balance(device_ids: Sequence[int | torch.device]) -> None:
    r"""Warn when one GPU is much weaker than another. / 当某块 GPU 明显弱于其它 GPU 时发出警告。

    === "中文"

        数据并行把 batch 平均分给各卡，整体速度取决于最慢的一张卡。先比较显存总量，
        再比较 SM（流多处理器）数量；任一项最小值不到最大值的 75% 就警告，并提示排除那张卡。
        显存已经不平衡时不再检查 SM 数量，避免重复警告。

    === "English"

        Data parallelism splits the batch evenly, so the slowest card sets the pace. It compares
        total memory first, then the number of SMs (streaming multiprocessors); if the minimum
        is below 75% of the maximum it warns and suggests excluding that card. Once memory is
        found imbalanced the SM count is not checked, to avoid a second warning.

    Args:
        device_ids: The GPUs in use. / 使用的 GPU。
    """
    imbalance_warn = """
    There is an imbalance between your GPUs. You may want to exclude GPU {} which
    has less than 75% of the memory or cores of GPU {}. You can do so by setting
    the device_ids argument to DataParallel, or by setting the CUDA_VISIBLE_DEVICES
    environment variable."""
    # 中: 把 `torch.device` 统一成整数编号（警告里写的就是这些编号），再一次性取出每张卡的设备属性。
    # EN: Normalize `torch.device`s to integer indices (the warning names these), then fetch every
    # EN: card's device properties once.
    device_ids = [_get_device_index(x, True) for x in device_ids]
    dev_props = _get_devices_properties(device_ids)

    def warn_imbalance(get_prop: Any) -> bool:
        r"""Warn if `get_prop` varies by more than 25%; say whether it did. / 若 `get_prop` 取出的属性差异超过 25% 则警告，并返回是否警告。

        === "中文"

            `get_prop` 从设备属性对象里取出一个数值（显存或 SM 数）。

        === "English"

            `get_prop` extracts one number (memory or SM count) from a device properties object.

        Args:
            get_prop: Function from device properties to a number. / 从设备属性取数值的函数。

        Returns:
            Whether a warning was issued. / 是否发出了警告。
        """
        # 中: 找出最小值和最大值所在的位置；并列时 `min`/`max` 都取列表中靠前的那一个。
        # EN: Find where the minimum and the maximum sit; on ties `min`/`max` both take the
        # EN: earlier position in the list.
        values = [get_prop(props) for props in dev_props]
        min_pos, min_val = min(enumerate(values), key=operator.itemgetter(1))
        max_pos, max_val = max(enumerate(values), key=operator.itemgetter(1))
        # 中: 阈值是严格的：最小值恰好是最大值的 75% 时不警告。警告给出的是用户的设备编号
        # 中: `device_ids[min_pos]`，不是列表下标；返回 True 告诉调用方已经警告过了。
        # EN: The threshold is strict: a minimum of exactly 75% of the maximum does not warn. The
        # EN: message gives the user's device index `device_ids[min_pos]`, not the list position;
        # EN: returning True tells the caller a warning was issued.
        if min_val / max_val < 0.75:
            warnings.warn(
                imbalance_warn.format(device_ids[min_pos], device_ids[max_pos]), stacklevel=2
            )
            return True
        return False

    # 中: 先比显存总量，再比 SM 数；显存已经警告过就直接返回，所以最多只有一条警告。
    # EN: Total memory first, then the SM count; once memory has warned it returns at once, so
    # EN: at most one warning is issued.
    if warn_imbalance(lambda props: props.total_memory):
        return
    if warn_imbalance(lambda props: props.multi_processor_count):
        return


T = TypeVar("T", bound=Module)


class DataParallel(Module, Generic[T]):
    r"""Run `module` on several GPUs by splitting the batch. / 把 batch 切开，在多块 GPU 上运行 `module`。

    === "中文"

        构造时确定设备：`device_ids` 默认是全部可见 GPU，`output_device` 默认是 `device_ids[0]`。
        被包装的模块必须已经在 `device_ids[0]` 上（只有一张卡时构造函数会替你 `.to()` 过去）。

        需要记住的几点：

        - 每次前向传播都重新复制模块，副本在 `forward` 里对属性的修改（例如计数器 `+= 1`）会丢失；
          但 `device_ids[0]` 上副本的参数与缓冲区（buffer）和原模块共享存储，所以**就地**更新
          （例如 BatchNorm 更新 `running_mean`）会保留下来。
        - 模块及其子模块上的钩子（hook）会被调用 `len(device_ids)` 次，每次的输入在不同设备上。
        - 模块返回 0 维标量时（`dim=0`，即默认值），结果是长度等于所用设备数的向量（每个设备
          一个值），并伴有一条警告。
        - 没有可用 GPU 时 `device_ids == []`，`forward` 直接调用 `module`，这时连 `dim`、
          `output_device` 属性都不会被设置（与 PyTorch 相同）。

        1.5.1 → 2.13：设备探测从只认 CUDA 改为通过 `_get_available_device_type()` 支持其它
        加速器（MPS 视为不可并行，直接调用）；`forward` 支持没有任何参数的调用；
        `scatter`/`gather` 保留 namedtuple 的类型（dict 与只有关键字参数的调用 1.5.1 已经支持）。

    === "English"

        Devices are fixed at construction: `device_ids` defaults to all visible GPUs,
        `output_device` to `device_ids[0]`. The wrapped module must already live on
        `device_ids[0]` (with a single card the constructor moves it there for you with
        `.to()`).

        Points to remember:

        - The module is replicated on every forward pass, so attribute changes a replica makes
          in `forward` (a counter `+= 1`) are lost; but the replica on `device_ids[0]` shares
          storage with the original's parameters and buffers, so **in-place** updates (BatchNorm
          updating `running_mean`) are kept.
        - Hooks on the module and its submodules run `len(device_ids)` times, each with inputs
          on a different device.
        - A module returning a 0-dim scalar yields (with `dim=0`, the default) a vector with one
          value per device used, along with a warning.
        - Without a usable GPU, `device_ids == []` and `forward` calls `module` directly; then
          even `dim` and `output_device` are not set (as in PyTorch).

        1.5.1 → 2.13: device discovery went from CUDA-only to `_get_available_device_type()`,
        covering other accelerators (MPS counts as not parallelizable and is called directly);
        `forward` accepts calls without any argument; `scatter`/`gather` keep namedtuple types
        (dicts and keyword-only calls already worked in 1.5.1).

    Args:
        module: The module to parallelize. / 要并行的模块。
        device_ids: GPUs to use (default: all). / 使用的 GPU（默认全部）。
        output_device: Where outputs are gathered (default: `device_ids[0]`). / 输出汇总到哪个设备（默认 `device_ids[0]`）。
        dim: The batch dimension to split. / 要切分的 batch 维度。

    Attributes:
        module: The wrapped module. / 被包装的模块。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> net = nn.DataParallel(nn.Linear(3, 2))
        >>> net(torch.randn(4, 3)).shape
        torch.Size([4, 2])
    """

    def __init__(
        self,
        module: T,
        device_ids: Sequence[int | torch.device] | None = None,
        output_device: int | torch.device | None = None,
        dim: int = 0,
    ) -> None:
        r"""Wrap `module` and resolve the devices. / 包装 `module` 并确定设备。

        === "中文"

            没有加速器或只有 MPS 时只记录 `module` 和空的 `device_ids` 就返回。
            否则把设备写成整数编号，记录源设备 `src_device_obj`（副本从它广播出去），
            在 CUDA 上检查各卡是否均衡；只有一张卡时把模块搬到那张卡上。

        === "English"

            With no accelerator, or only MPS, it records `module` and an empty `device_ids` and
            returns. Otherwise it normalizes devices to integer indices, records the source
            device `src_device_obj` (replicas are broadcast from it), checks on CUDA that the
            cards are balanced, and with a single card moves the module onto it.

        Args:
            module: The module to parallelize. / 要并行的模块。
            device_ids: GPUs to use (default: all). / 使用的 GPU（默认全部）。
            output_device: Where outputs are gathered. / 输出汇总到的设备。
            dim: The batch dimension to split. / 要切分的 batch 维度。

        Raises:
            RuntimeError: No devices were found. / 找不到可用设备。
        """
        # 中: 先初始化 Module 的内部字典，之后 `self.module = module` 才会把它登记为子模块；
        # 中: 再记录一次 API 使用（PyTorch 的使用统计，与计算结果无关）。
        # EN: Initialize Module's internal dicts first, so that `self.module = module` registers a
        # EN: submodule; then log the API use (PyTorch's usage logging, no effect on results).
        super().__init__()
        torch._C._log_api_usage_once("torch.nn.parallel.DataParallel")
        # 中: 没有加速器，或加速器是 MPS：不做并行，只记下 `module` 和空的 `device_ids`，`forward`
        # 中: 看到空列表就直接调用模块。提前返回意味着 `dim`、`output_device`、`src_device_obj` 都不存在。
        # EN: No accelerator, or MPS: no parallelism. Only `module` and an empty `device_ids` are
        # EN: kept, and `forward` calls the module directly on seeing the empty list. Returning
        # EN: early means `dim`, `output_device` and `src_device_obj` do not exist.
        device_type = _get_available_device_type()
        if device_type is None or device_type == "mps":
            self.module = module
            self.device_ids = []
            return

        # 中: 默认用全部可见设备。随后的 None 检查只是防御：对 `_get_available_device_type()` 能返回的
        # 中: 每种设备类型，`_get_all_device_indices()` 都返回一个列表。报错文字与 PyTorch 相同。
        # EN: Default to every visible device. The None check that follows is a guard: for each
        # EN: device type `_get_available_device_type()` can return, `_get_all_device_indices()`
        # EN: returns a list. The error text matches PyTorch's.
        if device_ids is None:
            device_ids = _get_all_device_indices()

        if device_ids is None:
            raise RuntimeError("no available devices were found")

        if output_device is None:
            output_device = device_ids[0]

        # 中: 设备一律规整成整数编号。`_get_device_index(..., True)` 不接受 CPU 设备：
        # 中: `output_device="cpu"` 在这里就抛 ValueError；旧写法 `-1` 是整数，能通过，
        # 中: `gather` 之后把输出放到 CPU 上，并发出 FutureWarning。
        # EN: Devices are normalized to integer indices. `_get_device_index(..., True)` rejects CPU
        # EN: devices: `output_device="cpu"` raises ValueError right here; the old spelling `-1` is
        # EN: an int and passes, and `gather` then puts the output on the CPU with a FutureWarning.
        self.dim = dim
        self.module = module
        self.device_ids = [_get_device_index(x, True) for x in device_ids]
        self.output_device = _get_device_index(output_device, True)
        # 中: 广播的源设备：每次前向传播，副本都从 `device_ids[0]` 上的原模块广播出去。
        # EN: The broadcast source: on every forward pass the replicas are broadcast from the
        # EN: original module on `device_ids[0]`.
        self.src_device_obj = torch.device(device_type, self.device_ids[0])

        # 中: 只在 CUDA 上检查各卡是否均衡（比较的是 CUDA 设备属性里的显存与 SM 数）。
        # EN: Only CUDA gets the balance check (it compares memory and SM counts from CUDA's
        # EN: device properties).
        if device_type == "cuda":
            _check_balance(self.device_ids)

        # 中: 只有一张卡时替用户把模块搬过去；多卡时不搬，模块必须自己已经在 `device_ids[0]` 上，
        # 中: 否则 `forward` 会报错。
        # EN: With a single card the module is moved there for the user; with several it is not
        # EN: moved, and it must already be on `device_ids[0]` or `forward` raises.
        if len(self.device_ids) == 1:
            self.module.to(self.src_device_obj)

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        r"""Scatter, replicate, run in parallel, gather. / 切分、复制、并行运行、汇总。

        === "中文"

            没有设备时直接调用 `module`。只有一张卡时不复制，直接在那张卡上调用。
            多卡时注意：输入切出的块数可能少于卡数（batch 太小），此时只复制到用得上的那几张卡。

        === "English"

            With no devices it calls `module` directly. With one card there is no replication:
            the module runs on that card. With several, the input may split into fewer chunks
            than cards (a small batch); only the cards in use get a replica.

        Args:
            *inputs: Positional inputs; tensors are split along `dim`. / 位置输入；张量沿 `dim` 切分。
            **kwargs: Keyword inputs; tensors are split too. / 关键字输入；张量同样切分。

        Returns:
            The module's output, gathered on `output_device`. / 汇总到 `output_device` 上的输出。

        Raises:
            RuntimeError: A parameter or buffer is not on `device_ids[0]`. / 有参数或缓冲区不在 `device_ids[0]` 上。
        """
        # 中: 整个调用在 profiler 里显示为一段 "DataParallel.forward"。没有设备（CPU 或 MPS）时
        # 中: 原样直接调用模块，输入不做任何处理。
        # EN: The whole call shows up in the profiler as one "DataParallel.forward" range. With no
        # EN: devices (CPU or MPS) the module is called directly, inputs untouched.
        with torch.autograd.profiler.record_function("DataParallel.forward"):
            if not self.device_ids:
                return self.module(*inputs, **kwargs)

            # 中: 副本从 `device_ids[0]` 广播出去，因此源模块的全部参数与缓冲区必须已经在那里。
            # 中: 这个检查每次调用都遍历全部张量；报错文字与 PyTorch 相同。
            # EN: Replicas are broadcast from `device_ids[0]`, so every parameter and buffer of the
            # EN: source module must already be there. The check walks all tensors on every call;
            # EN: the error text matches PyTorch's.
            for t in chain(self.module.parameters(), self.module.buffers()):
                if t.device != self.src_device_obj:
                    raise RuntimeError(
                        "module must have its parameters and buffers "
                        f"on device {self.src_device_obj} (device_ids[0]) but found one of "
                        f"them on device: {t.device}"
                    )

            # 中: scatter：张量沿 `dim` 切块、拷到各卡，其它对象每卡共享同一个引用。块数可能少于
            # 中: 卡数（batch 较小时），之后只用前 `len(inputs)` 张卡。位置参数与关键字参数各自切分，
            # 中: 再由 `scatter_kwargs` 补齐长度（它的补齐规则有个怪癖，见其文档）。
            # EN: scatter: tensors are chunked along `dim` and copied to the cards; other objects
            # EN: are shared by reference. There may be fewer chunks than cards (a small batch);
            # EN: only the first `len(inputs)` cards are used then. Positional and keyword
            # EN: arguments are scattered separately and padded by `scatter_kwargs` (whose rule has
            # EN: a quirk; see it).
            inputs, module_kwargs = self.scatter(inputs, kwargs, self.device_ids)
            # 中: 完全没有输入时造一份空参数，让模块在第一张卡上运行一次；否则对空的份数列表取
            # 中: `[0]`（在下面或在 `parallel_apply` 里）会抛 IndexError。
            # EN: With no input at all, make one empty argument set so the module runs once, on the
            # EN: first card; otherwise taking `[0]` of the empty share list (below, or inside
            # EN: `parallel_apply`) raises IndexError.
            if not inputs and not module_kwargs:
                inputs = ((),)
                module_kwargs = ({},)

            # 中: 只有一张卡时不复制、不开线程：模块已在那张卡上，直接用（已拷到该卡的）输入调用，
            # 中: 返回值也不经过 gather，所以不会被移到 `output_device`。
            # EN: With a single card there is no replication and no thread: the module is already
            # EN: there and is called on the inputs (already copied to that card); the result skips
            # EN: gather, so it is not moved to `output_device`.
            if len(self.device_ids) == 1:
                return self.module(*inputs[0], **module_kwargs[0])
            # 中: replicate：每次前向传播都重新复制模块（广播全部参数与缓冲区、浅拷贝每个子模块），
            # 中: 这是 DataParallel 每一步的固定开销。开启梯度时，副本的参数是可微 `Broadcast` 的
            # 中: 输出，所以反向传播时各卡的梯度经 `Broadcast.backward` 求和到 `device_ids[0]`，
            # 中: 累加进原参数的 `.grad`。
            # EN: replicate: the module is copied anew on every forward pass (every parameter and
            # EN: buffer broadcast, every submodule shallow-copied), DataParallel's fixed per-step
            # EN: cost. With grad enabled, replica parameters are outputs of the differentiable
            # EN: `Broadcast`, so in the backward pass `Broadcast.backward` sums the per-card
            # EN: gradients onto `device_ids[0]`, and they accumulate into the original parameters'
            # EN: `.grad`.
            replicas = self.replicate(self.module, self.device_ids[: len(inputs)])
            # 中: parallel_apply：每个副本一个线程同时运行；gather：各卡输出沿 `dim` 拼接到
            # 中: `output_device`（`Gather` 也是 autograd Function，反向时把梯度切回各卡）。
            # EN: parallel_apply: one thread per replica, run concurrently; gather: the per-card
            # EN: outputs are concatenated along `dim` on `output_device` (`Gather` is an autograd
            # EN: Function too and splits the gradient back to the cards in the backward pass).
            outputs = self.parallel_apply(replicas, inputs, module_kwargs)
            return self.gather(outputs, self.output_device)

    def replicate(self, module: T, device_ids: Sequence[int | torch.device]) -> list[T]:
        r"""Replicate `module` onto `device_ids`. / 把 `module` 复制到 `device_ids`。

        === "中文"

            在 `torch.no_grad()` 下（推理）用 `detach=True`，不为广播建立 autograd 图。
            子类可以重写这四个步骤方法来定制行为。

        === "English"

            Under `torch.no_grad()` (inference) it passes `detach=True`, building no autograd
            graph for the broadcast. Subclasses may override these four step methods.

        Args:
            module: The module to copy. / 要复制的模块。
            device_ids: Target devices. / 目标设备。

        Returns:
            One replica per device. / 每个设备一个副本。
        """
        return replicate(module, device_ids, not torch.is_grad_enabled())

    def scatter(
        self,
        inputs: tuple[Any, ...],
        kwargs: dict[str, Any] | None,
        device_ids: Sequence[int | torch.device],
    ) -> Any:
        r"""Split inputs and kwargs across `device_ids` along `self.dim`. / 沿 `self.dim` 把输入和关键字参数切到 `device_ids`。

        === "中文"

            委托给 [`scatter_kwargs`][annotated_nn.parallel.scatter_gather.scatter_kwargs]，
            按构造时记录的 `self.dim` 切分。

        === "English"

            Delegates to [`scatter_kwargs`][annotated_nn.parallel.scatter_gather.scatter_kwargs],
            splitting along the `self.dim` recorded at construction.

        Args:
            inputs: Positional inputs. / 位置输入。
            kwargs: Keyword inputs. / 关键字输入。
            device_ids: Target devices. / 目标设备。

        Returns:
            `(per-device inputs, per-device kwargs)`. / `(每设备输入, 每设备关键字参数)`。
        """
        return scatter_kwargs(inputs, kwargs, device_ids, dim=self.dim)

    def parallel_apply(
        self, replicas: Sequence[T], inputs: Sequence[Any], kwargs: Any
    ) -> list[Any]:
        r"""Run the replicas concurrently. / 并行运行各副本。

        === "中文"

            委托给 [`parallel_apply`][annotated_nn.parallel.parallel_apply.parallel_apply]，
            设备取 `device_ids` 的前 `len(replicas)` 个。

        === "English"

            Delegates to [`parallel_apply`][annotated_nn.parallel.parallel_apply.parallel_apply]
            with the first `len(replicas)` of `device_ids`.

        Args:
            replicas: The replicas. / 各副本。
            inputs: Per-replica inputs. / 每个副本的输入。
            kwargs: Per-replica kwargs. / 每个副本的关键字参数。

        Returns:
            The outputs in replica order. / 按副本顺序的输出。
        """
        return parallel_apply(replicas, inputs, kwargs, self.device_ids[: len(replicas)])

    def gather(self, outputs: Any, output_device: int | torch.device) -> Any:
        r"""Concatenate the replicas' outputs on `output_device`. / 把各副本输出拼接到 `output_device`。

        === "中文"

            委托给 [`gather`][annotated_nn.parallel.scatter_gather.gather]，沿 `self.dim` 拼接。

        === "English"

            Delegates to [`gather`][annotated_nn.parallel.scatter_gather.gather], concatenating
            along `self.dim`.

        Args:
            outputs: Per-replica outputs. / 各副本的输出。
            output_device: Target device. / 目标设备。

        Returns:
            The gathered output. / 汇总后的输出。
        """
        return gather(outputs, output_device, dim=self.dim)


def data_parallel(
    module: Module,
    inputs: Any,
    device_ids: Sequence[int | torch.device] | None = None,
    output_device: int | torch.device | None = None,
    dim: int = 0,
    module_kwargs: Any | None = None,
) -> torch.Tensor:
    r"""Functional `DataParallel`: evaluate `module(inputs)` across GPUs once. / 函数式的 `DataParallel`：在多 GPU 上计算一次 `module(inputs)`。

    === "中文"

        与 [`DataParallel`][annotated_nn.parallel.data_parallel.DataParallel] 的 `forward` 走同样的四步，
        但不创建包装模块，每次调用都重新确定设备。一个不对称之处（PyTorch 原样如此）：
        没有加速器时它报错 `device type could not be determined`，而不是像 `DataParallel` 那样直接调用模块。
        `inputs` 不是 tuple 时被包成单元素 tuple（`None` 表示没有位置参数）。

    === "English"

        Takes the same four steps as
        [`DataParallel`][annotated_nn.parallel.data_parallel.DataParallel]'s `forward` but builds
        no wrapper and resolves devices on every call. One asymmetry (PyTorch's own): without an
        accelerator it raises `device type could not be determined` instead of calling the
        module directly as `DataParallel` does. A non-tuple `inputs` is wrapped in a one-element
        tuple (`None` meaning no positional arguments).

    Args:
        module: The module to evaluate. / 要计算的模块。
        inputs: Its input(s). / 它的输入。
        device_ids: GPUs to replicate on (default: all). / 复制到哪些 GPU（默认全部）。
        output_device: Where the output goes; -1 for the CPU (default: `device_ids[0]`). / 输出位置，-1 为 CPU（默认 `device_ids[0]`）。
        dim: The batch dimension to split. / 要切分的 batch 维度。
        module_kwargs: Keyword arguments for the module. / 模块的关键字参数。

    Returns:
        `module(*inputs, **module_kwargs)` on `output_device`. / 位于 `output_device` 上的结果。

    Raises:
        RuntimeError: No accelerator, no devices, or a tensor not on `device_ids[0]`. / 没有加速器、没有设备，或有张量不在 `device_ids[0]`。
        AssertionError: Internal inconsistency after scatter. / 切分后出现内部不一致。
    """
    # 中: `inputs` 规整成位置参数 tuple：非 tuple 是唯一的参数，`None` 表示没有位置参数。
    # 中: 所以要把一个 tuple 当作单个参数传入，得再包一层 `(t,)`。
    # EN: `inputs` becomes the positional-argument tuple: a non-tuple is the single argument,
    # EN: `None` means none. So to pass one tuple as a single argument, wrap it again: `(t,)`.
    if not isinstance(inputs, tuple):
        inputs = (inputs,) if inputs is not None else ()

    # 中: 与 `DataParallel.__init__` 不同，这里没有"没有加速器就直接调用"的退路，而是报错；
    # 中: MPS 也不会被排除。设备在每次调用时重新确定。
    # EN: Unlike `DataParallel.__init__` there is no "no accelerator, call directly" fallback: it
    # EN: raises; MPS is not filtered out either. Devices are resolved again on every call.
    device_type = _get_available_device_type()

    if device_type is None:
        raise RuntimeError("device type could not be determined")

    # 中: 默认设备与输出位置的规则同 `DataParallel.__init__`（第二个 None 检查同样只是防御）。
    # EN: Same defaults for devices and output as `DataParallel.__init__` (the second None check
    # EN: is likewise a guard).
    if device_ids is None:
        device_ids = _get_all_device_indices()

    if device_ids is None:
        raise RuntimeError("no available devices were found")

    if output_device is None:
        output_device = device_ids[0]

    # 中: 规整成整数编号（`output_device` 除了 `-1` 也不接受 CPU）；`src_device_obj` 是广播源。
    # EN: Normalize to integer indices (`output_device` rejects the CPU too, except as `-1`);
    # EN: `src_device_obj` is the broadcast source.
    device_ids = [_get_device_index(x, True) for x in device_ids]
    output_device = _get_device_index(output_device, True)
    src_device_obj = torch.device(device_type, device_ids[0])

    # 中: 参数与缓冲区都必须在广播源上；检查与报错文字同 `DataParallel.forward`。
    # EN: Every parameter and buffer must be on the broadcast source; the check and the error
    # EN: text are those of `DataParallel.forward`.
    for t in chain(module.parameters(), module.buffers()):
        if t.device != src_device_obj:
            raise RuntimeError(
                "module must have its parameters and buffers "
                f"on device {src_device_obj} (device_ids[0]) but found one of "
                f"them on device: {t.device}"
            )

    # 中: 切分输入；完全没有输入时造一份空参数，与 `DataParallel.forward` 相同。
    # EN: Scatter the inputs; with no input at all, make one empty argument set, as
    # EN: `DataParallel.forward` does.
    inputs, module_kwargs = scatter_kwargs(inputs, module_kwargs, device_ids, dim)
    if not inputs and not module_kwargs:
        inputs = ((),)
        module_kwargs = ({},)

    # 中: 只为类型检查收窄类型：`scatter_kwargs` 总是返回 tuple，这个断言不会触发。
    # EN: Only narrows the type for checkers: `scatter_kwargs` always returns tuples, so this
    # EN: assertion never fires.
    if module_kwargs is None:
        raise AssertionError("module_kwargs should not be None after scatter_kwargs")

    # 中: 单卡不复制。多卡时只复制到用得上的卡；注意这里不传 `detach`（`DataParallel.replicate`
    # 中: 在 `no_grad` 下会传 True），所以参数总是经 autograd 的 `Broadcast` 广播。
    # EN: One card: no replication. Several: replicate onto the cards in use only; note `detach`
    # EN: is not passed (`DataParallel.replicate` passes True under `no_grad`), so parameters
    # EN: always go through the autograd `Broadcast`.
    if len(device_ids) == 1:
        return module(*inputs[0], **module_kwargs[0])
    used_device_ids = device_ids[: len(inputs)]
    replicas = replicate(module, used_device_ids)
    outputs = parallel_apply(replicas, inputs, module_kwargs, used_device_ids)
    return gather(outputs, output_device, dim)
