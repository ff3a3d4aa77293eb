"""Pooling, flatten, dropout, embedding layers and modules/utils.py against torch.nn."""

import inspect
import pickle
from collections import OrderedDict

import pytest
import torch
import torch.nn as tnn

import annotated_nn
from annotated_nn.modules import dropout as our_dropout
from annotated_nn.modules import flatten as our_flatten
from annotated_nn.modules import pooling as our_pooling
from annotated_nn.modules import sparse as our_sparse
from annotated_nn.modules import utils as our_utils
from helpers import describe_state_dict, norm, our_mro_as_torch, outcome

PAIRS = [
    (tnn.modules.pooling, our_pooling),
    (tnn.modules.flatten, our_flatten),
    (tnn.modules.dropout, our_dropout),
    (tnn.modules.sparse, our_sparse),
]


def build(nn, name, *args, seed=0, **kwargs):
    torch.manual_seed(seed)
    return getattr(nn, name)(*args, **kwargs)


def observe(module):
    """What a user sees of a module: repr, class name, attributes, parameters, state dict."""
    return (
        norm(repr(module)),
        type(module).__name__,
        sorted((k, repr(v)) for k, v in vars(module).items() if not k.startswith("_")),
        [(n, tuple(p.shape), p.dtype, p.requires_grad) for n, p in module.named_parameters()],
        describe_state_dict(module.state_dict()),
    )


def run(module, inputs, seed=1, **kwargs):
    """Forward + backward from a fixed seed; return outputs, input grads and parameter grads."""
    inputs = [x.detach().clone().requires_grad_(x.is_floating_point()) for x in inputs]
    torch.manual_seed(seed)
    # 中: 浮点输入先 clone 成非叶子张量，inplace 的层才能原地改写它，梯度仍流回叶子。
    # EN: Float inputs go in as non-leaf clones so in-place layers may overwrite them; grads still reach the leaves.
    out = module(*[x.clone() if x.is_floating_point() else x for x in inputs], **kwargs)
    outs = out if isinstance(out, tuple) else (out,)
    y = outs[0]
    (y * torch.linspace(-1, 1, y.numel(), dtype=y.dtype).view_as(y)).sum().backward()
    return (
        [o.detach() for o in outs],
        [x.grad for x in inputs],
        [(n, None if p.grad is None else p.grad.to_dense()) for n, p in module.named_parameters()],
    )


def assert_same_run(a, b):
    (oa, xa, pa), (ob, xb, pb) = a, b
    for u, v in zip(oa, ob, strict=True):
        torch.testing.assert_close(v, u, rtol=0, atol=0, equal_nan=True)
    for u, v in zip(xa, xb, strict=True):
        assert (u is None) == (v is None)
        if u is not None:
            torch.testing.assert_close(v, u, rtol=0, atol=0, equal_nan=True)
    assert [n for n, _ in pa] == [n for n, _ in pb]
    for (_, u), (_, v) in zip(pa, pb):
        torch.testing.assert_close(v, u, rtol=0, atol=0, equal_nan=True)


X1, X2, X3 = (2, 3, 9), (2, 3, 8, 7), (1, 2, 6, 5, 4)
CASES = [
    ("MaxPool1d", (3,), {}, [X1], {}),
    ("MaxPool1d", (3, 2, 1, 2), {"return_indices": True, "ceil_mode": True}, [X1], {}),
    ("MaxPool2d", (2,), {}, [X2], {}),
    (
        "MaxPool2d",
        ((3, 2),),
        {"stride": (2, 1), "padding": 1, "dilation": (1, 2), "return_indices": True},
        [X2],
        {},
    ),
    ("MaxPool3d", (2,), {"ceil_mode": True}, [X3], {}),
    ("AvgPool1d", (3,), {"stride": 2, "padding": 1, "count_include_pad": False}, [X1], {}),
    ("AvgPool2d", (3,), {"padding": 1, "ceil_mode": True, "divisor_override": 2}, [X2], {}),
    ("AvgPool2d", ((2, 3),), {}, [(3, 8, 7)], {}),
    ("AvgPool3d", (2,), {"stride": 1}, [X3], {}),
    ("LPPool1d", (2, 3), {}, [X1], {}),
    ("LPPool2d", (1.5, 2), {"stride": 1, "ceil_mode": True}, [X2], {}),
    ("LPPool3d", (3, 2), {}, [X3], {}),
    ("AdaptiveMaxPool1d", (4,), {"return_indices": True}, [X1], {}),
    ("AdaptiveMaxPool2d", ((None, 3),), {}, [X2], {}),
    ("AdaptiveMaxPool3d", (2,), {}, [X3], {}),
    ("AdaptiveAvgPool1d", (4,), {}, [X1], {}),
    ("AdaptiveAvgPool2d", (1,), {}, [X2], {}),
    ("AdaptiveAvgPool2d", ((3, None),), {}, [X2], {}),
    ("AdaptiveAvgPool3d", ((2, 3, None),), {}, [X3], {}),
    ("FractionalMaxPool2d", (2,), {"output_size": 3}, [X2], {}),
    ("FractionalMaxPool2d", ((2, 3),), {"output_ratio": 0.5, "return_indices": True}, [X2], {}),
    ("FractionalMaxPool3d", (2,), {"output_ratio": (0.5, 0.6, 0.7)}, [X3], {}),
    (
        "FractionalMaxPool2d",
        (2,),
        {"output_size": 3, "_random_samples": torch.rand(2, 3, 2)},
        [X2],
        {},
    ),
    ("Flatten", (), {}, [X3], {}),
    ("Flatten", (0, 2), {}, [X3], {}),
    ("Unflatten", (1, (3, 1)), {}, [X2], {}),
    ("Unflatten", (-1, [-1, 2]), {}, [(2, 3, 8)], {}),
    ("Dropout", (), {}, [(4, 5)], {}),
    ("Dropout", (0.2,), {"inplace": True}, [(4, 5)], {}),
    ("Dropout1d", (0.3,), {}, [X1], {}),
    ("Dropout2d", (), {}, [X2], {}),
    ("Dropout3d", (0.7,), {}, [X3], {}),
    ("AlphaDropout", (0.2,), {}, [(4, 5)], {}),
    ("FeatureAlphaDropout", (0.4,), {"inplace": True}, [X2], {}),
    ("Embedding", (10, 3), {}, [torch.tensor([[1, 2, 4], [4, 3, 9]])], {}),
    (
        "Embedding",
        (10, 3),
        {"padding_idx": -2, "scale_grad_by_freq": True},
        [torch.tensor([8, 8, 1])],
        {},
    ),
    (
        "Embedding",
        (10, 3),
        {"padding_idx": 0, "max_norm": 1.0, "norm_type": 1.0},
        [torch.tensor([0, 2, 2])],
        {},
    ),
    ("Embedding", (10, 3), {"sparse": True}, [torch.tensor([1, 5])], {}),
    ("EmbeddingBag", (10, 3), {}, [torch.tensor([[1, 2], [4, 5]])], {}),
    (
        "EmbeddingBag",
        (10, 3),
        {"mode": "sum", "padding_idx": 2, "max_norm": 2.0},
        [torch.tensor([1, 2, 4, 5, 4, 3])],
        {"offsets": torch.tensor([0, 4])},
    ),
    (
        "EmbeddingBag",
        (10, 3),
        {"mode": "max", "include_last_offset": True, "norm_type": 3},
        [torch.tensor([1, 2, 4, 5])],
        {"offsets": torch.tensor([0, 1, 4])},
    ),
]


def make_input(spec):
    return spec.clone() if isinstance(spec, torch.Tensor) else torch.randn(spec)


def case_id(case):
    name, args, kwargs, _, _ = case
    kwargs = {k: ("T" if isinstance(v, torch.Tensor) else v) for k, v in kwargs.items()}
    return f"{name}{args}{kwargs}".replace(" ", "")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_construct_and_forward_train_and_eval(case):
    name, args, kwargs, specs, fkw = case
    torch.manual_seed(2)
    inputs = [make_input(s) for s in specs]
    theirs = build(tnn, name, *args, **kwargs)
    ours = build(annotated_nn, name, *args, **kwargs)
    assert observe(ours) == observe(theirs)
    # 中: 训练模式（Dropout 与 FractionalMaxPool 在同一种子下得到同一随机掩码/位置），再评估模式。
    # EN: Training mode (same seed → same dropout mask / fractional windows), then evaluation mode.
    for mode in (True, False):
        theirs.train(mode)
        ours.train(mode)
        assert ours.training is theirs.training is mode
        assert_same_run(run(theirs, inputs, **fkw), run(ours, inputs, **fkw))
    assert observe(ours) == observe(theirs)


@pytest.mark.parametrize(
    "case", [c for c in CASES if not isinstance(c[3][0], torch.Tensor)], ids=case_id
)
def test_float64_and_meta(case):
    name, args, kwargs, specs, fkw = case
    kwargs = {k: v for k, v in kwargs.items() if k not in ("_random_samples", "inplace")}
    inputs = [torch.randn(s, dtype=torch.float64) for s in specs]
    theirs = build(tnn, name, *args, **kwargs).double()
    ours = build(annotated_nn, name, *args, **kwargs).double()
    assert_same_run(run(theirs, inputs, **fkw), run(ours, inputs, **fkw))
    if name.startswith("Fractional"):
        return  # the fractional kernels have no meta implementation
    t, o = theirs.to("meta"), ours.to("meta")
    meta_inputs = [torch.empty(s, device="meta") for s in specs]
    yt, yo = t(*meta_inputs, **fkw), o(*meta_inputs, **fkw)
    yt, yo = (yt if isinstance(yt, tuple) else (yt,)), (yo if isinstance(yo, tuple) else (yo,))
    assert [(y.shape, y.device.type) for y in yo] == [(y.shape, y.device.type) for y in yt]


@pytest.mark.parametrize("name", ["Embedding", "EmbeddingBag"])
def test_embedding_dtype_device_and_seed(name):
    for kwargs in ({"dtype": torch.float64}, {"device": "meta"}, {"padding_idx": 3}):
        theirs = build(tnn, name, 7, 4, seed=5, **kwargs)
        ours = build(annotated_nn, name, 7, 4, seed=5, **kwargs)
        assert observe(ours) == observe(theirs)
    theirs = build(tnn, name, 7, 4, padding_idx=1)
    ours = build(annotated_nn, name, 7, 4, padding_idx=1)
    torch.manual_seed(9)
    theirs.reset_parameters()
    torch.manual_seed(9)
    ours.reset_parameters()
    assert observe(ours) == observe(theirs)


def test_maxunpool_roundtrip():
    x, x1, x3 = torch.randn(1, 2, 6, 6), torch.randn(1, 2, 8), torch.randn(1, 1, 4, 4, 4)
    results = []
    for nn in (tnn, annotated_nn):
        pool = nn.MaxPool2d(2, return_indices=True)
        unpool = nn.MaxUnpool2d(2)
        out, idx = pool(x)
        results.append((repr(unpool), unpool(out, idx), unpool(out, idx, output_size=[7, 7]).shape))
        o1, i1 = nn.MaxPool1d(2, stride=2, return_indices=True)(x1)
        results.append((repr(nn.MaxUnpool1d(2)), nn.MaxUnpool1d(2)(o1, i1)))
        o3, i3 = nn.MaxPool3d(2, return_indices=True)(x3)
        results.append((repr(nn.MaxUnpool3d((2, 2, 2), 2, 0)), nn.MaxUnpool3d(2)(o3, i3)))
    half = len(results) // 2
    for (ra, *ta), (rb, *tb) in zip(results[:half], results[half:]):
        assert norm(rb) == norm(ra)
        for u, v in zip(ta, tb):
            if isinstance(u, torch.Tensor):
                torch.testing.assert_close(v, u, rtol=0, atol=0)
            else:
                assert u == v


ERROR_CASES = [
    ("Dropout", (1.5,), {}),
    ("Dropout2d", (-0.1,), {}),
    ("AlphaDropout", (2,), {}),
    ("Unflatten", (1, 5), {}),
    ("Unflatten", (1, (2, 2.0)), {}),
    ("Unflatten", (1, [2, "3"]), {}),
    ("Unflatten", (1, None), {}),
    ("Embedding", (5, 3), {"padding_idx": 5}),
    ("Embedding", (5, 3), {"padding_idx": -6}),
    ("Embedding", (5, 3), {"_weight": torch.zeros(4, 3)}),
    ("EmbeddingBag", (5, 3), {"padding_idx": 7}),
    ("EmbeddingBag", (5, 3), {"padding_idx": -9}),
    ("EmbeddingBag", (5, 3), {"_weight": torch.zeros(5, 2)}),
    ("FractionalMaxPool2d", (2,), {}),
    ("FractionalMaxPool2d", (2,), {"output_size": 3, "output_ratio": 0.5}),
    ("FractionalMaxPool2d", (2,), {"output_ratio": (0.5, 1.0)}),
    ("FractionalMaxPool3d", (0,), {"output_size": 2}),
    ("FractionalMaxPool3d", ((2, -1, 2),), {"output_size": 2}),
    ("FractionalMaxPool3d", (2,), {}),
    ("FractionalMaxPool3d", (2,), {"output_ratio": (0.5, 0.5, 0)}),
    ("MaxPool2d", (), {}),
    ("AvgPool1d", (2,), {"divisor_override": 2}),
]


@pytest.mark.parametrize(
    "name,args,kwargs", ERROR_CASES, ids=[f"{c[0]}{c[1]}{list(c[2])}" for c in ERROR_CASES]
)
def test_constructor_errors(name, args, kwargs):
    theirs = outcome(build, tnn, name, *args, **kwargs)
    ours = outcome(build, annotated_nn, name, *args, **kwargs)
    assert theirs[0] == "raise"
    assert ours == theirs


@pytest.mark.parametrize(
    "name,args,x",
    [
        ("Flatten", (5,), torch.randn(2, 3)),
        ("Unflatten", (1, (2, 2)), torch.randn(2, 3)),
        ("Dropout1d", (), torch.randn(2, 3, 4, 5)),
        ("Embedding", (4, 2), torch.tensor([4])),
        ("EmbeddingBag", (4, 2), torch.tensor([1, 2])),
        ("MaxPool2d", (5,), torch.randn(1, 1, 3, 3)),
        ("AdaptiveAvgPool2d", ((2, 2),), torch.randn(3)),
    ],
)
def test_forward_errors(name, args, x):
    theirs = outcome(lambda: build(tnn, name, *args)(x))
    ours = outcome(lambda: build(annotated_nn, name, *args)(x))
    assert theirs[0] == "raise"
    assert ours == theirs


def test_embedding_from_pretrained():
    w = torch.tensor([[1.0, 2.3, 3.0], [4.0, 5.1, 6.3], [0.5, 0.5, 0.5]])
    for kwargs in (
        {},
        {"freeze": False, "padding_idx": 1, "max_norm": 2.0},
        {"sparse": True, "norm_type": 1.0},
    ):
        theirs = tnn.Embedding.from_pretrained(w.clone(), **kwargs)
        ours = annotated_nn.Embedding.from_pretrained(w.clone(), **kwargs)
        assert observe(ours) == observe(theirs)
        idx = torch.tensor([[0, 1], [2, 1]])
        if theirs.weight.requires_grad:
            assert_same_run(run(theirs, [idx]), run(ours, [idx]))
        else:
            torch.testing.assert_close(ours(idx), theirs(idx), rtol=0, atol=0)
        bag_t = tnn.EmbeddingBag.from_pretrained(
            w.clone(), **{k: v for k, v in kwargs.items() if k != "sparse"}
        )
        bag_o = annotated_nn.EmbeddingBag.from_pretrained(
            w.clone(), **{k: v for k, v in kwargs.items() if k != "sparse"}
        )
        assert observe(bag_o) == observe(bag_t)
        torch.testing.assert_close(bag_o(idx), bag_t(idx), rtol=0, atol=0)
    # 中: from_pretrained 与传入的张量共享内存。
    # EN: from_pretrained shares memory with the tensor passed in.
    assert annotated_nn.Embedding.from_pretrained(w).weight.data_ptr() == w.data_ptr()
    for nn in (tnn, annotated_nn):
        assert outcome(nn.Embedding.from_pretrained, torch.zeros(3)) == outcome(
            tnn.Embedding.from_pretrained, torch.zeros(3)
        )
    assert outcome(annotated_nn.EmbeddingBag.from_pretrained, torch.zeros(2, 2, 2)) == outcome(
        tnn.EmbeddingBag.from_pretrained, torch.zeros(2, 2, 2)
    )


def test_embedding_weight_and_freeze():
    w = torch.randn(4, 2)
    for kwargs in ({"_weight": w}, {"_weight": w, "_freeze": True}, {"_freeze": True}):
        theirs = build(tnn, "Embedding", 4, 2, padding_idx=0, **kwargs)
        ours = build(annotated_nn, "Embedding", 4, 2, padding_idx=0, **kwargs)
        assert observe(ours) == observe(theirs)


def test_avgpool3d_setstate_old_pickle():
    results = []
    for nn in (tnn, annotated_nn):
        m = nn.AvgPool3d(2, divisor_override=3)
        state = dict(m.__dict__)
        for key in ("padding", "ceil_mode", "count_include_pad"):
            del state[key]
        fresh = type(m).__new__(type(m))
        fresh.__setstate__(state)
        results.append((norm(repr(fresh)), fresh.ceil_mode, fresh.count_include_pad, fresh.padding))
    assert results[1] == results[0]


def test_pickle_roundtrip():
    for m in (
        annotated_nn.MaxPool2d(2),
        annotated_nn.Embedding(4, 2),
        annotated_nn.Dropout(0.1),
        annotated_nn.Unflatten(1, (2, 2)),
    ):
        clone = pickle.loads(pickle.dumps(m))
        assert type(clone) is type(m) and repr(clone) == repr(m)
        assert describe_state_dict(clone.state_dict()) == describe_state_dict(m.state_dict())


def own_methods(cls):
    return sorted(
        k for k, v in vars(cls).items() if callable(v) or isinstance(v, (classmethod, staticmethod))
    )


def test_class_shapes_match_torch():
    for t_mod, o_mod in PAIRS:
        assert o_mod.__all__ == t_mod.__all__
        t_classes = {
            k: v
            for k, v in vars(t_mod).items()
            if inspect.isclass(v) and v.__module__ == t_mod.__name__
        }
        o_classes = {
            k: v
            for k, v in vars(o_mod).items()
            if inspect.isclass(v) and v.__module__ == o_mod.__name__
        }
        assert sorted(o_classes) == sorted(t_classes)
        for name, t in t_classes.items():
            o = o_classes[name]
            assert our_mro_as_torch(o) == [c.__name__ for c in t.__mro__], name
            assert o.__dict__.get("__constants__") == t.__dict__.get("__constants__"), name
            assert list(o.__dict__.get("__annotations__", {})) == list(
                t.__dict__.get("__annotations__", {})
            ), name
            assert own_methods(o) == own_methods(t), name
            for meth in own_methods(t):
                if meth.startswith("__") and meth not in ("__init__", "__setstate__"):
                    continue
                ps = lambda f: [
                    (p.name, p.kind, p.default if not isinstance(p.default, torch.Tensor) else "T")
                    for p in inspect.signature(f).parameters.values()
                ]
                assert ps(getattr(o, meth)) == ps(getattr(t, meth)), (name, meth)
        for name in t_mod.__all__:
            assert getattr(annotated_nn, name) is getattr(o_mod, name)


# ---- modules/utils.py -------------------------------------------------------------------------

UTIL_NAMES = ["_single", "_pair", "_triple", "_quadruple"]


@pytest.mark.parametrize("name", UTIL_NAMES)
def test_ntuple(name):
    t, o = getattr(tnn.modules.utils, name), getattr(our_utils, name)
    assert o.__name__ == t.__name__
    for x in (3, 2.5, None, (1, 2), [4, 5, 6], "ab", range(3)):
        assert o(x) == t(x)
    assert our_utils._ntuple(5)(1) == tnn.modules.utils._ntuple(5)(1)
    assert our_utils._ntuple(5).__name__ == tnn.modules.utils._ntuple(5).__name__


def test_reverse_repeat_and_list_with_default():
    for t, n in (((1, 2), 2), ((1, 2, 3), 1), ((), 3), ((4,), 3)):
        assert our_utils._reverse_repeat_tuple(t, n) == tnn.modules.utils._reverse_repeat_tuple(
            t, n
        )
    for out, defaults in (
        ([None, 7], [1, 3, 10, 20]),
        (5, [1, 2]),
        ([None], [3, 4]),
        ([1, 2], [3, 4]),
        ((None, None, 2), [1, 2, 3, 4]),
    ):
        assert outcome(our_utils._list_with_default, out, defaults) == outcome(
            tnn.modules.utils._list_with_default, out, defaults
        )


def test_consume_prefix_in_state_dict_if_present():
    def make():
        sd = OrderedDict([("module.a.weight", 1), ("b", 2), ("module.c", 3), ("modulex", 4)])
        sd._metadata = OrderedDict(
            [
                ("", {"version": 1}),
                ("module", {"version": 2}),
                ("module.a", {"version": 3}),
                ("b", {}),
            ]
        )
        return sd

    results = []
    for fn in (
        tnn.modules.utils.consume_prefix_in_state_dict_if_present,
        our_utils.consume_prefix_in_state_dict_if_present,
    ):
        sd = make()
        assert fn(sd, "module.") is None
        results.append((list(sd.items()), list(sd._metadata.items())))
        plain = {"module.x": 1, "y": 2}
        fn(plain, "module.")
        results.append(list(plain.items()))
    assert results[2:] == results[:2]
    assert our_utils.__all__ == tnn.modules.utils.__all__
