r"""RMSprop: divide each step by a running root mean square of the gradient; mirrors `torch.optim.rmsprop`. / RMSprop：用梯度的滑动均方根去除每一步，对应 `torch.optim.rmsprop`。

=== "中文"

    RMSprop 给每个参数的每个元素单独一个步长：它维护梯度平方的指数滑动平均
    `square_avg`（衰减系数 `alpha`），更新时用学习率（learning rate）乘以梯度、再除以
    `sqrt(square_avg) + eps`。梯度一直很大的元素步长变小，一直很小的元素步长变大。

    一步的计算（`g` 为梯度，`v` 为 `square_avg`，`a` 为 `alpha`）：

    1. `maximize=True` 时先取 `g = -g`；有权重衰减（weight decay）时 `g = g + weight_decay * p`；
    2. `v = a * v + (1 - a) * g * g`；
    3. `centered=True` 时还维护梯度本身的滑动平均 `m = m + (1 - a) * (g - m)`，分母用
       `sqrt(v - m * m) + eps`（估计的是方差而不是二阶矩）；否则分母是 `sqrt(v) + eps`；
    4. 有动量（momentum）时 `b = momentum * b + g / 分母`，`p = p - lr * b`；
       否则 `p = p - lr * g / 分母`。

    注意 `eps` 加在开方**之后**。状态里的 `step` 只计数，不参与计算。

    与其他优化器一样，这里有三层：类
    [`RMSprop`][annotated_optim.rmsprop.RMSprop] 负责超参数检查与状态；函数式接口
    [`rmsprop`][annotated_optim.rmsprop.rmsprop] 在两种实现之间分派：逐参数循环的
    [`_single_tensor_rmsprop`][annotated_optim.rmsprop._single_tensor_rmsprop]，
    和按（设备, 类型）分组、每步只调用几次 `torch._foreach_*` 内核的
    [`_multi_tensor_rmsprop`][annotated_optim.rmsprop._multi_tensor_rmsprop]。
    RMSprop 没有 fused 实现。

=== "English"

    RMSprop gives every element of every parameter a step size of its own: it keeps an
    exponential moving average `square_avg` of the squared gradient (decay factor `alpha`), and
    an update multiplies the gradient by the learning rate and divides it by
    `sqrt(square_avg) + eps`. Elements whose gradient stays large take smaller steps; elements
    whose gradient stays small take larger ones.

    One step (`g` the gradient, `v` the `square_avg`, `a` the `alpha`):

    1. With `maximize=True`, `g = -g` first; with weight decay, `g = g + weight_decay * p`;
    2. `v = a * v + (1 - a) * g * g`;
    3. With `centered=True` a moving average of the gradient itself is kept too,
       `m = m + (1 - a) * (g - m)`, and the denominator is `sqrt(v - m * m) + eps` (an estimate
       of the variance instead of the second moment); otherwise it is `sqrt(v) + eps`;
    4. With momentum, `b = momentum * b + g / denominator` and `p = p - lr * b`; otherwise
       `p = p - lr * g / denominator`.

    Note that `eps` is added **after** the square root. The `step` in the state only counts;
    it takes no part in the arithmetic.

    As in the other optimizers there are three layers: the class
    [`RMSprop`][annotated_optim.rmsprop.RMSprop] checks hyperparameters and owns the state; the
    functional [`rmsprop`][annotated_optim.rmsprop.rmsprop] dispatches between two
    implementations: [`_single_tensor_rmsprop`][annotated_optim.rmsprop._single_tensor_rmsprop],
    a loop over parameters, and
    [`_multi_tensor_rmsprop`][annotated_optim.rmsprop._multi_tensor_rmsprop], which groups
    tensors by (device, dtype) and calls a few `torch._foreach_*` kernels per step. RMSprop has
    no fused implementation.
"""

from typing import Any

import torch
from torch import Tensor

from annotated_optim.optimizer import (
    Optimizer,
    ParamsT,
    _default_to_fused_or_foreach,
    _disable_dynamo_if_unsupported,
    _get_capturable_supported_devices,
    _get_scalar_dtype,
    _to_scalar,
    _use_grad_for_differentiable,
    _view_as_real,
)

__all__ = ["RMSprop", "rmsprop"]


class RMSprop(Optimizer):
    r"""The RMSprop optimizer, plain, centered, or with momentum. / RMSprop 优化器：普通、中心化或带动量。

    === "中文"

        每个参数的状态：`step`（0 维计数张量）、`square_avg`（梯度平方的滑动平均），
        `momentum > 0` 时还有 `momentum_buffer`，`centered=True` 时还有 `grad_avg`。它们在
        参数第一次带着梯度进入 `step()` 时才创建（惰性），所以状态字典里只有已经更新过的
        参数。状态是否存在 `momentum_buffer`/`grad_avg` 取决于**创建时**参数组的设置：之后
        再把 `momentum` 从 0 改成正数，下一步会因为缺少缓冲而报 `KeyError`（torch 同样如此）。

        复数参数被当作实部、虚部两个独立的实数来更新；稀疏梯度不受支持。
        `capturable=True` 把 `step` 放在参数所在的设备上，供 CUDA 图捕获；在 CPU 上
        `step()` 会报错，因为 CPU 不在可捕获设备之列。

    === "English"

        Per-parameter state: `step` (a 0-d count tensor), `square_avg` (the moving average of
        the squared gradient), plus `momentum_buffer` when `momentum > 0` and `grad_avg` when
        `centered=True`. They are created lazily, the first time the parameter enters `step()`
        with a gradient, so the state_dict holds only parameters already updated. Whether
        `momentum_buffer`/`grad_avg` exist depends on the group's settings **at creation**:
        raising `momentum` from 0 later makes the next step fail with a `KeyError` for the
        missing buffer (so does torch).

        A complex parameter is updated as two independent real numbers, real and imaginary
        part; sparse gradients are not supported. `capturable=True` keeps `step` on the
        parameter's device for CUDA graph capture; on CPU `step()` raises, as CPU is not among
        the capturable devices.

    Args:
        params: Tensors, `(name, tensor)` pairs, or dicts defining param groups. / 张量、`(name, tensor)` 对，或定义参数组的字典。
        lr: Learning rate, a float or a tensor of 1 element (default `1e-2`). / 学习率，浮点数或只有 1 个元素的张量（默认 `1e-2`）。
        alpha: Decay factor of the moving averages (default `0.99`). / 滑动平均的衰减系数（默认 `0.99`）。
        eps: Added to the root mean square, after the square root (default `1e-8`). / 开方之后加到均方根上（默认 `1e-8`）。
        weight_decay: L2 penalty added to the gradient (default `0`). / 加到梯度上的 L2 惩罚（默认 `0`）。
        momentum: Momentum factor; `0` keeps no buffer (default `0`). / 动量系数；为 `0` 时不保留缓冲（默认 `0`）。
        centered: Normalize by the estimated variance of the gradient (default `False`). / 用梯度方差的估计做归一化（默认 `False`）。
        capturable: Keep the step on the device for graph capture (default `False`). / 把步数留在设备上以便图捕获（默认 `False`）。
        foreach: Use the foreach implementation; `None` picks one by device (default `None`). / 使用 foreach 实现；`None` 按设备选择（默认 `None`）。
        maximize: Maximize the objective instead of minimizing (default `False`). / 最大化而不是最小化目标（默认 `False`）。
        differentiable: Let autograd record the step (default `False`). / 让自动求导记录这一步（默认 `False`）。

    Raises:
        ValueError: A tensor `lr` with more than one element, or a negative hyperparameter. / 张量 `lr` 多于一个元素，或超参数为负。

    Examples:
        >>> import torch, annotated_optim as optim
        >>> w = torch.nn.Parameter(torch.ones(2))
        >>> opt = optim.RMSprop([w], lr=0.1)
        >>> w.sum().backward()
        >>> opt.step()
        >>> opt.state[w]["square_avg"]
        tensor([0.0100, 0.0100])
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum: float = 0,
        centered: bool = False,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        r"""Check the hyperparameters, then build the groups through the base class. / 检查超参数，再由基类建立参数组。

        === "中文"

            检查的顺序和报错文本与 torch 相同：先看张量 `lr` 的元素个数，再依次要求 `lr`、
            `eps`、`momentum`、`weight_decay`、`alpha` 不为负。只检查构造时给的值；参数组
            里各自的值不再检查。

        === "English"

            The order of the checks and their texts are torch's: first the element count of a
            tensor `lr`, then `lr`, `eps`, `momentum`, `weight_decay`, `alpha` must not be
            negative. Only the constructor's values are checked; values set per group are not.

        Args:
            params: See the class. / 见类说明。
            lr: See the class. / 见类说明。
            alpha: See the class. / 见类说明。
            eps: See the class. / 见类说明。
            weight_decay: See the class. / 见类说明。
            momentum: See the class. / 见类说明。
            centered: See the class. / 见类说明。
            capturable: See the class. / 见类说明。
            foreach: See the class. / 见类说明。
            maximize: See the class. / 见类说明。
            differentiable: See the class. / 见类说明。

        Raises:
            ValueError: See the class. / 见类说明。
        """
        # 中: 张量学习率在运算里充当标量，所以只能有一个元素；先查这一点，后面的比较才有意义。
        # EN: A tensor learning rate acts as a scalar in the arithmetic, so it must have one
        #     element; this comes first, so that the comparisons below make sense.
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        # 中: 按 torch 的顺序逐个检查，第一个为负的值报错，报错文本与 torch 的逐字相同。
        # EN: Checked one by one in torch's order; the first negative value raises, with
        #     torch's exact text.
        for what, value in (
            ("learning rate", lr),
            ("epsilon value", eps),
            ("momentum value", momentum),
            ("weight_decay value", weight_decay),
            ("alpha value", alpha),
        ):
            # 中: 写成 `not 0.0 <= x` 而不是 `x < 0`：NaN 也会被拒绝（与 NaN 的比较总是假）。
            # EN: Written `not 0.0 <= x` rather than `x < 0`: NaN is refused too
            #     (comparisons with NaN are always false).
            if not 0.0 <= value:
                raise ValueError(f"Invalid {what}: {value}")

        # 中: 键的顺序就是参数组里键的顺序（`add_param_group` 按它补齐），也是状态字典里
        #     `param_groups` 各项的键顺序，所以与 torch 保持一致。
        # EN: The key order becomes the key order of every param group (`add_param_group`
        #     fills in this order) and of the state_dict's `param_groups`, so it follows torch.
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "alpha": alpha,
            "eps": eps,
            "centered": centered,
            "weight_decay": weight_decay,
            # 中: 以下四项选择实现与行为，不是数值超参数；`foreach=None` 表示自动选择。
            # EN: The next four choose implementation and behavior rather than numbers;
            #     `foreach=None` means choose automatically.
            "capturable": capturable,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def __setstate__(self, state: dict[str, Any]) -> None:
        r"""Restore, giving old pickles the options they lack and tensor step counts. / 恢复状态：为旧的 pickle 补上缺少的选项，并把步数变成张量。

        === "中文"

            `load_state_dict` 也经由这里装入参数组，所以一个缺少较新选项（`momentum`、
            `centered`、`foreach`、`maximize`、`differentiable`、`capturable`）的旧状态字典
            也能加载，缺的选项取固定的值（`momentum=0`、`centered=False` 等，即构造函数参数的默认值），
            而不是这个优化器构造时实际给的值。旧版本把 `step` 存成 Python 数；这里把它
            换成 0 维张量：`capturable` 的组放在参数的设备上，否则放在默认设备上（没有用
            `torch.set_default_device` 改过时就是 CPU）。

        === "English"

            `load_state_dict` installs param groups through here too, so an old state_dict
            lacking newer options (`momentum`, `centered`, `foreach`, `maximize`,
            `differentiable`, `capturable`) still loads, the missing options taking fixed values
            (`momentum=0`, `centered=False`, ...: the defaults of the constructor's arguments), not
            the values this optimizer was built with. Older versions stored `step` as a Python
            number; here it
            becomes a 0-d tensor: on the parameter's device for a `capturable` group, otherwise
            on the default device (the CPU unless `torch.set_default_device` changed it).

        Args:
            state: The attributes to set. / 要设置的属性。
        """
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("momentum", 0)
            group.setdefault("centered", False)
            group.setdefault("foreach", None)
            group.setdefault("maximize", False)
            group.setdefault("differentiable", False)
            group.setdefault("capturable", False)
            # 中: 只转换非张量的 `step`；已经是张量的原样保留（包括它的设备）。
            # EN: Only a non-tensor `step` is converted; a tensor one is kept as it is,
            #     device included.
            for p in group["params"]:
                param_state = self.state.get(p, [])
                if len(param_state) != 0 and not torch.is_tensor(param_state["step"]):
                    step_value = float(param_state["step"])
                    device = p.device if group["capturable"] else None
                    param_state["step"] = torch.tensor(
                        step_value, dtype=_get_scalar_dtype(), device=device
                    )

    def _init_group(
        self,
        group: dict[str, Any],
        params_with_grad: list[Tensor],
        grads: list[Tensor],
        square_avgs: list[Tensor],
        momentum_buffer_list: list[Tensor],
        grad_avgs: list[Tensor],
        state_steps: list[Tensor],
    ) -> bool:
        r"""Collect one group's parameters that have a gradient, creating their state. / 收集一个参数组中有梯度的参数，并创建它们的状态。

        === "中文"

            `.grad` 为 `None` 的参数被跳过：既不更新，也不创建状态。其余参数把参数、梯度和
            各项状态追加到给出的列表里，各列表逐项对应（`momentum_buffer_list` 与
            `grad_avgs` 只在相应选项打开时才有内容）。新状态都是零：`step` 为 0 维张量，
            类型由 `_get_scalar_dtype()` 决定，`capturable` 时放在参数的设备上，否则放在默认
            设备上（没有用 `torch.set_default_device` 改过时就是 CPU）；缓冲用
            `zeros_like(..., memory_format=torch.preserve_format)`，保持参数的内存布局。

        === "English"

            Parameters whose `.grad` is `None` are skipped: no update and no state. The others
            append the parameter, its gradient and its state to the given lists, which stay
            aligned position by position (`momentum_buffer_list` and `grad_avgs` only fill
            when their option is on). New state is all zeros: `step` a 0-d tensor of the dtype
            `_get_scalar_dtype()` gives, on the parameter's device when `capturable`, otherwise
            on the default device (the CPU unless `torch.set_default_device` changed it); buffers
            use `zeros_like(..., memory_format=torch.preserve_format)`, keeping the parameter's
            memory layout.

        Args:
            group: The param group. / 参数组。
            params_with_grad: Receives the parameters to update. / 接收要更新的参数。
            grads: Receives their gradients. / 接收它们的梯度。
            square_avgs: Receives their `square_avg`. / 接收它们的 `square_avg`。
            momentum_buffer_list: Receives their `momentum_buffer`. / 接收它们的 `momentum_buffer`。
            grad_avgs: Receives their `grad_avg`. / 接收它们的 `grad_avg`。
            state_steps: Receives their `step`. / 接收它们的 `step`。

        Returns:
            Whether any of these parameters is complex. / 其中是否有复数参数。

        Raises:
            RuntimeError: A gradient is sparse. / 梯度是稀疏的。
        """
        has_complex = False
        for p in group["params"]:
            if p.grad is None:
                continue
            has_complex |= torch.is_complex(p)
            params_with_grad.append(p)
            # 中: RMSprop 的平方平均覆盖每个元素，没有稀疏版本；在为该参数创建状态之前就拒绝
            #     稀疏梯度（前面的参数组此时已经更新过了）。
            # EN: RMSprop's squared average covers every element and has no sparse version; a
            #     sparse gradient is refused before this parameter's state is created (earlier
            #     param groups have already been updated by then).
            if p.grad.is_sparse:
                raise RuntimeError("RMSprop does not support sparse gradients")
            grads.append(p.grad)

            # 中: 惰性创建状态：键的插入顺序（step、square_avg、momentum_buffer、grad_avg）
            #     就是状态字典里的顺序。
            # EN: Lazy state creation: the insertion order of the keys (step, square_avg,
            #     momentum_buffer, grad_avg) is their order in the state_dict.
            state = self.state[p]
            if len(state) == 0:
                step_device = p.device if group["capturable"] else None
                state["step"] = torch.zeros((), dtype=_get_scalar_dtype(), device=step_device)
                state["square_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                # 中: 两个可选缓冲只在选项打开时分配，不用它们的优化器不多占参数大小的内存。
                # EN: The two optional buffers are allocated only when their option is on, so
                #     an optimizer that doesn't use them holds no extra parameter-sized memory.
                if group["momentum"] > 0:
                    state["momentum_buffer"] = torch.zeros_like(
                        p, memory_format=torch.preserve_format
                    )
                if group["centered"]:
                    state["grad_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)

            # 中: 按**当前**的组设置取状态：创建后才打开的选项在这里找不到缓冲，抛 KeyError。
            # EN: State is read by the **current** group settings: an option turned on after
            #     creation finds no buffer here and raises KeyError.
            square_avgs.append(state["square_avg"])
            state_steps.append(state["step"])
            if group["momentum"] > 0:
                momentum_buffer_list.append(state["momentum_buffer"])
            if group["centered"]:
                grad_avgs.append(state["grad_avg"])

        return has_complex

    @_use_grad_for_differentiable
    def step(self, closure=None):
        r"""Perform one RMSprop step on every param group. / 对每个参数组执行一步 RMSprop。

        === "中文"

            先做图捕获的健康检查（没有 CUDA/XPU 时什么也不做），再在开启梯度的情况下调用
            `closure`（若给出），然后逐组收集参数与状态，交给函数式接口
            [`rmsprop`][annotated_optim.rmsprop.rmsprop]。每个参数组单独调用一次，所以不同
            组可以有不同的超参数和实现。

        === "English"

            First the graph-capture health check (it does nothing without CUDA/XPU), then
            `closure` with gradients enabled (if given), then each group's parameters and state
            are collected and passed to the functional
            [`rmsprop`][annotated_optim.rmsprop.rmsprop]. It is called once per group, so groups
            may differ in hyperparameters and implementation.

        Args:
            closure: Re-evaluates the model and returns the loss. / 重新计算模型并返回损失。

        Returns:
            The closure's loss, or `None`. / 闭包返回的损失，或 `None`。
        """
        self._accelerator_graph_capture_health_check()

        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()

        # 中: 每组新建六个列表；`_init_group` 填满它们并创建缺少的状态。
        # EN: Six fresh lists per group; `_init_group` fills them and creates missing state.
        for group in self.param_groups:
            params_with_grad: list[Tensor] = []
            grads: list[Tensor] = []
            square_avgs: list[Tensor] = []
            grad_avgs: list[Tensor] = []
            momentum_buffer_list: list[Tensor] = []
            state_steps: list[Tensor] = []
            # 中: 留意列表的次序：`_init_group` 先收 `momentum_buffer_list` 再收 `grad_avgs`，
            #     函数式接口正相反；两处都沿用 torch 的签名。
            # EN: Mind the list order: `_init_group` takes `momentum_buffer_list` before
            #     `grad_avgs`, the functional interface the other way round; both keep torch's
            #     signatures.
            has_complex = self._init_group(
                group,
                params_with_grad,
                grads,
                # 中: 状态列表：已有的状态直接取用，缺少的在这里创建。
                # EN: The state lists: existing state is taken as is, missing state is
                #     created on the way.
                square_avgs,
                momentum_buffer_list,
                grad_avgs,
                state_steps,
            )

            # 中: 六个列表逐项对应：每个列表的第 i 项属于同一个参数。
            # EN: The six lists are aligned: item i of each belongs to the same parameter.
            rmsprop(
                params_with_grad,
                grads,
                square_avgs,
                grad_avgs,
                momentum_buffer_list,
                state_steps,
                # 中: 超参数每步都从组里重新读取，所以调度器改写 `group["lr"]` 下一步就生效。
                # EN: Hyperparameters are read from the group at every step, so a scheduler
                #     that rewrites `group["lr"]` takes effect on the next step.
                lr=group["lr"],
                alpha=group["alpha"],
                eps=group["eps"],
                weight_decay=group["weight_decay"],
                momentum=group["momentum"],
                centered=group["centered"],
                # 中: 开关类选项；`has_complex` 让 foreach 实现决定是否换成实数视图。
                # EN: The switches; `has_complex` tells the foreach implementation whether
                #     to switch to real views.
                foreach=group["foreach"],
                maximize=group["maximize"],
                differentiable=group["differentiable"],
                capturable=group["capturable"],
                has_complex=has_complex,
            )

        return loss


def _check_capturable_devices(params: list[Tensor], state_steps: list[Tensor]) -> None:
    r"""Refuse `capturable=True` unless every parameter and step sit on one capturable device. / 除非每个参数和步数都在同一个可捕获设备上，否则拒绝 `capturable=True`。

    === "中文"

        可捕获的更新不能有主机同步，所以参数和它的 `step` 必须在同一个受支持的设备上
        （CUDA、XPU 等，不含 CPU）。报错类型 `AssertionError` 与文本与 torch 相同。单张量
        实现对每个参数分别调用本函数（传入单元素列表），foreach 实现对整组调用一次。

    === "English"

        A capturable update must not synchronize with the host, so a parameter and its `step`
        must be on the same supported device (CUDA, XPU and so on, not CPU). The error type,
        `AssertionError`, and its text are torch's. The single-tensor implementation calls
        this per parameter (with one-element lists), the foreach one once for the whole group.

    Args:
        params: The parameters. / 参数。
        state_steps: Their step counts, aligned. / 逐项对应的步数。

    Raises:
        AssertionError: Some pair is on an unsupported or mismatched device. / 某一对位于不受支持或不一致的设备上。
    """
    supported_devices = _get_capturable_supported_devices()
    if not all(
        p.device.type == step.device.type and p.device.type in supported_devices
        for p, step in zip(params, state_steps, strict=True)
    ):
        # 中: 报错列出的名单每次现查，其中包含当前注册的 privateuse1 后端名。
        # EN: The list in the message is looked up every time and includes the name of the
        #     currently registered privateuse1 backend.
        raise AssertionError(
            "If capturable=True, params and state_steps must be on supported devices: "
            f"{supported_devices}."
        )


def _single_tensor_rmsprop(
    params: list[Tensor],
    grads: list[Tensor],
    square_avgs: list[Tensor],
    grad_avgs: list[Tensor],
    momentum_buffer_list: list[Tensor],
    state_steps: list[Tensor],
    *,
    lr: float,
    alpha: float,
    eps: float,
    weight_decay: float,
    momentum: float,
    centered: bool,
    maximize: bool,
    differentiable: bool,
    capturable: bool,
    has_complex: bool,
) -> None:
    r"""RMSprop as a loop over parameters, one tensor at a time. / 逐个参数循环的 RMSprop，一次处理一个张量。

    === "中文"

        CPU 上的默认实现，也是 `differentiable=True` 唯一可用的实现。每一步都是普通的张量
        运算，顺序与 torch 相同，结果逐位一致。梯度不被改写：`maximize` 和权重衰减都生成
        新张量。`differentiable=True` 时 `eps` 用非就地的 `add` 加上，避免就地修改自动求导
        还要用到的开方结果；否则用 `add_` 省一次分配。复数参数、梯度和状态先换成实数视图。

        一个陷阱（torch 同样如此）：`differentiable=True` 且 `centered=True` 时，无法对连续
        两步以上求导：第一步的 `addcmul` 为反向传播保存了 `grad_avg`，第二步的 `lerp_` 又
        就地改写了它，`backward()` 报 `RuntimeError`。

    === "English"

        The default implementation on CPU, and the only one `differentiable=True` can use.
        Every step is plain tensor arithmetic in torch's order, giving the same bits. The
        gradient is never overwritten: `maximize` and weight decay both make new tensors. With
        `differentiable=True`, `eps` is added out of place with `add`, so the square root that
        autograd still needs is not modified in place; otherwise `add_` saves an allocation.
        Complex parameters, gradients and state are first replaced by real views.

        A pitfall (torch's too): with `differentiable=True` and `centered=True`, one can't
        differentiate through two or more steps: the first step's `addcmul` saves `grad_avg`
        for the backward pass, the second step's `lerp_` modifies it in place, and
        `backward()` raises a `RuntimeError`.

    Args:
        params: Parameters to update in place. / 要就地更新的参数。
        grads: Their gradients. / 它们的梯度。
        square_avgs: Their `square_avg`, updated in place. / 它们的 `square_avg`，就地更新。
        grad_avgs: Their `grad_avg` (used when `centered`). / 它们的 `grad_avg`（`centered` 时使用）。
        momentum_buffer_list: Their `momentum_buffer` (used when `momentum > 0`). / 它们的 `momentum_buffer`（`momentum > 0` 时使用）。
        state_steps: Their step counts, incremented in place. / 它们的步数，就地加一。
        lr: Learning rate. / 学习率。
        alpha: Decay factor of the moving averages. / 滑动平均的衰减系数。
        eps: Added to the root mean square. / 加到均方根上的小量。
        weight_decay: L2 penalty. / L2 惩罚。
        momentum: Momentum factor. / 动量系数。
        centered: Use the centered variant. / 使用中心化变体。
        maximize: Maximize the objective. / 最大化目标。
        differentiable: Keep the step differentiable. / 让这一步可求导。
        capturable: Check that tensors are on capturable devices. / 检查张量位于可捕获设备上。
        has_complex: Unused here; complex tensors are detected per parameter. / 此处不用；复数逐参数判断。

    Raises:
        AssertionError: `capturable=True` with a tensor on an unsupported device. / `capturable=True` 而张量位于不受支持的设备。
    """
    if not torch.jit.is_scripting():
        lr = _to_scalar(lr)

    for i, param in enumerate(params):
        step = state_steps[i]
        # 中: 编译时不查：图捕获的检查由编译器负责。
        # EN: Not checked under compile: the compiler takes care of graph-capture checks.
        if not torch.compiler.is_compiling() and capturable:
            _check_capturable_devices([param], [step])

        # 中: 先加步数，再做权重衰减：`grad.add` 生成新张量，`.grad` 本身保持不变。
        # EN: The step counts up first, then weight decay: `grad.add` makes a new tensor, so
        #     `.grad` itself stays untouched.
        grad = grads[i]
        grad = grad if not maximize else -grad
        square_avg = square_avgs[i]
        step += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)

        # 中: 复数按实数视图计算：平方与开方逐个作用在实部和虚部上。
        # EN: Complex numbers are computed on real views: squares and roots act on the real
        #     and imaginary parts separately.
        is_complex_param = torch.is_complex(param)
        if is_complex_param:
            param = torch.view_as_real(param)
            grad = torch.view_as_real(grad)
            square_avg = torch.view_as_real(square_avg)

        # 中: 第 2 步：v = alpha * v + (1 - alpha) * g * g，两次就地运算。
        # EN: Step 2: v = alpha * v + (1 - alpha) * g * g, in two in-place operations.
        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)

        # 中: 第 3 步：中心化时 `lerp_` 更新梯度均值，分母里减去它的平方；`addcmul` 生成新
        #     张量，`square_avg` 不被改动。`sqrt_` 作用在这个新张量上。
        # EN: Step 3: centered, `lerp_` updates the gradient mean and its square is taken off
        #     in the denominator; `addcmul` makes a new tensor, leaving `square_avg` alone, and
        #     `sqrt_` acts on that new tensor.
        if centered:
            grad_avg = grad_avgs[i]
            if is_complex_param:
                grad_avg = torch.view_as_real(grad_avg)
            grad_avg.lerp_(grad, 1 - alpha)
            avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        # 中: 可微时不能就地加 `eps`：自动求导还要用开方的结果来求导。
        # EN: When differentiable, `eps` can't be added in place: autograd still needs the
        #     square root's result to compute its derivative.
        avg = avg.add(eps) if differentiable else avg.add_(eps)

        # 中: 第 4 步：有动量时先累积 g / 分母 再整体乘学习率；否则一次 `addcdiv_` 完成。
        # EN: Step 4: with momentum, g / denominator is accumulated first and the whole
        #     buffer scaled by the learning rate; otherwise one `addcdiv_` does it.
        if momentum > 0:
            buf = momentum_buffer_list[i]
            if is_complex_param:
                buf = torch.view_as_real(buf)
            buf.mul_(momentum).addcdiv_(grad, avg)
            param.add_(buf, alpha=-lr)
        else:
            param.addcdiv_(grad, avg, value=-lr)


def _multi_tensor_rmsprop(
    params: list[Tensor],
    grads: list[Tensor],
    square_avgs: list[Tensor],
    grad_avgs: list[Tensor],
    momentum_buffer_list: list[Tensor],
    state_steps: list[Tensor],
    *,
    lr: float,
    alpha: float,
    eps: float,
    weight_decay: float,
    momentum: float,
    centered: bool,
    maximize: bool,
    differentiable: bool,
    capturable: bool,
    has_complex: bool,
) -> None:
    r"""RMSprop with `torch._foreach_*` kernels, one call per (device, dtype) group. / 用 `torch._foreach_*` 内核实现的 RMSprop，每个（设备, 类型）组调用一次。

    === "中文"

        与单张量实现做同样的运算、同样的顺序，只是每个运算一次作用于一组张量，Python 开销
        与参数个数无关。foreach 运算不能被自动求导记录，所以 `differentiable=True` 被拒绝。

        学习率是张量且 `capturable=True` 时，不能把它作为 `alpha`/`value` 标量传入（那会
        调用 `.item()`，在图捕获中静默出错），改为先把张量乘进缓冲或分母。

        CPU 上的步数加一用一个预先建好的张量 `1.0`：foreach 在 CPU 上逐个张量执行，若传
        Python 数 `1`，每个张量都要把它包装成张量一次。

    === "English"

        The same operations in the same order as the single-tensor implementation, each
        applied to a whole group at once, so the Python cost does not grow with the number of
        parameters. Foreach operations cannot be recorded by autograd, so
        `differentiable=True` is refused.

        With a tensor learning rate and `capturable=True`, the rate can't be passed as an
        `alpha`/`value` scalar (that calls `.item()`, silently wrong during graph capture);
        the tensor is multiplied into the buffer or the denominator instead.

        On CPU the step counts go up by a tensor `1.0` built once: foreach runs tensor by
        tensor on CPU, and a Python `1` would be wrapped into a tensor for every one of them.

    Args:
        params: Parameters to update in place. / 要就地更新的参数。
        grads: Their gradients. / 它们的梯度。
        square_avgs: Their `square_avg`, updated in place. / 它们的 `square_avg`，就地更新。
        grad_avgs: Their `grad_avg` (used when `centered`). / 它们的 `grad_avg`（`centered` 时使用）。
        momentum_buffer_list: Their `momentum_buffer` (used when `momentum > 0`). / 它们的 `momentum_buffer`（`momentum > 0` 时使用）。
        state_steps: Their step counts, incremented in place. / 它们的步数，就地加一。
        lr: Learning rate. / 学习率。
        alpha: Decay factor of the moving averages. / 滑动平均的衰减系数。
        eps: Added to the root mean square. / 加到均方根上的小量。
        weight_decay: L2 penalty. / L2 惩罚。
        momentum: Momentum factor. / 动量系数。
        centered: Use the centered variant. / 使用中心化变体。
        maximize: Maximize the objective. / 最大化目标。
        differentiable: Must be false. / 必须为假。
        capturable: Check devices; keep a tensor `lr` on the device. / 检查设备；张量 `lr` 留在设备上。
        has_complex: Whether any parameter is complex. / 是否有复数参数。

    Raises:
        AssertionError: `differentiable=True`, or `capturable=True` on an unsupported device. / `differentiable=True`，或 `capturable=True` 而设备不受支持。
    """
    if len(params) == 0:
        return
    if differentiable:
        raise AssertionError("_foreach ops don't support autograd")
    if not torch.compiler.is_compiling() and capturable:
        _check_capturable_devices(params, state_steps)

    lr = _to_scalar(lr)

    # 中: foreach 内核的快速路径要求同设备、同类型（CPU 上混合类型也能算，只是逐个张量处理），
    #     所以先分组，每组各调用一次内核。
    # EN: The foreach kernels' fast path needs one device and one dtype (on the CPU mixed
    #     dtypes work too, tensor by tensor), so tensors are grouped first and each group
    #     gets its own kernel calls.
    grouped = Optimizer._group_tensors_by_device_and_dtype(
        [params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps]
    )
    # 中: 每组解包成六个仍逐项对应的列表；空列表（未用的缓冲）在每组里仍是空列表。
    # EN: Each group unpacks into six lists that stay aligned; an empty list (an unused
    #     buffer) stays empty in every group.
    for (
        device_params,
        device_grads,
        device_square_avgs,
        device_grad_avgs,
        device_momentum_buffers,
        device_steps,
    ), _ in grouped.values():
        # 中: 复数项就地换成实数视图；只换本组用得到的列表。
        # EN: Complex entries become real views in place; only the lists this group uses.
        if has_complex:
            state_and_grads = [device_grads, device_square_avgs]
            if momentum > 0:
                state_and_grads.append(device_momentum_buffers)
            if centered:
                state_and_grads.append(device_grad_avgs)
            _view_as_real(device_params, *state_and_grads)

        # 中: 取反得到新列表，`.grad` 保持不变；下面的权重衰减可以就地复用这块内存。
        # EN: Negation makes a new list and leaves `.grad` alone; the weight decay below may
        #     reuse that memory in place.
        if maximize:
            device_grads = torch._foreach_neg(device_grads)

        # 中: `alpha=1.0` 选中“张量加张量”的重载，CPU 上用同一个张量 `1.0` 给每个步数加一。
        # EN: `alpha=1.0` selects the tensor-plus-tensor overload; on CPU one tensor `1.0`
        #     increments every step count.
        if not torch.compiler.is_compiling() and device_steps[0].is_cpu:
            torch._foreach_add_(device_steps, torch.tensor(1.0, device="cpu"), alpha=1.0)
        else:
            torch._foreach_add_(device_steps, 1)

        # 中: 第 1 步的权重衰减：`maximize` 时梯度列表已是新分配的，就地加上以省一次分配；
        #     否则必须生成新列表，不能改动 `.grad`。
        # EN: Step 1's weight decay: with `maximize` the gradient list is already a fresh
        #     allocation and is added to in place, saving one; otherwise a new list is needed
        #     so that `.grad` is not modified.
        if weight_decay != 0:
            if maximize:
                torch._foreach_add_(device_grads, device_params, alpha=weight_decay)
            else:
                device_grads = torch._foreach_add(device_grads, device_params, alpha=weight_decay)

        # 中: 第 2 步：v = alpha * v + (1 - alpha) * g * g。
        # EN: Step 2: v = alpha * v + (1 - alpha) * g * g.
        torch._foreach_mul_(device_square_avgs, alpha)
        torch._foreach_addcmul_(device_square_avgs, device_grads, device_grads, value=1 - alpha)

        # 中: 第 3 步：分母 sqrt(v - m * m) + eps 或 sqrt(v) + eps，存在新分配的 `avg` 里，
        #     `square_avg` 本身不被改动。
        # EN: Step 3: the denominator sqrt(v - m * m) + eps or sqrt(v) + eps, in the freshly
        #     allocated `avg`; `square_avg` itself is left unchanged.
        if centered:
            # 中: `lerp_` 让梯度均值 m 朝 g 移动 (1 - alpha) 的比例，即 m += (1 - alpha) * (g - m)。
            # EN: `lerp_` moves the gradient mean m a (1 - alpha) fraction of the way toward
            #     g, that is m += (1 - alpha) * (g - m).
            torch._foreach_lerp_(device_grad_avgs, device_grads, 1 - alpha)
            avg = torch._foreach_addcmul(
                device_square_avgs, device_grad_avgs, device_grad_avgs, value=-1
            )
            torch._foreach_sqrt_(avg)
        else:
            avg = torch._foreach_sqrt(device_square_avgs)
        torch._foreach_add_(avg, eps)

        # 中: 第 4 步：张量学习率且可捕获时，学习率以张量身份参与乘除，不变成 Python 数。
        # EN: Step 4: with a tensor learning rate and capturable, the rate enters the
        #     multiplication or division as a tensor and never becomes a Python number.
        lr_stays_tensor = capturable and isinstance(lr, torch.Tensor)
        if momentum > 0:
            torch._foreach_mul_(device_momentum_buffers, momentum)
            torch._foreach_addcdiv_(device_momentum_buffers, device_grads, avg)
            # 中: p -= lr * b：张量学习率时先乘出一个新列表，再加到参数上。
            # EN: p -= lr * b: with a tensor learning rate a new list is multiplied out
            #     first and then added to the parameters.
            if lr_stays_tensor:
                scaled_buffers = torch._foreach_mul(device_momentum_buffers, -lr)
                torch._foreach_add_(device_params, scaled_buffers)
            else:
                torch._foreach_add_(device_params, device_momentum_buffers, alpha=-lr)
        # 中: 无动量时 p -= lr * g / avg：张量学习率先就地除进 `avg`（它是本步新分配的）。
        # EN: Without momentum, p -= lr * g / avg: a tensor learning rate is first divided
        #     into `avg` in place (it was allocated fresh for this step).
        elif lr_stays_tensor:
            torch._foreach_div_(avg, -lr)
            torch._foreach_addcdiv_(device_params, device_grads, avg)
        else:
            torch._foreach_addcdiv_(device_params, device_grads, avg, value=-lr)


@_disable_dynamo_if_unsupported(single_tensor_fn=_single_tensor_rmsprop)
def rmsprop(
    params: list[Tensor],
    grads: list[Tensor],
    square_avgs: list[Tensor],
    grad_avgs: list[Tensor],
    momentum_buffer_list: list[Tensor],
    state_steps: list[Tensor],
    foreach: bool | None = None,
    maximize: bool = False,
    differentiable: bool = False,
    capturable: bool = False,
    has_complex: bool = False,
    *,
    lr: float,
    alpha: float,
    eps: float,
    weight_decay: float,
    momentum: float,
    centered: bool,
) -> None:
    r"""The functional RMSprop: pick an implementation and run it. / 函数式 RMSprop：选择实现并运行。

    === "中文"

        不持有任何状态：参数和状态都由调用者以逐项对应的列表传入，并被就地更新。
        `foreach=None` 时由
        [`_default_to_fused_or_foreach`][annotated_optim.optimizer._default_to_fused_or_foreach]
        决定（CPU 上总是单张量实现）。参数的位置与默认值和 torch 相同：`foreach` 等带默认值
        的参数可按位置传入，超参数只能按关键字传入。

    === "English"

        Holds no state: the caller passes parameters and state as aligned lists, which are
        updated in place. With `foreach=None`,
        [`_default_to_fused_or_foreach`][annotated_optim.optimizer._default_to_fused_or_foreach]
        decides (on CPU always the single-tensor implementation). Positions and defaults
        match torch's: `foreach` and the other defaulted arguments may be passed by position,
        the hyperparameters only by keyword.

    Args:
        params: Parameters to update in place. / 要就地更新的参数。
        grads: Their gradients. / 它们的梯度。
        square_avgs: Their `square_avg`. / 它们的 `square_avg`。
        grad_avgs: Their `grad_avg` (used when `centered`). / 它们的 `grad_avg`（`centered` 时使用）。
        momentum_buffer_list: Their `momentum_buffer` (used when `momentum > 0`). / 它们的 `momentum_buffer`（`momentum > 0` 时使用）。
        state_steps: Their step counts, as tensors. / 它们的步数，必须是张量。
        foreach: Use foreach; `None` decides by device. / 使用 foreach；`None` 按设备决定。
        maximize: Maximize the objective. / 最大化目标。
        differentiable: Keep the step differentiable. / 让这一步可求导。
        capturable: Keep everything on the device. / 一切留在设备上。
        has_complex: Whether any parameter is complex. / 是否有复数参数。
        lr: Learning rate. / 学习率。
        alpha: Decay factor of the moving averages. / 滑动平均的衰减系数。
        eps: Added to the root mean square. / 加到均方根上的小量。
        weight_decay: L2 penalty. / L2 惩罚。
        momentum: Momentum factor. / 动量系数。
        centered: Use the centered variant. / 使用中心化变体。

    Raises:
        RuntimeError: A step count is not a tensor, or foreach under TorchScript. / 步数不是张量，或在 TorchScript 中使用 foreach。
    """
    # 中: 步数曾经是 Python 数；传入旧式列表时给出明确的提示。编译时跳过（检查本身很慢）。
    # EN: Step counts used to be Python numbers; an old-style list gets a clear message.
    #     Skipped under compile, where the check itself is slow.
    if not torch.compiler.is_compiling() and not all(
        isinstance(t, torch.Tensor) for t in state_steps
    ):
        raise RuntimeError(
            "API has changed, `state_steps` argument must contain a list of singleton tensors"
        )

    # 中: 只有用户没有指定时才自动选择；RMSprop 没有 fused 实现，所以 `use_fused=False`。
    # EN: The choice is automatic only when the user gave none; RMSprop has no fused
    #     implementation, hence `use_fused=False`.
    if foreach is None:
        _, foreach = _default_to_fused_or_foreach(params, differentiable, use_fused=False)
    if foreach and torch.jit.is_scripting():
        raise RuntimeError("torch.jit.script not supported with foreach optimizers")

    # 中: 两种实现的签名相同，一次调用即可；状态列表按位置、其余按关键字传入。
    # EN: Both implementations share one signature, so one call serves; the state lists go
    #     by position, everything else by keyword.
    implementation = _multi_tensor_rmsprop if foreach else _single_tensor_rmsprop
    implementation(
        params,
        grads,
        square_avgs,
        grad_avgs,
        momentum_buffer_list,
        state_steps,
        # 中: `lr` 在这里仍可能是张量；两种实现各自用 `_to_scalar` 把它压成 0 维。
        # EN: `lr` may still be a tensor here; each implementation squeezes it to 0-d with
        #     `_to_scalar`.
        lr=lr,
        alpha=alpha,
        eps=eps,
        weight_decay=weight_decay,
        momentum=momentum,
        centered=centered,
        # 中: `differentiable` 只有单张量实现接受为真；foreach 实现遇到它会报错。
        # EN: Only the single-tensor implementation accepts a true `differentiable`; the
        #     foreach one raises on it.
        maximize=maximize,
        capturable=capturable,
        differentiable=differentiable,
        has_complex=has_complex,
    )
