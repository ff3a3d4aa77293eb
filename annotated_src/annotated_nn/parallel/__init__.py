r"""Data parallelism, as in `torch.nn.parallel`. / 数据并行，对应 `torch.nn.parallel`。

=== "中文"

    `DataParallel`（单进程多 GPU）及它的四个步骤函数：`scatter`、`replicate`、`parallel_apply`、
    `gather`，还有函数式版本 `data_parallel`。这些都在这里重写，作用于 annotated_nn 的模块。

    `DistributedDataParallel`（多进程）也在这里重写成 annotated_nn 的模块；它的核心（梯度分桶、
    all-reduce 与反向传播的重叠）仍由 torch 的 C++ `Reducer` 完成。

=== "English"

    `DataParallel` (one process, many GPUs) and its four step functions `scatter`, `replicate`,
    `parallel_apply`, `gather`, plus the functional `data_parallel`, rewritten here to work on
    annotated_nn modules.

    `DistributedDataParallel` (many processes) is rewritten here too, as an annotated_nn module;
    its core (gradient bucketing, overlapping all-reduce with the backward pass) is still done by
    torch's C++ `Reducer`.
"""

# DIFF(torch 2.13):
# 中: 已弃用的 DistributedDataParallelCPU 不提供。
# EN: The deprecated DistributedDataParallelCPU is not provided.
from annotated_nn.parallel.data_parallel import DataParallel, data_parallel
from annotated_nn.parallel.distributed import DistributedDataParallel
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
