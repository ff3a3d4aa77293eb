"""Helpers for differential tests: run one scenario with torch.nn and with annotated_nn, compare."""

import itertools
import os
import random
import re
import socket
import warnings
from pathlib import Path

import torch
import torch.nn as tnn

import annotated_nn as ann

NAMESPACES = {"torch": tnn, "ours": ann}

_PATHS = [
    # our dotted paths → torch's, so that type names inside messages compare equal
    ("annotated_nn.utils.hooks", "torch.utils.hooks"),
    ("annotated_nn.utils.stateless", "torch.nn.utils.stateless"),
    ("annotated_optim", "torch.optim"),
    ("annotated_nn.", "torch.nn."),
    ("annotated_nn", "torch.nn"),
]


def norm(text):
    """Map annotated_nn's module paths in `text` to torch's and drop memory addresses."""
    text = str(text)
    for ours, theirs in _PATHS:
        text = text.replace(ours, theirs)
    return re.sub(r" at 0x[0-9a-f]+", " at 0x?", text)


def outcome(fn, *args, **kwargs):
    """Run fn and describe what a user sees: ('ok', value) or ('raise', type name, message)."""
    try:
        return ("ok", fn(*args, **kwargs))
    except Exception as e:  # noqa: BLE001 - we compare whatever is raised
        return ("raise", type(e).__name__, norm(str(e)))


def our_mro_as_torch(cls):
    """Names of cls.__mro__ without the torch base classes our core classes subclass.

    annotated_nn.Module subclasses torch.nn.Module (annotated_optim.Optimizer likewise
    torch.optim.Optimizer, our RemovableHandle torch's), so our MRO is torch's with that one torch
    class inserted right after ours; this removes it (and checks it sits right after ours).
    A torch class's MRO is returned unchanged.
    """
    import torch.optim

    bases = {
        torch.nn.Module: "annotated_nn.modules.module",
        torch.optim.Optimizer: "annotated_optim.optimizer",
        torch.utils.hooks.RemovableHandle: "annotated_nn.utils.hooks",
    }
    mro = list(cls.__mro__)
    names = []
    for i, c in enumerate(mro):
        if c in bases and i > 0:
            before = mro[i - 1]
            if before.__module__ == bases[c] and before.__name__ == c.__name__:
                continue
            # torch's base may only follow ours; in a torch class it follows a torch class
            assert not before.__module__.startswith("annotated_"), mro
        names.append(c.__name__)
    return names


def mro_without_torch_module(cls):
    """cls.__mro__ without torch.nn.Module when cls is ours (it sits right after annotated_nn.Module)."""
    if cls.__module__.startswith("annotated_"):
        return tuple(c for c in cls.__mro__ if c is not torch.nn.Module)
    return cls.__mro__


def reset_global_hooks():
    """Empty the global module hook registries (one set, torch's, shared by both libraries)."""
    import torch.nn.modules.module as tm

    for name in dir(tm):
        if name.startswith("_global_") and isinstance(getattr(tm, name), dict):
            getattr(tm, name).clear()
    tm._global_is_full_backward_hook = None


def both(scenario):
    """Run `scenario(nn)` for torch.nn and annotated_nn; return (torch_result, our_result).

    The global hook registries are one set shared by both libraries, so global hooks a scenario
    registers in its torch run would fire in its annotated_nn run too; they are emptied between
    the two runs, as if each ran in a fresh process.
    """
    theirs = scenario(tnn)
    reset_global_hooks()
    return theirs, scenario(ann)


def assert_same(scenario):
    """Run scenario in both namespaces and assert the normalised results are equal."""
    theirs, ours = both(scenario)
    assert ours == theirs, f"\n torch: {theirs!r}\n ours:  {ours!r}"
    return ours


def record_warnings(fn):
    """Run fn, return (result, [(category name, normalised message), ...])."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn()
    return result, [(w.category.__name__, norm(w.message)) for w in caught]


def tensors_equal(a, b):
    """Exact equality of two tensors including dtype, shape and device type."""
    return (
        a.dtype == b.dtype
        and a.shape == b.shape
        and a.device.type == b.device.type
        and (a.is_meta or torch.equal(a.cpu(), b.cpu()))
    )


def describe_state_dict(sd):
    """A comparable summary of a state dict: keys, shapes, dtypes, values, and _metadata."""
    items = [
        (k, tuple(v.shape), str(v.dtype), v.tolist() if not v.is_meta else None)
        if isinstance(v, torch.Tensor)
        else (k, repr(v))
        for k, v in sd.items()
    ]
    meta = getattr(sd, "_metadata", None)
    return items, (dict(meta) if meta is not None else None), type(sd).__name__


def _port_block():
    """This process's ports: below the kernel's ephemeral range, one block per xdist worker."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker[2:]) if worker[2:].isdigit() else 0
    size = 500
    start = low - size * (index + 1)
    if start < 1024:
        return None
    # A random starting point, so that two test runs at once rarely try the same ports.
    offset = random.Random().randrange(size)
    return itertools.cycle([start + (offset + i) % size for i in range(size)])


_PORTS = _port_block()


def free_port():
    """A TCP port free on 127.0.0.1 now, for a process group's rendezvous.

    Rank 0 listens on it a few seconds later, after its process has started. A port from the
    kernel's ephemeral range could be taken in the meantime by any bind to port 0 or outgoing
    connection (another test's gloo group, say), so on Linux the port comes from below that
    range, from a block of ports of this pytest-xdist worker alone.
    """
    for _ in range(500 if _PORTS is not None else 0):
        port = next(_PORTS)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
