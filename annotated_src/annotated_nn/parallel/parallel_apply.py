r"""Run each replica on its own device in its own thread: `parallel_apply`. / 每个副本在自己的设备和线程里运行：`parallel_apply`。

=== "中文"

    [`DataParallel`][annotated_nn.parallel.data_parallel.DataParallel] 的第三步。每个副本一个 Python
    线程；线程里切换到该设备及其当前流（stream），再调用副本。线程能真正并行，是因为 GPU 内核
    是异步发射的、且 PyTorch 的算子在执行时会释放 GIL；但 Python 层面的开销（模块调用、钩子）
    仍然受 GIL 串行化——这正是 `DataParallel` 在多卡时不如 `DistributedDataParallel` 的原因之一。

    线程里抛出的异常先被包装（`ExceptionWrapper` 保存了线程中的 traceback），回到主线程后
    按设备顺序重新抛出，于是错误信息能指明是哪个副本、哪个设备出的错。

=== "English"

    The third step of [`DataParallel`][annotated_nn.parallel.data_parallel.DataParallel]. One
    Python thread per replica; each thread switches to its device and that device's current
    stream, then calls the replica. The threads overlap because GPU kernels launch
    asynchronously and PyTorch ops release the GIL while they run; the Python-level overhead
    (module calls, hooks) is still serialized by the GIL, one reason `DataParallel` scales worse
    than `DistributedDataParallel`.

    An exception raised in a thread is wrapped first (`ExceptionWrapper` keeps the thread's
    traceback) and re-raised in the main thread in device order, so the message names the
    replica and device that failed.
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

        当调用方没有指明设备时，`parallel_apply` 用输入里第一个张量所在的设备作为该副本的设备。
        dict 会按 `(键, 值)` 对逐个查找。

    === "English"

        When the caller names no device, `parallel_apply` uses the device of the first tensor in
        the input as the replica's device. Dicts are searched by `(key, value)` pairs.

    Args:
        obj: A tensor, list, tuple, dict, or anything else. / 张量、list、tuple、dict 或其它对象。

    Returns:
        The first tensor found, or `None`. / 找到的第一个张量，或 `None`。
    """
    if isinstance(obj, torch.Tensor):
        return obj
    if isinstance(obj, (list, tuple)):
        for result in map(get_a_var, obj):
            if isinstance(result, torch.Tensor):
                return result
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
        每个线程继承主线程的梯度开关与 autocast 状态（这些是线程局部的，新线程默认不继承）。
        只有一个副本时不开线程，直接在当前线程里运行。

    === "English"

        The four sequences correspond by position and must have equal lengths. An `inputs[i]`
        that is not a list/tuple is the single positional argument. Each thread inherits the
        main thread's grad mode and autocast state (both are thread-local; a new thread would
        not inherit them otherwise). With one replica no thread is started.

    Args:
        modules: The replicas. / 各副本。
        inputs: One input (or argument tuple) per replica. / 每个副本的输入（或参数 tuple）。
        kwargs_tup: One kwargs dict per replica. / 每个副本的关键字参数。
        devices: One device per replica, or `None` to infer. / 每个副本的设备，`None` 表示自动推断。

    Returns:
        The outputs, in replica order. / 按副本顺序排列的输出。

    Raises:
        AssertionError: Length mismatch or no accelerator. / 长度不一致或没有加速器。
        RuntimeError: No accelerator to query a stream from. / 没有可查询流的加速器。
    """
    if len(modules) != len(inputs):
        raise AssertionError(
            f"The number of modules {len(modules)} is not equal to "
            f"the number of inputs {len(inputs)}"
        )
    if kwargs_tup is not None:
        if len(modules) != len(kwargs_tup):
            raise AssertionError(
                f"The number of modules {len(modules)} is not equal to "
                f"the number of kwargs_tup {len(kwargs_tup)}"
            )
    else:
        kwargs_tup = (cast(dict[str, Any], {}),) * len(modules)
    if devices is not None:
        if len(modules) != len(devices):
            raise AssertionError(
                f"The number of modules {len(modules)} is not equal to "
                f"the number of devices {len(devices)}"
            )
    else:
        devices = [None] * len(modules)
    devices = [_get_device_index(x, True) for x in devices]
    # 中: 在主线程里取好每个设备的当前流，工作线程在这些流上发射内核。
    #     没有加速器时这一步就会抛错（与 PyTorch 同一位置、同一信息）。
    # EN: Fetch each device's current stream in the main thread; workers launch kernels on them.
    #     Without an accelerator this already raises (same place and message as PyTorch).
    streams = [torch.accelerator.current_stream(x) for x in devices]
    if not torch.accelerator.is_available():
        raise AssertionError("No available accelerator found.")
    device_type = torch.accelerator.current_accelerator().type  # type: ignore[union-attr]
    lock = threading.Lock()
    results: dict[int, Any] = {}
    grad_enabled, autocast_enabled = torch.is_grad_enabled(), torch.is_autocast_enabled()

    def _worker(
        i: int,
        module: Any,
        input: Any,
        kwargs: dict[str, Any],
        device: int | torch.device | None = None,
        stream: Any = None,
    ) -> None:
        r"""Run one replica and store its output or exception under `i`. / 运行一个副本，把输出或异常存到 `results[i]`。

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
        torch.set_grad_enabled(grad_enabled)
        if device is None:
            t = get_a_var(input)
            if t is None:
                with lock:
                    results[i] = ExceptionWrapper(
                        where=f"in replica {i}, no device was provided and no tensor input was found; "
                        "device cannot be resolved"
                    )
                return
            device = t.get_device()
        if isinstance(device, torch.device):
            device = device.index
        if stream is None:
            stream = torch.accelerator.current_stream(device)
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
        except Exception:
            with lock:
                results[i] = ExceptionWrapper(where=f"in replica {i} on device {device}")

    if len(modules) > 1:
        threads = [
            threading.Thread(target=_worker, args=(i, module, input, kwargs, device, stream))
            for i, (module, input, kwargs, device, stream) in enumerate(
                zip(modules, inputs, kwargs_tup, devices, streams, strict=True)
            )
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    else:
        _worker(0, modules[0], inputs[0], kwargs_tup[0], devices[0], streams[0])

    # 中: 按副本顺序收集；遇到第一个异常就在主线程里重新抛出。
    # EN: Collect in replica order; re-raise the first exception in the main thread.
    outputs = []
    for i in range(len(inputs)):
        output = results[i]
        if isinstance(output, ExceptionWrapper):
            output.reraise()
        outputs.append(output)
    return outputs
