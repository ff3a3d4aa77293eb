r"""Weight normalization kept up to date by a forward pre-hook: `weight_norm`. / 由前向预钩子维护的权重归一化：`weight_norm`。

=== "中文"

    对应 `torch.nn.utils.weight_norm`（论文 https://arxiv.org/abs/1602.07868）。权重归一化把
    权重写成 `w = g * v / ||v||`：`g` 管大小，`v` 管方向，两者分开学习。这里是第一代实现，
    做法完全建立在模块系统的公开机制上：

    1. 把参数 `weight` 从 `_parameters` 中删掉，换成两个新参数 `weight_g`（大小）与
       `weight_v`（方向）；
    2. 把算出的 `weight` 作为**普通属性**放回模块，`forward` 照常读 `self.weight`；
    3. 注册一个前向预钩子（forward pre-hook），即 [`WeightNorm`][annotated_nn.utils.weight_norm.WeightNorm]
       对象本身，在每次调用模块前由 `g`、`v` 重新算出 `weight`。

    于是优化器看到的是 `weight_g` 与 `weight_v`，状态字典（state_dict）里也只有它们；
    `weight` 不是参数，也不写入状态字典。

    1.5.1 → 2.13：函数已弃用，调用时发出 `FutureWarning`，推荐改用基于
    `register_parametrization` 的 `parametrizations.weight_norm`；另外新增了对惰性模块
    （lazy module）未初始化参数的检查。

=== "English"

    Mirrors `torch.nn.utils.weight_norm` (paper: https://arxiv.org/abs/1602.07868). Weight
    normalization writes a weight as `w = g * v / ||v||`: `g` carries the magnitude and `v` the
    direction, and the two are learned separately. This is the first-generation implementation,
    built entirely on the module system's public mechanisms:

    1. the parameter `weight` is removed from `_parameters` and replaced by two new parameters,
       `weight_g` (magnitude) and `weight_v` (direction);
    2. the computed `weight` goes back on the module as a **plain attribute**, so `forward`
       reads `self.weight` as usual;
    3. a forward pre-hook, the [`WeightNorm`][annotated_nn.utils.weight_norm.WeightNorm] object
       itself, recomputes `weight` from `g` and `v` before every call of the module.

    Optimizers therefore see `weight_g` and `weight_v`, and so does the state_dict; `weight`
    is no parameter and is not saved.

    1.5.1 → 2.13: the function is deprecated and emits a `FutureWarning` recommending
    `parametrizations.weight_norm`, built on `register_parametrization`; a check for the
    uninitialized parameters of lazy modules was added.
"""

from typing import TYPE_CHECKING, Any, TypeVar

from torch import _weight_norm, norm_except_dim
from typing_extensions import deprecated

from annotated_nn.parameter import Parameter, UninitializedParameter

# 中: 只为类型标注导入 `Module`：本文件经 `annotated_nn.utils` 包的 `__init__` 导入，而
# 中: `module.py` 自己导入时就会执行那个 `__init__`，运行时导入 `Module` 会形成循环导入。
# EN: `Module` is imported for annotations only: this file is imported by the
# EN: `annotated_nn.utils` package `__init__`, which runs while `module.py` itself is being
# EN: imported, so a runtime import of `Module` would be circular.
if TYPE_CHECKING:
    from annotated_nn.modules.module import Module

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm"]


class WeightNorm:
    r"""The forward pre-hook that recomputes `w = g * v / ||v||`. / 重新计算 `w = g * v / ||v||` 的前向预钩子。

    === "中文"

        一个对象负责一个参数名：`name` 是被替换的参数名，两个新参数叫 `name + "_g"` 与
        `name + "_v"`。`dim` 是保留的维度：沿 `dim` 的每个切片各有自己的范数与大小
        （默认 `0`，对 `Linear` 与卷积即每个输出通道一个）；`dim=-1` 表示对整个张量
        只算一个范数（用户传 `None` 时就换成 `-1`）。

        对象本身可调用，签名 `(module, inputs)` 正是前向预钩子的签名，所以直接把它交给
        [`register_forward_pre_hook`][annotated_nn.modules.module.Module.register_forward_pre_hook]。
        [`remove_weight_norm`][annotated_nn.utils.weight_norm.remove_weight_norm] 也靠
        `isinstance(hook, WeightNorm)` 在钩子表里认出它。

    === "English"

        One object serves one parameter name: `name` is the parameter replaced, the two new
        parameters are `name + "_g"` and `name + "_v"`. `dim` is the dimension kept: each slice
        along `dim` gets its own norm and magnitude (default `0`: one per output channel of a
        `Linear` or convolution);
        `dim=-1` means a single norm over the whole tensor (a user's `None` becomes `-1`).

        The object is callable with `(module, inputs)`, exactly a forward pre-hook's signature,
        so it is handed to
        [`register_forward_pre_hook`][annotated_nn.modules.module.Module.register_forward_pre_hook]
        as it is. [`remove_weight_norm`][annotated_nn.utils.weight_norm.remove_weight_norm]
        also finds it in the hook table by `isinstance(hook, WeightNorm)`.

    Args:
        name: Name of the parameter to normalize. / 要归一化的参数名。
        dim: Dimension kept apart by the norm; `None` means `-1`. / 范数保留的维度；`None` 即 `-1`。
    """

    name: str
    dim: int

    def __init__(self, name: str, dim: int) -> None:
        r"""Remember the parameter name and the norm's dimension. / 记下参数名与范数的维度。

        === "中文"

            不做任何检查：名字是否存在、维度是否合法，要到
            [`apply`][annotated_nn.utils.weight_norm.WeightNorm.apply] 真正取参数、算范数时才知道。

        === "English"

            No checks here: whether the name exists and the dimension is valid only shows when
            [`apply`][annotated_nn.utils.weight_norm.WeightNorm.apply] fetches the parameter
            and computes the norm.

        Args:
            name: Name of the parameter to normalize. / 要归一化的参数名。
            dim: Dimension kept apart by the norm; `None` means `-1`. / 范数保留的维度；`None` 即 `-1`。
        """
        # 中: `None` 与 `-1` 等价：`norm_except_dim` 与 `_weight_norm` 把 `-1` 理解为"整个张量
        # 中: 一个范数"，此时 `weight_g` 是 0 维张量。
        # EN: `None` and `-1` are the same: `norm_except_dim` and `_weight_norm` read `-1` as "one
        # EN: norm over the whole tensor", which makes `weight_g` a 0-dim tensor.
        if dim is None:
            dim = -1
        self.name = name
        self.dim = dim

    def compute_weight(self, module: "Module") -> Any:
        r"""Compute `g * v / ||v||` from the module's two parameters. / 由模块的两个参数算出 `g * v / ||v||`。

        === "中文"

            `torch._weight_norm` 计算 `v * (g / ||v||)`：`dim` 为 `0` 或 `v.dim() - 1` 时用融合内核
            （`grad_fn` 为 `WeightNormInterfaceBackward0`），否则拆成普通的范数、除法与乘法
            （这里的 `-1` 表示整个张量，不是最后一维，所以也不走融合内核）。
            反向传播同时给 `g` 和 `v` 求梯度。结果带着计算图，是非叶子张量。

        === "English"

            `torch._weight_norm` computes `v * (g / ||v||)`: with `dim` equal to `0` or
            `v.dim() - 1` it uses a fused kernel (`grad_fn` is `WeightNormInterfaceBackward0`),
            otherwise plain norm, division and product (`-1` here means the whole tensor, not
            the last dimension, so it takes the plain path too). The backward pass gives gradients to
            both `g` and `v`. The result carries the graph: a non-leaf tensor.

        Args:
            module: The module holding `name_g` and `name_v`. / 持有 `name_g` 与 `name_v` 的模块。

        Returns:
            The normalized weight. / 归一化后的权重。
        """
        # 中: 每次都经 `getattr` 现取：用户可能已替换参数对象（例如 `load_state_dict` 之外的赋值）。
        # EN: Fetched with `getattr` every time: the user may have replaced the parameter objects
        # EN: (an assignment, say, rather than `load_state_dict`).
        magnitude = getattr(module, self.name + "_g")
        direction = getattr(module, self.name + "_v")
        return _weight_norm(direction, magnitude, self.dim)

    @staticmethod
    @deprecated(
        "`torch.nn.utils.weight_norm` is deprecated "
        "in favor of `torch.nn.utils.parametrizations.weight_norm`.",
        category=FutureWarning,
    )
    def apply(module: Any, name: str, dim: int) -> "WeightNorm":
        r"""Replace `name` by `name_g` and `name_v` and install the hook. / 用 `name_g` 与 `name_v` 替换 `name` 并装上钩子。

        === "中文"

            步骤：

            1. 拒绝同一参数名上的第二个 `WeightNorm` 钩子；
            2. 拒绝惰性模块尚未物化（materialize）的参数；
            3. 从 `_parameters` 删掉原参数，登记 `name_g`（按 `dim` 的范数）与 `name_v`
               （原参数的数据本身，共用存储，不复制）；
            4. 先算一次 `name` 放回模块，模块在第一次前向传播之前也有可用的权重；
            5. 注册前向预钩子。

            弃用警告由装饰器 `typing_extensions.deprecated` 在函数体之前发出，所以即使随后
            抛错，`FutureWarning` 也已经发出。警告文字与 torch 逐字相同（写的仍是 torch 的路径）。

        === "English"

            Steps:

            1. refuse a second `WeightNorm` hook on the same parameter name;
            2. refuse a lazy module's parameter that is not materialized yet;
            3. delete the original from `_parameters` and register `name_g` (the norm along
               `dim`) and `name_v` (the original's data itself, sharing storage, not copied);
            4. compute `name` once and put it back, so the module has a usable weight even
               before its first forward pass;
            5. register the forward pre-hook.

            The deprecation warning comes from the decorator `typing_extensions.deprecated`
            before the body runs, so the `FutureWarning` is out even when an error follows. Its
            text is torch's word for word (it still names torch's paths).

        Args:
            module: The module to modify. / 要修改的模块。
            name: Name of the parameter. / 参数名。
            dim: Dimension kept apart by the norm; `None` means `-1`. / 范数保留的维度；`None` 即 `-1`。

        Returns:
            The installed hook. / 装上的钩子。

        Raises:
            RuntimeError: A weight_norm hook already exists for `name`. / `name` 上已有 weight_norm 钩子。
            ValueError: The parameter is uninitialized (lazy module). / 参数尚未初始化（惰性模块）。
            AttributeError: The module has no attribute `name`. / 模块没有名为 `name` 的属性。
            IndexError: `dim` out of range. / `dim` 越界。
            TypeError: `name` is `None` (e.g. `bias` of a layer built with `bias=False`). / `name` 为 `None`（例如 `bias=False` 建出的层的 `bias`）。
        """
        # 中: 第 1 步：第一层归一化之后 `name` 已不是参数而是算出来的普通属性，再套一层没有意义，
        # 中: 所以在改动模块之前就报错。按名字比较：不同参数各自归一化是允许的。
        # EN: Step 1: after one normalization `name` is no parameter but a computed plain
        # EN: attribute, so a second layer makes no sense and is refused before the module is
        # EN: touched. Names are compared: normalizing different parameters is fine.
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two weight_norm hooks on the same parameter {name}"
                )

        if dim is None:
            dim = -1
        hook = WeightNorm(name, dim)

        # 中: 第 2 步：未初始化参数没有形状，范数无从算起。检查的是 annotated_nn 的
        # 中: `UninitializedParameter`（我们的惰性模块持有的类型），报错文字与 torch 相同。
        # EN: Step 2: an uninitialized parameter has no shape, so there is no norm to compute.
        # EN: The check is against annotated_nn's `UninitializedParameter` (the type our lazy
        # EN: modules hold); the message is torch's.
        weight = getattr(module, name)
        if isinstance(weight, UninitializedParameter):
            raise ValueError(
                "The module passed to `WeightNorm` can't have uninitialized parameters. "
                "Make sure to run the dummy forward before applying weight normalization"
            )

        # 中: 第 3 步：直接删 `_parameters` 里的项（不经 `__delattr__`，名字必须是参数，
        # 中: 否则 KeyError）。`name_v` 包的是 `weight.data`：与原参数共用存储，原参数对象
        # 中: 则就此离开模块。`.data` 让两个新参数都是不带历史的叶子张量。
        # EN: Step 3: the entry is deleted from `_parameters` directly (not through `__delattr__`:
        # EN: the name must be a parameter, else KeyError). `name_v` wraps `weight.data`: it
        # EN: shares storage with the original, whose Parameter object leaves the module here.
        # EN: `.data` makes both new parameters leaves without history.
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))

        # 中: 第 4、5 步：`name` 已不在 `_parameters` 中，赋一个普通张量就成了普通属性
        # 中: （见 `Module.__setattr__` 第 6 步）。这个初值带计算图，所以刚套上 weight_norm 的模块
        # 中: 不能 `copy.deepcopy`（torch 对非叶子张量的深拷贝报错），要先在 `torch.no_grad()`
        # 中: 下前向传播一次；之后每次开着梯度的前向传播又会让它不能拷贝。
        # EN: Steps 4 and 5: `name` is no longer in `_parameters`, so a plain tensor assigned to it
        # EN: becomes a plain attribute (see step 6 of `Module.__setattr__`). This first value
        # EN: carries a graph, which is why a freshly weight-normed module cannot be
        # EN: `copy.deepcopy`-ed (torch refuses to deep-copy non-leaf tensors) until a forward
        # EN: pass under `torch.no_grad()`; every forward pass with gradients on makes it
        # EN: uncopyable again.
        setattr(module, name, hook.compute_weight(module))
        module.register_forward_pre_hook(hook)
        return hook

    def remove(self, module: "Module") -> None:
        r"""Fold `g` and `v` back into one plain parameter. / 把 `g` 与 `v` 合回一个普通参数。

        === "中文"

            用当前的 `g`、`v` 算出最终权重，删掉普通属性 `name` 与两个参数，再把权重的数据
            包成新的 [`Parameter`][annotated_nn.parameter.Parameter] 登记回 `name`。
            新参数是新对象：优化器里登记的仍是旧的 `name_g`、`name_v`，需要重建优化器。
            钩子表里的项由调用者
            [`remove_weight_norm`][annotated_nn.utils.weight_norm.remove_weight_norm] 删除。

        === "English"

            Computes the final weight from the current `g` and `v`, deletes the plain attribute
            `name` and the two parameters, then registers the weight's data as a new
            [`Parameter`][annotated_nn.parameter.Parameter] under `name`. It is a new object:
            an optimizer still holds the old `name_g` and `name_v` and must be rebuilt. The
            caller, [`remove_weight_norm`][annotated_nn.utils.weight_norm.remove_weight_norm],
            deletes the hook-table entry.

        Args:
            module: The module to restore. / 要复原的模块。
        """
        # 中: 先算权重再删：计算要用到 `name_g` 与 `name_v`。`delattr` 删的是普通属性；两个参数
        # 中: 直接从 `_parameters` 删。最后经 `setattr` 赋 Parameter，由 `__setattr__` 登记为参数。
        # EN: Compute before deleting: the computation needs `name_g` and `name_v`. `delattr`
        # EN: removes the plain attribute; the two parameters go straight out of `_parameters`.
        # EN: Assigning a Parameter through `setattr` lets `__setattr__` register it.
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module: "Module", inputs: Any) -> None:
        r"""Forward pre-hook: refresh `name` before the module runs. / 前向预钩子：在模块运行前刷新 `name`。

        === "中文"

            每次调用模块都重算一次，所以 `forward` 读到的权重总与当前的 `g`、`v` 一致，
            梯度也经这个新算出的张量流回 `g` 与 `v`。返回 `None`，不改动输入。

        === "English"

            Recomputed on every call of the module, so the weight `forward` reads always
            matches the current `g` and `v`, and gradients flow back to `g` and `v` through this
            fresh tensor. Returns `None`, leaving the inputs alone.

        Args:
            module: The module about to run. / 即将运行的模块。
            inputs: Its positional inputs (unused). / 它的位置参数输入（未使用）。
        """
        setattr(module, self.name, self.compute_weight(module))


# 中: 返回类型与传入的模块类型相同（`Linear` 进、`Linear` 出）。`bound` 写成字符串，
# 中: 运行时不必导入 `Module`。
# EN: The return type is the module type passed in (`Linear` in, `Linear` out). The `bound` is
# EN: a string, so `Module` need not be imported at runtime.
T_module = TypeVar("T_module", bound="Module")


def weight_norm(module: T_module, name: str = "weight", dim: int = 0) -> T_module:
    r"""Apply weight normalization to a parameter of `module` (deprecated). / 对 `module` 的一个参数施加权重归一化（已弃用）。

    === "中文"

        把参数 `name` 换成 `name_g`（大小）与 `name_v`（方向），并装上在每次前向传播前
        重算 `name = name_g * name_v / ||name_v||` 的
        [`WeightNorm`][annotated_nn.utils.weight_norm.WeightNorm] 前向预钩子。
        `dim=0`（默认）沿第 0 维每个切片分别求范数：对 `Linear` 与卷积是每个输出通道，
        对转置卷积（权重以输入通道开头）则是每个输入通道；`dim=None` 对整个张量只求一个范数。

        已弃用：每次调用都发出 `FutureWarning`，文字与 torch 相同。警告总是归到本函数里
        同一行（调用 `WeightNorm.apply` 的那一行），所以在 Python 默认的警告过滤器下，
        一个进程只显示第一次。状态字典的键是 `name_g` 与 `name_v`，没有 `name`。

    === "English"

        Replaces the parameter `name` by `name_g` (magnitude) and `name_v` (direction) and
        installs the [`WeightNorm`][annotated_nn.utils.weight_norm.WeightNorm] forward pre-hook
        that recomputes `name = name_g * name_v / ||name_v||` before every forward pass.
        `dim=0` (the default) takes one norm per slice along dimension 0: per output channel
        for `Linear` and convolutions, but per input channel for transposed convolutions, whose
        weights start with the input channels; `dim=None` takes one norm over the whole
        tensor.

        Deprecated: every call emits a `FutureWarning` with torch's text. The warning is
        always attributed to the same line of this function (the one calling
        `WeightNorm.apply`), so under Python's default warning filter a process shows only the
        first one. The state_dict keys are `name_g` and `name_v`, without `name`.

    Args:
        module: The module to modify. / 要修改的模块。
        name: Name of the parameter. / 参数名。
        dim: Dimension kept apart by the norm; `None` for the whole tensor. / 范数保留的维度；`None` 表示整个张量。

    Returns:
        The same module, modified in place. / 就地修改后的同一个模块。

    Raises:
        RuntimeError: `name` already has a weight_norm hook. / `name` 上已有 weight_norm 钩子。
        ValueError: The parameter is uninitialized (lazy module). / 参数尚未初始化（惰性模块）。
        AttributeError: The module has no attribute `name`. / 模块没有名为 `name` 的属性。
        IndexError: `dim` out of range. / `dim` 越界。
        TypeError: `name` is `None` (e.g. `bias` of a layer built with `bias=False`). / `name` 为 `None`（例如 `bias=False` 建出的层的 `bias`）。

    Examples:
        >>> import warnings
        >>> import torch, annotated_nn as nn
        >>> from annotated_nn.utils.weight_norm import weight_norm
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     m = weight_norm(nn.Linear(20, 40), name="weight")
        >>> caught[0].category.__name__
        'FutureWarning'
        >>> m.weight_g.size(), m.weight_v.size()
        (torch.Size([40, 1]), torch.Size([40, 20]))
        >>> list(m.state_dict())
        ['bias', 'weight_g', 'weight_v']
    """
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: T_module, name: str = "weight") -> T_module:
    r"""Undo [`weight_norm`][annotated_nn.utils.weight_norm.weight_norm] on `name`. / 撤销 `name` 上的权重归一化。

    === "中文"

        在本模块的前向预钩子表里找 `name` 对应的
        [`WeightNorm`][annotated_nn.utils.weight_norm.WeightNorm]，把权重合回普通参数
        `name`（数值等于当前算出的权重），再从表里删掉这个钩子。不发出弃用警告。

    === "English"

        Looks up the [`WeightNorm`][annotated_nn.utils.weight_norm.WeightNorm] of `name` in
        this module's forward pre-hook table, folds the weight back into a plain parameter
        `name` (equal to the weight as currently computed) and deletes the hook from the table.
        No deprecation warning is emitted.

    Args:
        module: The module to restore. / 要复原的模块。
        name: Name of the parameter. / 参数名。

    Returns:
        The same module. / 同一个模块。

    Raises:
        ValueError: No weight_norm hook for `name`. / `name` 上没有 weight_norm 钩子。

    Examples:
        >>> import warnings
        >>> import annotated_nn as nn
        >>> from annotated_nn.utils.weight_norm import remove_weight_norm, weight_norm
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     m = weight_norm(nn.Linear(20, 40))
        >>> list(remove_weight_norm(m).state_dict())
        ['bias', 'weight']
    """
    # 中: 直接删钩子表的项而不用句柄：`apply` 没有保存句柄。找不到时报错文字里的 `{module}`
    # 中: 是模块的 repr，可能有多行。
    # EN: The hook-table entry is deleted directly, not through a handle: `apply` kept none.
    # EN: When nothing is found, `{module}` in the message is the module's repr, possibly
    # EN: several lines long.
    for hook_id, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[hook_id]
            return module

    raise ValueError(f"weight_norm of '{name}' not found in {module}")
