r"""Flatten parameters into one vector and back; mirrors `torch.nn.utils.convert_parameters`. / 参数与单个向量互相转换，对应 `torch.nn.utils.convert_parameters`。

=== "中文"

    有些算法把整个模型看成一个长向量：二阶方法、进化策略、把梯度拼起来求夹角的分析工具。
    [`parameters_to_vector`][annotated_nn.utils.convert_parameters.parameters_to_vector]
    把每个参数（parameter）摊平成一维，再按迭代顺序拼接成一个新向量；
    [`vector_to_parameters`][annotated_nn.utils.convert_parameters.vector_to_parameters]
    反过来按同样的顺序切片，把每一段装回对应参数的 `.data`。两边用的顺序都是调用者给的
    可迭代对象的顺序（通常是 `model.parameters()`），所以来回一趟得到的是原来的值。

    两个函数只处理张量的可迭代对象，不接触模块本身，因此对 annotated_nn 与 torch.nn
    的模型同样适用。所有张量必须在同一设备（device）上：检查由
    [`_check_param_device`][annotated_nn.utils.convert_parameters._check_param_device] 完成。

    1.5.1 → 2.13：两个函数的做法没有变；1.5.1 的设备检查只认 CUDA（`is_cuda`），
    2.13 也把 PrivateUse1 后端（自定义加速器）当作带编号的设备。

=== "English"

    Some algorithms treat a whole model as one long vector: second-order methods, evolution
    strategies, analysis tools that compare concatenated gradients.
    [`parameters_to_vector`][annotated_nn.utils.convert_parameters.parameters_to_vector]
    flattens each parameter to one dimension and concatenates them, in iteration order, into a
    new vector; [`vector_to_parameters`][annotated_nn.utils.convert_parameters.vector_to_parameters]
    slices a vector in the same order and installs each piece as the `.data` of its parameter.
    Both use the order of the iterable the caller passes (usually `model.parameters()`), so a
    round trip gives back the original values.

    Both functions handle iterables of tensors only and never touch a module, so they work for
    annotated_nn and torch.nn models alike. All tensors must sit on one device; the check is
    done by [`_check_param_device`][annotated_nn.utils.convert_parameters._check_param_device].

    1.5.1 → 2.13: both functions work as before; 1.5.1's device check knew CUDA only
    (`is_cuda`), 2.13 also treats the PrivateUse1 backend (a custom accelerator) as a numbered
    device.
"""

from collections.abc import Iterable

import torch


def parameters_to_vector(parameters: Iterable[torch.Tensor]) -> torch.Tensor:
    r"""Concatenate the flattened parameters into one new vector. / 把各参数摊平后拼接成一个新向量。

    === "中文"

        每个参数先用 `view(-1)` 摊平（不复制，所以步长必须允许这样看成一维，例如转置过的张量会报错），
        再由 `torch.cat` 一次性复制进新向量。结果是新的存储：改它不影响模型；
        如果参数需要梯度，结果也连在计算图上。空的可迭代对象会让 `torch.cat` 抛出 `ValueError`。

    === "English"

        Each parameter is flattened with `view(-1)` (no copy, so its strides must allow a
        one-dimensional view; a transposed tensor, for one, raises), then `torch.cat` copies
        them all into the new vector at once. The result has new storage: changing it leaves
        the model alone; when the parameters require grad, the result is attached to the
        autograd graph. An empty iterable makes `torch.cat` raise `ValueError`.

    Args:
        parameters: The tensors, e.g. `model.parameters()`. / 张量的可迭代对象，例如 `model.parameters()`。

    Returns:
        A one-dimensional tensor of all elements, in order. / 按顺序包含全部元素的一维张量。

    Raises:
        TypeError: Parameters on two CUDA (or PrivateUse1) devices, or on one of those and any other device. / 参数分处两个 CUDA（或 PrivateUse1）设备，或其中之一与其他任何设备混用。
        RuntimeError: Other mixes, e.g. CPU and meta, which the check counts as one device: `torch.cat` refuses them. / 其他混用，例如 CPU 与 meta（检查把它们算作同一个设备）：由 `torch.cat` 拒绝。
        ValueError: No parameters at all. / 一个参数也没有。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> from annotated_nn.utils.convert_parameters import parameters_to_vector
        >>> lin = nn.Linear(2, 1)
        >>> parameters_to_vector(lin.parameters()).shape
        torch.Size([3])
    """
    # 中: `None` 表示“还没见过参数”；第一个参数把它定为自己的设备编号，其后的参数都要与之相符。
    # EN: `None` means "no parameter seen yet"; the first parameter sets it to its device number,
    # EN: and every later one must match.
    param_device = None
    flat_pieces = []
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        flat_pieces.append(param.view(-1))
    # 中: 只在最后拼接一次：一次分配、一次复制，而不是逐个追加。
    # EN: Concatenate once at the end: one allocation and one copy instead of growing step by step.
    return torch.cat(flat_pieces)


def vector_to_parameters(vec: torch.Tensor, parameters: Iterable[torch.Tensor]) -> None:
    r"""Install consecutive slices of `vec` as the parameters' data. / 把 `vec` 的连续切片装为各参数的数据。

    === "中文"

        按迭代顺序，每个参数取走 `vec` 中接下来 `numel()` 个元素，`view_as` 成参数的形状后
        赋给 `param.data`。这是替换数据而不是复制：之后参数与 `vec` 共享存储，改动 `vec`
        会直接反映到参数上；参数对象本身（以及它的 `.grad`、钩子）不变，优化器仍持有它。
        `vec` 比参数总数长时多出的元素被忽略；短了则 `view_as` 因元素数不符而抛出 `RuntimeError`。

    === "English"

        In iteration order, each parameter takes the next `numel()` elements of `vec`, viewed
        with `view_as` to the parameter's shape and assigned to `param.data`. This swaps the
        data rather than copying: afterwards the parameter shares storage with `vec`, and
        changes to `vec` show in the parameter; the parameter object itself (with its `.grad`
        and hooks) stays, so optimizers still hold it. Extra elements at the end of `vec` are
        ignored; too few make `view_as` raise `RuntimeError` for the mismatched element count.

    Args:
        vec: One vector holding all the values. / 存放全部数值的一个向量。
        parameters: The tensors to fill, e.g. `model.parameters()`. / 要填入的张量，例如 `model.parameters()`。

    Raises:
        TypeError: `vec` is not a tensor, or parameters on two CUDA (or PrivateUse1) devices, or on one of those and any other device. / `vec` 不是张量，或参数分处两个 CUDA（或 PrivateUse1）设备，或其中之一与其他任何设备混用。
        RuntimeError: `vec` is too short, or a parameter's device (e.g. meta) does not take `vec`'s data: the `.data` assignment refuses it. / `vec` 太短，或参数所在设备（例如 meta）接受不了 `vec` 的数据：`.data` 赋值拒绝。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> from annotated_nn.utils.convert_parameters import vector_to_parameters
        >>> lin = nn.Linear(2, 1)
        >>> vector_to_parameters(torch.arange(3.0), lin.parameters())
        >>> lin.weight.data, lin.bias.data
        (tensor([[0., 1.]]), tensor([2.]))
    """
    # 中: 先检查类型，报错文字与 torch 相同；`torch.typename` 对非张量给出它的类名。
    # EN: Check the type first, with torch's message; `torch.typename` names a non-tensor's class.
    if not isinstance(vec, torch.Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {torch.typename(vec)}")
    param_device = None
    # 中: `offset` 是下一个参数在 `vec` 里的起点；每装完一个参数就前移它的元素个数。
    # EN: `offset` is where the next parameter starts in `vec`; it moves on by each parameter's
    # EN: element count.
    offset = 0
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        num_elements = param.numel()
        # 中: `.data` 赋值只换张量内容，不经过自动求导，也不改变参数对象的身份。
        # EN: Assigning `.data` swaps the tensor's contents outside autograd and keeps the
        # EN: parameter object's identity.
        param.data = vec[offset : offset + num_elements].view_as(param).data
        offset += num_elements


def _check_param_device(param: torch.Tensor, old_param_device: int | None) -> int:
    r"""Check that `param` sits on the device seen so far. / 检查 `param` 是否在此前见到的设备上。

    === "中文"

        设备被压缩成一个整数：CUDA 与 PrivateUse1 后端（自定义加速器）的张量记作
        `get_device()` 给出的设备编号，其他一切设备都记作 `-1`。第一次调用
        （`old_param_device` 为 `None`）只记下编号；之后的调用在编号不同时抛出 `TypeError`。

        因为所有非加速器设备都是 `-1`，这里分辨不出 CPU 与 meta 设备（meta device）等：
        这种混用要到后面的张量运算才出错（例如 `torch.cat` 的设备不符错误）。

    === "English"

        A device is reduced to one integer: tensors on CUDA and on the PrivateUse1 backend (a
        custom accelerator) count as their `get_device()` index, every other device as `-1`.
        The first call (`old_param_device` is `None`) only records the number; later calls raise
        `TypeError` when it differs.

        Since every non-accelerator device is `-1`, this cannot tell the CPU from, say, the meta
        device: such a mix only fails in a later tensor operation (e.g. `torch.cat`'s device
        mismatch error).

    Args:
        param: The tensor to check. / 要检查的张量。
        old_param_device: The number recorded so far, or `None`. / 目前记下的编号，或 `None`。

    Returns:
        The recorded device number. / 记下的设备编号。

    Raises:
        TypeError: The device number differs. / 设备编号不同。
    """
    # 中: 后端名在调用时读取：PrivateUse1 后端可以在导入本模块之后才改名注册。
    # EN: The backend name is read per call: a PrivateUse1 backend may be renamed after this
    # EN: module is imported.
    accelerator_types = ["cuda", torch._C._get_privateuse1_backend_name()]
    if old_param_device is None:
        return param.get_device() if param.device.type in accelerator_types else -1
    # 中: 加速器上的张量比较设备编号；其他张量要求此前记下的也是 `-1`。报错文字与 torch 相同。
    # EN: An accelerator tensor compares device numbers; any other tensor needs the recorded
    # EN: number to be `-1` too. The message is torch's.
    if param.device.type in accelerator_types:
        mismatch = param.get_device() != old_param_device
    else:
        mismatch = old_param_device != -1
    if mismatch:
        raise TypeError(
            "Found two parameters on different devices, this is currently not supported."
        )
    return old_param_device
