r"""Train a reference model with our `DistributedDataParallel` under `torchrun`, then checkpoint it. / 在 `torchrun` 下用我们的 `DistributedDataParallel` 训练参考模型并保存检查点。

=== "中文"

    单机两个进程：

        torchrun --standalone --nproc_per_node=2 -m annotated_examples.train_ddp

    两台机器、每台两个进程（在每台机器上运行同一条命令，`HOST` 是其中一台机器的地址）：

        torchrun --nnodes=2 --nproc_per_node=2 --rdzv_backend=c10d \
            --rdzv_endpoint=HOST:29400 -m annotated_examples.train_ddp

    `torchrun` 为每个进程设置环境变量 `RANK`、`WORLD_SIZE`、`LOCAL_RANK`、`LOCAL_WORLD_SIZE`
    （以及 `MASTER_ADDR`/`MASTER_PORT`），脚本据此调用 `dist.init_process_group`：CPU 上用 `gloo`，
    每台机器的 GPU 数不少于本机进程数时用 `nccl`，进程 `LOCAL_RANK` 使用 `cuda:LOCAL_RANK`。
    不经 `torchrun` 直接运行 `python -m annotated_examples.train_ddp` 时，脚本自己建立只有一个
    进程的进程组，同样能跑完。

    每个进程从同一个种子用 `annotated_nn` 构建模型，套上
    [`DistributedDataParallel`][annotated_nn.parallel.distributed.DistributedDataParallel]，
    用 `annotated_optim.SGD` 训练。合成数据集由 `DistributedSampler` 按 rank 切成几份（除了
    为凑整而补上的样本，互不相交），每个 epoch 开始时调用 `set_epoch` 换一种洗牌顺序。
    反向传播（backward pass）中 DDP 把各进程的梯度取平均，所以每一步之后所有进程的参数
    （parameter）都相同。进度条和打印只出现在 rank 0 上。

    训练结束后 rank 0 把 `{"model", "optimizer", "epoch"}` 用 `torch.save` 写到
    `--checkpoint`，再用 `torch.load(path, weights_only=True)` 读回、装进一个新模型和新优化器来
    检验；其它进程在 `dist.barrier()` 处等它写完。给出 `--dcp-dir` 时，所有进程还会用
    `torch.distributed.checkpoint`（DCP）保存并读回状态字典（state_dict）。
    `--reference torch` 把整套实现换成 `torch.nn`、torch 的 DDP 和 `torch.optim`，两次运行的
    检查点里的张量应逐位相同。

=== "English"

    One machine, two processes:

        torchrun --standalone --nproc_per_node=2 -m annotated_examples.train_ddp

    Two machines with two processes each (run the same command on both; `HOST` is the address
    of one of them):

        torchrun --nnodes=2 --nproc_per_node=2 --rdzv_backend=c10d \
            --rdzv_endpoint=HOST:29400 -m annotated_examples.train_ddp

    `torchrun` gives every process the environment variables `RANK`, `WORLD_SIZE`,
    `LOCAL_RANK`, `LOCAL_WORLD_SIZE` (and `MASTER_ADDR`/`MASTER_PORT`), from which the script
    calls `dist.init_process_group`: `gloo` on CPUs, `nccl` when each machine has at least as
    many GPUs as local processes, process `LOCAL_RANK` then using `cuda:LOCAL_RANK`. Run without
    `torchrun` (`python -m annotated_examples.train_ddp`), the script makes a process group of
    one process itself and still runs to the end.

    Every process builds the model with `annotated_nn` from the same seed, wraps it in
    [`DistributedDataParallel`][annotated_nn.parallel.distributed.DistributedDataParallel] and
    trains it with `annotated_optim.SGD`. A `DistributedSampler` splits the synthetic data set
    into shards by rank (disjoint apart from the samples repeated to even them out), and
    `set_epoch` at the start of every epoch changes the shuffle. During the backward pass DDP
    averages the gradients over the processes, so after every step all processes hold the same
    parameters. The progress bar and the printed lines come from rank 0 only.

    At the end rank 0 writes `{"model", "optimizer", "epoch"}` with `torch.save` to
    `--checkpoint`, then reads it back with `torch.load(path, weights_only=True)` and loads it
    into a fresh model and optimizer as a check; the other processes wait at `dist.barrier()`
    until it is written. With `--dcp-dir`, all processes also save and load the state_dict with
    `torch.distributed.checkpoint` (DCP). `--reference torch` swaps the whole stack for
    `torch.nn`, torch's DDP and `torch.optim`; the tensors in the two runs' checkpoints should be
    bit-identical.
"""

import argparse
import os
import sys
import tempfile
import time
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
import torch.nn.functional as F
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset
from tqdm import tqdm

import annotated_nn
import annotated_optim
from annotated_examples.models import build_mlp, build_simplenet
from annotated_examples.train import make_dataset
from annotated_nn.parallel.distributed import DistributedDataParallel

# 中: 两套实现：模块系统、DDP 包装类、优化器包。`--reference` 选其中一套，其余代码不变。
# EN: The two stacks: module system, DDP wrapper class, optimizer package. `--reference` picks
# EN: one; the rest of the code is the same for both.
STACKS = {
    "annotated": types.SimpleNamespace(
        nn=annotated_nn, DDP=DistributedDataParallel, optim=annotated_optim
    ),
    "torch": types.SimpleNamespace(
        nn=torch.nn, DDP=torch.nn.parallel.DistributedDataParallel, optim=torch.optim
    ),
}

# 中: 两个参考模型都接受 `1×32×32` 图像：MLP 展平后有 `32*32 = 1024` 个输入特征。
# EN: Both reference models take `1×32×32` images: flattened, the MLP sees `32*32 = 1024`
# EN: input features.
MODELS: dict[str, Callable[[Any], Any]] = {
    "simplenet": build_simplenet,
    "mlp": lambda nn: build_mlp(nn, in_features=32 * 32, hidden=(64,)),
}

DEFAULT_CHECKPOINT = Path(tempfile.gettempdir()) / "annotated_examples" / "train_ddp.pt"


def init_distributed() -> tuple[int, int, torch.device]:
    r"""Join the process group `torchrun` describes; pick backend and device. / 加入 `torchrun` 描述的进程组，选定后端与设备。

    === "中文"

        `torchrun` 设置了 `RANK` 时走标准的 `env://` 初始化：`init_process_group` 从环境变量读
        `MASTER_ADDR`、`MASTER_PORT`、`RANK`、`WORLD_SIZE`。没有 `RANK`（直接用 `python` 运行）时，
        用进程内的 `HashStore` 建一个只有一个进程的组。

    === "English"

        When `torchrun` has set `RANK`, this is the standard `env://` initialization:
        `init_process_group` reads `MASTER_ADDR`, `MASTER_PORT`, `RANK`, `WORLD_SIZE` from the
        environment. Without `RANK` (run with plain `python`), an in-process `HashStore` makes
        a group of one process.

    Returns:
        `(rank, world_size, device)` of this process. / 本进程的 `(rank, world_size, device)`。
    """
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    local_world_size = int(os.environ.get("LOCAL_WORLD_SIZE", 1))
    # 中: NCCL 要求每个进程独占一块 GPU，所以本机 GPU 不够分时退回 CPU 上的 gloo。
    # 中: `set_device` 必须在建组之前，NCCL 的通信器才会建在这块卡上。
    # EN: NCCL wants one GPU per process, so with too few local GPUs we fall back to gloo on the
    # EN: CPU. `set_device` comes before the group is made, so NCCL's communicator uses this GPU.
    if torch.cuda.is_available() and torch.cuda.device_count() >= local_world_size:
        backend, device = "nccl", torch.device("cuda", local_rank)
        torch.cuda.set_device(device)
    else:
        backend, device = "gloo", torch.device("cpu")
    # 中: 单进程时 `HashStore` 就够了：没有别的进程需要通过 TCP 来会合。
    # EN: For one process a `HashStore` is enough: no other process has to meet it over TCP.
    if "RANK" in os.environ:
        dist.init_process_group(backend)
    else:
        dist.init_process_group(backend, store=dist.HashStore(), rank=0, world_size=1)
    return dist.get_rank(), dist.get_world_size(), device


def make_loader(
    num_samples: int, batch_size: int, seed: int
) -> tuple[DataLoader, DistributedSampler]:
    r"""This rank's shard of the synthetic data set. / 本 rank 分到的那份合成数据。

    === "中文"

        每个进程都生成完整的数据集（同一个种子，所以内容相同），再由 `DistributedSampler` 只取
        属于本 rank 的下标：先按 `seed + epoch` 洗牌，补齐到进程数的整数倍，然后 rank `r` 取第
        `r, r + world_size, ...` 个。合起来覆盖整个数据集；除了补齐时重复的那几个，不同 rank
        的下标互不相交。

    === "English"

        Every process generates the whole data set (same seed, so the same content), and the
        `DistributedSampler` keeps only this rank's indices: it shuffles with `seed + epoch`,
        pads to a multiple of the number of processes, and rank `r` takes entries
        `r, r + world_size, ...`. Together they cover the set; apart from the entries repeated by
        the padding, the ranks' indices are disjoint.

    Args:
        num_samples: Size of the whole data set. / 整个数据集的大小。
        batch_size: Samples per step on each rank. / 每个 rank 每步的样本数。
        seed: Seed of the data and of the shuffle. / 数据与洗牌的种子。

    Returns:
        The loader and its sampler (for `set_epoch`). / 数据加载器及其采样器（用于 `set_epoch`）。
    """
    images, labels = make_dataset(num_samples, seed + 1, torch.device("cpu"))
    sampler = DistributedSampler(TensorDataset(images, labels), shuffle=True, seed=seed)
    return DataLoader(sampler.dataset, batch_size=batch_size, sampler=sampler), sampler


def train_epochs(
    model: Any,
    optimizer: Any,
    loader: DataLoader,
    sampler: DistributedSampler,
    epochs: int,
    device: torch.device,
) -> None:
    r"""The training loop; progress and per-epoch losses on rank 0 only. / 训练循环；进度与每个 epoch 的损失只在 rank 0 显示。

    === "中文"

        每步是普通的单机写法：`zero_grad`、前向、`backward`、`step`。分布式只藏在两处：
        `model` 是 DDP 包装后的模块，它在 `backward` 期间把梯度跨进程取平均；`sampler` 每个 epoch
        都要 `set_epoch`，否则每个 epoch 的顺序都一样。打印的损失是所有进程本 epoch 见过的全部
        样本的平均，由一次 `all_reduce` 求得。

    === "English"

        Each step is written as on one machine: `zero_grad`, forward, `backward`, `step`. The
        distribution hides in two places: `model` is the DDP-wrapped module, which averages
        gradients across processes during `backward`; and the `sampler` needs `set_epoch` every
        epoch, else every epoch repeats the same order. The printed loss is the mean over every
        sample all processes saw this epoch, from one `all_reduce`.

    Args:
        model: The DDP-wrapped model. / DDP 包装后的模型。
        optimizer: Optimizer over `model.parameters()`. / 作用于 `model.parameters()` 的优化器。
        loader: This rank's data loader. / 本 rank 的数据加载器。
        sampler: The loader's `DistributedSampler`. / 加载器的 `DistributedSampler`。
        epochs: Passes over the data. / 遍历数据的轮数。
        device: Where the batches go. / 批数据放在哪个设备。
    """
    is_rank0 = dist.get_rank() == 0
    for epoch in range(epochs):
        # 中: 洗牌种子是 `seed + epoch`：所有 rank 用同一个排列，各取自己的那份。
        # EN: The shuffle seed is `seed + epoch`: all ranks share one permutation, each takes
        # EN: its own part of it.
        sampler.set_epoch(epoch)
        loss_total, sample_count = 0.0, 0
        progress = tqdm(
            loader, desc=f"epoch {epoch + 1}/{epochs}", unit="step", disable=not is_rank0
        )
        for x, y in progress:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), y)
            # 中: DDP 的 C++ `Reducer` 在这次 `backward` 里分桶做 all-reduce，返回时每个参数的
            # 中: `.grad` 已是各进程梯度的平均，`step` 因此在所有 rank 上做同样的更新。
            # EN: DDP's C++ `Reducer` all-reduces gradients bucket by bucket during this
            # EN: `backward`; on return each `.grad` is the mean over processes, so `step` makes
            # EN: the same update on every rank.
            loss.backward()
            optimizer.step()
            loss_total, sample_count = loss_total + loss.item() * len(y), sample_count + len(y)
        # 中: `all_reduce` 是集合通信：每个 rank 都必须调用，哪怕只有 rank 0 打印结果。
        # EN: `all_reduce` is a collective: every rank must call it, even though only rank 0
        # EN: prints the result.
        totals = torch.tensor([loss_total, sample_count], dtype=torch.float64, device=device)
        dist.all_reduce(totals)
        if is_rank0:
            tqdm.write(f"epoch {epoch + 1}/{epochs}  mean loss {totals[0] / totals[1]:.6f}")


def save_checkpoint(path: Path, model: Any, optimizer: Any, epoch: int) -> None:
    r"""Rank 0 writes the checkpoint; every rank waits until it is on disk. / rank 0 写检查点，所有 rank 等它写完。

    === "中文"

        保存的是 `model.module` 的状态字典而不是 DDP 包装的：键里没有 `module.` 前缀，不用 DDP
        也能装回。各 rank 的参数在训练后相同，所以只需一个进程写。`dist.barrier()` 保证函数返回
        时文件已经写好，后面读它的进程不会读到一半。

    === "English"

        It saves the state_dict of `model.module`, not of the DDP wrapper: keys carry no
        `module.` prefix and load without DDP. The ranks' parameters are equal after training,
        so one process writes. `dist.barrier()` makes sure the file is complete when the
        function returns, so no process reads it half-written.

    Args:
        path: File to write. / 要写的文件。
        model: The DDP-wrapped model. / DDP 包装后的模型。
        optimizer: Its optimizer. / 它的优化器。
        epoch: Epochs trained so far. / 已训练的 epoch 数。
    """
    if dist.get_rank() == 0:
        path.parent.mkdir(parents=True, exist_ok=True)
        state = {"model": model.module.state_dict(), "optimizer": optimizer.state_dict()}
        torch.save({**state, "epoch": epoch}, path)
    dist.barrier()


def verify_checkpoint(path: Path, build: Callable[[], Any], stack: Any, reference: Any) -> bool:
    r"""Read the checkpoint back safely and load it into fresh objects. / 安全地读回检查点并装入新对象。

    === "中文"

        `weights_only=True` 只允许张量、基本类型、容器以及白名单里的少数 torch 类型（其它类型要用
        `torch.serialization.add_safe_globals` 显式放行），不会执行文件里的任意代码。我们的状态字典
        （`OrderedDict` 加 `_metadata` 属性）和优化器的状态字典都只含这些，所以能读回。随后装进
        新模型（`strict=True`，键必须完全对上）和新优化器，并逐位比较参数。

    === "English"

        `weights_only=True` admits only tensors, primitive types, containers and the few torch
        types on an allowlist (others must be allowed explicitly with
        `torch.serialization.add_safe_globals`), and never runs arbitrary code from the file.
        Our state_dict (an `OrderedDict` with a `_metadata` attribute) and the optimizer's hold
        nothing else, so they read back. Then they are loaded into a fresh model
        (`strict=True`: the keys must match exactly) and a fresh optimizer, and the parameters
        are compared bit for bit.

    Args:
        path: The checkpoint file. / 检查点文件。
        build: Makes a fresh, untrained model. / 构造一个未训练的新模型。
        stack: The stack's namespace (`nn`, `DDP`, `optim`). / 所用实现的命名空间。
        reference: The trained model (not wrapped). / 训练好的模型（未包装）。

    Returns:
        Whether everything loaded and matched. / 是否全部装入且一致。
    """
    checkpoint = torch.load(path, map_location="cpu", weights_only=True)
    fresh = build()
    fresh.load_state_dict(checkpoint["model"])
    optimizer = stack.optim.SGD(fresh.parameters(), lr=0.0)
    optimizer.load_state_dict(checkpoint["optimizer"])
    trained = {name: tensor.cpu() for name, tensor in reference.state_dict().items()}
    return all(torch.equal(tensor, trained[name]) for name, tensor in fresh.state_dict().items())


def dcp_round_trip(
    model: Any, directory: Path, build: Callable[[], Any], device: torch.device
) -> bool:
    r"""Save and load the state_dict with `torch.distributed.checkpoint` on all ranks. / 所有 rank 一起用 `torch.distributed.checkpoint` 保存并读回状态字典。

    === "中文"

        DCP 面向分片的大模型：每个 rank 写自己的那份文件，rank 0 另写一个 `.metadata` 索引；读
        的时候按键在索引里查找，把数值就地写进目标状态字典里已有的张量。它认的是以字符串为键、
        张量为值的（可以嵌套的）字典，而 annotated_nn 的状态字典正是这样的字典，所以无需任何
        适配。这里的张量在各 rank 上是复制的（不是分片的），DCP 的保存计划会去重，每个张量只写
        一次。目录必须是所有 rank 都能读到的（跨机器时用共享文件系统）。

    === "English"

        DCP is built for sharded models: each rank writes its own files and rank 0 adds a
        `.metadata` index; loading looks each key up in that index and writes the values in
        place into the tensors already in the target state_dict. It takes (possibly nested)
        dicts with string keys and tensor values, which is exactly what an annotated_nn
        state_dict is, so nothing has to be adapted. Here the tensors are replicated on every
        rank (not sharded), and DCP's save plan deduplicates them so each is written once. The
        directory must be readable by every rank (a shared file system across machines).

    Args:
        model: The trained model (not wrapped). / 训练好的模型（未包装）。
        directory: The checkpoint directory. / 检查点目录。
        build: Makes a fresh, untrained model. / 构造一个未训练的新模型。
        device: This rank's device. / 本 rank 的设备。

    Returns:
        Whether every rank read back the same tensors. / 是否每个 rank 读回的张量都相同。
    """
    dcp.save({"model": model.state_dict()}, checkpoint_id=directory)
    # 中: `state_dict()` 返回的张量与新模型的参数共用存储，`dcp.load` 就地写入它们；再调用
    # 中: `load_state_dict` 是照常规写法把结果正式装进模型。
    # EN: The tensors `state_dict()` returns share storage with the fresh model's parameters,
    # EN: and `dcp.load` writes into them in place; the `load_state_dict` call afterwards is
    # EN: the usual way to put the result into the model.
    fresh = build().to(device)
    target = {"model": fresh.state_dict()}
    dcp.load(target, checkpoint_id=directory)
    fresh.load_state_dict(target["model"])
    trained = model.state_dict()
    same = all(torch.equal(tensor, trained[name]) for name, tensor in fresh.state_dict().items())
    # 中: 取所有 rank 的最小值：只要有一个 rank 读错，rank 0 报告的就是失败。
    # EN: Take the minimum over ranks: if any rank read something wrong, rank 0 reports failure.
    flag = torch.tensor([int(same)], device=device)
    dist.all_reduce(flag, op=dist.ReduceOp.MIN)
    return bool(flag.item())


def main(argv: Sequence[str] | None = None) -> int:
    r"""Parse options, train under DDP, checkpoint; return the exit status. / 解析选项、在 DDP 下训练、保存检查点，返回退出状态。

    === "中文"

        每个进程都运行这个函数。进程组在 `finally` 里销毁，所以出错时本进程也会释放它的通信资源。

    === "English"

        Every process runs this function. The process group is destroyed in `finally`, so this
        process releases its communication resources even on an error.

    Args:
        argv: Command-line arguments (default: `sys.argv[1:]`). / 命令行参数（默认 `sys.argv[1:]`）。

    Returns:
        0 when the checkpoint (and DCP) checks pass, 1 otherwise. / 检查点（及 DCP）检验通过时为 0，否则为 1。
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=sorted(MODELS), default="simplenet")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=512, help="size of the whole data set")
    parser.add_argument("--batch-size", type=int, default=32, help="per rank")
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--checkpoint", type=Path, default=DEFAULT_CHECKPOINT)
    parser.add_argument(
        "--dcp-dir", type=Path, default=None, help="also round-trip through DCP in this directory"
    )
    parser.add_argument("--reference", choices=sorted(STACKS), default="annotated")
    parser.add_argument("--threads", type=int, default=1, help="CPU threads per process")
    args = parser.parse_args(argv)

    # 中: 每个进程一个线程：两个进程各开多个线程只会在 CPU 上互相争抢。
    # EN: One thread per process: several threads in each of several processes only contend.
    torch.set_num_threads(args.threads)
    rank, world_size, device = init_distributed()
    try:
        return _run(args, rank, world_size, device)
    finally:
        dist.destroy_process_group()


def _run(args: argparse.Namespace, rank: int, world_size: int, device: torch.device) -> int:
    r"""Build, train, checkpoint and verify, inside the process group. / 在进程组内构建、训练、保存并检验。

    === "中文"

        rank 0 打印开头一行、每个 epoch 的损失和检验结果；其它 rank 不打印任何东西。

    === "English"

        Rank 0 prints a header, each epoch's loss and the checks' results; the other ranks
        print nothing.

    Args:
        args: Parsed command-line options. / 解析后的命令行选项。
        rank: This process's rank. / 本进程的 rank。
        world_size: Number of processes. / 进程总数。
        device: This process's device. / 本进程的设备。

    Returns:
        0 when every check passes, 1 otherwise. / 所有检验通过时为 0，否则为 1。
    """
    stack = STACKS[args.reference]

    def build() -> Any:
        r"""A fresh model from the fixed seed. / 用固定种子构造的新模型。

        === "中文"

            每次都先重置种子，所以所有 rank、每次调用得到的初始参数都逐位相同。

        === "English"

            Reseeds first, so every rank and every call gets bit-identical initial parameters.

        Returns:
            An untrained model of `--model` in the chosen stack. / 所选实现中 `--model` 的新模型。
        """
        torch.manual_seed(args.seed)
        return MODELS[args.model](stack.nn)

    # 中: 构造 DDP 时 rank 0 会把参数和缓冲区（buffer）广播给其它 rank；我们的种子本来就让它们
    # 中: 相同，广播保证的是即便种子不同也从同一起点出发。CPU 上 `device_ids` 必须是 `None`。
    # EN: Constructing DDP broadcasts rank 0's parameters and buffers to the others; our seed
    # EN: makes them equal already, the broadcast guarantees one starting point even without it.
    # EN: On a CPU `device_ids` must be `None`.
    model = build().to(device)
    ddp = stack.DDP(model, device_ids=[device.index] if device.type == "cuda" else None)
    optimizer = stack.optim.SGD(ddp.parameters(), lr=args.lr, momentum=0.9)
    loader, sampler = make_loader(args.samples, args.batch_size, args.seed)
    is_rank0 = rank == 0
    if is_rank0:
        print(
            f"training {args.model} ({args.reference}) with DDP on {world_size} process(es), "
            f"{dist.get_backend()} on {device}, {len(loader)} steps per epoch per rank"
        )
    start = time.perf_counter()
    train_epochs(ddp, optimizer, loader, sampler, args.epochs, device)

    # 中: 先全体等 rank 0 写完，再由 rank 0 检验；检验不涉及通信，其它 rank 可以先往下走。
    # EN: All wait for rank 0 to finish writing, then rank 0 checks; the check communicates
    # EN: nothing, so the others may go on.
    save_checkpoint(args.checkpoint, ddp, optimizer, args.epochs)
    ok = True
    if is_rank0:
        ok = verify_checkpoint(args.checkpoint, build, stack, model)
        print(f"checkpoint {'OK' if ok else 'FAILED'}: {args.checkpoint}")
    # 中: DCP 的保存与读取都是集合操作，所有 rank 一起调用。
    # EN: DCP's save and load are collectives, called by all ranks together.
    if args.dcp_dir is not None:
        dcp_ok = dcp_round_trip(model, args.dcp_dir, build, device)
        ok = ok and dcp_ok
        if is_rank0:
            print(f"DCP round trip {'OK' if dcp_ok else 'FAILED'}: {args.dcp_dir}")
    if is_rank0:
        print(f"done in {time.perf_counter() - start:.1f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
