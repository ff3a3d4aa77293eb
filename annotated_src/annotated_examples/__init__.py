r"""Reference models, a training run and hook recipes built on annotated_nn. / 基于 annotated_nn 的参考模型、训练示例与钩子小工具。

=== "中文"

    - `models`：书中反复使用的几个模型（源码阅读文章里的 `SimpleNet`、MLP、ResNet-18、
      小型 Transformer 分类器）。每个模型都可以用 `annotated_nn` 或 `torch.nn` 构建，
      同一随机种子下两者的参数逐位相同，方便对照。
    - `train`：`python -m annotated_examples.train`，两套实现并排训练，逐步比较损失。
    - `recipes`：用钩子（hook）写的实用工具：模型摘要、激活/梯度记录器、逐层 CUDA 显存、梯度流图。

=== "English"

    - `models`: the models the book keeps coming back to (the source-reading articles'
      `SimpleNet`, an MLP, a ResNet-18, a small Transformer classifier). Each can be built from
      `annotated_nn` or from `torch.nn`; from the same seed both get bit-identical parameters,
      which makes side-by-side comparison easy.
    - `train`: `python -m annotated_examples.train` trains both side by side and compares the
      losses step by step.
    - `recipes`: practical tools built on hooks: a model summary, an activation/gradient
      recorder, a per-layer CUDA memory profile, a gradient-flow plot.
"""
