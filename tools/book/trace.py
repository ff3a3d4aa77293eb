"""Recorded runs: a page's example, traced line by line through our code. / 录制的运行：逐行追踪页面示例在我们代码中的执行。

Run in a fresh process by the mkdocs hook (tools/book/hooks.py) at every build, so that a run
always records the code as it is now::

    python tools/book/trace.py            # prints {"RUN_ID": run, …} as JSON

A page marks the example it wants recorded with a line ``<!-- trace: RUN_ID -->`` right above the
example's ```python block (notes/TRACE.md), and ``RUNS`` below says what the run is about. The
example runs as the book's example test runs it (fresh globals, its printing discarded, torch's
RNG state restored), once untraced, then under ``sys.settrace``, restricted to frames whose code
lives in annotated_src/annotated_nn or annotated_src/annotated_optim.

What a run records (one step per event, the JSON of notes/TRACE.md §2):

- ``call`` (the function's first line, its arguments), ``line`` (the line about to run, the locals
  that changed since the frame's previous step), ``return`` (the value), ``exception``;
- values as short reprs: tensors by shape and dtype, modules by class name, dicts by their keys;
- what does not teach is **folded** into one step ``{"ev": "line", "folded": N}`` (N lines ran)
  at the folded function's first line, with its return value or the exception it let through:
  every call the example makes into our code outside the run's subject (building the model,
  registering hooks, later calls), and, inside the subject, comprehensions and the bookkeeping of
  ``FOLD`` (attribute routing, construction, container indexing, handles) unless the run is
  about it. Calls of one folded function in a row make one step.

The hook fills in each function's page (the page whose listing has the function's line anchors)
after the pages are rendered, and writes ``traces/RUN_ID.json``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "tools" / "book") not in sys.path:
    sys.path.insert(0, str(ROOT / "tools" / "book"))

from listings import line_tag  # noqa: E402  (tools/book/listings.py)

SRC = ROOT / "annotated_src"
DOCS = ROOT / "docs"
PACKAGES = ("annotated_nn", "annotated_optim")

# A marker, a blank line, the example block that is run.
MARKER = re.compile(
    r"^<!-- trace: ([a-z0-9-]+) -->\n\n```python[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S
)
MARKER_LINE = re.compile(r"^<!-- trace: ([a-z0-9-]+) -->$", re.M)
REPR_LIMIT = 80
MAX_STEPS = 600


@dataclass(frozen=True)
class Run:
    """What one run records. / 一次运行记录什么。

    ``subject``: the functions whose calls are recorded (a qualname, or a class's name for all its
    methods and their nested functions); every call from the example into our code outside them is
    folded. ``calls``: how many calls of each subject are recorded (None: all), later ones are
    folded. ``fold``: more functions (or classes) folded in this run; ``unfold``: functions of
    ``FOLD`` this run is about.
    """

    zh: str
    en: str
    subject: tuple[str, ...]
    calls: int | None = 1
    fold: tuple[str, ...] = field(default_factory=tuple)
    unfold: tuple[str, ...] = field(default_factory=tuple)

    def subject_of(self, fn: str) -> str | None:
        """The subject a function belongs to, if any. / 函数所属的录制对象。"""
        return _first_owner(fn, self.subject)

    def folds(self, fn: str) -> bool:
        """Whether a call inside the subject is folded. / 主体内部的调用是否折叠。"""
        if fn in self.unfold:
            return False
        return (
            fn in FOLD
            or fn.split("@")[0].rsplit(".", 1)[-1] in COMPREHENSIONS
            or _first_owner(fn, self.fold) is not None
        )


def function_name(code) -> str:
    """A function's name in a run: its qualname, and the line where it starts when that alone is
    ambiguous (a comprehension or a lambda: two in one function share a qualname).
    / 运行中函数的名字：限定名；推导式与 lambda 再加上起始行号。"""
    if code.co_name.startswith("<"):
        return f"{code.co_qualname}@{code.co_firstlineno}"
    return code.co_qualname


def _first_owner(fn: str, names: tuple[str, ...]) -> str | None:
    """The first of ``names`` that is ``fn`` or encloses it. / ``names`` 中第一个等于或包含 ``fn`` 的名字。"""
    return next((name for name in names if fn == name or fn.startswith(name + ".")), None)


# Bookkeeping folded inside a run's subject, unless the run unfolds it: attribute routing,
# construction, container indexing, handles, the isinstance test of Parameter, lazy tensors'
# dispatch; and every comprehension (one step per comprehension, however many items).
COMPREHENSIONS = frozenset({"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"})
FOLD = frozenset(
    {
        "Module.__getattr__",
        "Module.__setattr__",
        "Module.__delattr__",
        "Module.__init__",
        "ModuleList.__len__",
        "ModuleList.__getitem__",
        "ModuleList.__iter__",
        "ModuleList._get_abs_string_index",
        "_ParameterMeta.__instancecheck__",
        "UninitializedTensorMixin.__torch_function__",
        "is_lazy",
        "_has_any_global_hook",
        "RemovableHandle.__init__",
        "RemovableHandle.remove",
        "RemovableHandle.__enter__",
        "RemovableHandle.__exit__",
    }
)

RUNS: dict[str, Run] = {
    "ch03-setattr": Run(
        "self.fc = Linear(...) 经过 __setattr__",
        "self.fc = Linear(...) through __setattr__",
        subject=("Module.__setattr__",),
        unfold=("Module.__setattr__",),
    ),
    "ch06-call": Run(
        "带前置钩子、前向钩子与关键字参数的一次调用",
        "A call with pre-hooks, a forward hook and kwargs",
        subject=("Module._wrapped_call_impl",),
    ),
    "ch06-fast-path": Run(
        "没有钩子的调用：快速路径",
        "A call without hooks: the fast path",
        subject=("Module._wrapped_call_impl",),
    ),
    "ch07-backward-hook": Run(
        "完整反向钩子经过 BackwardHook",
        "A full backward hook through BackwardHook",
        subject=(
            "Module._wrapped_call_impl",
            "BackwardHook.setup_output_hook",
            "BackwardHook._set_user_hook",
        ),
    ),
    "ch09-to-float64": Run(
        ".to(torch.float64) 经过 _apply",
        ".to(torch.float64) through _apply",
        subject=("Module.to",),
    ),
    "ch10-state-dict": Run(
        "两层模型的 state_dict()",
        "state_dict() of a two-level model",
        subject=("Module.state_dict",),
    ),
    "ch11-load-missing": Run(
        "load_state_dict(strict=False)，缺一个键",
        "load_state_dict(strict=False) with a missing key",
        subject=("Module.load_state_dict",),
    ),
    "ch14-lazy-first-call": Run(
        "惰性模块的第一次调用",
        "A lazy module's first call",
        subject=("Module._wrapped_call_impl",),
        fold=("Linear.reset_parameters",),
    ),
    "optim-sgd-step": Run(
        "SGD(momentum=0.9).step() 走 foreach 路径",
        "SGD(momentum=0.9).step() on the foreach path",
        subject=("Optimizer.profile_hook_step",),
    ),
    "parametrize-register": Run(
        "register_parametrization 与读取参数化的权重",
        "register_parametrization and a read of the parametrized weight",
        subject=("register_parametrization", "_inject_property.<locals>.get_parametrized"),
        fold=("Module._wrapped_call_impl",),
    ),
}


def marked_examples(docs: Path = DOCS) -> dict[str, tuple[str, str]]:
    """``{run id: (page source path, example code)}`` of every marker. / 每个标记对应的页面与示例代码。"""
    found: dict[str, tuple[str, str]] = {}
    for path in sorted(docs.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        ids = MARKER_LINE.findall(text)
        runs = {m.group(1): m.group(2) for m in MARKER.finditer(text)}
        for run_id in ids:
            if run_id not in runs:
                raise ValueError(
                    f"{path}: <!-- trace: {run_id} --> is not followed by a blank line and a ```python block"
                )
            if run_id in found:
                raise ValueError(f"{path}: run {run_id} is marked twice")
            found[run_id] = (path.relative_to(docs).as_posix(), runs[run_id])
    return found


# ---------------------------------------------------------------- short reprs


def short(value, limit: int = REPR_LIMIT) -> str:
    """A short, side-effect-free repr. / 简短且无副作用的 repr。"""
    try:
        text = _short(value, 2)
    except Exception:  # noqa: BLE001 - a repr must never break the run
        text = type(value).__name__
    return clip(text, limit)


def clip(text: str, limit: int = REPR_LIMIT) -> str:
    """At most ``limit`` characters, ``…`` marking a cut. / 至多 ``limit`` 个字符，截断处加 ``…``。"""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _short(value, level: int) -> str:
    import torch

    if isinstance(value, torch.Tensor):
        kind = (
            "Parameter"
            if isinstance(value, torch.nn.Parameter) or type(value).__name__ == "Parameter"
            else "Tensor"
        )
        if _is_lazy(value):
            return f"Uninitialized{kind}"
        shape = tuple(value.shape)
        return f"{kind}(shape={shape}, dtype={str(value.dtype).replace('torch.', '')})"
    if value is None or isinstance(
        value, (bool, int, float, complex, torch.dtype, torch.device, torch.Size, range, slice)
    ):
        return repr(value)
    if isinstance(value, str):
        return repr(value)
    if _is_module(value):
        return type(value).__name__
    if isinstance(value, dict):
        keys = ", ".join(_short(k, 0) if level else "…" for k in list(value)[:8])
        more = ", …" if len(value) > 8 else ""
        return "{" + keys + more + "}"
    if isinstance(value, (list, tuple, set, frozenset)):
        if level == 0:
            return type(value).__name__ + f"(len={len(value)})"
        items = [_short(v, level - 1) for v in list(value)[:6]]
        more = ", …" if len(value) > 6 else ""
        inner = ", ".join(items) + more
        if isinstance(value, tuple):
            return "(" + inner + ("," if len(value) == 1 else "") + ")"
        if isinstance(value, list):
            return "[" + inner + "]"
        return "{" + inner + "}" if value else type(value).__name__ + "()"
    if callable(value) and hasattr(value, "__qualname__"):
        return f"<{type(value).__name__} {value.__qualname__}>"
    return type(value).__name__


def _is_module(value) -> bool:
    """Ours or torch's Module. / 我们的或 torch 的 Module。"""
    import torch

    if isinstance(value, torch.nn.Module):
        return True
    return any(
        cls.__name__ == "Module" and cls.__module__.startswith("annotated_nn")
        for cls in type(value).__mro__
    )


def _is_lazy(value) -> bool:
    """An uninitialized lazy parameter or buffer. / 未初始化的惰性参数或缓冲区。"""
    return any(cls.__name__ == "UninitializedTensorMixin" for cls in type(value).__mro__)


# ---------------------------------------------------------------- the tracer


class Recorder:
    """The settrace tracer of one run. / 一次运行的 settrace 追踪器。"""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.steps: list[dict] = []
        self.functions: dict[str, dict] = {}
        self.files: dict[str, str] = {}
        self.depth = 0
        self.subject_root = None  # the frame of the subject's outermost call
        self.subject_calls: dict[str, int] = {}
        self.fold_root = None  # the frame whose call is being folded
        self.fold_step: dict | None = None
        self.seen: dict[int, dict[str, str]] = {}  # id(frame) -> reprs of its locals
        self.raising: dict[int, str] = {}  # id(frame) -> the exception passing through it
        self._codes: dict = {}

    # Which code objects are ours, and their tag.
    def _info(self, code):
        info = self._codes.get(code)
        if info is None and code not in self._codes:
            path = Path(code.co_filename)
            try:
                rel = path.resolve().relative_to(SRC)
            except ValueError:
                rel = None
            if rel is not None and rel.parts[0] in PACKAGES:
                module = ".".join(rel.with_suffix("").parts)
                module = module.removesuffix(".__init__")
                tag = line_tag(module)
                lines = [line for _, _, line in code.co_lines() if line]
                info = (
                    tag,
                    rel.as_posix(),
                    code.co_firstlineno,
                    max(lines + [code.co_firstlineno]),
                )
            self._codes[code] = info
        return info

    def _function(self, code, info) -> str:
        fn = function_name(code)
        tag, rel, first, last = info
        self.files[tag] = rel
        self.functions.setdefault(fn, {"tag": tag, "first": first, "last": last, "page": None})
        return fn

    def _step(self, info, line, fn, ev, vars_) -> dict:
        step = {
            "tag": info[0],
            "line": line,
            "fn": fn,
            "ev": ev,
            "depth": self.depth,
            "vars": vars_,
        }
        self.steps.append(step)
        return step

    def global_trace(self, frame, event, arg):
        code = frame.f_code
        info = self._info(code)
        if info is None:
            return None
        if self.fold_root is not None:
            return self._folded
        fn = self._function(code, info)
        starts = False
        if self.subject_root is None:
            subject = self.run.subject_of(fn)
            count = self.subject_calls.get(subject, 0)
            starts = subject is not None and (self.run.calls is None or count < self.run.calls)
            if starts:
                self.subject_calls[subject] = count + 1
        if (self.subject_root is None and not starts) or (not starts and self.run.folds(fn)):
            self.fold_root = frame
            last = self.steps[-1] if self.steps else {}
            if last.get("folded") is not None and last["fn"] == fn and last["depth"] == self.depth:
                self.fold_step = last  # a generator resumed, a helper called again: one step
            else:
                self.fold_step = self._step(info, code.co_firstlineno, fn, "line", {})
                self.fold_step["folded"] = 0
            return self._folded
        if starts:
            self.subject_root = frame
        args = self._reprs(frame, code.co_varnames[: _arg_count(code)])
        self.seen[id(frame)] = self._reprs(frame, frame.f_locals)
        self._step(info, frame.f_lineno, fn, "call", args)
        self.depth += 1
        return self._local

    def _folded(self, frame, event, arg):
        if event == "line":
            self.fold_step["folded"] += 1
        if frame is self.fold_root:
            self._ending(frame, event, arg, self.fold_step)
            if event == "return":
                self.fold_root = self.fold_step = None
        return self._folded

    def _ending(self, frame, event, arg, step) -> None:
        """How a frame ends: its value, or the exception it lets through. / 帧如何结束：返回值或穿过它的异常。"""
        if event == "line":
            self.raising.pop(id(frame), None)  # caught: the frame goes on
        elif event == "exception" and not issubclass(arg[0], (GeneratorExit, StopIteration)):
            self.raising[id(frame)] = clip(f"{arg[0].__name__}: {arg[1]}")
        elif event == "return":
            raised = self.raising.pop(id(frame), None)
            step["vars"] = {"raise": raised} if raised is not None else {"return": short(arg)}

    def _local(self, frame, event, arg):
        code = frame.f_code
        info = self._info(code)
        fn = function_name(code)
        if event == "line":
            self._ending(frame, event, arg, None)
            now = self._reprs(frame, frame.f_locals)
            before = self.seen.get(id(frame), {})
            changed = {k: v for k, v in now.items() if before.get(k) != v}
            self.seen[id(frame)] = now
            self._step(info, frame.f_lineno, fn, "line", changed)
        elif event == "exception":
            self.depth -= 1
            self._ending(frame, event, arg, None)
            raised = self.raising.get(id(frame), arg[0].__name__)
            self._step(info, frame.f_lineno, fn, "exception", {"raise": raised})
            self.depth += 1
        elif event == "return":
            self.depth -= 1
            self._ending(frame, event, arg, self._step(info, frame.f_lineno, fn, "return", {}))
            self.seen.pop(id(frame), None)
            if frame is self.subject_root:
                self.subject_root = None
        return self._local

    @staticmethod
    def _reprs(frame, names) -> dict[str, str]:
        local = frame.f_locals
        return {
            name: short(local[name])
            for name in names
            if name in local and not name.startswith("__")
        }


def _arg_count(code) -> int:
    """How many of ``co_varnames`` are arguments (``*args`` and ``**kwargs`` included). / 参数个数。"""
    count = code.co_argcount + code.co_kwonlyargcount
    count += bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)
    return count


def run_example(code: str, tracer) -> None:
    """Run an example as the book's example test does, under ``tracer``. / 像示例测试那样运行示例，并挂上追踪函数。

    Fresh globals, its printing discarded, its warnings silenced, torch's RNG state restored. It
    runs once untraced first: what it imports (torch imports some modules only on first use, e.g.
    in a backward pass) is then loaded, so a run never records an import, which would depend on
    what the process did before, and the tracer does not pay for the imports' many calls.
    """
    import torch

    compiled = compile(code, "<example>", "exec")
    for traced in (None, tracer):
        state = torch.get_rng_state()
        try:
            with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                sys.settrace(traced)
                try:
                    exec(compiled, {"__name__": "__example__"})
                finally:
                    sys.settrace(None)
        finally:
            torch.set_rng_state(state)


def record(run_id: str, page: str, code: str) -> dict:
    """Run one example under the recorder. / 在录制器下运行一个示例。"""
    run = RUNS[run_id]
    recorder = Recorder(run)
    run_example(code, recorder.global_trace)
    steps = recorder.steps
    if not any(run.subject_of(step["fn"]) for step in steps if "folded" not in step):
        raise RuntimeError(f"run {run_id}: the example never called {run.subject}")
    if len(steps) > MAX_STEPS:
        raise RuntimeError(f"run {run_id}: {len(steps)} steps (more than {MAX_STEPS}): fold more")
    return {
        "id": run_id,
        "title": {"zh": run.zh, "en": run.en},
        "page": page,
        "files": dict(sorted(recorder.files.items())),
        "functions": recorder.functions,
        "steps": steps,
    }


# ---------------------------------------------------------------- the build's side (tools/book/hooks.py)

PLACEHOLDER = '<div class="book-trace" data-trace-id="{id}" data-trace-src="{src}"></div>'
LINE_ID = re.compile(r'\bid="([A-Za-z0-9_.]+-L\d+)"')
MAX_BYTES = 200_000


def start() -> subprocess.Popen:
    """Record the runs in a fresh process, in the background. / 在后台的新进程中录制。

    Its output goes to temporary files, not pipes: a process nobody collects (a test that runs
    only ``on_config``) still finishes instead of blocking on a full pipe.
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(SRC), str(ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
    )
    out, err = (
        tempfile.TemporaryFile("w+", encoding="utf-8"),
        tempfile.TemporaryFile("w+", encoding="utf-8"),
    )
    process = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve())],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=out,
        stderr=err,
    )
    process.output = out, err
    return process


def stop(process: subprocess.Popen) -> None:
    """Stop a recorder nobody will collect. / 停止不会被取回结果的录制进程。"""
    process.kill()
    process.wait()
    for file in process.output:
        file.close()


def placeholders(html: str, relative) -> tuple[str, list[str]]:
    """Each marker (an HTML comment line, as Markdown left it) replaced by the player's
    placeholder; the run ids. / 把每个标记（Markdown 原样留下的 HTML 注释行）换成播放器的占位元素。

    ``relative(path)`` gives a site path relative to the page.
    """
    ids = MARKER_LINE.findall(html)
    html = MARKER_LINE.sub(
        lambda m: PLACEHOLDER.format(id=m.group(1), src=relative(f"traces/{m.group(1)}.json")),
        html,
    )
    return html, ids


def line_ids(html: str) -> set[str]:
    """The ``{tag}-L{line}`` anchors of a rendered page. / 渲染后页面中的行锚点。"""
    return set(LINE_ID.findall(html))


def collect(process: subprocess.Popen) -> dict[str, dict]:
    """The recorder's runs, waiting for it. / 等录制进程结束，取回各次运行。"""
    process.wait()
    texts = []
    for file in process.output:
        with file:
            file.seek(0)
            texts.append(file.read())
    if process.returncode != 0:
        raise RuntimeError(f"tools/book/trace.py failed:\n{texts[1][-4000:]}")
    return json.loads(texts[0])


def finish(
    runs: dict[str, dict], pages: dict[str, str], anchors: dict[str, set[str]]
) -> dict[str, dict]:
    """Pages filled in and anchors checked. / 填入页面并检查锚点。

    ``pages``: page source path -> page URL; ``anchors``: page URL -> its line anchors, in the
    order the pages were rendered. A function's page is the run's own page when its listing is
    there, else the first page (the home page last) with an anchor on every line the run recorded
    in it; a function
    whose first line has an anchor on some page but whose recorded lines are not all there is an
    error (a listing that does not show a line that ran).
    """
    for run_id, run in runs.items():
        if run["page"] not in pages:
            raise RuntimeError(f"run {run_id}: page {run['page']} was not built")
        run["page"] = pages[run["page"]]
        lines: dict[str, set[str]] = {}
        for step in run["steps"]:
            lines.setdefault(step["fn"], set()).add(f"{step['tag']}-L{step['line']}")
        for fn, info in run["functions"].items():
            needed = lines.get(fn, set()) | {f"{info['tag']}-L{info['first']}"}
            # The run's page first, the home page (whose sample listing repeats one) last.
            order = [run["page"]] + sorted(
                (url for url in anchors if url != run["page"]), key=lambda url: url == ""
            )
            info["page"] = next((url for url in order if needed <= anchors.get(url, set())), None)
            shown = [
                url for url in order if f"{info['tag']}-L{info['first']}" in anchors.get(url, set())
            ]
            if info["page"] is None and shown:
                missing = sorted(needed - anchors[shown[0]])
                raise RuntimeError(
                    f"run {run_id}: {fn} is listed on {shown[0]} but these recorded lines have no anchor there: {missing}"
                )
    return runs


def write(site_dir: str, runs: dict[str, dict]) -> None:
    """``traces/RUN_ID.json`` in the site. / 写出站点中的 ``traces/RUN_ID.json``。"""
    folder = Path(site_dir) / "traces"
    folder.mkdir(parents=True, exist_ok=True)
    for run_id, run in runs.items():
        text = json.dumps(run, ensure_ascii=False, separators=(",", ":"))
        size = len(text.encode("utf-8"))
        if size > MAX_BYTES:
            raise RuntimeError(f"run {run_id}: {size} bytes (more than {MAX_BYTES}): fold more")
        (folder / f"{run_id}.json").write_text(text, encoding="utf-8")


def main(argv: list[str]) -> int:
    """Record every marked run (or the ids given) and print them as JSON. / 录制所有标记的运行并以 JSON 输出。"""
    for extra in (str(SRC), str(ROOT)):
        if extra not in sys.path:
            sys.path.insert(0, extra)
    examples = marked_examples()
    unknown = sorted(set(examples) - set(RUNS))
    if unknown:
        raise SystemExit(f"trace markers without an entry in tools/book/trace.py RUNS: {unknown}")
    wanted = argv or sorted(examples)
    runs = {run_id: record(run_id, *examples[run_id]) for run_id in wanted}
    json.dump(runs, sys.stdout, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
