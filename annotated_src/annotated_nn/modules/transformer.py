r"""The Transformer family: encoder/decoder layers, stacks, and the full model. / Transformer 家族：编码/解码层、层堆叠与完整模型。

=== "中文"

    本文件对应 `torch.nn.modules.transformer`，是“用小模块搭大模块”的范例：

    - `TransformerEncoderLayer` = 自注意力子模块（submodule）`self_attn`（一个
      [`MultiheadAttention`][annotated_nn.modules.activation.MultiheadAttention]）
      + 前馈网络（`linear1` → 激活 → `dropout` → `linear2`）+ 两个 `LayerNorm` + 三个 `Dropout`；
      `norm_first` 决定 LayerNorm 放在残差分支之前（Pre-LN）还是残差相加之后（Post-LN）。
    - `TransformerDecoderLayer` 在此基础上多一个对编码器输出 `memory` 的交叉注意力。
    - `TransformerEncoder`/`TransformerDecoder` 用 `copy.deepcopy` 把给定的层复制 N 份放进
      [`ModuleList`][annotated_nn.modules.container.ModuleList]——每份参数独立，
      初值却完全相同。
    - `Transformer` 组合编码器与解码器，并对所有矩阵参数重新做 Xavier 初始化。

    torch 在评估模式、无需梯度等条件下会改走融合内核（`torch._transformer_encoder_layer_fwd`），
    编码器还会把带填充掩码的输入转成嵌套张量（nested tensor）以跳过填充位置——这时填充位置的
    输出是 0，与普通路径不同。这些都是 torch 的计算内核，本文件按 torch 的条件原样调用它们，
    因此可观察到的输出与 torch 一致。

=== "English"

    This file mirrors `torch.nn.modules.transformer` and shows how big modules are built
    from small ones:

    - `TransformerEncoderLayer` = a self-attention submodule `self_attn` (a
      [`MultiheadAttention`][annotated_nn.modules.activation.MultiheadAttention]) + a
      feed-forward block (`linear1` → activation → `dropout` → `linear2`) + two `LayerNorm`s
      + three `Dropout`s; `norm_first` puts the LayerNorm before the residual branch
      (Pre-LN) or after the residual sum (Post-LN).
    - `TransformerDecoderLayer` adds cross-attention over the encoder output `memory`.
    - `TransformerEncoder`/`TransformerDecoder` copy the given layer N times with
      `copy.deepcopy` into a [`ModuleList`][annotated_nn.modules.container.ModuleList] —
      independent parameters with identical starting values.
    - `Transformer` combines encoder and decoder and re-initializes every matrix parameter
      with Xavier.

    In eval mode without gradients (and more conditions) torch switches to a fused kernel
    (`torch._transformer_encoder_layer_fwd`), and the encoder turns padded input into a
    nested tensor to skip padding — the padded positions then come out as 0, unlike the
    ordinary path. These are torch kernels; this file calls them under torch's exact
    conditions, so the observable outputs match torch.
"""

import copy
import warnings
from collections.abc import Callable
from typing import Any

import torch
from torch import Tensor

from .. import functional as F
from ..init import xavier_uniform_
from .activation import GELU, MultiheadAttention, ReLU
from .container import ModuleList
from .dropout import Dropout
from .linear import Linear
from .module import Module
from .normalization import LayerNorm

__all__ = [
    "Transformer",
    "TransformerEncoder",
    "TransformerDecoder",
    "TransformerEncoderLayer",
    "TransformerDecoderLayer",
]


def _generate_square_subsequent_mask(
    sz: int,
    device: torch.device | None = None,
    dtype: torch.dtype | None = None,
) -> Tensor:
    r"""Build the causal mask: `-inf` above the diagonal, 0 elsewhere. / 构造因果掩码：对角线以上为 `-inf`，其余为 0。

    === "中文"

        位置 i 只能看到位置 0..i。这是加性浮点掩码：加到注意力分数上后，
        `-inf` 经过 softmax 变成 0 权重。

    === "English"

        Position i may only see positions 0..i. It is an additive float mask: added to
        the attention scores, `-inf` becomes weight 0 after softmax.

    Args:
        sz: Sequence length. / 序列长度。
        device: Device of the mask. / 掩码所在设备。
        dtype: Dtype of the mask. / 掩码的数据类型。

    Returns:
        A `(sz, sz)` float tensor. / 形状 `(sz, sz)` 的浮点张量。
    """
    return torch.triu(
        torch.full((sz, sz), float("-inf"), dtype=dtype, device=device),
        diagonal=1,
    )


def _get_seq_len(src: Tensor, batch_first: bool) -> int | None:
    r"""Sequence length of `src`, or `None` for a nested tensor. / `src` 的序列长度；嵌套张量返回 `None`。

    === "中文"

        二维输入是无批次的 `(S, E)`；三维输入按 `batch_first` 取第 1 维或第 0 维。

    === "English"

        2D input is unbatched `(S, E)`; for 3D input dimension 1 or 0 is taken depending
        on `batch_first`.

    Args:
        src: The input sequence. / 输入序列。
        batch_first: Whether the batch dimension comes first. / 批维是否在前。

    Returns:
        The length, or `None`. / 长度，或 `None`。
    """
    # 中: 嵌套张量的每个元素长度各不相同，没有统一的序列长度，于是返回 None；
    # 中: 此时 `_detect_is_causal_mask` 改用掩码自己的 `size(-2)`。
    # EN: A nested tensor has no single sequence length (each entry has its own), hence None;
    # EN: `_detect_is_causal_mask` then falls back to the mask's own `size(-2)`.
    if src.is_nested:
        return None
    else:
        # 中: 普通张量：2 维是无批次的 `(S, E)`；3 维在 `batch_first` 时是 `(N, S, E)`，
        # 中: 否则是 `(S, N, E)`。
        # EN: Ordinary tensor: 2-D is unbatched `(S, E)`; 3-D is `(N, S, E)` with `batch_first`,
        # EN: otherwise `(S, N, E)`.
        src_size = src.size()
        if len(src_size) == 2:
            return src_size[0]
        else:
            seq_len_pos = 1 if batch_first else 0
            return src_size[seq_len_pos]


class Transformer(Module):
    r"""The full encoder–decoder Transformer. / 完整的编码器—解码器 Transformer。

    === "中文"

        未提供自定义编码器/解码器时，用同样的超参数构造一个编码层和一个解码层，各复制
        `num_*_layers` 份，并在末尾各加一个 `LayerNorm`。构造完成后
        [`_reset_parameters`][annotated_nn.modules.transformer.Transformer._reset_parameters]
        对所有维数大于 1 的参数重新做 Xavier 均匀初始化，覆盖各子层自己的初始化。

    === "English"

        Without custom encoder/decoder, one encoder layer and one decoder layer are built
        with the same hyper-parameters, cloned `num_*_layers` times, and each stack gets a
        final `LayerNorm`. After construction
        [`_reset_parameters`][annotated_nn.modules.transformer.Transformer._reset_parameters]
        re-initializes every parameter with more than one dimension with Xavier-uniform,
        overriding the sublayers' own initialization.

    Examples:
        >>> import torch, annotated_nn as nn
        >>> model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1,
        ...                        num_decoder_layers=1, dim_feedforward=16, batch_first=True)
        >>> model(torch.rand(2, 5, 8), torch.rand(2, 3, 8)).shape
        torch.Size([2, 3, 8])
    """

    def __init__(
        self,
        d_model: int = 512,
        nhead: int = 8,
        num_encoder_layers: int = 6,
        num_decoder_layers: int = 6,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Callable[[Tensor], Tensor] = F.relu,
        custom_encoder: Any | None = None,
        custom_decoder: Any | None = None,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        r"""Build encoder and decoder stacks, then re-initialize. / 构造编码器与解码器堆叠，再重新初始化。

        === "中文"

            子模块的登记顺序是 `encoder`、`decoder`，它决定了 `named_parameters` 与状态字典的顺序，
            也决定了 `_reset_parameters` 消耗随机数的顺序。
            1.5.1 → 2.13：新增 `batch_first`、`norm_first`、`bias`、`layer_norm_eps` 与 `device`/`dtype`。

        === "English"

            Submodules are registered as `encoder` then `decoder`; that fixes the order of
            `named_parameters`, of the state_dict and of the random draws in
            `_reset_parameters`. 1.5.1 → 2.13: `batch_first`, `norm_first`, `bias`,
            `layer_norm_eps` and `device`/`dtype` were added.

        Args:
            d_model: Model dimension. / 模型维度。
            nhead: Number of attention heads. / 注意力头数。
            num_encoder_layers: Encoder depth. / 编码器层数。
            num_decoder_layers: Decoder depth. / 解码器层数。
            dim_feedforward: Hidden size of the feed-forward block. / 前馈网络的隐藏维度。
            dropout: Dropout probability. / dropout 概率。
            activation: `"relu"`, `"gelu"` or a callable. / `"relu"`、`"gelu"` 或可调用对象。
            custom_encoder: Encoder to use instead of the default. / 替代默认编码器的模块。
            custom_decoder: Decoder to use instead of the default. / 替代默认解码器的模块。
            layer_norm_eps: LayerNorm epsilon. / LayerNorm 的 eps。
            batch_first: Whether inputs are `(N, S, E)`. / 输入是否为 `(N, S, E)`。
            norm_first: Pre-LN instead of Post-LN. / 使用 Pre-LN 而非 Post-LN。
            bias: Whether linear layers and LayerNorms have biases. / 线性层与 LayerNorm 是否带偏置。
            device: Device of the new parameters. / 新参数所在设备。
            dtype: Dtype of the new parameters. / 新参数的数据类型。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        # 中: torch 内部的 API 使用统计，与 Module.__init__ 里的调用一样，对行为没有影响。
        # EN: torch's internal API-usage logging, as in Module.__init__; no effect on behavior.
        torch._C._log_api_usage_once(f"torch.nn.modules.{self.__class__.__name__}")

        # 中: 自定义编码器原样保存（若是模块，经 `__setattr__` 登记为子模块）。默认编码器：先造一个
        # 中: 编码层，`TransformerEncoder` 再把它深拷贝 `num_encoder_layers` 份，末尾加一个
        # 中: `LayerNorm`；这个模板层本身不被登记。默认 `batch_first=False` 时，构造编码器就会发出
        # 中: “enable_nested_tensor is True, but ...” 警告。
        # EN: A custom encoder is stored as is (a module becomes a submodule via `__setattr__`).
        # EN: Default: build one encoder layer, which `TransformerEncoder` deep-copies
        # EN: `num_encoder_layers` times, plus a final `LayerNorm`; the template layer itself is
        # EN: not registered. With the default `batch_first=False`, building the encoder already
        # EN: warns "enable_nested_tensor is True, but ...".
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            # 中: 超参数按 `TransformerEncoderLayer` 自己的签名顺序按位置传入；`factory_kwargs`
            # 中: 让参数在创建时就位于 `device`、取 `dtype`。
            # EN: The hyper-parameters go positionally, in `TransformerEncoderLayer`'s own
            # EN: signature order; `factory_kwargs` creates the parameters on `device` with `dtype`.
            encoder_layer = TransformerEncoderLayer(
                d_model,
                nhead,
                dim_feedforward,
                dropout,
                activation,
                # 中: `layer_norm_eps` 与 `bias` 也会传到层里的两个 LayerNorm；`bias` 还决定线性层
                # 中: 与注意力有没有偏置。
                # EN: `layer_norm_eps` and `bias` also reach the layer's two LayerNorms; `bias` also
                # EN: decides whether the linear layers and the attention have biases.
                layer_norm_eps,
                batch_first,
                norm_first,
                bias,
                **factory_kwargs,
            )
            # 中: 末尾的 `LayerNorm` 作为 `norm` 交给堆叠，在最后一层之后只用一次；Pre-LN 时
            # 中: 残差主干正是靠它归一化。
            # EN: The final `LayerNorm` goes to the stack as `norm` and runs once after the last
            # EN: layer; under Pre-LN it is what normalizes the residual stream.
            encoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
            self.encoder = TransformerEncoder(encoder_layer, num_encoder_layers, encoder_norm)

        # 中: 解码器同理：模板层深拷贝 `num_decoder_layers` 份，末尾一个 `LayerNorm`。
        # 中: 编码器全部建好之后才建解码器，随机数按这个顺序消耗。
        # EN: Same for the decoder: the template layer is deep-copied `num_decoder_layers` times,
        # EN: with a final `LayerNorm`. It is built after the whole encoder, which fixes the order
        # EN: of the random draws.
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            # 中: 同样的超参数、同样的位置顺序；同一个 `activation` 对象也交给解码层。
            # EN: The same hyper-parameters in the same positional order; the same `activation`
            # EN: object goes to the decoder layer too.
            decoder_layer = TransformerDecoderLayer(
                d_model,
                nhead,
                dim_feedforward,
                dropout,
                activation,
                # 中: `norm_first` 在解码层里作用于全部三条分支。
                # EN: In the decoder layer, `norm_first` applies to all three branches.
                layer_norm_eps,
                batch_first,
                norm_first,
                bias,
                **factory_kwargs,
            )
            # 中: 与编码器一样，堆叠末尾有自己的 `LayerNorm`。
            # EN: Like the encoder, the stack ends with its own `LayerNorm`.
            decoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
            self.decoder = TransformerDecoder(decoder_layer, num_decoder_layers, decoder_norm)

        # 中: 两个堆叠都建好后统一重新初始化：所有矩阵（包括自定义编码器/解码器的，以及
        # 中: MultiheadAttention 打包成一个 `(3E, E)` 矩阵的 `in_proj_weight`）被覆盖，1 维参数不变。
        # EN: Re-initialize once both stacks exist: every matrix is overwritten (a custom
        # EN: encoder's/decoder's too, and MultiheadAttention's packed `(3E, E)` `in_proj_weight`
        # EN: as one matrix); 1-D parameters keep their values.
        self._reset_parameters()

        # 中: `d_model` 和 `batch_first` 供 `forward` 的形状检查使用；`nhead` 只是记录，没有地方读取。
        # EN: `d_model` and `batch_first` serve `forward`'s shape checks; `nhead` is only recorded,
        # EN: nothing reads it.
        self.d_model = d_model
        self.nhead = nhead

        self.batch_first = batch_first

    def forward(
        self,
        src: Tensor,
        tgt: Tensor,
        src_mask: Tensor | None = None,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        src_is_causal: bool | None = None,
        tgt_is_causal: bool | None = None,
        memory_is_causal: bool = False,
    ) -> Tensor:
        r"""Encode `src`, then decode `tgt` against the memory. / 编码 `src`，再以其结果为 memory 解码 `tgt`。

        === "中文"

            先检查批大小和特征维是否一致（抛 `RuntimeError`），然后依次调用编码器和解码器。

        === "English"

            Checks that batch sizes and feature sizes agree (raising `RuntimeError`), then
            runs the encoder and the decoder.

        Args:
            src: Source sequence. / 源序列。
            tgt: Target sequence. / 目标序列。
            src_mask: Encoder self-attention mask. / 编码器自注意力掩码。
            tgt_mask: Decoder self-attention mask. / 解码器自注意力掩码。
            memory_mask: Cross-attention mask. / 交叉注意力掩码。
            src_key_padding_mask: Padding mask of `src`. / `src` 的填充掩码。
            tgt_key_padding_mask: Padding mask of `tgt`. / `tgt` 的填充掩码。
            memory_key_padding_mask: Padding mask of the memory. / memory 的填充掩码。
            src_is_causal: Hint that `src_mask` is causal (`None`: detect). / 提示 `src_mask` 为因果掩码（`None` 表示自动检测）。
            tgt_is_causal: Hint that `tgt_mask` is causal (`None`: detect). / 提示 `tgt_mask` 为因果掩码（`None` 表示自动检测）。
            memory_is_causal: Hint that `memory_mask` is causal. / 提示 `memory_mask` 为因果掩码。

        Returns:
            Decoder output shaped like `tgt`. / 与 `tgt` 同形状的解码器输出。

        Raises:
            RuntimeError: Batch or feature sizes disagree. / 批大小或特征维不一致。
        """
        # 中: 批大小只在 `src` 是 3 维时检查（`is_batched` 只看 `src`）；无批次输入只做下面的
        # 中: 特征维检查。报错文字与 torch 相同。
        # EN: Batch sizes are compared only when `src` is 3-D (`is_batched` looks at `src` alone);
        # EN: unbatched input gets only the feature check below. Messages match torch's.
        is_batched = src.dim() == 3
        if not self.batch_first and src.size(1) != tgt.size(1) and is_batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        elif self.batch_first and src.size(0) != tgt.size(0) and is_batched:
            raise RuntimeError("the batch number of src and tgt must be equal")

        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")

        # 中: `src_is_causal=None` 时由编码器自己检测 `src_mask` 是否为因果掩码。得到的 `memory` 是
        # 中: 解码器交叉注意力的 key/value；它的填充掩码不会自动沿用 `src_key_padding_mask`，
        # 中: 需要用户通过 `memory_key_padding_mask` 显式传入。
        # EN: With `src_is_causal=None` the encoder detects a causal `src_mask` itself. `memory` is
        # EN: the key/value of the decoder's cross-attention; its padding mask is not taken from
        # EN: `src_key_padding_mask` automatically: pass `memory_key_padding_mask` explicitly.
        memory = self.encoder(
            src,
            mask=src_mask,
            src_key_padding_mask=src_key_padding_mask,
            is_causal=src_is_causal,
        )
        # 中: 解码器：对 `tgt` 做自注意力（`tgt_is_causal=None` 时检测 `tgt_mask`），再对 `memory`
        # 中: 做交叉注意力（`memory_mask`、`memory_key_padding_mask`）。
        # EN: The decoder: self-attention over `tgt` (detecting `tgt_mask` when
        # EN: `tgt_is_causal=None`), then cross-attention over `memory` (`memory_mask`,
        # EN: `memory_key_padding_mask`).
        output = self.decoder(
            tgt,
            memory,
            tgt_mask=tgt_mask,
            memory_mask=memory_mask,
            tgt_key_padding_mask=tgt_key_padding_mask,
            memory_key_padding_mask=memory_key_padding_mask,
            # 中: 两个提示：`tgt_is_causal` 为 None 时由解码器检测；`memory_is_causal` 原样使用。
            # EN: Two hints: `tgt_is_causal` is detected by the decoder when None;
            # EN: `memory_is_causal` is used as given.
            tgt_is_causal=tgt_is_causal,
            memory_is_causal=memory_is_causal,
        )
        return output

    @staticmethod
    def generate_square_subsequent_mask(
        sz: int,
        device: torch.device | None = None,
        dtype: torch.dtype | None = None,
    ) -> Tensor:
        r"""Public access to the causal mask builder. / 构造因果掩码的公开入口。

        === "中文"

            与模块级函数 `_generate_square_subsequent_mask` 相同。

        === "English"

            Same as the module-level `_generate_square_subsequent_mask`.

        Args:
            sz: Sequence length. / 序列长度。
            device: Device of the mask. / 掩码所在设备。
            dtype: Dtype of the mask. / 掩码的数据类型。

        Returns:
            A `(sz, sz)` float mask. / 形状 `(sz, sz)` 的浮点掩码。
        """
        return _generate_square_subsequent_mask(sz, dtype=dtype, device=device)

    def _reset_parameters(self) -> None:
        r"""Xavier-uniform every parameter with more than one dimension. / 对所有维数大于 1 的参数做 Xavier 均匀初始化。

        === "中文"

            按 `parameters()` 的顺序进行，偏置和 LayerNorm 参数（一维）保持不变。

        === "English"

            Goes in `parameters()` order; biases and LayerNorm parameters (1D) are left alone.
        """
        # 中: `dim() > 1` 挑出权重矩阵；按 `parameters()` 顺序（编码器在前）抽随机数，
        # 中: 所以同一种子下与 torch 的结果逐位相同。
        # EN: `dim() > 1` picks the weight matrices; the draws follow `parameters()` order (encoder
        # EN: first), so one seed gives torch's values bit for bit.
        for p in self.parameters():
            if p.dim() > 1:
                xavier_uniform_(p)


class TransformerEncoder(Module):
    r"""A stack of N encoder layers (deep copies of one). / N 个编码层（同一层的深拷贝）的堆叠。

    === "中文"

        构造时还会判断能否在推理时用嵌套张量跳过填充（“稀疏快速路径”）：条件不满足而
        `enable_nested_tensor=True` 时，发出警告并把 `use_nested_tensor` 置为 `False`。
        `enable_nested_tensor` 记录用户的请求，`use_nested_tensor` 才是实际开关。

    === "English"

        The constructor also decides whether inference may use nested tensors to skip
        padding (the "sparsity fast path"): if a condition fails while
        `enable_nested_tensor=True`, it warns and sets `use_nested_tensor` to `False`.
        `enable_nested_tensor` records the request; `use_nested_tensor` is the actual switch.

    Examples:
        >>> import torch, annotated_nn as nn
        >>> layer = nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)
        >>> enc = nn.TransformerEncoder(layer, num_layers=2)
        >>> enc(torch.rand(2, 5, 8)).shape
        torch.Size([2, 5, 8])
    """

    __constants__ = ["norm"]

    def __init__(
        self,
        encoder_layer: "TransformerEncoderLayer",
        num_layers: int,
        norm: Module | None = None,
        enable_nested_tensor: bool = True,
        mask_check: bool = True,
    ) -> None:
        r"""Clone the layer and decide about nested tensors. / 复制编码层，并决定是否使用嵌套张量。

        === "中文"

            传入的 `encoder_layer` 本身不会被登记，登记的是它的 N 份深拷贝，所以之后修改
            `encoder_layer` 不影响编码器。警告的 `stacklevel=2` 指向构造编码器的用户代码。
            1.5.1 → 2.13：新增 `enable_nested_tensor` 和 `mask_check`。

        === "English"

            The given `encoder_layer` itself is not registered, only N deep copies, so later
            changes to `encoder_layer` do not reach the encoder. The warning's
            `stacklevel=2` points at the user code building the encoder.
            1.5.1 → 2.13: `enable_nested_tensor` and `mask_check` were added.

        Args:
            encoder_layer: The layer to clone. / 要复制的编码层。
            num_layers: Number of copies. / 复制份数。
            norm: Optional final normalization module. / 可选的末尾归一化模块。
            enable_nested_tensor: Allow the nested-tensor inference path. / 允许推理时走嵌套张量路径。
            mask_check: Check that padding masks are left-aligned before nesting. / 转嵌套张量前检查填充掩码是否左对齐。
        """
        super().__init__()
        # 中: torch 内部的 API 使用统计，与 Module.__init__ 里的调用一样，对行为没有影响。
        # EN: torch's internal API-usage logging, as in Module.__init__; no effect on behavior.
        torch._C._log_api_usage_once(f"torch.nn.modules.{self.__class__.__name__}")
        # 中: 登记的是 N 份深拷贝（初值相同、参数独立）。`enable_nested_tensor` 记录用户的请求，
        # 中: `use_nested_tensor` 是真正的开关，先取同一个值，下面可能被关掉。
        # EN: N deep copies are registered (same values, separate parameters).
        # EN: `enable_nested_tensor` records the request; `use_nested_tensor` is the actual switch,
        # EN: starting equal and possibly turned off below.
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check

        # 中: 按 torch 的顺序找出第一条阻止嵌套张量路径的原因，警告文字因此与 torch 相同。
        # 中: 这些是编码层融合内核的静态条件，在模板层上只查一次：编码器会先把输入转成嵌套张量
        # 中: 再交给各层，只有各层都能走融合内核时这样做才有意义。
        # EN: Find the first reason blocking the nested-tensor path, in torch's order, so the
        # EN: warning text matches. These are the encoder layer's static fused-kernel conditions,
        # EN: checked once on the template layer: the encoder converts its input to a nested tensor
        # EN: before the layers see it, which only pays off when the layers can run the fused
        # EN: kernel.
        # 中: torch 检查的是 torch.nn.TransformerEncoderLayer，这里检查本库的同名类；torch 的层
        # 中: 本来就进不了这里（上面的 `ModuleList` 拒绝登记 torch 模块），所以结果没有差别。
        # EN: torch tests for torch.nn.TransformerEncoderLayer, this library for its own class; a
        # EN: torch layer never gets this far (the `ModuleList` above refuses torch modules), so
        # EN: the outcome is the same.
        enc_layer = "encoder_layer"
        why_not_sparsity_fast_path = ""
        # 中: 与编码层自己的快速路径不同，这里还排除了 `norm_first=True`（编码层的内核本身接受
        # 中: `norm_first`）。`batch_first` 一条的文字缺一个空格，照 torch 原样保留。
        # EN: Unlike the layer's own fast path, this list also excludes `norm_first=True` (the
        # EN: layer's kernel itself takes `norm_first`). The `batch_first` text lacks a space;
        # EN: kept as torch has it.
        if not isinstance(encoder_layer, TransformerEncoderLayer):
            why_not_sparsity_fast_path = f"{enc_layer} was not TransformerEncoderLayer"
        elif encoder_layer.norm_first:
            why_not_sparsity_fast_path = f"{enc_layer}.norm_first was True"
        # 中: 默认的 `batch_first=False` 就会在这里失败，所以用默认参数建的编码器会以这条原因警告。
        # EN: The default `batch_first=False` fails here, so an encoder built with default
        # EN: arguments warns with this reason.
        elif not encoder_layer.self_attn.batch_first:
            why_not_sparsity_fast_path = (
                f"{enc_layer}.self_attn.batch_first was not True"
                + "(use batch_first for better inference performance)"
            )
        # 中: 其余条件与编码层 `forward` 里的静态条件相同：打包的 q/k/v 投影、有偏置、ReLU/GELU、
        # 中: eps 相等、偶数头数（pytorch/pytorch#83483 讨论过：masked softmax 不支持奇数头数）。
        # EN: The rest match the static conditions in the layer's `forward`: a packed q/k/v
        # EN: projection, biases, ReLU/GELU, equal eps values, an even head count (discussed in
        # EN: pytorch/pytorch#83483: masked softmax does not support an odd head count).
        elif not encoder_layer.self_attn._qkv_same_embed_dim:
            why_not_sparsity_fast_path = f"{enc_layer}.self_attn._qkv_same_embed_dim was not True"
        elif encoder_layer.self_attn.in_proj_bias is None:
            why_not_sparsity_fast_path = f"{enc_layer}.self_attn was passed bias=False"
        elif not encoder_layer.activation_relu_or_gelu:
            why_not_sparsity_fast_path = f"{enc_layer}.activation_relu_or_gelu was not True"
        # 中: 内核只收一个 eps，所以两个 LayerNorm 的 eps 必须相等（只有手动改过其中一个才会不等）。
        # EN: The kernel takes one eps, so both LayerNorms must agree (they differ only if one
        # EN: was changed by hand).
        elif encoder_layer.norm1.eps != encoder_layer.norm2.eps:
            why_not_sparsity_fast_path = (
                f"{enc_layer}.norm1.eps was not equal to {enc_layer}.norm2.eps"
            )
        elif encoder_layer.self_attn.num_heads % 2 == 1:
            why_not_sparsity_fast_path = f"{enc_layer}.self_attn.num_heads is odd"

        # 中: 只有请求了嵌套张量才警告，所以 `enable_nested_tensor=False` 可以消除这条警告；
        # 中: `stacklevel=2` 让警告指向构造编码器的那一行用户代码。
        # EN: It warns only when nesting was requested, so `enable_nested_tensor=False` silences
        # EN: it; `stacklevel=2` points the warning at the user's line that builds the encoder.
        if enable_nested_tensor and why_not_sparsity_fast_path:
            warnings.warn(
                f"enable_nested_tensor is True, but self.use_nested_tensor is False because {why_not_sparsity_fast_path}",
                stacklevel=2,
            )
            self.use_nested_tensor = False

    def forward(
        self,
        src: Tensor,
        mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        is_causal: bool | None = None,
    ) -> Tensor:
        r"""Run `src` through every layer, then the optional norm. / 让 `src` 依次经过每一层，再经过可选的归一化。

        === "中文"

            1. 把两个掩码规范成浮点掩码。
            2. 推理且条件全部满足（评估模式、三维输入、只有填充掩码且左对齐、无需梯度等）时，
               把输入按填充掩码转成嵌套张量，各层就不再计算填充位置。
            3. `is_causal=None` 时检测 `mask` 是否恰好是因果掩码。
            4. 逐层调用；若第 2 步转成了嵌套张量，再填回 0 得到普通张量，因此这条路径上
               填充位置的输出为 0（末尾 `norm` 之前）；最后应用 `norm`。

        === "English"

            1. Both masks are canonicalized to float masks.
            2. At inference, when every condition holds (eval mode, 3D input, only a
               left-aligned padding mask, no grad needed, ...), the input becomes a nested
               tensor following the padding mask, so the layers skip padded positions.
            3. With `is_causal=None`, detect whether `mask` is exactly the causal mask.
            4. Call each layer; if step 2 made a nested tensor, pad it back with 0 to an
               ordinary tensor, so on this path the padded positions come out as 0 (before
               the final `norm`); then apply `norm`.

        Args:
            src: Input sequence. / 输入序列。
            mask: Self-attention mask. / 自注意力掩码。
            src_key_padding_mask: `(N, S)` padding mask. / 形状 `(N, S)` 的填充掩码。
            is_causal: Hint that `mask` is causal; `None` means detect. / 提示 `mask` 为因果掩码；`None` 表示自动检测。

        Returns:
            Tensor shaped like `src`. / 与 `src` 同形状的张量。
        """
        # 中: 第 1 步：两个掩码都变成 `src` 的 dtype 的浮点掩码（布尔 True → `-inf`；其他 dtype
        # 中: 抛 AssertionError）。填充掩码先处理，并与 `mask` 的原始 dtype 比较：布尔与浮点混用
        # 中: 会发出“已弃用”警告，两个都是布尔则不会；若先转换 `mask`，布尔对布尔也会被误判为不一致。
        # EN: Step 1: both masks become float masks of `src`'s dtype (bool True → `-inf`; other
        # EN: dtypes raise AssertionError). The padding mask goes first and is compared with
        # EN: `mask`'s original dtype: a bool/float mix warns (deprecated), a bool/bool pair does
        # EN: not; converting `mask` first would make every bool pair look mismatched.
        src_key_padding_mask = F._canonical_mask(
            mask=src_key_padding_mask,
            mask_name="src_key_padding_mask",
            other_type=F._none_or_dtype(mask),
            other_name="mask",
            target_type=src.dtype,
        )

        # 中: 然后是 `mask` 本身；这一对的 dtype 已比较过，所以 `check_other=False`。
        # EN: Then `mask` itself; the pair's dtypes were already compared, hence
        # EN: `check_other=False`.
        mask = F._canonical_mask(
            mask=mask,
            mask_name="mask",
            other_type=None,
            other_name="",
            target_type=src.dtype,
            check_other=False,
        )

        # 中: 默认不转换、各层照常拿到填充掩码。快速路径的条件只看第一层 `self.layers[0]`，
        # 中: 其余各层不检查（构造后单独修改某一层，这里察觉不到）。
        # EN: Defaults: no conversion, and the layers get the padding mask as usual. The
        # EN: fast-path conditions look at `self.layers[0]` only; the other layers are not checked
        # EN: (a layer changed after construction goes unnoticed here).
        output = src
        convert_to_nested = False
        first_layer = self.layers[0]
        src_key_padding_mask_for_layers = src_key_padding_mask
        why_not_sparsity_fast_path = ""
        str_first_layer = "self.layers[0]"
        batch_first = first_layer.self_attn.batch_first
        is_fastpath_enabled = torch.backends.mha.get_fastpath_enabled()
        # 中: 旧版本 pickle 出来的对象可能没有 mask_check，默认按 True 处理。
        # EN: Objects unpickled from older versions may lack mask_check; it defaults to True.
        do_mask_check = getattr(self, "mask_check", True)

        # 中: 第 2 步：嵌套张量（“稀疏”）路径的运行时条件，第一条不满足的原因生效，文字与 torch
        # 中: 相同：全局开关 `torch.backends.mha`、构造时的结论（旧 pickle 可能没有该属性）、
        # 中: 评估模式、3 维有批次输入、必须有填充掩码（没有它就没有可跳过的位置）。
        # EN: Step 2: the run-time conditions of the nested-tensor ("sparsity") path; the first
        # EN: failing reason wins, worded as torch's: the global `torch.backends.mha` switch, the
        # EN: verdict from construction (old pickles may lack it), eval mode, batched 3-D input,
        # EN: and a padding mask (without one there is nothing to skip).
        if not is_fastpath_enabled:
            why_not_sparsity_fast_path = "torch.backends.mha.get_fastpath_enabled() was not True"
        elif not hasattr(self, "use_nested_tensor"):
            why_not_sparsity_fast_path = "use_nested_tensor attribute not present"
        elif not self.use_nested_tensor:
            why_not_sparsity_fast_path = "self.use_nested_tensor (set in init) was not True"
        # 中: 训练模式只看第一层；输入必须是 3 维有批次的。
        # EN: Training mode is read from the first layer only; the input must be batched 3-D.
        elif first_layer.training:
            why_not_sparsity_fast_path = f"{str_first_layer} was in training mode"
        elif src.dim() != 3:
            why_not_sparsity_fast_path = (
                f"input not batched; expected src.dim() of 3 but got {src.dim()}"
            )
        elif src_key_padding_mask is None:
            why_not_sparsity_fast_path = "src_key_padding_mask was None"
        # 中: 嵌套张量只保留每行开头的 k 个位置（k 为有效位置数），所以填充必须全部在右侧；
        # 中: 否则结果是错的。左对齐检查在 torch.compile/export 中会出问题，torch 因此在编译时
        # 中: 直接放弃这条路径（除非 `mask_check=False`，那样就由用户保证左对齐）。
        # EN: The nested tensor keeps each row's first k positions (k = its valid count), so all
        # EN: padding must sit on the right, or the result is wrong. The left-alignment test
        # EN: breaks under torch.compile/export, so torch gives up the path when compiling
        # EN: (unless `mask_check=False`, which leaves alignment to the user).
        elif do_mask_check and torch.compiler.is_compiling():
            why_not_sparsity_fast_path = "mask_check enabled with torch.compile or torch.export"
        elif do_mask_check and not torch._nested_tensor_from_mask_left_aligned(
            src, src_key_padding_mask.logical_not()
        ):
            why_not_sparsity_fast_path = (
                "mask_check enabled, and src and src_key_padding_mask was not left aligned"
            )
        # 中: 输入已经是嵌套张量、同时给了注意力掩码（嵌套路径只处理填充），或开着 autocast，
        # 中: 都不走这条路径。
        # EN: An input that is already nested, an attention mask next to the padding mask (the
        # EN: nested path handles padding only), or autocast also rule the path out.
        elif output.is_nested:
            why_not_sparsity_fast_path = "NestedTensor input is not supported"
        elif mask is not None:
            why_not_sparsity_fast_path = "src_key_padding_mask and mask were both supplied"
        elif torch.is_autocast_enabled():
            why_not_sparsity_fast_path = "autocast is enabled"

        # 中: 再看张量本身：`src` 与第一层的 12 个参数，先是注意力的四个（打包的 qkv 权重与偏置、
        # 中: 输出投影）……
        # EN: Then the tensors themselves: `src` and the first layer's 12 parameters, first the
        # EN: attention's four (packed qkv weight and bias, output projection) ...
        if not why_not_sparsity_fast_path:
            tensor_args = (
                src,
                first_layer.self_attn.in_proj_weight,
                first_layer.self_attn.in_proj_bias,
                first_layer.self_attn.out_proj.weight,
                first_layer.self_attn.out_proj.bias,
                # 中: ……再是两个 LayerNorm……
                # EN: ... then both LayerNorms ...
                first_layer.norm1.weight,
                first_layer.norm1.bias,
                first_layer.norm2.weight,
                first_layer.norm2.bias,
                # 中: ……最后是前馈网络的两个线性层；顺序同内核的参数。
                # EN: ... and last the feed-forward's two linear layers, in the kernel's argument
                # EN: order.
                first_layer.linear1.weight,
                first_layer.linear1.bias,
                first_layer.linear2.weight,
                first_layer.linear2.bias,
            )
            # 中: 受支持的设备；privateuse1 是给树外后端预留的位置，名字默认为 "privateuseone"，
            # 中: 可用 `rename_privateuse1_backend` 改名，所以这里读当前名字。
            # EN: Supported devices; privateuse1 is the slot for an out-of-tree backend, named
            # EN: "privateuseone" unless renamed by `rename_privateuse1_backend`, hence the lookup.
            _supported_device_type = [
                "cpu",
                "cuda",
                "xpu",
                torch.utils.backend_registration._privateuse1_backend_name,
            ]
            # 中: 不能有 `__torch_function__` 重载（张量子类或活动的模式要看到普通运算）；这里只查
            # 中: `src` 的设备（编码层自己会检查全部张量）。
            # EN: No `__torch_function__` override (a tensor subclass or an active mode must see
            # EN: ordinary ops); only `src`'s device is checked here (the layer checks every
            # EN: tensor).
            if torch.overrides.has_torch_function(tensor_args):
                why_not_sparsity_fast_path = "some Tensor argument has_torch_function"
            elif src.device.type not in _supported_device_type:
                why_not_sparsity_fast_path = (
                    f"src device is neither one of {_supported_device_type}"
                )
            # 中: 不需要自动求导：融合内核没有实现导数。
            # EN: No autograd needed: the fused kernel has no derivative.
            elif torch.is_grad_enabled() and any(x.requires_grad for x in tensor_args):
                why_not_sparsity_fast_path = (
                    "grad is enabled and at least one of query or the "
                    "input/output projection weights or biases requires_grad"
                )

            if (not why_not_sparsity_fast_path) and (src_key_padding_mask is not None):
                # 中: 掩码里 True 表示“填充”，嵌套张量要的是“有效”位置，所以取反。对齐已在上面
                # 中: 检查过（或被有意跳过），故 `mask_check=False`；之后各层不再拿填充掩码，
                # 中: 长度信息已经在嵌套张量里。
                # EN: True in the mask means padding; the nested tensor wants valid positions,
                # EN: hence the negation. Alignment was checked above (or skipped on purpose), hence
                # EN: `mask_check=False`; the layers then get no padding mask, since the nested
                # EN: tensor carries the lengths.
                convert_to_nested = True
                output = torch._nested_tensor_from_mask(
                    output, src_key_padding_mask.logical_not(), mask_check=False
                )
                src_key_padding_mask_for_layers = None

        # 中: 第 3 步：`is_causal=None` 时把 `mask` 与长度为 `seq_len` 的因果掩码比较（用的是原始
        # 中: `src`，所以即使走了嵌套路径也有长度）；结果作为提示传给每一层。
        # EN: Step 3: with `is_causal=None`, compare `mask` with a causal mask of length `seq_len`
        # EN: (taken from the original `src`, so known even on the nested path); the result goes
        # EN: to every layer as a hint.
        seq_len = _get_seq_len(src, batch_first)
        is_causal = _detect_is_causal_mask(mask, is_causal, seq_len)

        # 中: 第 4 步：每层拿到相同的掩码和提示；嵌套路径上各层收到的是嵌套张量。
        # EN: Step 4: every layer gets the same masks and hint; on the nested path the layers
        # EN: receive the nested tensor.
        for mod in self.layers:
            output = mod(
                output,
                src_mask=mask,
                is_causal=is_causal,
                src_key_padding_mask=src_key_padding_mask_for_layers,
            )

        # 中: 填回普通张量，填充位置为 0。传入 `src.size()` 是因为嵌套张量只到最长那一行：
        # 中: 若所有行末尾都是填充，不给尺寸会得到更短的序列。
        # EN: Pad back to an ordinary tensor with 0 at padded positions. `src.size()` is passed
        # EN: because the nested tensor only spans the longest row: if every row ends in padding,
        # EN: padding without a size would return a shorter sequence.
        if convert_to_nested:
            output = output.to_padded_tensor(0.0, src.size())

        # 中: 末尾的 norm 在填回之后执行，于是填充位置变成 norm(0)（对 LayerNorm 就是它的偏置）。
        # EN: The final norm runs after padding back, so padded positions become norm(0) (for a
        # EN: LayerNorm: its bias).
        if self.norm is not None:
            output = self.norm(output)

        return output


class TransformerDecoder(Module):
    r"""A stack of N decoder layers (deep copies of one). / N 个解码层（同一层的深拷贝）的堆叠。

    === "中文"

        与 `TransformerEncoder` 相同的复制方式，但没有嵌套张量路径。

    === "English"

        Cloned like `TransformerEncoder`, but without a nested-tensor path.
    """

    __constants__ = ["norm"]

    def __init__(
        self,
        decoder_layer: "TransformerDecoderLayer",
        num_layers: int,
        norm: Module | None = None,
    ) -> None:
        r"""Clone the layer N times. / 把解码层复制 N 份。

        === "中文"

            传入的层本身不被登记，只登记它的深拷贝。

        === "English"

            The given layer itself is not registered, only its deep copies.

        Args:
            decoder_layer: The layer to clone. / 要复制的解码层。
            num_layers: Number of copies. / 复制份数。
            norm: Optional final normalization module. / 可选的末尾归一化模块。
        """
        super().__init__()
        # 中: torch 内部的 API 使用统计，与 Module.__init__ 里的调用一样，对行为没有影响。
        # EN: torch's internal API-usage logging, as in Module.__init__; no effect on behavior.
        torch._C._log_api_usage_once(f"torch.nn.modules.{self.__class__.__name__}")
        # 中: 与编码器不同，这里没有嵌套张量的开关要决定：解码器没有快速路径。
        # EN: Unlike the encoder there is no nested-tensor switch to decide: the decoder has no
        # EN: fast path.
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        tgt_is_causal: bool | None = None,
        memory_is_causal: bool = False,
    ) -> Tensor:
        r"""Run `tgt` through every layer with `memory`, then the optional norm. / 让 `tgt` 结合 `memory` 依次经过每层，再经过可选的归一化。

        === "中文"

            `tgt_is_causal=None` 时检测 `tgt_mask` 是否为因果掩码。

        === "English"

            With `tgt_is_causal=None`, detect whether `tgt_mask` is the causal mask.

        Args:
            tgt: Target sequence. / 目标序列。
            memory: Encoder output. / 编码器输出。
            tgt_mask: Self-attention mask. / 自注意力掩码。
            memory_mask: Cross-attention mask. / 交叉注意力掩码。
            tgt_key_padding_mask: Padding mask of `tgt`. / `tgt` 的填充掩码。
            memory_key_padding_mask: Padding mask of `memory`. / `memory` 的填充掩码。
            tgt_is_causal: Hint that `tgt_mask` is causal (`None`: detect). / 提示 `tgt_mask` 为因果掩码（`None` 表示检测）。
            memory_is_causal: Hint that `memory_mask` is causal. / 提示 `memory_mask` 为因果掩码。

        Returns:
            Tensor shaped like `tgt`. / 与 `tgt` 同形状的张量。
        """
        # 中: 只对 `tgt_mask` 做因果检测（批维位置取自第一层的 `batch_first`）；
        # 中: `memory_is_causal` 原样传下去，默认 False。
        # EN: Only `tgt_mask` is checked for causality (the batch position comes from the first
        # EN: layer's `batch_first`); `memory_is_causal` is passed through as given, False by
        # EN: default.
        output = tgt

        seq_len = _get_seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)

        # 中: 每层都拿同一个 `memory`（通常是编码器的最终输出）和同一组掩码。
        # EN: Every layer gets the same `memory` (usually the encoder's final output) and the
        # EN: same masks.
        for mod in self.layers:
            output = mod(
                output,
                memory,
                tgt_mask=tgt_mask,
                memory_mask=memory_mask,
                tgt_key_padding_mask=tgt_key_padding_mask,
                memory_key_padding_mask=memory_key_padding_mask,
                # 中: 各层只接受 bool 提示、自己不做检测，所以检测在上面由堆叠做一次。
                # EN: The layers take a plain bool hint and detect nothing themselves, so the stack
                # EN: detects once, above.
                tgt_is_causal=tgt_is_causal,
                memory_is_causal=memory_is_causal,
            )

        # 中: 可选的末尾归一化（`nn.Transformer` 默认给的是 `LayerNorm`）。
        # EN: The optional final normalization (`nn.Transformer` supplies a `LayerNorm`).
        if self.norm is not None:
            output = self.norm(output)

        return output


class TransformerEncoderLayer(Module):
    r"""One encoder layer: self-attention plus feed-forward, each with residual and LayerNorm. / 一个编码层：自注意力与前馈网络，各带残差与 LayerNorm。

    === "中文"

        Post-LN（默认）：`x = norm1(x + sa(x))`，`x = norm2(x + ff(x))`；
        Pre-LN（`norm_first=True`）：`x = x + sa(norm1(x))`，`x = x + ff(norm2(x))`。
        子模块登记顺序 `self_attn, linear1, dropout, linear2, norm1, norm2, dropout1, dropout2`
        决定了状态字典的键顺序。`activation` 可以是字符串（旧接口）或任意可调用对象；
        `activation_relu_or_gelu`（0/1/2）记录它是不是 ReLU/GELU，供融合内核使用。

    === "English"

        Post-LN (default): `x = norm1(x + sa(x))`, `x = norm2(x + ff(x))`;
        Pre-LN (`norm_first=True`): `x = x + sa(norm1(x))`, `x = x + ff(norm2(x))`.
        The registration order `self_attn, linear1, dropout, linear2, norm1, norm2,
        dropout1, dropout2` fixes the state_dict key order. `activation` may be a string
        (legacy) or any callable; `activation_relu_or_gelu` (0/1/2) records whether it is
        ReLU/GELU, for the fused kernel.

    Examples:
        >>> import torch, annotated_nn as nn
        >>> layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16)
        >>> layer(torch.rand(5, 3, 8)).shape
        torch.Size([5, 3, 8])
    """

    __constants__ = ["norm_first"]

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Callable[[Tensor], Tensor] = F.relu,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        r"""Build the attention, feed-forward, norm and dropout submodules. / 构造注意力、前馈、归一化与 dropout 子模块。

        === "中文"

            子模块按上面的顺序创建，随机初始化也按这个顺序消耗随机数，所以同一种子下与 torch
            逐位相同。字符串激活只接受 `"relu"`/`"gelu"`，否则抛 `RuntimeError`。
            1.5.1 → 2.13：`activation` 可为可调用对象，新增 `layer_norm_eps`、`batch_first`、
            `norm_first`、`bias` 和 `device`/`dtype`。

        === "English"

            Submodules are created in the order above, and their random initialization
            draws in that order, so the same seed gives torch's bit-identical weights. A
            string activation must be `"relu"` or `"gelu"`, otherwise `RuntimeError`.
            1.5.1 → 2.13: `activation` may be a callable; `layer_norm_eps`, `batch_first`,
            `norm_first`, `bias` and `device`/`dtype` were added.

        Args:
            d_model: Model dimension. / 模型维度。
            nhead: Number of attention heads. / 注意力头数。
            dim_feedforward: Hidden size of the feed-forward block. / 前馈网络的隐藏维度。
            dropout: Dropout probability. / dropout 概率。
            activation: `"relu"`, `"gelu"` or a callable. / `"relu"`、`"gelu"` 或可调用对象。
            layer_norm_eps: LayerNorm epsilon. / LayerNorm 的 eps。
            batch_first: Whether inputs are `(N, S, E)`. / 输入是否为 `(N, S, E)`。
            norm_first: Pre-LN instead of Post-LN. / 使用 Pre-LN 而非 Post-LN。
            bias: Whether linear layers and LayerNorms have biases. / 线性层与 LayerNorm 是否带偏置。
            device: Device of the new parameters. / 新参数所在设备。
            dtype: Dtype of the new parameters. / 新参数的数据类型。

        Raises:
            RuntimeError: Unknown activation string. / 未知的激活函数字符串。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        # 中: 自注意力最先登记。`bias=False` 时 `in_proj_bias` 为 None，这也会关掉快速路径
        # 中: （内核的签名要求每个偏置都是张量）。
        # EN: Self-attention is registered first. With `bias=False`, `in_proj_bias` is None, which
        # EN: also rules out the fast path (the kernel's signature takes every bias as a tensor).
        self.self_attn = MultiheadAttention(
            d_model,
            nhead,
            dropout=dropout,
            bias=bias,
            batch_first=batch_first,
            **factory_kwargs,
        )
        # 中: 前馈网络 `d_model → dim_feedforward → d_model`。`dropout` 用在激活之后、`linear2`
        # 中: 之前，与 `linear2` 之后的 `dropout2` 是两个不同的模块。
        # EN: Feed-forward `d_model → dim_feedforward → d_model`. `dropout` acts after the
        # EN: activation, before `linear2`; it is a different module from `dropout2` after
        # EN: `linear2`.
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory_kwargs)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory_kwargs)

        # 中: 两个 LayerNorm 的 eps 相同；融合内核只接收 `norm1.eps` 一个值。
        # 中: `dropout1`/`dropout2` 分别作用在两条残差分支的输出上。
        # EN: Both LayerNorms share one eps; the fused kernel takes only `norm1.eps`.
        # EN: `dropout1`/`dropout2` act on the outputs of the two residual branches.
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)

        # 中: 旧接口的字符串换成 `F.relu`/`F.gelu`，其他字符串抛 RuntimeError。
        # EN: A legacy string becomes `F.relu`/`F.gelu`; any other string raises RuntimeError.
        if isinstance(activation, str):
            activation = _get_activation_fn(activation)

        # 中: 融合内核只认识 ReLU（1）和 GELU（2），0 表示其他。这个值只在构造时算一次：之后给
        # 中: `self.activation` 重新赋值不会更新它，快速路径会继续用旧的激活；`GELU(approximate="tanh")`
        # 中: 也记为 2，但内核算的是精确 GELU。
        # EN: The fused kernel knows only ReLU (1) and GELU (2); 0 means anything else. It is
        # EN: computed once, here: reassigning `self.activation` later leaves it stale and the fast
        # EN: path keeps the old activation; `GELU(approximate="tanh")` also counts as 2, but the
        # EN: kernel computes exact GELU.
        # DIFF(torch 2.13):
        # 中: torch 检查的是 torch.nn.ReLU/GELU，这里检查本库的类，所以传入 torch.nn.ReLU() 得到 0。
        # EN: torch tests torch.nn.ReLU/GELU, this library its own classes, so torch.nn.ReLU()
        # EN: gives 0.
        if activation is F.relu or isinstance(activation, ReLU):
            self.activation_relu_or_gelu = 1
        elif activation is F.gelu or isinstance(activation, GELU):
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
        # 中: 最后赋值：模块形式的激活（如 `ReLU()`）成为最后一个子模块，排在 `dropout2` 之后；
        # 中: 函数只是普通属性。
        # EN: Assigned last: an activation module (e.g. `ReLU()`) becomes the last child, after
        # EN: `dropout2`; a function stays a plain attribute.
        self.activation = activation

    def __setstate__(self, state):
        r"""Unpickle, defaulting `activation` to `F.relu` for old pickles. / 反序列化，为旧 pickle 补上默认激活 `F.relu`。

        === "中文"

            早期版本的编码层没有 `activation` 属性（固定为 ReLU）。

        === "English"

            Early encoder layers had no `activation` attribute (ReLU was fixed).

        Args:
            state: The pickled `__dict__`. / 被序列化的 `__dict__`。
        """
        super().__setstate__(state)
        if not hasattr(self, "activation"):
            self.activation = F.relu

    def forward(
        self,
        src: Tensor,
        src_mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        is_causal: bool = False,
    ) -> Tensor:
        r"""Apply self-attention and feed-forward with residuals. / 应用带残差的自注意力和前馈网络。

        === "中文"

            先规范化掩码，再检查融合内核的条件（与 torch 逐条相同，包括“模块上挂了前向钩子
            就不走融合内核”，以保证钩子能被调用）；条件满足时调用
            `torch._transformer_encoder_layer_fwd`，否则按 `norm_first` 组合 `_sa_block` 和 `_ff_block`。

        === "English"

            Masks are canonicalized first, then the fused-kernel conditions are checked
            (one by one as in torch, including "no fused kernel when forward hooks are
            attached", so that hooks still run); if they hold,
            `torch._transformer_encoder_layer_fwd` is called, otherwise `_sa_block` and
            `_ff_block` are combined according to `norm_first`.

        Args:
            src: Input sequence. / 输入序列。
            src_mask: Self-attention mask. / 自注意力掩码。
            src_key_padding_mask: Padding mask. / 填充掩码。
            is_causal: Hint that `src_mask` is causal. / 提示 `src_mask` 为因果掩码。

        Returns:
            Tensor shaped like `src`. / 与 `src` 同形状的张量。
        """
        # 中: 与 `TransformerEncoder.forward` 第 1 步相同：先规范填充掩码（与 `src_mask` 的原始
        # 中: dtype 比较），再规范 `src_mask`，两者都成为 `src` 的 dtype 的浮点掩码。
        # EN: As in step 1 of `TransformerEncoder.forward`: the padding mask first (compared with
        # EN: `src_mask`'s original dtype), then `src_mask`; both become float masks of `src`'s
        # EN: dtype.
        src_key_padding_mask = F._canonical_mask(
            mask=src_key_padding_mask,
            mask_name="src_key_padding_mask",
            other_type=F._none_or_dtype(src_mask),
            other_name="src_mask",
            target_type=src.dtype,
        )

        # 中: 两个掩码的 dtype 已比较过，这里 `check_other=False`。
        # EN: The pair's dtypes were already compared, hence `check_other=False`.
        src_mask = F._canonical_mask(
            mask=src_mask,
            mask_name="src_mask",
            other_type=None,
            other_name="",
            target_type=src.dtype,
            check_other=False,
        )

        # 中: `torch.backends.mha.set_fastpath_enabled(False)` 可全局关掉这类快速路径，
        # 中: 便于与普通路径对比结果。
        # EN: `torch.backends.mha.set_fastpath_enabled(False)` turns such fast paths off
        # EN: globally, handy for comparing against the ordinary path.
        is_fastpath_enabled = torch.backends.mha.get_fastpath_enabled()

        # 中: 融合内核的条件，第一条不满足的原因生效（文字与 torch 相同，包括 torch 原文的语病）：
        # 中: 全局开关、3 维有批次输入……
        # EN: The fused kernel's conditions; the first failing reason wins (worded as torch's,
        # EN: its grammar slips included): the global switch, batched 3-D input ...
        why_not_sparsity_fast_path = ""
        if not is_fastpath_enabled:
            why_not_sparsity_fast_path = "torch.backends.mha.get_fastpath_enabled() was not True"
        elif src.dim() != 3:
            why_not_sparsity_fast_path = (
                f"input not batched; expected src.dim() of 3 but got {src.dim()}"
            )
        # 中: ……评估模式（内核没有 dropout 参数，训练时的 dropout 无从实现）……
        # EN: ... eval mode (the kernel has no dropout argument, so training-time dropout is
        # EN: impossible there) ...
        elif self.training:
            why_not_sparsity_fast_path = "training is enabled"
        # 中: ……`batch_first` 布局、有 `in_proj_bias`、q/k/v 共用一个打包投影（内核只收一个
        # 中: `qkv_weight`）……
        # EN: ... the `batch_first` layout, an `in_proj_bias`, one packed q/k/v projection (the
        # EN: kernel takes a single `qkv_weight`) ...
        elif not self.self_attn.batch_first:
            why_not_sparsity_fast_path = "self_attn.batch_first was not True"
        elif self.self_attn.in_proj_bias is None:
            why_not_sparsity_fast_path = "self_attn was passed bias=False"
        elif not self.self_attn._qkv_same_embed_dim:
            why_not_sparsity_fast_path = "self_attn._qkv_same_embed_dim was not True"
        # 中: ……激活为 ReLU/GELU（构造时记下的编号）、两个 eps 相等（内核只收一个 eps）……
        # EN: ... a ReLU/GELU activation (the code recorded at construction), equal eps values
        # EN: (the kernel takes one eps) ...
        elif not self.activation_relu_or_gelu:
            why_not_sparsity_fast_path = "activation_relu_or_gelu was not True"
        elif self.norm1.eps != self.norm2.eps:
            why_not_sparsity_fast_path = "norm1.eps is not equal to norm2.eps"
        # 中: ……嵌套输入本身已表示了填充，不能再带掩码；奇数头数不被 masked softmax 支持
        # 中: （pytorch/pytorch#83483）；autocast 开启时也不走。
        # EN: ... a nested input already encodes its padding, so no mask may come with it; an
        # EN: odd head count is not supported by masked softmax (pytorch/pytorch#83483); autocast
        # EN: also rules it out.
        elif src.is_nested and (src_key_padding_mask is not None or src_mask is not None):
            why_not_sparsity_fast_path = "neither src_key_padding_mask nor src_mask are not supported with NestedTensor input"
        elif self.self_attn.num_heads % 2 == 1:
            why_not_sparsity_fast_path = "num_head is odd"
        elif torch.is_autocast_enabled():
            why_not_sparsity_fast_path = "autocast is enabled"
        # 中: 融合内核会绕过子模块的调用，于是子模块上的钩子（hook）不会触发；本层或任一子模块
        # 中: （`modules()` 包括自身）挂了前向钩子或前向预钩子，就不能走它。反向钩子和全局钩子都不在
        # 中: 检查之列：注册了全局钩子时仍走快速路径，钩子只看到本层，看不到它的子模块。
        # EN: The fused kernel bypasses submodule calls, so their hooks would not fire; a forward
        # EN: hook or forward pre-hook on this layer or any submodule (`modules()` includes self)
        # EN: blocks it. Backward hooks are not checked, and neither are global hooks: with one
        # EN: registered, the fast path still runs and the hook sees only this layer, not its
        # EN: submodules.
        elif any(
            len(getattr(m, "_forward_hooks", {})) + len(getattr(m, "_forward_pre_hooks", {}))
            for m in self.modules()
        ):
            why_not_sparsity_fast_path = "forward pre-/hooks are attached to the module"
        # 中: 再检查内核要读的 13 个张量：`src`，注意力的打包 qkv 权重与偏置、输出投影……
        # EN: Then the 13 tensors the kernel reads: `src`, the attention's packed qkv weight and
        # EN: bias, its output projection ...
        if not why_not_sparsity_fast_path:
            tensor_args = (
                src,
                self.self_attn.in_proj_weight,
                self.self_attn.in_proj_bias,
                self.self_attn.out_proj.weight,
                self.self_attn.out_proj.bias,
                # 中: ……两个 LayerNorm……
                # EN: ... both LayerNorms ...
                self.norm1.weight,
                self.norm1.bias,
                self.norm2.weight,
                self.norm2.bias,
                # 中: ……和前馈网络的两个线性层。
                # EN: ... and the feed-forward's two linear layers.
                self.linear1.weight,
                self.linear1.bias,
                self.linear2.weight,
                self.linear2.bias,
            )

            # 中: 与 `TransformerEncoder.forward` 相同的设备列表（privateuse1 按当前注册的名字）。
            # EN: The same device list as in `TransformerEncoder.forward` (privateuse1 by its
            # EN: currently registered name).
            _supported_device_type = [
                "cpu",
                "cuda",
                "xpu",
                torch.utils.backend_registration._privateuse1_backend_name,
            ]
            # 中: 没有 `__torch_function__` 重载（子类或模式），所有张量都在受支持的设备上。
            # EN: No `__torch_function__` override (subclass or mode), and every tensor on a
            # EN: supported device.
            if torch.overrides.has_torch_function(tensor_args):
                why_not_sparsity_fast_path = "some Tensor argument has_torch_function"
            elif not all((x.device.type in _supported_device_type) for x in tensor_args):
                why_not_sparsity_fast_path = (
                    f"some Tensor argument's device is neither one of {_supported_device_type}"
                )
            # 中: 不需要自动求导：融合内核没有实现导数（强行反向传播会报 “derivative ... is not
            # 中: implemented”）。
            # EN: No autograd needed: the fused kernel has no derivative (a forced backward pass
            # EN: fails with "derivative ... is not implemented").
            elif torch.is_grad_enabled() and any(x.requires_grad for x in tensor_args):
                why_not_sparsity_fast_path = (
                    "grad is enabled and at least one of query or the "
                    "input/output projection weights or biases requires_grad"
                )

            if not why_not_sparsity_fast_path:
                # 中: 把两个掩码合成内核要的一个：只有填充掩码时类型为 1（形状 `(N, S)`）；有
                # 中: `src_mask` 时类型为 2，扩展成 `(N, H, S, S)`（两者都有则相加）；都没有则为 None。
                # EN: Merge the masks into the kernel's single mask: padding only → type 1 (shape
                # EN: `(N, S)`); with `src_mask` → type 2, expanded to `(N, H, S, S)` (summed with
                # EN: the padding mask if both are given); neither → None.
                merged_mask, mask_type = self.self_attn.merge_masks(
                    src_mask, src_key_padding_mask, src
                )
                # 中: 一次调用完成整层；嵌套输入得到嵌套输出。先是输入、尺寸和注意力的打包权重。
                # EN: One call does the whole layer; a nested input gives a nested output. First
                # EN: the input, the sizes and the attention's packed weights.
                return torch._transformer_encoder_layer_fwd(
                    src,
                    self.self_attn.embed_dim,
                    self.self_attn.num_heads,
                    self.self_attn.in_proj_weight,
                    self.self_attn.in_proj_bias,
                    self.self_attn.out_proj.weight,
                    self.self_attn.out_proj.bias,
                    # 中: `activation_relu_or_gelu == 2` 就是内核的 `use_gelu`，`norm_first` 在内核里
                    # 中: 选 Pre-LN/Post-LN，eps 只传 `norm1.eps`。
                    # EN: `activation_relu_or_gelu == 2` is the kernel's `use_gelu`, `norm_first`
                    # EN: picks Pre-LN/Post-LN inside the kernel, and only `norm1.eps` is passed.
                    self.activation_relu_or_gelu == 2,
                    self.norm_first,
                    self.norm1.eps,
                    # 中: 其余参数按内核签名的顺序：两个 LayerNorm，再是前馈网络的两个线性层。
                    # EN: The rest in the kernel's signature order: both LayerNorms, then the
                    # EN: feed-forward's two linear layers.
                    self.norm1.weight,
                    self.norm1.bias,
                    self.norm2.weight,
                    self.norm2.bias,
                    self.linear1.weight,
                    self.linear1.bias,
                    self.linear2.weight,
                    self.linear2.bias,
                    # 中: 最后是合并后的掩码与它的类型（None、1 或 2）。
                    # EN: Last, the merged mask and its type (None, 1 or 2).
                    merged_mask,
                    mask_type,
                )

        # 中: 普通路径：Pre-LN 与 Post-LN 两种排列，见 arXiv:2002.04745 图 1。Pre-LN 只归一化分支的
        # 中: 输入，残差主干本身从不被归一化（末尾的 norm 由堆叠负责）。
        # EN: Ordinary path: Pre-LN versus Post-LN arrangement, see Fig. 1 of arXiv:2002.04745.
        # EN: Pre-LN normalizes only the branch input; the residual stream itself is never
        # EN: normalized (a final norm is the stack's business).
        x = src
        if self.norm_first:
            x = x + self._sa_block(
                self.norm1(x), src_mask, src_key_padding_mask, is_causal=is_causal
            )
            x = x + self._ff_block(self.norm2(x))
        else:
            # 中: Post-LN：每次残差相加之后再归一化。
            # EN: Post-LN: normalize after each residual sum.
            x = self.norm1(
                x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal=is_causal)
            )
            x = self.norm2(x + self._ff_block(x))

        return x

    def _sa_block(
        self,
        x: Tensor,
        attn_mask: Tensor | None,
        key_padding_mask: Tensor | None,
        is_causal: bool = False,
    ) -> Tensor:
        r"""Self-attention branch followed by `dropout1`. / 自注意力分支，之后接 `dropout1`。

        === "中文"

            `need_weights=False`，只取输出，不计算注意力权重。

        === "English"

            `need_weights=False`: only the output is taken, no attention weights computed.

        Args:
            x: Input of the branch. / 分支输入。
            attn_mask: Attention mask. / 注意力掩码。
            key_padding_mask: Padding mask. / 填充掩码。
            is_causal: Causal hint. / 因果提示。

        Returns:
            Branch output, same shape as `x`. / 分支输出，与 `x` 同形状。
        """
        # 中: 自注意力：query、key、value 都是 `x`。`need_weights=False` 时 MultiheadAttention 可以
        # 中: 用 `scaled_dot_product_attention`，第二个返回值为 None，所以取 `[0]`。
        # EN: Self-attention: query, key and value are all `x`. With `need_weights=False`,
        # EN: MultiheadAttention may use `scaled_dot_product_attention` and its second result is
        # EN: None, hence `[0]`.
        x = self.self_attn(
            x,
            x,
            x,
            # 中: 掩码已由 `forward` 规范成浮点掩码；`is_causal` 只是提示。
            # EN: The masks arrive canonicalized (float) from `forward`; `is_causal` is a hint.
            attn_mask=attn_mask,
            key_padding_mask=key_padding_mask,
            need_weights=False,
            is_causal=is_causal,
        )[0]
        return self.dropout1(x)

    def _ff_block(self, x: Tensor) -> Tensor:
        r"""Feed-forward branch: linear, activation, dropout, linear, dropout. / 前馈分支：线性、激活、dropout、线性、dropout。

        === "中文"

            维度先升到 `dim_feedforward` 再降回 `d_model`。

        === "English"

            The width goes up to `dim_feedforward` and back down to `d_model`.

        Args:
            x: Input of the branch. / 分支输入。

        Returns:
            Branch output, same shape as `x`. / 分支输出，与 `x` 同形状。
        """
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)


class TransformerDecoderLayer(Module):
    r"""One decoder layer: self-attention, cross-attention, feed-forward. / 一个解码层：自注意力、交叉注意力、前馈网络。

    === "中文"

        比编码层多一个 `multihead_attn`（query 来自解码器，key/value 来自 `memory`）和
        对应的 `norm3`、`dropout3`。没有融合内核路径。

    === "English"

        Compared with the encoder layer it adds `multihead_attn` (query from the decoder,
        key/value from `memory`) with its `norm3` and `dropout3`. There is no fused path.
    """

    __constants__ = ["norm_first"]

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Callable[[Tensor], Tensor] = F.relu,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        r"""Build both attentions, the feed-forward block, norms and dropouts. / 构造两个注意力、前馈网络、归一化与 dropout。

        === "中文"

            与编码层相同的参数与登记规则。
            1.5.1 → 2.13：新增参数同 `TransformerEncoderLayer`。

        === "English"

            Same arguments and registration rules as the encoder layer.
            1.5.1 → 2.13: the same new arguments as `TransformerEncoderLayer`.

        Args:
            d_model: Model dimension. / 模型维度。
            nhead: Number of attention heads. / 注意力头数。
            dim_feedforward: Hidden size of the feed-forward block. / 前馈网络的隐藏维度。
            dropout: Dropout probability. / dropout 概率。
            activation: `"relu"`, `"gelu"` or a callable. / `"relu"`、`"gelu"` 或可调用对象。
            layer_norm_eps: LayerNorm epsilon. / LayerNorm 的 eps。
            batch_first: Whether inputs are `(N, S, E)`. / 输入是否为 `(N, S, E)`。
            norm_first: Pre-LN instead of Post-LN. / 使用 Pre-LN 而非 Post-LN。
            bias: Whether linear layers and LayerNorms have biases. / 线性层与 LayerNorm 是否带偏置。
            device: Device of the new parameters. / 新参数所在设备。
            dtype: Dtype of the new parameters. / 新参数的数据类型。

        Raises:
            RuntimeError: Unknown activation string. / 未知的激活函数字符串。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        # 中: 两个注意力：`self_attn` 作用于目标序列自身，`multihead_attn` 以解码器状态为 query、
        # 中: 以 `memory` 为 key/value（交叉注意力）。二者先后登记，初始化也按这个顺序。
        # EN: Two attentions: `self_attn` over the target sequence itself, `multihead_attn` with
        # EN: the decoder state as query and `memory` as key/value (cross-attention). They are
        # EN: registered, and initialized, in this order.
        self.self_attn = MultiheadAttention(
            d_model,
            nhead,
            dropout=dropout,
            batch_first=batch_first,
            bias=bias,
            **factory_kwargs,
        )
        # 中: 没有传 `kdim`/`vdim`，所以 `memory` 的特征维也必须是 `d_model`。
        # EN: No `kdim`/`vdim` is passed, so `memory` must be `d_model` wide too.
        self.multihead_attn = MultiheadAttention(
            d_model,
            nhead,
            dropout=dropout,
            batch_first=batch_first,
            bias=bias,
            **factory_kwargs,
        )
        # 中: 前馈网络与编码层相同；三条残差分支各有自己的 LayerNorm 与 Dropout（编号 1/2/3）。
        # EN: The same feed-forward block as the encoder layer; each of the three residual
        # EN: branches has its own LayerNorm and Dropout (numbered 1/2/3).
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory_kwargs)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory_kwargs)

        # 中: `norm1`/`norm2`/`norm3` 依次属于自注意力、交叉注意力、前馈分支；它们没有参数
        # 中: 随机初始化（LayerNorm 初始为 1 和 0），所以不影响上面的随机数顺序。
        # EN: `norm1`/`norm2`/`norm3` belong to the self-attention, cross-attention and
        # EN: feed-forward branches; they draw no random numbers (LayerNorm starts at 1 and 0), so
        # EN: the random order above is unaffected.
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)

        # 中: 没有融合内核，所以也不记 `activation_relu_or_gelu`；字符串照样换成函数。
        # EN: No fused kernel, so no `activation_relu_or_gelu`; a string is still mapped to a
        # EN: function.
        if isinstance(activation, str):
            self.activation = _get_activation_fn(activation)
        else:
            self.activation = activation

    def __setstate__(self, state):
        r"""Unpickle, defaulting `activation` to `F.relu` for old pickles. / 反序列化，为旧 pickle 补上默认激活 `F.relu`。

        === "中文"

            与编码层不同，这里在恢复之前就往 `state` 里补键（torch 也是如此）。

        === "English"

            Unlike the encoder layer, the key is added to `state` before restoring (as in
            torch).

        Args:
            state: The pickled `__dict__`. / 被序列化的 `__dict__`。
        """
        if "activation" not in state:
            state["activation"] = F.relu
        super().__setstate__(state)

    def forward(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        tgt_is_causal: bool = False,
        memory_is_causal: bool = False,
    ) -> Tensor:
        r"""Apply self-attention, cross-attention and feed-forward with residuals. / 应用带残差的自注意力、交叉注意力与前馈网络。

        === "中文"

            按 `norm_first` 选择 Pre-LN 或 Post-LN 排列。

        === "English"

            Pre-LN or Post-LN arrangement according to `norm_first`.

        Args:
            tgt: Target sequence. / 目标序列。
            memory: Encoder output. / 编码器输出。
            tgt_mask: Self-attention mask. / 自注意力掩码。
            memory_mask: Cross-attention mask. / 交叉注意力掩码。
            tgt_key_padding_mask: Padding mask of `tgt`. / `tgt` 的填充掩码。
            memory_key_padding_mask: Padding mask of `memory`. / `memory` 的填充掩码。
            tgt_is_causal: Hint that `tgt_mask` is causal. / 提示 `tgt_mask` 为因果掩码。
            memory_is_causal: Hint that `memory_mask` is causal. / 提示 `memory_mask` 为因果掩码。

        Returns:
            Tensor shaped like `tgt`. / 与 `tgt` 同形状的张量。
        """
        # 中: Pre-LN：依次是自注意力、交叉注意力、前馈三条分支，各自先归一化分支输入。
        # 中: `memory` 不经过本层的任何 LayerNorm，原样作为 key/value。
        # EN: Pre-LN: self-attention, cross-attention and feed-forward in turn, each normalizing
        # EN: its branch input. `memory` goes through none of this layer's LayerNorms; it is used
        # EN: as key/value as is.
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            # 中: 交叉注意力分支：只有 query 一侧经过 `norm2`。
            # EN: The cross-attention branch: only the query side goes through `norm2`.
            x = x + self._mha_block(
                self.norm2(x),
                memory,
                memory_mask,
                memory_key_padding_mask,
                memory_is_causal,
            )
            # 中: 前馈分支，由 `norm3` 归一化输入。
            # EN: The feed-forward branch, its input normalized by `norm3`.
            x = x + self._ff_block(self.norm3(x))
        else:
            # 中: Post-LN：同样三条分支，每次残差相加之后归一化。
            # EN: Post-LN: the same three branches, normalizing after each residual sum.
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
            x = self.norm2(
                x
                + self._mha_block(x, memory, memory_mask, memory_key_padding_mask, memory_is_causal)
            )
            x = self.norm3(x + self._ff_block(x))

        return x

    def _sa_block(
        self,
        x: Tensor,
        attn_mask: Tensor | None,
        key_padding_mask: Tensor | None,
        is_causal: bool = False,
    ) -> Tensor:
        r"""Self-attention branch followed by `dropout1`. / 自注意力分支，之后接 `dropout1`。

        === "中文"

            与编码层的同名方法相同。

        === "English"

            Same as the encoder layer's method of the same name.

        Args:
            x: Input of the branch. / 分支输入。
            attn_mask: Attention mask. / 注意力掩码。
            key_padding_mask: Padding mask. / 填充掩码。
            is_causal: Causal hint. / 因果提示。

        Returns:
            Branch output. / 分支输出。
        """
        # 中: 与编码层相同：query、key、value 都是 `x`，不要注意力权重，只取输出 `[0]`。
        # EN: As in the encoder layer: query, key and value are all `x`; no attention weights,
        # EN: only the output `[0]`.
        x = self.self_attn(
            x,
            x,
            x,
            # 中: 解码层的 `forward` 不规范掩码，原样交给 MultiheadAttention，由它自己规范。
            # EN: The decoder layer's `forward` does not canonicalize the masks; they go to
            # EN: MultiheadAttention as given, which canonicalizes them itself.
            attn_mask=attn_mask,
            key_padding_mask=key_padding_mask,
            is_causal=is_causal,
            need_weights=False,
        )[0]
        return self.dropout1(x)

    def _mha_block(
        self,
        x: Tensor,
        mem: Tensor,
        attn_mask: Tensor | None,
        key_padding_mask: Tensor | None,
        is_causal: bool = False,
    ) -> Tensor:
        r"""Cross-attention branch over `mem`, followed by `dropout2`. / 针对 `mem` 的交叉注意力分支，之后接 `dropout2`。

        === "中文"

            query 是解码器状态，key 和 value 都是 `mem`。

        === "English"

            The query is the decoder state; key and value are both `mem`.

        Args:
            x: Decoder state. / 解码器状态。
            mem: Encoder output. / 编码器输出。
            attn_mask: Attention mask. / 注意力掩码。
            key_padding_mask: Padding mask of `mem`. / `mem` 的填充掩码。
            is_causal: Causal hint. / 因果提示。

        Returns:
            Branch output. / 分支输出。
        """
        # 中: 交叉注意力：query 为解码器状态 `x`，key 与 value 都是 `mem`；输出长度随 `x`，
        # 中: 2 维的 `attn_mask` 形状为 `(T, S)`（目标长 × 源长）。
        # EN: Cross-attention: the query is the decoder state `x`, key and value are both `mem`;
        # EN: the output length follows `x`, and a 2-D `attn_mask` is `(T, S)` (target × source
        # EN: length).
        x = self.multihead_attn(
            x,
            mem,
            mem,
            # 中: `key_padding_mask` 标记的是 `mem` 里的填充位置（通常与编码器输入的填充掩码相同）。
            # EN: `key_padding_mask` marks padding in `mem` (usually the encoder input's padding
            # EN: mask).
            attn_mask=attn_mask,
            key_padding_mask=key_padding_mask,
            is_causal=is_causal,
            need_weights=False,
        )[0]
        return self.dropout2(x)

    def _ff_block(self, x: Tensor) -> Tensor:
        r"""Feed-forward branch followed by `dropout3`. / 前馈分支，之后接 `dropout3`。

        === "中文"

            线性、激活、dropout、线性，再接 `dropout3`。

        === "English"

            Linear, activation, dropout, linear, then `dropout3`.

        Args:
            x: Input of the branch. / 分支输入。

        Returns:
            Branch output. / 分支输出。
        """
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout3(x)


def _get_clones(module, N):
    r"""N deep copies of `module` in a `ModuleList`. / 把 `module` 深拷贝 N 份放进 `ModuleList`。

    === "中文"

        深拷贝让每层拥有独立的参数张量，但初值与原层完全相同（不再消耗随机数）。

    === "English"

        Deep copies give every layer its own parameter tensors, with exactly the original
        values (no further random draws).

    Args:
        module: The module to copy. / 要复制的模块。
        N: Number of copies. / 份数。

    Returns:
        A `ModuleList` of the copies. / 装有这些拷贝的 `ModuleList`。
    """
    return ModuleList([copy.deepcopy(module) for i in range(N)])


def _get_activation_fn(activation: str) -> Callable[[Tensor], Tensor]:
    r"""Map `"relu"`/`"gelu"` to the functional. / 把 `"relu"`/`"gelu"` 映射到函数。

    === "中文"

        其他字符串抛出 `RuntimeError`。

    === "English"

        Any other string raises `RuntimeError`.

    Args:
        activation: The name. / 名称。

    Returns:
        `F.relu` or `F.gelu`. / `F.relu` 或 `F.gelu`。

    Raises:
        RuntimeError: Unknown name. / 未知名称。
    """
    if activation == "relu":
        return F.relu
    elif activation == "gelu":
        return F.gelu

    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


def _detect_is_causal_mask(
    mask: Tensor | None,
    is_causal: bool | None = None,
    size: int | None = None,
) -> bool:
    r"""Decide whether `mask` is the causal mask. / 判断 `mask` 是否为因果掩码。

    === "中文"

        `is_causal` 明确给出时直接采用；为 `None` 且有掩码时，生成同尺寸的因果掩码逐元素比较。
        torch 用 `==` 而不是 `torch.equal`，本意是让带批维的掩码可以广播，但比较之前要求尺寸
        完全相同，所以带批维（3 维）的掩码永远不会被判定为因果掩码。

    === "English"

        An explicit `is_causal` wins; when it is `None` and a mask is given, a causal mask
        of the same size is generated and compared elementwise. torch compares with `==`
        rather than `torch.equal` so that batched masks could broadcast, but the sizes must
        match exactly first, so a batched (3-D) mask is never detected as causal.

    Args:
        mask: The attention mask, or `None`. / 注意力掩码，或 `None`。
        is_causal: Explicit hint, or `None` to detect. / 明确的提示，或 `None` 表示检测。
        size: Sequence length, if known. / 已知时的序列长度。

    Returns:
        Whether to treat the mask as causal. / 是否按因果掩码处理。
    """
    # 中: 只有字面量 True 才算“是”，`1` 之类的真值不算（torch 的注释说这是为了避免 TorchScript
    # 中: 的类型细化）。明确的 False 或 True 不再检查掩码；torch 的文档警告，错误的 True 提示
    # 中: 可能让内核改用因果掩码而不是给定的掩码。
    # EN: Only the literal True counts; truthy values such as `1` do not (torch's comment says
    # EN: this prevents TorchScript type refinement). An explicit False or True skips the mask
    # EN: check; torch's docstring warns that a wrong True hint may make a kernel apply a causal
    # EN: mask instead of the given one.
    make_causal = is_causal is True

    # 中: 检测：`size` 已知时用它（调用方传入序列长度），否则用掩码的 `size(-2)`；生成的
    # 中: 比较掩码与 `mask` 同设备、同 dtype。
    # EN: Detection: use `size` when known (callers pass the sequence length), else the mask's
    # EN: `size(-2)`; the reference mask gets `mask`'s device and dtype.
    if is_causal is None and mask is not None:
        sz = size if size is not None else mask.size(-2)
        causal_comparison = _generate_square_subsequent_mask(
            sz, device=mask.device, dtype=mask.dtype
        )

        # 中: torch 的注释说用 `==` 而不用 `torch.equal` 是为了让带批维的掩码广播比较；但前面的
        # 中: 尺寸判断要求完全相同，带批维的掩码在这里就得到 False。
        # EN: torch's comment says `==` rather than `torch.equal` is there so that batched masks
        # EN: compare by broadcasting; but the size test first demands equal sizes, so a batched
        # EN: mask gets False here.
        if mask.size() == causal_comparison.size():
            make_causal = bool((mask == causal_comparison).all())
        else:
            make_causal = False

    return make_causal
