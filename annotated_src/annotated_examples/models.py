r"""Reference models, each buildable from `annotated_nn` or `torch.nn`. / 参考模型：每个都能用 `annotated_nn` 或 `torch.nn` 构建。

=== "中文"

    模型类定义在工厂函数 [`make_models`][annotated_examples.models.make_models] 里，
    参数 `nn` 是命名空间：传 `annotated_nn` 得到本项目的实现，传 `torch.nn` 得到"孪生"模型。
    两者代码一字不差，只有基类与各层来自不同的库。因为本项目保证"同样的种子 → 同样的随机数调用"，
    在构造前各调用一次 `torch.manual_seed(s)`，两个模型的参数就逐位相同，前向传播（forward pass）
    和训练的每一步也就可以直接比较。

    包含的模型：

    - `SimpleNet`：源码阅读文章的示例网络，`Conv2d(1, 6, 3)` → `Conv2d(6, 16, 3)` → `Linear(16*6*6, 10)`，
      输入是 `1×32×32` 的图像；
    - `MLP`：`Sequential` 子类，展示容器；
    - ResNet-18：与 torchvision 的 `resnet18` 相同的结构、参数名与初始化（`BasicBlock`）；
    - `TransformerClassifier`：`Embedding` + `TransformerEncoder` + `Linear` 的小型文本分类器。

=== "English"

    The model classes are defined inside the factory
    [`make_models`][annotated_examples.models.make_models], whose argument `nn` is a namespace:
    `annotated_nn` gives this project's implementation, `torch.nn` gives the "twin". The code is
    identical word for word; only the base class and the layers come from different libraries.
    Since this project guarantees "same seed → same random calls", calling
    `torch.manual_seed(s)` before constructing each makes the two models' parameters
    bit-identical, so forward passes and every training step can be compared directly.

    The models:

    - `SimpleNet`: the source-reading articles' example, `Conv2d(1, 6, 3)` →
      `Conv2d(6, 16, 3)` → `Linear(16*6*6, 10)`, on `1×32×32` images;
    - `MLP`: a `Sequential` subclass, to show containers;
    - ResNet-18: torchvision's `resnet18` structure, parameter names and initialization
      (`BasicBlock`);
    - `TransformerClassifier`: a small text classifier, `Embedding` + `TransformerEncoder` +
      `Linear`.

Examples:
    >>> import torch, annotated_nn
    >>> from annotated_examples.models import build_simplenet
    >>> net = build_simplenet(annotated_nn)
    >>> net(torch.randn(2, 1, 32, 32)).shape
    torch.Size([2, 10])
"""

import types
from collections.abc import Sequence
from typing import Any

import torch
import torch.nn.functional as F

import annotated_nn

__all__ = [
    "make_models",
    "build_simplenet",
    "build_mlp",
    "resnet18",
    "build_transformer_classifier",
]

# 中: 每个命名空间只生成一次模型类，保证 `isinstance` 与类身份在多次调用间稳定。
# EN: Model classes are made once per namespace, so `isinstance` and class identity stay stable.
_MODELS_BY_NAMESPACE: dict[Any, types.SimpleNamespace] = {}


def make_models(nn: Any = annotated_nn) -> types.SimpleNamespace:
    r"""Define the reference model classes on top of namespace `nn`. / 以命名空间 `nn` 为基础定义参考模型类。

    === "中文"

        返回一个 `SimpleNamespace`，属性 `SimpleNet`、`MLP`、`BasicBlock`、`ResNet`、
        `TransformerClassifier` 是类。同一个 `nn` 多次调用返回同一组类。
        类名刻意与 torchvision 等处的惯用名相同，所以两个命名空间的模型 `repr` 完全一样。

    === "English"

        Returns a `SimpleNamespace` whose attributes `SimpleNet`, `MLP`, `BasicBlock`, `ResNet`,
        `TransformerClassifier` are classes. Repeated calls with the same `nn` return the same
        classes. The class names match the usual ones (torchvision's etc.), so the two
        namespaces' models have identical `repr`s.

    Args:
        nn: `annotated_nn` or `torch.nn`. / `annotated_nn` 或 `torch.nn`。

    Returns:
        The model classes. / 模型类。

    Examples:
        >>> import torch
        >>> make_models(torch.nn).SimpleNet.__mro__[1] is torch.nn.Module
        True
    """
    if nn in _MODELS_BY_NAMESPACE:
        return _MODELS_BY_NAMESPACE[nn]

    class SimpleNet(nn.Module):
        r"""The source-reading articles' running example. / 源码阅读文章里的示例网络。

        === "中文"

            两层卷积各接 ReLU 与 2×2 最大池化，再展平、接一个全连接层。尺寸推演（输入 `1×32×32`）：
            `32 → conv3 → 30 → pool → 15 → conv3 → 13 → pool → 6`，所以展平后是 `16*6*6 = 576`。
            ReLU 和池化没有参数，写成 `F.relu` / `F.max_pool2d` 函数调用，不占子模块（submodule）位置——
            这正是文章用来说明"只有 `Module` 属性才会被注册"的例子。

        === "English"

            Two convolutions, each followed by ReLU and 2×2 max pooling, then flatten and one
            linear layer. Shapes for a `1×32×32` input: `32 → conv3 → 30 → pool → 15 → conv3 →
            13 → pool → 6`, hence `16*6*6 = 576` features. ReLU and pooling have no parameters
            and are written as `F.relu` / `F.max_pool2d` calls, not submodules; the articles use
            exactly this to show that only `Module` attributes get registered.
        """

        def __init__(self) -> None:
            r"""Create the three layers with parameters. / 创建三个带参数的层。

            === "中文"

                依次创建 `conv1`、`conv2`、`fc`；它们的注册顺序决定了
                `named_parameters()` 与状态字典（state_dict）的键顺序。

            === "English"

                Creates `conv1`, `conv2`, `fc` in this order; registration order fixes the key
                order of `named_parameters()` and the state_dict.
            """
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 3)
            self.conv2 = nn.Conv2d(6, 16, 3)
            self.fc = nn.Linear(16 * 6 * 6, 10)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            r"""Classify a batch of `1×32×32` images into 10 logits. / 把一批 `1×32×32` 图像映射为 10 个 logit。

            === "中文"

                `view(-1, 576)` 把每张图的特征图拉平成一行。

            === "English"

                `view(-1, 576)` flattens each image's feature maps into one row.

            Args:
                x: Images, shape `(N, 1, 32, 32)`. / 图像，形状 `(N, 1, 32, 32)`。

            Returns:
                Logits, shape `(N, 10)`. / logit，形状 `(N, 10)`。
            """
            x = F.max_pool2d(F.relu(self.conv1(x)), 2)
            x = F.max_pool2d(F.relu(self.conv2(x)), 2)
            x = x.view(-1, 16 * 6 * 6)
            return self.fc(x)

    class MLP(nn.Sequential):
        r"""A multilayer perceptron as a `Sequential`. / 以 `Sequential` 写成的多层感知机。

        === "中文"

            `Flatten` 之后交替排列 `Linear` 与 `ReLU`，最后一个 `Linear` 输出 logit。
            继承 `Sequential` 而不写 `forward`：容器按注册顺序依次调用子模块，子模块名就是
            `"0"`、`"1"`……

        === "English"

            `Flatten`, then alternating `Linear` and `ReLU`, with a last `Linear` producing logits.
            It subclasses `Sequential` and writes no `forward`: the container calls its
            submodules in registration order, named `"0"`, `"1"`, ...

        Args:
            in_features: Input features after flattening. / 展平后的输入特征数。
            hidden: Widths of the hidden layers. / 各隐藏层宽度。
            num_classes: Output logits. / 输出 logit 数。
        """

        def __init__(
            self, in_features: int = 784, hidden: Sequence[int] = (256, 128), num_classes: int = 10
        ) -> None:
            r"""Build the layer list and hand it to `Sequential`. / 生成层列表并交给 `Sequential`。

            === "中文"

                每个隐藏层是一对 `Linear` + `ReLU`。

            === "English"

                Each hidden layer is a `Linear` + `ReLU` pair.

            Args:
                in_features: Input features after flattening. / 展平后的输入特征数。
                hidden: Widths of the hidden layers. / 各隐藏层宽度。
                num_classes: Output logits. / 输出 logit 数。
            """
            layers: list[Any] = [nn.Flatten()]
            width = in_features
            for h in hidden:
                layers += [nn.Linear(width, h), nn.ReLU()]
                width = h
            layers.append(nn.Linear(width, num_classes))
            super().__init__(*layers)

    class BasicBlock(nn.Module):
        r"""ResNet's two-convolution residual block. / ResNet 的双卷积残差块。

        === "中文"

            `conv3x3 → BN → ReLU → conv3x3 → BN`，再加上捷径（shortcut）后做 ReLU。
            当步长不为 1 或通道数改变时，捷径不再是恒等映射，而是 `downsample`
            （`1×1` 卷积 + BN）。卷积不带偏置：紧跟的 BatchNorm 会减去均值，偏置没有意义。
            `expansion = 1` 表示输出通道数等于 `planes`（Bottleneck 块里是 4）。

        === "English"

            `conv3x3 → BN → ReLU → conv3x3 → BN`, plus the shortcut, then ReLU. When the stride
            is not 1 or the channel count changes, the shortcut is not the identity but
            `downsample` (`1×1` conv + BN). The convolutions have no bias: the BatchNorm right
            after subtracts the mean, making a bias pointless. `expansion = 1` means the output
            has `planes` channels (it is 4 in a Bottleneck block).

        Args:
            inplanes: Input channels. / 输入通道数。
            planes: Output channels. / 输出通道数。
            stride: Stride of the first convolution. / 第一个卷积的步长。
            downsample: Module applied to the shortcut, or `None`. / 作用在捷径上的模块或 `None`。
        """

        expansion: int = 1

        def __init__(
            self, inplanes: int, planes: int, stride: int = 1, downsample: Any = None
        ) -> None:
            r"""Create the block's layers. / 创建残差块的各层。

            === "中文"

                属性名（`conv1`、`bn1`、`relu`、`conv2`、`bn2`、`downsample`）与 torchvision 相同，
                因此状态字典的键也相同。`downsample=None` 时也会注册一个 `None` 子模块位，
                它不出现在状态字典里。

            === "English"

                Attribute names (`conv1`, `bn1`, `relu`, `conv2`, `bn2`, `downsample`) match
                torchvision, hence so do the state_dict keys. With `downsample=None` a `None`
                submodule slot is registered, which the state_dict leaves out.

            Args:
                inplanes: Input channels. / 输入通道数。
                planes: Output channels. / 输出通道数。
                stride: Stride of the first convolution. / 第一个卷积的步长。
                downsample: Module applied to the shortcut, or `None`. / 作用在捷径上的模块或 `None`。
            """
            super().__init__()
            self.conv1 = nn.Conv2d(inplanes, planes, 3, stride=stride, padding=1, bias=False)
            self.bn1 = nn.BatchNorm2d(planes)
            self.relu = nn.ReLU(inplace=True)
            self.conv2 = nn.Conv2d(planes, planes, 3, stride=1, padding=1, bias=False)
            self.bn2 = nn.BatchNorm2d(planes)
            self.downsample = downsample
            self.stride = stride

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            r"""Residual branch plus shortcut. / 残差分支加捷径。

            === "中文"

                `out += identity` 是就地加法：`out` 是 BN 的新输出，就地修改它是安全的，
                且省下一次内存分配。

            === "English"

                `out += identity` is in place: `out` is a fresh BN output, so modifying it is
                safe and saves an allocation.

            Args:
                x: Feature maps `(N, inplanes, H, W)`. / 特征图 `(N, inplanes, H, W)`。

            Returns:
                Feature maps `(N, planes, H/stride, W/stride)`. / 特征图 `(N, planes, H/stride, W/stride)`。
            """
            identity = x
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            if self.downsample is not None:
                identity = self.downsample(x)
            out += identity
            return self.relu(out)

    class ResNet(nn.Module):
        r"""ResNet with torchvision's layout and initialization. / 结构与初始化同 torchvision 的 ResNet。

        === "中文"

            stem（`7×7` 卷积、BN、ReLU、最大池化）→ 四个 stage（通道 64/128/256/512，后三个步长 2）
            → 全局平均池化 → 全连接。`layers=(2, 2, 2, 2)` 即 ResNet-18。

            初始化在所有层构造完之后进行，按 `modules()` 的顺序：卷积用
            `kaiming_normal_(mode="fan_out", nonlinearity="relu")`，BN 的 weight 置 1、bias 置 0。
            全连接层保留 `Linear` 自己的默认初始化。由于 `modules()` 的遍历顺序与随机数调用
            顺序一致，两个命名空间构造出的参数逐位相同。

        === "English"

            Stem (`7×7` conv, BN, ReLU, max pool) → four stages (64/128/256/512 channels, the
            last three with stride 2) → global average pooling → fully connected.
            `layers=(2, 2, 2, 2)` is ResNet-18.

            Initialization runs after every layer exists, in `modules()` order: convolutions get
            `kaiming_normal_(mode="fan_out", nonlinearity="relu")`, BN weight 1 and bias 0. The
            linear layer keeps `Linear`'s own default initialization. Because `modules()` order
            fixes the order of random calls, both namespaces build bit-identical parameters.

        Args:
            layers: Blocks per stage. / 每个 stage 的块数。
            num_classes: Output logits. / 输出 logit 数。
        """

        def __init__(self, layers: Sequence[int] = (2, 2, 2, 2), num_classes: int = 1000) -> None:
            r"""Build the stem, the four stages and the head, then initialize. / 构建 stem、四个 stage 和分类头，然后初始化。

            === "中文"

                `self.inplanes` 记录下一个 stage 的输入通道数，由 `_make_layer` 更新。

            === "English"

                `self.inplanes` tracks the next stage's input channels; `_make_layer` updates it.

            Args:
                layers: Blocks per stage. / 每个 stage 的块数。
                num_classes: Output logits. / 输出 logit 数。
            """
            super().__init__()
            self.inplanes = 64
            self.conv1 = nn.Conv2d(3, self.inplanes, kernel_size=7, stride=2, padding=3, bias=False)
            self.bn1 = nn.BatchNorm2d(self.inplanes)
            self.relu = nn.ReLU(inplace=True)
            self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
            self.layer1 = self._make_layer(64, layers[0])
            self.layer2 = self._make_layer(128, layers[1], stride=2)
            self.layer3 = self._make_layer(256, layers[2], stride=2)
            self.layer4 = self._make_layer(512, layers[3], stride=2)
            self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
            self.fc = nn.Linear(512 * BasicBlock.expansion, num_classes)

            for m in self.modules():
                if isinstance(m, nn.Conv2d):
                    nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
                elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
                    nn.init.constant_(m.weight, 1)
                    nn.init.constant_(m.bias, 0)

        def _make_layer(self, planes: int, blocks: int, stride: int = 1) -> Any:
            r"""Build one stage: `blocks` BasicBlocks in a `Sequential`. / 构建一个 stage：`Sequential` 里的 `blocks` 个 BasicBlock。

            === "中文"

                只有第一个块可能改变分辨率或通道数，所以只有它可能需要 `downsample`。

            === "English"

                Only the first block may change resolution or channels, so only it may need a
                `downsample`.

            Args:
                planes: Output channels of the stage. / 该 stage 的输出通道数。
                blocks: Number of blocks. / 块数。
                stride: Stride of the first block. / 第一个块的步长。

            Returns:
                The stage as a `Sequential`. / 以 `Sequential` 表示的 stage。
            """
            downsample = None
            if stride != 1 or self.inplanes != planes * BasicBlock.expansion:
                downsample = nn.Sequential(
                    nn.Conv2d(
                        self.inplanes, planes * BasicBlock.expansion, 1, stride=stride, bias=False
                    ),
                    nn.BatchNorm2d(planes * BasicBlock.expansion),
                )
            layers = [BasicBlock(self.inplanes, planes, stride, downsample)]
            self.inplanes = planes * BasicBlock.expansion
            for _ in range(1, blocks):
                layers.append(BasicBlock(self.inplanes, planes))
            return nn.Sequential(*layers)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            r"""Stem, four stages, pool, classify. / stem、四个 stage、池化、分类。

            === "中文"

                输入 `224×224` 时各 stage 的分辨率依次为 56、28、14、7；更小的输入也可以
                （例如测试里用 `32×32`），全局平均池化会吸收尺寸差异。

            === "English"

                For `224×224` inputs the stages run at 56, 28, 14, 7; smaller inputs work too
                (tests use `32×32`), the global average pooling absorbs the difference.

            Args:
                x: Images `(N, 3, H, W)`. / 图像 `(N, 3, H, W)`。

            Returns:
                Logits `(N, num_classes)`. / 未归一化的分类得分 `(N, num_classes)`。
            """
            x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
            x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
            x = torch.flatten(self.avgpool(x), 1)
            return self.fc(x)

    class TransformerClassifier(nn.Module):
        r"""Token ids → embeddings → Transformer encoder → mean pool → logits. / 词元 id → 嵌入 → Transformer 编码器 → 平均池化 → logit。

        === "中文"

            词嵌入加上可学习的位置嵌入，经过 `num_layers` 层 `TransformerEncoderLayer`
            （`batch_first=True`，输入形状 `(N, L)`），再对非填充位置取平均，最后线性分类。
            `enable_nested_tensor=False`：嵌套张量只是推理时的加速手段，这里关掉以让两种命名空间
            走同一条计算路径、也免去相应警告。

        === "English"

            Token embeddings plus learned position embeddings go through `num_layers`
            `TransformerEncoderLayer`s (`batch_first=True`, input shape `(N, L)`), are averaged
            over non-padding positions, and classified by a linear layer.
            `enable_nested_tensor=False`: nested tensors are an inference speed-up only; turning
            them off keeps both namespaces on one computation path and avoids its warning.

        Args:
            vocab_size: Number of token ids. / 词表大小。
            d_model: Embedding width. / 嵌入维度。
            nhead: Attention heads. / 注意力头数。
            num_layers: Encoder layers. / 编码器层数。
            num_classes: Output logits. / 输出 logit 数。
            dim_feedforward: Hidden width of the feed-forward part. / 前馈部分的隐藏宽度。
            dropout: Dropout probability. / dropout 概率。
            max_len: Longest sequence supported. / 支持的最大序列长度。
        """

        def __init__(
            self,
            vocab_size: int = 1000,
            d_model: int = 64,
            nhead: int = 4,
            num_layers: int = 2,
            num_classes: int = 10,
            dim_feedforward: int = 128,
            dropout: float = 0.1,
            max_len: int = 128,
        ) -> None:
            r"""Create embeddings, encoder and head. / 创建嵌入、编码器和分类头。

            === "中文"

                `TransformerEncoder` 会把传入的 `encoder_layer` 深拷贝 `num_layers` 份，
                所以各层参数互相独立。

            === "English"

                `TransformerEncoder` deep-copies the given `encoder_layer` `num_layers` times, so
                the layers' parameters are independent.

            Args:
                vocab_size: Number of token ids. / 词表大小。
                d_model: Embedding width. / 嵌入维度。
                nhead: Attention heads. / 注意力头数。
                num_layers: Encoder layers. / 编码器层数。
                num_classes: Output logits. / 输出 logit 数。
                dim_feedforward: Hidden width of the feed-forward part. / 前馈部分的隐藏宽度。
                dropout: Dropout probability. / dropout 概率。
                max_len: Longest sequence supported. / 支持的最大序列长度。
            """
            super().__init__()
            self.embedding = nn.Embedding(vocab_size, d_model)
            self.position = nn.Embedding(max_len, d_model)
            layer = nn.TransformerEncoderLayer(
                d_model, nhead, dim_feedforward, dropout, batch_first=True
            )
            self.encoder = nn.TransformerEncoder(layer, num_layers, enable_nested_tensor=False)
            self.head = nn.Linear(d_model, num_classes)

        def forward(
            self, tokens: torch.Tensor, padding_mask: torch.Tensor | None = None
        ) -> torch.Tensor:
            r"""Classify token sequences. / 对词元序列分类。

            === "中文"

                `padding_mask` 中 `True` 表示填充位置：注意力不看它们，平均池化也不计入它们。

            === "English"

                `True` in `padding_mask` marks padding: attention ignores those positions and
                the mean pooling leaves them out.

            Args:
                tokens: Token ids `(N, L)`. / 词元 id `(N, L)`。
                padding_mask: Bool `(N, L)`, `True` at padding, or `None`. / 布尔 `(N, L)`，填充处为 `True`，或 `None`。

            Returns:
                Logits `(N, num_classes)`. / 未归一化的分类得分 `(N, num_classes)`。
            """
            positions = torch.arange(tokens.shape[1], device=tokens.device)
            x = self.embedding(tokens) + self.position(positions)
            x = self.encoder(x, src_key_padding_mask=padding_mask)
            if padding_mask is None:
                pooled = x.mean(dim=1)
            else:
                keep = (~padding_mask).unsqueeze(-1).to(x.dtype)
                pooled = (x * keep).sum(dim=1) / keep.sum(dim=1).clamp(min=1)
            return self.head(pooled)

    models = types.SimpleNamespace(
        SimpleNet=SimpleNet,
        MLP=MLP,
        BasicBlock=BasicBlock,
        ResNet=ResNet,
        TransformerClassifier=TransformerClassifier,
    )
    _MODELS_BY_NAMESPACE[nn] = models
    return models


def build_simplenet(nn: Any = annotated_nn) -> Any:
    r"""Build `SimpleNet` from namespace `nn`. / 用命名空间 `nn` 构建 `SimpleNet`。

    === "中文"

        参数数目：`6·1·3·3+6 + 16·6·3·3+16 + 10·576+10 = 6,710`。

    === "English"

        It has `6·1·3·3+6 + 16·6·3·3+16 + 10·576+10 = 6,710` parameters.

    Args:
        nn: `annotated_nn` or `torch.nn`. / `annotated_nn` 或 `torch.nn`。

    Returns:
        A new `SimpleNet`. / 新的 `SimpleNet`。

    Examples:
        >>> sum(p.numel() for p in build_simplenet().parameters())
        6710
    """
    return make_models(nn).SimpleNet()


def build_mlp(
    nn: Any = annotated_nn,
    in_features: int = 784,
    hidden: Sequence[int] = (256, 128),
    num_classes: int = 10,
) -> Any:
    r"""Build an `MLP` from namespace `nn`. / 用命名空间 `nn` 构建 `MLP`。

    === "中文"

        默认尺寸对应 MNIST：`784 → 256 → 128 → 10`。

    === "English"

        The default sizes fit MNIST: `784 → 256 → 128 → 10`.

    Args:
        nn: `annotated_nn` or `torch.nn`. / `annotated_nn` 或 `torch.nn`。
        in_features: Input features after flattening. / 展平后的输入特征数。
        hidden: Widths of the hidden layers. / 各隐藏层宽度。
        num_classes: Output logits. / 输出 logit 数。

    Returns:
        A new `MLP`. / 新的 `MLP`。
    """
    return make_models(nn).MLP(in_features, hidden, num_classes)


def resnet18(nn: Any = annotated_nn, num_classes: int = 1000) -> Any:
    r"""Build ResNet-18 from namespace `nn`. / 用命名空间 `nn` 构建 ResNet-18。

    === "中文"

        四个 stage 各两个 `BasicBlock`，约 1170 万个参数（`num_classes=1000` 时）。

    === "English"

        Two `BasicBlock`s in each of four stages, about 11.7 million parameters (with
        `num_classes=1000`).

    Args:
        nn: `annotated_nn` or `torch.nn`. / `annotated_nn` 或 `torch.nn`。
        num_classes: Output logits. / 输出 logit 数。

    Returns:
        A new ResNet-18. / 新的 ResNet-18。
    """
    return make_models(nn).ResNet((2, 2, 2, 2), num_classes=num_classes)


def build_transformer_classifier(nn: Any = annotated_nn, **kwargs: Any) -> Any:
    r"""Build a `TransformerClassifier` from namespace `nn`. / 用命名空间 `nn` 构建 `TransformerClassifier`。

    === "中文"

        关键字参数原样传给 `TransformerClassifier`（如 `vocab_size`、`d_model`、`dropout`）。

    === "English"

        Keyword arguments go to `TransformerClassifier` unchanged (e.g. `vocab_size`,
        `d_model`, `dropout`).

    Args:
        nn: `annotated_nn` or `torch.nn`. / `annotated_nn` 或 `torch.nn`。
        **kwargs: Constructor arguments. / 构造参数。

    Returns:
        A new `TransformerClassifier`. / 新的 `TransformerClassifier`。
    """
    return make_models(nn).TransformerClassifier(**kwargs)
