r"""Parameter, Buffer and their lazy (uninitialized) forms; mirrors `torch.nn.parameter`. / 参数、缓冲区及其惰性（未初始化）形式，对应 `torch.nn.parameter`。

=== "中文"

    这个文件回答一个问题：模块怎么知道一个张量是“要训练的参数”还是“普通状态”？
    答案是类型标记。[`Parameter`][annotated_nn.parameter.Parameter] 是真正的
    `torch.Tensor` 子类，`Module.__setattr__` 看到它就登记为参数（parameter）；
    [`Buffer`][annotated_nn.parameter.Buffer] 则把张量登记为缓冲区（buffer）。
    惰性模块（lazy module）在还不知道形状时先放一个
    [`UninitializedParameter`][annotated_nn.parameter.UninitializedParameter]，
    第一次前向传播（forward pass）时再调用 `materialize` 得到真正的形状。

    1.5.1 → 2.13：1.5.1 的 `parameter.py` 只有 `Parameter` 一个类；2.13 增加了元类
    `_ParameterMeta`（让带 `_is_param` 标记的自定义张量也算参数）、惰性参数、`Buffer`。

=== "English"

    This file answers one question: how does a module tell a tensor to train from plain
    state? By type. [`Parameter`][annotated_nn.parameter.Parameter] is a real `torch.Tensor`
    subclass that `Module.__setattr__` registers as a parameter;
    [`Buffer`][annotated_nn.parameter.Buffer] marks a tensor to register as a buffer. A lazy
    module holds an [`UninitializedParameter`][annotated_nn.parameter.UninitializedParameter]
    until its first forward pass reveals the shape, then calls `materialize`.

    1.5.1 → 2.13: 1.5.1's `parameter.py` held `Parameter` alone; 2.13 adds the metaclass
    `_ParameterMeta` (custom tensors flagged `_is_param` count as parameters), lazy
    parameters and `Buffer`.

Note: Note [Two Parameter classes] 两个 Parameter 类
    === "中文"

        `annotated_nn.Parameter` 与 `torch.nn.Parameter` 是两个不同的类，互不是子类
        （两个方向的 `issubclass` 都是 `False`），`type(p) is torch.nn.Parameter` 这样的
        精确类型判断也能把它们分开。但 `isinstance` 在两个方向上都成立，各靠一个元类：
        我们的 `_ParameterMeta` 把 `torch.nn.Parameter`（及其子类）的实例也算作
        `annotated_nn.Parameter`（标了 DIFF，见 `_ParameterMeta.__instancecheck__`）；
        我们的类带类属性 `_is_param = True`，torch 的元类见到这个标记，就把我们的参数算作
        `torch.nn.Parameter`。普通张量对两边都不算；带 `_is_param=True` 的自定义张量
        对两边都算。未初始化参数不互通：`isinstance(p, torch.nn.UninitializedParameter)`
        对本库的未初始化参数为 `False`，反之亦然，`is_lazy` 也只认本库的。

    === "English"

        `annotated_nn.Parameter` and `torch.nn.Parameter` are two distinct classes, neither a
        subclass of the other (`issubclass` is `False` both ways), and an exact type test such
        as `type(p) is torch.nn.Parameter` tells them apart. Yet `isinstance` holds both ways,
        each through one metaclass: our `_ParameterMeta` counts instances of
        `torch.nn.Parameter` (and of its subclasses) as `annotated_nn.Parameter` (a marked
        DIFF, see `_ParameterMeta.__instancecheck__`); our class carries the class attribute
        `_is_param = True`, and on that flag torch's metaclass counts our parameters as
        `torch.nn.Parameter`. A plain tensor counts as neither; a custom tensor flagged
        `_is_param=True` counts as both. Uninitialized parameters do not cross over:
        `isinstance(p, torch.nn.UninitializedParameter)` is `False` for ours and vice versa,
        and `is_lazy` recognizes ours only.
"""

from collections import OrderedDict
from typing import Any

import torch
import torch.serialization
from torch._C import _disabled_torch_function_impl
from torch._utils import _get_obj_state, _set_obj_state

__all__ = [
    "Parameter",
    "UninitializedParameter",
    "is_lazy",
    "Buffer",
    "UninitializedBuffer",
    "UninitializedTensorMixin",
]


class _ParameterMeta(torch._C._TensorMeta):
    r"""Metaclass of Parameter: flagged custom tensors pass `isinstance`. / Parameter 的元类：带标记的自定义张量也能通过 `isinstance`。

    === "中文"

        它继承 torch 的张量元类 `_TensorMeta`（张量子类必须用它），只改写
        `__instancecheck__`：对 `Parameter` 本身，任何带 `_is_param=True` 属性的张量都算
        它的实例。这样 DTensor 之类的自定义张量子类无需改变自己的类型也能当参数用。

    === "English"

        It extends torch's tensor metaclass `_TensorMeta` (which tensor subclasses need) and
        overrides only `__instancecheck__`: for `Parameter` itself, any tensor with
        `_is_param=True` is an instance. Custom tensor subclasses such as DTensor can thus be
        parameters without changing their type.
    """

    def __instancecheck__(self, instance) -> bool:
        r"""`isinstance` check: the flag first, then the real type. / `isinstance` 检查：先看标记，再看真实类型。

        === "中文"

            只在被检查的类恰好是 `Parameter` 时才看 `_is_param` 标记，并把 torch 的
            `torch.nn.Parameter` 也算作实例；对子类（例如 `UninitializedParameter`）仍按普通的类型关系判断。

        === "English"

            The `_is_param` flag is consulted only when the class checked is exactly
            `Parameter`, which also accepts torch's `torch.nn.Parameter`; subclasses such as
            `UninitializedParameter` keep the ordinary type-based answer.

        Args:
            instance: The object being tested. / 被检查的对象。

        Returns:
            Whether `instance` counts as an instance. / 是否算作实例。
        """
        # 中: 只对 `Parameter` 本身放宽：
        # 中: `isinstance(x, UninitializedParameter)` 之类仍是纯类型判断，
        # 中: 带标记的张量不会被误认作未初始化参数。标记可以在实例上（自定义张量路径），
        # 中: 也可以在类上（本类的 `_is_param = True`）。
        # EN: Only `Parameter` itself is widened: `isinstance(x, UninitializedParameter)` and the
        # EN: like stay pure type tests, so a flagged tensor is never taken for an uninitialized
        # EN: parameter. The flag may sit on the instance (the custom-tensor path) or on the class
        # EN: (this class's `_is_param = True`).
        if self is Parameter and isinstance(instance, torch.Tensor):
            if getattr(instance, "_is_param", False):
                return True
            # DIFF(torch 2.13):
            # 中: torch 自己的 torch.nn.Parameter 也算我们的参数，这样 torch.nn.utils 中创建 torch 参数的
            #     工具（weight_norm、fuse_conv_bn_eval 等）可以直接作用于我们的模块。与 `_is_param`
            #     类属性对称：两个库的参数在两边都被认作参数。用 type.__instancecheck__ 做纯类型判断，
            #     不再走 torch 元类里的标记检查（上面已经看过标记）。
            # EN: torch's own torch.nn.Parameter counts as ours too, so torch.nn.utils helpers that
            #     create torch parameters (weight_norm, fuse_conv_bn_eval, ...) work on our modules.
            #     It mirrors the `_is_param` class attribute: each library's parameters count in both.
            #     type.__instancecheck__ is a pure type test, skipping torch's flag check (done above).
            if type.__instancecheck__(torch.nn.Parameter, instance):
                return True
        return super().__instancecheck__(instance)


class Parameter(torch.Tensor, metaclass=_ParameterMeta):
    r"""A tensor that a module registers as a parameter. / 会被模块登记为参数的张量。

    === "中文"

        参数（parameter）是 `torch.Tensor` 的子类，本身没有新的数值行为；它的意义在于类型：
        把它赋值给模块属性时，`Module.__setattr__` 会把它放进 `_parameters`，于是它出现在
        `parameters()`、状态字典（state_dict）和优化器里。普通张量赋值则只是普通属性，
        例如 RNN 缓存的上一步隐状态——若没有这个类型区分，这些临时量也会被误登记。

        `requires_grad` 默认为 `True`，而且不受 `torch.no_grad()` 影响。

        1.5.1 → 2.13：增加了元类 `_ParameterMeta` 和自定义张量路径（打 `_is_param` 标记），
        以及 `__torch_function__` 的关闭；`__deepcopy__`、`__repr__` 与 1.5.1 相同，
        `__reduce_ex__` 现在会保存 Python 属性。

    === "English"

        A parameter is a `torch.Tensor` subclass with no new numerics; what matters is its
        type. Assigned as a module attribute, `Module.__setattr__` files it into
        `_parameters`, so it shows up in `parameters()`, the state_dict and optimizers. A plain
        tensor assigned the same way stays an ordinary attribute, such as an RNN's cached
        hidden state; without the distinct type such temporaries would be registered too.

        `requires_grad` defaults to `True`, even inside `torch.no_grad()`.

        1.5.1 → 2.13: the metaclass `_ParameterMeta`, the custom-tensor path (the `_is_param`
        flag) and the disabled `__torch_function__` were added; `__deepcopy__` and
        `__repr__` are as in 1.5.1, and `__reduce_ex__` now keeps Python attributes.

    Examples:
        >>> import torch, annotated_nn as nn
        >>> p = nn.Parameter(torch.ones(2))
        >>> p
        Parameter containing:
        tensor([1., 1.], requires_grad=True)
        >>> isinstance(p, torch.Tensor), p.requires_grad
        (True, True)
    """

    def __new__(cls, data=None, requires_grad=True):
        r"""Wrap `data` without copying its storage. / 包装 `data`，不复制存储。

        === "中文"

            两条路径。普通 `torch.Tensor`（或已经是 `Parameter`）走 `_make_subclass`：得到一个
            共享同一存储、类型为 `cls` 的新张量对象。其他张量子类（自定义张量）则保留原类型：
            `detach()` 后打上 `_is_param=True` 标记，元类据此让 `isinstance` 成立。

        === "English"

            Two paths. A plain `torch.Tensor` (or an existing `Parameter`) goes through
            `_make_subclass`: a new tensor object of type `cls` sharing the same storage. Any
            other tensor subclass keeps its own type: after `detach()` it is flagged
            `_is_param=True`, which the metaclass turns into a passing `isinstance`.

        Args:
            data: The tensor to wrap; `None` means `torch.empty(0)`. / 被包装的张量；`None` 即 `torch.empty(0)`。
            requires_grad: Whether the result requires grad. / 结果是否需要梯度。

        Returns:
            A `Parameter`, or a flagged custom tensor. / `Parameter`，或带标记的自定义张量。

        Raises:
            RuntimeError: A custom tensor whose `detach()` changes its type. / 自定义张量的 `detach()` 改变了类型。
        """
        # 中: `Parameter()` 不带数据时得到一个零元素的空参数，与 torch 相同。
        # EN: `Parameter()` without data gives an empty zero-element parameter, as in torch.
        if data is None:
            data = torch.empty(0)
        # 中: 普通张量与 Parameter 走老路径（向后兼容）；
        # 中: _make_subclass 共享存储，不复制数据。
        # 中: 结果总是叶子张量（grad_fn 为 None）：即使 data 带有计算图，
        # 中: 也不会连到它上面。`requires_grad` 由参数直接给定，
        # 中: 所以在 `torch.no_grad()` 里创建也是 True。
        # EN: Plain tensors and Parameters keep the old path (backward compatibility);
        # EN: _make_subclass shares the storage rather than copying the data. The result is
        # EN: always a leaf (grad_fn None): even when data has autograd history, it is not linked
        # EN: to it. `requires_grad` is set from the argument, so it is True even under
        # EN: `torch.no_grad()`.
        # DIFF(torch 2.13):
        # 中: torch 的 torch.nn.Parameter 也走这条路径，于是
        #     annotated_nn.Parameter(torch.nn.Parameter(x)) 能直接转换；torch 对外来的 Parameter
        #     类会落到自定义张量路径并报 detach() 类型错误。
        # EN: torch's own torch.nn.Parameter also takes this path, so
        #     annotated_nn.Parameter(torch.nn.Parameter(x)) converts; torch, given a foreign
        #     Parameter class, falls to the custom-tensor path and raises the detach() type error.
        if (
            type(data) is torch.Tensor
            or type(data) is Parameter
            or type(data) is torch.nn.Parameter
        ):
            return torch.Tensor._make_subclass(cls, data, requires_grad)

        # 中: 自定义张量（如 DTensor）保持原类型，只打标记；
        # 中: 要求 detach() 不改变类型。detach() 让结果成为叶子张量，
        # 中: 作用与上一条路径的 _make_subclass 相同。
        # EN: A custom tensor (e.g. DTensor) keeps its type and only gets the flag; this needs
        # EN: detach() to preserve the type. detach() makes the result a leaf, as _make_subclass
        # EN: does on the path above.
        t = data.detach().requires_grad_(requires_grad)
        if type(t) is not type(data):
            # 中: 报错文字与 torch 逐字相同；
            # 中: `torch.nn.Parameter(annotated_nn.Parameter(x))`
            # 中: 在 torch 里报的正是这条错误（见上面的 DIFF）。
            # EN: The error text is torch's, word for word; in torch,
            # EN: `torch.nn.Parameter(annotated_nn.Parameter(x))` raises exactly this (see the
            # EN: DIFF above).
            raise RuntimeError(
                f"Creating a Parameter from an instance of type {type(data).__name__} "
                "requires that detach() returns an instance of the same type, but return "
                f"type {type(t).__name__} was found instead. To use the type as a "
                "Parameter, please correct the detach() semantics defined by "
                "its __torch_dispatch__() implementation."
            )
        # 中: 标记放在实例上：`isinstance(t, Parameter)`
        # 中: 靠元类读到它而成立，`Module.__setattr__`
        # 中: 也因此把 t 登记为参数，尽管 `type(t)` 仍是自定义类型。
        # EN: The flag goes on the instance: the metaclass reads it, so `isinstance(t, Parameter)`
        # EN: holds and `Module.__setattr__` registers t as a parameter, though `type(t)` is
        # EN: still the custom type.
        t._is_param = True
        return t

    # 中: 下面三个方法只对普通路径创建的 Parameter 生效；自定义张量仍是自己的类型，用不到它们。
    # EN: The three methods below serve Parameters made by the plain path only; flagged custom
    #     tensors keep their own type and never reach them.
    def __deepcopy__(self, memo):
        r"""Deep-copy: clone the data, keep `requires_grad`. / 深拷贝：克隆数据，保留 `requires_grad`。

        === "中文"

            先查 `memo`，保证同一个参数在一次 `copy.deepcopy` 中只复制一次（共享权重在副本里
            依然共享）。副本是同类型的新参数，数据用 `preserve_format` 克隆（保留内存布局）；
            `.grad`、钩子和其他 Python 属性都不复制。

        === "English"

            `memo` is checked first so that one parameter is copied once per
            `copy.deepcopy` (shared weights stay shared in the copy). The copy is a new
            parameter of the same type whose data is cloned with `preserve_format` (keeping the
            memory layout); `.grad`, hooks and other Python attributes are not copied.

        Args:
            memo: `copy.deepcopy`'s id → copy dictionary. / `copy.deepcopy` 的 id → 副本字典。

        Returns:
            The copy. / 副本。
        """
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(
            self.data.clone(memory_format=torch.preserve_format), self.requires_grad
        )
        memo[id(self)] = result
        return result

    def __repr__(self) -> str:
        r"""`"Parameter containing:"` followed by the tensor's repr. / 先写 `"Parameter containing:"`，再接张量的 repr。

        === "中文"

            打印模块参数时常见的第一行就来自这里；第二行起是 `torch.Tensor.__repr__` 的结果。

        === "English"

            The familiar first line when printing a module's parameter comes from here; the
            rest is `torch.Tensor.__repr__`.

        Returns:
            The repr string. / repr 字符串。

        Note: Note [Parameter repr] Parameter 的 repr
            === "中文"

                torch 的张量打印代码 `torch._tensor_str` 只把 `torch.Tensor` 和
                `torch.nn.Parameter` 两个类型当作“普通张量”，用 `tensor(` 开头；其他类型用
                自己的类名开头，参数子类还会再包一层 `Parameter(...)`。我们的 `Parameter`
                不是 `torch.nn.Parameter`，直接打印会得到 `Parameter([1., 1.], ...)`。
                为了与 torch 逐字相同，打印期间临时把对象的 `__class__` 换成 `torch.Tensor`
                （张量子类之间允许这样换，`materialize` 也是这么做的），打印完立即换回。
                换类不复制数据，`grad_fn`、前向模式的 tangent 等信息也原样保留（另建一个普通张量
                别名做不到这一点）。代价是：另一个线程恰在打印期间对同一参数做 `isinstance`
                检查，会短暂看到 `torch.Tensor`。子类无需特殊处理：我们的类带 `_is_param = True`，
                torch 的打印代码把它认作参数子类，自己会包上 `Parameter(...)`。

            === "English"

                torch's printing code `torch._tensor_str` treats only `torch.Tensor` and
                `torch.nn.Parameter` as plain tensors, printed as `tensor(`; any other type is
                printed under its class name, and a parameter subclass is further wrapped in
                `Parameter(...)`. Our `Parameter` is not `torch.nn.Parameter`, so a direct call
                would print `Parameter([1., 1.], ...)`. To match torch character for character,
                the object's `__class__` is switched to `torch.Tensor` while printing (tensor
                subclasses allow this, as `materialize` does too) and switched back right after.
                Nothing is copied, and `grad_fn`, a forward-mode tangent and the rest print as they
                are (a separate plain-tensor alias could not keep them). The price: another thread
                running `isinstance` on the same parameter during the print briefly sees a
                `torch.Tensor`. Subclasses need nothing special: our class carries `_is_param = True`,
                so torch's printer sees a parameter subclass and adds the `Parameter(...)` wrapper itself.
        """
        # 中: 见 Note [Parameter repr]：打印期间临时当作普通张量，
        # 中: 保证输出与 torch 相同。
        # 中: `finally` 保证打印出错时也会换回 Parameter，对象不会永久丢掉自己的类型。
        # EN: See Note [Parameter repr]: print as a plain tensor for a moment so the output
        # EN: matches torch's. `finally` switches back to Parameter even if printing raises, so
        # EN: the object never loses its type for good.
        if type(self) is Parameter:
            self.__class__ = torch.Tensor
            try:
                body = torch.Tensor.__repr__(self)
            finally:
                self.__class__ = Parameter
        else:
            # 中: 子类不换类：torch 的打印代码自己包上 `Parameter(SubName(...))`
            # 中: （SubName 为子类名），与 torch 自己的参数子类打印得一样。
            # EN: A subclass keeps its class: torch's printer wraps it as `Parameter(SubName(...))`
            # EN: itself, just as it prints torch's own parameter subclasses.
            body = super().__repr__()
        return "Parameter containing:\n" + body

    def __reduce_ex__(self, proto):
        r"""Pickle as data + `requires_grad` (+ Python attributes), never hooks. / 序列化为数据与 `requires_grad`（以及 Python 属性），不含钩子。

        === "中文"

            返回“重建函数 + 参数”。没有额外 Python 属性时用
            [`_rebuild_parameter`][annotated_nn.parameter._rebuild_parameter]，否则用
            `_rebuild_parameter_with_state` 连属性一起恢复。钩子（hook）一律以空
            `OrderedDict` 代替，理由见 torch 的 Note [Don't serialize hooks]：序列化钩子很脆弱
            （改个函数名，存下的模型就读不回来），也不常用（通常保存的是 state_dict），而且此前的做法不一致。

        === "English"

            Returns a rebuild function and its arguments: with no extra Python attributes
            [`_rebuild_parameter`][annotated_nn.parameter._rebuild_parameter], otherwise
            `_rebuild_parameter_with_state`, which restores them. Hooks are always replaced by
            an empty `OrderedDict`, for the reasons of torch's Note [Don't serialize hooks]:
            pickling hooks is fragile (renaming the function breaks a saved model), rarely used
            (people save the state_dict) and was inconsistent before.

        Args:
            proto: The pickle protocol (unused). / pickle 协议版本（未使用）。

        Returns:
            A `(callable, args)` pair for pickle. / 供 pickle 使用的 `(callable, args)`。
        """
        # 中: state 是实例的 `__dict__`（及 slots）里的 Python 属性，
        # 中: 例如用户设的 `p.foo`。钩子换成空 `OrderedDict`，而且是静默丢弃：
        # 中: 与 `Tensor.__reduce_ex__` 不同，
        # 中: 这里不调用 `warn_if_has_hooks`，带钩子的参数序列化时没有警告（torch 也一样）。
        # EN: state holds the Python attributes in the instance `__dict__` (and slots), such as a
        # EN: user's `p.foo`. Hooks become an empty `OrderedDict`, dropped silently: unlike
        # EN: `Tensor.__reduce_ex__`, nothing calls `warn_if_has_hooks`, so pickling a parameter
        # EN: with hooks gives no warning (as in torch).
        state = _get_obj_state(self)
        hooks = OrderedDict()
        # DIFF(torch 2.13):
        # 中: torch 使用 torch._utils 里的重建函数，但它们固定构造 torch.nn.Parameter；
        #     这里换成本文件的同名函数，使反序列化得到 annotated_nn.Parameter。
        # EN: torch uses the rebuild functions in torch._utils, which always build a
        #     torch.nn.Parameter; ours live in this file so unpickling yields annotated_nn.Parameter.
        if not state:
            return (_rebuild_parameter, (self.data, self.requires_grad, hooks))
        return (_rebuild_parameter_with_state, (self.data, self.requires_grad, hooks, state))

    # 中: 关闭 __torch_function__ 分派：对参数做运算得到普通 Tensor，而不是 Parameter。
    # EN: Disable __torch_function__ dispatch: operations on a parameter return plain Tensors,
    #     not Parameters.
    __torch_function__ = _disabled_torch_function_impl

    # DIFF(torch 2.13):
    # 中: 类属性 `_is_param = True` 让 torch 自己的元类把我们的参数也认作 torch.nn.Parameter
    #     （`isinstance(p, torch.nn.Parameter)` 为真）。torch 内部多处靠这个判断区分参数与普通张量，
    #     例如 torch.compile 的 aot_eager/inductor 后端在运行时只放行 torch.nn.Parameter，否则报
    #     "Multiple dispatch failed"。放在类上而不是实例上，所以不进入实例的 `__dict__`，pickle 也不变。
    # EN: The class attribute `_is_param = True` makes torch's own metaclass accept our parameters
    #     as torch.nn.Parameter (`isinstance(p, torch.nn.Parameter)` is true). torch tells
    #     parameters from plain tensors this way in several places; torch.compile's aot_eager and
    #     inductor backends, for one, let only torch.nn.Parameter through at run time and fail with
    #     "Multiple dispatch failed" otherwise. On the class rather than the instance, it stays out
    #     of the instance `__dict__`, and pickling is unchanged.
    _is_param = True


def _rebuild_parameter(data, requires_grad, backward_hooks):
    r"""Unpickling helper: rebuild a Parameter. / 反序列化辅助函数：重建 Parameter。

    === "中文"

        与 `torch._utils._rebuild_parameter` 做同样的事，只是构造的是本库的
        `Parameter`。`backward_hooks` 通常是空的 `OrderedDict`，仅为兼容旧文件才赋回去。

    === "English"

        Does what `torch._utils._rebuild_parameter` does, but builds this library's
        `Parameter`. `backward_hooks` is normally an empty `OrderedDict`; it is assigned back
        only for compatibility with old files.

    Args:
        data: The tensor data. / 张量数据。
        requires_grad: Whether it requires grad. / 是否需要梯度。
        backward_hooks: Hook dictionary (normally empty). / 钩子字典（通常为空）。

    Returns:
        The rebuilt parameter. / 重建的参数。
    """
    param = Parameter(data, requires_grad)
    param._backward_hooks = backward_hooks
    return param


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    r"""Unpickling helper: rebuild a Parameter and its Python attributes. / 反序列化辅助函数：重建 Parameter 及其 Python 属性。

    === "中文"

        先按 [`_rebuild_parameter`][annotated_nn.parameter._rebuild_parameter] 重建，再用
        torch 的 `_set_obj_state` 把序列化时保存的 `__dict__`（和 slots）写回去。

    === "English"

        Rebuilds as [`_rebuild_parameter`][annotated_nn.parameter._rebuild_parameter] does,
        then writes the saved `__dict__` (and slots) back with torch's `_set_obj_state`.

    Args:
        data: The tensor data. / 张量数据。
        requires_grad: Whether it requires grad. / 是否需要梯度。
        backward_hooks: Hook dictionary (normally empty). / 钩子字典（通常为空）。
        state: The saved Python attribute state. / 保存的 Python 属性状态。

    Returns:
        The rebuilt parameter. / 重建的参数。
    """
    param = _rebuild_parameter(data, requires_grad, backward_hooks)
    return _set_obj_state(param, state)


# DIFF(torch 2.13):
# 中: torch 的重建函数在 torch.load(weights_only=True) 的白名单里；把我们的两个
#     也登记进去，这样单独保存的 annotated_nn.Parameter 与 torch 的一样能被安全加载。
# EN: torch's rebuild functions are on the torch.load(weights_only=True) allowlist; ours are added
#     too, so a saved annotated_nn.Parameter loads safely just like torch's.
torch.serialization.add_safe_globals([_rebuild_parameter, _rebuild_parameter_with_state])


class UninitializedTensorMixin:
    r"""Shared behavior of parameters and buffers whose shape is not known yet. / 形状尚未确定的参数与缓冲区的共同行为。

    === "中文"

        惰性模块（lazy module）在构造时还不知道输入维度，于是先放一个零元素的占位张量。
        这个混入类保证占位张量不会被误用：除了 `_allowed_methods` 里的少数操作（改 dtype、
        换设备、`copy_` 等），任何 torch 函数都会抛出 `ValueError`；访问 `shape` 也会报错。
        形状确定后调用 `materialize`，对象就地变成 `cls_to_become` 指定的类型。

        1.5.1 → 2.13：1.5.1 没有惰性模块，这个类是 1.8 引入的。

    === "English"

        A lazy module does not know its input size when built, so it holds a zero-element
        placeholder. This mixin keeps the placeholder from being misused: apart from the few
        operations in `_allowed_methods` (dtype and device changes, `copy_`, ...), every torch
        function raises `ValueError`, and reading `shape` raises too. Once the shape is known,
        `materialize` turns the object, in place, into the type named by `cls_to_become`.

        1.5.1 → 2.13: 1.5.1 had no lazy modules; this class arrived in 1.8.
    """

    # 中: 占位张量上仍允许的操作（与 torch 的列表相同）。
    # 中: 它们大多是为了让模块级操作在第一次前向传播之前就能用；
    # 中: 其余一切都由 `__torch_function__` 拒绝。
    # EN: Operations still allowed on a placeholder (the same list as torch's). Most of them let
    # EN: module-level operations work before the first forward pass; `__torch_function__`
    # EN: refuses everything else.
    _allowed_methods = [
        # 中: 哈希：占位张量可以放进集合，
        # 中: `parameters()` 与优化器都用集合去重。
        # EN: Hashing: placeholders can go into sets, which `parameters()` and optimizers use
        # EN: to drop duplicates.
        torch.Tensor.__hash__,
        # 中: `size()` 得到 `torch.Size([0])`，不像 `.shape` 那样报错。
        # EN: `size()` answers `torch.Size([0])`, unlike `.shape`, which raises.
        torch.Tensor.size,
        # 中: `load_state_dict` 把惰性检查点载入惰性模块时，
        # 中: 对占位张量调用 `copy_`。
        # EN: `load_state_dict` calls `copy_` on a placeholder when it loads a lazy checkpoint
        # EN: into a lazy module.
        torch.Tensor.copy_,
        # 中: 从这里到 `to` 服务于 `Module.to()`、`.half()`、`.cuda()` 等。
        # 中: `Module.to()` 和 `Module.half()` 先问
        # 中: `is_floating_point()`（`to()` 还问 `is_complex()`）决定是否改 dtype。
        # EN: From here to `to`, the entries serve `Module.to()`, `.half()`, `.cuda()` and the
        # EN: like. `Module.to()` and `Module.half()` first ask `is_floating_point()` (`to()` also
        # EN: `is_complex()`) to decide whether to cast the dtype.
        torch.Tensor.is_complex,
        torch.Tensor.is_floating_point,
        # 中: 对未初始化参数，dtype 转换得到普通张量，`Module._apply`
        # 中: 经 `.data` 把它赋回，占位对象本身不变；对未初始化缓冲区，
        # 中: 结果仍是 `UninitializedBuffer`（`torch.Tensor` 默认的
        # 中: `__torch_function__` 保留子类），`_apply` 用它替换旧对象。
        # 中: `bfloat16` 不在列表里，所以未初始化的模块上
        # 中: `Module.bfloat16()` 会报 `ValueError`（torch 也是如此）。
        # EN: For an uninitialized parameter a dtype cast yields a plain tensor, which
        # EN: `Module._apply` puts back through `.data`, so the placeholder object stays; for an
        # EN: uninitialized buffer the result is still an `UninitializedBuffer` (`torch.Tensor`'s
        # EN: default `__torch_function__` keeps the subclass), and `_apply` swaps it in.
        # EN: `bfloat16` is not listed, so `Module.bfloat16()` raises `ValueError` on an
        # EN: uninitialized module (as in torch).
        torch.Tensor.half,
        torch.Tensor.float,
        torch.Tensor.double,
        torch.Tensor.char,
        torch.Tensor.short,
        torch.Tensor.int,
        torch.Tensor.long,
        # 中: 设备迁移（`Module.cuda()`、`.cpu()`、`.to(device)`）也要放行。
        # 中: 占位张量能否保住取决于 `Module._apply`：新旧数据可以浅拷贝互换（CPU 与 CUDA 的
        # 中: 普通张量之间）时，模块里仍是同一个占位张量，空数据换到新设备上，日后 `materialize`
        # 中: 默认就用这个设备；换到 `meta` 时不行，占位张量被一个形状为 `(0,)` 的普通 `Parameter`
        # 中: 取代，第一次前向传播随之报错。
        # EN: Device moves (`Module.cuda()`, `.cpu()`, `.to(device)`) are allowed too. Whether the
        # EN: placeholder survives is `Module._apply`'s choice: when old and new data may swap by
        # EN: a shallow copy (dense tensors between CPU and CUDA), the module keeps the same
        # EN: placeholder, its empty data on the new device, which `materialize` then uses by
        # EN: default; a move to `meta` may not, so an ordinary `Parameter` of shape `(0,)`
        # EN: replaces the placeholder and the first forward pass fails.
        torch.Tensor.cuda,
        torch.Tensor.cpu,
        torch.Tensor.to,
        # 中: `get_device()` 只报告设备编号（CPU 上为 -1），不需要形状。
        # EN: `get_device()` only reports the device index (-1 on CPU) and needs no shape.
        torch.Tensor.get_device,
        # 中: `Module._apply` 用它判断能否用 `param.data = result` 就地替换参数的数据；
        # 中: 放行它，兼容的迁移（见上）才能让模块里的未初始化参数保持同一个对象。
        # EN: `Module._apply` asks this whether `param.data = result` may replace a parameter's
        # EN: data in place; allowing it lets a compatible move (see above) keep the module's
        # EN: uninitialized parameter the same object.
        torch._has_compatible_shallow_copy_type,
    ]

    def materialize(self, shape, device=None, dtype=None) -> None:
        r"""Give the placeholder its real shape, in place. / 就地为占位张量赋予真实形状。

        === "中文"

            用 `torch.empty(shape)` 替换 `.data`（内容未初始化，通常随后由
            `reset_parameters` 填充），设备和 dtype 默认沿用占位张量的；然后把
            `__class__` 改成 `cls_to_become`（`Parameter` 或 `torch.Tensor`）。对象身份不变，
            所以模块字典和优化器里的引用依然有效。

        === "English"

            Replaces `.data` with `torch.empty(shape)` (uninitialized contents, usually filled
            next by `reset_parameters`), keeping the placeholder's device and dtype unless
            given; then sets `__class__` to `cls_to_become` (`Parameter` or `torch.Tensor`). The
            object's identity is unchanged, so references held by modules stay valid.

        Args:
            shape: The shape of the real tensor. / 真实张量的形状。
            device: Target device; default the current one. / 目标设备，默认沿用当前设备。
            dtype: Target dtype; default the current one. / 目标 dtype，默认沿用当前 dtype。
        """
        # 中: 默认沿用占位张量当前的设备与 dtype，
        # 中: 所以在物化之前做的 `Module.to()` 会被保留。
        # EN: By default the placeholder's current device and dtype are kept, so a `Module.to()`
        # EN: done before materializing is honored.
        if device is None:
            device = self.data.device
        if dtype is None:
            dtype = self.data.dtype
        # 中: 换上真实数据后换类：此后 `__torch_function__` 不再拦截，
        # 中: `.shape` 也恢复正常。赋值 `.data` 不进入计算图，
        # 中: 对象仍是叶子张量，`requires_grad` 保持不变；
        # 中: 实例属性（如缓冲区的 `_is_buffer`、`persistent`）也随对象保留。
        # EN: Real data in, then the class switch: from then on `__torch_function__` no longer
        # EN: intercepts and `.shape` works again. Assigning `.data` is not recorded by autograd:
        # EN: the object stays a leaf with `requires_grad` unchanged, and instance attributes
        # EN: (a buffer's `_is_buffer`, `persistent`) stay with it.
        self.data = torch.empty(shape, device=device, dtype=dtype)
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        r"""Always raises: an uninitialized tensor has no shape yet. / 总是报错：未初始化的张量还没有形状。

        === "中文"

            最常见的触发场景是 `load_state_dict` 试图把未初始化的参数载入已初始化的参数。
            解决办法是先用一个假批次调用一次 `forward`。

        === "English"

            Typically hit when `load_state_dict` tries to load an uninitialized parameter into an
            initialized one. Run `forward` once on a dummy batch first.

        Raises:
            RuntimeError: Always. / 总是抛出。
        """
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. "
            "This error usually happens in `load_state_dict` when trying to load "
            "an uninitialized parameter into an initialized one. "
            "Call `forward` to initialize the parameters before accessing their attributes."
        )

    def share_memory_(self):
        r"""Always raises: nothing to share before materialization. / 总是报错：物化之前没有可共享的内存。

        === "中文"

            `Module.share_memory()` 会对每个参数调用它；惰性模块要先运行 `forward`。

        === "English"

            `Module.share_memory()` calls it on every parameter; a lazy module must run
            `forward` first.

        Raises:
            RuntimeError: Always. / 总是抛出。
        """
        raise RuntimeError(
            "Can't share memory on an uninitialized parameter or buffer. "
            "Call `forward` to initialize the parameters before calling "
            "`module.share_memory()`."
        )

    def __repr__(self) -> str:
        r"""`<ClassName>`, since there is no content to show. / 显示为 `<ClassName>`（即类名），因为没有内容可打印。

        === "中文"

            例如 `<UninitializedParameter>`。模块的 `__repr__` 不打印参数，所以这通常只在直接
            打印参数时看到。

        === "English"

            For example `<UninitializedParameter>`. A module's `__repr__` does not print its
            parameters, so this is usually seen only when printing the parameter itself.

        Returns:
            The repr string. / repr 字符串。
        """
        return f"<{self.__class__.__name__}>"

    def __reduce_ex__(self, proto):
        r"""Pickle as the class and `requires_grad` only. / 只序列化类与 `requires_grad`。

        === "中文"

            没有数据可存；恢复时重新构造一个默认设备、默认 dtype 的占位对象。钩子同样不保存。

        === "English"

            There is no data to save; unpickling builds a fresh placeholder on the default
            device and dtype. Hooks are not saved either.

        Args:
            proto: The pickle protocol (unused). / pickle 协议版本（未使用）。

        Returns:
            A `(class, (requires_grad,))` pair. / `(类, (requires_grad,))`。
        """
        # 中: 反序列化即用这个类调用 `cls(requires_grad)`：新占位张量在默认设备上、
        # 中: 用默认 dtype，之前的 `.to()` 不会保留；
        # 中: 未初始化缓冲区的 `persistent=False` 也变回 `True`（torch 同样如此）。
        # EN: Unpickling calls `cls(requires_grad)`: the new placeholder is on the default device
        # EN: with the default dtype, so an earlier `.to()` is lost, and an uninitialized buffer's
        # EN: `persistent=False` comes back as `True` (in torch too).
        return (self.__class__, (self.requires_grad,))

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        r"""Let only the allowed functions through; refuse the rest. / 只放行允许的函数，其余一律拒绝。

        === "中文"

            每个作用在占位张量上的 torch 函数都先到这里。属于 `_allowed_methods`、或是
            `method-wrapper`（张量属性描述符的访问，如 `.device`）时，交给父类（已关闭的
            `__torch_function__`，即正常执行）；否则抛出 `ValueError`，提示先用假批次运行
            `forward`。

        === "English"

            Every torch function applied to a placeholder arrives here first. Members of
            `_allowed_methods`, and `method-wrapper`s (tensor property descriptors such as
            `.device`), go on to the parent's disabled `__torch_function__`, i.e. run
            normally; anything else raises `ValueError`, asking to run `forward` on a dummy
            batch first.

        Args:
            func: The torch function being called. / 被调用的 torch 函数。
            types: Tensor types involved. / 参与的张量类型。
            args: Positional arguments. / 位置参数。
            kwargs: Keyword arguments, or `None`. / 关键字参数或 `None`。

        Returns:
            Whatever `func` returns. / `func` 的返回值。

        Raises:
            ValueError: `func` is not allowed. / `func` 不在允许之列。
        """
        # 中: 放行的调用交给 MRO 中的下一个 `__torch_function__`：
        # 中: 未初始化参数是 `Parameter` 的已关闭版本，
        # 中: 结果是普通张量；未初始化缓冲区是 `torch.Tensor` 的默认版本，
        # 中: 结果保留子类。`method-wrapper` 是属性描述符的访问（`.device`、
        # 中: `.dtype`、`.data = ...` 等）。
        # EN: An allowed call goes to the next `__torch_function__` in the MRO: for an
        # EN: uninitialized parameter that is `Parameter`'s disabled one, giving plain tensors;
        # EN: for an uninitialized buffer `torch.Tensor`'s default, which keeps the subclass.
        # EN: A `method-wrapper` is a property descriptor access (`.device`, `.dtype`,
        # EN: `.data = ...` and so on).
        if func in cls._allowed_methods or func.__class__.__name__ == "method-wrapper":
            if kwargs is None:
                kwargs = {}
            return super().__torch_function__(func, types, args, kwargs)
        # DIFF(torch 2.13):
        # 中: 消息里的类路径写作 annotated_nn.parameter.X，指向用户真正操作的类，
        #     torch 写的是 torch.nn.parameter.X；其余文字相同。
        # EN: The message names the class as annotated_nn.parameter.X, the class the user really
        #     handles, where torch writes torch.nn.parameter.X; the rest of the text is the same.
        raise ValueError(
            f"Attempted to use an uninitialized parameter in {func}. "
            "This error happens when you are using a `LazyModule` or "
            f"explicitly manipulating `annotated_nn.parameter.{cls.__name__}` "
            "objects. When using LazyModules Call `forward` with a dummy batch "
            "to initialize the parameters before calling torch functions"
        )


def is_lazy(param: Any) -> bool:
    r"""Whether `param` is an uninitialized parameter or buffer. / 判断 `param` 是否为未初始化的参数或缓冲区。

    === "中文"

        惰性模块据此决定是否需要在第一次前向传播时推断形状。判断依据是是否继承了
        [`UninitializedTensorMixin`][annotated_nn.parameter.UninitializedTensorMixin]；
        torch 自己的 `torch.nn.UninitializedParameter` 继承的是 torch 的混入类，因此这里返回
        `False`。

    === "English"

        Lazy modules use it to decide whether shapes still need inferring on the first forward
        pass. The test is inheritance from
        [`UninitializedTensorMixin`][annotated_nn.parameter.UninitializedTensorMixin]; torch's
        own `torch.nn.UninitializedParameter` inherits torch's mixin, so it gives `False` here.

    Args:
        param: Any object. / 任意对象。

    Returns:
        `True` for our uninitialized parameters and buffers. / 本库的未初始化参数或缓冲区返回 `True`。

    Examples:
        >>> import annotated_nn as nn
        >>> nn.parameter.is_lazy(nn.UninitializedParameter())
        True
    """
    return isinstance(param, UninitializedTensorMixin)


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    r"""A parameter whose shape is not known yet. / 形状尚未确定的参数。

    === "中文"

        惰性模块（如 `LazyLinear`）的权重在第一次前向传播之前就是它：一个零元素的参数，只能改
        dtype、换设备，或者 `materialize` 成普通的 [`Parameter`][annotated_nn.parameter.Parameter]。
        构造时可用 `device=`、`dtype=` 指定物化时的默认设备与类型。

        因为它是 `Parameter` 的子类，赋值给模块时照样登记为参数；混入类排在 MRO 前面，
        所以它的 `__torch_function__`、`__repr__`、`__reduce_ex__` 优先生效。

    === "English"

        The weight of a lazy module (e.g. `LazyLinear`) before its first forward pass: a
        zero-element parameter that can only change dtype or device, or be turned by
        `materialize` into an ordinary [`Parameter`][annotated_nn.parameter.Parameter].
        `device=` and `dtype=` at construction set the defaults used when materializing.

        Being a `Parameter` subclass, it registers as a parameter when assigned to a module;
        the mixin comes first in the MRO, so its `__torch_function__`, `__repr__` and
        `__reduce_ex__` win.

    Examples:
        >>> import annotated_nn as nn
        >>> p = nn.UninitializedParameter()
        >>> p.materialize((2, 3))
        >>> type(p).__name__, tuple(p.shape)
        ('Parameter', (2, 3))
    """

    # 中: materialize 之后对象变成的类型。
    # EN: The type the object becomes after materialize.
    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None) -> None:
        r"""Build a zero-element placeholder parameter. / 构造一个零元素的占位参数。

        === "中文"

            数据是 `torch.empty(0)`，放在给定的设备与 dtype 上，这两者也就是日后物化的默认值。

        === "English"

            The data is `torch.empty(0)` on the given device and dtype, which become the
            defaults for materializing later.

        Args:
            requires_grad: Whether it requires grad. / 是否需要梯度。
            device: Device of the placeholder. / 占位张量的设备。
            dtype: Dtype of the placeholder. / 占位张量的 dtype。

        Returns:
            The new placeholder. / 新的占位参数。
        """
        data = torch.empty(0, device=device, dtype=dtype)
        return torch.Tensor._make_subclass(cls, data, requires_grad)

    def __deepcopy__(self, memo):
        r"""Deep-copy as a fresh placeholder on the same device and dtype. / 深拷贝为同设备同 dtype 的新占位参数。

        === "中文"

            没有数据可克隆，只需按 `requires_grad`、设备、dtype 重新构造；`memo` 保证共享
            关系在副本中保留。

        === "English"

            There is no data to clone; a new placeholder is built from `requires_grad`, device
            and dtype, and `memo` keeps sharing intact in the copy.

        Args:
            memo: `copy.deepcopy`'s id → copy dictionary. / `copy.deepcopy` 的 id → 副本字典。

        Returns:
            The copy. / 副本。
        """
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.requires_grad, self.data.device, self.data.dtype)
        memo[id(self)] = result
        return result


class _BufferMeta(torch._C._TensorMeta):
    r"""Metaclass of Buffer: flagged tensors pass `isinstance`. / Buffer 的元类：带标记的张量能通过 `isinstance`。

    === "中文"

        与 [`_ParameterMeta`][annotated_nn.parameter._ParameterMeta] 同理，但看的是
        `_is_buffer` 标记。因为 `Buffer(...)` 返回的本来就是带标记的普通张量，所以
        `isinstance(t, Buffer)` 全靠这个元类。

    === "English"

        Like [`_ParameterMeta`][annotated_nn.parameter._ParameterMeta] but for the
        `_is_buffer` flag. Since `Buffer(...)` returns a flagged plain tensor anyway,
        `isinstance(t, Buffer)` relies entirely on this metaclass.
    """

    def __instancecheck__(self, instance) -> bool:
        r"""`isinstance` check: the flag first, then the real type. / `isinstance` 检查：先看标记，再看真实类型。

        === "中文"

            只在被检查的类恰好是 `Buffer` 时才看 `_is_buffer` 标记。

        === "English"

            The `_is_buffer` flag is consulted only when the class checked is exactly
            `Buffer`.

        Args:
            instance: The object being tested. / 被检查的对象。

        Returns:
            Whether `instance` counts as an instance. / 是否算作实例。
        """
        if self is Buffer:
            if isinstance(instance, torch.Tensor) and getattr(instance, "_is_buffer", False):
                return True
        return super().__instancecheck__(instance)


class Buffer(torch.Tensor, metaclass=_BufferMeta):
    r"""Marks a tensor to be registered as a buffer on assignment. / 标记一个张量，赋值给模块时登记为缓冲区。

    === "中文"

        缓冲区（buffer）是模块状态但不是参数，例如 BatchNorm 的 `running_mean`。以前只能
        调用 `register_buffer`；有了 `Buffer`，直接 `self.x = Buffer(t)` 即可。
        注意 `Buffer(t)` 返回的不是 `Buffer` 类型的对象，而是 `t.detach()` 得到的普通张量，
        外加两个属性 `_is_buffer=True` 与 `persistent`（是否写入状态字典）。

        1.5.1 → 2.13：1.5.1 没有这个类（2.5 引入），只能用 `register_buffer`。

    === "English"

        A buffer is module state that is not a parameter, such as BatchNorm's
        `running_mean`. Before this class one had to call `register_buffer`; now
        `self.x = Buffer(t)` suffices. Note that `Buffer(t)` returns no `Buffer` object but the
        plain tensor `t.detach()` with two attributes, `_is_buffer=True` and `persistent`
        (whether the state_dict includes it).

        1.5.1 → 2.13: absent in 1.5.1 (added in 2.5), where only `register_buffer` existed.

    Examples:
        >>> import torch, annotated_nn as nn
        >>> b = nn.Buffer(torch.zeros(2), persistent=False)
        >>> type(b).__name__, isinstance(b, nn.Buffer), b.persistent
        ('Tensor', True, False)
    """

    def __new__(cls, data=None, *, persistent=True):
        r"""Detach `data` and flag it as a buffer. / 分离 `data` 并标记为缓冲区。

        === "中文"

            `detach()` 共享存储但断开计算图；`requires_grad` 保持与输入一致。

        === "English"

            `detach()` shares the storage but leaves the autograd graph; `requires_grad` is
            kept as the input had it.

        Args:
            data: The tensor; `None` means `torch.empty(0)`. / 张量；`None` 即 `torch.empty(0)`。
            persistent: Whether the state_dict includes it. / 是否写入状态字典。

        Returns:
            The flagged tensor (its type is the input's). / 带标记的张量（类型与输入相同）。
        """
        if data is None:
            data = torch.empty(0)
        t = data.detach().requires_grad_(data.requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t

    __torch_function__ = _disabled_torch_function_impl


class UninitializedBuffer(UninitializedTensorMixin, torch.Tensor):
    r"""A buffer whose shape is not known yet. / 形状尚未确定的缓冲区。

    === "中文"

        与 [`UninitializedParameter`][annotated_nn.parameter.UninitializedParameter] 相同，
        只是 `materialize` 之后变成普通 `torch.Tensor`，默认不需要梯度，并带有
        `persistent` 与 `_is_buffer=True`（所以赋值给模块时登记为缓冲区）。

    === "English"

        Like [`UninitializedParameter`][annotated_nn.parameter.UninitializedParameter], but
        after `materialize` it becomes a plain `torch.Tensor`, does not require grad by
        default, and carries `persistent` and `_is_buffer=True` (so assigning it to a module
        registers a buffer).

    """

    # 中: materialize 之后对象变成普通张量。
    # EN: After materialize the object becomes a plain tensor.
    cls_to_become = torch.Tensor

    def __new__(cls, requires_grad=False, device=None, dtype=None, persistent=True) -> None:
        r"""Build a zero-element placeholder buffer. / 构造一个零元素的占位缓冲区。

        === "中文"

            数据是给定设备与 dtype 上的 `torch.empty(0)`，并打上缓冲区标记。

        === "English"

            The data is `torch.empty(0)` on the given device and dtype, flagged as a buffer.

        Args:
            requires_grad: Whether it requires grad. / 是否需要梯度。
            device: Device of the placeholder. / 占位张量的设备。
            dtype: Dtype of the placeholder. / 占位张量的 dtype。
            persistent: Whether the state_dict includes it. / 是否写入状态字典。

        Returns:
            The new placeholder. / 新的占位缓冲区。
        """
        data = torch.empty(0, device=device, dtype=dtype)
        ret = torch.Tensor._make_subclass(cls, data, requires_grad)
        ret.persistent = persistent
        ret._is_buffer = True
        return ret
