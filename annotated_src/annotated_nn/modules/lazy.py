r"""Lazy modules: layers that learn their input size from the first forward pass. / 惰性模块：在第一次前向传播时才得知输入尺寸的层。

=== "中文"

    `LazyModuleMixin` 是所有惰性模块（lazy module）的共同基类（mixin），例如
    `LazyLinear`、`LazyConv2d`。它不自己保存任何状态，而是借助 `Module` 已有的两个
    钩子（hook）机制完成"先占位、后确定形状"的整个过程。完整流程见类文档中的
    Note [Lazy module lifecycle]。

=== "English"

    `LazyModuleMixin` is the common base (a mixin) of every lazy module, such as `LazyLinear`
    and `LazyConv2d`. It keeps no state of its own; it drives the whole "placeholder first,
    shape later" process through two hook mechanisms `Module` already has. The full story is in
    Note [Lazy module lifecycle] on the class.
"""

import itertools
from typing import Any, Protocol

import torch

from annotated_nn.parameter import is_lazy

__all__ = ["LazyModuleMixin"]


class _LazyProtocol(Protocol):
    r"""What the mixin expects from the class it is mixed into, for type checkers. / 供类型检查器使用：mixin 对宿主类的要求。

    === "中文"

        `LazyModuleMixin` 的方法会用到 `Module` 的属性和方法，但 mixin 本身并不继承
        `Module`。把 `self` 标注为这个 Protocol，类型检查器就知道这些名字存在。
        运行时它不参与任何逻辑。

    === "English"

        The methods of `LazyModuleMixin` use attributes and methods of `Module`, yet the mixin
        does not inherit from `Module`. Annotating `self` with this Protocol tells a type checker
        those names exist. At run time it plays no part.
    """

    def _register_load_state_dict_pre_hook(self, hook):
        r"""Register a hook run before loading a state dict. / 注册在加载状态字典之前运行的钩子。

        === "中文"

            对应 `Module._register_load_state_dict_pre_hook`，这里只声明签名。

        === "English"

            Stands for `Module._register_load_state_dict_pre_hook`; only the signature is declared.

        Args:
            hook: The hook. / 钩子。
        """
        ...

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        r"""Register a hook run before `forward`. / 注册在 `forward` 之前运行的钩子。

        === "中文"

            对应 `Module.register_forward_pre_hook`，这里只声明签名。

        === "English"

            Stands for `Module.register_forward_pre_hook`; only the signature is declared.

        Args:
            hook: The hook. / 钩子。
            prepend: Run before existing hooks. / 是否排在已有钩子之前。
            with_kwargs: Pass keyword arguments to the hook. / 是否把关键字参数传给钩子。
        """
        ...

    def _lazy_load_hook(
        self,
        state_dict,
        prefix,
        local_metadata,
        strict,
        missing_keys,
        unexpected_keys,
        error_msgs,
    ):
        r"""The mixin's load pre-hook. / mixin 的加载预钩子。

        === "中文"

            对应 `LazyModuleMixin._lazy_load_hook`，这里只声明签名。

        === "English"

            Stands for `LazyModuleMixin._lazy_load_hook`; only the signature is declared.

        Args:
            state_dict: State dict being loaded. / 正在加载的状态字典。
            prefix: Key prefix of this module. / 本模块的键前缀。
            local_metadata: Metadata for this module. / 本模块的元数据。
            strict: Strict loading flag. / 是否严格加载。
            missing_keys: List of missing keys. / 缺失键列表。
            unexpected_keys: List of unexpected keys. / 多余键列表。
            error_msgs: List of error messages. / 错误信息列表。
        """
        ...

    def _get_name(self):
        r"""The class name used in messages. / 报错信息里使用的类名。

        === "中文"

            对应 `Module._get_name`，这里只声明签名。

        === "English"

            Stands for `Module._get_name`; only the signature is declared.
        """
        ...

    def _infer_parameters(self, module, input):
        r"""The mixin's forward pre-hook. / mixin 的前向预钩子。

        === "中文"

            对应 `LazyModuleMixin._infer_parameters`，这里只声明签名。

        === "English"

            Stands for `LazyModuleMixin._infer_parameters`; only the signature is declared.

        Args:
            module: The module. / 模块。
            input: Positional inputs. / 位置参数输入。
        """
        ...

    @property
    def _parameters(self):
        r"""The module's parameter dict. / 模块的参数字典。

        === "中文"

            对应 `Module._parameters`，名字到参数（parameter）的有序字典。

        === "English"

            Stands for `Module._parameters`, the ordered dict from names to parameters.
        """
        ...

    @property
    def _buffers(self):
        r"""The module's buffer dict. / 模块的缓冲区字典。

        === "中文"

            对应 `Module._buffers`，名字到缓冲区（buffer）的有序字典。

        === "English"

            Stands for `Module._buffers`, the ordered dict from names to buffers.
        """
        ...

    @property
    def _non_persistent_buffers_set(self):
        r"""Names of buffers left out of the state dict. / 不写入状态字典的缓冲区名字。

        === "中文"

            对应 `Module._non_persistent_buffers_set`，保存不写入状态字典的缓冲区名字。

        === "English"

            Stands for `Module._non_persistent_buffers_set`, a set of buffer names.
        """
        ...

    @property
    def _load_hook(self):
        r"""Handle of the load pre-hook. / 加载预钩子的句柄。

        === "中文"

            `LazyModuleMixin.__init__` 保存的句柄，初始化完成后被移除。

        === "English"

            The handle saved by `LazyModuleMixin.__init__`, removed once initialized.
        """
        ...

    @property
    def _initialize_hook(self):
        r"""Handle of the forward pre-hook. / 前向预钩子的句柄。

        === "中文"

            `LazyModuleMixin.__init__` 保存的句柄，初始化完成后被移除。

        === "English"

            The handle saved by `LazyModuleMixin.__init__`, removed once initialized.
        """
        ...


class LazyModuleMixin:
    r"""Mixin for modules whose parameter shapes come from their first input. / 参数形状由第一次输入决定的模块的 mixin。

    === "中文"

        惰性模块（lazy module）构造时还不知道输入尺寸（如 `Linear` 的 `in_features`），
        于是先放一个没有形状、没有数据的 `UninitializedParameter` 占位；第一次前向传播
        （forward pass）时，由输入推出形状，把占位参数"物化"（materialize）成普通
        `Parameter` 并按非惰性版本的规则初始化，随后把对象的类换成 `cls_to_become`
        （例如 `LazyLinear` → `Linear`）。

        用法上要注意两点：先 `.to(device, dtype)`（真实设备；`.to("meta")` 会把占位参数换成
        空的普通参数）再做一次"试运行"（dry run）让所有惰性模块完成初始化，之后再交给优化器；惰性模块总是在其他模块之后初始化，
        所以同一个随机种子下，含惰性模块的网络与等价的普通网络得到的初始权重可能不同。

        1.5.1 → 2.13：1.5.1 没有惰性模块（1.8 引入）。早期版本构造时会发出
        "Lazy modules are a new feature under heavy development..." 警告，2.13 已不再发出。

    === "English"

        A lazy module does not know its input size when built (e.g. `Linear`'s `in_features`),
        so it first holds an `UninitializedParameter`, which has neither shape nor data. On the
        first forward pass the input gives the shape; the placeholder is materialized into an
        ordinary `Parameter`, initialized by the non-lazy layer's rules, and the object's class
        is then switched to `cls_to_become` (e.g. `LazyLinear` → `Linear`).

        Two practical points: apply `.to(device, dtype)` first (a real device: `.to("meta")`
        replaces the placeholders with empty ordinary parameters), then do one "dry run" so every
        lazy module initializes, and only then build the optimizer; lazy modules always
        initialize after the others, so with the same seed a network with lazy modules may get
        different initial weights than the equivalent plain network.

        1.5.1 → 2.13: 1.5.1 had no lazy modules (they came in 1.8). Early versions warned
        "Lazy modules are a new feature under heavy development..." at construction; 2.13 no
        longer does.

    Note: Note [Lazy module lifecycle] 惰性模块的生命周期
        === "中文"

            1. 构造：`__init__` 注册两个钩子——状态字典加载预钩子 `_lazy_load_hook`
               与带关键字参数的前向预钩子 `_infer_parameters`，句柄存入
               `_load_hook` / `_initialize_hook`。
            2. 物化之前：`state_dict()` 原样保存未初始化的参数；`load_state_dict()` 若遇到
               真实张量，`_lazy_load_hook` 会先按其形状物化参数，随后的正常加载再拷贝数值。
            3. 第一次前向传播：`_infer_parameters` 调用子类的 `initialize_parameters`
               物化参数并调用 `reset_parameters`；检查已无未初始化参数；移除两个钩子并
               删除句柄属性；把 `__class__` 换成 `cls_to_become`。此后它就是一个普通层。

        === "English"

            1. Construction: `__init__` registers two hooks, the state-dict load pre-hook
               `_lazy_load_hook` and the forward pre-hook `_infer_parameters` (with kwargs),
               keeping their handles in `_load_hook` / `_initialize_hook`.
            2. Before materialization: `state_dict()` saves uninitialized parameters as they are;
               when `load_state_dict()` brings real tensors, `_lazy_load_hook` first materializes
               the parameters to those shapes, and the ordinary load then copies the values.
            3. First forward pass: `_infer_parameters` calls the subclass's
               `initialize_parameters`, which materializes and calls `reset_parameters`; it checks
               nothing is left uninitialized; removes both hooks and deletes the handle
               attributes; and sets `__class__` to `cls_to_become`. From then on it is a plain layer.

    Examples:
        >>> import torch, annotated_nn as nn
        >>> m = nn.LazyLinear(4)
        >>> m
        LazyLinear(in_features=0, out_features=4, bias=True)
        >>> m(torch.ones(2, 3)).shape
        torch.Size([2, 4])
        >>> m
        Linear(in_features=3, out_features=4, bias=True)
    """

    # 中: 物化完成后对象要变成的类；None 表示保持原类不变。
    # EN: The class the object becomes once materialized; None keeps the class as is.
    cls_to_become: type[Any] | None = None

    def __init__(self: _LazyProtocol, *args, **kwargs):
        r"""Run the host module's `__init__`, then register the two lazy hooks. / 先运行宿主模块的 `__init__`，再注册两个惰性钩子。

        === "中文"

            `super().__init__` 沿 MRO 走到真正的层（如 `Linear.__init__(0, 0, False)`），
            之后才注册钩子，因为钩子字典由 `Module.__init__` 创建。前向预钩子用
            `with_kwargs=True` 注册，使 `initialize_parameters` 也能看到关键字参数。

        === "English"

            `super().__init__` follows the MRO to the real layer (e.g.
            `Linear.__init__(0, 0, False)`); the hooks are registered afterwards because
            `Module.__init__` creates the hook dicts. The forward pre-hook is registered with
            `with_kwargs=True` so that `initialize_parameters` sees keyword arguments too.

        Args:
            *args: Passed on to the next `__init__` in the MRO. / 传给 MRO 中下一个 `__init__`。
            **kwargs: Passed on likewise. / 同样向后传递。
        """
        # 中: 先让 MRO 中的真正层建好自己（占位参数也在这里创建），
        # 中: 钩子字典此时才存在。
        # EN: Let the real layer further along the MRO build itself first (its placeholders
        # EN: included); only then do the hook dicts exist.
        super().__init__(*args, **kwargs)  # type: ignore[misc]
        # 中: 状态字典加载预钩子：本模块的 `_load_from_state_dict`
        # 中: 在拷贝数值之前调用它。句柄存成普通属性（不是张量或模块），
        # 中: 只为日后 `_infer_parameters` 能移除它。
        # EN: The state-dict load pre-hook: this module's `_load_from_state_dict` calls it before
        # EN: copying any value. The handle is kept as a plain attribute (neither tensor nor
        # EN: module), only so that `_infer_parameters` can remove it later.
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)
        # 中: 前向预钩子在构造时注册，
        # 中: 所以排在本模块其他前向预钩子之前（`prepend=True` 的除外，
        # 中: 全局前向预钩子也更早运行，它们看到的仍是未初始化参数）；
        # 中: 之后注册的普通预钩子看到的已是物化后的参数。
        # EN: The forward pre-hook is registered at construction, so it runs before this module's
        # EN: other forward pre-hooks (except `prepend=True` ones; global forward pre-hooks run
        # EN: earlier too, and they still see uninitialized parameters); pre-hooks registered
        # EN: later the ordinary way already see materialized parameters.
        self._initialize_hook = self.register_forward_pre_hook(
            self._infer_parameters, with_kwargs=True
        )

    def _save_to_state_dict(self: _LazyProtocol, destination, prefix, keep_vars):
        r"""Save parameters and persistent buffers, keeping uninitialized ones as they are. / 保存参数与持久缓冲区，未初始化的原样保存。

        === "中文"

            与 `Module._save_to_state_dict` 的区别：普通张量在 `keep_vars=False` 时会
            `detach()`，而未初始化的参数没有数据，不能 `detach()`，于是原样放入状态字典。
            这样惰性模块也能被序列化。它不保存 `get_extra_state` 的额外状态。

        === "English"

            The difference from `Module._save_to_state_dict`: ordinary tensors are `detach()`ed
            when `keep_vars=False`, but an uninitialized parameter has no data to detach, so it
            goes into the state dict as it is. This makes lazy modules serializable. Extra state
            from `get_extra_state` is not saved here.

        Args:
            destination: The dict being filled. / 正在填写的字典。
            prefix: Key prefix of this module. / 本模块的键前缀。
            keep_vars: Keep autograd history instead of detaching. / 是否保留计算图而不 detach。
        """
        # 中: 参数：物化过的照常 `detach()`；占位张量的 `detach` 会被
        # 中: `__torch_function__` 拒绝（ValueError），所以原样放入，
        # 中: 状态字典里就是 `UninitializedParameter` 对象本身。
        # EN: Parameters: materialized ones are `detach()`ed as usual; a placeholder's `detach`
        # EN: would be refused by `__torch_function__` (ValueError), so it goes in as is, and the
        # EN: state dict holds the `UninitializedParameter` object itself.
        for name, param in self._parameters.items():
            if param is not None:
                if not (is_lazy(param) or keep_vars):
                    param = param.detach()
                destination[prefix + name] = param
        # 中: 缓冲区同理，但跳过非持久的，与 `Module._save_to_state_dict` 一致。
        # EN: Buffers likewise, skipping non-persistent ones, as `Module._save_to_state_dict` does.
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                if not (is_lazy(buf) or keep_vars):
                    buf = buf.detach()
                destination[prefix + name] = buf

    def _lazy_load_hook(
        self: _LazyProtocol,
        state_dict,
        prefix,
        local_metadata,
        strict,
        missing_keys,
        unexpected_keys,
        error_msgs,
    ):
        r"""Materialize uninitialized entries to the shapes found in the loaded state dict. / 按加载的状态字典中的形状物化未初始化的条目。

        === "中文"

            `_load_from_state_dict` 会把加载的张量拷进已有参数，而未初始化参数没有形状，
            拷不进去。这个加载预钩子先查看状态字典：若本模块的某个参数/缓冲区仍未初始化，
            而加载来的对应值是真实张量，就按它的形状物化（不填写数值，不调用
            `reset_parameters`）。随后正常的加载流程再拷贝数值。
            注意它不移除前向预钩子：第一次前向传播时才换类。

        === "English"

            `_load_from_state_dict` copies loaded tensors into existing parameters, and an
            uninitialized parameter has no shape to copy into. This pre-hook looks at the state
            dict first: when one of this module's parameters or buffers is still uninitialized
            and the loaded value is a real tensor, it is materialized to that shape (no values
            filled, no `reset_parameters`). The ordinary load then copies the values. The forward
            pre-hook stays: the class only switches on the first forward pass.

        Args:
            state_dict: State dict being loaded. / 正在加载的状态字典。
            prefix: Key prefix of this module. / 本模块的键前缀。
            local_metadata: Metadata for this module (unused). / 本模块的元数据（未使用）。
            strict: Strict loading flag (unused). / 是否严格加载（未使用）。
            missing_keys: List of missing keys (unused). / 缺失键列表（未使用）。
            unexpected_keys: List of unexpected keys (unused). / 多余键列表（未使用）。
            error_msgs: List of error messages (unused). / 错误信息列表（未使用）。
        """
        # 中: 只看本模块自己的条目（键为 prefix + 名字）；子模块各有自己的加载预钩子。缺失的键
        # 中: 留给正常的加载流程去报告。
        # EN: Only this module's own entries (keys prefix + name); submodules have their own load
        # EN: pre-hooks. Missing keys are left for the ordinary load to report.
        for name, param in itertools.chain(self._parameters.items(), self._buffers.items()):
            key = prefix + name
            if key in state_dict and param is not None:
                input_param = state_dict[key]
                # 中: 已物化的参数什么也不做，
                # 中: 形状检查交给 `_load_from_state_dict`。
                # EN: A materialized parameter needs nothing; the shape check is left to
                # EN: `_load_from_state_dict`.
                if is_lazy(param):
                    # 中: 加载来的值若本身也是未初始化的（保存的是惰性模块），就保持惰性。
                    # EN: If the loaded value is uninitialized too (a saved lazy module), stay lazy.
                    if not is_lazy(input_param):
                        # 中: 只取形状：设备与 dtype 沿用占位张量的，
                        # 中: 数值随后由正常加载拷入（`copy_` 会转换类型）。
                        # 中: 模块的类不变，前向预钩子仍在；第一次前向传播时，
                        # 中: 内置惰性层的 `initialize_parameters` 发现已无占位参数，
                        # 中: 就不会再重置这些数值。
                        # EN: Only the shape is taken: device and dtype stay the placeholder's, and
                        # EN: the ordinary load copies the values in next (`copy_` converts). The
                        # EN: class stays and so does the forward pre-hook; on the first forward
                        # EN: pass the built-in lazy layers' `initialize_parameters` finds no
                        # EN: placeholder left and does not reset these values.
                        with torch.no_grad():
                            param.materialize(input_param.shape)

    def initialize_parameters(self: _LazyProtocol, *args, **kwargs):
        r"""Materialize parameters from the first inputs; each lazy layer overrides this. / 由第一次输入物化参数；每个惰性层都要重写。

        === "中文"

            基类版本只抛出 `NotImplementedError`。子类（如 `LazyLinear`）在这里由输入形状
            算出参数形状、调用 `materialize` 并调用 `reset_parameters`。

        === "English"

            The base version only raises `NotImplementedError`. Subclasses such as `LazyLinear`
            compute the parameter shapes from the inputs here, call `materialize`, then
            `reset_parameters`.

        Args:
            *args: The positional inputs of the first forward call. / 第一次前向调用的位置参数。
            **kwargs: Its keyword inputs. / 它的关键字参数。

        Raises:
            NotImplementedError: Always, in the base class. / 基类中总是抛出。
        """
        raise NotImplementedError(
            f"initialize_parameters is not implemented for {self.__class__.__name__}"
        )

    def has_uninitialized_params(self: _LazyProtocol):
        r"""Whether any parameter or buffer is still uninitialized. / 是否还有未初始化的参数或缓冲区。

        === "中文"

            只看本模块自己的 `_parameters` 与 `_buffers`，不递归到子模块（submodule）。

        === "English"

            Looks only at this module's own `_parameters` and `_buffers`, not at submodules.

        Returns:
            True if some entry is an uninitialized placeholder. / 若有占位条目则为 True。
        """
        params = self._parameters.values()
        buffers = self._buffers.values()
        for param in itertools.chain(params, buffers):
            if is_lazy(param):
                return True
        return False

    def _infer_parameters(self: _LazyProtocol, module, args, kwargs=None):
        r"""Forward pre-hook: materialize, verify, unhook, and switch class. / 前向预钩子：物化、校验、摘除钩子并换类。

        === "中文"

            第一次调用模块时运行（见 Note [Lazy module lifecycle]）。钩子以
            `with_kwargs=True` 注册，所以 `Module.__call__` 传入 `(module, args, kwargs)`；
            它返回 None，不改写输入。换类之后，`type(m)` 就是 `cls_to_become`，
            `repr` 与方法都来自非惰性类。

        === "English"

            Runs on the first call of the module (see Note [Lazy module lifecycle]). It is
            registered with `with_kwargs=True`, so `Module.__call__` passes
            `(module, args, kwargs)`; it returns None and leaves the inputs alone. After the
            switch `type(m)` is `cls_to_become`, and `repr` and methods come from the plain class.

        Args:
            module: The module being called (the same object as `self`). / 被调用的模块（即 `self`）。
            args: Positional inputs, a tuple. / 位置参数，tuple。
            kwargs: Keyword inputs, or None. / 关键字参数，或 None。

        Raises:
            RuntimeError: `initialize_parameters` left something uninitialized. / `initialize_parameters` 之后仍有未初始化条目。
        """
        # 中: 把第一次调用的输入原样交给子类推断形状；
        # 中: 它负责物化并初始化数值。
        # EN: The first call's inputs go unchanged to the subclass, which infers the shapes,
        # EN: materializes and initializes the values.
        kwargs = kwargs if kwargs else {}
        module.initialize_parameters(*args, **kwargs)
        # 中: 只检查本模块自己的参数与缓冲区；漏掉任何一个都在这里报错，
        # 中: 而不是留到前向计算里撞上 `__torch_function__` 的 ValueError。
        # 中: 报错文字与 torch 相同。
        # EN: Only this module's own parameters and buffers are checked; any one left over fails
        # EN: here rather than later in the forward computation with `__torch_function__`'s
        # EN: ValueError. The error text is torch's.
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        # 中: 钩子只需运行一次：摘除两个钩子并删掉句柄属性，
        # 中: 换类之后的对象与普通层毫无区别。在钩子内部移除自己是安全的：
        # 中: `_call_impl` 遍历的是钩子字典的快照，
        # 中: 本次调用中排在后面的预钩子照常运行。
        # EN: The hooks are needed once: remove both and delete the handles,
        # EN: so that after the class switch the object is just a plain layer. Removing itself
        # EN: from inside the hook is safe: `_call_impl` iterates over a snapshot of the hook
        # EN: dicts, and the pre-hooks after it still run on this call.
        module._initialize_hook.remove()
        module._load_hook.remove()
        delattr(module, "_initialize_hook")
        delattr(module, "_load_hook")
        # 中: 换类只改 `__class__`，对象身份、
        # 中: `__dict__` 与参数都不变，外部持有的引用仍有效。
        # 中: 本次调用的 `forward` 在预钩子之前就已取出，所以仍来自惰性类；
        # 中: 内置惰性层与目标类共用同一个 `forward`，结果没有差别。
        # 中: `cls_to_become` 为 None 时保持惰性类。
        # EN: The switch changes only `__class__`: identity, `__dict__` and parameters stay, and
        # EN: outside references remain valid. This call's `forward` was looked up before the
        # EN: pre-hooks, so it still comes from the lazy class; built-in lazy layers share their
        # EN: `forward` with the target class, so nothing differs. A None `cls_to_become` keeps
        # EN: the lazy class.
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become

    def _replicate_for_data_parallel(self: _LazyProtocol):
        r"""Refuse to be replicated by `DataParallel` while the class is still lazy. / 类仍是惰性类时拒绝被 `DataParallel` 复制。

        === "中文"

            `DataParallel` 在使用两个及以上设备时，每次前向传播都复制模块；未物化的参数无法复制，
            所以要求先做一次试运行（没有设备或只有一个设备时它直接调用模块，不复制，惰性初始化
            照常发生）。物化并换成 `cls_to_become` 后，此方法随惰性类一起消失，复制恢复为
            `Module` 的默认行为。`cls_to_become` 为 None 的惰性类不换类，初始化之后仍会报这个错。

        === "English"

            `DataParallel` with two or more devices replicates the module on every forward pass;
            unmaterialized parameters cannot be replicated, so a dry run is required first (with
            no device or a single one it calls the module directly, without replicating, and lazy
            initialization happens as usual). After materialization and the switch to
            `cls_to_become` this method is gone with the lazy class, and replication falls back to
            `Module`'s default. A lazy class whose `cls_to_become` is None keeps its class and
            still raises this error after initialization.

        Raises:
            RuntimeError: Always. / 总是抛出。
        """
        # 中: 无条件报错，不检查参数是否已物化：只要对象还是惰性类就到这里。
        # 中: `replicate` 对树中每个模块都调用本方法，
        # 中: 所以嵌套在深处的惰性层同样让复制无法完成。文字与 torch 相同。
        # EN: It raises unconditionally, without checking whether the parameters are materialized:
        # EN: being of the lazy class is enough. `replicate` calls this on every module of the
        # EN: tree, so a lazy layer nested deep inside stops replication too. The text is torch's.
        raise RuntimeError(
            "Modules with uninitialized parameters can't be used with `DataParallel`. "
            "Run a dummy forward pass to correctly initialize the modules"
        )
