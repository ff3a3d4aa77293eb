"""AdaptiveLogSoftmaxWithLoss, LinearCrossEntropyLoss and LinearCrossEntropyOptions against torch.nn.

Each scenario runs with torch.nn and with annotated_nn from the same seed; outputs, losses,
gradients, reprs, state_dict keys, errors and warnings must be identical (tensors: torch.equal).
"""

import copy
import dataclasses
import inspect
import pickle
import warnings

import pytest
import torch
import torch.nn as tnn

import annotated_nn as ann
from annotated_nn.modules import adaptive as our_adaptive
from annotated_nn.modules import linear_cross_entropy_options as our_options
from annotated_nn.modules import loss as our_loss
from helpers import describe_state_dict, norm, our_mro_as_torch, outcome, tensors_equal

NAMESPACES = (tnn, ann)


def observe_module(module):
    """What a user sees of a freshly built module."""
    return (
        norm(repr(module)),
        [(n, tuple(p.shape), p.dtype) for n, p in module.named_parameters()],
        describe_state_dict(module.state_dict()),
        {
            k: norm(repr(v))
            for k, v in module.__dict__.items()
            if not k.startswith("_") and k != "training"
        },
    )


def run_both(scenario):
    """Run scenario(nn) for torch.nn and annotated_nn, recording the outcome and the warnings."""
    results = []
    for nn in NAMESPACES:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = outcome(scenario, nn)
        results.append((res, [(w.category.__name__, norm(w.message)) for w in caught]))
    return results


def assert_same_tensors(theirs, ours):
    assert len(theirs) == len(ours)
    for i, (t, o) in enumerate(zip(theirs, ours)):
        if isinstance(t, torch.Tensor):
            assert tensors_equal(t, o), f"item {i}:\n torch: {t}\n ours:  {o}"
        else:
            assert norm(repr(o)) == norm(repr(t)), f"item {i}"


def assert_same(scenario):
    """Same warnings; same error, or same tensors (scenario returns a tuple of tensors/values)."""
    (rt, wt), (ro, wo) = run_both(scenario)
    assert wo == wt, f"warnings differ:\n torch: {wt}\n ours:  {wo}"
    if rt[0] == "ok" and ro[0] == "ok":
        assert_same_tensors(rt[1], ro[1])
    else:
        assert ro == rt, f"\n torch: {rt}\n ours:  {ro}"
    return rt


# ------------------------------------------------------------------------------------------
# AdaptiveLogSoftmaxWithLoss
# ------------------------------------------------------------------------------------------

ASM_CONFIGS = [
    dict(in_features=16, n_classes=20, cutoffs=[4, 10]),
    dict(in_features=16, n_classes=20, cutoffs=(4, 10), div_value=2.0, head_bias=True),
    dict(in_features=10, n_classes=30, cutoffs=range(5, 30, 10)),  # hidden sizes 2, 0, 0
    dict(in_features=8, n_classes=12, cutoffs=[11], div_value=3, dtype=torch.float64),
    dict(in_features=8, n_classes=12, cutoffs=[3], device="meta"),
]


def build_asm(nn, seed=0, **config):
    torch.manual_seed(seed)
    return nn.AdaptiveLogSoftmaxWithLoss(**config)


@pytest.mark.parametrize("config", ASM_CONFIGS, ids=str)
def test_asm_construction_matches(config):
    (rt, wt), (ro, wo) = run_both(lambda nn: observe_module(build_asm(nn, **config)))
    assert wo == wt
    assert ro == rt
    assert rt[0] == "ok"


def test_asm_repr_and_state_dict_keys():
    t, o = (build_asm(nn, in_features=16, n_classes=20, cutoffs=[4, 10]) for nn in NAMESPACES)
    assert repr(o) == repr(t)
    assert (
        list(o.state_dict())
        == list(t.state_dict())
        == [
            "head.weight",
            "tail.0.0.weight",
            "tail.0.1.weight",
            "tail.1.0.weight",
            "tail.1.1.weight",
        ]
    )
    assert [type(m).__name__ for m in o.modules()] == [type(m).__name__ for m in t.modules()]
    assert isinstance(o.head, ann.Linear) and isinstance(o.tail, ann.ModuleList)
    assert all(isinstance(c, ann.Sequential) for c in o.tail)
    assert (o.shortlist_size, o.n_clusters, o.head_size, o.cutoffs) == (4, 2, 6, [4, 10, 20])


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(cutoffs=[]),
        dict(cutoffs=[10, 4]),
        dict(cutoffs=[0, 4]),
        dict(cutoffs=[-1, 4]),
        dict(cutoffs=[4, 20]),
        dict(cutoffs=[4, 19]),
        dict(cutoffs=[4, 4]),
        dict(cutoffs=[4.5]),
        dict(cutoffs=[4.0, 10.0]),
        dict(cutoffs=["a", "b"]),
        dict(cutoffs=[4, "b"]),
        dict(cutoffs=None),
        dict(cutoffs=5),
        dict(cutoffs=[4], div_value=0.0),
        dict(cutoffs=[4], device="nope"),
    ],
    ids=str,
)
def test_asm_constructor_errors_match(kwargs):
    def scenario(nn):
        torch.manual_seed(0)
        return observe_module(nn.AdaptiveLogSoftmaxWithLoss(16, 20, **kwargs))

    (rt, wt), (ro, wo) = run_both(scenario)
    assert ro == rt
    assert wo == wt


def asm_forward(nn, config, x, target, seed=0):
    m = build_asm(nn, seed=seed, **config)
    x = x.clone().requires_grad_(True)
    result = m(x, target)
    assert type(result).__name__ == "_ASMoutput"
    result.loss.backward()
    grads = [p.grad if p.grad is not None else torch.zeros(0) for p in m.parameters()]
    return (result.output, result.loss, x.grad, *grads, repr(result).count("_ASMoutput"))


ASM_TARGETS = [
    torch.tensor([0, 5, 19, 3, 4, 12, 9, 10]),  # every range
    torch.tensor([0, 1, 2, 3]),  # shortlist only: no tail runs
    torch.tensor([11, 15, 19]),  # last cluster only
    torch.tensor([7]),  # one row: the index tensor is 0-dim after squeeze
    torch.tensor([2, 8]),  # one row in each of two ranges
]


@pytest.mark.parametrize("config", ASM_CONFIGS[:2], ids=str)
@pytest.mark.parametrize("target", ASM_TARGETS, ids=lambda t: str(t.tolist()))
def test_asm_forward_backward_identical(config, target):
    x = torch.randn(len(target), 16, generator=torch.Generator().manual_seed(1))
    assert_same(lambda nn: asm_forward(nn, config, x, target))


def test_asm_unbatched_forward_identical():
    config = ASM_CONFIGS[0]
    x = torch.randn(16, generator=torch.Generator().manual_seed(2))
    for target in (torch.tensor(2), torch.tensor(13)):
        rt = assert_same(lambda nn: asm_forward(nn, config, x, target))
        assert rt[1][0].shape == torch.Size([])


def test_asm_zero_width_cluster_and_float64():
    config = ASM_CONFIGS[2]
    x = torch.randn(4, 10, generator=torch.Generator().manual_seed(3))
    assert_same(lambda nn: asm_forward(nn, config, x, torch.tensor([1, 7, 20, 29])))
    config = ASM_CONFIGS[3]
    x = torch.randn(3, 8, generator=torch.Generator().manual_seed(4), dtype=torch.float64)
    assert_same(lambda nn: asm_forward(nn, config, x, torch.tensor([0, 10, 11])))


@pytest.mark.parametrize(
    "shapes",
    [
        ((3, 16), torch.tensor([0, 1])),  # batch sizes differ
        ((2, 2, 16), torch.tensor([0, 1])),  # 1-dim target with a 3-dim input
        ((16,), torch.tensor([0] * 16)),  # 1-dim input, same length as the target
        ((3,), torch.tensor([0, 1])),  # 1-dim input of another length: "same size" first
        ((2, 16), torch.tensor(1)),  # 0-dim target with a 2-dim input
        ((2, 16), torch.tensor([[0, 1], [1, 0]])),  # 2-dim target
        ((3, 16), torch.tensor([0, 20, 1])),  # target = n_classes
        ((3, 16), torch.tensor([-1, 5, 1])),  # negative target
        ((16,), torch.tensor(25)),  # unbatched, out of range
        ((2, 15), torch.tensor([0, 1])),  # wrong feature count: the head's matmul fails
    ],
    ids=str,
)
def test_asm_input_shape_errors_match(shapes):
    size, target = shapes
    x = torch.randn(*size, generator=torch.Generator().manual_seed(5))
    rt = assert_same(lambda nn: asm_forward(nn, ASM_CONFIGS[0], x, target))
    assert rt[0] == "raise"


def test_asm_log_prob_identical_and_normalized():
    x = torch.randn(5, 16, generator=torch.Generator().manual_seed(6))

    def scenario(nn):
        m = build_asm(nn, **ASM_CONFIGS[1])
        xx = x.clone().requires_grad_(True)
        logp = m.log_prob(xx)
        logp.sum().backward()
        return (logp, xx.grad, *[p.grad for p in m.parameters()])

    rt = assert_same(scenario)
    torch.testing.assert_close(rt[1][0].exp().sum(1), torch.ones(5))


def _steer_head(m, mode):
    """Make the head's argmax fall in the shortlist, in a cluster, or depend on the row."""
    with torch.no_grad():
        m.head.weight.zero_()
        m.head.bias.zero_()
        if mode == "shortlist":
            m.head.bias[1] = 5.0
        elif mode == "cluster":
            m.head.bias[m.shortlist_size + 1] = 5.0
        else:  # mixed: feature 0 positive -> cluster column, negative -> shortlist column
            m.head.weight[m.shortlist_size, 0] = 5.0
            m.head.weight[2, 0] = -5.0


@pytest.mark.parametrize("mode", ["shortlist", "cluster", "mixed", "random"])
def test_asm_predict_identical_on_every_branch(mode):
    x = torch.randn(6, 16, generator=torch.Generator().manual_seed(7))
    x[:, 0] = torch.tensor([1.0, -1.0, 2.0, -2.0, 0.5, -0.5])

    def scenario(nn):
        m = build_asm(nn, **ASM_CONFIGS[1])
        if mode != "random":
            _steer_head(m, mode)
        in_shortlist = m.head(x).argmax(dim=1) < m.shortlist_size
        return (m.predict(x), m.log_prob(x).argmax(dim=1), in_shortlist)

    rt = assert_same(scenario)
    predicted, full_argmax, in_shortlist = rt[1]
    assert torch.equal(predicted, full_argmax)
    expected = {"shortlist": [True] * 6, "cluster": [False] * 6, "mixed": [False, True] * 3}
    if mode in expected:
        assert in_shortlist.tolist() == expected[mode]


def test_asm_reset_parameters_replays_the_constructor():
    def scenario(nn):
        m = build_asm(nn, **ASM_CONFIGS[1])
        with torch.no_grad():
            for p in m.parameters():
                p.fill_(3.0)
        torch.manual_seed(0)
        m.reset_parameters()
        fresh = build_asm(nn, **ASM_CONFIGS[1])
        same = all(torch.equal(a, b) for a, b in zip(m.parameters(), fresh.parameters()))
        return (*m.parameters(), same)

    rt = assert_same(scenario)
    assert rt[1][-1] is True


def test_asm_output_namedtuple_matches():
    theirs, ours = tnn.modules.adaptive._ASMoutput, our_adaptive._ASMoutput
    assert ours.__name__ == theirs.__name__ == "_ASMoutput"
    assert ours._fields == theirs._fields == ("output", "loss")
    assert repr(ours(1, 2)) == repr(theirs(1, 2))
    assert ours.__doc__ == theirs.__doc__
    assert our_adaptive.__all__ == tnn.modules.adaptive.__all__


def test_asm_loads_torch_state_dict_and_agrees():
    t = build_asm(tnn, seed=3, **ASM_CONFIGS[1])
    o = build_asm(ann, seed=9, **ASM_CONFIGS[1])
    assert repr(o.load_state_dict(t.state_dict())) == repr(t.load_state_dict(t.state_dict()))
    x = torch.randn(4, 16, generator=torch.Generator().manual_seed(8))
    target = torch.tensor([0, 5, 12, 19])
    assert torch.equal(o(x, target).loss, t(x, target).loss)


# ------------------------------------------------------------------------------------------
# LinearCrossEntropyLoss
# ------------------------------------------------------------------------------------------


def build_lce(nn, *args, seed=0, options=None, **kwargs):
    torch.manual_seed(seed)
    if options is not None:
        kwargs["options"] = nn.LinearCrossEntropyOptions(**options)
    return nn.LinearCrossEntropyLoss(*args, **kwargs)


LCE_CONFIGS = [
    dict(),
    dict(bias=True),
    dict(out_features=(4, 3)),
    dict(out_features=(2,), bias=True, weight=torch.arange(1.0, 11.0)),
    dict(dtype=torch.float64, reduction="sum", ignore_index=3, label_smoothing=0.2),
    dict(device="meta"),
    dict(options={}),
    dict(options=dict(batch_chunk_size=2, chunking_method=None, allow_retain_graph=True)),
]


@pytest.mark.parametrize("config", LCE_CONFIGS, ids=str)
def test_lce_construction_matches(config):
    (rt, wt), (ro, wo) = run_both(lambda nn: observe_module(build_lce(nn, 5, 10, **config)))
    assert wo == wt
    assert ro == rt
    assert rt[0] == "ok"


def test_lce_repr_and_state_dict_keys():
    for kwargs in (dict(), dict(bias=True, weight=torch.ones(10), options={})):
        t, o = (build_lce(nn, 5, 10, **kwargs) for nn in NAMESPACES)
        assert repr(o) == repr(t)
        assert list(o.state_dict()) == list(t.state_dict())
    assert list(o.state_dict()) == ["weight", "linear.weight", "linear.bias"]


@pytest.mark.parametrize(
    "scenario",
    [
        lambda nn: nn.LinearCrossEntropyLoss(5, 10, weight=torch.ones(9)),
        lambda nn: nn.LinearCrossEntropyLoss(5, 10, weight=torch.ones(10, 1)),
        lambda nn: nn.LinearCrossEntropyLoss(5, 10, label_smoothing=-0.1),
        lambda nn: nn.LinearCrossEntropyLoss(5, 10, label_smoothing=1.5),
        lambda nn: nn.LinearCrossEntropyLoss(5, 10, weight=torch.ones(3), label_smoothing=2.0),
        lambda nn: nn.LinearCrossEntropyLoss(5, 10, (2,)),
        lambda nn: nn.LinearCrossEntropyLoss(5),
        lambda nn: nn.LinearCrossEntropyLoss(5, 10, size_average=True),
        lambda nn: nn.LinearCrossEntropyLoss(5, 10, device="nope"),
        lambda nn: nn.LinearCrossEntropyLoss(5, 10, label_smoothing=1.0).label_smoothing,
    ],
)
def test_lce_constructor_errors_match(scenario):
    (rt, wt), (ro, wo) = run_both(scenario)
    assert ro == rt
    assert wo == wt


def lce_run(nn, x, target, *args, backward=True, **kwargs):
    loss_fn = build_lce(nn, *args, **kwargs)
    x = x.clone().requires_grad_(True)
    out = loss_fn(x, target)
    if backward:
        out.sum().backward()
    grads = [p.grad for p in loss_fn.parameters()]
    return (out, x.grad, *grads)


N, IN, C = 6, 5, 10
X = torch.randn(N, IN, generator=torch.Generator().manual_seed(11))
IDX = torch.tensor([1, 3, 3, 9, 0, 3])
PROBS = torch.randn(N, C, generator=torch.Generator().manual_seed(12)).softmax(1)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("ignore_index", [None, 3, -100])
@pytest.mark.parametrize("label_smoothing", [0.0, 0.25])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("bias", [False, True])
def test_lce_index_targets_identical(reduction, ignore_index, label_smoothing, weighted, bias):
    weight = torch.linspace(0.5, 2.0, C) if weighted else None
    assert_same(
        lambda nn: lce_run(
            nn,
            X,
            IDX,
            IN,
            C,
            bias=bias,
            reduction=reduction,
            ignore_index=ignore_index,
            label_smoothing=label_smoothing,
            weight=weight,
        )
    )


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("label_smoothing", [0.0, 0.25])
@pytest.mark.parametrize("weighted", [False, True])
def test_lce_probability_targets_identical(reduction, label_smoothing, weighted):
    weight = torch.linspace(0.5, 2.0, C) if weighted else None
    assert_same(
        lambda nn: lce_run(
            nn,
            X,
            PROBS,
            IN,
            C,
            reduction=reduction,
            label_smoothing=label_smoothing,
            weight=weight,
        )
    )


def test_lce_unbatched_and_k_dimensional_identical():
    assert_same(lambda nn: lce_run(nn, X[0], IDX[0], IN, C, bias=True))
    assert_same(lambda nn: lce_run(nn, X[0], PROBS[0], IN, C))
    target = torch.randint(0, C, (N, 4, 3), generator=torch.Generator().manual_seed(13))
    for reduction in ("mean", "none"):
        assert_same(
            lambda nn: lce_run(
                nn, X, target, IN, C, out_features=(4, 3), bias=True, reduction=reduction
            )
        )
    probs = torch.randn(N, C, 4, generator=torch.Generator().manual_seed(14)).softmax(1)
    assert_same(lambda nn: lce_run(nn, X, probs, IN, C, out_features=(4,)))


CHUNK_OPTIONS = [
    {},
    dict(batch_chunk_size=2, chunking_method=None),
    dict(batch_chunk_size=4, chunking_method=None, acc_policy="accurate"),
    dict(chunking_method="aspect_ratio"),
    dict(chunking_method="aspect_ratio:2", acc_policy="balanced", allow_retain_graph=True),
    dict(acc_dtype=torch.float32, acc_policy="compact"),
]


@pytest.mark.parametrize("options", CHUNK_OPTIONS, ids=str)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("ignore_index", [None, 3])
@pytest.mark.parametrize("bias", [False, True])
def test_lce_chunked_path_identical(options, reduction, ignore_index, bias):
    assert_same(
        lambda nn: lce_run(
            nn,
            X,
            IDX,
            IN,
            C,
            bias=bias,
            reduction=reduction,
            ignore_index=ignore_index,
            weight=torch.linspace(0.5, 2.0, C),
            options=options,
        )
    )


@pytest.mark.parametrize(
    "kwargs, target",
    [
        (dict(label_smoothing=0.1), IDX),  # smoothing: reference path, with a warning
        (dict(), PROBS),  # probability target
        (dict(out_features=(2,)), torch.zeros(N, 2, dtype=torch.long)),  # K-dim
        (dict(), IDX.int()),  # int32 target
    ],
    ids=["smoothing", "probabilities", "k-dim", "int32"],
)
def test_lce_options_fallback_warns_like_torch(kwargs, target):
    rt = assert_same(lambda nn: lce_run(nn, X, target, IN, C, options={}, **kwargs))
    del rt


def test_lce_chunked_second_backward_like_torch():
    def scenario(nn, allow):
        loss_fn = build_lce(nn, IN, C, options=dict(allow_retain_graph=allow))
        out = loss_fn(X, IDX)
        out.backward(retain_graph=True)
        first = loss_fn.linear.weight.grad.clone()
        out.backward()
        return (first, loss_fn.linear.weight.grad)

    for allow in (False, True):
        assert_same(lambda nn: scenario(nn, allow))


@pytest.mark.parametrize(
    "scenario",
    [
        lambda nn: build_lce(nn, IN, C)(torch.zeros(2, 3, IN), torch.zeros(2, 3).long()),
        lambda nn: build_lce(nn, IN, C)(torch.zeros(3, IN + 1), IDX[:3]),
        lambda nn: build_lce(nn, IN, C)(X, IDX[:3]),
        lambda nn: build_lce(nn, IN, C, ignore_index=1)(X, PROBS),
        lambda nn: build_lce(nn, IN, C, out_features=(2,))(X[0], torch.tensor([1, 2])),
        lambda nn: build_lce(nn, IN, C, reduction="bad")(X, IDX),
        lambda nn: build_lce(nn, IN, C, reduction="bad", options={})(X, IDX),
        lambda nn: build_lce(nn, IN, C)(X, torch.tensor([0, 1, 2, 3, 4, 10])),
        lambda nn: build_lce(nn, IN, C, options=dict(batch_chunk_size=2))(X, IDX),
        lambda nn: build_lce(nn, IN, C, options=dict(acc_dtype=torch.float64))(X, IDX),
        lambda nn: build_lce(
            nn, IN, C, options=dict(batch_chunk_size=5, chunking_method="aspect_ratio")
        )(X, IDX),
    ],
)
def test_lce_input_errors_match(scenario):
    (rt, wt), (ro, wo) = run_both(scenario)
    assert ro == rt
    assert wo == wt


def test_lce_buffer_and_parameters_move_and_load():
    def scenario(nn):
        loss_fn = build_lce(nn, IN, C, bias=True, weight=torch.ones(C))
        loss_fn.double()
        sd = loss_fn.state_dict()
        fresh = build_lce(nn, IN, C, seed=5, bias=True, weight=torch.zeros(C)).double()
        result = fresh.load_state_dict(sd)
        return (*sd.values(), repr(result), fresh(X.double(), IDX))

    assert_same(scenario)


def test_lce_with_torch_options_and_torch_loss_with_ours():
    """Our options object drives torch's kernel, and torch's options work in our loss."""
    theirs = lce_run(tnn, X, IDX, IN, C, options=dict(batch_chunk_size=2, chunking_method=None))
    torch.manual_seed(0)
    mixed = ann.LinearCrossEntropyLoss(
        IN, C, options=tnn.LinearCrossEntropyOptions(batch_chunk_size=2, chunking_method=None)
    )
    x = X.clone().requires_grad_(True)
    out = mixed(x, IDX)
    out.backward()
    assert torch.equal(out, theirs[0]) and torch.equal(x.grad, theirs[1])
    torch.manual_seed(0)
    reverse = tnn.LinearCrossEntropyLoss(
        IN, C, options=ann.LinearCrossEntropyOptions(batch_chunk_size=2, chunking_method=None)
    )
    assert torch.equal(reverse(X, IDX), theirs[0])


# ------------------------------------------------------------------------------------------
# LinearCrossEntropyOptions
# ------------------------------------------------------------------------------------------


def test_options_dataclass_surface_matches():
    theirs, ours = tnn.LinearCrossEntropyOptions, ann.LinearCrossEntropyOptions
    assert our_options.__all__ == tnn.modules.linear_cross_entropy_options.__all__
    assert norm(inspect.signature(ours)) == norm(inspect.signature(theirs))
    assert ours.__slots__ == theirs.__slots__
    assert ours.__match_args__ == theirs.__match_args__
    assert repr(ours.__dataclass_params__) == repr(theirs.__dataclass_params__)
    assert [(f.name, f.default, str(f.type)) for f in dataclasses.fields(ours)] == [
        (f.name, f.default, str(f.type)) for f in dataclasses.fields(theirs)
    ]
    assert norm(ours.__annotations__) == norm(theirs.__annotations__)
    own = lambda cls: sorted(k for k in vars(cls) if not k.startswith("__"))  # noqa: E731
    assert own(ours) == own(theirs)
    t_mod, o_mod = tnn.modules.linear_cross_entropy_options, our_options
    assert o_mod._AUTO_DEFAULTS == t_mod._AUTO_DEFAULTS
    assert o_mod._AUTO_FALLBACK == t_mod._AUTO_FALLBACK
    assert o_mod._AutoDefault._fields == t_mod._AutoDefault._fields


def test_options_value_semantics_match():
    def scenario(nn):
        a = nn.LinearCrossEntropyOptions(batch_chunk_size=4, acc_dtype=torch.float32)
        b = nn.LinearCrossEntropyOptions(batch_chunk_size=4, acc_dtype=torch.float32)
        frozen = outcome(setattr, a, "batch_chunk_size", 8)
        no_dict = outcome(setattr, a, "other", 1)
        return (
            repr(a),
            a == b,
            hash(a) == hash(b),
            a == nn.LinearCrossEntropyOptions(),
            frozen,
            no_dict,
            repr(copy.deepcopy(a)),
            repr(pickle.loads(pickle.dumps(a))),
            repr(dataclasses.replace(a, acc_policy="compact")),
            dataclasses.astuple(a),
        )

    (rt, wt), (ro, wo) = run_both(scenario)
    assert ro == rt and wo == wt


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(acc_policy="fast"),
        dict(acc_policy=["auto"]),
        dict(chunking_method="aspect_ratio:0"),
        dict(chunking_method="aspect_ratio:x"),
        dict(chunking_method="aspect_ratio:-1"),
        dict(chunking_method="ratio"),
        dict(chunking_method="aspect_ratio:3"),
        dict(chunking_method=3),
        dict(batch_chunk_size=0),
        dict(batch_chunk_size=2.0),
        dict(batch_chunk_size=True),
        dict(acc_dtype=torch.int64),
        dict(acc_dtype="float32"),
        dict(acc_dtype=torch.float64, acc_policy="compact", chunking_method=None),
    ],
    ids=str,
)
def test_options_validation_matches(kwargs):
    (rt, wt), (ro, wo) = run_both(lambda nn: repr(nn.LinearCrossEntropyOptions(**kwargs)))
    assert ro == rt and wo == wt


ADJUST_OPTIONS = [
    {},
    dict(batch_chunk_size=3),
    dict(batch_chunk_size=3, chunking_method="aspect_ratio"),
    dict(batch_chunk_size=4, chunking_method="aspect_ratio"),
    dict(chunking_method=None),
    dict(chunking_method="aspect_ratio:4", acc_policy="balanced"),
    dict(acc_policy="accurate"),
    dict(acc_dtype=torch.float16),
]
ADJUST_CALLS = [
    (1024, 64, 32000, torch.float32, torch.device("cpu")),
    (1024, 64, 32000, torch.bfloat16, torch.device("cpu")),
    (1024, 64, 32000, torch.float16, None),
    (7, 5, 10, torch.float64, torch.device("cpu")),
    (1, 8, 4, torch.float16, torch.device("meta")),
    (33, 16, 17, torch.bfloat16, torch.device("cuda")),
]


@pytest.mark.parametrize("options", ADJUST_OPTIONS, ids=str)
@pytest.mark.parametrize("call", ADJUST_CALLS, ids=str)
def test_options_adjust_matches(options, call):
    n, features, classes, dtype, device = call

    def scenario(nn):
        opts = nn.LinearCrossEntropyOptions(**options)
        return repr(opts._adjust(n, features, classes, dtype, device=device))

    (rt, wt), (ro, wo) = run_both(scenario)
    assert ro == rt and wo == wt


@pytest.mark.parametrize(
    "args",
    [(1024, 64, 32000), (5, 5, 5), (1, 100, 3), (1000, 3, 7), (64, 8, 1024)],
    ids=str,
)
@pytest.mark.parametrize("method", [None, "aspect_ratio", "aspect_ratio:2", "aspect_ratio:64"])
def test_options_chunk_size_helpers_match(args, method):
    def scenario(nn):
        cls = nn.LinearCrossEntropyOptions
        opts = cls(chunking_method="aspect_ratio:3")
        return (
            opts._compute_batch_chunk_size(*args, method),
            cls._ceil_div(args[0], args[1]),
            [
                cls._resolve_auto_acc_dtype(d, dev)
                for d in (torch.float16, torch.bfloat16, torch.float32)
                for dev in (None, torch.device("cpu"), torch.device("meta"))
            ],
            outcome(cls(chunking_method=None)._compute_batch_chunk_size, *args),
        )

    (rt, wt), (ro, wo) = run_both(scenario)
    assert ro == rt and wo == wt


# ------------------------------------------------------------------------------------------
# class-level facts shared by the three names
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["AdaptiveLogSoftmaxWithLoss", "LinearCrossEntropyLoss", "LinearCrossEntropyOptions"]
)
def test_class_surface_matches(name):
    theirs, ours = getattr(tnn, name), getattr(ann, name)
    assert our_mro_as_torch(ours) == [c.__name__ for c in theirs.__mro__]
    assert ours.__module__ == theirs.__module__.replace("torch.nn", "annotated_nn")
    assert ours.__dict__.get("__constants__") == theirs.__dict__.get("__constants__")
    annotations = lambda cls: {  # noqa: E731
        k: norm(repr(v)) for k, v in cls.__dict__.get("__annotations__", {}).items()
    }
    assert annotations(ours) == annotations(theirs)
    for attr in sorted(vars(theirs)):
        value = getattr(theirs, attr)
        if inspect.isfunction(value) or isinstance(value, staticmethod):
            assert norm(inspect.signature(getattr(ours, attr))) == norm(
                inspect.signature(getattr(theirs, attr))
            ), attr
    assert getattr(ann.modules, name) is ours
    assert name in ann.modules.__all__


def test_loss_module_exports_in_torch_order():
    assert our_loss.__all__ == tnn.modules.loss.__all__
    assert our_loss.LinearCrossEntropyLoss is ann.LinearCrossEntropyLoss
