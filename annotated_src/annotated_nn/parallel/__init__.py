r"""Data parallelism, as in `torch.nn.parallel`. / 数据并行，对应 `torch.nn.parallel`。

=== "中文"

    `DataParallel`（单进程多 GPU）及它的四个步骤函数：`scatter`、`replicate`、`parallel_apply`、
    `gather`，还有函数式版本 `data_parallel`。这些都在这里重写，作用于 annotated_nn 的模块。

    `DistributedDataParallel` 是 PyTorch 自己的类，原样转出：它的核心（梯度分桶、
    all-reduce 与反向传播的重叠）在 C++ 的 `Reducer` 里，不属于模块系统。它可以直接包装
    annotated_nn 的模型，见测试 `tests/test_ddp.py`。

=== "English"

    `DataParallel` (one process, many GPUs) and its four step functions `scatter`, `replicate`,
    `parallel_apply`, `gather`, plus the functional `data_parallel`, rewritten here to work on
    annotated_nn modules.

    `DistributedDataParallel` is PyTorch's own class, re-exported unchanged: its core (gradient
    bucketing, overlapping all-reduce with the backward pass) lives in the C++ `Reducer`, not in
    the module system. It wraps annotated_nn models directly; see `tests/test_ddp.py`.
"""

# DIFF(torch 2.13):
# 中: DistributedDataParallel 是 torch 的原类（torch.nn.Module 的子类）；已弃用的
# 中: DistributedDataParallelCPU 不提供。
# EN: DistributedDataParallel is torch's own class (a torch.nn.Module subclass); the deprecated
# EN: DistributedDataParallelCPU is not provided.
from torch.nn.parallel.distributed import DistributedDataParallel

from annotated_nn.parallel.data_parallel import DataParallel, data_parallel
from annotated_nn.parallel.parallel_apply import parallel_apply
from annotated_nn.parallel.replicate import replicate
from annotated_nn.parallel.scatter_gather import gather, scatter

__all__ = [
    "replicate",
    "scatter",
    "parallel_apply",
    "gather",
    "data_parallel",
    "DataParallel",
    "DistributedDataParallel",
]
