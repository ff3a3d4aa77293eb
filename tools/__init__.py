r"""Project tools: the annotation checker and the book's build helpers. / 项目工具：注释检查器与书的构建辅助代码。

A package only so that `import tools.annotations` works from the project root (the book's hooks
and the tests import the checker that way). Importing it has no side effects.

之所以做成包，只是为了能在项目根目录下 `import tools.annotations`（书的钩子和测试都这样导入
检查器）。导入它不会产生任何副作用。
"""
