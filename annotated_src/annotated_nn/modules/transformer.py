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
    if src.is_nested:
        return None
    else:
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
        # 中: torch 内部的 API 使用统计钩子，与 Module.__init__ 里的调用一样，对行为没有影响。
        # EN: torch's internal API-usage logging, as in Module.__init__; it has no effect on behaviour.
        torch._C._log_api_usage_once(f"torch.nn.modules.{self.__class__.__name__}")

        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            encoder_layer = TransformerEncoderLayer(
                d_model,
                nhead,
                dim_feedforward,
                dropout,
                activation,
                layer_norm_eps,
                batch_first,
                norm_first,
                bias,
                **factory_kwargs,
            )
            encoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
            self.encoder = TransformerEncoder(encoder_layer, num_encoder_layers, encoder_norm)

        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            decoder_layer = TransformerDecoderLayer(
                d_model,
                nhead,
                dim_feedforward,
                dropout,
                activation,
                layer_norm_eps,
                batch_first,
                norm_first,
                bias,
                **factory_kwargs,
            )
            decoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
            self.decoder = TransformerDecoder(decoder_layer, num_decoder_layers, decoder_norm)

        self._reset_parameters()

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
        is_batched = src.dim() == 3
        if not self.batch_first and src.size(1) != tgt.size(1) and is_batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        elif self.batch_first and src.size(0) != tgt.size(0) and is_batched:
            raise RuntimeError("the batch number of src and tgt must be equal")

        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")

        memory = self.encoder(
            src,
            mask=src_mask,
            src_key_padding_mask=src_key_padding_mask,
            is_causal=src_is_causal,
        )
        output = self.decoder(
            tgt,
            memory,
            tgt_mask=tgt_mask,
            memory_mask=memory_mask,
            tgt_key_padding_mask=tgt_key_padding_mask,
            memory_key_padding_mask=memory_key_padding_mask,
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
        # 中: torch 内部的 API 使用统计钩子，与 Module.__init__ 里的调用一样，对行为没有影响。
        # EN: torch's internal API-usage logging, as in Module.__init__; it has no effect on behaviour.
        torch._C._log_api_usage_once(f"torch.nn.modules.{self.__class__.__name__}")
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check

        # 中: 按 torch 的顺序找出第一条阻止嵌套张量路径的原因，警告文字因此与 torch 相同。
        # EN: Find the first reason blocking the nested-tensor path, in torch's order, so the warning text matches.
        # 中: torch 检查的是 torch.nn.TransformerEncoderLayer；这里相应地检查本库的同名类。
        # EN: torch tests for torch.nn.TransformerEncoderLayer; the mirror tests for this library's class.
        enc_layer = "encoder_layer"
        why_not_sparsity_fast_path = ""
        if not isinstance(encoder_layer, TransformerEncoderLayer):
            why_not_sparsity_fast_path = f"{enc_layer} was not TransformerEncoderLayer"
        elif encoder_layer.norm_first:
            why_not_sparsity_fast_path = f"{enc_layer}.norm_first was True"
        elif not encoder_layer.self_attn.batch_first:
            why_not_sparsity_fast_path = (
                f"{enc_layer}.self_attn.batch_first was not True"
                + "(use batch_first for better inference performance)"
            )
        elif not encoder_layer.self_attn._qkv_same_embed_dim:
            why_not_sparsity_fast_path = f"{enc_layer}.self_attn._qkv_same_embed_dim was not True"
        elif encoder_layer.self_attn.in_proj_bias is None:
            why_not_sparsity_fast_path = f"{enc_layer}.self_attn was passed bias=False"
        elif not encoder_layer.activation_relu_or_gelu:
            why_not_sparsity_fast_path = f"{enc_layer}.activation_relu_or_gelu was not True"
        elif encoder_layer.norm1.eps != encoder_layer.norm2.eps:
            why_not_sparsity_fast_path = (
                f"{enc_layer}.norm1.eps was not equal to {enc_layer}.norm2.eps"
            )
        elif encoder_layer.self_attn.num_heads % 2 == 1:
            why_not_sparsity_fast_path = f"{enc_layer}.self_attn.num_heads is odd"

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
               把输入按填充掩码转成嵌套张量，各层就不再计算填充位置；最后再填回 0
               得到普通张量。因此这条路径上填充位置的输出为 0（末尾 `norm` 之前）。
            3. `is_causal=None` 时检测 `mask` 是否恰好是因果掩码。
            4. 逐层调用，最后应用 `norm`。

        === "English"

            1. Both masks are canonicalized to float masks.
            2. At inference, when every condition holds (eval mode, 3D input, only a
               left-aligned padding mask, no grad needed, ...), the input becomes a nested
               tensor following the padding mask, so the layers skip padded positions; it
               is padded back with 0 at the end. On this path the padded positions thus
               come out as 0 (before the final `norm`).
            3. With `is_causal=None`, detect whether `mask` is exactly the causal mask.
            4. Call each layer, then apply `norm`.

        Args:
            src: Input sequence. / 输入序列。
            mask: Self-attention mask. / 自注意力掩码。
            src_key_padding_mask: `(N, S)` padding mask. / 形状 `(N, S)` 的填充掩码。
            is_causal: Hint that `mask` is causal; `None` means detect. / 提示 `mask` 为因果掩码；`None` 表示自动检测。

        Returns:
            Tensor shaped like `src`. / 与 `src` 同形状的张量。
        """
        src_key_padding_mask = F._canonical_mask(
            mask=src_key_padding_mask,
            mask_name="src_key_padding_mask",
            other_type=F._none_or_dtype(mask),
            other_name="mask",
            target_type=src.dtype,
        )

        mask = F._canonical_mask(
            mask=mask,
            mask_name="mask",
            other_type=None,
            other_name="",
            target_type=src.dtype,
            check_other=False,
        )

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

        if not is_fastpath_enabled:
            why_not_sparsity_fast_path = "torch.backends.mha.get_fastpath_enabled() was not True"
        elif not hasattr(self, "use_nested_tensor"):
            why_not_sparsity_fast_path = "use_nested_tensor attribute not present"
        elif not self.use_nested_tensor:
            why_not_sparsity_fast_path = "self.use_nested_tensor (set in init) was not True"
        elif first_layer.training:
            why_not_sparsity_fast_path = f"{str_first_layer} was in training mode"
        elif src.dim() != 3:
            why_not_sparsity_fast_path = (
                f"input not batched; expected src.dim() of 3 but got {src.dim()}"
            )
        elif src_key_padding_mask is None:
            why_not_sparsity_fast_path = "src_key_padding_mask was None"
        elif do_mask_check and torch.compiler.is_compiling():
            why_not_sparsity_fast_path = "mask_check enabled with torch.compile or torch.export"
        elif do_mask_check and not torch._nested_tensor_from_mask_left_aligned(
            src, src_key_padding_mask.logical_not()
        ):
            why_not_sparsity_fast_path = (
                "mask_check enabled, and src and src_key_padding_mask was not left aligned"
            )
        elif output.is_nested:
            why_not_sparsity_fast_path = "NestedTensor input is not supported"
        elif mask is not None:
            why_not_sparsity_fast_path = "src_key_padding_mask and mask were both supplied"
        elif torch.is_autocast_enabled():
            why_not_sparsity_fast_path = "autocast is enabled"

        if not why_not_sparsity_fast_path:
            tensor_args = (
                src,
                first_layer.self_attn.in_proj_weight,
                first_layer.self_attn.in_proj_bias,
                first_layer.self_attn.out_proj.weight,
                first_layer.self_attn.out_proj.bias,
                first_layer.norm1.weight,
                first_layer.norm1.bias,
                first_layer.norm2.weight,
                first_layer.norm2.bias,
                first_layer.linear1.weight,
                first_layer.linear1.bias,
                first_layer.linear2.weight,
                first_layer.linear2.bias,
            )
            _supported_device_type = [
                "cpu",
                "cuda",
                "xpu",
                torch.utils.backend_registration._privateuse1_backend_name,
            ]
            if torch.overrides.has_torch_function(tensor_args):
                why_not_sparsity_fast_path = "some Tensor argument has_torch_function"
            elif src.device.type not in _supported_device_type:
                why_not_sparsity_fast_path = (
                    f"src device is neither one of {_supported_device_type}"
                )
            elif torch.is_grad_enabled() and any(x.requires_grad for x in tensor_args):
                why_not_sparsity_fast_path = (
                    "grad is enabled and at least one of query or the "
                    "input/output projection weights or biases requires_grad"
                )

            if (not why_not_sparsity_fast_path) and (src_key_padding_mask is not None):
                # 中: 掩码里 True 表示“填充”，嵌套张量要的是“有效”位置，所以取反。
                # EN: True in the mask means padding; the nested tensor wants valid positions, hence the negation.
                convert_to_nested = True
                output = torch._nested_tensor_from_mask(
                    output, src_key_padding_mask.logical_not(), mask_check=False
                )
                src_key_padding_mask_for_layers = None

        seq_len = _get_seq_len(src, batch_first)
        is_causal = _detect_is_causal_mask(mask, is_causal, seq_len)

        for mod in self.layers:
            output = mod(
                output,
                src_mask=mask,
                is_causal=is_causal,
                src_key_padding_mask=src_key_padding_mask_for_layers,
            )

        if convert_to_nested:
            output = output.to_padded_tensor(0.0, src.size())

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
        # 中: torch 内部的 API 使用统计钩子，与 Module.__init__ 里的调用一样，对行为没有影响。
        # EN: torch's internal API-usage logging, as in Module.__init__; it has no effect on behaviour.
        torch._C._log_api_usage_once(f"torch.nn.modules.{self.__class__.__name__}")
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
        output = tgt

        seq_len = _get_seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)

        for mod in self.layers:
            output = mod(
                output,
                memory,
                tgt_mask=tgt_mask,
                memory_mask=memory_mask,
                tgt_key_padding_mask=tgt_key_padding_mask,
                memory_key_padding_mask=memory_key_padding_mask,
                tgt_is_causal=tgt_is_causal,
                memory_is_causal=memory_is_causal,
            )

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
        self.self_attn = MultiheadAttention(
            d_model,
            nhead,
            dropout=dropout,
            bias=bias,
            batch_first=batch_first,
            **factory_kwargs,
        )
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory_kwargs)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory_kwargs)

        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)

        if isinstance(activation, str):
            activation = _get_activation_fn(activation)

        # 中: 融合内核只认识 ReLU 和 GELU；torch 检查的是 torch.nn.ReLU/GELU，这里对应检查本库的类。
        # EN: The fused kernel knows only ReLU and GELU; torch tests torch.nn.ReLU/GELU, the mirror tests ours.
        if activation is F.relu or isinstance(activation, ReLU):
            self.activation_relu_or_gelu = 1
        elif activation is F.gelu or isinstance(activation, GELU):
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
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
        src_key_padding_mask = F._canonical_mask(
            mask=src_key_padding_mask,
            mask_name="src_key_padding_mask",
            other_type=F._none_or_dtype(src_mask),
            other_name="src_mask",
            target_type=src.dtype,
        )

        src_mask = F._canonical_mask(
            mask=src_mask,
            mask_name="src_mask",
            other_type=None,
            other_name="",
            target_type=src.dtype,
            check_other=False,
        )

        is_fastpath_enabled = torch.backends.mha.get_fastpath_enabled()

        why_not_sparsity_fast_path = ""
        if not is_fastpath_enabled:
            why_not_sparsity_fast_path = "torch.backends.mha.get_fastpath_enabled() was not True"
        elif src.dim() != 3:
            why_not_sparsity_fast_path = (
                f"input not batched; expected src.dim() of 3 but got {src.dim()}"
            )
        elif self.training:
            why_not_sparsity_fast_path = "training is enabled"
        elif not self.self_attn.batch_first:
            why_not_sparsity_fast_path = "self_attn.batch_first was not True"
        elif self.self_attn.in_proj_bias is None:
            why_not_sparsity_fast_path = "self_attn was passed bias=False"
        elif not self.self_attn._qkv_same_embed_dim:
            why_not_sparsity_fast_path = "self_attn._qkv_same_embed_dim was not True"
        elif not self.activation_relu_or_gelu:
            why_not_sparsity_fast_path = "activation_relu_or_gelu was not True"
        elif self.norm1.eps != self.norm2.eps:
            why_not_sparsity_fast_path = "norm1.eps is not equal to norm2.eps"
        elif src.is_nested and (src_key_padding_mask is not None or src_mask is not None):
            why_not_sparsity_fast_path = "neither src_key_padding_mask nor src_mask are not supported with NestedTensor input"
        elif self.self_attn.num_heads % 2 == 1:
            why_not_sparsity_fast_path = "num_head is odd"
        elif torch.is_autocast_enabled():
            why_not_sparsity_fast_path = "autocast is enabled"
        # 中: 融合内核会绕过子模块的调用，于是子模块上的钩子（hook）不会触发；有钩子就不能走它。
        # EN: The fused kernel bypasses submodule calls, so their hooks would not fire; any hook blocks it.
        elif any(
            len(getattr(m, "_forward_hooks", {})) + len(getattr(m, "_forward_pre_hooks", {}))
            for m in self.modules()
        ):
            why_not_sparsity_fast_path = "forward pre-/hooks are attached to the module"
        if not why_not_sparsity_fast_path:
            tensor_args = (
                src,
                self.self_attn.in_proj_weight,
                self.self_attn.in_proj_bias,
                self.self_attn.out_proj.weight,
                self.self_attn.out_proj.bias,
                self.norm1.weight,
                self.norm1.bias,
                self.norm2.weight,
                self.norm2.bias,
                self.linear1.weight,
                self.linear1.bias,
                self.linear2.weight,
                self.linear2.bias,
            )

            _supported_device_type = [
                "cpu",
                "cuda",
                "xpu",
                torch.utils.backend_registration._privateuse1_backend_name,
            ]
            if torch.overrides.has_torch_function(tensor_args):
                why_not_sparsity_fast_path = "some Tensor argument has_torch_function"
            elif not all((x.device.type in _supported_device_type) for x in tensor_args):
                why_not_sparsity_fast_path = (
                    f"some Tensor argument's device is neither one of {_supported_device_type}"
                )
            elif torch.is_grad_enabled() and any(x.requires_grad for x in tensor_args):
                why_not_sparsity_fast_path = (
                    "grad is enabled and at least one of query or the "
                    "input/output projection weights or biases requires_grad"
                )

            if not why_not_sparsity_fast_path:
                merged_mask, mask_type = self.self_attn.merge_masks(
                    src_mask, src_key_padding_mask, src
                )
                return torch._transformer_encoder_layer_fwd(
                    src,
                    self.self_attn.embed_dim,
                    self.self_attn.num_heads,
                    self.self_attn.in_proj_weight,
                    self.self_attn.in_proj_bias,
                    self.self_attn.out_proj.weight,
                    self.self_attn.out_proj.bias,
                    self.activation_relu_or_gelu == 2,
                    self.norm_first,
                    self.norm1.eps,
                    self.norm1.weight,
                    self.norm1.bias,
                    self.norm2.weight,
                    self.norm2.bias,
                    self.linear1.weight,
                    self.linear1.bias,
                    self.linear2.weight,
                    self.linear2.bias,
                    merged_mask,
                    mask_type,
                )

        # 中: Pre-LN 与 Post-LN 两种排列，见 arXiv:2002.04745 图 1。
        # EN: Pre-LN versus Post-LN arrangement, see Fig. 1 of arXiv:2002.04745.
        x = src
        if self.norm_first:
            x = x + self._sa_block(
                self.norm1(x), src_mask, src_key_padding_mask, is_causal=is_causal
            )
            x = x + self._ff_block(self.norm2(x))
        else:
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
        x = self.self_attn(
            x,
            x,
            x,
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
        self.self_attn = MultiheadAttention(
            d_model,
            nhead,
            dropout=dropout,
            batch_first=batch_first,
            bias=bias,
            **factory_kwargs,
        )
        self.multihead_attn = MultiheadAttention(
            d_model,
            nhead,
            dropout=dropout,
            batch_first=batch_first,
            bias=bias,
            **factory_kwargs,
        )
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory_kwargs)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory_kwargs)

        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)

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
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(
                self.norm2(x),
                memory,
                memory_mask,
                memory_key_padding_mask,
                memory_is_causal,
            )
            x = x + self._ff_block(self.norm3(x))
        else:
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
        x = self.self_attn(
            x,
            x,
            x,
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
        x = self.multihead_attn(
            x,
            mem,
            mem,
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

        `is_causal` 明确给出时直接采用；为 `None` 且有掩码时，生成同尺寸的因果掩码逐元素比较
        （用广播而不是 `torch.equal`，以便处理带批维的掩码）。

    === "English"

        An explicit `is_causal` wins; when it is `None` and a mask is given, a causal mask
        of the same size is generated and compared elementwise (broadcasting rather than
        `torch.equal`, so batched masks work).

    Args:
        mask: The attention mask, or `None`. / 注意力掩码，或 `None`。
        is_causal: Explicit hint, or `None` to detect. / 明确的提示，或 `None` 表示检测。
        size: Sequence length, if known. / 已知时的序列长度。

    Returns:
        Whether to treat the mask as causal. / 是否按因果掩码处理。
    """
    # 中: 只有字面量 True 才算“是”，避免把真值相似的对象当成 True。
    # EN: Only the literal True counts, so merely truthy values are not taken as True.
    make_causal = is_causal is True

    if is_causal is None and mask is not None:
        sz = size if size is not None else mask.size(-2)
        causal_comparison = _generate_square_subsequent_mask(
            sz, device=mask.device, dtype=mask.dtype
        )

        if mask.size() == causal_comparison.size():
            make_causal = bool((mask == causal_comparison).all())
        else:
            make_causal = False

    return make_causal
