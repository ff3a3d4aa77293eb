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
    device_ids = [_get_device_index(x, True) for x in device_ids]
    dev_props = _get_devices_properties(device_ids)

    def warn_imbalance(get_prop: Any) -> bool:
        r"""Warn if `get_prop` varies by more than 25%; say whether it did. / 若某属性差异超过 25% 则警告，并返回是否警告。

        === "中文"

            `get_prop` 从设备属性对象里取出一个数值（显存或 SM 数）。

        === "English"

            `get_prop` extracts one number (memory or SM count) from a device properties object.

        Args:
            get_prop: Function from device properties to a number. / 从设备属性取数值的函数。

        Returns:
            Whether a warning was issued. / 是否发出了警告。
        """
        values = [get_prop(props) for props in dev_props]
        min_pos, min_val = min(enumerate(values), key=operator.itemgetter(1))
        max_pos, max_val = max(enumerate(values), key=operator.itemgetter(1))
        if min_val / max_val < 0.75:
            warnings.warn(
                imbalance_warn.format(device_ids[min_pos], device_ids[max_pos]), stacklevel=2
            )
            return True
        return False

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
        - 模块返回 0 维标量时，结果是长度等于设备数的向量（每个设备一个值）。
        - 没有可用 GPU 时 `device_ids == []`，`forward` 直接调用 `module`，这时连 `dim`、
          `output_device` 属性都不会被设置（与 PyTorch 相同）。

        1.5.1 → 2.13：设备探测从只认 CUDA 改为通过 `_get_available_device_type()` 支持其它
        加速器（MPS 视为不可并行，直接调用）；`forward` 支持只有关键字参数或没有参数的调用；
        `scatter`/`gather` 支持 dict 与 namedtuple。

    === "English"

        Devices are fixed at construction: `device_ids` defaults to all visible GPUs,
        `output_device` to `device_ids[0]`. The wrapped module must already live on
        `device_ids[0]` (with a single card the constructor moves it there for you).

        Points to remember:

        - The module is replicated on every forward pass, so attribute changes a replica makes
          in `forward` (a counter `+= 1`) are lost; but the replica on `device_ids[0]` shares
          storage with the original's parameters and buffers, so **in-place** updates (BatchNorm
          updating `running_mean`) are kept.
        - Hooks on the module and its submodules run `len(device_ids)` times, each with inputs
          on a different device.
        - A module returning a 0-dim scalar yields a vector with one value per device.
        - Without a usable GPU, `device_ids == []` and `forward` calls `module` directly; then
          even `dim` and `output_device` are not set (as in PyTorch).

        1.5.1 → 2.13: device discovery went from CUDA-only to `_get_available_device_type()`,
        covering other accelerators (MPS counts as not parallelizable and is called directly);
        `forward` accepts keyword-only or argument-less calls; `scatter`/`gather` handle dicts
        and namedtuples.

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
        super().__init__()
        torch._C._log_api_usage_once("torch.nn.parallel.DataParallel")
        device_type = _get_available_device_type()
        if device_type is None or device_type == "mps":
            self.module = module
            self.device_ids = []
            return

        if device_ids is None:
            device_ids = _get_all_device_indices()

        if device_ids is None:
            raise RuntimeError("no available devices were found")

        if output_device is None:
            output_device = device_ids[0]

        self.dim = dim
        self.module = module
        self.device_ids = [_get_device_index(x, True) for x in device_ids]
        self.output_device = _get_device_index(output_device, True)
        self.src_device_obj = torch.device(device_type, self.device_ids[0])

        if device_type == "cuda":
            _check_balance(self.device_ids)

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
        with torch.autograd.profiler.record_function("DataParallel.forward"):
            if not self.device_ids:
                return self.module(*inputs, **kwargs)

            # 中: 副本从 device_ids[0] 广播出去，因此源模块的全部张量必须已经在那里。
            # EN: Replicas are broadcast from device_ids[0], so every tensor of the source module
            #     must already be there.
            for t in chain(self.module.parameters(), self.module.buffers()):
                if t.device != self.src_device_obj:
                    raise RuntimeError(
                        "module must have its parameters and buffers "
                        f"on device {self.src_device_obj} (device_ids[0]) but found one of "
                        f"them on device: {t.device}"
                    )

            inputs, module_kwargs = self.scatter(inputs, kwargs, self.device_ids)
            # 中: 完全没有输入时造一份空参数，让模块至少在第一张卡上运行一次。
            # EN: With no input at all, make one empty argument set so the module runs once,
            #     on the first card.
            if not inputs and not module_kwargs:
                inputs = ((),)
                module_kwargs = ({},)

            if len(self.device_ids) == 1:
                return self.module(*inputs[0], **module_kwargs[0])
            replicas = self.replicate(self.module, self.device_ids[: len(inputs)])
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
    if not isinstance(inputs, tuple):
        inputs = (inputs,) if inputs is not None else ()

    device_type = _get_available_device_type()

    if device_type is None:
        raise RuntimeError("device type could not be determined")

    if device_ids is None:
        device_ids = _get_all_device_indices()

    if device_ids is None:
        raise RuntimeError("no available devices were found")

    if output_device is None:
        output_device = device_ids[0]

    device_ids = [_get_device_index(x, True) for x in device_ids]
    output_device = _get_device_index(output_device, True)
    src_device_obj = torch.device(device_type, device_ids[0])

    for t in chain(module.parameters(), module.buffers()):
        if t.device != src_device_obj:
            raise RuntimeError(
                "module must have its parameters and buffers "
                f"on device {src_device_obj} (device_ids[0]) but found one of "
                f"them on device: {t.device}"
            )

    inputs, module_kwargs = scatter_kwargs(inputs, module_kwargs, device_ids, dim)
    if not inputs and not module_kwargs:
        inputs = ((),)
        module_kwargs = ({},)

    if module_kwargs is None:
        raise AssertionError("module_kwargs should not be None after scatter_kwargs")

    if len(device_ids) == 1:
        return module(*inputs[0], **module_kwargs[0])
    used_device_ids = device_ids[: len(inputs)]
    replicas = replicate(module, used_device_ids)
    outputs = parallel_apply(replicas, inputs, module_kwargs, used_device_ids)
    return gather(outputs, output_device, dim)
