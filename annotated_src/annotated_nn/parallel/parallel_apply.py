r"""Run each replica on its own device in its own thread: `parallel_apply`. / 每个副本在自己的设备和线程里运行：`parallel_apply`。

=== "中文"

    [`DataParallel`][annotated_nn.parallel.data_parallel.DataParallel] 的第三步。每个副本一个 Python
    线程；线程里切换到该设备及其当前流（stream），再调用副本。线程能真正并行，是因为 GPU 内核
    是异步发射的、且 PyTorch 的算子在执行时会释放 GIL；但 Python 层面的开销（模块调用、钩子）
    仍然受 GIL 串行化——这正是 `DataParallel` 在多卡时不如 `DistributedDataParallel` 的原因之一。

    线程里抛出的异常先被包装（`ExceptionWrapper` 把线程中的 traceback 保存为文字），回到主线程后，
    按副本顺序第一个出错的副本的异常被重新抛出，于是错误信息能指明是哪个副本、哪个设备出的错。

=== "English"

    The third step of [`DataParallel`][annotated_nn.parallel.data_parallel.DataParallel]. One
    Python thread per replica; each thread switches to its device and that device's current
    stream, then calls the replica. The threads overlap because GPU kernels launch
    asynchronously and PyTorch ops release the GIL while they run; the Python-level overhead
    (module calls, hooks) is still serialized by the GIL, one reason `DataParallel` scales worse
    than `DistributedDataParallel`.

    An exception raised in a thread is wrapped first (`ExceptionWrapper` keeps the thread's
    traceback as text); back in the main thread, the exception of the first failing replica in
    replica order is re-raised, so the message names the replica and device that failed.
"""

import threading
from collections.abc import Sequence
from typing import Any, cast

import torch
from torch._utils import ExceptionWrapper
from torch.cuda._utils import _get_device_index

__all__ = ["get_a_var", "parallel_apply"]


def get_a_var(obj: Any) -> torch.Tensor | None:
    r"""Find some tensor inside `obj` (depth-first), or `None`. / 在 `obj` 中（深度优先）找到任意一个张量，找不到返回 `None`。

    === "中文"

        `parallel_apply` 的工作线程在设备为 `None` 时，用输入里第一个张量所在的设备作为该副本的
        设备。不过在 CUDA 上这条退路走不到：主线程已经用 `_get_device_index(None, True)` 把
        `None` 换成了当前设备编号。dict 会按 `(key, value)` 对逐个查找。

    === "English"

        When its device is `None`, a `parallel_apply` worker uses the device of the first tensor
        in the input as the replica's device. On CUDA this fallback is not reached, though: the
        main thread has already turned `None` into the current device index with
        `_get_device_index(None, True)`. Dicts are searched by `(key, value)` pairs.

    Args:
        obj: A tensor, list, tuple, dict, or anything else. / 张量、list、tuple、dict 或其它对象。

    Returns:
        The first tensor found, or `None`. / 找到的第一个张量，或 `None`。
    """
    # 中: 张量直接返回；list/tuple 按顺序递归，找到第一个就停（`map` 是惰性的，后面的元素不再访问）。
    # EN: A tensor is returned as is; lists/tuples recurse in order and stop at the first hit
    # EN: (`map` is lazy, so later elements are not visited).
    if isinstance(obj, torch.Tensor):
        return obj
    if isinstance(obj, (list, tuple)):
        for result in map(get_a_var, obj):
            if isinstance(result, torch.Tensor):
                return result
    # 中: dict 按 `(key, value)` 对递归（每对是 tuple，走上面的分支），所以张量键也会被找到；
    # 中: 藏在其它对象（自定义类、dataclass）里的张量找不到。
    # EN: Dicts recurse over `(key, value)` pairs (each pair is a tuple, handled above), so a
    # EN: tensor key is found too; tensors held by other objects (custom classes, dataclasses)
    # EN: are not.
    if isinstance(obj, dict):
        for result in map(get_a_var, obj.items()):
            if isinstance(result, torch.Tensor):
                return result
    return None


def parallel_apply(
    modules: Sequence[Any],
    inputs: Sequence[Any],
    kwargs_tup: Sequence[dict[str, Any]] | None = None,
    devices: Sequence[int | torch.device | None] | None = None,
) -> list[Any]:
    r"""Call `modules[i](*inputs[i], **kwargs_tup[i])` on `devices[i]`, in parallel. / 在 `devices[i]` 上并行调用 `modules[i](*inputs[i], **kwargs_tup[i])`。

    === "中文"

        四个序列按位置一一对应，长度必须相同。`inputs[i]` 若不是 list/tuple，就当作唯一的位置参数。
        每个线程继承主线程的梯度开关与 autocast 的开关（这些是线程局部的，新线程默认不继承），
        但不继承 autocast 的 dtype。只有一个副本时不开线程，直接在当前线程里运行。

    === "English"

        The four sequences correspond by position and must have equal lengths. An `inputs[i]`
        that is not a list/tuple is the single positional argument. Each thread inherits the
        main thread's grad mode and autocast on/off switch (both are thread-local; a new thread
        would not inherit them otherwise), but not the autocast dtype. With one replica no
        thread is started.

    Args:
        modules: The replicas. / 各副本。
        inputs: One input (or argument tuple) per replica. / 每个副本的输入（或参数 tuple）。
        kwargs_tup: One kwargs dict per replica. / 每个副本的关键字参数。
        devices: One device per replica; `None` means the current device. / 每个副本的设备；`None` 表示当前设备。

    Returns:
        The outputs, in replica order. / 按副本顺序排列的输出。

    Raises:
        AssertionError: Length mismatch or no accelerator. / 长度不一致或没有加速器。
        RuntimeError: No accelerator to query a stream from. / 没有可查询流的加速器。
    """
    # 中: 四个序列必须等长，先比副本与输入（报错文字与 PyTorch 相同，下同）。
    # EN: The four sequences must have equal lengths; replicas and inputs first (error texts
    # EN: match PyTorch's, here and below).
    if len(modules) != len(inputs):
        raise AssertionError(
            f"The number of modules {len(modules)} is not equal to "
            f"the number of inputs {len(inputs)}"
        )
    # 中: `kwargs_tup` 可省略；给了就必须等长。`scatter_kwargs` 的补齐怪癖可能让它比 `inputs`
    # 中: 短，那时就在这里报错。
    # EN: `kwargs_tup` is optional; if given it must match. The padding quirk of `scatter_kwargs`
    # EN: can leave it shorter than `inputs`; that fails here.
    if kwargs_tup is not None:
        if len(modules) != len(kwargs_tup):
            raise AssertionError(
                f"The number of modules {len(modules)} is not equal to "
                f"the number of kwargs_tup {len(kwargs_tup)}"
            )
    else:
        # 中: 所有副本共用同一个空 dict 对象也无妨：调用时 `**kwargs` 会解包成新的字典。
        # EN: Sharing one empty dict object among all replicas is harmless: `**kwargs` unpacks it
        # EN: into a fresh dict at call time.
        kwargs_tup = (cast(dict[str, Any], {}),) * len(modules)
    # 中: `devices` 同样可省略；省略时每个副本先记为 `None`，下一步再解析。
    # EN: `devices` is optional too; if omitted, every replica starts as `None`, resolved next.
    if devices is not None:
        if len(modules) != len(devices):
            raise AssertionError(
                f"The number of modules {len(modules)} is not equal to "
                f"the number of devices {len(devices)}"
            )
    else:
        devices = [None] * len(modules)
    # 中: 设备规整成整数编号。这里用的是 `torch.cuda._utils` 的版本：整数照收，`None` 变成当前
    # 中: 设备（有加速器时），`torch.device` 却只接受 CUDA 的，其它类型的设备对象会抛 ValueError。
    # EN: Normalize devices to integer indices. This is `torch.cuda._utils`'s version: ints pass,
    # EN: `None` becomes the current device (when there is an accelerator), but a `torch.device`
    # EN: must be a CUDA one; device objects of other types raise ValueError.
    devices = [_get_device_index(x, True) for x in devices]
    # 中: 在主线程里取好每个设备的当前流，工作线程在这些流上发射内核。
    # 中: 没有加速器时这一步就抛 RuntimeError（与 PyTorch 同一位置、同一信息），
    # 中: 所以紧随其后的 AssertionError 只是第二道防线。
    # EN: Fetch each device's current stream in the main thread; workers launch kernels on them.
    # EN: Without an accelerator this already raises RuntimeError (same place and message as
    # EN: PyTorch), so the AssertionError right after is only a second line of defense.
    streams = [torch.accelerator.current_stream(x) for x in devices]
    if not torch.accelerator.is_available():
        raise AssertionError("No available accelerator found.")
    device_type = torch.accelerator.current_accelerator().type  # type: ignore[union-attr]
    # 中: 工作线程把结果写进 `results[i]`（线程函数的返回值会被丢弃），写入时持锁。
    # EN: Workers write their result to `results[i]` (a thread target's return value is
    # EN: discarded), holding the lock while writing.
    lock = threading.Lock()
    results: dict[int, Any] = {}
    # 中: 梯度开关与 autocast 开关是线程局部的，新线程看到的是默认值，所以先在主线程读出，
    # 中: 再由各线程设回去。注意不带参数的 `torch.is_autocast_enabled()` 读的是 CUDA 的开关，
    # 中: 而 autocast 的 dtype 根本不传（见 `_worker`）。
    # EN: Grad mode and the autocast switch are thread-local and a new thread sees the defaults,
    # EN: so they are read here in the main thread and set again by each worker. Note that
    # EN: `torch.is_autocast_enabled()` without an argument reads CUDA's switch, and the autocast
    # EN: dtype is not passed at all (see `_worker`).
    grad_enabled, autocast_enabled = torch.is_grad_enabled(), torch.is_autocast_enabled()

    def _worker(
        i: int,
        module: Any,
        input: Any,
        kwargs: dict[str, Any],
        device: int | torch.device | None = None,
        stream: Any = None,
    ) -> None:
        r"""Run replica `i` and store its output or exception in `results[i]`. / 运行第 `i` 个副本，把输出或异常存到 `results[i]`。

        === "中文"

            线程函数不能直接"返回"值，也不应让异常无声地死在线程里；因此结果与异常都放进
            共享字典，由锁保护。

        === "English"

            A thread cannot return a value, and an exception should not die silently inside it;
            so results and exceptions both go into a shared dict guarded by a lock.

        Args:
            i: Replica index. / 副本序号。
            module: The replica. / 副本。
            input: Its input or argument tuple. / 它的输入或参数 tuple。
            kwargs: Its keyword arguments. / 它的关键字参数。
            device: Its device index, or `None` to infer. / 设备编号，`None` 表示推断。
            stream: The stream to run on, or `None`. / 要使用的流，或 `None`。
        """
        # 中: 在本线程里恢复主线程的梯度开关（否则新线程默认开启梯度，`no_grad` 下也会建图）。
        # EN: Restore the main thread's grad mode in this thread (a new thread defaults to grad
        # EN: enabled and would build a graph even under `no_grad`).
        torch.set_grad_enabled(grad_enabled)
        # 中: 设备为 None 时退而用输入里第一个张量的设备。在 CUDA 上走不到这里（主线程已把 None
        # 中: 换成当前设备）。若真走到且找不到张量：这个 ExceptionWrapper 不是在 `except` 里创建的，
        # 中: 没有异常可包，`reraise()` 会抛 AttributeError 而不是这条信息（PyTorch 同样如此）。
        # EN: With a None device, fall back to the device of the first tensor in the input. On
        # EN: CUDA this is not reached (the main thread turned None into the current device). If it
        # EN: is and no tensor is found: this ExceptionWrapper is not created inside `except`, so it
        # EN: wraps no exception and `reraise()` raises AttributeError instead of this message
        # EN: (as PyTorch does).
        if device is None:
            t = get_a_var(input)
            # 中: 没找到张量：不在线程里抛出，而是给这个副本记下一个错误，留给主线程处理。
            # EN: No tensor found: rather than raising inside the thread, record an error for
            # EN: this replica and leave it to the main thread.
            if t is None:
                with lock:
                    results[i] = ExceptionWrapper(
                        where=f"in replica {i}, no device was provided and no tensor input was found; "
                        "device cannot be resolved"
                    )
                return
            device = t.get_device()
        # 中: 防御性规整：主线程传来的设备已经是整数；流也已经在主线程取好，这里 `stream` 不会是 None。
        # EN: Defensive normalization: the main thread already passes integer devices, and the
        # EN: streams were fetched there too, so `stream` is not None here.
        if isinstance(device, torch.device):
            device = device.index
        if stream is None:
            stream = torch.accelerator.current_stream(device)
        # 中: 三个上下文：把本线程的当前设备切到该卡；把该卡的当前流设为主线程取好的那个流；
        # 中: 按主线程的开关启用 autocast。dtype 没有传，于是取运行线程自己的 autocast dtype：
        # 中: 新线程里是默认值（CUDA 为 float16），所以主线程用 `autocast(dtype=torch.bfloat16)`
        # 中: 时，在线程里运行的副本仍用 float16。
        # EN: Three contexts: make this card the thread's current device; make the stream fetched
        # EN: by the main thread its current stream; enable autocast per the main thread's switch.
        # EN: No dtype is passed, so the running thread's own autocast dtype is used: in a new
        # EN: thread that is the default (float16 on CUDA), so under
        # EN: `autocast(dtype=torch.bfloat16)` in the main thread, replicas run in threads still
        # EN: use float16.
        try:
            with (
                torch.accelerator.device_index(device),
                stream,
                torch.amp.autocast(device_type, enabled=autocast_enabled),
            ):
                # 中: 单个张量也要包成 tuple，否则 `*input` 会沿第 0 维把它拆开。
                # EN: Wrap a lone tensor in a tuple; `*input` would otherwise unpack it along dim 0.
                if not isinstance(input, (list, tuple)):
                    input = (input,)
                output = module(*input, **kwargs)
            with lock:
                results[i] = output
        # 中: 只捕获 Exception：`ExceptionWrapper` 在 except 块里取 `sys.exc_info()`，把类型和
        # 中: 格式化后的 traceback 文字存下（不存 traceback 对象，避免引用环）。SystemExit 之类的
        # 中: BaseException 不会被捕获，线程结束时没有留下结果，主线程读 `results[i]` 时得到 KeyError。
        # EN: Only Exception is caught: `ExceptionWrapper` takes `sys.exc_info()` inside the except
        # EN: block and keeps the type and the formatted traceback text (not the traceback object,
        # EN: to avoid reference cycles). A BaseException such as SystemExit is not caught; the
        # EN: thread ends without a result and the main thread gets a KeyError reading `results[i]`.
        except Exception:
            with lock:
                results[i] = ExceptionWrapper(where=f"in replica {i} on device {device}")

    # 中: 多个副本：每个一个线程，五个序列按位置配对（`strict=True`，长度已在上面检查过）。
    # 中: 只有一个副本时在当前线程里直接运行，省去开线程的开销。
    # EN: Several replicas: one thread each, the five sequences paired by position
    # EN: (`strict=True`; the lengths were checked above). A single replica runs right in the
    # EN: calling thread, saving the thread start-up.
    if len(modules) > 1:
        threads = [
            threading.Thread(target=_worker, args=(i, module, input, kwargs, device, stream))
            for i, (module, input, kwargs, device, stream) in enumerate(
                zip(modules, inputs, kwargs_tup, devices, streams, strict=True)
            )
        ]
        # 中: 先全部启动再逐个 join，副本才能同时运行；总耗时约等于最慢的那个副本。
        # EN: Start them all before joining any, so the replicas run concurrently; the total time
        # EN: is about that of the slowest replica.
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    else:
        _worker(0, modules[0], inputs[0], kwargs_tup[0], devices[0], streams[0])

    # 中: 按副本顺序收集；遇到第一个异常就在主线程里重新抛出（其余副本的异常被丢弃）。
    # 中: `reraise()` 用同一异常类型、以 "Caught <类型> in replica i on device d." 加原 traceback
    # 中: 文字为信息新建异常；该类型不能只用一个字符串构造时改抛 RuntimeError。
    # EN: Collect in replica order; re-raise the first exception in the main thread (those of
    # EN: later replicas are dropped). `reraise()` builds a new exception of the same type whose
    # EN: message is "Caught <Type> in replica i on device d." plus the original traceback text;
    # EN: if that type cannot be built from one string, it raises RuntimeError instead.
    outputs = []
    for i in range(len(inputs)):
        output = results[i]
        if isinstance(output, ExceptionWrapper):
            output.reraise()
        outputs.append(output)
    return outputs
