"""The code of the batch kernels (``bansugoroku_fast._kernel``): their
AVX2 copies run where the CPU has what they use, and give exactly what the
baseline code gives.

Where there are no AVX2 copies (not GCC for x86-64, a native build) or the
CPU lacks what they use, the comparisons skip; .ci/run also runs the
kernel tests with ``BANSUGOROKU_KERNELS=baseline``.
"""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from bansugoroku_fast import _batch, _kernel, batch, oracle
from bansugoroku_fast.rules import Rules

from . import strategies

ALL_RULES = Rules.all_combinations()
ROLLS = np.array(oracle.ALL_ROLLS, dtype=np.int8)


def avx2_copies_or_skip():
    """Skip where the AVX2 copies cannot run here."""
    if not _kernel.cpu_has_avx2():
        pytest.skip("this CPU lacks AVX2, BMI1/2 or POPCNT")
    compiled = _batch.run_avx2_copies(True)
    _kernel.choose_batch_code()
    if not compiled:
        pytest.skip("no AVX2 copies here (not GCC for x86-64, or a native build)")


@pytest.fixture
def copies():
    """``copies(name)`` runs the ``"baseline"`` or ``"avx2"`` code of the
    batch kernels; the seam's choice again after the test."""
    avx2_copies_or_skip()
    def run(name):
        assert _batch.run_avx2_copies(name == "avx2")
        assert _batch.running_copies() == name

    yield run
    _kernel.choose_batch_code()


def test_the_avx2_copies_run_where_the_cpu_has_them():
    if os.environ.get(_kernel.CHOICE_VARIABLE) == "baseline":
        assert batch.KERNEL_BUILD == "baseline" == _batch.running_copies()
    else:
        avx2_copies_or_skip()
        assert batch.KERNEL_BUILD == "avx2" == _batch.running_copies()


def test_the_baseline_code_runs_anywhere_and_copies_that_cannot_run_are_refused():
    try:
        assert _batch.run_avx2_copies(False)
        assert _batch.running_copies() == "baseline"
        ran = _batch.run_avx2_copies(True)
        assert _batch.running_copies() == ("avx2" if ran else "baseline")
        if not _kernel.cpu_has_avx2():
            assert not ran
    finally:
        _kernel.choose_batch_code()


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
def test_the_copies_count_alike(rules, copies):
    items, dice = items_of_every_kind(rules)
    broken = items[:50].copy()
    broken[np.arange(50), 0, np.arange(50) % 26] += 1       # 16 stones
    items, dice = np.concatenate([items, broken]), np.concatenate([dice, dice[:50]])
    for fast_counts in (True, False):
        counts = []
        for name in ("baseline", "avx2"):
            copies(name)
            out = np.empty(len(items), dtype=np.int32)
            _, total = _batch.count_batch(items, dice, rules.code, 2, out, fast_counts=fast_counts)
            assert total == out[out >= 0].sum()     # the plays of the items without a problem
            counts.append(out)
        np.testing.assert_array_equal(counts[0], counts[1])
        assert (counts[0][-50:] == _kernel.STATUS["invalid_position"]).all()


@pytest.mark.parametrize("rules", [Rules(), Rules(variant="backgammon"), Rules(finish="bear_off", closure="immediate")],
                         ids=lambda r: r.short_name)
def test_the_copies_generate_alike(rules, tmp_path):
    # The public calls in two processes, one on each code, on the same items.
    avx2_copies_or_skip()
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
