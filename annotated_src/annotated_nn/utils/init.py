r"""Build a module without running its parameter initialization: `skip_init`. / 构造模块但跳过参数初始化：`skip_init`。

=== "中文"

    对应 `torch.nn.utils.init`。PyTorch 的版本先检查类是否为 `torch.nn.Module` 的子类，
    对 annotated_nn 的模块类会直接报错，所以这里按同样的步骤重写，检查的是 annotated_nn 的 `Module`。

=== "English"

    Mirrors `torch.nn.utils.init`. PyTorch's version first checks that the class subclasses
    `torch.nn.Module` and so refuses annotated_nn module classes; the same steps are rewritten
    here, checking against annotated_nn's `Module`.
"""

import inspect
from typing import Any

import torch

__all__ = ["skip_init"]


def skip_init(module_cls: type, *args: Any, **kwargs: Any) -> Any:
    r"""Instantiate `module_cls` with uninitialized parameters and buffers. / 实例化 `module_cls`，参数与缓冲区不做初始化。

    === "中文"

        做法分两步：先在 `meta` 设备上构造模块（meta 张量只有形状没有数据，初始化函数在上面几乎不花时间），
        再用 [`to_empty`][annotated_nn.modules.module.Module.to_empty] 在目标设备上分配未初始化的存储，
        效果如同用 `torch.empty` 创建。目标设备取调用者给的 `device`，默认 `"cpu"`。
        适用条件：构造函数必须接受 `device` 参数并把它交给创建的参数和缓冲区；构造函数里除了初始化
        之外不能对参数做计算（meta 张量上的计算结果没有意义）。
        得到的值是任意的，之后必须自己初始化或加载状态字典（state_dict）。

    === "English"

        Two steps: construct the module on the `meta` device (meta tensors have shapes but no
        data, so initializers cost next to nothing there), then allocate uninitialized storage
        on the target device with [`to_empty`][annotated_nn.modules.module.Module.to_empty],
        as if created by `torch.empty`. The target device is the caller's `device`, default
        `"cpu"`. Requirements: the constructor must take a `device` argument and pass it to the
        parameters and buffers it creates, and must not compute with parameters beyond
        initializing them (results computed on meta tensors are meaningless). The values are
        arbitrary: initialize them yourself or load a state_dict afterwards.

    Args:
        module_cls: A subclass of annotated_nn's `Module`. / annotated_nn `Module` 的子类。
        *args: Positional arguments for the constructor. / 传给构造函数的位置参数。
        **kwargs: Keyword arguments for the constructor; `device` is the final device. / 传给构造函数的关键字参数；`device` 为最终设备。

    Returns:
        The module with uninitialized parameters and buffers. / 参数与缓冲区未初始化的模块。

    Raises:
        RuntimeError: A class that is not a `Module` subclass, or no `device` argument. / 不是 `Module` 子类的类，或构造函数没有 `device` 参数。
        TypeError: `module_cls` is not a class at all (e.g. a module instance): `issubclass` refuses it. / `module_cls` 根本不是类（例如模块实例）：`issubclass` 拒绝它。

    Examples:
        >>> import annotated_nn as nn
        >>> lin = nn.utils.skip_init(nn.Linear, 5, 1)
        >>> lin.weight.shape, lin.weight.device.type
        (torch.Size([1, 5]), 'cpu')
    """
    # 中: 检查的是 `torch.nn.Module`：两个库的模块类都接受；报错文字与 torch 相同。
    # EN: The check is against `torch.nn.Module`: module classes of both libraries pass; the message
    # EN: is torch's.
    if not issubclass(module_cls, torch.nn.Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")

    # 中: 取出调用者要的最终设备，构造时改用 meta，再一次性在最终设备上分配空存储。
    # EN: Take out the caller's final device, construct on meta, then allocate empty storage
    #     on the final device in one go.
    final_device = kwargs.pop("device", "cpu")
    kwargs["device"] = "meta"
    return module_cls(*args, **kwargs).to_empty(device=final_device)
