"""Shared pytest configuration: hypothesis profiles, threads, xdist groups and order, the cleanup of global hooks."""

import os
from pathlib import Path

import pytest
import torch
from _pytest.nodeid import NodeId
from hypothesis import HealthCheck, settings

import book_site
import torch_code_guard  # noqa: E402  (tests/torch_code_guard.py; tests/ is on sys.path)

ROOT = Path(__file__).resolve().parents[1]

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# One intra-op thread per test process (unless OMP_NUM_THREADS says otherwise), and for the
# processes the tests start: the tests' tensors are small, and with several processes on a few
# cores (xdist workers, DDP ranks, other jobs) torch's parallel loops wait for busy cores far
# longer than they compute (the book's examples: 6.5 s of CPU with one thread, 11.6 s with two).
# Comparisons of torch with annotated_nn run both with the same count.
os.environ.setdefault("OMP_NUM_THREADS", "1")
torch.set_num_threads(int(os.environ["OMP_NUM_THREADS"]))

# The book's session fixtures (tests/book/conftest.py): one strict mkdocs build per run, shared by
# every worker (tests/book_site.py starts it in the background as soon as a book test is collected),
# and per worker one server and one browser.
BOOK_FIXTURES = frozenset({"book", "server", "browser", "page", "screenshots"})


def _fixtures(item) -> set[str]:
    """The fixtures of the item, not the arguments it is parametrized with (test_examples has a `page`)."""
    callspec = getattr(item, "callspec", None)
    return set(getattr(item, "fixturenames", ())) - set(callspec.params if callspec else ())


def _uses_book(item) -> bool:
    return bool(_fixtures(item) & BOOK_FIXTURES)


# Under pytest-xdist with `--dist loadgroup` (`make test`), the tests of a module (or class) that
# ask for the module's own fixture (the 2-process groups of the DDP tests, the torchrun runs, the
# examples' second run) go to one worker, so that set-up is made once per run.
def _xdist_group(item):
    """The group of the item, or None: it may run on any worker."""
    names = _fixtures(item)
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    # Fixtures that a test or fixture asks for by name (autouse ones are cheap set-ups).
    requested = set(info.argnames)
    for defs in info.name2fixturedefs.values():
        requested.update(defs[-1].argnames)
    for name in sorted(names & requested & set(info.name2fixturedefs)):
        fixturedef = info.name2fixturedefs[name][-1]
        if fixturedef.scope in ("module", "class") and ".py" in fixturedef.baseid:
            return fixturedef.baseid
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    # The book's tests last, so that its build, started now in the background, is ready when a
    # worker reaches them (about a minute of CPU: the other tests run meanwhile, no worker waits);
    # in each half the tests marked slow first, so that no worker starts one when the others are
    # nearly done.
    items.sort(key=lambda item: (_uses_book(item), item.get_closest_marker("slow") is None))
    if not config.option.collectonly and any(_uses_book(item) for item in items):
        book_site.start(book_site.shared_dir(config._tmp_path_factory.getbasetemp()))
    loadgroup = getattr(config.option, "loadgroup", False)  # set in xdist's workers
    for item in items:
        group = _xdist_group(item)
        if group is None:
            continue
        item.add_marker(pytest.mark.xdist_group(group))
        # xdist's scheduler reads the group from the node id (`…@group`). pytest-xdist 3.8
        # appends it through `item._nodeid`, which pytest 9 no longer reads (the id is now
        # `item._id`, a NodeId), so every test would be a group of its own: append it here.
        if loadgroup and not item.nodeid.endswith(f"@{group}"):
            item._id = NodeId.parse(f"{item.nodeid}@{group}")


@pytest.fixture(autouse=True)
def _no_torch_module_code_for_ours(request):
    """In the module-system and optimizer files, torch's Module/Optimizer functions refuse our objects.

    See tests/torch_code_guard.py: the proof of issue 22 runs inside those files' own tests.
    """
    if request.node.path.relative_to(ROOT).as_posix() not in torch_code_guard.GUARDED_FILES:
        yield
        return
    torch_code_guard.ran.clear()
    torch_code_guard.install()
    try:
        yield
    finally:
        torch_code_guard.uninstall()
    assert not torch_code_guard.ran, f"torch code ran for our objects: {torch_code_guard.ran}"


@pytest.fixture(autouse=True)
def _no_leaked_global_state():
    """Every test starts and ends with no global module hooks and default __future__ flags."""
    yield
    import torch.nn.modules.module as tm

    import annotated_nn.modules.module as am

    for mod in (tm, am):
        for name in dir(mod):
            if name.startswith("_global_") and isinstance(getattr(mod, name), dict):
                getattr(mod, name).clear()
        mod._global_is_full_backward_hook = None
    torch.__future__.set_overwrite_module_params_on_conversion(False)
    torch.__future__.set_swap_module_params_on_conversion(False)
