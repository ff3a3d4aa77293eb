"""annotated_nn.parallel.DistributedDataParallel vs torch.nn.parallel.DistributedDataParallel.

Each worker process (gloo on 127.0.0.1, CPU) builds the same model twice from the same seed: a
torch.nn twin wrapped by torch's DDP and an annotated_nn model wrapped by ours. Both get the same
per-rank data and the same optimizer (torch.optim.SGD), one after the other, so every collective
runs in the same order on every rank. A worker returns, per scenario, pairs `(torch's, ours)` of
what a user observes (parameters, gradients, buffers, bucket counts, error and warning texts,
state_dict, repr, ...); the main process asserts that the two sides are equal (tensors with
torch.equal, i.e. bit for bit). Scenarios are grouped into three spawns to keep the file fast.
"""

import gc
import os
import pickle
import traceback
import warnings

import pytest
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn.functional as F

import annotated_nn
from annotated_nn.parallel.distributed import DistributedDataParallel as OurDDP
from annotated_nn.parallel.distributed import _DDPJoinHook as OurJoinHook
from helpers import free_port, norm, outcome

pytestmark = pytest.mark.skipif(
    not dist.is_available() or not dist.is_gloo_available(), reason="needs gloo"
)

TorchDDP = torch.nn.parallel.DistributedDataParallel
SIDES = {"torch": (torch.nn, TorchDDP), "ours": (annotated_nn, OurDDP)}
LR = 0.1


# ---------------------------------------------------------------------------------------------
# Models (built in a namespace `nn`, always from seed 0 unless told otherwise)
# ---------------------------------------------------------------------------------------------


def mlp(nn, seed=0):
    """A small MLP: 6 → 16 → 16 → 3."""
    torch.manual_seed(seed)
    return nn.Sequential(
        nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 3)
    )


def deep(nn):
    """Six 16x16 layers: enough parameters for several small buckets."""
    torch.manual_seed(0)
    layers = [nn.Linear(6, 16)] + [nn.Linear(16, 16) for _ in range(5)] + [nn.Linear(16, 3)]
    return nn.Sequential(*layers)


def with_batchnorm(nn):
    """Linear → BatchNorm1d → Linear: running statistics are buffers DDP broadcasts."""
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(6, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 3))


def branchy(nn):
    """A model with a branch its forward never uses."""

    class Branchy(nn.Module):
        def __init__(self):
            super().__init__()
            self.trunk = nn.Linear(6, 16)
            self.used = nn.Linear(16, 3)
            self.unused = nn.Linear(16, 3)

        def forward(self, x):
            return self.used(torch.tanh(self.trunk(x)))

    torch.manual_seed(0)
    return Branchy()


def sparse_embedding(nn):
    """An Embedding with sparse gradients: the Reducer must expect a sparse gradient for it."""

    class Embedded(nn.Module):
        def __init__(self):
            super().__init__()
            self.embedding = nn.Embedding(10, 6, sparse=True)
            self.out = nn.Linear(6, 3)

        def forward(self, x):
            indices = (x.abs() * 3).long().clamp(max=9)
            return self.out(self.embedding(indices).sum(1))

    torch.manual_seed(0)
    return Embedded()


def ignoring_first_bias(nn):
    """An MLP whose first bias DDP is told to ignore (it is neither synced nor reduced)."""
    model = mlp(nn)
    DDP = SIDES["torch" if nn is torch.nn else "ours"][1]
    DDP._set_params_and_buffers_to_ignore_for_model(model, ["0.bias"])
    return model


def batches(rank, count, batch=4):
    """`count` (x, y) batches, different on every rank, identical for both sides."""
    generator = torch.Generator().manual_seed(100 + rank)
    return [
        (torch.randn(batch, 6, generator=generator), torch.randn(batch, 3, generator=generator))
        for _ in range(count)
    ]


# ---------------------------------------------------------------------------------------------
# Helpers used inside the workers
# ---------------------------------------------------------------------------------------------


def step(ddp, optimizer, x, y):
    """One training step; returns the loss."""
    optimizer.zero_grad()
    loss = F.mse_loss(ddp(x), y)
    loss.backward()
    optimizer.step()
    return loss.detach()


def state(ddp):
    """Parameters, gradients and buffers of a DDP module, by name."""
    return {
        "params": {n: p.detach().clone() for n, p in ddp.named_parameters()},
        "grads": {
            n: (None if p.grad is None else p.grad.clone()) for n, p in ddp.named_parameters()
        },
        "buffers": {n: b.clone() for n, b in ddp.named_buffers()},
    }


def bucket_count(ddp):
    """How many gradient buckets the Reducer holds now (sparse buckets cannot be listed)."""
    result = outcome(lambda: len(ddp.reducer._get_zeros_like_grad_buckets()))
    return result[1] if result[0] == "ok" else result


def train(side, make, rank, steps, **ddp_kwargs):
    """Build `make` on one side, wrap it, train `steps` steps; record losses, state, buckets."""
    nn, DDP = SIDES[side]
    ddp = DDP(make(nn), **ddp_kwargs)
    optimizer = torch.optim.SGD(ddp.parameters(), lr=LR)
    losses, buckets = [], []
    for x, y in batches(rank, steps):
        buckets.append(bucket_count(ddp))
        losses.append(step(ddp, optimizer, x, y))
    return {"losses": losses, "buckets": buckets, **state(ddp)}


def both(fn):
    """Run `fn(side)` for torch then ours; return the pair."""
    return (fn("torch"), fn("ours"))


def caught(fn):
    """Run fn, return (outcome, [(warning category, normalized text)])."""
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        result = outcome(fn)
    if result[0] == "ok":
        result = ("ok",)
    texts = [(w.category.__name__, norm(w.message)) for w in record]
    return result, [t for t in texts if "Received mixed precision" not in t[1]]


# ---------------------------------------------------------------------------------------------
# Scenarios: each takes the rank and returns {item: (torch's, ours)}
# ---------------------------------------------------------------------------------------------


def scenario_defaults(rank):
    """Default arguments; plus the user-visible API of the wrapper."""
    out = {"train": both(lambda side: train(side, mlp, rank, 3))}

    def api(side):
        nn, DDP = SIDES[side]
        model = mlp(nn)
        ddp = DDP(model)
        facts = {
            "module_is_model": ddp.module is model,
            "names": [n for n, _ in ddp.named_parameters()],
            "param_values": [p.detach().clone() for p in ddp.parameters()],
            "state_dict": {k: v.clone() for k, v in ddp.state_dict().items()},
            "repr": norm(repr(ddp)),
            "children": [n for n, _ in ddp.named_children()],
            "attrs": (ddp.device_ids, ddp.output_device, ddp.dim, ddp.device_type),
            "flags": (ddp.broadcast_buffers, ddp.forward_sync_buffers, ddp.static_graph),
            "bucket_caps": (ddp.bucket_bytes_cap, ddp.bucket_bytes_cap_default),
        }
        ddp.eval()
        facts["after_eval"] = [m.training for m in ddp.modules()]
        ddp.train()
        facts["after_train"] = [m.training for m in ddp.modules()]
        facts["train_returns_self"] = ddp.train(False) is ddp
        ddp.train()
        # load_state_dict with `module.`-prefixed keys from a twin trained one step.
        other = DDP(mlp(nn, seed=1), init_sync=False)
        facts["load"] = repr(ddp.load_state_dict(other.state_dict()))
        facts["loaded"] = [p.detach().clone() for p in ddp.parameters()]
        logging_data = ddp._get_ddp_logging_data()
        facts["logging"] = {
            k: v for k, v in logging_data.items() if "time" not in k and k != "gloo_num_threads"
        }
        # pickle round trip rebuilds the Reducer on the default group.
        clone = pickle.loads(pickle.dumps(ddp))
        facts["unpickled"] = (
            type(clone).__name__,
            [n for n, _ in clone.named_parameters()],
            [p.detach().clone() for p in clone.parameters()],
            bucket_count(clone),
        )
        return facts

    out["api"] = both(api)
    return out


def scenario_init_sync(rank):
    """Rank-dependent initial weights: broadcast from rank 0, or kept with init_sync=False."""

    def params(side, **kwargs):
        nn, DDP = SIDES[side]
        ddp = DDP(mlp(nn, seed=rank), **kwargs)
        return [p.detach().clone() for p in ddp.parameters()]

    return {
        "synced": both(lambda side: params(side)),
        "not_synced": both(lambda side: params(side, init_sync=False)),
    }


def scenario_buckets(rank):
    """Small buckets: the Reducer rebuilds into several buckets after the first iteration."""
    return {
        "cap_0.002": both(lambda side: train(side, deep, rank, 4, bucket_cap_mb=0.002)),
        "cap_list": both(
            lambda side: train(side, deep, rank, 3, bucket_cap_mb_list=[0.001, 0.002, 0.004])
        ),
    }


def scenario_no_sync(rank):
    """Two micro-batches accumulated locally inside no_sync(), then one synced."""

    def run(side):
        nn, DDP = SIDES[side]
        ddp = DDP(mlp(nn))
        optimizer = torch.optim.SGD(ddp.parameters(), lr=LR)
        data = batches(rank, 6)
        snapshots = []
        for start in (0, 3):
            optimizer.zero_grad()
            with ddp.no_sync():
                for x, y in data[start : start + 2]:
                    F.mse_loss(ddp(x), y).backward()
            snapshots.append(state(ddp)["grads"])  # local, not averaged
            x, y = data[start + 2]
            F.mse_loss(ddp(x), y).backward()
            optimizer.step()
        return {"local_grads": snapshots, **state(ddp)}

    return {"no_sync": both(run)}


def scenario_unused(rank):
    """find_unused_parameters with an unused branch; and the error without it."""
    out = {
        "find_unused": both(lambda side: train(side, branchy, rank, 3, find_unused_parameters=True))
    }

    def missing_flag(side):
        nn, DDP = SIDES[side]
        ddp = DDP(branchy(nn))
        x, y = batches(rank, 1)[0]
        F.mse_loss(ddp(x), y).backward()
        return outcome(lambda: ddp(x))

    out["without_flag"] = both(missing_flag)
    return out


def scenario_buffers(rank):
    """BatchNorm running statistics follow rank 0 before each forward (or not)."""

    def run(side, **kwargs):
        nn, DDP = SIDES[side]
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            ddp = DDP(with_batchnorm(nn), **kwargs)
        optimizer = torch.optim.SGD(ddp.parameters(), lr=LR)
        seen = []
        for x, y in batches(rank, 3):
            step(ddp, optimizer, x, y)
            seen.append({n: b.clone() for n, b in ddp.named_buffers()})
        return {
            "buffers_per_step": seen,
            "warnings": [norm(w.message) for w in record],
            **state(ddp),
        }

    return {
        "default": both(lambda side: run(side)),
        "forward_sync_off": both(lambda side: run(side, forward_sync_buffers=False)),
        "broadcast_buffers_off": both(lambda side: run(side, broadcast_buffers=False)),
    }


def scenario_flags(rank):
    """gradient_as_bucket_view and static_graph."""

    def bucket_view(side):
        result = train(side, deep, rank, 3, gradient_as_bucket_view=True, bucket_cap_mb=0.002)
        return result

    def static(side):
        nn, DDP = SIDES[side]
        ddp = DDP(branchy(nn), static_graph=True)
        optimizer = torch.optim.SGD(ddp.parameters(), lr=LR)
        for x, y in batches(rank, 3):
            step(ddp, optimizer, x, y)
        data = ddp._get_ddp_logging_data()
        return {"static": (data.get("static_graph"), ddp.static_graph), **state(ddp)}

    return {
        "grad_as_bucket_view": both(bucket_view),
        "static_graph": both(static),
        "sparse_embedding": both(lambda side: train(side, sparse_embedding, rank, 3)),
        "ignored_parameter": both(lambda side: train(side, ignoring_first_bias, rank, 3)),
    }


def scenario_comm_hooks(rank):
    """Each comm hook trains the same on both sides."""
    from torch.distributed.algorithms.ddp_comm_hooks import default_hooks, powerSGD_hook

    def with_hook(side, make_state, hook, builtin=None, **ddp_kwargs):
        nn, DDP = SIDES[side]
        ddp = DDP(deep(nn), **ddp_kwargs)
        if builtin is not None:
            ddp._register_builtin_comm_hook(builtin)
        else:
            ddp.register_comm_hook(make_state(), hook)
        optimizer = torch.optim.SGD(ddp.parameters(), lr=LR)
        losses = [step(ddp, optimizer, x, y) for x, y in batches(rank, 4)]
        return {"losses": losses, **state(ddp)}

    def power_sgd_state():
        return powerSGD_hook.PowerSGDState(
            process_group=None, matrix_approximation_rank=1, start_powerSGD_iter=2
        )

    def bf16(side):
        nn, DDP = SIDES[side]
        ddp = DDP(mlp(nn))
        return outcome(lambda: ddp.register_comm_hook(None, default_hooks.bf16_compress_hook))

    small = {"bucket_cap_mb": 0.002}  # several buckets after the rebuild
    return {
        "allreduce": both(
            lambda s: with_hook(s, lambda: None, default_hooks.allreduce_hook, **small)
        ),
        "fp16": both(
            lambda s: with_hook(s, lambda: None, default_hooks.fp16_compress_hook, **small)
        ),
        "bf16_refused_on_cpu": both(bf16),
        # One bucket: PowerSGD chains collectives in future callbacks, and with several buckets
        # gloo may see them in a different order on each rank (torch's DDP aborts the same way).
        "powerSGD": both(lambda s: with_hook(s, power_sgd_state, powerSGD_hook.powerSGD_hook)),
        "builtin_allreduce": both(
            lambda s: with_hook(s, None, None, dist.BuiltinCommHookType.ALLREDUCE, **small)
        ),
        "builtin_fp16": both(
            lambda s: with_hook(s, None, None, dist.BuiltinCommHookType.FP16_COMPRESS, **small)
        ),
    }


def scenario_join(rank):
    """join() with rank r holding 3 + r batches; the final model is the same everywhere."""

    def run(side, **join_kwargs):
        nn, DDP = SIDES[side]
        ddp = DDP(mlp(nn))
        optimizer = torch.optim.SGD(ddp.parameters(), lr=LR)
        with ddp.join(**join_kwargs):
            for x, y in batches(rank, 3 + rank):
                step(ddp, optimizer, x, y)
        return state(ddp)

    def early(side):
        nn, DDP = SIDES[side]
        ddp = DDP(mlp(nn))
        optimizer = torch.optim.SGD(ddp.parameters(), lr=LR)

        def loop():
            with ddp.join(throw_on_early_termination=True):
                for x, y in batches(rank, 3 + rank):
                    step(ddp, optimizer, x, y)

        return outcome(loop)

    return {
        "initial_world_size": both(lambda side: run(side)),
        "effective_world_size": both(lambda side: run(side, divide_by_initial_world_size=False)),
        "throw_on_early_termination": both(early),
    }


def scenario_errors(rank):
    """Argument checks, warnings and misuse: the same texts as torch's."""
    out = {}

    def build(side, make=mlp, **kwargs):
        nn, DDP = SIDES[side]
        return caught(lambda: DDP(make(nn), **kwargs))

    def frozen(nn):
        return mlp(nn).requires_grad_(False)

    def meta_and_cpu(nn):
        return nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2, device="meta"))

    def lazy(nn):
        return nn.Sequential(nn.LazyLinear(3))

    def sync_batchnorm(nn):
        return nn.Sequential(nn.Linear(6, 4), nn.SyncBatchNorm(4))

    cases = {
        "delay_without_hook_param": {"delay_all_reduce_named_params": []},
        "group_and_mesh": {"process_group": dist.group.WORLD, "device_mesh": object()},
        "two_device_ids": {"device_ids": [0, 1]},
        "device_ids_on_cpu": {"device_ids": [0]},
        "output_device_on_cpu": {"output_device": 1},
        "check_reduction": {"check_reduction": True},
        "broadcast_buffers": {"broadcast_buffers": True},
        "both_buffer_flags": {"broadcast_buffers": False, "forward_sync_buffers": True},
        "static_and_find_unused": {"static_graph": True, "find_unused_parameters": True},
    }
    for name, kwargs in cases.items():
        out[name] = both(lambda side, kwargs=kwargs: build(side, **kwargs))
    out["no_trainable_parameter"] = both(lambda side: build(side, frozen))
    out["two_device_types"] = both(lambda side: build(side, meta_and_cpu))
    out["lazy_module"] = both(lambda side: build(side, lazy))
    out["sync_batchnorm_on_cpu"] = both(lambda side: build(side, sync_batchnorm))

    def misuse(side):
        nn, DDP = SIDES[side]
        ddp = DDP(mlp(nn))
        facts = {}

        def bad_bucket(state, bucket: int):
            return bucket

        def bad_return(state, bucket) -> int:
            return bucket

        def no_bucket(state, grads):
            return grads

        facts["not_callable"] = outcome(lambda: ddp.register_comm_hook(None, 3))
        facts["bad_bucket"] = outcome(lambda: ddp.register_comm_hook(None, bad_bucket))
        facts["bad_return"] = outcome(lambda: ddp.register_comm_hook(None, bad_return))
        facts["no_bucket"] = outcome(lambda: ddp.register_comm_hook(None, no_bucket))
        facts["sample_rate"] = outcome(lambda: ddp._set_ddp_runtime_logging_sample_rate(0))
        facts["static_first"] = caught(ddp._set_static_graph)
        facts["static_again"] = caught(ddp._set_static_graph)
        facts["join_hook_type"] = type(ddp.join_hook()).__name__
        facts["join_hook_on_model"] = outcome(
            lambda: (OurJoinHook if side == "ours" else _torch_join_hook())(ddp.module, True)
        )
        facts["hook_once"] = (
            outcome(lambda: ddp._register_builtin_comm_hook(dist.BuiltinCommHookType.ALLREDUCE)),
            outcome(lambda: ddp._register_builtin_comm_hook(dist.BuiltinCommHookType.ALLREDUCE)),
        )
        return facts

    out["misuse"] = both(misuse)

    # Pickling needs the default process group.
    group = dist.new_group([0, 1])

    def pickle_other_group(side):
        nn, DDP = SIDES[side]
        ddp = DDP(mlp(nn), process_group=group)
        return outcome(lambda: pickle.dumps(ddp))

    out["pickle_other_group"] = both(pickle_other_group)

    # Mixed precision builds on CPU but its forward needs events the CPU backend lacks.
    from torch.nn.parallel.distributed import _MixedPrecision as TorchMP

    from annotated_nn.parallel.distributed import _MixedPrecision as OurMP

    def mixed(side):
        nn, DDP = SIDES[side]
        config = (TorchMP if side == "torch" else OurMP)(param_dtype=torch.float16)
        ddp = DDP(mlp(nn), mixed_precision=config)
        return outcome(lambda: ddp(torch.ones(2, 6)))

    out["mixed_precision_cpu"] = both(mixed)
    return out


def _torch_join_hook():
    from torch.nn.parallel.distributed import _DDPJoinHook

    return _DDPJoinHook


# ---------------------------------------------------------------------------------------------
# Spawning
# ---------------------------------------------------------------------------------------------


def _worker(rank, world_size, port, out_dir, scenario_names):
    torch.set_num_threads(1)
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    results = {}
    try:
        for name in scenario_names:
            try:
                results[name] = globals()[f"scenario_{name}"](rank)
            except Exception:  # noqa: BLE001 - reported by the main process
                results[name] = {"worker error": traceback.format_exc()}
                break
    finally:
        torch.save(results, os.path.join(out_dir, f"rank{rank}.pt"))
        # DDP objects sit in reference cycles (hooks hold bound methods); free their Reducers
        # while the group exists: a Reducer torn down at interpreter exit can abort the worker.
        gc.collect()
        dist.destroy_process_group()


def _spawn(tmp_path, world_size, scenario_names):
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    mp.spawn(
        _worker,
        args=(world_size, free_port(), str(tmp_path), scenario_names),
        nprocs=world_size,
        join=True,
    )
    return [
        torch.load(tmp_path / f"rank{rank}.pt", weights_only=False) for rank in range(world_size)
    ]


def same(a, b):
    """Deep equality with bit-identical tensors."""
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        return (
            isinstance(a, torch.Tensor)
            and isinstance(b, torch.Tensor)
            and a.dtype == b.dtype
            and a.shape == b.shape
            and a.layout == b.layout
            and torch.equal(a.to_dense(), b.to_dense())
        )
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
    return a == b


def check(results):
    """Assert torch's == ours for every item of every scenario on every rank."""
    for rank, per_rank in enumerate(results):
        for scenario, items in per_rank.items():
            assert "worker error" not in items, f"rank {rank}, {scenario}:\n{items['worker error']}"
            for item, (theirs, ours) in items.items():
                assert same(theirs, ours), (
                    f"rank {rank}, {scenario}/{item}:\n torch: {theirs!r}\n ours:  {ours!r}"
                )


@pytest.fixture(scope="module")
def two_ranks(tmp_path_factory):
    names = ["defaults", "init_sync", "buckets", "no_sync", "unused", "buffers", "flags"]
    return _spawn(tmp_path_factory.mktemp("ddp_a"), 2, names)


@pytest.fixture(scope="module")
def two_ranks_more(tmp_path_factory):
    names = ["comm_hooks", "join", "errors"]
    return _spawn(tmp_path_factory.mktemp("ddp_b"), 2, names)


@pytest.fixture(scope="module")
def three_ranks(tmp_path_factory):
    return _spawn(tmp_path_factory.mktemp("ddp_c"), 3, ["defaults", "buckets", "join"])


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_training_and_api_equal_torch(two_ranks):
    check(two_ranks)
    for per_rank in two_ranks:
        api = per_rank["defaults"]["api"][1]
        assert api["module_is_model"] and api["names"][0] == "module.0.weight"
        assert not any(api["after_eval"]) and all(api["after_train"])
        # init_sync broadcasts rank 0's weights; init_sync=False keeps each rank's own.
        synced = per_rank["init_sync"]
        assert same(synced["synced"][1], two_ranks[0]["init_sync"]["synced"][1])
        # Several buckets after the rebuild, as many as torch's.
        buckets = per_rank["buckets"]["cap_0.002"][1]["buckets"]
        assert buckets[0] == 1 and buckets[-1] >= 3, buckets
        # The unused branch keeps a None gradient; the missing flag is an error.
        grads = per_rank["unused"]["find_unused"][1]["grads"]
        assert grads["module.unused.weight"] is None
        assert per_rank["unused"]["without_flag"][1][0] == "raise"
    assert not same(
        two_ranks[0]["init_sync"]["not_synced"][1], two_ranks[1]["init_sync"]["not_synced"][1]
    )
    # Gradients are averaged: every rank ends with the same parameters.
    for scenario, item in [
        ("defaults", "train"),
        ("no_sync", "no_sync"),
        ("flags", "static_graph"),
    ]:
        assert same(
            two_ranks[0][scenario][item][1]["params"], two_ranks[1][scenario][item][1]["params"]
        )
    # Buffers follow rank 0 by default, stay rank-local when forward sync is off.
    default = [r["buffers"]["default"][1]["buffers_per_step"] for r in two_ranks]
    assert not same(default[0][-1], default[1][-1])  # each rank updates after the broadcast
    off = [r["buffers"]["forward_sync_off"][1]["buffers"] for r in two_ranks]
    assert not same(off[0], off[1])
    # An ignored parameter is not averaged: it differs across ranks, the others do not.
    ignored = [r["flags"]["ignored_parameter"][1]["params"] for r in two_ranks]
    assert not torch.equal(ignored[0]["module.0.bias"], ignored[1]["module.0.bias"])
    assert torch.equal(ignored[0]["module.0.weight"], ignored[1]["module.0.weight"])


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_hooks_join_and_errors_equal_torch(two_ranks_more):
    check(two_ranks_more)
    for per_rank in two_ranks_more:
        assert per_rank["comm_hooks"]["bf16_refused_on_cpu"][1][0] == "raise"
        errors = per_rank["errors"]
        assert errors["two_device_ids"][1][0][0] == "raise"
        assert errors["lazy_module"][1][0][0] == "raise"
        assert errors["sync_batchnorm_on_cpu"][1][0][0] == "raise"
        assert errors["check_reduction"][1][1][0][0] == "FutureWarning"
        assert errors["misuse"][1]["join_hook_type"] == "_DDPJoinHook"
    for item in ("initial_world_size", "effective_world_size"):
        assert same(
            two_ranks_more[0]["join"][item][1]["params"],
            two_ranks_more[1]["join"][item][1]["params"],
        )


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_three_ranks_equal_torch(three_ranks):
    check(three_ranks)
    params = [r["join"]["initial_world_size"][1]["params"] for r in three_ranks]
    assert same(params[0], params[1]) and same(params[1], params[2])


def test_torch_nn_model_under_our_ddp_meets_the_layer_checks():
    """DIFF: our DDP's layer-class checks know torch.nn's Embedding and SyncBatchNorm too."""
    if dist.is_initialized():
        pytest.skip("a default process group already exists")
    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    try:
        seen = {}
        for side, DDP in (("torch", TorchDDP), ("ours", OurDDP)):
            torch.manual_seed(0)
            model = torch.nn.Sequential(
                torch.nn.Embedding(10, 4, sparse=True), torch.nn.Flatten(), torch.nn.Linear(8, 2)
            )
            DDP(model)(torch.tensor([[1, 2]])).sum().backward()
            with_sync_bn = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.SyncBatchNorm(4))
            seen[side] = (
                model[0].weight.grad.to_dense(),
                model[2].weight.grad,
                outcome(lambda: DDP(with_sync_bn)),  # noqa: B023 - called at once
            )
        assert same(seen["torch"], seen["ours"])
        assert seen["ours"][2][0] == "raise"
    finally:
        dist.destroy_process_group()


def _cuda_worker(rank, world_size, port, out_dir):
    """One GPU per process over NCCL: `device_ids=[rank]`, inputs moved by DDP itself."""
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    results = {}
    try:
        for side, (nn, DDP) in SIDES.items():
            ddp = DDP(deep(nn).cuda(rank), device_ids=[rank], bucket_cap_mb=0.002)
            optimizer = torch.optim.SGD(ddp.parameters(), lr=LR)
            for x, y in batches(rank, 3):
                optimizer.zero_grad()
                # CPU inputs: DDP's pre-forward moves them to `device_ids[0]`.
                F.mse_loss(ddp(x), y.cuda(rank)).backward()
                optimizer.step()
            results[side] = {n: p.detach().cpu() for n, p in ddp.named_parameters()}
            del ddp, optimizer
            gc.collect()
        torch.save(results, os.path.join(out_dir, f"rank{rank}.pt"))
    finally:
        dist.destroy_process_group()


@pytest.mark.cuda
@pytest.mark.slow
@pytest.mark.timeout(180)
@pytest.mark.skipif(
    not torch.cuda.is_available() or torch.cuda.device_count() < 2 or not dist.is_nccl_available(),
    reason="needs 2 CUDA devices and NCCL",
)
def test_two_gpus_over_nccl_equal_torch(tmp_path):
    mp.spawn(_cuda_worker, args=(2, free_port(), str(tmp_path)), nprocs=2, join=True)
    results = [torch.load(tmp_path / f"rank{r}.pt", weights_only=True) for r in range(2)]
    for per_rank in results:
        assert same(per_rank["torch"], per_rank["ours"])
    assert same(results[0]["ours"], results[1]["ours"])
