r"""Copy a module tree onto several devices: `replicate`. / 把模块树复制到多个设备上：`replicate`。

=== "中文"

    [`DataParallel`][annotated_nn.parallel.data_parallel.DataParallel] 每次前向传播（forward pass）
    的第二步。它做两件事：

    1. 张量：把全部参数（parameter）和缓冲区（buffer）广播到每个设备。这用 PyTorch 的通信原语：
       需要梯度时用 autograd Function `Broadcast`（反向传播（backward pass）时它把各设备的梯度
       求和回原参数，这就是"梯度汇总到原模块"的来源）；`detach=True` 或不需要梯度的缓冲区用
       `comm.broadcast_coalesced`（把小张量合并成大块再传，减少传输次数）。
    2. 模块树：每个模块用 [`_replicate_for_data_parallel`][annotated_nn.modules.module.Module._replicate_for_data_parallel]
       做一个浅拷贝副本，再按原树的 `_modules` 把副本重新连起来，并把广播得到的张量挂到副本上。

    副本上的参数不再是 `Parameter`：它们是普通张量（记录梯度时是 `Broadcast` 输出的非叶子
    张量），因此用普通属性的方式挂上去；`replica.parameters()` 为空。副本只活在这一次前向传播里。

=== "English"

    The second step of each [`DataParallel`][annotated_nn.parallel.data_parallel.DataParallel]
    forward pass. It does two things:

    1. Tensors: broadcast every parameter and buffer to every device, with PyTorch's
       communication primitives: the autograd Function `Broadcast` when gradients are needed
       (in the backward pass it sums the per-device gradients back into the original
       parameters, which is where "gradients are summed into the original module" comes from);
       `comm.broadcast_coalesced` for `detach=True` or buffers without grad (it packs small
       tensors into larger chunks to cut the number of transfers).
    2. The module tree: each module gets a shallow-copy replica from
       [`_replicate_for_data_parallel`][annotated_nn.modules.module.Module._replicate_for_data_parallel];
       the replicas are rewired following the original tree's `_modules`, and the broadcast
       tensors are attached to them.

    Parameters on a replica are no longer `Parameter`s: they are plain tensors (when gradients
    are recorded, non-leaf outputs of `Broadcast`), so they are attached as plain attributes and
    `replica.parameters()` is empty. A replica lives for one forward pass only.
"""

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, TypeVar

import torch
from torch._utils import _get_device_index
from torch.nn.parallel import comm
from torch.nn.parallel._functions import Broadcast

__all__ = ["replicate"]

T = TypeVar("T")


def _broadcast_coalesced_reshape(
    tensors: Sequence[torch.Tensor],
    devices: Sequence[int | torch.device],
    detach: bool = False,
) -> list[list[torch.Tensor]]:
    r"""Broadcast `tensors` to `devices`, returning one list per device. / 把 `tensors` 广播到 `devices`，每个设备返回一个列表。

    === "中文"

        `detach=False` 时走 `Broadcast.apply`，它返回一个扁平的 tuple（设备 0 的全部张量、
        设备 1 的全部张量……），这里按 `len(tensors)` 切回每设备一个列表。
        `detach=True` 时走不记录梯度的 `comm.broadcast_coalesced`；它内部把复数张量按实数视图
        传输，所以要对复数张量再 `view_as_complex` 还原。对 `UninitializedParameter` 的排除照搬自
        PyTorch；在 2.13 里 `is_complex()` 属于未初始化参数允许调用的方法，本来就返回 False，
        所以这个排除并不改变结果。

    === "English"

        With `detach=False` this goes through `Broadcast.apply`, which returns one flat tuple
        (all tensors for device 0, then device 1, ...); it is cut back into one list per device
        by `len(tensors)`. With `detach=True` it uses `comm.broadcast_coalesced`, which records
        no gradient; that transfers complex tensors as real views, so complex ones are restored
        with `view_as_complex`. The `UninitializedParameter` exclusion is copied from PyTorch; in
        2.13 `is_complex()` is one of the methods allowed on uninitialized parameters and
        returns False anyway, so the exclusion changes nothing.

    Args:
        tensors: The tensors to broadcast. / 要广播的张量。
        devices: Target devices. / 目标设备。
        detach: Whether to skip autograd. / 是否不记录梯度。

    Returns:
        `result[d][k]` is tensor `k` on device `d`. / `result[d][k]` 是第 `k` 个张量在设备 `d` 上的副本。
    """
    from annotated_nn.parameter import UninitializedParameter

    # 中: 没有张量时返回空列表（不是"每设备一个空列表"），调用方也只在有张量时才按 `[j][k]`
    # 中: 取值。这个提前返回是必要的：否则下面按 `len(tensors)` 切分会以 0 为步长调用 `range`。
    # EN: No tensors: return an empty list (not one empty list per device); callers index
    # EN: `[j][k]` only when there are tensors. The early return is needed: otherwise the cut by
    # EN: `len(tensors)` below would call `range` with a step of 0.
    if len(tensors) == 0:
        return []

    # 中: detach：不经 autograd 的合并广播。传输会把复数张量换成实数视图，所以先记下哪些是复数。
    # EN: detach: a coalesced broadcast outside autograd. The transfer turns complex tensors into
    # EN: real views, so record first which ones are complex.
    if detach:
        complex_mask = [
            not isinstance(t, UninitializedParameter) and t.is_complex() for t in tensors
        ]
        # 中: 返回值已经是"每设备一个列表"；复数张量回来时是实数视图（末尾多一维 2），
        # 中: 按掩码逐个还原成复数。
        # EN: The result is already one list per device; complex tensors come back as real views
        # EN: (an extra trailing dim of 2) and are turned back into complex ones by the mask.
        outputs = comm.broadcast_coalesced(tensors, devices)
        for device_outputs in outputs:
            for i, is_complex in enumerate(complex_mask):
                if is_complex:
                    device_outputs[i] = torch.view_as_complex(device_outputs[i])
        return outputs

    # 中: 可微的广播：`Broadcast.apply` 把所有张量一次发出，返回扁平 tuple（设备 0 的全部张量，
    # 中: 再设备 1 的……），这里按 `len(tensors)` 切回 `result[d][k]`。它的反向传播用
    # 中: `ReduceAddCoalesced` 把各设备的梯度求和到输入所在的设备，梯度因此回到原张量。
    # 中: 不需要梯度的输入，其各设备副本被标为不可微。
    # EN: The differentiable broadcast: `Broadcast.apply` sends all tensors at once and returns a
    # EN: flat tuple (every tensor for device 0, then device 1, ...), cut back here into
    # EN: `result[d][k]` by `len(tensors)`. Its backward uses `ReduceAddCoalesced` to sum the
    # EN: per-device gradients onto the inputs' device, so they reach the original tensors.
    # EN: Copies of inputs that do not require grad are marked non-differentiable.
    tensor_copies = Broadcast.apply(devices, *tensors)
    return [
        list(tensor_copies[i : i + len(tensors)])
        for i in range(0, len(tensor_copies), len(tensors))
    ]


def replicate(network: T, devices: Sequence[int | torch.device], detach: bool = False) -> list[T]:
    r"""Make one copy of `network` per device, sharing the autograd graph. / 为每个设备做一份 `network` 的副本，共享 autograd 图。

    === "中文"

        返回的第 `j` 个元素是设备 `devices[j]` 上的根模块副本。树结构、`None` 占位的子模块 /
        参数 / 缓冲区、以及同一个子模块出现在多处（共享子模块）的情况都被如实复制：
        每个原模块在每个设备上只对应一个副本（`module_indices` 保证了这一点）。

        `detach=True`（`DataParallel` 在 `torch.no_grad()` 下如此调用）时广播不记录梯度。
        需要梯度的缓冲区在 `detach=False` 时也走 `Broadcast`，其余缓冲区一律不记录梯度。

    === "English"

        Element `j` of the result is the root replica on `devices[j]`. The tree structure,
        `None` placeholders for submodules / parameters / buffers, and a submodule appearing in
        several places (shared submodules) are all reproduced: each original module maps to
        exactly one replica per device (`module_indices` ensures that).

        With `detach=True` (how `DataParallel` calls it under `torch.no_grad()`) the broadcast
        records no gradient. Buffers that require grad go through `Broadcast` when
        `detach=False`; all other buffers are broadcast without autograd.

    Args:
        network: The root module to copy. / 要复制的根模块。
        devices: Target devices (indices or `torch.device`). / 目标设备（编号或 `torch.device`）。
        detach: Whether to cut the replicas from autograd. / 是否让副本脱离 autograd。

    Returns:
        One root replica per device. / 每个设备一个根副本。

    Raises:
        ValueError: A CPU device was given. / 给了 CPU 设备。
    """
    # DIFF(torch 2.13):
    # 中: PyTorch 先检查"ScriptModule 下面是否挂着 Python 模块"；我们的模块树里不会有
    # 中: ScriptModule（它是 torch.nn.Module 的子类，只能作为普通属性挂上，不进 `_modules`），
    # 中: 所以省去这一步。
    # EN: PyTorch first checks for Python modules under a ScriptModule; our trees hold no
    # EN: ScriptModule (a torch.nn.Module subclass can only be a plain attribute, never in
    # EN: `_modules`), so that check is omitted.
    if not devices:
        return []

    # 中: 设备规整成整数编号；CPU 设备在这里就抛 ValueError（广播只在加速器之间进行）。
    # EN: Devices are normalized to integer indices; a CPU device raises ValueError right here
    # EN: (broadcasts only run between accelerators).
    devices = [_get_device_index(x, True) for x in devices]
    num_replicas = len(devices)

    # 中: 参数按 parameters() 的顺序编号；之后用"原张量 → 序号"找到它在每个设备上的副本。
    # 中: parameters() 按对象去重，所以绑定的权重只广播一次，两个名字挂上同一个副本，绑定在副本里依然成立。
    # EN: Number the parameters in parameters() order; "original tensor → index" later finds
    # EN: its copy on each device. parameters() dedups by identity, so a tied weight is broadcast
    # EN: once and both names get the same copy: the tie survives in the replicas.
    params = list(network.parameters())  # type: ignore[attr-defined]
    param_indices = {param: idx for idx, param in enumerate(params)}
    param_copies = _broadcast_coalesced_reshape(params, devices, detach)

    # 中: 缓冲区分两组。需要梯度的（且不 detach）走 autograd 的 `Broadcast`，梯度能像参数那样
    # 中: 流回去。其余的（例如 BatchNorm 的运行统计量）没有梯度可回传，就完全绕开 autograd，
    # 中: 用 `detach=True` 广播，不在计算图里留下节点。
    # EN: Buffers split in two. Those that require grad (when not detaching) take the autograd
    # EN: `Broadcast`, so gradients can flow back to them as to parameters. The rest (e.g.
    # EN: BatchNorm's running statistics) have no gradient to send back, so they bypass autograd
    # EN: entirely with `detach=True`, leaving no node in the graph.
    buffers = list(network.buffers())  # type: ignore[attr-defined]
    buffers_rg: list[torch.Tensor] = []
    buffers_not_rg: list[torch.Tensor] = []
    for buf in buffers:
        if buf.requires_grad and not detach:
            buffers_rg.append(buf)
        else:
            buffers_not_rg.append(buf)
    # 中: 两组各自编号、各自广播（两次合并传输）；第二遍挂缓冲区时按同样的条件决定去哪组查。
    # EN: Each group gets its own numbering and its own broadcast (two coalesced transfers); pass
    # EN: two picks the group again by the same condition when attaching buffers.
    buffer_indices_rg = {buf: idx for idx, buf in enumerate(buffers_rg)}
    buffer_indices_not_rg = {buf: idx for idx, buf in enumerate(buffers_not_rg)}
    buffer_copies_rg = _broadcast_coalesced_reshape(buffers_rg, devices, detach=detach)
    buffer_copies_not_rg = _broadcast_coalesced_reshape(buffers_not_rg, devices, detach=True)

    # 中: 第一遍：每个模块在每个设备上做一个浅拷贝副本（`_replicate_for_data_parallel`：不调用
    # 中: `__init__`，复制实例字典，清空 `_parameters`，复制 `_buffers`/`_modules` 两个字典）。
    # 中: modules() 已去重，共享子模块只复制一次；`module_indices` 记下"原模块 → 序号"。
    # EN: Pass one: a shallow replica of every module on every device
    # EN: (`_replicate_for_data_parallel`: no `__init__`, the instance dict copied, `_parameters`
    # EN: emptied, the `_buffers`/`_modules` dicts copied). modules() deduplicates, so a shared
    # EN: submodule is replicated once; `module_indices` records "original module → index".
    modules = list(network.modules())  # type: ignore[attr-defined]
    module_copies: list[list[Any]] = [[] for _ in devices]
    module_indices: dict[Any, int] = {}
    for i, module in enumerate(modules):
        module_indices[module] = i
        for j in range(num_replicas):
            replica = module._replicate_for_data_parallel()
            # 中: 副本的 parameters() 为空；DDP 的 `_get_parameters` 在有 `_former_parameters`
            # 中: 时读它来拿到副本上的参数，所以第二遍会把参数副本另存一份在这里。
            # EN: A replica's parameters() is empty; DDP's `_get_parameters` reads
            # EN: `_former_parameters` when present to get a replica's parameters, so pass two also
            # EN: files the parameter copies here.
            replica._former_parameters = OrderedDict()
            module_copies[j].append(replica)

    # 中: 第二遍：按原模块的三个字典，把副本连成树并挂上张量副本。
    # EN: Pass two: following each original's three dicts, wire the replicas into a tree and
    # EN: attach the tensor copies.
    for i, module in enumerate(modules):
        # 中: 子模块：`None` 占位原样保留，否则挂上同一设备上对应的子模块副本
        # 中: （共享子模块因此在副本树里依然共享）。
        # EN: Submodules: `None` placeholders are kept; otherwise the child's replica on the
        # EN: same device is attached (so shared submodules stay shared).
        for key, child in module._modules.items():
            if child is None:
                for j in range(num_replicas):
                    module_copies[j][i]._modules[key] = None
            else:
                module_idx = module_indices[child]
                for j in range(num_replicas):
                    setattr(module_copies[j][i], key, module_copies[j][module_idx])
        # 中: 参数：`None` 占位写回（已清空的）`_parameters`；其余按序号取本设备的副本。
        # EN: Parameters: a `None` placeholder goes back into the (emptied) `_parameters`; the
        # EN: others take this device's copy by index.
        for key, param in module._parameters.items():
            if param is None:
                for j in range(num_replicas):
                    module_copies[j][i]._parameters[key] = None
            else:
                # 中: 用"原参数 → 序号"查到它在 `params` 里的位置；绑定的权重在这里查到同一个序号。
                # EN: "original parameter → index" gives its position in `params`; a tied weight
                # EN: finds the same index here.
                param_idx = param_indices[param]
                for j in range(num_replicas):
                    replica = module_copies[j][i]
                    param_copy = param_copies[j][param_idx]
                    # 中: 副本是普通张量（开启梯度时是 `Broadcast` 输出的非叶子张量）；包成 Parameter
                    # 中: 会造出新的叶子张量、切断与原参数的 autograd 联系，所以作为普通属性挂上
                    # 中: （副本的 _parameters 已被清空，__setattr__ 会把它放进 __dict__）。
                    # EN: The copy is a plain tensor (with grad, a non-leaf output of `Broadcast`);
                    # EN: wrapping it as a Parameter would make a new leaf and cut the autograd link
                    # EN: to the original, so it becomes a plain attribute (the replica's
                    # EN: _parameters was emptied, so __setattr__ puts it in __dict__).
                    setattr(replica, key, param_copy)
                    replica._former_parameters[key] = param_copy
        # 中: 缓冲区：`None` 占位原样写回副本的 `_buffers`。
        # EN: Buffers: a `None` placeholder is written back into the replica's `_buffers`.
        for key, buf in module._buffers.items():
            if buf is None:
                for j in range(num_replicas):
                    module_copies[j][i]._buffers[key] = None
            else:
                # 中: 按广播时的同一条件回到对应的那一组，用该组的序号取副本。
                # EN: The same condition as at broadcast time picks the group, whose numbering
                # EN: then finds the copy.
                if buf.requires_grad and not detach:
                    buffer_copies = buffer_copies_rg
                    buffer_idx = buffer_indices_rg[buf]
                else:
                    buffer_copies = buffer_copies_not_rg
                    buffer_idx = buffer_indices_not_rg[buf]
                for j in range(num_replicas):
                    # 中: 名字仍在副本的 _buffers 里（浅拷贝保留了它），__setattr__ 会写回 _buffers，
                    # 中: 所以副本的 buffers() 不为空，这一点与参数不同。
                    # EN: The name is still in the replica's _buffers (kept by the shallow copy),
                    # EN: so __setattr__ writes it back into _buffers; unlike parameters, a
                    # EN: replica's buffers() is therefore not empty.
                    setattr(module_copies[j][i], key, buffer_copies[j][buffer_idx])

    # 中: modules() 的第一个元素是根模块本身，所以每个设备的第 0 个副本就是根副本。
    # EN: modules() yields the root first, so each device's replica 0 is the root replica.
    return [module_copies[j][0] for j in range(num_replicas)]
