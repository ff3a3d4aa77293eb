"""The claim tests' marker: which sentence of the commentary a test proves.

Every test in tests/claims/ runs a statement of the commentary (a Note, a "1.5.1 → 2.13" sentence
about today's behavior, a pitfall in a chapter, a line note) on ``torch.nn`` **and** on
``annotated_nn`` and asserts what the statement says, for both. It names the place it proves::

    @proves("annotated_src/annotated_nn/modules/module.py", "Module.__getattr__",
            "an AttributeError inside a @property getter is reported for the property's name")
    @pytest.mark.parametrize("nn", NAMESPACES)
    def test_property_error_is_masked(nn): ...

The book's coverage page counts the claims per file by reading these decorators (their first
argument, a literal path) from the source; a test of the checker keeps every path real.
"""

from __future__ import annotations

import pytest
import torch.nn as tnn
import torch.optim as torch_optim

import annotated_nn as ann
import annotated_optim

# Run every claim with both implementations: the claim is about torch 2.13, and ours must agree.
NAMESPACES = {"torch.nn": tnn, "annotated_nn": ann}


def proves(path: str, obj: str, claim: str):
    """Mark a test as the check of one claim at ``path`` (file), ``obj`` (object, Note or line)."""

    def mark(test):
        test.proves = (path, obj, claim)
        return pytest.mark.claim(test)

    return mark


def each_nn():
    """``pytest.mark.parametrize`` over both namespaces, with readable ids."""
    return pytest.mark.parametrize("nn", list(NAMESPACES.values()), ids=list(NAMESPACES))


# The optimizer claims run with torch.optim and with annotated_optim.
OPTIM_NAMESPACES = {"torch.optim": torch_optim, "annotated_optim": annotated_optim}


def each_optim():
    """``pytest.mark.parametrize`` over both optimizer namespaces (argument ``optim``)."""
    return pytest.mark.parametrize(
        "optim", list(OPTIM_NAMESPACES.values()), ids=list(OPTIM_NAMESPACES)
    )


def _rank_worker(rank, scenarios, world_size, port, out_dir, quiet):
    """One gloo process: run ``scenarios(rank, nn)`` for both namespaces and save the records."""
    import os
    import traceback
    import warnings

    import torch
    import torch.distributed as dist

    torch.set_num_threads(1)
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    results = {}
    try:
        with warnings.catch_warnings():
            if quiet:
                warnings.simplefilter("ignore")
            for name, nn in NAMESPACES.items():
                results[name] = scenarios(rank, nn)
    except Exception:  # noqa: BLE001 - reported by the main process
        results["worker error"] = traceback.format_exc()
    finally:
        torch.save(results, os.path.join(out_dir, f"rank{rank}.pt"))
        dist.destroy_process_group()


def run_on_ranks(scenarios, out_dir, world_size=2, quiet=False) -> list[dict]:
    """Spawn ``world_size`` gloo processes on 127.0.0.1, each running ``scenarios(rank, nn)`` for
    both namespaces; per rank, {namespace name: records}. A worker's exception fails the caller.
    ``scenarios`` must be a module-level function (it is pickled by name)."""
    import os

    import torch
    import torch.multiprocessing as mp

    from helpers import free_port

    os.environ.setdefault("OMP_NUM_THREADS", "1")
    mp.spawn(
        _rank_worker,
        args=(scenarios, world_size, free_port(), str(out_dir), quiet),
        nprocs=world_size,
        join=True,
    )
    results = [
        torch.load(os.path.join(out_dir, f"rank{rank}.pt"), weights_only=False)
        for rank in range(world_size)
    ]
    for rank, result in enumerate(results):
        assert "worker error" not in result, f"rank {rank}:\n{result['worker error']}"
    return results


def rank_records(results, nn) -> list:
    """The records of namespace ``nn`` from every rank of ``run_on_ranks``."""
    name = next(key for key, value in NAMESPACES.items() if value is nn)
    return [result[name] for result in results]
