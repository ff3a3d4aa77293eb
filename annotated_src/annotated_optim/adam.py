r"""Adam: adaptive moment estimation, with AMSGrad, maximize and decoupled weight decay; mirrors `torch.optim.adam`. / Adam（自适应矩估计），含 AMSGrad、maximize 与解耦权重衰减，对应 `torch.optim.adam`。

=== "中文"

    Adam 给每个参数维护两条指数滑动平均：梯度的一阶矩 `exp_avg`（m）和逐元素平方的
    二阶矩 `exp_avg_sq`（v），再加一个步数 `step`（t）。每一步（γ 学习率，λ 权重衰减，
    ε 即 `eps`）：

    1. `t ← t + 1`；`maximize` 时 `g ← -g`；
    2. 权重衰减：耦合（L2，默认）时 `g ← g + λθ`；解耦（`decoupled_weight_decay=True`，
       即 AdamW）时 `θ ← θ·(1 - γλ)`，梯度不变；
    3. `m ← m + (1-β1)(g - m)`（用 `lerp_` 计算），`v ← β2·v + (1-β2)·g²`；
    4. `amsgrad` 时 `v_max ← max(v_max, v)`，后面用 `v_max` 代替 `v`；
    5. `θ ← θ - γ/(1-β1^t) · m / (√v / √(1-β2^t) + ε)`。

    注意第 5 步：ε 加在**已做偏差校正**的 `√v` 上，而不是加在原始的 `√v` 上。
    要逐位复现 torch，运算的种类和顺序都必须一样：例如第 3 步用 `lerp_` 与用
    `mul_` + `add_` 在末位上结果不同。

    复数参数按“实部、虚部两个独立实数”处理（`view_as_real`），所以 v 分别跟踪实部和
    虚部的平方，而不是 `|g|²`。

    结构与 [`SGD`][annotated_optim.sgd.SGD] 所在的文件相同：类 [`Adam`][annotated_optim.adam.Adam]
    管状态和参数组；函数式入口 [`adam`][annotated_optim.adam.adam] 选择实现；三种实现
    [`_single_tensor_adam`][annotated_optim.adam._single_tensor_adam]、
    [`_multi_tensor_adam`][annotated_optim.adam._multi_tensor_adam]（foreach）与
    [`_fused_adam`][annotated_optim.adam._fused_adam]（torch 的 `torch._fused_adam_` /
    `torch._fused_adamw_` 内核）算的是同一个公式。
    [`AdamW`][annotated_optim.adamw.AdamW] 只是固定了 `decoupled_weight_decay=True` 的
    `Adam` 子类。

=== "English"

    Adam keeps two exponential moving averages per parameter: the first moment of the
    gradient, `exp_avg` (m), and the second moment of its elementwise square, `exp_avg_sq`
    (v), plus a step count `step` (t). Each step (γ the learning rate, λ the weight decay, ε
    is `eps`):

    1. `t ← t + 1`; with `maximize`, `g ← -g`;
    2. weight decay: coupled (L2, the default) `g ← g + λθ`; decoupled
       (`decoupled_weight_decay=True`, i.e. AdamW) `θ ← θ·(1 - γλ)`, the gradient unchanged;
    3. `m ← m + (1-β1)(g - m)` (computed with `lerp_`), `v ← β2·v + (1-β2)·g²`;
    4. with `amsgrad`, `v_max ← max(v_max, v)`, and `v_max` replaces `v` from here on;
    5. `θ ← θ - γ/(1-β1^t) · m / (√v / √(1-β2^t) + ε)`.

    Mind step 5: ε is added to the **bias-corrected** `√v`, not to the raw `√v`. Reproducing
    torch bit for bit needs the same operations in the same order: for instance, step 3 with
    `lerp_` and with `mul_` + `add_` differ in the last bits.

    A complex parameter is handled as two independent reals, real and imaginary part
    (`view_as_real`), so v tracks the squares of the real and the imaginary parts separately,
    not `|g|²`.

    The layout is that of [`SGD`][annotated_optim.sgd.SGD]'s file: the class
    [`Adam`][annotated_optim.adam.Adam] owns the state and the groups; the functional entry
    point [`adam`][annotated_optim.adam.adam] picks the implementation; the three
    implementations [`_single_tensor_adam`][annotated_optim.adam._single_tensor_adam],
    [`_multi_tensor_adam`][annotated_optim.adam._multi_tensor_adam] (foreach) and
    [`_fused_adam`][annotated_optim.adam._fused_adam] (torch's `torch._fused_adam_` /
    `torch._fused_adamw_` kernels) compute the same formula.
    [`AdamW`][annotated_optim.adamw.AdamW] is just an `Adam` subclass with
    `decoupled_weight_decay=True` fixed.
"""

from typing import Any

import torch
from torch import Tensor

from annotated_optim.optimizer import (
    Optimizer,
    ParamsT,
    _default_to_fused_or_foreach,
    _device_dtype_check_for_fused,
    _disable_dynamo_if_unsupported,
    _get_capturable_supported_devices,
    _get_scalar_dtype,
    _get_value,
    _stack_if_compiling,
    _to_scalar,
    _use_grad_for_differentiable,
    _view_as_real,
)

__all__ = ["Adam", "adam"]


class Adam(Optimizer):
    r"""Adam, optionally AMSGrad and/or with decoupled weight decay (AdamW). / Adam 优化器，可选 AMSGrad 和/或解耦权重衰减（AdamW）。

    === "中文"

        状态（第一次 `step` 时为每个有梯度的参数创建）：`step`（0 维浮点张量）、
        `exp_avg`、`exp_avg_sq`，`amsgrad` 时还有 `max_exp_avg_sq`，后三者与参数同形状、
        同类型、同设备。

        实现的选择：`foreach` 与 `fused` 都为 `None` 时，CUDA 上默认 foreach，CPU 上用单张量
        实现（Adam 从不默认选 fused）；`fused=True` 在 CPU 上也可用，但只接受实数浮点参数。
        学习率和两个 β 可以是单元素张量；foreach 实现要求此时同时打开 `capturable`。

        `capturable=True` 让步数留在参数的设备上、偏差校正也用张量运算，从而可以录进 CUDA
        图；它只在 CUDA、XPU、HPU 等设备上被接受，在 CPU 上即时执行的 `step` 会报
        `AssertionError`（`fused=True` 除外：fused 实现不看这个开关；`torch.compile` 下这项
        检查交给编译器，不报错）。

    === "English"

        State (created at the first `step` for each parameter with a gradient): `step` (a 0-d
        float tensor), `exp_avg`, `exp_avg_sq`, and with `amsgrad` also `max_exp_avg_sq`; the
        last three have the parameter's shape, dtype and device.

        Implementation choice: with `foreach` and `fused` both `None`, foreach is the default
        on CUDA and the single-tensor implementation runs on CPU (Adam never defaults to
        fused); `fused=True` works on CPU too, but takes only real floating-point parameters.
        The learning rate and both betas may be one-element tensors; the foreach
        implementation then requires `capturable` as well.

        `capturable=True` keeps the step count on the parameter's device and computes the bias
        corrections with tensor operations, so the step can be recorded into a CUDA graph; it
        is accepted only on devices such as CUDA, XPU and HPU, and on CPU an eager `step`
        raises `AssertionError` (except with `fused=True`: the fused implementation ignores the
        switch; under `torch.compile` the check is left to the compiler and nothing is raised).

    Args:
        params: Parameters, named parameters, or parameter groups. / 参数、带名字的参数或参数组。
        lr: Learning rate γ, a float or a one-element tensor. / 学习率 γ，浮点数或单元素张量。
        betas: Decay rates (β1, β2) of the two moments; both floats or both tensors. / 两个矩的衰减率 (β1, β2)；同为浮点数或同为张量。
        eps: ε added to the denominator for numerical stability. / 加到分母上保证数值稳定的 ε。
        weight_decay: Weight decay λ. / 权重衰减 λ。
        amsgrad: Use the running maximum of the second moment (AMSGrad). / 使用二阶矩的历史最大值（AMSGrad）。
        foreach: Force (True) or forbid (False) the foreach implementation. / 强制（True）或禁止（False）foreach 实现。
        maximize: Maximize the objective instead. / 改为最大化目标。
        capturable: Keep every scalar on the device, for graph capture. / 所有标量留在设备上，以便图捕获。
        differentiable: Let autograd record the step. / 让自动求导记录这一步。
        fused: Use the fused kernel. / 使用融合内核。
        decoupled_weight_decay: Decay the parameter directly instead of adding λθ to the gradient (AdamW). / 直接衰减参数而不是把 λθ 加到梯度上（AdamW）。

    Raises:
        ValueError: A negative lr/eps/weight_decay, a beta outside [0, 1), mixed float and tensor betas, a tensor with more than one element, a tensor lr or beta with foreach but not capturable. / lr/eps/weight_decay 为负、β 不在 [0, 1) 内、β 混用浮点数与张量、张量不止一个元素、foreach 而非 capturable 时使用张量 lr 或 β。
        RuntimeError: `fused` together with `differentiable` or `foreach`. / `fused` 与 `differentiable` 或 `foreach` 同时开启。

    Examples:
        >>> import torch, annotated_nn as nn, annotated_optim as optim
        >>> model = nn.Linear(3, 1)
        >>> opt = optim.Adam(model.parameters(), lr=1e-3)
        >>> model(torch.ones(2, 3)).sum().backward()
        >>> opt.step()
        >>> sorted(opt.state[model.weight]), opt.state[model.weight]["step"]
        (['exp_avg', 'exp_avg_sq', 'step'], tensor(1.))
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-3,
        betas: tuple[float | Tensor, float | Tensor] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        amsgrad: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
        decoupled_weight_decay: bool = False,
    ) -> None:
        r"""Check the hyperparameters and build the groups. / 检查超参数并建立参数组。

        === "中文"

            检查顺序与错误文本都与 torch 相同：1. 张量 lr（foreach 而非 capturable 时拒绝；
            必须单元素）；2. lr、eps、β1、β2、weight_decay 的取值范围；3. 两个 β 必须同为
            浮点数或同为张量；4. 张量 β 与张量 lr 受同样的限制；5. 建立参数组；6. `fused`
            的组合（在参数组建好之后才检查）。

        === "English"

            The checks and their texts follow torch's order: 1. a tensor lr (refused with
            foreach but not capturable; must have one element); 2. the ranges of lr, eps, β1,
            β2 and weight_decay; 3. the two betas must be both floats or both tensors; 4. tensor
            betas have the same limits as a tensor lr; 5. build the groups; 6. the `fused`
            combinations (checked only after the groups are built).

        Args:
            params: See the class. / 见类说明。
            lr: See the class. / 见类说明。
            betas: See the class. / 见类说明。
            eps: See the class. / 见类说明。
            weight_decay: See the class. / 见类说明。
            amsgrad: See the class. / 见类说明。
            foreach: See the class. / 见类说明。
            maximize: See the class. / 见类说明。
            capturable: See the class. / 见类说明。
            differentiable: See the class. / 见类说明。
            fused: See the class. / 见类说明。
            decoupled_weight_decay: See the class. / 见类说明。
        """
        # 中: 第 1 步：非 capturable 的 foreach 实现需要 Python 数的学习率（它把步长作为一列
        #     标量交给 foreach 运算），所以张量学习率在构造时就被拒绝。
        # EN: Step 1: the non-capturable foreach implementation needs the learning rate as a
        #     Python number (it hands the step sizes to foreach ops as a list of scalars), so a
        #     tensor learning rate is refused right here.
        if isinstance(lr, Tensor):
            if foreach and not capturable:
                raise ValueError(
                    "lr as a Tensor is not supported for capturable=False and foreach=True"
                )
            if lr.numel() != 1:
                raise ValueError("Tensor lr must be 1-element")
        # 中: 第 2 步：范围检查；`not 0.0 <= x` 的写法让 NaN 也被拒绝。
        # EN: Step 2: range checks; written as `not 0.0 <= x` so that NaN is refused too.
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        # 中: β 必须在 [0, 1) 内：β = 1 时滑动平均永不遗忘，偏差校正 1 - β^t 恒为 0。
        # EN: A beta must lie in [0, 1): with β = 1 the moving average never forgets and the
        #     bias correction 1 - β^t is always 0.
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        # 中: 第 3 步：类型检查严格到 `float`：整数 β（如 `(0, 0.9)`）也会被拒绝。
        # EN: Step 3: the type check is strict about `float`: an integer beta (such as
        #     `(0, 0.9)`) is refused too.
        if not (
            (isinstance(betas[0], float) and isinstance(betas[1], float))
            or (isinstance(betas[0], Tensor) and isinstance(betas[1], Tensor))
        ):
            raise ValueError("betas must be either both floats or both Tensors")
        # 中: 第 4 步：张量 β 与张量 lr 的限制相同（foreach 要求 capturable，且只能有一个
        #     元素），错误文本写明是第几个 β。
        # EN: Step 4: tensor betas have the same limits as a tensor lr (foreach needs
        #     capturable, and one element only); the error texts name the beta's index.
        for index, beta in enumerate(betas):
            if isinstance(beta, Tensor):
                if not capturable and foreach:
                    raise ValueError(
                        f"betas[{index}] as a Tensor is not supported for capturable=False and "
                        "foreach=True"
                    )
                # 中: 张量 β 的元素个数检查在 foreach 检查之后（与 torch 的顺序相同）。
                # EN: A tensor beta's element count is checked after the foreach check (torch's
                #     order).
                if beta.numel() != 1:
                    raise ValueError(f"Tensor betas[{index}] must be 1-element")
        # 中: 形状 `(1,)` 的 β 压成 0 维；`betas` 总是存成 tuple（即使传入的是 list）。
        # EN: A beta of shape `(1,)` is squeezed to 0-d; `betas` is always stored as a tuple
        #     (even when a list was passed).
        betas = tuple(map(_to_scalar, betas))

        # 中: 第 5 步：键的顺序就是每个参数组里超参数的顺序（状态字典里也是这个顺序）。
        # EN: Step 5: the key order is the order of hyperparameters in every group (and in the
        #     state_dict).
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            # 中: 然后是变体开关与实现开关；`decoupled_weight_decay` 排在最后、`fused` 之后。
            # EN: Then the variant and implementation switches; `decoupled_weight_decay` comes
            #     last, after `fused`.
            "amsgrad": amsgrad,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
            "fused": fused,
            "decoupled_weight_decay": decoupled_weight_decay,
        }
        # 中: 基类建立参数组，每组缺少的键从 `defaults` 补齐。
        # EN: The base class builds the groups, filling each group's missing keys from
        #     `defaults`.
        super().__init__(params, defaults)

        # 中: 第 6 步：fused 步支持混合精度的梯度缩放：GradScaler 看到
        #     `_step_supports_amp_scaling` 就把 `grad_scale`/`found_inf` 交给 step，由内核自己
        #     反缩放、跳过非有限步。设备与类型在每个参数创建状态时检查（见 `_init_group`）。
        # EN: Step 6: a fused step supports AMP gradient scaling: seeing
        #     `_step_supports_amp_scaling`, GradScaler hands `grad_scale`/`found_inf` to step
        #     and the kernel unscales and skips non-finite steps itself. Device and dtype are
        #     checked when each parameter's state is created (see `_init_group`).
        if fused:
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            self._step_supports_amp_scaling = True
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")

    def __setstate__(self, state: dict[str, Any]) -> None:
        r"""Unpickle, giving old groups the newer options and old steps a tensor form. / 反序列化：给旧参数组补上新选项，把旧的步数换成张量。

        === "中文"

            旧检查点里的参数组可能缺少 `amsgrad`、`maximize`、`foreach`、`capturable`、
            `differentiable`、`decoupled_weight_decay`、`fused`，补上默认值。更老的检查点把
            `step` 存成 Python 数，这里换成张量：`capturable` 或 `fused` 时放在参数的设备上，
            否则放在默认设备上（没有用 `torch.set_default_device` 改过时就是 CPU；
            [`_init_group`][annotated_optim.adam.Adam._init_group] 新建的步数则明确放在 CPU 上）。
            `load_state_dict` 也经由这里装入状态，所以这些修补对加载的状态字典同样生效。

        === "English"

            Groups from old checkpoints may lack `amsgrad`, `maximize`, `foreach`,
            `capturable`, `differentiable`, `decoupled_weight_decay` and `fused`; they get
            their defaults. Even older checkpoints stored `step` as a Python number; it becomes
            a tensor here: on the parameter's device with `capturable` or `fused`, otherwise on
            the default device (the CPU unless `torch.set_default_device` changed it; new steps
            made by [`_init_group`][annotated_optim.adam.Adam._init_group] are put on the CPU
            explicitly). `load_state_dict` installs state through here too, so these repairs
            apply to a loaded state_dict as well.

        Args:
            state: The pickled attributes. / 序列化保存的属性。
        """
        super().__setstate__(state)
        for group in self.param_groups:
            # 中: `setdefault` 只补缺失的键、不改已有的值；补上的键按这个顺序排在组字典末尾。
            # EN: `setdefault` only fills in missing keys and keeps existing values; the keys
            #     it adds go to the end of the group dict in this order.
            group.setdefault("amsgrad", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("capturable", False)
            group.setdefault("differentiable", False)
            group.setdefault("decoupled_weight_decay", False)
            fused = group.setdefault("fused", None)
            # 中: `state.get` 而不是 `state[p]`：后者会在 defaultdict 里给没有状态的参数插入
            #     空字典。
            # EN: `state.get`, not `state[p]`: the latter would insert an empty dict into the
            #     defaultdict for a parameter that has no state.
            for p in group["params"]:
                p_state = self.state.get(p, [])
                if len(p_state) != 0 and not torch.is_tensor(p_state["step"]):
                    # 中: 位置与类型的规则同 `_init_group`：fused 的步数总是 float32。
                    # EN: Placement and dtype follow `_init_group`: a fused step is always
                    #     float32.
                    step_val = float(p_state["step"])
                    p_state["step"] = (
                        torch.tensor(
                            step_val, dtype=_get_scalar_dtype(is_fused=fused), device=p.device
                        )
                        if group["capturable"] or group["fused"]
                        else torch.tensor(step_val, dtype=_get_scalar_dtype())
                    )

    def _init_group(
        self,
        group: dict[str, Any],
        params_with_grad: list[Tensor],
        grads: list[Tensor],
        exp_avgs: list[Tensor],
        exp_avg_sqs: list[Tensor],
        max_exp_avg_sqs: list[Tensor],
        state_steps: list[Tensor],
    ) -> bool:
        r"""Collect a group's parameters that have gradients, creating their state lazily. / 收集参数组里有梯度的参数，按需创建它们的状态。

        === "中文"

            `.grad` 为 `None` 的参数被跳过（不更新，也没有状态）。第一次见到某个参数时创建
            状态：`step` 是 0 维张量，类型为 float32（默认类型为 float64 时用 float64），
            只有 fused 总用 float32（torch 为 fused 定下的类型，CPU 上的内核也接受别的类型）。
            `capturable` 或 `fused` 时它在参数的设备上，否则**刻意**放在 CPU 上——这样非 capturable 的实现用 `.item()` 取出
            Python 数来算偏差校正，在 CUDA 上也不必为这几个标量各发一次内核。三个矩用 `zeros_like` 创建，保留参数的
            内存格式。各列表逐项对应。

        === "English"

            Parameters whose `.grad` is `None` are skipped (not updated, no state). The first
            time a parameter is seen its state is created: `step` is a 0-d float32 tensor
            (float64 when the default dtype is float64), except that fused always uses float32
            (torch's choice for fused; the CPU kernels accept other dtypes too). With
            `capturable` or `fused` it lives on the parameter's device, otherwise it is **deliberately** on the CPU, so the non-capturable
            implementations read it as a Python number with `.item()` to compute the bias
            corrections, and on CUDA no kernel is launched for these few scalars. The moments
            are created with `zeros_like`, keeping the parameter's memory format. The lists are
            aligned position by position.

        Args:
            group: The parameter group. / 参数组。
            params_with_grad: Filled with parameters. / 填入参数。
            grads: Filled with their gradients. / 填入梯度。
            exp_avgs: Filled with first moments. / 填入一阶矩。
            exp_avg_sqs: Filled with second moments. / 填入二阶矩。
            max_exp_avg_sqs: Filled with the running maxima (only with `amsgrad`). / 填入二阶矩的历史最大值（仅 `amsgrad`）。
            state_steps: Filled with step counters. / 填入步数计数器。

        Returns:
            Whether any of the parameters is complex. / 是否有复数参数。

        Raises:
            RuntimeError: A sparse gradient, a fused-unsupported parameter, a `step` that requires grad with `differentiable`, or a tensor lr with foreach but not capturable. / 稀疏梯度、fused 不支持的参数、`differentiable` 时 `step` 需要梯度、foreach 而非 capturable 时使用张量 lr。
        """
        has_complex = False
        for p in group["params"]:
            if p.grad is None:
                continue
            # 中: 稀疏梯度在收集时就拒绝；文本提到 SparseAdam（AdamW 也报同样的文本）。
            # EN: Sparse gradients are refused while collecting; the text points to SparseAdam
            #     (AdamW raises the same text).
            has_complex |= torch.is_complex(p)
            params_with_grad.append(p)
            if p.grad.is_sparse:
                raise RuntimeError(
                    "Adam does not support sparse gradients, please consider SparseAdam instead"
                )
            grads.append(p.grad)

            # 中: 惰性创建状态；fused 的设备与类型检查放在这里，每个参数只在创建状态时查一次。
            # EN: Lazy state creation; the fused device/dtype check sits here, so each parameter
            #     is checked once, when its state is created.
            state = self.state[p]
            if len(state) == 0:
                if group["fused"]:
                    _device_dtype_check_for_fused(p)
                # 中: 步数：capturable 或 fused 时在参数的设备上，否则刻意放在 CPU 上（见上文）。
                # EN: The step: on the parameter's device with capturable or fused, otherwise
                #     deliberately on the CPU (see above).
                state["step"] = (
                    torch.zeros(
                        (), dtype=_get_scalar_dtype(is_fused=group["fused"]), device=p.device
                    )
                    if group["capturable"] or group["fused"]
                    else torch.tensor(0.0, dtype=_get_scalar_dtype(), device="cpu")
                )
                # 中: m、v（以及 `amsgrad` 的 v_max）从零开始；偏差校正正是为此而设。
                # EN: m, v (and `amsgrad`'s v_max) start at zero; the bias corrections exist
                #     for exactly this.
                state["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                state["exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                if group["amsgrad"]:
                    state["max_exp_avg_sq"] = torch.zeros_like(
                        p, memory_format=torch.preserve_format
                    )

            # 中: 列表里放的就是状态张量本身，实现对它们的就地更新直接落在 `state` 里。
            # EN: The lists hold the state tensors themselves, so the implementations' in-place
            #     updates land directly in `state`.
            exp_avgs.append(state["exp_avg"])
            exp_avg_sqs.append(state["exp_avg_sq"])
            if group["amsgrad"]:
                max_exp_avg_sqs.append(state["max_exp_avg_sq"])
            # 中: 可微模式下步数不能需要梯度：它每步都被就地加一。
            # EN: In differentiable mode the step must not require grad: it is incremented in
            #     place every step.
            if group["differentiable"] and state["step"].requires_grad:
                raise RuntimeError(
                    "`requires_grad` is not supported for `step` in differentiable mode"
                )
            # 中: 构造时已查过张量学习率与非 capturable 的 foreach，但参数组可能在构造之后被改成
            #     这样，所以每个参数再查一次（文本与 torch 相同）。
            # EN: Construction already checked a tensor learning rate against non-capturable
            #     foreach, but a group may be changed that way afterwards, so it is checked
            #     again for each parameter (torch's text).
            if group["foreach"] and torch.is_tensor(group["lr"]) and not group["capturable"]:
                raise RuntimeError(
                    "lr as a Tensor is not supported for capturable=False and foreach=True"
                )
            state_steps.append(state["step"])
        return has_complex

    @_use_grad_for_differentiable
    def step(self, closure=None):
        r"""Take one Adam step for every group. / 对每个参数组走一步 Adam。

        === "中文"

            先做图捕获的健康检查（只在 CUDA/XPU 上起作用，见
            [`_accelerator_graph_capture_health_check`][annotated_optim.optimizer.Optimizer._accelerator_graph_capture_health_check]），
            再在启用梯度的状态下调用 `closure`（若有）。每个组：收集参数并创建状态，调用
            [`adam`][annotated_optim.adam.adam]。状态张量由实现就地更新，无需写回。
            `grad_scale`/`found_inf` 是 GradScaler 临时挂在优化器上的属性（只有 fused 用得上）。

        === "English"

            First the graph-capture health check (effective only on CUDA/XPU, see
            [`_accelerator_graph_capture_health_check`][annotated_optim.optimizer.Optimizer._accelerator_graph_capture_health_check]),
            then `closure` (if any) with gradients enabled. For each group: collect the
            parameters and create their state, call [`adam`][annotated_optim.adam.adam]. The
            implementations update the state tensors in place, so nothing is written back.
            `grad_scale`/`found_inf` are attributes GradScaler sets on the optimizer for the
            moment (only fused uses them).

        Args:
            closure: Re-evaluates the model and returns the loss. / 重新计算模型并返回损失。

        Returns:
            The closure's loss, or `None`. / closure 返回的损失，或 `None`。
        """
        self._accelerator_graph_capture_health_check()

        # 中: `closure` 要重新前向、反向，所以即使 `step` 本身关着梯度也要为它打开。
        # EN: `closure` runs a forward and a backward pass again, so gradients are enabled for
        #     it even though `step` itself runs with them off.
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()

        for group in self.param_groups:
            # 中: 每个组新建六个逐项对应的列表；没有梯度的参数不在其中。
            # EN: Six aligned lists per group; parameters without a gradient are not in them.
            params_with_grad: list[Tensor] = []
            grads: list[Tensor] = []
            exp_avgs: list[Tensor] = []
            exp_avg_sqs: list[Tensor] = []
            max_exp_avg_sqs: list[Tensor] = []
            state_steps: list[Tensor] = []
            # 中: `_init_group` 填好列表并补建缺少的状态，返回值说明有没有复数参数。
            # EN: `_init_group` fills the lists and creates missing state; its result says
            #     whether any parameter is complex.
            beta1, beta2 = group["betas"]
            has_complex = self._init_group(
                group, params_with_grad, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps
            )

            # 中: 六个逐项对应的列表按位置传入，其余一律按关键字。
            # EN: The six aligned lists go by position, everything else by keyword.
            adam(
                params_with_grad,
                grads,
                exp_avgs,
                exp_avg_sqs,
                max_exp_avg_sqs,
                state_steps,
                # 中: 超参数逐组读取（调度器改的正是参数组里的 `lr`），变体开关也一样。
                # EN: Hyperparameters are read per group (a scheduler changes exactly the
                #     group's `lr`), and so are the variant switches.
                amsgrad=group["amsgrad"],
                has_complex=has_complex,
                beta1=beta1,
                beta2=beta2,
                lr=group["lr"],
                weight_decay=group["weight_decay"],
                eps=group["eps"],
                maximize=group["maximize"],
                # 中: `torch.compile` 追踪 `torch.optim.Optimizer` 的实例时（我们的类是它的子类，
                #     所以也算），dynamo 先把每个被追踪参数组里的 `capturable` 换成 `True`
                #     （`torch/_dynamo/variables/optimizer.py` 的 `_set_capturable`），编译后的一步
                #     因此读到 `True`，走张量形式的偏差校正；即时执行时读到的是用户设的值。
                # EN: When `torch.compile` traces an instance of `torch.optim.Optimizer` (ours
                #     is a subclass, so it counts), dynamo first sets `capturable` to `True` in
                #     every traced group (`_set_capturable` in
                #     `torch/_dynamo/variables/optimizer.py`), so a compiled step reads `True`
                #     here and takes the tensor bias corrections; in eager mode it reads the
                #     user's value.
                capturable=group["capturable"],
                # 中: 其余开关，以及 GradScaler 的两项：`getattr` 的默认值 `None` 表示没有
                #     GradScaler 介入。
                # EN: The other switches, and GradScaler's two entries: `getattr`'s default
                #     `None` means no GradScaler is involved.
                foreach=group["foreach"],
                differentiable=group["differentiable"],
                fused=group["fused"],
                grad_scale=getattr(self, "grad_scale", None),
                found_inf=getattr(self, "found_inf", None),
                decoupled_weight_decay=group["decoupled_weight_decay"],
            )

        return loss


def _single_tensor_adam(
    params: list[Tensor],
    grads: list[Tensor],
    exp_avgs: list[Tensor],
    exp_avg_sqs: list[Tensor],
    max_exp_avg_sqs: list[Tensor],
    state_steps: list[Tensor],
    grad_scale: Tensor | None,
    found_inf: Tensor | None,
    *,
    amsgrad: bool,
    has_complex: bool,
    beta1: float | Tensor,
    beta2: float | Tensor,
    lr: float | Tensor,
    weight_decay: float,
    eps: float,
    maximize: bool,
    capturable: bool,
    differentiable: bool,
    decoupled_weight_decay: bool,
) -> None:
    r"""Adam one parameter at a time. / 逐个参数执行 Adam。

    === "中文"

        最容易读的一版，步骤编号与模块说明中的公式相同。偏差校正有两种算法：

        - 通常（既非 capturable 也非 differentiable）：步数用 `.item()` 取成 Python 数，
          超参数为浮点数时 `1 - β^t`、步长和 `√(1-β2^t)` 都是 Python 浮点（双精度）运算，
          最后以标量 `value=-step_size` 交给 `addcdiv_`；
        - capturable 或 differentiable：步数保持为张量，偏差校正是张量运算（可以录进图，
          也可以对 β 求导）；因为 `addcdiv_` 的 `value` 只接受数（需要梯度的张量被拒绝，
          其他 0 维张量被读成数），负步长被折进分母：
          `denom = √v / (√(1-β2^t)·(-step_size)) + ε/(-step_size)`。这两种算法在末位上
          结果不同。

        可微模式下，凡是会被就地改写、又被计算图记住的张量，都先 `clone()`。

    === "English"

        The easiest version to read; its step numbers are those of the formula in the module
        description. The bias corrections are computed in one of two ways:

        - usually (neither capturable nor differentiable): the step is read as a Python number
          with `.item()`, and with float hyperparameters `1 - β^t`, the step size and
          `√(1-β2^t)` are Python float (double precision) arithmetic, handed to `addcdiv_` as
          the scalar `value=-step_size`;
        - capturable or differentiable: the step stays a tensor and the bias corrections are
          tensor operations (recordable into a graph, differentiable with respect to the
          betas); since `addcdiv_`'s `value` takes only a number (a tensor that requires grad
          is refused, another 0-d tensor is read as a number), the negative step size is
          folded into the denominator:
          `denom = √v / (√(1-β2^t)·(-step_size)) + ε/(-step_size)`. The two ways differ in the
          last bits.

        In differentiable mode, every tensor that is rewritten in place while the graph still
        needs it is `clone()`d first.

    Args:
        params: Parameters. / 参数。
        grads: Gradients. / 梯度。
        exp_avgs: First moments m. / 一阶矩 m。
        exp_avg_sqs: Second moments v. / 二阶矩 v。
        max_exp_avg_sqs: Running maxima of v (with `amsgrad`). / v 的历史最大值（`amsgrad` 时）。
        state_steps: Step counters. / 步数计数器。
        grad_scale: Must be `None`. / 必须为 `None`。
        found_inf: Must be `None`. / 必须为 `None`。
        amsgrad: Use `max_exp_avg_sqs`. / 使用 `max_exp_avg_sqs`。
        has_complex: Unused here (each parameter is checked). / 此处不用（逐个参数检查）。
        beta1: β1. / β1。
        beta2: β2. / β2。
        lr: Learning rate γ. / 学习率 γ。
        weight_decay: λ. / λ。
        eps: ε. / ε。
        maximize: Maximize instead. / 改为最大化。
        capturable: Tensor bias corrections; devices are checked. / 用张量算偏差校正；检查设备。
        differentiable: Keep the step differentiable. / 让这一步可求导。
        decoupled_weight_decay: Decay θ directly (AdamW). / 直接衰减 θ（AdamW）。

    Raises:
        AssertionError: `grad_scale`/`found_inf` given, or capturable on an unsupported device. / 给了 `grad_scale`/`found_inf`，或在不支持的设备上使用 capturable。
    """
    if grad_scale is not None or found_inf is not None:
        raise AssertionError("Expected grad_scale and found_inf to be None")

    # 中: TorchScript 下只接受 float 的 lr 与 β：它的类型推断认不出后面的运算对 float 和
    #     Tensor 都有重载。
    # EN: Under TorchScript, lr and the betas must be floats: its type inference does not see
    #     that the operations below have overloads for both floats and Tensors.
    if torch.jit.is_scripting():
        if not isinstance(lr, float):
            raise AssertionError(f"Expected lr to be a float, but got {type(lr)}")
        if not isinstance(beta1, float):
            raise AssertionError(f"Expected beta1 to be a float, but got {type(beta1)}")
        if not isinstance(beta2, float):
            raise AssertionError(f"Expected beta2 to be a float, but got {type(beta2)}")
    # 中: 平常则把形状 `(1,)` 的张量压成 0 维，当作标量使用。
    # EN: Otherwise tensors of shape `(1,)` are squeezed to 0-d, to act as scalars.
    else:
        lr = _to_scalar(lr)
        beta1 = _to_scalar(beta1)
        beta2 = _to_scalar(beta2)

    # 中: 张量 β1 会被转换到每个参数的设备与类型，让 `lerp_` 拿到与参数匹配的权重；副本按
    #     (设备, 类型) 缓存，每种只转换一次。Python 数的 β1 直接使用。
    # EN: A tensor β1 is converted to each parameter's device and dtype, so `lerp_` gets a
    #     weight matching the parameter; copies are cached by (device, dtype), one conversion
    #     each. A Python number β1 is used as is.
    beta1_by_device_dtype = (
        {(beta1.device, beta1.dtype): beta1} if isinstance(beta1, Tensor) else None
    )

    # 中: 第 1 步的一半：maximize 时 `-grads[i]` 是新张量，`.grad` 本身不会被取负。
    # EN: Half of step 1: with maximize, `-grads[i]` is a new tensor, so `.grad` itself is
    #     never negated.
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        step_t = state_steps[i]

        # 中: capturable 要求参数与步数都在支持图捕获的设备上；编译时交给编译器检查。
        # EN: Capturable needs the parameter and its step on a graph-capturable device; under
        #     compile the compiler checks this instead.
        if not torch.compiler.is_compiling() and capturable:
            supported_devices = _get_capturable_supported_devices()
            if not (
                param.device.type == step_t.device.type and param.device.type in supported_devices
            ):
                # 中: 文本列出受支持的设备类型；这里含 `xla`，foreach 实现的检查不含。
                # EN: The text lists the supported device types; `xla` is among them here, not
                #     in the foreach implementation's check.
                raise AssertionError(
                    "If capturable=True, params and state_steps must be on supported devices: "
                    f"{supported_devices}."
                )

        # 中: 第 1 步的另一半（步数加一）与第 2 步。解耦衰减直接缩放参数；耦合衰减用非就地的
        #     `add` 得到新的梯度，`.grad` 不被改写——除了可微模式下需要梯度的张量 λ：那时
        #     `addcmul_` 就地改写这个 grad（不 maximize 时就是 `.grad` 本身，与 torch 相同），
        #     让 λ 留在计算图里。
        # EN: The other half of step 1 (the step count) and step 2. Decoupled decay scales the
        #     parameter directly; coupled decay makes a new gradient with the out-of-place
        #     `add`, leaving `.grad` alone, except for a tensor λ requiring grad in
        #     differentiable mode: then `addcmul_` rewrites this grad in place (`.grad` itself
        #     without maximize, as torch does), keeping λ in the graph.
        step_t += 1
        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            elif differentiable and isinstance(weight_decay, Tensor) and weight_decay.requires_grad:
                grad = grad.addcmul_(param.clone(), weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)

        # 中: 复数参数：之后的运算都在实数视图上做（视图共享存储，更新写回原张量）。
        #     `max_exp_avg_sqs[i]` 在列表里被换成视图，循环末尾再换回复数。
        # EN: Complex parameters: everything below works on real views (views share storage,
        #     so the updates land in the original tensors). `max_exp_avg_sqs[i]` is swapped for
        #     its view in the list and swapped back at the end of the loop.
        if torch.is_complex(param):
            grad = torch.view_as_real(grad)
            exp_avg = torch.view_as_real(exp_avg)
            exp_avg_sq = torch.view_as_real(exp_avg_sq)
            if amsgrad:
                max_exp_avg_sqs[i] = torch.view_as_real(max_exp_avg_sqs[i])
            param = torch.view_as_real(param)

        # 中: 取本参数设备与类型上的 β1（张量 β1 时用缓存的副本）。
        # EN: Get β1 on this parameter's device and dtype (the cached copy for a tensor β1).
        device = param.device
        if beta1_by_device_dtype is not None:
            # 中: 复数参数此时已换成实数视图，所以键里是实数类型（complex64 对应 float32）。
            # EN: A complex parameter is its real view by now, so the key holds the real dtype
            #     (float32 for complex64).
            key = (device, param.dtype)
            if key not in beta1_by_device_dtype:
                beta1_by_device_dtype[key] = beta1.to(
                    device=device, dtype=param.dtype, non_blocking=True
                )
            device_beta1 = beta1_by_device_dtype[key]
        else:
            device_beta1 = beta1
        # 中: 第 3 步，一阶矩：m ← m + (1-β1)(g - m)，用 `lerp_` 算（与 torch 逐位相同的前提）。
        # EN: Step 3, first moment: m ← m + (1-β1)(g - m), computed with `lerp_` (needed to
        #     match torch bit for bit).
        exp_avg.lerp_(grad, 1 - device_beta1)

        # 中: 第 3 步，二阶矩：v ← β2·v + (1-β2)·g²。`addcmul_` 的 `value` 只能是数，所以
        #     需要梯度的张量 β2 改用等价的 v.lerp_(g², 1-β2)，让 β2 留在计算图里。
        # EN: Step 3, second moment: v ← β2·v + (1-β2)·g². `addcmul_`'s `value` must be a
        #     number, so a tensor β2 requiring grad uses the equivalent v.lerp_(g², 1-β2)
        #     instead, keeping β2 in the graph.
        if differentiable and isinstance(beta2, Tensor) and beta2.requires_grad:
            exp_avg_sq.lerp_(torch.square(grad), weight=1 - beta2)
        else:
            exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)

        if capturable or differentiable:
            # 中: 张量形式的偏差校正。可微模式下，`step` 作为需要梯度的 β 的指数之前先克隆：
            #     求导要保存指数，而 `step` 每步都被就地加一。
            # EN: Bias corrections as tensors. In differentiable mode, `step` is cloned before
            #     it serves as the exponent of a β that requires grad: the backward pass saves
            #     the exponent, and `step` is incremented in place every step.
            if differentiable and isinstance(beta1, Tensor) and beta1.requires_grad:
                bias_correction1 = 1 - beta1 ** step_t.clone()
            else:
                bias_correction1 = 1 - beta1**step_t
            if differentiable and isinstance(beta2, Tensor) and beta2.requires_grad:
                bias_correction2 = 1 - beta2 ** step_t.clone()
            else:
                bias_correction2 = 1 - beta2**step_t

            # 中: 第 5 步的准备：负步长 -γ/(1-β1^t) 将被折进分母（见上文：`addcdiv_` 的
            #     `value` 只接受数）。
            # EN: Preparing step 5: the negative step size -γ/(1-β1^t) will be folded into the
            #     denominator (see above: `addcdiv_`'s `value` takes only a number).
            step_size = lr / bias_correction1
            step_size_neg = step_size.neg()
            bias_correction2_sqrt = bias_correction2.sqrt()

            # 中: 第 4 步（amsgrad）：可微模式下先克隆旧的最大值，因为 `copy_` 会就地覆盖它。
            # EN: Step 4 (amsgrad): in differentiable mode the old maximum is cloned first,
            #     since `copy_` overwrites it in place.
            if amsgrad:
                if differentiable:
                    max_exp_avg_sq = max_exp_avg_sqs[i].clone()
                else:
                    max_exp_avg_sq = max_exp_avg_sqs[i]
                max_exp_avg_sqs[i].copy_(torch.maximum(max_exp_avg_sq, exp_avg_sq))
                # 中: 从这里起由 v_max 代替 v。
                # EN: From here on v_max stands in for v.
                second_moment = max_exp_avg_sqs[i]
            else:
                second_moment = exp_avg_sq

            # 中: 第 5 步：denom = √v/(√(1-β2^t)·(-step_size)) + ε/(-step_size)，于是
            #     θ + m/denom 正是 θ - step_size·m/(√v/√(1-β2^t) + ε)。
            # EN: Step 5: denom = √v/(√(1-β2^t)·(-step_size)) + ε/(-step_size), so that
            #     θ + m/denom is exactly θ - step_size·m/(√v/√(1-β2^t) + ε).
            denom = (second_moment.sqrt() / (bias_correction2_sqrt * step_size_neg)).add_(
                eps / step_size_neg
            )
            if differentiable:
                param.addcdiv_(exp_avg.clone(), denom)
            else:
                param.addcdiv_(exp_avg, denom)
        else:
            # 中: Python 数形式的偏差校正：每个参数付出一次 `.item()`（步数在 CPU 上，很便宜），
            #     换来纯标量运算。
            # EN: Bias corrections as Python numbers: one `.item()` per parameter (cheap, the
            #     step is on the CPU) buys plain scalar arithmetic.
            step = _get_value(step_t)
            bias_correction1 = 1 - beta1**step
            bias_correction2 = 1 - beta2**step
            step_size = lr / bias_correction1
            bias_correction2_sqrt = bias_correction2**0.5

            # 中: 第 4 步（amsgrad）：`out=` 让最大值就地写回状态；第 5 步：ε 加在校正后的 √v 上。
            # EN: Step 4 (amsgrad): `out=` writes the maximum back into the state in place;
            #     step 5: ε is added to the corrected √v.
            if amsgrad:
                torch.maximum(max_exp_avg_sqs[i], exp_avg_sq, out=max_exp_avg_sqs[i])
                denom = (max_exp_avg_sqs[i].sqrt() / bias_correction2_sqrt).add_(eps)
            else:
                denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
            param.addcdiv_(exp_avg, denom, value=-step_size)

        # 中: 把列表里的实数视图换回复数张量，让状态保持复数。
        # EN: Swap the real view in the list back to the complex tensor, so the state stays
        #     complex.
        if amsgrad and torch.is_complex(params[i]):
            max_exp_avg_sqs[i] = torch.view_as_complex(max_exp_avg_sqs[i])


def _multi_tensor_adam(
    params: list[Tensor],
    grads: list[Tensor],
    exp_avgs: list[Tensor],
    exp_avg_sqs: list[Tensor],
    max_exp_avg_sqs: list[Tensor],
    state_steps: list[Tensor],
    grad_scale: Tensor | None,
    found_inf: Tensor | None,
    *,
    amsgrad: bool,
    has_complex: bool,
    beta1: float | Tensor,
    beta2: float | Tensor,
    lr: float | Tensor,
    weight_decay: float,
    eps: float,
    maximize: bool,
    capturable: bool,
    differentiable: bool,
    decoupled_weight_decay: bool,
) -> None:
    r"""Adam with foreach kernels, one call per (device, dtype) group. / 用 foreach 内核执行 Adam，每个（设备, 类型）组一次调用。

    === "中文"

        同一公式，每一行作用于一整组张量。与单张量实现相比：

        - 张量 lr/β 只在 capturable 时允许（非 capturable 的路径把它们算成交给 foreach 运算
          的 Python 标量）；
        - 步数在 CPU 上时，加一用一个预先包好的 CPU 张量 `1.0`，免得 foreach 的逐个回退
          路径每次都把 `1` 重新包成张量；
        - capturable 时偏差校正也是 foreach 张量运算，每个参数一个 0 维张量；否则是 Python
          数的列表，作为 `_foreach_addcdiv_` 的逐张量标量传入。

        复数参数整组换成实数视图后再计算。

    === "English"

        The same formula, each line acting on a whole group of tensors. Compared with the
        single-tensor implementation:

        - a tensor lr/β is allowed only with capturable (the non-capturable path turns them
          into Python scalars for the foreach ops);
        - with the steps on the CPU, the increment uses one prebuilt CPU tensor `1.0`, so that
          foreach's one-by-one fallback path doesn't wrap `1` into a tensor each time;
        - with capturable the bias corrections are foreach tensor operations too, one 0-d
          tensor per parameter; otherwise they are lists of Python numbers, passed to
          `_foreach_addcdiv_` as per-tensor scalars.

        Complex parameters are swapped for real views, the whole group at once, before the
        arithmetic.

    Args:
        params: Parameters. / 参数。
        grads: Gradients. / 梯度。
        exp_avgs: First moments m. / 一阶矩 m。
        exp_avg_sqs: Second moments v. / 二阶矩 v。
        max_exp_avg_sqs: Running maxima of v (with `amsgrad`). / v 的历史最大值（`amsgrad` 时）。
        state_steps: Step counters. / 步数计数器。
        grad_scale: Must be `None`. / 必须为 `None`。
        found_inf: Must be `None`. / 必须为 `None`。
        amsgrad: Use `max_exp_avg_sqs`. / 使用 `max_exp_avg_sqs`。
        has_complex: Whether to make real views. / 是否需要换成实数视图。
        beta1: β1. / β1。
        beta2: β2. / β2。
        lr: Learning rate γ. / 学习率 γ。
        weight_decay: λ. / λ。
        eps: ε. / ε。
        maximize: Maximize instead. / 改为最大化。
        capturable: Tensor bias corrections; devices are checked. / 用张量算偏差校正；检查设备。
        differentiable: Must be false. / 必须为假。
        decoupled_weight_decay: Decay θ directly (AdamW). / 直接衰减 θ（AdamW）。

    Raises:
        RuntimeError: A tensor lr without capturable. / 非 capturable 时使用张量 lr。
        ValueError: A tensor β without capturable, or a tensor with more than one element. / 非 capturable 时使用张量 β，或张量不止一个元素。
        AssertionError: Capturable on an unsupported device, `grad_scale`/`found_inf` given, or differentiable. / 在不支持的设备上使用 capturable、给了 `grad_scale`/`found_inf`，或要求可微。
    """
    if len(params) == 0:
        return

    # 中: 张量超参数的检查，文本与 torch 相同（注意 lr 报 `RuntimeError`，β 报 `ValueError`）。
    # EN: Checks of tensor hyperparameters, with torch's texts (mind that lr raises
    #     `RuntimeError` and the betas `ValueError`).
    if isinstance(lr, Tensor):
        if not capturable:
            raise RuntimeError(
                "lr as a Tensor is not supported for capturable=False and foreach=True"
            )
        if lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
    # 中: 两个 β 依次检查，文本里用 `beta1`/`beta2` 称呼它们（构造函数里则是 `betas[0]`）。
    # EN: The two betas in turn; the texts call them `beta1`/`beta2` (the constructor says
    #     `betas[0]`).
    for name, beta in (("beta1", beta1), ("beta2", beta2)):
        if isinstance(beta, Tensor):
            if not capturable:
                raise ValueError(
                    f"{name} as a Tensor is not supported for capturable=False and foreach=True"
                )
            if beta.numel() != 1:
                raise ValueError(f"Tensor {name} must be 1-element")

    # 中: capturable 要求每个参数与它的步数在同一个支持图捕获的设备上；编译时交给编译器。
    # EN: Capturable needs each parameter and its step on one graph-capturable device; under
    #     compile this is left to the compiler.
    if not torch.compiler.is_compiling() and capturable:
        supported_devices = _get_capturable_supported_devices(supports_xla=False)
        if not all(
            p.device.type == step.device.type and p.device.type in supported_devices
            for p, step in zip(params, state_steps, strict=True)
        ):
            # 中: 文本列出受支持的设备类型，这里不含 `xla`（单张量实现的检查含）。
            # EN: The text lists the supported device types, without `xla` here (the
            #     single-tensor implementation's check has it).
            raise AssertionError(
                "If capturable=True, params and state_steps must be on supported devices: "
                f"{supported_devices}."
            )

    # 中: foreach 实现既不支持 GradScaler 的参数，也不支持自动求导。
    # EN: The foreach implementation supports neither GradScaler's arguments nor autograd.
    if grad_scale is not None or found_inf is not None:
        raise AssertionError("Expected grad_scale and found_inf to be None")
    if differentiable:
        raise AssertionError("_foreach ops don't support autograd")

    # 中: 形状 `(1,)` 的张量压成 0 维；再按设备与类型分组：foreach 调用的快速路径要求同设备、
    #     同类型的张量（CPU 上混合类型也能算，只是逐个张量处理）。
    # EN: Tensors of shape `(1,)` are squeezed to 0-d; then grouping by device and dtype: a
    #     foreach call's fast path needs tensors of one device and one dtype (on the CPU mixed
    #     dtypes work too, tensor by tensor).
    lr = _to_scalar(lr)
    beta1 = _to_scalar(beta1)
    beta2 = _to_scalar(beta2)
    grouped_tensors = Optimizer._group_tensors_by_device_and_dtype(
        [params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps]
    )

    # 中: 非 CPU 上的张量 β1 按设备缓存副本；CPU 张量或 Python 数直接当标量用。
    # EN: A tensor β1 not on the CPU gets per-device cached copies; a CPU tensor or a Python
    #     number is used as a scalar directly.
    beta1_by_device = (
        {beta1.device: beta1} if isinstance(beta1, Tensor) and str(beta1.device) != "cpu" else None
    )

    # 中: 每组是同一（设备, 类型）的张量，六个列表仍逐项对应；分组的下标这里用不上。
    # EN: Each group holds the tensors of one (device, dtype), the six lists still aligned;
    #     the grouping's indices are not needed here.
    for (
        device_params,
        device_grads,
        device_exp_avgs,
        device_exp_avg_sqs,
        device_max_exp_avg_sqs,
        device_state_steps,
    ), _ in grouped_tensors.values():
        # 中: 本组所在设备上的 β1（第一次遇到这个设备时复制一次）。
        # EN: β1 on this group's device (copied once, when the device is first met).
        device = device_params[0].device
        if beta1_by_device is not None and device not in beta1_by_device:
            beta1_by_device[device] = beta1.to(device=device, non_blocking=True)
        device_beta1 = beta1_by_device[device] if beta1_by_device else beta1

        # 中: 复数参数：组内列表里的复数张量换成实数视图；视图共享存储，所以状态本身仍是复数，
        #     更新照样写进去。没有 `amsgrad` 时 `device_max_exp_avg_sqs` 为空，不能参与。
        # EN: Complex parameters: the group's lists get real views in place of complex tensors;
        #     views share storage, so the state itself stays complex and still receives the
        #     updates. Without `amsgrad`, `device_max_exp_avg_sqs` is empty and must stay out.
        if has_complex:
            state_lists = [device_exp_avgs, device_exp_avg_sqs]
            if amsgrad:
                state_lists.append(device_max_exp_avg_sqs)
            _view_as_real(device_params, device_grads, *state_lists)

        # 中: 第 1 步：maximize 先取负得到一份新列表（之后耦合衰减可就地加在它上面）；步数加一。
        # EN: Step 1: maximize negates first, giving a fresh list (coupled decay can then add
        #     to it in place); the steps are incremented.
        if maximize:
            device_grads = torch._foreach_neg(device_grads)
        if not torch.compiler.is_compiling() and device_state_steps[0].is_cpu:
            torch._foreach_add_(device_state_steps, torch.tensor(1.0, device="cpu"), alpha=1.0)
        else:
            torch._foreach_add_(device_state_steps, 1)

        # 中: 第 2 步：解耦衰减缩放参数；耦合衰减在取负后的新列表上就地加，否则用非就地的
        #     `_foreach_add`，以免改写 `.grad`。
        # EN: Step 2: decoupled decay scales the parameters; coupled decay adds in place to the
        #     negated fresh list, otherwise uses the out-of-place `_foreach_add`, so as not to
        #     rewrite `.grad`.
        if weight_decay != 0:
            if decoupled_weight_decay:
                torch._foreach_mul_(device_params, 1 - lr * weight_decay)
            elif maximize:
                torch._foreach_add_(device_grads, device_params, alpha=weight_decay)
            else:
                device_grads = torch._foreach_add(device_grads, device_params, alpha=weight_decay)

        # 中: 第 3 步，一阶矩：m ← m + (1-β1)(g - m)，与单张量实现一样用 `lerp`。
        # EN: Step 3, first moment: m ← m + (1-β1)(g - m), with `lerp` as in the single-tensor
        #     implementation.
        torch._foreach_lerp_(device_exp_avgs, device_grads, 1 - device_beta1)
        # 中: 第 3 步，二阶矩：v ← β2·v + (1-β2)·g²。`_foreach_addcmul_` 的 `value` 只能是
        #     Python 数，所以张量 β2 先把 (1-β2) 乘进一份梯度，`value` 取 1.0。
        # EN: Step 3, second moment: v ← β2·v + (1-β2)·g². `_foreach_addcmul_`'s `value`
        #     must be a Python number, so a tensor β2 first multiplies (1-β2) into a copy of
        #     the gradients and `value` is 1.0.
        torch._foreach_mul_(device_exp_avg_sqs, beta2)
        if isinstance(beta2, Tensor):
            scaled_device_grads = torch._foreach_mul(device_grads, 1 - beta2)
            value = 1.0
        else:
            scaled_device_grads = device_grads
            value = 1 - beta2
        torch._foreach_addcmul_(device_exp_avg_sqs, scaled_device_grads, device_grads, value)

        # 中: 本地的梯度列表（maximize、权重衰减或张量 β2 造出的是副本）不再需要，立刻释放，
        #     降低内存峰值。
        # EN: The local gradient lists (copies, when maximize, weight decay or a tensor β2
        #     made them) are no longer needed; dropping them now lowers the peak memory.
        del device_grads
        del scaled_device_grads

        if capturable:
            # 中: 张量形式的偏差校正，每个参数一个 0 维张量。先得到 β^t - 1（foreach 的减法
            #     不接受标量作被减数，所以不直接算 1 - β^t）。
            # EN: Bias corrections as tensors, one 0-d tensor per parameter. First β^t - 1
            #     (foreach subtraction takes no scalar as the left operand, so 1 - β^t is not
            #     computed directly).
            bias_correction1 = torch._foreach_pow(beta1, device_state_steps)
            bias_correction2 = torch._foreach_pow(beta2, device_state_steps)
            torch._foreach_sub_(bias_correction1, 1)
            torch._foreach_sub_(bias_correction2, 1)
            # 中: 第一项除以 lr 再取倒数，得到 -lr/(1-β1^t)，即负的步长；第二项取负再开方，
            #     得到 √(1-β2^t)。
            # EN: The first is divided by lr and inverted, giving -lr/(1-β1^t), the negative
            #     step size; the second is negated and square-rooted, giving √(1-β2^t).
            torch._foreach_neg_(bias_correction2)
            torch._foreach_div_(bias_correction1, lr)
            torch._foreach_reciprocal_(bias_correction1)
            torch._foreach_sqrt_(bias_correction2)
            step_size = bias_correction1
            bias_correction2_sqrt = bias_correction2

            # 中: 第 4 步（amsgrad）：v_max ← max(v_max, v)，之后用 v_max 的平方根。
            # EN: Step 4 (amsgrad): v_max ← max(v_max, v), then the square root of v_max.
            if amsgrad:
                torch._foreach_maximum_(device_max_exp_avg_sqs, device_exp_avg_sqs)
                exp_avg_sq_sqrt = torch._foreach_sqrt(device_max_exp_avg_sqs)
            else:
                exp_avg_sq_sqrt = torch._foreach_sqrt(device_exp_avg_sqs)
            # 中: 第 5 步：在新列表 `exp_avg_sq_sqrt` 里就地算出分母
            #     (√v/√(1-β2^t) + ε) / `step_size`（`step_size` 已是负的 -lr/(1-β1^t)），
            #     然后 θ ← θ + m/分母，负号已在分母里。
            # EN: Step 5: build the denominator in place in the fresh `exp_avg_sq_sqrt` list,
            #     (√v/√(1-β2^t) + ε) / `step_size` (`step_size` already being the negative
            #     -lr/(1-β1^t)), then θ ← θ + m/denominator, the sign already inside it.
            torch._foreach_div_(exp_avg_sq_sqrt, bias_correction2_sqrt)
            torch._foreach_add_(exp_avg_sq_sqrt, eps)
            torch._foreach_div_(exp_avg_sq_sqrt, step_size)
            torch._foreach_addcdiv_(device_params, device_exp_avgs, exp_avg_sq_sqrt)
        else:
            # 中: Python 数形式的偏差校正，每个参数一个；编译时 `_stack_if_compiling` 把步长列表
            #     合成一个张量。
            # EN: Bias corrections as Python numbers, one per parameter; under compile
            #     `_stack_if_compiling` turns the step sizes into one tensor.
            bias_correction1 = [1 - beta1 ** _get_value(step) for step in device_state_steps]
            bias_correction2 = [1 - beta2 ** _get_value(step) for step in device_state_steps]
            step_size = _stack_if_compiling([(lr / bc) * -1 for bc in bias_correction1])
            bias_correction2_sqrt = [bc**0.5 for bc in bias_correction2]

            # 中: 第 4 步（amsgrad）：v_max ← max(v_max, v)，之后用 v_max 的平方根。
            # EN: Step 4 (amsgrad): v_max ← max(v_max, v), then the square root of v_max.
            if amsgrad:
                torch._foreach_maximum_(device_max_exp_avg_sqs, device_exp_avg_sqs)
                exp_avg_sq_sqrt = torch._foreach_sqrt(device_max_exp_avg_sqs)
            else:
                exp_avg_sq_sqrt = torch._foreach_sqrt(device_exp_avg_sqs)
            # 中: 第 5 步：θ ← θ + `step_size`·m / (√v/√(1-β2^t) + ε)，`step_size` 里是负的
            #     -lr/(1-β1^t)，作为逐张量的标量交给 `_foreach_addcdiv_`。
            # EN: Step 5: θ ← θ + `step_size`·m / (√v/√(1-β2^t) + ε), `step_size` holding the
            #     negative -lr/(1-β1^t), given to `_foreach_addcdiv_` as per-tensor scalars.
            torch._foreach_div_(exp_avg_sq_sqrt, bias_correction2_sqrt)
            torch._foreach_add_(exp_avg_sq_sqrt, eps)
            torch._foreach_addcdiv_(device_params, device_exp_avgs, exp_avg_sq_sqrt, step_size)


def _fused_adam(
    params: list[Tensor],
    grads: list[Tensor],
    exp_avgs: list[Tensor],
    exp_avg_sqs: list[Tensor],
    max_exp_avg_sqs: list[Tensor],
    state_steps: list[Tensor],
    grad_scale: Tensor | None,
    found_inf: Tensor | None,
    *,
    amsgrad: bool,
    has_complex: bool,
    beta1: float | Tensor,
    beta2: float | Tensor,
    lr: float | Tensor,
    weight_decay: float,
    eps: float,
    maximize: bool,
    capturable: bool,
    differentiable: bool,
    decoupled_weight_decay: bool,
) -> None:
    r"""Adam through torch's fused kernels `torch._fused_adam_` and `torch._fused_adamw_`. / 通过 torch 的融合内核 `torch._fused_adam_` 与 `torch._fused_adamw_` 执行 Adam。

    === "中文"

        内核一次完成第 2–5 步；耦合衰减用 `_fused_adam_`，解耦衰减用 `_fused_adamw_`。步数
        在调用内核之前由这里加一（内核读取加一后的步数）。内核还处理 GradScaler：用
        `grad_scale` 反缩放梯度；`found_inf` 非零时整步跳过，这里再把刚加上的步数减回去。
        `grad_scale`、`found_inf` 与非 CPU 上的张量 lr 按设备缓存副本，每个设备留用第一份
        （`grad_scale`/`found_inf` 的 `.to()` 仍在每组都执行一次，因为 `setdefault` 总会先求值
        它的参数）。
        `has_complex` 与 `capturable` 只为签名一致而保留：fused 不接受复数参数，步数本来
        就在设备上。

    === "English"

        The kernel does steps 2–5 in one go; coupled decay uses `_fused_adam_`, decoupled
        decay `_fused_adamw_`. The steps are incremented here before the kernel runs (the
        kernel reads the incremented count). The kernel also handles GradScaler: it unscales
        the gradients by `grad_scale`; a nonzero `found_inf` skips the whole step, and the
        increment just made is subtracted again here. `grad_scale`, `found_inf` and a tensor
        lr not on the CPU get per-device cached copies, the first one for each device being
        kept (the `.to()` of `grad_scale`/`found_inf` still runs for every group, as
        `setdefault` always evaluates its argument). `has_complex` and
        `capturable` are kept only for a uniform signature: fused takes no complex
        parameters, and the steps are on the device anyway.

    Args:
        params: Parameters. / 参数。
        grads: Gradients. / 梯度。
        exp_avgs: First moments m. / 一阶矩 m。
        exp_avg_sqs: Second moments v. / 二阶矩 v。
        max_exp_avg_sqs: Running maxima of v (with `amsgrad`). / v 的历史最大值（`amsgrad` 时）。
        state_steps: Step counters (float32, on the device). / 步数计数器（float32，在设备上）。
        grad_scale: GradScaler's scale, or `None`. / GradScaler 的缩放系数或 `None`。
        found_inf: GradScaler's non-finite flag, or `None`. / GradScaler 的非有限值标志或 `None`。
        amsgrad: Use `max_exp_avg_sqs`. / 使用 `max_exp_avg_sqs`。
        has_complex: Unused. / 不使用。
        beta1: β1. / β1。
        beta2: β2. / β2。
        lr: Learning rate γ. / 学习率 γ。
        weight_decay: λ. / λ。
        eps: ε. / ε。
        maximize: Maximize instead. / 改为最大化。
        capturable: Unused. / 不使用。
        differentiable: Must be false. / 必须为假。
        decoupled_weight_decay: Use `torch._fused_adamw_`. / 使用 `torch._fused_adamw_`。

    Raises:
        RuntimeError: `differentiable=True`. / `differentiable=True`。
    """
    if not params:
        return
    if differentiable:
        raise RuntimeError("Adam with fused=True does not support differentiable=True")

    # 中: 每个设备的 `grad_scale`/`found_inf` 副本缓存在字典里；CPU 上的张量 lr 直接传给内核，
    #     其他设备上的按设备缓存。
    # EN: Per-device copies of `grad_scale`/`found_inf` are cached in dicts; a tensor lr on
    #     the CPU goes to the kernel as is, one on another device is cached per device.
    beta1 = _to_scalar(beta1)
    beta2 = _to_scalar(beta2)
    grad_scale_by_device = {grad_scale.device: grad_scale} if grad_scale is not None else {}
    found_inf_by_device = {found_inf.device: found_inf} if found_inf is not None else {}
    lr_by_device = {lr.device: lr} if isinstance(lr, Tensor) and str(lr.device) != "cpu" else None

    # 中: 按（设备, 类型）分组，每组一次内核调用；每组的六个列表与本函数的前六个参数同序，
    #     步数在最后。耦合衰减用 `_fused_adam_`，解耦衰减用 `_fused_adamw_`。
    # EN: Grouped by (device, dtype), one kernel call per group; each group's six lists come
    #     in the order of this function's first six arguments, the steps last. Coupled decay
    #     uses `_fused_adam_`, decoupled decay `_fused_adamw_`.
    grouped_tensors = Optimizer._group_tensors_by_device_and_dtype(
        [params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps]
    )
    fused_kernel = torch._fused_adamw_ if decoupled_weight_decay else torch._fused_adam_
    for (device, _), (device_lists, _) in grouped_tensors.items():
        # 中: 本组设备上的 GradScaler 缩放系数（内核用它反缩放梯度）。
        # EN: GradScaler's scale on this group's device (the kernel unscales the gradients by
        #     it).
        device_grad_scale = device_found_inf = None
        if grad_scale is not None:
            device_grad_scale = grad_scale_by_device.setdefault(
                device, grad_scale.to(device, non_blocking=True)
            )
        # 中: 同样取得本设备上的 `found_inf`；它还决定这一步是否计数（见下）。
        # EN: Likewise `found_inf` on this device; it also decides whether the step counts
        #     (see below).
        if found_inf is not None:
            device_found_inf = found_inf_by_device.setdefault(
                device, found_inf.to(device, non_blocking=True)
            )
        # 中: 与 torch 相同，`lr` 只在遇到新设备时换成该设备上的副本，之后的组沿用它。
        # EN: As in torch, `lr` is replaced by a copy only when a new device is met, and later
        #     groups keep using it.
        if lr_by_device is not None and device not in lr_by_device:
            lr_by_device[device] = lr.to(device=device, non_blocking=True)
            lr = lr_by_device[device]

        # 中: 步数（每组最后一个列表）先加一，再由内核完成第 2–5 步。
        # EN: Increment the steps (each group's last list) first, then the kernel does steps
        #     2–5.
        device_state_steps = device_lists[-1]
        torch._foreach_add_(device_state_steps, 1)
        fused_kernel(
            *device_lists,
            amsgrad=amsgrad,
            lr=lr,
            # 中: 其余超参数与 GradScaler 的两项按关键字传给内核。
            # EN: The other hyperparameters and GradScaler's two entries go to the kernel by
            #     keyword.
            beta1=beta1,
            beta2=beta2,
            weight_decay=weight_decay,
            eps=eps,
            maximize=maximize,
            grad_scale=device_grad_scale,
            found_inf=device_found_inf,
        )
        # 中: 被跳过的一步不计数：减去 `found_inf`（1.0 或 0.0）。
        # EN: A skipped step does not count: subtract `found_inf` (1.0 or 0.0).
        if device_found_inf is not None:
            torch._foreach_sub_(device_state_steps, [device_found_inf] * len(device_state_steps))


@_disable_dynamo_if_unsupported(single_tensor_fn=_single_tensor_adam)
def adam(
    params: list[Tensor],
    grads: list[Tensor],
    exp_avgs: list[Tensor],
    exp_avg_sqs: list[Tensor],
    max_exp_avg_sqs: list[Tensor],
    state_steps: list[Tensor],
    foreach: bool | None = None,
    capturable: bool = False,
    differentiable: bool = False,
    fused: bool | None = None,
    grad_scale: Tensor | None = None,
    found_inf: Tensor | None = None,
    has_complex: bool = False,
    decoupled_weight_decay: bool = False,
    *,
    amsgrad: bool,
    beta1: float | Tensor,
    beta2: float | Tensor,
    lr: float | Tensor,
    weight_decay: float,
    eps: float,
    maximize: bool,
) -> None:
    r"""The functional Adam: pick an implementation and run it. / 函数式 Adam：选择实现并运行。

    === "中文"

        用户没选（`foreach` 和 `fused` 都是 `None`）时按设备选 foreach 或单张量（Adam 从不
        默认 fused；张量 lr 又不是 capturable 时也不选 foreach）；只选了一个时另一个当作
        `False`。然后 fused 优先于 foreach，都不是就用单张量实现。带默认值的选项不是仅限
        关键字参数，因为 TorchScript 编译的函数不支持带默认值的仅限关键字参数（
        `torch.distributed.optim` 会编译这个函数式接口）。

    === "English"

        When the user chose neither (`foreach` and `fused` both `None`) the devices decide
        between foreach and single-tensor (Adam never defaults to fused, and a tensor lr
        without capturable doesn't get foreach); when only one was chosen, the other counts as
        `False`. Then fused wins over foreach, and with neither the single-tensor
        implementation runs. The options with defaults are not keyword-only because functions
        compiled by TorchScript don't support keyword-only arguments with defaults
        (`torch.distributed.optim` compiles this functional API).

    Args:
        params: Parameters with gradients. / 有梯度的参数。
        grads: Their gradients. / 它们的梯度。
        exp_avgs: First moments m. / 一阶矩 m。
        exp_avg_sqs: Second moments v. / 二阶矩 v。
        max_exp_avg_sqs: Running maxima of v (with `amsgrad`). / v 的历史最大值（`amsgrad` 时）。
        state_steps: Step counters, tensors. / 步数计数器，须为张量。
        foreach: Use foreach. / 是否使用 foreach。
        capturable: Keep every scalar on the device. / 所有标量留在设备上。
        differentiable: Keep the step differentiable. / 让这一步可求导。
        fused: Use the fused kernel. / 是否使用融合内核。
        grad_scale: GradScaler's scale (fused only). / GradScaler 的缩放系数（仅 fused）。
        found_inf: GradScaler's non-finite flag (fused only). / GradScaler 的非有限值标志（仅 fused）。
        has_complex: Whether any parameter is complex. / 是否有复数参数。
        decoupled_weight_decay: Decay θ directly (AdamW). / 直接衰减 θ（AdamW）。
        amsgrad: Use the running maximum of v. / 使用 v 的历史最大值。
        beta1: β1. / β1。
        beta2: β2. / β2。
        lr: Learning rate γ. / 学习率 γ。
        weight_decay: λ. / λ。
        eps: ε. / ε。
        maximize: Maximize instead. / 改为最大化。

    Raises:
        RuntimeError: Steps that are not tensors, or foreach/fused under TorchScript. / 步数不是张量，或在 TorchScript 中使用 foreach/fused。
    """
    # 中: 只在用户两个都没选时替他选择；显式的 True/False 一律尊重。
    # EN: Choose for the user only when neither was chosen; an explicit True/False is always
    #     respected.
    if fused is None and foreach is None:
        _, foreach = _default_to_fused_or_foreach(params, differentiable, use_fused=False)
        if foreach and isinstance(lr, Tensor) and not capturable:
            foreach = False
    if fused is None:
        fused = False
    if foreach is None:
        foreach = False

    # 中: 步数必须是张量（文本说明接口已经改变）；编译时跳过这项较慢的检查。
    # EN: The steps must be tensors (the text says the API has changed); under compile this
    #     slow check is skipped.
    if not torch.compiler.is_compiling() and not all(isinstance(t, Tensor) for t in state_steps):
        raise RuntimeError(
            "API has changed, `state_steps` argument must contain a list of singleton tensors"
        )
    # 中: 两种批量实现都不能在 TorchScript 里运行；报错文本与 torch 相同。
    # EN: Neither batched implementation runs under TorchScript; torch's error texts.
    if foreach and torch.jit.is_scripting():
        raise RuntimeError("torch.jit.script not supported with foreach optimizers")
    if fused and torch.jit.is_scripting():
        raise RuntimeError("torch.jit.script not supported with fused optimizers")

    # 中: fused 优先，其次 foreach，最后单张量；三者的参数完全相同。
    # EN: Fused first, then foreach, then single-tensor; all three take the same arguments.
    if fused and not torch.jit.is_scripting():
        implementation = _fused_adam
    elif foreach and not torch.jit.is_scripting():
        implementation = _multi_tensor_adam
    else:
        implementation = _single_tensor_adam
    # 中: 六个列表按位置传入；超参数与开关原样按关键字转交。
    # EN: The six lists go by position; hyperparameters and switches are passed on unchanged,
    #     by keyword.
    implementation(
        params,
        grads,
        exp_avgs,
        exp_avg_sqs,
        max_exp_avg_sqs,
        state_steps,
        # 中: 先是变体开关与公式里的超参数。
        # EN: First the variant switches and the formula's hyperparameters.
        amsgrad=amsgrad,
        has_complex=has_complex,
        beta1=beta1,
        beta2=beta2,
        lr=lr,
        weight_decay=weight_decay,
        eps=eps,
        maximize=maximize,
        # 中: 然后是实现相关的开关与 GradScaler 的两项；后者只有 fused 接受，其余实现收到
        #     非 `None` 时报错。
        # EN: Then the implementation switches and GradScaler's two entries; only fused accepts
        #     the latter, the other implementations raise on a non-`None` value.
        capturable=capturable,
        differentiable=differentiable,
        grad_scale=grad_scale,
        found_inf=found_inf,
        decoupled_weight_decay=decoupled_weight_decay,
    )
