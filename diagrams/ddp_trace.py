"""DDP's gradient buckets and one traced training step, for the book's diagrams. / 为本书的图读出 DDP 的梯度桶，并追踪一步训练。

=== "中文"

    两张图的数据都来自运行中的 `annotated_nn.parallel.DistributedDataParallel`，包着参考模型
    `SimpleNet`，桶的上限取得很小（`BUCKET_CAP_MB`，即 2048 字节），所以有好几个桶：

    - `ddp-buckets`（`generate.ddp_buckets_dot`）：在本进程里建一个只有一个进程的 gloo
      进程组，读出 Reducer 构造时的桶与第一轮之后重建的桶（`live_buckets`）；
    - `ddp-timeline`（`generate.ddp_timeline_dot`）：用 `torch.multiprocessing` 以 spawn
      方式启动两个进程，每个 rank 按顺序记下第二步训练中的事件：每个参数的梯度就绪、每个桶的
      all-reduce 发出、`backward()` 返回、优化器走一步（`traced_run`）。

    图里只画确定的东西：事件的先后。梯度就绪与 all-reduce 发出都在调用 `backward()` 的线程上
    依次发生，每次运行顺序相同；all-reduce 何时完成取决于 gloo 的后台线程，多次运行顺序不同
    （甚至桶 1 可能先于桶 0 完成），所以不画成有序的事件，只画出“在 `backward()` 返回之前完成”。
    spawn 两个进程要几秒钟（每个子进程都要导入 torch），结果在进程内缓存，`generate_all()`
    调用多少次都只运行一次。

=== "English"

    Both diagrams read a live `annotated_nn.parallel.DistributedDataParallel` wrapping the
    reference model `SimpleNet`, with a tiny bucket cap (`BUCKET_CAP_MB`, that is 2048 bytes) so
    that there are several buckets:

    - `ddp-buckets` (`generate.ddp_buckets_dot`): a one-process gloo group in this process;
      the Reducer's buckets as built at construction and as rebuilt after the first iteration
      (`live_buckets`);
    - `ddp-timeline` (`generate.ddp_timeline_dot`): two processes started by
      `torch.multiprocessing` with the spawn method; each rank records, in order, the events
      of the second training step: each parameter's gradient becoming ready, each bucket's
      all-reduce being launched, `backward()` returning, the optimizer step (`traced_run`).

    The diagrams draw only what is deterministic: the order of events. Gradients becoming ready
    and all-reduces being launched happen one after another on the thread that called
    `backward()`, in the same order on every run; when an all-reduce completes depends on gloo's
    background threads and varies between runs (bucket 1 may even complete before bucket 0), so
    completions are not drawn as ordered events, only as "complete before `backward()`
    returns". Spawning two processes takes a few seconds (each child imports torch); the result
    is cached in the process, so it runs once however often `generate_all()` is called.
"""

from __future__ import annotations

import functools
import gc
import json
import socket
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "annotated_src") not in sys.path:
    sys.path.insert(0, str(ROOT / "annotated_src"))

# 中: 参考模型、桶的上限（2 KiB，写成 MiB）、进程数与训练步数。第一步用构造时的桶，
# 中: 第二步开始时 Reducer 按第一步的梯度就绪顺序重建桶，所以第二步是重建之后的第一步。
# EN: The reference model, the bucket cap (2 KiB, written in MiB), the number of processes and of
# EN: training steps. The first step uses the buckets of construction; at the start of the
# EN: second, the Reducer rebuilds them in the first step's gradient-ready order, so the second
# EN: step is the first one after the rebuild.
MODEL = "SimpleNet"
BUCKET_CAP_MB = 2 / 1024
WORLD_SIZE = 2
STEPS = 2


class Bucket(NamedTuple):
    """One bucket of the Reducer, as the diagrams draw it. / Reducer 的一个桶（图里画的样子）。

    === "中文"

        `index` 是 `GradBucket.index()`；`params` 是桶里按顺序排的（参数名, 形状）；`numel`、
        `nbytes` 与 `dtype` 是桶的扁平张量 `GradBucket.buffer()` 的元素数、字节数与数据类型。

    === "English"

        `index` is `GradBucket.index()`; `params` the bucket's (parameter name, shape) pairs in
        order; `numel`, `nbytes` and `dtype` the element count, byte count and data type of the
        bucket's flat tensor `GradBucket.buffer()`.
    """

    index: int
    params: tuple[tuple[str, tuple[int, ...]], ...]
    numel: int
    nbytes: int
    dtype: str


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now. / 此刻 127.0.0.1 上一个空闲的 TCP 端口。"""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def library(name: str):
    """``(nn, DistributedDataParallel)`` of ``"annotated_nn"`` or ``"torch.nn"``. / 某个库的 ``(nn, DistributedDataParallel)``。"""
    if name == "torch.nn":
        import torch

        return torch.nn, torch.nn.parallel.DistributedDataParallel
    import annotated_nn
    from annotated_nn.parallel import DistributedDataParallel

    return annotated_nn, DistributedDataParallel


def build_model(nn):
    """The reference model, from seed 0. / 从种子 0 建出的参考模型。"""
    import torch

    from annotated_examples.models import build_simplenet

    torch.manual_seed(0)
    return build_simplenet(nn)


def batch(rank: int):
    """Four random images and labels, different on each rank. / 四张随机图像与标签，每个 rank 不同。"""
    import torch

    generator = torch.Generator().manual_seed(1 + rank)
    images = torch.randn(4, 1, 32, 32, generator=generator)
    labels = torch.randint(0, 10, (4,), generator=generator)
    return images, labels


def read_buckets(ddp, names: dict[int, str]) -> tuple[Bucket, ...]:
    """The Reducer's current buckets. / Reducer 当前的桶。

    === "中文"

        `reducer._get_zeros_like_grad_buckets()` 为每个桶给出一个 `GradBucket`（扁平张量是全零的
        副本），其中的 `parameters()` 是桶里的参数，按它们在扁平张量里的顺序排；`names` 把参数
        （按 `id`）映射到 `named_parameters()` 的名字。

    === "English"

        `reducer._get_zeros_like_grad_buckets()` gives one `GradBucket` per bucket (its flat
        tensor a zero-filled copy), whose `parameters()` are the bucket's parameters in the order
        they sit in the flat tensor; `names` maps parameters (by `id`) to their
        `named_parameters()` names.
    """
    out = []
    for bucket in ddp.reducer._get_zeros_like_grad_buckets():
        flat = bucket.buffer()
        params = tuple((names[id(p)], tuple(p.shape)) for p in bucket.parameters())
        nbytes = flat.numel() * flat.element_size()
        dtype = str(flat.dtype).removeprefix("torch.")
        out.append(Bucket(bucket.index(), params, flat.numel(), nbytes, dtype))
    return tuple(out)


@functools.lru_cache(maxsize=None)
def live_buckets(lib: str = "annotated_nn") -> dict:
    """Buckets at construction and after the rebuild, in a one-process gloo group. / 单进程 gloo 组里：构造时的桶与重建后的桶。

    === "中文"

        在本进程里用 127.0.0.1 上的空闲端口建一个 `world_size=1` 的 gloo 默认进程组（DDP 在一个
        进程上也能工作），包好模型，先读构造时的桶，再训练 `STEPS` 步（第二步开始时 Reducer
        重建桶）后再读一次，最后销毁进程组。同时用 `register_post_accumulate_grad_hook` 记下
        最后一步里梯度就绪的顺序。`lib="torch.nn"` 时用 torch 的 DDP 包 torch.nn 的孪生模型，
        测试用它比较两边。结果按 `lib` 缓存。

    === "English"

        In this process, builds a gloo default group of `world_size=1` on a free port of
        127.0.0.1 (DDP works on one process), wraps the model, reads the buckets of construction,
        trains `STEPS` steps (the Reducer rebuilds at the start of the second) and reads them
        again, then destroys the group. It also records, with
        `register_post_accumulate_grad_hook`, the order in which gradients became ready in the
        last step. With `lib="torch.nn"` it wraps torch.nn's twin in torch's DDP, which the tests
        compare with. Results are cached per `lib`.

    Args:
        lib: ``"annotated_nn"`` or ``"torch.nn"``. / ``"annotated_nn"`` 或 ``"torch.nn"``。

    Returns:
        ``{"initial", "rebuilt": tuple[Bucket, ...], "ready": tuple[str, ...], "cap_bytes": int}``.
        / 构造时与重建后的桶、梯度就绪顺序、桶的上限（字节）。
    """
    import torch.distributed as dist
    import torch.nn.functional as F

    nn, ddp_class = library(lib)
    if dist.is_initialized():
        raise RuntimeError("live_buckets needs a process without a default process group")
    dist.init_process_group(
        "gloo", init_method=f"tcp://127.0.0.1:{free_port()}", rank=0, world_size=1
    )
    try:
        model = build_model(nn)
        names = {id(p): n for n, p in model.named_parameters()}
        ddp = ddp_class(model, bucket_cap_mb=BUCKET_CAP_MB)
        initial = read_buckets(ddp, names)
        ready: list[str] = []
        for name, param in model.named_parameters():
            param.register_post_accumulate_grad_hook(lambda p, name=name: ready.append(name))
        images, labels = batch(0)
        for _ in range(STEPS):
            ready.clear()
            F.cross_entropy(ddp(images), labels).backward()
        result = {
            "initial": initial,
            "rebuilt": read_buckets(ddp, names),
            "ready": tuple(ready),
            "cap_bytes": ddp.bucket_bytes_cap,
        }
        # 中: 先放掉 DDP（Reducer 持有进程组），再销毁进程组。
        # EN: Let go of DDP (its Reducer holds the process group) before destroying the group.
        del ddp, model
        gc.collect()
    finally:
        dist.destroy_process_group()
    return result


def _trace_worker(rank: int, world_size: int, port: int, out_dir: str) -> None:
    """One rank of the traced run: train, log events, write them as JSON. / 追踪运行中的一个 rank：训练、记事件、写成 JSON。

    === "中文"

        每个事件是一个列表：`["ready", 参数名]`（`register_post_accumulate_grad_hook`，梯度刚
        累加进 `.grad`）；`["launch", 桶号, [参数名…]]`（Reducer 调用通信钩子的那一刻：钩子
        先记下，再把桶交给 torch 的 `default_hooks.allreduce_hook` 发出 all-reduce）；
        `["done", 桶号]`（钩子返回的 future 完成时由它的回调记下，回调在哪个线程上运行取决于
        gloo）；`["backward returned"]`；`["step"]`（优化器走完
        一步）。Reducer 在 `backward()` 结束时等待钩子返回的 future，所以每个 `done` 都在
        `backward returned` 之前。标准输出改到标准错误：生成书页的进程用标准输出传结果。

    === "English"

        Each event is a list: `["ready", name]` (`register_post_accumulate_grad_hook`, the
        gradient just accumulated into `.grad`); `["launch", bucket, [names…]]` (the moment the
        Reducer calls the comm hook: the hook logs, then hands the bucket to torch's
        `default_hooks.allreduce_hook`, which launches the all-reduce); `["done", bucket]`
        (logged by a callback when the future the hook returned completes; which thread runs
        the callback depends on gloo); `["backward returned"]`; `["step"]` (the optimizer
        finished a step). The Reducer waits on the hook's future at the end of `backward()`, so
        every `done` comes before `backward returned`. Standard output goes to standard error:
        the process generating the book passes its results on standard output.

    Args:
        rank: This process's rank. / 本进程的 rank。
        world_size: The number of processes. / 进程数。
        port: The rendezvous port on 127.0.0.1. / 127.0.0.1 上的会合端口。
        out_dir: Where `rank<N>.json` goes. / `rank<N>.json` 写到哪里。
    """
    sys.stdout = sys.stderr
    import torch
    import torch.distributed as dist
    import torch.nn.functional as F
    from torch.distributed.algorithms.ddp_comm_hooks import default_hooks

    import annotated_optim

    torch.set_num_threads(1)
    nn, ddp_class = library("annotated_nn")
    dist.init_process_group(
        "gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world_size
    )
    try:
        model = build_model(nn)
        names = {id(p): n for n, p in model.named_parameters()}
        ddp = ddp_class(model, bucket_cap_mb=BUCKET_CAP_MB)
        log: list[list] = []

        def logged_allreduce(state, bucket):
            """Log the launch, then all-reduce with `allreduce_hook`. / 记下发出，再用 `allreduce_hook` 做 all-reduce。"""
            index = bucket.index()
            log.append(["launch", index, [names[id(p)] for p in bucket.parameters()]])

            def done(future):
                """Log the completion and pass the result on. / 记下完成，把结果传下去。"""
                log.append(["done", index])
                return future.value()

            return default_hooks.allreduce_hook(state, bucket).then(done)

        ddp.register_comm_hook(None, logged_allreduce)
        for name, param in model.named_parameters():
            param.register_post_accumulate_grad_hook(
                lambda p, name=name: log.append(["ready", name])
            )
        optimizer = annotated_optim.SGD(ddp.parameters(), lr=0.1)
        images, labels = batch(rank)
        steps = []
        for _ in range(STEPS):
            log.clear()
            optimizer.zero_grad()
            F.cross_entropy(ddp(images), labels).backward()
            log.append(["backward returned"])
            optimizer.step()
            log.append(["step"])
            steps.append(list(log))
        result = {"steps": steps, "buckets": [list(b) for b in read_buckets(ddp, names)]}
        Path(out_dir, f"rank{rank}.json").write_text(json.dumps(result), encoding="utf-8")
        # 中: 先放掉 DDP 与优化器（Reducer 持有进程组），再销毁进程组；否则进程组留到解释器
        # 中: 退出时才析构，偶尔会以 SIGABRT 结束。
        # EN: Let go of DDP and the optimizer (the Reducer holds the process group) before
        # EN: destroying the group; otherwise the group is destructed only at interpreter exit,
        # EN: which now and then ends in SIGABRT.
        del ddp, optimizer, model
        gc.collect()
    finally:
        dist.destroy_process_group()


@functools.lru_cache(maxsize=None)
def traced_run() -> tuple[dict, ...]:
    """Spawn the two-process run once; per rank, its steps' events and buckets. / 只 spawn 一次两进程运行；每个 rank 的各步事件与桶。

    === "中文"

        `torch.multiprocessing.start_processes(..., start_method="spawn")` 启动 `WORLD_SIZE` 个
        `_trace_worker`，在 127.0.0.1 的空闲端口上会合，结果经临时目录里的 JSON 文件带回。子进程
        导入 torch 的几秒钟里，本进程顺便算出 `live_buckets()`（它也缓存），两件事重叠进行。
        子进程由 spawn 的序列化按模块名找到 `_trace_worker`，所以本模块必须以 `ddp_trace` 的名字
        从 `diagrams/` 导入（`generate.py` 正是这样做的）。

    === "English"

        `torch.multiprocessing.start_processes(..., start_method="spawn")` starts `WORLD_SIZE`
        copies of `_trace_worker`, meeting on a free port of 127.0.0.1; results come back as JSON
        files in a temporary directory. While the children spend a few seconds importing torch,
        this process computes `live_buckets()` (cached too), so the two overlap. The children
        find `_trace_worker` by module name through spawn's pickling, so this module must be
        imported from `diagrams/` as `ddp_trace` (as `generate.py` does).

    Returns:
        One ``{"steps": [[event, ...], ...], "buckets": [...]}`` per rank. / 每个 rank 一个字典。
    """
    import torch.multiprocessing as mp

    with tempfile.TemporaryDirectory() as tmp:
        context = mp.start_processes(
            _trace_worker,
            args=(WORLD_SIZE, free_port(), tmp),
            nprocs=WORLD_SIZE,
            join=False,
            start_method="spawn",
        )
        try:
            live_buckets()
        finally:
            while not context.join():
                pass
        return tuple(
            json.loads(Path(tmp, f"rank{rank}.json").read_text(encoding="utf-8"))
            for rank in range(WORLD_SIZE)
        )


def drawn_events(steps: list[list]) -> list[list]:
    """The events the timeline draws: the last step's, without completions. / 时间线画出的事件：最后一步的，不含完成事件。"""
    return [event for event in steps[-1] if event[0] != "done"]
