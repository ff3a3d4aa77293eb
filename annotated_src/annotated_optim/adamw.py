r"""AdamW: Adam with decoupled weight decay; mirrors `torch.optim.adamw`. / AdamW：解耦权重衰减的 Adam，对应 `torch.optim.adamw`。

=== "中文"

    Adam 的 L2 权重衰减把 λθ 加进梯度，于是它也进入两个矩、被自适应的分母缩放：梯度
    大的坐标上衰减反而变弱。AdamW（Loshchilov 与 Hutter，“Decoupled Weight Decay
    Regularization”）把衰减从梯度里拿出来，直接作用于参数：`θ ← θ·(1 - γλ)`，再做
    普通的 Adam 更新。

    torch 2.13 里 AdamW 不再有自己的实现：[`AdamW`][annotated_optim.adamw.AdamW] 是
    [`Adam`][annotated_optim.adam.Adam] 的子类，固定 `decoupled_weight_decay=True`；
    函数式的 [`adamw`][annotated_optim.adamw.adamw] 也只是带上这个开关调用
    [`adam`][annotated_optim.adam.adam]。除了这个固定的开关，与 `Adam` 唯一不同的默认值是
    `weight_decay=1e-2`（`Adam` 是 0）。

=== "English"

    Adam's L2 weight decay adds λθ to the gradient, so it enters both moments and is scaled by
    the adaptive denominator: coordinates with large gradients get less decay. AdamW
    (Loshchilov and Hutter, "Decoupled Weight Decay Regularization") takes the decay out of
    the gradient and applies it to the parameter directly: `θ ← θ·(1 - γλ)`, followed by the
    plain Adam update.

    In torch 2.13 AdamW has no implementation of its own:
    [`AdamW`][annotated_optim.adamw.AdamW] is a subclass of
    [`Adam`][annotated_optim.adam.Adam] with `decoupled_weight_decay=True` fixed, and the
    functional [`adamw`][annotated_optim.adamw.adamw] just calls
    [`adam`][annotated_optim.adam.adam] with that switch. Apart from that fixed switch, the
    only default that differs from `Adam`'s is `weight_decay=1e-2` (`Adam` has 0).
"""

from typing import Any

from torch import Tensor

from annotated_optim.adam import Adam, adam
from annotated_optim.optimizer import ParamsT

__all__ = ["AdamW", "adamw"]


class AdamW(Adam):
    r"""Adam with decoupled weight decay. / 解耦权重衰减的 Adam。

    === "中文"

        状态、实现的选择和各选项的限制都与 [`Adam`][annotated_optim.adam.Adam] 相同；参数组
        里的 `decoupled_weight_decay` 由 `defaults` 补成 `True`（也出现在 repr 和状态字典里），
        反序列化或 `load_state_dict` 之后也强制为 `True`。只有参数组字典里显式写了 `False`
        （构造时或经 `add_param_group`）时，这个组才保留 `False`、按 L2 方式衰减，与 torch
        相同。构造函数没有 `decoupled_weight_decay` 参数，传入它会得到 `TypeError`。

    === "English"

        State, implementation choice and option limits are those of
        [`Adam`][annotated_optim.adam.Adam]; `decoupled_weight_decay` in the groups is filled
        in as `True` from `defaults` (it shows in the repr and the state_dict too), and forced
        back to `True` after unpickling or `load_state_dict`. Only a group dict that says
        `False` explicitly (at construction or through `add_param_group`) keeps `False` and
        decays the L2 way, as in torch. The constructor has no `decoupled_weight_decay`
        parameter; passing one gives a `TypeError`.

    Args:
        params: Parameters, named parameters, or parameter groups. / 参数、带名字的参数或参数组。
        lr: Learning rate γ, a float or a one-element tensor. / 学习率 γ，浮点数或单元素张量。
        betas: Decay rates (β1, β2) of the two moments; both floats or both tensors. / 两个矩的衰减率 (β1, β2)；同为浮点数或同为张量。
        eps: ε added to the denominator for numerical stability. / 加到分母上保证数值稳定的 ε。
        weight_decay: Decoupled weight decay λ (default 1e-2). / 解耦权重衰减 λ（默认 1e-2）。
        amsgrad: Use the running maximum of the second moment (AMSGrad). / 使用二阶矩的历史最大值（AMSGrad）。
        maximize: Maximize the objective instead. / 改为最大化目标。
        foreach: Force (True) or forbid (False) the foreach implementation. / 强制（True）或禁止（False）foreach 实现。
        capturable: Keep every scalar on the device, for graph capture. / 所有标量留在设备上，以便图捕获。
        differentiable: Let autograd record the step. / 让自动求导记录这一步。
        fused: Use the fused kernel (`torch._fused_adamw_`). / 使用融合内核（`torch._fused_adamw_`）。

    Raises:
        ValueError: As for [`Adam`][annotated_optim.adam.Adam]. / 同 [`Adam`][annotated_optim.adam.Adam]。
        RuntimeError: As for [`Adam`][annotated_optim.adam.Adam]. / 同 [`Adam`][annotated_optim.adam.Adam]。

    Examples:
        >>> import torch, annotated_optim as optim
        >>> w = torch.ones(2, requires_grad=True)
        >>> opt = optim.AdamW([w], lr=0.1, weight_decay=0.5)
        >>> w.grad = torch.zeros(2); opt.step()
        >>> w
        tensor([0.9500, 0.9500], requires_grad=True)
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-3,
        betas: tuple[float | Tensor, float | Tensor] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        r"""Build an `Adam` with `decoupled_weight_decay=True`. / 构造一个 `decoupled_weight_decay=True` 的 `Adam`。

        === "中文"

            签名与 `Adam` 的差别：`weight_decay` 默认 1e-2；仅限关键字的参数里 `maximize`
            排在 `foreach` 之前；没有 `decoupled_weight_decay`。

        === "English"

            The signature differs from `Adam`'s: `weight_decay` defaults to 1e-2; among the
            keyword-only parameters `maximize` comes before `foreach`; there is no
            `decoupled_weight_decay`.

        Args:
            params: See the class. / 见类说明。
            lr: See the class. / 见类说明。
            betas: See the class. / 见类说明。
            eps: See the class. / 见类说明。
            weight_decay: See the class. / 见类说明。
            amsgrad: See the class. / 见类说明。
            maximize: See the class. / 见类说明。
            foreach: See the class. / 见类说明。
            capturable: See the class. / 见类说明。
            differentiable: See the class. / 见类说明。
            fused: See the class. / 见类说明。
        """
        # 中: 全部检查都由 `Adam.__init__` 完成，错误文本因此与 `Adam` 相同。
        # EN: `Adam.__init__` does all the checking, so the error texts are `Adam`'s.
        super().__init__(
            params,
            lr,
            betas,
            eps,
            weight_decay,
            amsgrad,
            # 中: 开关原样转交；唯一固定的是解耦衰减。
            # EN: The switches pass through unchanged; only decoupled decay is fixed.
            foreach=foreach,
            maximize=maximize,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
            decoupled_weight_decay=True,
        )

    def __setstate__(self, state: dict[str, Any]) -> None:
        r"""Unpickle or load, then force `decoupled_weight_decay=True` in every group. / 反序列化或加载后，在每个参数组里强制 `decoupled_weight_decay=True`。

        === "中文"

            `load_state_dict` 也经由这里，所以即使装入的是 `Adam` 的状态字典（其中为
            `False`）或没有这个键的旧检查点，AdamW 仍然做解耦衰减。

        === "English"

            `load_state_dict` goes through here too, so even after loading an `Adam`
            state_dict (where it is `False`) or an old checkpoint without the key, AdamW
            still decays in the decoupled way.

        Args:
            state: The attributes to set. / 要设置的属性。
        """
        super().__setstate__(state)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True


def adamw(
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
    *,
    amsgrad: bool,
    beta1: float | Tensor,
    beta2: float | Tensor,
    lr: float | Tensor,
    weight_decay: float,
    eps: float,
    maximize: bool,
) -> None:
    r"""The functional AdamW: [`adam`][annotated_optim.adam.adam] with decoupled decay. / 函数式 AdamW：带解耦衰减的 [`adam`][annotated_optim.adam.adam]。

    === "中文"

        不另加 `_disable_dynamo_if_unsupported` 装饰：被调用的 `adam` 已经带着它。

    === "English"

        No `_disable_dynamo_if_unsupported` decoration of its own: the `adam` it calls
        already has it.

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
        amsgrad: Use the running maximum of v. / 使用 v 的历史最大值。
        beta1: β1. / β1。
        beta2: β2. / β2。
        lr: Learning rate γ. / 学习率 γ。
        weight_decay: λ. / λ。
        eps: ε. / ε。
        maximize: Maximize instead. / 改为最大化。
    """
    # 中: 所有参数原样转交，只加上 `decoupled_weight_decay=True`。
    # EN: Every argument passes through unchanged, plus `decoupled_weight_decay=True`.
    adam(
        params,
        grads,
        exp_avgs,
        exp_avg_sqs,
        max_exp_avg_sqs,
        state_steps,
        # 中: 实现开关、GradScaler 的两项与 `has_complex`。
        # EN: Implementation switches, GradScaler's two entries and `has_complex`.
        foreach=foreach,
        capturable=capturable,
        differentiable=differentiable,
        fused=fused,
        grad_scale=grad_scale,
        found_inf=found_inf,
        has_complex=has_complex,
        amsgrad=amsgrad,
        # 中: 超参数，以及本函数存在的理由：解耦衰减。
        # EN: The hyperparameters, and this function's reason to exist: decoupled decay.
        beta1=beta1,
        beta2=beta2,
        lr=lr,
        weight_decay=weight_decay,
        eps=eps,
        maximize=maximize,
        decoupled_weight_decay=True,
    )
