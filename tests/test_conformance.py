"""The conformance checker against our kernels, our oracle, deliberately
broken engines (a dropped play, a missed larger-die rule, a duplicate, plays
on a finished game, a crash, a hang), GNU Backgammon's engine when
installed, and the ``bansugoroku conformance`` command line."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from bansugoroku_fast import Position, Rules, moves
from bansugoroku_fast.cli import main
from bansugoroku_fast.formats.conformance import (
    CommandEngine,
    PythonEngine,
    check_engine,
    describe,
    load_corpus,
    reference,
)
from bansugoroku_fast.formats.conformance.corpus import corpus_files
from bansugoroku_fast.oracle.moves import _apply, _board, _single_moves

from . import source_tree

BACKGAMMON = Rules(variant="backgammon")
ITEMS, PERFTS = load_corpus()
#: Perft counts cheap enough to recount through a Python engine in a test.
SMALL_PERFTS = [perft for perft in PERFTS if perft.nodes <= 3000]
REFERENCE = f"{sys.executable} -m bansugoroku_fast.formats.conformance.reference"


def first_items(per_rules: int, tag: str | None = None):
    """The first ``per_rules`` items (with ``tag``) of each rule set."""
    kept, seen = [], {}
    for item in ITEMS:
        if tag is not None and tag not in item.tags:
            continue
        seen[item.rules] = seen.get(item.rules, 0) + 1
        if seen[item.rules] <= per_rules:
            kept.append(item)
    return kept


def test_the_corpus_covers_every_rule_set_and_edge_class():
    assert {item.rules for item in ITEMS} == set(Rules.all_combinations())
    tags = {tag for item in ITEMS for tag in item.tags}
    for needed in ("playout", "bar", "entry_blocked", "bear_off", "one_die", "closure_near", "game_over",
                   "pass", "max_dice", "larger_die"):
        assert needed in tags, needed
    assert {perft.depth for perft in PERFTS} == {1, 2, 3}
    assert all(item.results == tuple(sorted(item.results)) for item in ITEMS)


def test_our_kernels_agree_with_the_whole_corpus():
    report = check_engine(PythonEngine(reference.kernel_engine), ITEMS, SMALL_PERFTS)
    assert report.ok, report.render()
    assert report.checked == len(ITEMS) and report.perft_checked == len(SMALL_PERFTS)
    assert all(agree == total for agree, total in report.agreement.values())
    assert report.engine_ns > 0 and report.ours_ns > 0


def test_our_oracle_agrees():
    report = check_engine(PythonEngine(reference.oracle_engine), first_items(25), [])
    assert report.ok, report.render()


# --- broken engines ---------------------------------------------------------------------


def dropping_engine(position, dice, rules):
    """Forgets the last play whenever there are several."""
    results = reference.kernel_engine(position, dice, rules)
    return results[:-1] if len(results) > 1 else results


def duplicating_engine(position, dice, rules):
    results = reference.kernel_engine(position, dice, rules)
    return results + results[:1]


def no_larger_die_engine(position, dice, rules):
    """Forgets the larger-die rule: when only one die can be played, the
    smaller die's single moves are offered too."""
    results = reference.kernel_engine(position, dice, rules)
    a, b = dice
    plays = moves.legal_plays(position, dice, rules)
    one_die = all(len(play.steps) == 1 and moves.outcome(play.position, rules) is None for play in plays)
    if a != b and plays and one_die:
        board = _board(Position(position))
        extra = [Position(_apply(board, step)) for step in _single_moves(board, min(a, b), rules)]
        results += [p for p in extra if p not in results and moves.outcome(p, rules) is None]
    return results


def over_engine(position, dice, rules):
    """Lists the start position as a play when the game is over."""
    if moves.outcome(position, rules) is not None:
        return [Position.initial()]
    return reference.kernel_engine(position, dice, rules)


@pytest.mark.parametrize(
    "engine, kind",
    [(dropping_engine, "missing"), (duplicating_engine, "duplicate"), (over_engine, "finished")],
)
def test_broken_engines_are_caught(engine, kind):
    items = first_items(60) + first_items(10, "game_over")
    report = check_engine(PythonEngine(engine), items, [])
    assert not report.ok
    kinds = {found.kind for found in report.disagreements}
    assert kinds == {kind}
    example = report.smallest()[kind]
    text = report.render()
    assert f"Smallest '{kind}' example:" in text and describe(example) in text
    assert str(Position.from_id(example.item.position_id)) in text  # shown as a board


def test_the_dropped_play_is_named_in_notation():
    item = next(item for item in first_items(60) if len(item.results) == 2)
    report = check_engine(PythonEngine(dropping_engine), [item], [])
    (found,) = report.disagreements
    plays = moves.legal_plays(Position.from_id(item.position_id), item.dice, item.rules)
    dropped = plays[-1]
    assert found.kind == "missing" and found.ids == (dropped.position.id,)
    assert f"plays the engine did not list: {dropped} ({dropped.position.id})" in describe(found)


def test_a_missed_larger_die_rule_shows_on_exactly_those_items():
    items = first_items(100) + [item for item in ITEMS if "larger_die" in item.tags]
    report = check_engine(PythonEngine(no_larger_die_engine), items, [])
    assert report.disagreements
    assert all(found.kind == "extra" and "larger_die" in found.item.tags for found in report.disagreements)
    for (_rules, tag), (agree, total) in report.agreement.items():
        if tag == "larger_die":
            assert agree < total
    flagged = {found.item for found in report.disagreements}
    assert flagged == {item for item in items if "larger_die" in item.tags}


def test_a_wrong_perft_is_caught():
    perft = next(perft for perft in SMALL_PERFTS if perft.depth == 2 and perft.nodes > 21)
    report = check_engine(PythonEngine(dropping_engine), [], [perft])
    (found,) = report.disagreements
    assert found.kind == "perft" and f"the corpus says {perft.nodes:,}" in found.detail


def test_a_crash_is_reported_and_stops_the_run():
    calls = []

    def crashing(position, dice, rules):
        calls.append(1)
        if len(calls) == 5:
            raise ZeroDivisionError("boom")
        return reference.kernel_engine(position, dice, rules)

    report = check_engine(PythonEngine(crashing), first_items(10), [])
    (found,) = report.disagreements
    assert found.kind == "crash" and "ZeroDivisionError: boom" in found.detail
    assert report.checked == 4


def test_a_result_that_is_not_a_position_is_a_crash():
    report = check_engine(PythonEngine(lambda position, dice, rules: [np.zeros((2, 26))]), first_items(1), [])
    assert [found.kind for found in report.disagreements] == ["crash"]


# --- command engines ------------------------------------------------------------------------


def run_command(command: str, items, perfts=(), timeout: float = 10.0):
    """Check ``command`` as an engine; the report and the (closed) engine."""
    engine = CommandEngine(command, timeout=timeout)
    try:
        return check_engine(engine, items, list(perfts)), engine
    finally:
        engine.close()


def python_command(script: str) -> str:
    return f"{sys.executable} -c \"{script}\""


def test_the_reference_command_engine_agrees():
    report, _ = run_command(REFERENCE, first_items(20), SMALL_PERFTS[:3])
    assert report.ok, report.render()


def test_a_hanging_command_is_timed_out():
    script = ("import sys; sys.stdin.readline(); print('', flush=True); sys.stdin.readline(); "
              "import time; time.sleep(60)")
    report, engine = run_command(python_command(script), first_items(5, "game_over"), timeout=1.0)
    assert [found.kind for found in report.disagreements] == ["hang"]
    assert "no answer within 1 s" in report.disagreements[0].detail
    assert engine.process.poll() is not None  # killed


def test_a_command_that_exits_is_a_crash():
    report, _ = run_command(python_command("import sys; sys.stdin.readline(); sys.exit(3)"), first_items(2))
    (found,) = report.disagreements
    assert found.kind == "crash" and "status 3" in found.detail


def test_garbage_answers_are_a_crash():
    report, _ = run_command(python_command("import sys; sys.stdin.readline(); print('hello world')"), first_items(1))
    assert "'hello' is not a Position ID" in report.disagreements[0].detail


# --- GNU Backgammon's engine --------------------------------------------------------------


@source_tree.needs("benchmarks")
def test_gnubg_nn_agrees_on_the_backgammon_corpus():
    pytest.importorskip("gnubg_nn")
    from benchmarks.conformance_engines import gnubg_nn_engine

    items = [item for item in ITEMS if item.rules == BACKGAMMON]
    perfts = [perft for perft in SMALL_PERFTS if perft.rules == BACKGAMMON]
    report = check_engine(PythonEngine(gnubg_nn_engine), items, perfts)
    assert report.ok, report.render()
    assert report.checked == len(items)


# --- the command line -------------------------------------------------------------------------


def test_export_writes_the_shipped_files(tmp_path, capsys):
    assert main(["conformance", "export", str(tmp_path)]) == 0
    shipped = corpus_files()
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(shipped)
    assert all((tmp_path / name).read_text() == text for name, text in shipped.items())
    assert "README.md" in shipped and len(shipped) == 15


def test_check_command_line_exit_status(capsys):
    engine = "bansugoroku_fast.formats.conformance.reference:kernel_engine"
    assert main(["conformance", "check", "--engine", engine, "--limit", "10", "--no-perft"]) == 0
    assert "agrees with the corpus on every item" in capsys.readouterr().out
    broken = "tests.test_conformance:dropping_engine"
    assert main(["conformance", "check", "--engine", broken, "--rules", "backgammon", "--limit", "30",
                 "--no-perft"]) == 1
    out = capsys.readouterr().out
    assert "Smallest 'missing' example:" in out and "engine / ours" in out


def test_check_command_line_with_a_command(capsys):
    assert main(["conformance", "check", "--command", REFERENCE, "--rules", "ban/arrival/multiplied",
                 "--limit", "10", "--no-perft"]) == 0


def test_the_corpus_is_declared_as_package_data():
    """``pip install .`` ships what pyproject declares: every corpus file must match it."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+

    project = tomllib.loads(source_tree.path("pyproject.toml").read_text())
    setuptools = project["tool"]["setuptools"]
    assert "bansugoroku_fast.formats.conformance" in setuptools["packages"]
    patterns = setuptools["package-data"]["bansugoroku_fast.formats.conformance"]
    for name in corpus_files():
        assert any(Path("corpus", name).match(pattern) for pattern in patterns), name


@pytest.mark.slow
def test_a_built_wheel_ships_the_corpus(tmp_path):
    """What ``pip install .`` installs: build the wheel and look inside."""
    import subprocess
    import zipfile

    root = source_tree.path("setup.py").parent
    if source_tree.c_compiler() is None:
        pytest.skip("needs a working C compiler (none found)")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(tmp_path), str(root)], check=True)
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in corpus_files():
        assert f"bansugoroku_fast/formats/conformance/corpus/{name}" in names, name
