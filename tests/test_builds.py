"""The builds of the batch kernels (``bansugoroku_fast._kernel``): the one
chosen at import runs every batch call, and the AVX2 build gives exactly
what the baseline build gives.

Where the AVX2 build is absent (another architecture, a native build) or
the CPU lacks what it uses, the comparisons skip; .ci/run also runs the
kernel tests with ``BANSUGOROKU_KERNELS=baseline``.
"""
import ast
import importlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import bansugoroku_fast
from bansugoroku_fast import _kernel, batch, oracle
from bansugoroku_fast.rules import Rules

from . import strategies

ALL_RULES = Rules.all_combinations()
ROLLS = np.array(oracle.ALL_ROLLS, dtype=np.int8)


def avx2_build():
    """The AVX2 build, or a skip where this machine cannot run it."""
    if not _kernel.cpu_has_avx2():
        pytest.skip("this CPU lacks AVX2, BMI1/2 or POPCNT")
    try:
        return importlib.import_module("bansugoroku_fast._batch_avx2")
    except ImportError:
        pytest.skip("no AVX2 build here (not x86-64, or a native build)")


def test_the_chosen_build_runs_every_batch_call():
    """The seam holds the chosen build as ``batch_kernels`` and calls the
    batch kernels through that name only; the module ``_batch`` stays the
    baseline build (nothing rewrites ``sys.modules``)."""
    assert batch.KERNEL_BUILD == _kernel.batch_kernels.BUILT_FOR
    assert _kernel.BASELINE is bansugoroku_fast._batch is sys.modules["bansugoroku_fast._batch"]
    assert _kernel.BASELINE.__name__ == "bansugoroku_fast._batch"
    seam = ast.parse(Path(_kernel.__file__).read_text())
    direct = [node.lineno for node in ast.walk(seam)
              if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "_batch"]
    assert direct == []


def test_the_avx2_build_runs_where_the_cpu_has_it():
    if os.environ.get(_kernel.CHOICE_VARIABLE) == "baseline":
        assert batch.KERNEL_BUILD == _kernel.BASELINE.BUILT_FOR
    else:
        assert avx2_build().BUILT_FOR == "avx2"
        assert batch.KERNEL_BUILD == "avx2"


def run_in_child(code: str, choice: str) -> str:
    environment = {**os.environ, _kernel.CHOICE_VARIABLE: choice}
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=environment,
                          capture_output=True, text=True, timeout=120)
    return done.stdout.strip() + done.stderr.strip()


def test_the_environment_variable_chooses():
    report = "import bansugoroku_fast.batch as b; print(b.KERNEL_BUILD)"
    assert run_in_child(report, "baseline") == "baseline"
    assert "accepted values are fastest, baseline" in run_in_child(report, "fast")


def items_of_every_kind(rules):
    """Playout and edge positions with every roll, and a few broken items."""
    positions = np.concatenate([strategies.edge_positions(rules, 120, seed=rules.code + 3),
                                strategies.edge_positions(rules, 60, seed=rules.code + 4,
                                                          kinds=("bear_off", "last_outside"))])
    items = np.repeat(positions, len(ROLLS), axis=0)
    dice = np.tile(ROLLS, (len(positions), 1))
    return items, dice


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: r.short_name)
def test_the_builds_count_alike(rules):
    fast_build = avx2_build()
    items, dice = items_of_every_kind(rules)
    broken = items[:50].copy()
    broken[np.arange(50), 0, np.arange(50) % 26] += 1       # 16 stones
    items, dice = np.concatenate([items, broken]), np.concatenate([dice, dice[:50]])
    for fast_counts in (True, False):
        counts = []
        for build in (_kernel.BASELINE, fast_build):
            out = np.empty(len(items), dtype=np.int32)
            _, total = build.count_batch(items, dice, rules.code, 2, out, fast_counts=fast_counts)
            assert total == out[out >= 0].sum()     # the plays of the items without a problem
            counts.append(out)
        np.testing.assert_array_equal(counts[0], counts[1])
        assert (counts[0][-50:] == _kernel.STATUS["invalid_position"]).all()


@pytest.mark.parametrize("rules", [Rules(), Rules(variant="backgammon"), Rules(finish="bear_off", closure="immediate")],
                         ids=lambda r: r.short_name)
def test_the_builds_generate_alike(rules, tmp_path):
    # The public calls in two processes, one on each build, on the same items.
    avx2_build()
    items, dice = items_of_every_kind(rules)
    np.savez(tmp_path / "items.npz", items=items, dice=dice)
    found = {}
    for choice in _kernel.CHOICES:
        script = f"""
            import numpy as np
            from bansugoroku_fast import Rules, batch
            loaded = np.load({str(tmp_path / 'items.npz')!r})
            rules = Rules.parse({rules.short_name!r})
            plays = batch.generate_plays(loaded["items"], loaded["dice"], rules)
            np.savez({str(tmp_path / choice)!r}, shots=batch.shots(loaded["items"], rules),
                     counts=batch.count_plays(loaded["items"], loaded["dice"], rules), **plays._asdict())
            print(batch.KERNEL_BUILD)
        """
        report = run_in_child(script, choice)
        assert (tmp_path / f"{choice}.npz").is_file(), report
        found[report] = np.load(tmp_path / f"{choice}.npz")
    assert sorted(found) == ["avx2", "baseline"]
    for field in found["baseline"].files:
        np.testing.assert_array_equal(found["avx2"][field], found["baseline"][field], err_msg=field)
