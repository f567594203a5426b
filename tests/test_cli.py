"""The ``bansugoroku`` command line: outputs worked out by hand, and bad
input ending with exit status 2 and a message, never a traceback."""
import subprocess
import sys

import pytest

from bansugoroku_fast import Position
from bansugoroku_fast.cli import main
from tests.boards import board

# The seven plays of 6-5 at the backgammon start, as gnubg lists them: the
# 6 from 24, 13 or 8 and the 5 from 24(via 18), 13 or 8; 24/19 and 6/1 are
# blocked by the opponent.
OPENING_65 = ["24/13", "24/18 13/8", "24/18 8/3", "13/8 13/7", "13/2", "13/7 8/3", "8/3 8/2"]


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def fails(capsys, *argv):
    with pytest.raises(SystemExit) as stopped:
        main(list(argv))
    _, err = capsys.readouterr()
    assert stopped.value.code == 2
    assert "Traceback" not in err
    return err


def test_moves_backgammon_opening_65(capsys):
    status, out, _ = run(capsys, "moves", "--rules", "backgammon", "6-5")
    assert status == 0
    lines = out.splitlines()
    assert str(Position.initial()) in out  # the board comes first
    header = next(i for i, line in enumerate(lines) if "legal plays" in line)
    assert lines[header].startswith("7 legal plays for 6-5 (Goroku)")
    assert lines[header + 1:] == OPENING_65


def test_moves_ban_sugoroku_is_the_default(capsys):
    # Ban-sugoroku 6-6 moves twice: each 6 from 24 (to 18), 13 (to 7) or 8
    # (to 2); 18/12 and 7/1 are blocked, and nothing leaves the board.
    status, out, _ = run(capsys, "moves", "6-6")
    assert status == 0
    assert "6 legal plays for 6-6 (Chōroku), Ban-sugoroku" in out
    assert out.splitlines()[-6:] == [
        "24/18(2)", "24/18 13/7", "24/18 8/2", "13/7(2)", "13/7 8/2", "8/2(2)"]


def test_moves_pass(capsys):
    # On the bar against a closed home board (the opponent holds the mover's
    # 19..24): nothing enters.
    shut_out = board({6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 3}, mover_bar=1)
    status, out, _ = run(capsys, "moves", "--rules", "backgammon", "--position", shut_out.id, "4-4")
    assert status == 0
    assert "No legal play for 4-4 (Shushi)" in out and "passes" in out


def test_moves_finished_game(capsys):
    # The opponent has borne off all 15, the mover none and none in the
    # winner's home: a gammon for O.
    over = board({6: 15}, {})
    status, out, _ = run(capsys, "moves", "--rules", "backgammon", "--position", over.id, "3-1")
    assert status == 0
    assert "The game is over: O (the opponent) has won (gammon, worth 2)" in out


def test_moves_other_rule_labels(capsys):
    # Each label must reach the rules named in the header, not the default
    # (Ban-sugoroku arrival/multiplied).
    for label, name in (("ban/bear_off/immediate", "Ban-sugoroku bear_off/immediate"),
                        ("ban-sugoroku,finish=bear_off,closure=off", "Ban-sugoroku bear_off/off")):
        status, out, _ = run(capsys, "moves", "--rules", label, "3-1")
        assert status == 0 and "legal plays for 3-1" in out
        assert f"3-1, {name} rules:" in out


# 447 plays over the 21 rolls from the start (6-5: 7, 1-1: 42, 5-5: 4) are the
# published backgammon figures the issue quotes; 6-5's seven are listed by hand
# in test_moves_backgammon_opening_65 above.


def test_perft_depth_1_backgammon(capsys):
    status, out, _ = run(capsys, "perft", "--depth", "1", "--rules", "backgammon")
    assert status == 0
    assert "perft(1) = 447" in out and " s]" in out


def test_perft_divide_lists_the_21_rolls(capsys):
    _, out, _ = run(capsys, "perft", "--depth", "1", "--rules", "backgammon", "--divide")
    lines = out.splitlines()
    per_roll = dict(line.split(": ") for line in lines[:-1])
    assert len(per_roll) == 21
    assert per_roll["6-5"] == "7" and per_roll["1-1"] == "42" and per_roll["5-5"] == "4"
    assert sum(int(count) for count in per_roll.values()) == 447
    assert lines[-1].startswith("perft(1) = 447")


def test_perft_depth_0_is_one(capsys):
    _, out, _ = run(capsys, "perft", "--depth", "0", "--divide")
    assert out.startswith("perft(0) = 1 ")


def test_play_random_game_is_reproducible(capsys):
    _, first, _ = run(capsys, "play", "--seed", "5", "--rules", "backgammon")
    _, second, _ = run(capsys, "play", "--seed", "5", "--rules", "backgammon")
    assert first == second
    assert "Roll-off:" in first and "Result: seat " in first


def test_play_ban_sugoroku_alternate(capsys):
    _, out, _ = run(capsys, "play", "--seed", "1")
    assert "Seat 0 starts" in out and "  1. seat 0 " in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["moves", "7-1"], "dice must be two integers in 1..6"),
        (["moves", "six"], "cannot read dice"),
        (["moves", "--position", "not-an-id", "6-5"], "Position ID"),
        (["moves", "--position", "AAAAAAAAAAAAA!", "6-5"], "base64"),
        (["moves", "--rules", "chess", "6-5"], "cannot read rules"),
        (["moves", "--rules", "ban-sugoroku,closure=sometimes", "6-5"], "unknown closure"),
        (["perft", "--depth", "-1"], "depth must be 0 or more"),
        (["perft", "--depth", "two"], "whole number"),
        (["perft"], "--depth"),
        (["moves"], "dice"),
        (["castle"], "invalid choice"),
    ],
)
def test_bad_input_exits_2_with_a_message(capsys, argv, message):
    assert message in fails(capsys, *argv)


def test_borne_off_stones_under_the_arrival_finish(capsys):
    # Borne-off stones exist in backgammon ids, but never in arrival mode.
    bearing_off = board({6: 10}, {1: 15})
    err = fails(capsys, "moves", "--position", bearing_off.id, "3-1")
    assert err.startswith("error: ") and "never bears off" in err
    err = fails(capsys, "perft", "--depth", "1", "--position", bearing_off.id)
    assert "never bears off" in err


def test_python_dash_m():
    done = subprocess.run(
        [sys.executable, "-m", "bansugoroku_fast", "moves", "--rules", "backgammon", "6-5"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0 and done.stdout.splitlines()[-7:] == OPENING_65
    bad = subprocess.run(
        [sys.executable, "-m", "bansugoroku_fast", "moves", "9-9"],
        capture_output=True, text=True, check=False,
    )
    assert bad.returncode == 2 and bad.stderr.startswith("error: ") and "Traceback" not in bad.stderr


# --- perft's progress and streaming divide; hint; --version ------------------------------------


def test_perft_divide_streams_each_roll_and_adds_up(capsys):
    # perft(2) of the backgammon start is 202,782 (the perft docstring's figure).
    _, out, _ = run(capsys, "perft", "--depth", "2", "--rules", "backgammon", "--divide", "--no-progress")
    lines = out.splitlines()
    counts = [int(line.split(": ")[1].replace(",", "")) for line in lines[:21]]
    assert lines[0].startswith("6-6: ") and lines[20].startswith("1-1: ")
    assert sum(counts) == 202_782 and lines[21].startswith("perft(2) = 202,782")


def test_perft_roll_counts_stream_before_the_last_roll_is_counted():
    from bansugoroku_fast import Rules, perft_divide
    from bansugoroku_fast.cli.perft import roll_counts

    rules = Rules(variant="backgammon")
    stream = roll_counts(Position.initial(), 2, rules, progress=False)
    first = next(stream)  # a generator: the first roll is known before the others are counted
    assert first == ((6, 6), perft_divide(Position.initial(), 2, rules)[(6, 6)])


def test_perft_shows_a_progress_bar(monkeypatch, capsys):
    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    _, _, err = run(capsys, "perft", "--depth", "2", "--rules", "backgammon")
    assert "perft(2)" in err and "play" in err


def test_hint_ranks_the_plays_as_rank_plays(capsys):
    from bansugoroku_fast import Rules, rank_plays

    start = Position.initial()
    _, out, _ = run(capsys, "hint", start.id, "6-5", "--rules", "backgammon", "--games", "100",
                    "--policy", "heuristic", "--seed", "3", "--no-progress")
    expected = rank_plays(start, (6, 5), Rules(variant="backgammon"), games=100, policy="heuristic", seed=3)
    lines = out.splitlines()
    assert lines[0].startswith("7 legal plays for 6-5")
    assert [line.split(".", 1)[1].rsplit("  ", 2)[0].strip() for line in lines[1:2]] == [str(expected[0].play)]
    for line, entry in zip(lines[1:], expected):
        assert str(entry.play) in line and f"{entry.equity:+.4f} +- {entry.stderr:.4f}" in line
    assert set(OPENING_65) == {str(entry.play) for entry in expected}


@pytest.mark.parametrize("argv, message", [
    (["hint", "4HPwATDgc/ABMA", "7-1"], "dice must be two integers in 1..6"),
    (["hint", "4HPwATDgc/ABMA", "6-5", "--policy", "best"], "unknown policy 'best'"),
    (["hint", "nope", "6-5"], "Position ID"),
])
def test_hint_bad_input(capsys, argv, message):
    assert message in fails(capsys, *argv)


def test_version(capsys):
    from bansugoroku_fast import __version__

    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0 and capsys.readouterr().out.strip() == f"bansugoroku {__version__}"


def test_conformance_export_into_a_file_is_refused(capsys, tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    err = fails(capsys, "conformance", "export", str(blocker / "corpus"))
    assert "conformance export DIR: " in err and "is a file, not a directory" in err
    assert list(tmp_path.iterdir()) == [blocker]
