r"""Autograd functions used by the module system; mirrors `torch.nn.modules._functions`. / 模块系统用到的自动求导函数，对应 `torch.nn.modules._functions`。

=== "中文"

    这里只有 [`BackwardHookFunction`][annotated_nn.modules._functions.BackwardHookFunction]：
    完整反向钩子（full backward hook）靠它在计算图里插入一个“恒等”节点，从而在反向传播
    （backward pass）时拿到模块输入与输出的梯度。

    torch 的同名文件还有 `SyncBatchNorm` 与 `CrossMapLRN2d` 用到的自动求导函数。它们是数值
    内核而非模块系统，本项目不重写，因此这里没有。

=== "English"

    Only [`BackwardHookFunction`][annotated_nn.modules._functions.BackwardHookFunction] lives
    here: full backward hooks use it to insert an identity node into the graph, through which
    the backward pass hands over the gradients of a module's inputs and outputs.

    torch's file of the same name also holds the autograd functions behind `SyncBatchNorm` and
    `CrossMapLRN2d`. Those are numerical kernels, not the module system, so this project does
    not re-implement them and they are left out.
"""

import torch

# DIFF(torch 2.13): 中: 没有 SyncBatchNorm 与 CrossMapLRN2d 这两个自动求导函数（数值内核，不属于模块系统）。
# DIFF(torch 2.13): EN: the SyncBatchNorm and CrossMapLRN2d autograd functions are left out (numerical kernels, not the module system).


class BackwardHookFunction(torch.autograd.Function):
    r"""Identity autograd node that gives backward hooks a place to attach. / 恒等的自动求导节点，为反向钩子提供挂载点。

    === "中文"

        前向传播原样返回所有输入（同一批张量的新视图），反向传播原样返回所有梯度。它的价值
        在于产生一个 `grad_fn`（名为 `BackwardHookFunctionBackward`）同时连接所有张量：
        在这个节点上注册钩子（hook），就能一次拿到整组梯度。
        [`BackwardHook`][annotated_nn.utils.hooks.BackwardHook] 把它套在模块的输入和输出上。

        不需要梯度的输入被标记为不可微，这样它们在输出里仍然 `requires_grad=False`。

    === "English"

        The forward pass returns every input as is (new views of the same tensors); the
        backward pass returns every gradient as is. Its use is the `grad_fn` it creates, named
        `BackwardHookFunctionBackward`, which connects all the tensors at once: a hook on that
        node receives the whole group of gradients.
        [`BackwardHook`][annotated_nn.utils.hooks.BackwardHook] wraps a module's inputs and
        outputs with it.

        Inputs that do not require grad are marked non-differentiable, so their outputs keep
        `requires_grad=False`.
    """

    @staticmethod
    def forward(ctx, *args):
        r"""Return the inputs unchanged. / 原样返回输入。

        === "中文"

            `autograd.Function` 会为输出创建新的张量对象（输入的视图），把它们接到本节点上。

        === "English"

            `autograd.Function` creates new tensor objects (views of the inputs) for the outputs
            and attaches them to this node.

        Args:
            ctx: The autograd context. / 自动求导上下文。
            *args: The tensors to pass through. / 要原样传过的张量。

        Returns:
            The same tensors, as a tuple. / 同样的张量组成的 tuple。
        """
        # 中: 不需要梯度的输入不参与求导，否则输出会被错误地标为 requires_grad。
        # EN: Inputs without grad stay out of differentiation; otherwise their outputs would
        #     wrongly be marked requires_grad.
        ctx.mark_non_differentiable(*[arg for arg in args if not arg.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *args):
        r"""Return the gradients unchanged. / 原样返回梯度。

        === "中文"

            梯度的修改（如果有）由注册在本节点上的钩子完成，而不是这里。

        === "English"

            Any change to the gradients is made by the hooks registered on this node, not here.

        Args:
            ctx: The autograd context. / 自动求导上下文。
            *args: Gradients with respect to the outputs. / 对输出的梯度。

        Returns:
            The same gradients, as a tuple. / 同样的梯度组成的 tuple。
        """
        # 中: 每个前向输入对应一个梯度。梯度没有流到的输出（包括被标为不可微的输出），
        # 中: autograd 会在调用前补成全零张量，
        # 中: 所以这里返回的也是零而不是 None。
        # EN: One gradient per forward input. For outputs the gradient did not reach (the
        # EN: non-differentiable ones included) autograd fills in zero tensors before the call, so
        # EN: zeros, not None, are returned for them.
        return args
