"""The facts the two DDP diagrams draw, checked against the live code.

`ddp-buckets` and `ddp-timeline` (diagrams/generate.py, data from diagrams/ddp_trace.py) read a
live `annotated_nn.parallel.DistributedDataParallel`. These tests check what the pictures claim:
at least three rebuilt buckets, bucket 0 holding the last layer, buckets filled in
gradient-ready order as torch's bucketing function and torch's own DDP do, and in the traced step
a bucket's all-reduce launched while later gradients are still to come. The spawned two-process
run is cached inside `ddp_trace`, so this file and tests/book/test_diagrams.py share it when they
run in one process.
"""

import importlib
import importlib.util
import sys
from pathlib import Path

import pytest
import torch
import torch.distributed as dist

pytestmark = [
    pytest.mark.skipif(not dist.is_available() or not dist.is_gloo_available(), reason="gloo"),
    pytest.mark.slow,
]

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("ddp_diagrams", ROOT / "diagrams" / "generate.py")
generate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(generate)
# generate.py put diagrams/ on sys.path: this is the module its DDP diagrams use, cache included.
ddp_trace = importlib.import_module("ddp_trace")


def names_of(bucket):
    return [name for name, _shape in bucket.params]


def model_parameters():
    import annotated_nn

    return list(ddp_trace.build_model(annotated_nn).named_parameters())


def test_initial_buckets_are_ddps_constructor_assignment():
    """One unbounded bucket, as `_compute_bucket_assignment_by_size` gives DDP's constructor."""
    live = ddp_trace.live_buckets()
    named = model_parameters()
    params = [p for _, p in named]
    indices, _limits = dist._compute_bucket_assignment_by_size(
        params, [sys.maxsize], [False] * len(params)
    )
    expected = [[named[i][0] for i in bucket] for bucket in reversed(indices)]
    assert [names_of(b) for b in live["initial"]] == expected
    assert len(live["initial"]) == 1
    assert [b.index for b in live["initial"]] == [0]


def test_rebuilt_buckets_follow_gradient_ready_order():
    live = ddp_trace.live_buckets()
    rebuilt = live["rebuilt"]
    assert len(rebuilt) >= 3
    assert [b.index for b in rebuilt] == list(range(len(rebuilt)))
    # Bucket 0 fills first in the backward pass: it holds the last layer, fc.
    assert set(names_of(rebuilt[0])) == {"fc.weight", "fc.bias"}
    # The buckets, concatenated, are the order in which gradients became ready.
    assert [n for b in rebuilt for n in names_of(b)] == list(live["ready"])
    # That is torch's bucketing of the parameters in ready order, with DDP's byte cap.
    named = dict(model_parameters())
    ordered = [named[n] for n in live["ready"]]
    indices, _ = dist._compute_bucket_assignment_by_size(
        ordered, [live["cap_bytes"]], [False] * len(ordered)
    )
    assert [[live["ready"][i] for i in bucket] for bucket in indices] == [
        names_of(b) for b in rebuilt
    ]
    # Sizes: the flat buffer holds every parameter; a bucket closes once it reaches the cap.
    assert live["cap_bytes"] == int(ddp_trace.BUCKET_CAP_MB * 1024 * 1024) == 2048
    for bucket in rebuilt + live["initial"]:
        numel = sum(named[n].numel() for n in names_of(bucket))
        assert bucket.numel == numel and bucket.nbytes == 4 * numel and bucket.dtype == "float32"
        assert [tuple(named[n].shape) for n in names_of(bucket)] == [s for _, s in bucket.params]
    for bucket in rebuilt[:-1]:
        assert bucket.nbytes >= live["cap_bytes"]
        assert bucket.nbytes - 4 * named[names_of(bucket)[-1]].numel() < live["cap_bytes"]


def test_buckets_match_torchs_ddp():
    """torch's DDP on the torch.nn twin makes the same buckets, before and after the rebuild."""
    assert ddp_trace.live_buckets("torch.nn") == ddp_trace.live_buckets("annotated_nn")


def test_bucket_diagram_draws_the_live_buckets():
    live = ddp_trace.live_buckets()
    dot = generate.ddp_buckets_dot()
    for column in ("initial", "rebuilt"):
        for bucket in live[column]:
            node = generate.q(f"{column}{bucket.index}")
            line = next(x for x in dot.splitlines() if x.strip().startswith(node + " [label=<"))
            assert f"bucket.index() = {bucket.index}" in line
            for name, shape in bucket.params:
                dims = ", ".join(str(d) for d in shape)
                assert f"{name}  ({dims})" in line
            assert f"{bucket.numel} × float32 = {bucket.nbytes} B" in line
    assert f"bucket_bytes_cap = {live['cap_bytes']} B" in dot


def test_traced_step_overlaps_communication_with_backward():
    live = ddp_trace.live_buckets()
    runs = ddp_trace.traced_run()
    assert len(runs) == ddp_trace.WORLD_SIZE == 2
    drawn = [ddp_trace.drawn_events(run["steps"]) for run in runs]
    assert drawn[0] == drawn[1], "both ranks see the same order of events"
    for run, events in zip(runs, drawn):
        # The spawned run bucketed like the one-process run.
        assert [names_of(ddp_trace.Bucket(*b)) for b in run["buckets"]] == [
            names_of(b) for b in live["rebuilt"]
        ]
        kinds = [e[0] for e in events]
        ready = [e[1] for e in events if e[0] == "ready"]
        launches = [e for e in events if e[0] == "launch"]
        assert ready == list(live["ready"])
        assert [e[1] for e in launches] == list(range(len(live["rebuilt"])))
        assert [e[2] for e in launches] == [names_of(b) for b in live["rebuilt"]]
        # Overlap: bucket 0 is launched before the last gradient is ready.
        first_launch = kinds.index("launch")
        last_ready = len(kinds) - 1 - kinds[::-1].index("ready")
        assert first_launch < last_ready
        # Each bucket is launched right after the last of its gradients becomes ready.
        for launch in launches:
            position = events.index(launch)
            assert events[position - 1] == ["ready", launch[2][-1]]
            assert set(launch[2]) <= set(ready[: ready.index(launch[2][-1]) + 1])
        assert kinds[-2:] == ["backward returned", "step"]
        # Completions (not drawn: their order varies) all come before backward() returns.
        last = run["steps"][-1]
        done = [e[1] for e in last if e[0] == "done"]
        assert sorted(done) == list(range(len(launches)))
        returned = last.index(["backward returned"])
        assert all(last.index(["done", b]) < returned for b in done)


def test_first_step_has_one_bucket_and_no_overlap():
    """Before the rebuild, the single bucket is launched only once every gradient is ready."""
    for run in ddp_trace.traced_run():
        first = [e for e in run["steps"][0] if e[0] != "done"]
        kinds = [e[0] for e in first]
        assert kinds.count("launch") == 1
        assert kinds.index("launch") == len(kinds) - 3  # then backward returned, step


def test_timeline_diagram_draws_rank_rows_in_event_order():
    dot = generate.ddp_timeline_dot()
    runs = ddp_trace.traced_run()
    for rank, run in enumerate(runs):
        events = ddp_trace.drawn_events(run["steps"])
        for column, event in enumerate(events):
            line = next(
                x for x in dot.splitlines() if x.startswith(f'  "r{rank}e{column}" [label=')
            )
            if event[0] == "ready":
                assert f'label="{event[1]}"' in line
            elif event[0] == "launch":
                assert f"bucket {event[1]}" in line
            else:
                assert ("backward()" in line) == (event[0] == "backward returned")
            if column:
                assert f'"r{rank}e{column - 1}" -> "r{rank}e{column}"' in dot
    # One dashed bar per bucket, from its launch column to the column where backward() returns.
    events = ddp_trace.drawn_events(runs[0]["steps"])
    end = [e[0] for e in events].index("backward returned")
    for column, event in enumerate(events):
        if event[0] == "launch":
            bucket = event[1]
            assert f'"bar{bucket}c{column}" [label="", shape=circle' in dot
            assert f'"bar{bucket}c{end - 1}" -> "bar{bucket}c{end}"' in dot
            assert f'"bar{bucket}c{column - 1}"' not in dot


def test_generation_is_cached():
    """The spawned run happens once per process: generate_all() reuses it."""
    # 中: 先确保已经运行过一次（本进程中之前的测试不一定调用过它）。
    # EN: Make sure it ran once (earlier tests of this process may not have called it).
    ddp_trace.traced_run()
    before = ddp_trace.traced_run.cache_info().misses
    ddp_trace.traced_run()
    generate.ddp_timeline_dot()
    assert ddp_trace.traced_run.cache_info().misses == before <= 1
    assert torch.distributed.is_initialized() is False
