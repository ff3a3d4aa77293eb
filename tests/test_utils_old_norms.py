"""annotated_nn.utils.weight_norm / spectral_norm vs torch.nn.utils' (first-generation hooks)."""

import copy
import importlib
import inspect
import pickle
import warnings

import pytest
import torch
import torch.nn as tnn

import annotated_nn as ann
from helpers import assert_same, describe_state_dict, norm, outcome, record_warnings

WN = {
    tnn: importlib.import_module("torch.nn.utils.weight_norm"),
    ann: importlib.import_module("annotated_nn.utils.weight_norm"),
}
SN = {
    tnn: importlib.import_module("torch.nn.utils.spectral_norm"),
    ann: importlib.import_module("annotated_nn.utils.spectral_norm"),
}


def quiet(fn, *args, **kwargs):
    """Call fn with warnings silenced (weight_norm's FutureWarning is tested on its own)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def fmt(t):
    """A tensor as comparable plain data: dtype, shape and exact values."""
    return None if t is None else (str(t.dtype), tuple(t.shape), t.detach().tolist())


def layer(nn, kind):
    """A small layer of `kind` from a fixed seed, with an input that fits it."""
    torch.manual_seed(0)
    if kind == "linear":
        return nn.Linear(4, 3), torch.randn(2, 4)
    if kind == "conv2d":
        return nn.Conv2d(2, 3, 3), torch.randn(1, 2, 5, 5)
    if kind == "convT2d":
        return nn.ConvTranspose2d(2, 3, (2, 3)), torch.randn(1, 2, 4, 4)
    raise ValueError(kind)


def test_public_names_and_signatures():
    for table in (WN, SN):
        theirs, ours = table[tnn], table[ann]
        assert ours.__all__ == theirs.__all__
        for name in theirs.__all__:
            a, b = getattr(theirs, name), getattr(ours, name)
            members = [("", a, b)]
            if inspect.isclass(a):
                members += [
                    (m, getattr(a, m), getattr(b, m))
                    for m in vars(a)
                    if inspect.isfunction(getattr(a, m))
                ]
            for member, x, y in members:
                shapes = [
                    [(p.name, p.kind, p.default) for p in inspect.signature(f).parameters.values()]
                    for f in (x, y)
                ]
                assert shapes[0] == shapes[1], (name, member)
    assert SN[ann].SpectralNorm._version == SN[tnn].SpectralNorm._version == 1
    assert WN[ann].WeightNorm.apply.__deprecated__ == WN[tnn].WeightNorm.apply.__deprecated__


# ----------------------------------------------------------------------------- weight_norm


@pytest.mark.parametrize("kind", ["linear", "conv2d"])
@pytest.mark.parametrize("dim", [0, 1, None, -1, -2])
def test_weight_norm_forward_backward_state_dict(kind, dim):
    def scenario(nn):
        m, x = layer(nn, kind)
        quiet(WN[nn].weight_norm, m, dim=dim)
        y1 = m(x)
        y1.square().sum().backward()
        # the pre-hook recomputes the weight on every call: change g and v, call again
        with torch.no_grad():
            m.weight_g.mul_(1.5)
            m.weight_v.add_(0.25)
        y2 = m(x)
        return (
            fmt(y1),
            fmt(y2),
            fmt(m.weight),
            fmt(m.weight_g.grad),
            fmt(m.weight_v.grad),
            fmt(m.bias.grad),
            [n for n, _ in m.named_parameters()],
            [type(p).__name__ for p in m.parameters()],
            "weight" in m._parameters,
            type(m.weight).__name__,
            m.weight.requires_grad,
            describe_state_dict(m.state_dict()),
            repr(m),
            len(m._forward_pre_hooks),
            type(m.weight.grad_fn).__name__,
        )

    assert_same(scenario)


def test_weight_norm_shares_storage_and_named_dim():
    def scenario(nn):
        m, _ = layer(nn, "linear")
        original = m.weight
        quiet(WN[nn].weight_norm, m, name="weight", dim=1)
        hook = next(iter(m._forward_pre_hooks.values()))
        return (
            m.weight_v.data_ptr() == original.data_ptr(),
            type(hook).__name__,
            hook.name,
            hook.dim,
            WN[nn].WeightNorm("w", None).dim,
        )

    assert_same(scenario)


def test_weight_norm_on_other_parameter_and_two_names():
    def scenario(nn):
        m, x = layer(nn, "linear")
        quiet(WN[nn].weight_norm, m, name="bias", dim=0)
        quiet(WN[nn].weight_norm, m, name="weight")
        y = m(x)
        y.sum().backward()
        return (
            fmt(y),
            [(n, fmt(p.grad)) for n, p in m.named_parameters()],
            describe_state_dict(m.state_dict()),
        )

    assert_same(scenario)


def test_weight_norm_deprecation_warning():
    def scenario(nn):
        m, _ = layer(nn, "linear")
        applied, caught = record_warnings(lambda: WN[nn].weight_norm(m))
        removed, caught_remove = record_warnings(lambda: WN[nn].remove_weight_norm(m))
        return applied is m, caught, removed is m, caught_remove

    ours = assert_same(scenario)
    assert ours[1] == [
        (
            "FutureWarning",
            "`torch.nn.utils.weight_norm` is deprecated in favor of "
            "`torch.nn.utils.parametrizations.weight_norm`.",
        )
    ]


def test_weight_norm_errors():
    def scenario(nn):
        wn = WN[nn]
        m, _ = layer(nn, "linear")
        results = [record_warnings(lambda: outcome(wn.remove_weight_norm, m))]
        quiet(wn.weight_norm, m)
        results.append(record_warnings(lambda: outcome(wn.weight_norm, m)))
        results.append(outcome(wn.remove_weight_norm, m, "bias"))
        results.append(record_warnings(lambda: outcome(wn.weight_norm, nn.Linear(2, 2), "nope")))
        bufferful = nn.BatchNorm1d(2)
        results.append(quiet(outcome, wn.weight_norm, bufferful, "running_mean"))
        results.append(sorted(bufferful._parameters))
        nobias = nn.Linear(2, 2, bias=False)
        results.append(quiet(outcome, wn.weight_norm, nobias, "bias"))
        results.append(sorted(nobias._parameters))
        results.append(quiet(outcome, wn.weight_norm, nn.Sequential(nn.Linear(2, 2)), "weight"))
        return results

    assert_same(scenario)


@pytest.mark.parametrize("kind", ["LazyLinear", "LazyConv2d", "LazyConvTranspose1d"])
def test_lazy_modules_are_refused(kind):
    """PyTorch's lazy-module tests: weight_norm/spectral_norm on a lazy module raise ValueError."""

    def scenario(nn):
        m = getattr(nn, kind)(3) if kind == "LazyLinear" else getattr(nn, kind)(3, 2)
        wn = record_warnings(lambda: outcome(WN[nn].weight_norm, m))
        sn = record_warnings(lambda: outcome(SN[nn].spectral_norm, m))
        return wn, sn, sorted(m._parameters), len(m._forward_pre_hooks)

    wn, sn, *_ = assert_same(scenario)
    assert wn[0][:2] == ("raise", "ValueError") and "have uninitialized parameters." in wn[0][2]
    assert sn[0][:2] == ("raise", "ValueError") and "have uninitialized parameters." in sn[0][2]


def test_lazy_module_after_materialization():
    def scenario(nn):
        torch.manual_seed(0)
        m = nn.LazyLinear(3)
        x = torch.randn(2, 4)
        m(x)
        quiet(WN[nn].weight_norm, m)
        s = nn.LazyLinear(3)
        s(x)
        SN[nn].spectral_norm(s)
        return fmt(m(x)), fmt(s(x)), list(m.state_dict()), list(s.state_dict())

    assert_same(scenario)


def test_remove_weight_norm_restores_plain_parameter():
    def scenario(nn):
        m, x = layer(nn, "conv2d")
        quiet(WN[nn].weight_norm, m, dim=None)
        with torch.no_grad():
            m.weight_g.mul_(0.5)
        m(x)
        expected = m.weight.detach().clone()
        WN[nn].remove_weight_norm(m)
        y = m(x)
        y.sum().backward()
        return (
            torch.equal(m.weight.detach(), expected),
            type(m.weight).__name__,
            isinstance(m.weight, nn.Parameter),
            m.weight.requires_grad,
            fmt(m.weight),
            fmt(m.weight.grad),
            [n for n, _ in m.named_parameters()],
            describe_state_dict(m.state_dict()),
            len(m._forward_pre_hooks),
            "weight" in m.__dict__,
            fmt(y),
        )

    ours = assert_same(scenario)
    assert ours[0] is True


def test_weight_norm_deepcopy_and_pickle():
    def scenario(nn):
        m, x = layer(nn, "linear")
        quiet(WN[nn].weight_norm, m)
        fresh = outcome(copy.deepcopy, m)
        with torch.no_grad():
            m(x)
        copied = copy.deepcopy(m)
        copied_out = copied(x)
        with torch.no_grad():
            copied.weight_g.mul_(2)
        restored = pickle.loads(pickle.dumps(m))
        return (
            fresh,
            fmt(copied_out),
            fmt(m(x)),
            fmt(copied(x)),
            [type(h).__name__ for h in copied._forward_pre_hooks.values()],
            fmt(restored(x)),
            describe_state_dict(restored.state_dict()),
        )

    fresh, *_ = assert_same(scenario)
    assert fresh[0] == "raise" and "graph leaves" in fresh[2]


@pytest.mark.parametrize("direction", ["torch_to_ours", "ours_to_torch"])
def test_weight_norm_state_dict_round_trip(direction):
    src_nn, dst_nn = (tnn, ann) if direction == "torch_to_ours" else (ann, tnn)
    src, x = layer(src_nn, "linear")
    quiet(WN[src_nn].weight_norm, src)
    with torch.no_grad():
        src.weight_g.mul_(3)
        src.weight_v.sub_(0.5)
    dst, _ = layer(dst_nn, "linear")
    torch.manual_seed(1)
    dst.weight.data.normal_()
    quiet(WN[dst_nn].weight_norm, dst)
    result = dst.load_state_dict(src.state_dict())
    assert list(result.missing_keys) == [] and list(result.unexpected_keys) == []
    assert torch.equal(dst(x), src(x))
    assert describe_state_dict(dst.state_dict()) == describe_state_dict(src.state_dict())


# ----------------------------------------------------------------------------- spectral_norm


@pytest.mark.parametrize(
    "kind,kwargs",
    [
        ("linear", {}),
        ("linear", {"n_power_iterations": 3, "eps": 1e-6}),
        ("conv2d", {}),
        ("conv2d", {"dim": 1}),
        ("convT2d", {}),
        ("convT2d", {"dim": 0}),
    ],
)
def test_spectral_norm_train_eval_and_gradients(kind, kwargs):
    def scenario(nn):
        m, x = layer(nn, kind)
        applied, caught = record_warnings(lambda: SN[nn].spectral_norm(m, **kwargs))
        assert applied is m and caught == []
        u_ptr, v_ptr = m.weight_u.data_ptr(), m.weight_v.data_ptr()
        u0, v0 = m.weight_u.clone(), m.weight_v.clone()
        steps = []
        for training in (True, True, False, False, True):
            m.train(training)
            before = m.weight_u.clone(), m.weight_v.clone()
            y = m(x)
            y.square().sum().backward()
            steps.append(
                (
                    fmt(y),
                    fmt(m.weight),
                    torch.equal(before[0], m.weight_u),
                    torch.equal(before[1], m.weight_v),
                    fmt(m.weight_orig.grad),
                )
            )
        return (
            fmt(u0),
            fmt(v0),
            steps,
            (m.weight_u.data_ptr(), m.weight_v.data_ptr()) == (u_ptr, v_ptr),
            [n for n, _ in m.named_parameters()],
            [n for n, _ in m.named_buffers()],
            type(m.weight).__name__,
            describe_state_dict(m.state_dict()),
            repr(m),
            [type(h).__name__ for h in m._forward_pre_hooks.values()],
            [type(h).__name__ for h in m._state_dict_hooks.values()],
            len(m._load_state_dict_pre_hooks),
        )

    ours = assert_same(scenario)
    unchanged_u = [s[2] for s in ours[2]]
    assert unchanged_u == [False, False, True, True, False]
    assert ours[3] is True


def test_spectral_norm_keeps_parameter_object_and_dim():
    def scenario(nn):
        m, x = layer(nn, "convT2d")
        original = m.weight
        SN[nn].spectral_norm(m)
        hook = next(iter(m._forward_pre_hooks.values()))
        return (
            m.weight_orig is original,
            m.weight.data_ptr() == original.data_ptr(),
            m.weight.requires_grad,
            hook.dim,
            hook.n_power_iterations,
            hook.eps,
            tuple(m.weight_u.shape) == tuple(m.weight_orig[0, :, 0, 0].shape),
            tuple(hook.reshape_weight_to_matrix(m.weight_orig).shape),
        )

    assert_same(scenario)


def test_spectral_norm_two_forwards_one_backward():
    """The GAN pattern D(real) - D(fake): the clone after the in-place update keeps both graphs."""

    def scenario(nn):
        m, x = layer(nn, "linear")
        SN[nn].spectral_norm(m)
        loss = m(x).sum() - m(x * 2).sum()
        loss.backward()
        return fmt(loss), fmt(m.weight_orig.grad), fmt(m.bias.grad), fmt(m.weight_u)

    assert_same(scenario)


def test_spectral_norm_matches_naive_formula():
    """torch's test_spectral_norm_forward, run against ours."""
    m, x = layer(ann, "linear")
    SN[ann].spectral_norm(m)
    weight, bias, u = m.weight_orig, m.bias, m.weight_u
    weight_mat = weight.view(weight.size(0), -1)
    v = torch.nn.functional.normalize(torch.mv(weight_mat.t(), u), dim=0, eps=1e-12)
    u = torch.nn.functional.normalize(torch.mv(weight_mat, v), dim=0, eps=1e-12)
    expected = torch.nn.functional.linear(x, weight / torch.dot(u, weight_mat @ v), bias)
    torch.testing.assert_close(m(x), expected)


def test_spectral_norm_errors():
    def scenario(nn):
        sn = SN[nn]
        m, _ = layer(nn, "linear")
        results = [outcome(sn.remove_spectral_norm, m)]
        sn.spectral_norm(m)
        results.append(outcome(sn.spectral_norm, m))
        results.append(outcome(sn.remove_spectral_norm, m, "bias"))
        results.append(outcome(sn.spectral_norm, nn.Linear(2, 2), n_power_iterations=0))
        results.append(outcome(sn.spectral_norm, nn.Linear(2, 2), n_power_iterations=-1))
        results.append(outcome(sn.spectral_norm, nn.Linear(2, 2, bias=False), "bias"))
        results.append(outcome(sn.spectral_norm, nn.Linear(2, 2), "nope"))
        results.append(outcome(sn.spectral_norm, nn.BatchNorm1d(2), "running_mean"))
        results.append(outcome(sn.SpectralNorm, n_power_iterations=0))
        # a second version hook for the same name: state_dict() refuses to overwrite the entry
        fn = next(iter(m._forward_pre_hooks.values()))
        m._register_state_dict_hook(sn.SpectralNormStateDictHook(fn))
        results.append(outcome(m.state_dict))
        return results

    assert_same(scenario)


def test_spectral_norm_module_dim_default_with_multiple_parameters():
    def scenario(nn):
        m, x = layer(nn, "linear")
        SN[nn].spectral_norm(m, name="bias")
        SN[nn].spectral_norm(m)
        y = m(x)
        y.sum().backward()
        sd = m.state_dict()
        return fmt(y), describe_state_dict(sd), [(n, fmt(p.grad)) for n, p in m.named_parameters()]

    assert_same(scenario)


@pytest.mark.parametrize("direction", ["torch_to_ours", "ours_to_torch"])
def test_spectral_norm_state_dict_round_trip(direction):
    src_nn, dst_nn = (tnn, ann) if direction == "torch_to_ours" else (ann, tnn)
    src, x = layer(src_nn, "conv2d")
    SN[src_nn].spectral_norm(src)
    for _ in range(3):
        src(x)
    torch.manual_seed(5)
    dst, _ = layer(dst_nn, "conv2d")
    dst.weight.data.normal_()
    SN[dst_nn].spectral_norm(dst)
    result = dst.load_state_dict(src.state_dict())
    assert list(result.missing_keys) == [] and list(result.unexpected_keys) == []
    assert describe_state_dict(dst.state_dict()) == describe_state_dict(src.state_dict())
    for training in (False, True, True):
        src.train(training)
        dst.train(training)
        assert torch.equal(dst(x), src(x))


def old_format(state_dict, weight):
    """torch's test_spectral_norm_load_state_dict: a version-None checkpoint from a new one."""
    old = copy.deepcopy(state_dict)
    del old._metadata[""]["spectral_norm"]
    del old["weight_v"]
    old["weight"] = weight.detach().clone()
    return old


@pytest.mark.parametrize("activate_times", [0, 3])
def test_spectral_norm_loads_old_checkpoints(activate_times):
    """Follows torch's test_spectral_norm_load_state_dict, in both namespaces, compared."""

    def scenario(nn):
        sn = SN[nn]
        torch.manual_seed(0)
        inp = torch.randn(2, 3)
        snm = sn.spectral_norm(nn.Linear(3, 5))
        snm.train()
        for _ in range(activate_times):
            snm(inp)
        latest = copy.deepcopy(snm.state_dict())
        record = [sorted(latest), dict(latest._metadata)]

        # non-strict loading through a series of damaged state_dicts
        damaged = copy.deepcopy(latest)
        damaged["nonsense"] = "nonsense"
        record.append(outcome(snm.load_state_dict, damaged, strict=True))
        for step in ("weight_orig", "weight_u", "weight_v", "+weight", "meta", "weight", "bias"):
            if step == "+weight":
                damaged["weight"] = snm.weight.detach().clone()
            elif step == "meta":
                del damaged._metadata[""]["spectral_norm"]
            else:
                del damaged[step]
            record.append(outcome(snm.load_state_dict, damaged, strict=False))
            record.append(outcome(snm.load_state_dict, copy.deepcopy(damaged), strict=True))

        version_none = old_format(latest, snm.weight)
        for with_metadata in (True, False):
            latest_copy = copy.deepcopy(latest)
            if not with_metadata:
                del latest_copy._metadata[""]["spectral_norm"]
            outputs = []
            for source in (latest, version_none, latest_copy):
                snm = sn.spectral_norm(sn.remove_spectral_norm(snm))
                record.append(outcome(snm.load_state_dict, copy.deepcopy(source)))
                record.append(fmt(snm.weight_v))
                with torch.no_grad():
                    for training in (False, True, True, False):
                        snm.train(training)
                        outputs.append(fmt(snm(inp)))
            record.append(outputs)
            record.append(len(snm._load_state_dict_pre_hooks))
        return record

    assert_same(scenario)


def test_old_checkpoint_loads_identically_across_libraries():
    """A version-None checkpoint written by torch loads into ours exactly as into torch's."""
    torch.manual_seed(0)
    inp = torch.randn(4, 2, 5, 5)
    writer, _ = layer(tnn, "conv2d")
    SN[tnn].spectral_norm(writer)
    for _ in range(4):
        writer(inp)
    old = old_format(writer.state_dict(), writer.weight)
    readers = {}
    for nn in (tnn, ann):
        torch.manual_seed(3)
        reader = SN[nn].spectral_norm(layer(nn, "conv2d")[0])
        result = reader.load_state_dict(copy.deepcopy(old))
        assert list(result.missing_keys) == [] and list(result.unexpected_keys) == []
        readers[nn] = reader
    assert describe_state_dict(readers[ann].state_dict()) == describe_state_dict(
        readers[tnn].state_dict()
    )
    for training in (False, True, False):
        readers[tnn].train(training)
        readers[ann].train(training)
        assert torch.equal(readers[ann](inp), readers[tnn](inp))


@pytest.mark.parametrize("variant", ["version0", "missing_u", "missing_orig", "version_none"])
def test_old_checkpoint_variants(variant):
    def scenario(nn):
        torch.manual_seed(0)
        inp = torch.randn(2, 3)
        net = nn.Sequential(nn.Linear(3, 5), nn.ReLU())
        SN[nn].spectral_norm(net[0])
        net(inp)
        sd = net.state_dict()
        old = copy.deepcopy(sd)
        del old["0.weight_v"]
        old["0.weight"] = net[0].weight.detach().clone()
        if variant == "version0":
            old._metadata["0"]["spectral_norm"]["weight.version"] = 0
        else:
            del old._metadata["0"]["spectral_norm"]
        if variant == "missing_u":
            del old["0.weight_u"]
        if variant == "missing_orig":
            del old["0.weight_orig"]
        strict = outcome(net.load_state_dict, copy.deepcopy(old))
        loose = outcome(net.load_state_dict, copy.deepcopy(old), strict=False)
        net.eval()
        return strict, loose, fmt(net[0].weight_v), fmt(net(inp))

    assert_same(scenario)


def test_remove_spectral_norm_and_the_leftover_load_pre_hook():
    def scenario(nn):
        m, x = layer(nn, "linear")
        SN[nn].spectral_norm(m)
        for _ in range(2):
            m(x)
        m.eval()
        expected = m(x)
        SN[nn].remove_spectral_norm(m)
        y = m(x)
        return (
            fmt(expected),
            fmt(y),
            torch.equal(expected, y),
            type(m.weight).__name__,
            m.weight.requires_grad,
            [n for n, _ in m.named_parameters()],
            [n for n, _ in m.named_buffers()],
            describe_state_dict(m.state_dict()),
            len(m._forward_pre_hooks),
            len(m._state_dict_hooks),
            len(m._load_state_dict_pre_hooks),
            # torch's remove leaves the load pre-hook: a strict load of its own state_dict fails
            outcome(m.load_state_dict, m.state_dict()),
            outcome(m.load_state_dict, m.state_dict(), strict=False),
            # applying spectral_norm again makes strict loading work
            outcome(SN[nn].spectral_norm(m).load_state_dict, m.state_dict()),
        )

    ours = assert_same(scenario)
    assert ours[2] is True
    assert ours[11][0] == "raise" and '"weight_orig", "weight_u"' in ours[11][2]


def test_spectral_norm_deepcopy_and_pickle():
    def scenario(nn):
        m, x = layer(nn, "linear")
        SN[nn].spectral_norm(m)
        fresh = copy.deepcopy(m)
        m(x)
        trained = outcome(copy.deepcopy, m)
        m.eval()
        with torch.no_grad():
            m(x)
        copied = copy.deepcopy(m)
        restored = pickle.loads(pickle.dumps(m))
        return (
            fmt(fresh(x)),
            trained[0],
            fmt(copied(x)),
            fmt(restored(x)),
            type(restored).__name__,
            [type(h).__name__ for h in copied._forward_pre_hooks.values()],
            describe_state_dict(restored.state_dict()),
        )

    assert_same(scenario)


def test_error_messages_name_the_module():
    """remove_* errors print the module's repr; compare after path normalization."""
    for nn in (tnn, ann):
        seq = nn.Sequential(nn.Linear(2, 2))
        res = outcome(SN[nn].remove_spectral_norm, seq)
        assert res[0] == "raise" and norm(res[2]).startswith("spectral_norm of 'weight' not found")
