r"""Split inputs across devices and collect outputs back: `scatter` / `gather`. / 把输入切分到各设备、再把输出收回：`scatter` / `gather`。

=== "中文"

    [`DataParallel`][annotated_nn.parallel.data_parallel.DataParallel] 一次前向传播（forward pass）的
    第一步和最后一步。`scatter` 沿 `dim` 把每个张量切成大致相等的几块，每块放到一块 GPU 上；
    tuple、list、dict、namedtuple 会被递归拆开再按设备重新组装；其它对象（数字、字符串……）
    不切分，每个设备拿到同一个对象的引用。`gather` 做相反的事：把各设备的输出沿 `dim` 拼接到
    目标设备上，同样递归处理容器。

    真正搬运数据的是 PyTorch 的通信原语 `torch.nn.parallel._functions.Scatter` / `Gather`
    （两个 autograd Function：反向传播（backward pass）时梯度按相反方向流动）。本文件只负责
    "递归拆装容器"这一层逻辑。

=== "English"

    The first and last steps of one
    [`DataParallel`][annotated_nn.parallel.data_parallel.DataParallel] forward pass. `scatter`
    chunks every tensor along `dim` into roughly equal pieces, one per GPU; tuples, lists, dicts
    and namedtuples are taken apart recursively and reassembled per device; any other object
    (numbers, strings, ...) is not split: every device gets a reference to the same object.
    `gather` does the reverse: it concatenates the per-device outputs along `dim` on the target
    device, recursing through containers the same way.

    The data movement itself is PyTorch's communication primitives
    `torch.nn.parallel._functions.Scatter` / `Gather` (autograd Functions, so gradients flow the
    opposite way in the backward pass). This file is only the "take containers apart and put
    them back together" logic.
"""

from collections.abc import Sequence
from typing import Any

import torch
from torch.nn.parallel._functions import Gather, Scatter
from typing_extensions import deprecated

__all__ = ["scatter", "scatter_kwargs", "gather"]


@deprecated(
    "`is_namedtuple` is deprecated, please use the python checks instead",
    category=FutureWarning,
)
def is_namedtuple(obj: Any) -> bool:
    r"""Deprecated public alias of `_is_namedtuple`. / `_is_namedtuple` 的已弃用公开别名。

    === "中文"

        PyTorch 保留它只为兼容旧代码，调用时发出 FutureWarning。

    === "English"

        Kept by PyTorch for old code only; calling it emits a FutureWarning.

    Args:
        obj: Any object. / 任意对象。

    Returns:
        Whether `obj` is a namedtuple instance. / `obj` 是否为 namedtuple 实例。
    """
    return _is_namedtuple(obj)


def _is_namedtuple(obj: Any) -> bool:
    r"""Tell a namedtuple from a plain tuple by duck typing. / 用鸭子类型区分 namedtuple 与普通 tuple。

    === "中文"

        `collections.namedtuple` 与 `typing.NamedTuple` 生成的类都有 `_asdict` 和 `_fields`。
        区分它们很重要：namedtuple 的构造函数按位置接收各字段，不能像普通 tuple 那样传一个可迭代对象。

    === "English"

        Classes made by `collections.namedtuple` and `typing.NamedTuple` both have `_asdict` and
        `_fields`. The distinction matters: a namedtuple's constructor takes its fields
        positionally, not one iterable as a plain tuple does.

    Args:
        obj: Any object. / 任意对象。

    Returns:
        Whether `obj` is a namedtuple instance. / `obj` 是否为 namedtuple 实例。
    """
    return isinstance(obj, tuple) and hasattr(obj, "_asdict") and hasattr(obj, "_fields")


def scatter(inputs: Any, target_gpus: Sequence[int | torch.device], dim: int = 0) -> Any:
    r"""Chunk tensors across `target_gpus`; copy references to everything else. / 把张量切块分到 `target_gpus`，其它对象只复制引用。

    === "中文"

        返回值按设备排列：第 `i` 个元素是第 `i` 块设备上的那一份输入。一个细节与直觉不同：
        输入是单个张量时返回 tuple，是容器时返回 list（这是 PyTorch 的原样行为）。
        张量沿 `dim` 能切出的块数可能少于设备数（例如 batch 比 GPU 少），此时结果也更短，
        `zip` 会截断到最短的那一份——这就是 `DataParallel` 只用前 `len(inputs)` 块 GPU 的原因。

    === "English"

        The result is indexed by device: element `i` is the share for device `i`. One detail
        defies intuition: a single tensor input yields a tuple, a container yields a list
        (PyTorch's own behavior). A tensor may split along `dim` into fewer chunks than there
        are devices (a batch smaller than the GPU count); the result is then shorter, and `zip`
        truncates to the shortest share, which is why `DataParallel` uses only the first
        `len(inputs)` GPUs.

    Args:
        inputs: A tensor or a nested container of them. / 张量或嵌套的容器。
        target_gpus: Device indices or devices. / 设备编号或设备。
        dim: The dimension to chunk along. / 沿哪个维度切分。

    Returns:
        One share of `inputs` per device. / 每个设备一份输入。
    """

    def scatter_map(obj: Any) -> Any:
        r"""Scatter one object, recursing into containers. / 切分一个对象，遇到容器就递归。

        === "中文"

            对每个元素递归地得到"每设备一份"的列表，再用 `zip(*...)` 转置成"每设备一个容器"。

        === "English"

            Recursively gets a per-device list for each element, then transposes with `zip(*...)`
            into one container per device.

        Args:
            obj: The object to scatter. / 要切分的对象。

        Returns:
            One share of `obj` per device. / 每个设备一份。
        """
        # 中: 张量：交给可微的 `Scatter`，`chunk_sizes=None` 表示尽量均分；返回每设备一块的 tuple，
        # 中: 块数可能少于设备数。反向传播时 `Scatter` 把各块的梯度拼回输入原来的设备。
        # EN: A tensor goes to the differentiable `Scatter`; `chunk_sizes=None` means split as
        # EN: evenly as possible. It returns a tuple with one chunk per device, maybe fewer chunks
        # EN: than devices. In the backward pass `Scatter` gathers the chunks' gradients back onto
        # EN: the input's original device.
        if isinstance(obj, torch.Tensor):
            return Scatter.apply(target_gpus, None, dim, obj)
        # 中: 容器：先对每个元素递归得到"每设备一份"，再用 `zip(*...)` 转置成"每设备一个容器"。
        # 中: `zip` 截断到最短的一份：只要有一个张量切出的块更少，整个结果就跟着变短。
        # 中: namedtuple 必须按位置传字段，所以要 `*args`；普通 tuple 转置后直接就是 tuple。
        # EN: Containers: recurse into each element to get one share per device, then transpose
        # EN: with `zip(*...)` into one container per device. `zip` truncates to the shortest: a
        # EN: single tensor that yields fewer chunks shortens the whole result. A namedtuple takes
        # EN: its fields positionally, hence `*args`; for a plain tuple the transposed rows are
        # EN: already tuples.
        if _is_namedtuple(obj):
            return [type(obj)(*args) for args in zip(*map(scatter_map, obj), strict=False)]
        if isinstance(obj, tuple) and len(obj) > 0:
            return list(zip(*map(scatter_map, obj), strict=False))
        # 中: list 每份重新建成 list；dict 按 `(key, value)` 对递归（键是字符串，每设备得到同一个键），
        # 中: 再用 `type(obj)` 重建，所以 dict 子类的构造函数必须接受一个 `(key, value)` 对的序列。
        # EN: A list is rebuilt as a list per share; a dict recurses over `(key, value)` pairs (a
        # EN: string key is simply repeated per device) and is rebuilt with `type(obj)`, so a dict
        # EN: subclass's constructor must accept a sequence of `(key, value)` pairs.
        if isinstance(obj, list) and len(obj) > 0:
            return [list(i) for i in zip(*map(scatter_map, obj), strict=False)]
        if isinstance(obj, dict) and len(obj) > 0:
            return [type(obj)(i) for i in zip(*map(scatter_map, obj.items()), strict=False)]
        # 中: 其它对象（数字、字符串、空容器、自定义类）不切分：每个设备拿到同一个对象的引用，
        # 中: 各线程若在 `forward` 里修改它，会互相干扰。
        # EN: Anything else (numbers, strings, empty containers, custom classes) is not split:
        # EN: every device gets a reference to the same object, so replicas that mutate it in
        # EN: `forward` interfere with each other.
        return [obj for _ in target_gpus]

    # 中: scatter_map 递归引用自己：函数的闭包里有一个指向函数本身的单元（cell），两者成环。
    # 中: 不打破的话，这个函数以及它捕获的 `target_gpus`、`dim` 只能等循环垃圾回收器来释放
    # 中: （输入张量不在环里）；置为 None 清空单元，引用计数就能立即释放它们，每次前向传播
    # 中: 不再留下循环垃圾。
    # EN: scatter_map refers to itself: its closure holds a cell pointing back at the function,
    # EN: a cycle. Left alone, the function and what it captures (`target_gpus`, `dim`) wait for
    # EN: the cyclic garbage collector (the input tensors are not in the cycle); setting it to
    # EN: None clears the cell, so reference counting frees them at once and no cyclic garbage
    # EN: is left behind on each forward pass.
    try:
        result = scatter_map(inputs)
    finally:
        scatter_map = None  # type: ignore[assignment]
    return result


def scatter_kwargs(
    inputs: tuple[Any, ...],
    kwargs: dict[str, Any] | None,
    target_gpus: Sequence[int | torch.device],
    dim: int = 0,
) -> tuple[tuple[Any, ...], tuple[dict[str, Any], ...]]:
    r"""Scatter positional and keyword arguments together. / 同时切分位置参数与关键字参数。

    === "中文"

        分别切分 `inputs` 和 `kwargs`，再把较短的一边补齐（补空 tuple 或空 dict），
        使每个设备都有一对 `(args, kwargs)`。

        注意第二个比较用的是位置参数的个数 `len(inputs)`，而不是切分后的份数，这是 PyTorch 的原样行为：
        例如一个位置参数切成 2 份、关键字参数只切出 1 份时，kwargs 不会被补齐，两边长度不同。
        我们照搬这一点以保持行为一致。

    === "English"

        Scatters `inputs` and `kwargs` separately, then pads the shorter side (with empty tuples
        or empty dicts) so every device gets an `(args, kwargs)` pair.

        Note that the second comparison uses the number of positional arguments, `len(inputs)`,
        not the number of shares; this is PyTorch's own behavior: e.g. one positional argument
        split in 2 shares with keyword arguments split in 1 leaves the kwargs unpadded, so the two
        sides differ in length. It is kept here for equality.

    Args:
        inputs: Positional arguments. / 位置参数。
        kwargs: Keyword arguments or `None`. / 关键字参数或 `None`。
        target_gpus: Device indices or devices. / 设备编号或设备。
        dim: The dimension to chunk along. / 沿哪个维度切分。

    Returns:
        `(per-device args, per-device kwargs)`. / `(每设备位置参数, 每设备关键字参数)`。
    """
    # 中: 两边各自切分，空的一边得到 `[]`。份数可以不同：张量按 batch 切出的份数可能少于设备数，
    # 中: 而只含非张量的一边总是每设备一份。
    # EN: Each side is scattered on its own; an empty side gives `[]`. The share counts may
    # EN: differ: tensors can yield fewer shares than devices, while a side holding no tensor
    # EN: always yields one share per device.
    scattered_inputs = scatter(inputs, target_gpus, dim) if inputs else []
    scattered_kwargs = scatter(kwargs, target_gpus, dim) if kwargs else []
    # 中: 位置参数份数少时补空 tuple。陷阱：batch 小于设备数、关键字参数又只有非张量（如
    # 中: `flag=True`）时，后面的设备会拿到 `()`，即副本被调用时没有位置参数。
    # EN: Fewer positional shares: pad with empty tuples. Pitfall: with a batch smaller than the
    # EN: device count and only non-tensor keyword arguments (`flag=True`), the later devices get
    # EN: `()`, i.e. their replicas are called without positional arguments.
    if len(scattered_inputs) < len(scattered_kwargs):
        scattered_inputs.extend(() for _ in range(len(scattered_kwargs) - len(scattered_inputs)))
    # 中: 关键字参数份数少时补空 dict；但条件比较的是位置参数个数 `len(inputs)`（见文档字符串的怪癖）。
    # 中: 最常见的情形仍然正确：没有关键字参数时 `[]` 被补成每份一个 `{}`。
    # EN: Fewer keyword shares: pad with empty dicts; but the test compares with the number of
    # EN: positional arguments, `len(inputs)` (the quirk in the docstring). The common case still
    # EN: works: with no keyword arguments, `[]` is padded to one `{}` per share.
    elif len(scattered_kwargs) < len(inputs):
        scattered_kwargs.extend({} for _ in range(len(scattered_inputs) - len(scattered_kwargs)))
    return tuple(scattered_inputs), tuple(scattered_kwargs)


def gather(outputs: Any, target_device: int | torch.device, dim: int = 0) -> Any:
    r"""Concatenate per-device outputs on one device, recursing into containers. / 把各设备输出拼接到一个设备上，递归处理容器。

    === "中文"

        `outputs` 按设备排列。看第一份输出的类型决定怎么合并：张量沿 `dim` 拼接；
        `None` 保持 `None`；dict 要求各份键数相同并逐键合并；namedtuple 与其它序列逐位置合并。
        `target_device=-1` 表示 CPU（旧写法，会有弃用警告；推荐写 `"cpu"`）。
        若每份输出是 0 维标量且 `dim=0`，结果是长度等于份数的向量，并发出警告。

    === "English"

        `outputs` is indexed by device. The type of the first share decides how to merge:
        tensors are concatenated along `dim`; `None` stays `None`; dicts must have equal key
        counts and merge key by key; namedtuples and other sequences merge position by position.
        `target_device=-1` means the CPU (an old spelling with a deprecation warning; prefer
        `"cpu"`). Scalar (0-dim) outputs with `dim=0` become a vector with one entry per share,
        with a warning.

    Args:
        outputs: One output per device. / 每个设备一份输出。
        target_device: Where the result goes. / 结果放到哪个设备。
        dim: The dimension to concatenate along. / 沿哪个维度拼接。

    Returns:
        The merged output. / 合并后的输出。

    Raises:
        ValueError: Dicts with different numbers of keys. / 各份 dict 的键数不同。
    """

    def gather_map(outputs: Any) -> Any:
        r"""Merge one level of per-device outputs. / 合并一层各设备输出。

        === "中文"

            递归地对容器的每个位置（或每个键）调用自己。

        === "English"

            Calls itself on each position (or key) of a container.

        Args:
            outputs: One object per device. / 每个设备一个对象。

        Returns:
            The merged object. / 合并后的对象。

        Raises:
            ValueError: Dicts with different numbers of keys. / 各份 dict 的键数不同。
        """
        # 中: 只看第一份决定怎么合并，默认其余各份同类型。张量：交给可微的 `Gather` 沿 `dim` 拼接
        # 中: （全是 0 维标量且 `dim=0` 时先各自变成长度 1 的向量，并发出警告）；反向传播时它把梯度
        # 中: 按原来的大小切回各设备。
        # EN: The first share alone decides how to merge; the others are assumed to match. Tensors
        # EN: go to the differentiable `Gather`, concatenated along `dim` (if all are 0-dim scalars
        # EN: and `dim=0`, each becomes a length-1 vector first, with a warning); in the backward
        # EN: pass it splits the gradient back to the devices by the original sizes.
        first = outputs[0]
        if isinstance(first, torch.Tensor):
            return Gather.apply(target_device, dim, *outputs)
        if first is None:
            return None
        # 中: dict：只检查键的个数，键名以第一份为准；键数相同但键名不同时，`d[k]` 抛 KeyError。
        # EN: Dicts: only the key count is checked and the first share's keys are used; equal
        # EN: counts with different names raise KeyError at `d[k]`.
        if isinstance(first, dict):
            if not all(len(first) == len(d) for d in outputs):
                raise ValueError("All dicts must have the same number of keys")
            return type(first)((k, gather_map([d[k] for d in outputs])) for k in first)
        # 中: 其余一律当作序列逐位置合并（`strict=True`：长度不同抛 ValueError）。namedtuple 用
        # 中: `_make` 接收一个可迭代对象；其它类型用 `type(first)(iterable)` 重建，所以数字会抛
        # 中: TypeError，字符串则得到一个无意义的结果。
        # EN: Everything else is merged position by position as a sequence (`strict=True`: unequal
        # EN: lengths raise ValueError). A namedtuple is rebuilt with `_make`, which takes one
        # EN: iterable; other types with `type(first)(iterable)`, so numbers raise TypeError and
        # EN: strings give a meaningless result.
        if _is_namedtuple(first):
            return type(first)._make(map(gather_map, zip(*outputs, strict=True)))
        return type(first)(map(gather_map, zip(*outputs, strict=True)))

    # 中: 与 scatter 相同：清空递归闭包的单元，打破函数与单元之间的引用环。
    # EN: As in scatter: clear the recursive closure's cell, breaking the function ↔ cell cycle.
    try:
        result = gather_map(outputs)
    finally:
        gather_map = None  # type: ignore[assignment]
    return result
