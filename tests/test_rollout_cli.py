"""``bansugoroku rollout``: the table, the JSON and the plot, on positions
whose outcome is known, and bad input ending with exit status 2."""
from __future__ import annotations

import json

import pytest

from bansugoroku_fast import Position, Rules, rollout
from bansugoroku_fast.cli import main
from tests.boards import board

# The mover's last stone is on its 1-point: every roll bears it off and wins.
# The opponent has borne off one stone, so the win is a single (docs/rules.md §4.2).
LAST_STONE = board(mover={1: 1}, opponent_at={24: 14}, opponent_off=1)


def run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def fails(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as stopped:
        main(list(argv))
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def test_a_certain_single_win(capsys):
    out = run(capsys, "rollout", "--rules", "backgammon", "--position", LAST_STONE.id, "--games", "50",
              "--no-progress")
    lines = [" ".join(line.split()) for line in out.splitlines()]
    assert lines[0].startswith(f"Rollout of {LAST_STONE.id}, backgammon rules: 50 games, policy net, seed 0")
    assert "X (the side to move) wins 100.00% 100.00% .. 100.00%" in lines
    assert lines.index("single 100.00% 100.00% .. 100.00%") == 3  # X's singles
    assert "O (the opponent) wins 0.00% 0.00% .. 0.00%" in lines
    assert "equity (side to move, cubeless): +1.0000 +- 0.0000 (standard error)" in lines
    assert "mean plies per game: 1.0" in lines


def test_a_stratified_rollout_says_its_standard_error_is_the_plain_formula(capsys):
    # A stratified rollout's stderr is the plain formula (bansugoroku_fast.games.tallies):
    # the table says so, and the JSON names the stratification.
    out = run(capsys, "rollout", "--rules", "backgammon", "--games", "72", "--stratify", "--no-progress")
    assert "(standard error, the plain formula: conservative for a stratified rollout)" in out
    figures = json.loads(run(capsys, "rollout", "--rules", "backgammon", "--games", "72", "--stratify", "1296",
                             "--json"))
    assert figures["stratify"] == 1296
    assert json.loads(run(capsys, "rollout", "--games", "36", "--json"))["stratify"] == 0


def test_json_equals_the_api_rollout(capsys):
    position = Position.initial()
    out = run(capsys, "rollout", "--rules", "backgammon", "--games", "300", "--policy", "heuristic,random",
              "--seed", "5", "--stratify", "--json", "--threads", "2")
    figures = json.loads(out)
    expected = rollout(position, Rules(variant="backgammon"), 300, ("heuristic", "random"), seed=5, stratify=36)
    assert figures["games"] == 300
    assert figures["counts"] == expected.counts.tolist()
    assert figures["equity"] == pytest.approx(expected.equity)
    assert figures["gnubg"]["win_gammon"]["value"] == pytest.approx(expected.gnubg["win_gammon"])
    wins = figures["outcomes"]["side_to_move"]["wins"]
    assert wins["low"] <= wins["rate"] <= wins["high"]
    assert wins["rate"] == pytest.approx(expected.win_probability)


def test_ban_sugoroku_rows_name_its_outcome_kinds(capsys):
    out = run(capsys, "rollout", "--games", "40", "--no-progress", "--rules", "ban/arrival/multiplied")
    kinds = {line.split()[0] for line in out.splitlines()[2:] if line.startswith("  ")}
    assert kinds == {"arrival", "closed-home-x2", "closed-home-x3"}


def test_xgid_positions_are_read(capsys):
    out = run(capsys, "rollout", "--rules", "backgammon", "--position", LAST_STONE.xgid, "--games", "5", "--json")
    assert json.loads(out)["outcomes"]["side_to_move"]["wins"]["rate"] == 1.0


def test_plot_writes_a_png(capsys, tmp_path):
    pytest.importorskip("matplotlib")  # the 'plot' extra; CI installs it
    path = tmp_path / "rollout.png"
    run(capsys, "rollout", "--rules", "backgammon", "--games", "60", "--plot", str(path), "--no-progress")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("argv, message", [
    (["--policy", "best"], "unknown policy 'best'"),
    (["--policy", "random,first,first"], "a policy pair has one policy per seat"),
    (["--games", "0"], "expected a positive whole number, got 0"),
    (["--seed", "-1"], "seed must be in 0 .. 2**64 - 1"),
    (["--stratify", "35"], "invalid choice: 35"),
    (["--position", "nonsense"], "error:"),
    (["--rules", "ban-sugoroku", "--policy", "pubeval"], "'pubeval' plays backgammon only"),
])
def test_bad_input(capsys, argv, message):
    assert message in fails(capsys, "rollout", *argv)


# --- files checked before any work; JSON that says what produced it ---------------------------


@pytest.mark.parametrize("name, message", [
    ("out.xyz", "--plot: cannot write '.*out.xyz': its format '.xyz' is not one of"),
    ("no/such/dir/x.png", "--plot: the directory '.*no/such/dir' does not exist"),
    ("out", "it has no extension naming a format"),
])
def test_an_unwritable_plot_is_refused_before_the_rollout(capsys, tmp_path, name, message):
    pytest.importorskip("matplotlib")
    # A billion games would take hours: the refusal comes before any game is played.
    err = fails(capsys, "rollout", "--games", str(10**9), "--plot", str(tmp_path / name), "--no-progress")
    assert err.count("\n") == 1 and err.startswith("error: --plot: ")
    assert __import__("re").search(message, err), err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_the_json_says_what_produced_it_and_reproduces_itself(capsys):
    import shlex

    from bansugoroku_fast import __version__

    rules = Rules(finish="bear_off", closure="immediate", start="roll_off")
    out = run(capsys, "rollout", "--rules", rules.label, "--position", LAST_STONE.id, "--games", "72",
              "--policy", "heuristic,random", "--seed", "9", "--stratify", "--json")
    figures = json.loads(out)
    produced = figures["produced_by"]
    assert {key: produced[key] for key in ("position_id", "rules", "policy", "games", "seed", "stratify")} == {
        "position_id": LAST_STONE.id, "rules": rules.label, "policy": "heuristic,random", "games": 72, "seed": 9,
        "stratify": 36}
    assert produced["version"] == __version__ and produced["max_plies"] > 0
    assert Rules.parse(produced["rules"]) == rules
    command = shlex.split(produced["command"])
    assert command[:2] == ["bansugoroku", "rollout"]
    assert json.loads(run(capsys, *command[1:])) == figures  # the same games, the same figures


def test_a_truncated_variance_reduced_rollout_equals_the_api_and_reproduces_itself(capsys):
    import shlex

    figures = json.loads(run(capsys, "rollout", "--rules", "backgammon", "--games", "72", "--policy", "net",
                             "--seed", "4", "--truncate", "5", "--variance-reduction", "--json"))
    expected = rollout(Position.initial(), "backgammon", 72, "net", seed=4, truncate=5, variance_reduction=True)
    assert figures["counts"] == expected.counts.tolist() and figures["equity"] == expected.equity
    assert figures["settled"] == 72 and figures["produced_by"]["truncate"] == 5
    assert set(figures["outcomes"]["side_to_move"]) == {"wins"}    # no kinds: no game was played to its end
    command = shlex.split(figures["produced_by"]["command"])
    assert json.loads(run(capsys, *command[1:])) == figures


def test_the_table_says_how_many_games_were_valued_where_they_stopped(capsys):
    out = run(capsys, "rollout", "--rules", "backgammon", "--games", "36", "--policy", "net", "--truncate", "3",
              "--no-progress")
    assert "policy net, seed 0, --truncate 3" in out.splitlines()[0]
    assert "games stopped early and valued by their chances: 36" in out


@pytest.mark.parametrize("argv, message", [
    (["--policy", "heuristic", "--variance-reduction"], "seat 0's policy must be an EvaluatorPolicy"),
    (["--policy", "net", "--truncate", "0"], "truncate must be 1 or more, got 0"),
])
def test_judged_rollouts_refuse_bad_input_in_one_line(capsys, argv, message):
    assert message in fails(capsys, "rollout", "--rules", "backgammon", "--games", "4", *argv)


def test_hint_ranks_by_variance_reduced_rollouts(capsys):
    out = run(capsys, "hint", "4HPwATDgc/ABMA", "3-1", "--rules", "backgammon", "--policy", "net", "--games", "36",
              "--truncate", "4", "--variance-reduction", "--no-progress")
    assert "(policy net, seed 0 --truncate 4 --variance-reduction)" in out.splitlines()[0]
    assert out.splitlines()[1].split()[:2] == ["1.", "8/5"]


def test_a_cubeful_rollout_of_a_cashing_race_scores_one_point_a_game(capsys):
    """A race GNU Backgammon calls double/pass: with --cubeful every game
    ends at once by a pass (+1 each), as rollout(..., cubeful=True) says."""
    from tests.test_cubeful import CASHES

    out = run(capsys, "rollout", "--rules", "backgammon", "--position", CASHES[0], "--games", "36", "--cubeful",
              "--json", "--no-progress")
    figures = json.loads(out)
    assert figures["cubeful"] == {"equity": 1.0, "stderr": 0.0, "passed": 36, "mean_cube": 1.0}
    assert figures["produced_by"]["command"].endswith("--cubeful")
    expected = rollout(Position.from_id(CASHES[0]), "backgammon", 36, cubeful=True)
    assert figures["equity"] == pytest.approx(expected.equity)


@pytest.mark.parametrize("flags", [["--endgames"], ["--truncate", "4"], ["--variance-reduction"]])
def test_a_cubeful_rollout_refuses_the_options_it_does_not_take(capsys, flags):
    with pytest.raises(SystemExit):
        main(["rollout", "--rules", "backgammon", "--games", "4", "--cubeful", "--no-progress", *flags])
    assert "--cubeful does not combine with" in capsys.readouterr().err
