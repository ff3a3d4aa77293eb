"""Every claim test names a real file and runs on both implementations."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def claim_decorators():
    """(test file, line, path, object) of every ``@proves(...)`` in tests/claims/."""
    found = []
    for test_file in sorted(Path(__file__).parent.glob("test_*.py")):
        tree = ast.parse(test_file.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                for decorator in node.decorator_list:
                    if (
                        isinstance(decorator, ast.Call)
                        and getattr(decorator.func, "id", "") == "proves"
                        and len(decorator.args) >= 2
                    ):
                        path, obj = (ast.literal_eval(a) for a in decorator.args[:2])
                        uses_both = any(
                            getattr(d, "func", None) is not None
                            and getattr(d.func, "id", "") in ("each_nn", "each_optim")
                            for d in node.decorator_list
                        )
                        found.append((test_file.name, node.lineno, path, obj, uses_both))
    return found


def test_every_claim_names_a_real_file_and_runs_on_both():
    claims = claim_decorators()
    assert len(claims) >= 30, len(claims)
    for test_file, line, path, obj, uses_both in claims:
        assert (ROOT / path).is_file(), (test_file, line, path)
        assert obj, (test_file, line)
        assert uses_both, (
            f"{test_file}:{line} must run on both implementations (@each_nn() or @each_optim())"
        )
