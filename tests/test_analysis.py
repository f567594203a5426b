"""The analysis of games and matches (``bansugoroku_fast.analysis``) and
``bansugoroku analyse``: known answers by reasoning, agreement with the
oracle's plain-Python twin, the command, bad input, and (once its reference
data is checked in) GNU Backgammon's own analysis."""
from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import numpy as np
import pytest

from bansugoroku_fast import (
    GameRecords,
    Position,
    Rules,
    legal_plays,
    parse_match,
    parse_play,
    play_games,
    read_match,
)
from bansugoroku_fast.analysis import Analysis, analyse, core, luck_mark, mark, rating, report
from bansugoroku_fast.cli import main
from bansugoroku_fast.errors import ArgumentTypeError, InvalidEvaluatorError, MatchFileError, OutputPathError
from bansugoroku_fast.evaluators import EvaluatorPolicy, NetEvaluator
from bansugoroku_fast.evaluators.search import ROLL_DICE, ROLL_WEIGHTS
from bansugoroku_fast.oracle import analysis as plain

DATA = Path(__file__).parent / "data" / "gnubg"
AUTO5 = DATA / "auto5.mat"
REFERENCE = DATA / "analysis_reference.json"
BACKGAMMON = Rules(variant="backgammon")
BAN = Rules()

# --- a deterministic evaluator, vectorised for the fast path and one position at a time for the oracle ---

W0 = np.sin(np.arange(26) * 1.37 + 0.4)
W1 = np.cos(np.arange(26) * 0.91 + 0.2)


def smooth(positions):
    """Five consistent probabilities from two weighted sums of the board (no two plays tie)."""
    p = np.asarray(positions, dtype=np.float64)
    x = p[:, 0] @ W0 - p[:, 1] @ W1
    y = (p[:, 0] @ W1 - p[:, 1] @ W0) * 0.1
    win = 1 / (1 + np.exp(-0.2 * x))
    g = 1 / (1 + np.exp(-y))
    return np.stack([win, win * 0.3 * g, win * 0.05 * g, (1 - win) * 0.3 * (1 - g), (1 - win) * 0.05 * (1 - g)], 1)


def smooth_one(position):
    """:func:`smooth` of one Position, rounded to float32 as the fast path's scores are."""
    return smooth(position.array[None]).astype(np.float32)[0].tolist()


@pytest.fixture(scope="module")
def auto5():
    return read_match(AUTO5)


@pytest.fixture(scope="module")
def auto5_analysis(auto5):
    return analyse(auto5, "net", threads=1)


# --- GNU Backgammon's marks and bands -----------------------------------------------------------------


def test_marks_are_strict_at_gnubgs_thresholds():
    assert [mark(x) for x in (0.0, 0.03, 0.030001, 0.06, 0.060001, 0.12, 0.120001)] == [
        None, None, "doubtful", "doubtful", "bad", "bad", "very bad"]
    assert [luck_mark(x) for x in (0.3, 0.300001, 0.6, 0.600001, -0.3, -0.300001, -0.600001)] == [
        None, "lucky", "lucky", "very lucky", None, "unlucky", "very unlucky"]
    assert [rating(x) for x in (0.0, 0.002, 0.0049, 0.0079, 0.0119, 0.0179, 0.0259, 0.0349, 0.035)] == [
        "Supernatural", "World class", "World class", "Expert", "Advanced", "Intermediate", "Casual player",
        "Beginner", "Awful!"]
    assert rating(None) is None
    assert plain.mark(0.030001) == mark(0.030001) and plain.luck_mark(-0.61) == luck_mark(-0.61)


# --- known answers by reasoning --------------------------------------------------------------------------


def _records(positions, dice, after, rules):
    """GameRecords of one-ply games (each ply a game of its own)."""
    n = len(positions)
    return GameRecords(np.arange(n + 1, dtype=np.int64), np.asarray(positions, np.int8), np.asarray(dice, np.int8),
                       np.asarray(after, np.int8), np.zeros(n, np.int8), np.ones(n, np.int8),
                       np.zeros(n, np.int8), np.ones(n, np.int32), rules=rules)


def test_a_forced_play_is_listed_but_never_counted():
    records = play_games(BACKGAMMON, games=2, seed=11)
    analysis = analyse(records, smooth, threads=1)
    counts = [len(legal_plays(Position.from_id(d.position_id), d.dice, BACKGAMMON)) for d in analysis.decisions]
    assert [d.forced for d in analysis.decisions] == [c <= 1 for c in counts]
    assert any(c == 0 for c in counts) or any(c == 1 for c in counts)     # the seed has forced plays
    for player in analysis.players:
        own = [d for d in analysis.decisions if d.player == player.player]
        assert player.moves == len(own)
        assert player.unforced == sum(not d.forced for d in own)
        assert all(d.mark is None and d.loss == 0 for d in own if d.forced)


def test_error_rate_is_the_total_loss_per_unforced_decision():
    analysis = analyse(play_games(BACKGAMMON, games=2, seed=4), smooth, threads=1)
    for player in analysis.players:
        losses = [d.loss for d in analysis.decisions if d.player == player.player and not d.forced]
        assert player.checker_error == pytest.approx(sum(losses))
        assert player.error_rate == pytest.approx(1000 * sum(losses) / len(losses))
        assert player.rating == rating(sum(losses) / len(losses))
        assert player.marks["doubtful"] == sum(mark(x) == "doubtful" for x in losses)


def test_the_evaluators_own_plays_lose_nothing():
    records = play_games(BACKGAMMON, games=1, policy=EvaluatorPolicy(smooth, rules=BACKGAMMON), seed=2)
    analysis = analyse(records, smooth, threads=1)
    assert all(d.loss == 0 and d.mark is None and d.played == d.best for d in analysis.decisions)
    assert [p.error_rate for p in analysis.players] == [0.0, 0.0]
    assert [p.rating for p in analysis.players] == ["Supernatural"] * 2


def test_luck_averages_to_zero_over_the_rolls():
    """One mid-game position with each of the 21 rolls: the luck's mean over the 36 rolls is 0."""
    position = Position.from_id("mM+DBwA0n4UBAw")
    after = []
    for dice in ROLL_DICE:
        plays = legal_plays(position, tuple(dice), BACKGAMMON)
        after.append((plays[-1].position if plays else position).array)
    records = _records([position.array] * 21, ROLL_DICE, after, BACKGAMMON)
    luck = np.array([d.luck for d in analyse(records, smooth, threads=1).decisions])
    assert abs(luck @ ROLL_WEIGHTS / 36) < 1e-12
    assert np.ptp(luck) > 0.01
    # played badly or well, a roll's luck is the same
    best = [max(legal_plays(position, tuple(d), BACKGAMMON),
                key=lambda p: smooth(p.position.array[None])[0] @ [2, 1, 1, -1, -1]).position.array
            for d in ROLL_DICE]
    again = analyse(_records([position.array] * 21, ROLL_DICE, best, BACKGAMMON), smooth, threads=1)
    assert np.allclose([d.luck for d in again.decisions], luck)


def test_the_opening_roll_s_luck_is_its_best_play_s_equity():
    """From the start of a roll-off game, the 30 rolls that may open it
    (either side's) average 0: the luck is the best play's equity."""
    start = Position.initial()
    play = legal_plays(start, (3, 1), BACKGAMMON)[0]
    decision = analyse(_records([start.array], [(3, 1)], [play.position.array], BACKGAMMON),
                       smooth, threads=1).decisions[0]
    assert decision.luck == pytest.approx(decision.best_equity, abs=1e-6)
    # a double is no opening roll: the mean is the 36 rolls'
    double = legal_plays(start, (6, 6), BACKGAMMON)[0]
    later = analyse(_records([start.array], [(6, 6)], [double.position.array], BACKGAMMON),
                    smooth, threads=1).decisions[0]
    assert later.luck != pytest.approx(later.best_equity, abs=1e-3)


def test_a_deeper_search_keeps_the_figures_consistent():
    net = NetEvaluator.random("backgammon", hidden=(8,), seed=5)
    records = play_games(BACKGAMMON, games=1, seed=9, max_plies=30, on_long="truncate")
    shallow = analyse(records, net, threads=1)
    deep = analyse(records, net, ply=1, threads=1)
    assert deep.ply == 1 and len(deep.decisions) == len(shallow.decisions)
    for d in deep.decisions:
        assert d.loss >= 0 and d.best_equity >= d.played_equity - 1e-12
        assert d.loss == pytest.approx(d.best_equity - d.played_equity)
    assert [d.luck for d in deep.decisions] == pytest.approx([d.luck for d in shallow.decisions])


# --- match files ---------------------------------------------------------------------------------------------


def test_a_match_file_gives_one_decision_per_play_in_file_order(auto5, auto5_analysis):
    analysis = auto5_analysis
    plays = [d for d in analysis.decisions if d.kind == "play"]
    rolls = [(game.number, a.move_number, a.seat, a.dice) for game in auto5.games for a in game.actions
             if a.kind == "roll"]
    assert [(d.game, d.move_number, d.player, tuple(d.dice)) for d in plays] == rolls
    assert analysis.names == ("gnubg", "root") and analysis.match_length == 5
    # the marked decisions, worst first, each with the mark its loss earns
    errors = analysis.errors()
    assert errors and [d.loss for d in errors] == sorted((d.loss for d in errors), reverse=True)
    assert all(d.mark == mark(d.loss) for d in errors)
    # game 1, move 15 of the file: gnubg (left column) 55: 22/17(2) 17/12(2), the play GNU Backgammon
    # itself ranks first at 0 and at 1 ply (gnubg-nn: -0.479 / -0.468 against -0.504 / -0.492 for
    # 22/17 22/7): a race after the play, which the race network judges close to that
    move = next(d for d in analysis.decisions if (d.game, d.move_number, d.kind) == (1, 15, "play"))
    assert (move.player, move.dice, move.played) == (0, (5, 5), "22/12(2)")
    assert move.mark in (None, "doubtful")


def test_one_game_record_is_analysed_alone(auto5, auto5_analysis):
    game = auto5.games[1]
    alone = analyse(game, "net", threads=1)
    assert alone.match_length == 0      # a game alone is judged as money play, its plays valued cubeful at money
    in_match = [d for d in auto5_analysis.decisions if d.game == 2 and d.kind == "play"]
    on_its_own = [d for d in alone.decisions if d.kind == "play"]
    assert [(d.move_number, d.player, d.played) for d in on_its_own] == [
        (d.move_number, d.player, d.played) for d in in_match]


def test_the_json_is_the_analysis(auto5_analysis):
    data = json.loads(auto5_analysis.to_json())
    assert data["rules"] == BACKGAMMON.label and data["ply"] == 0 and data["names"] == ["gnubg", "root"]
    assert len(data["decisions"]) == len(auto5_analysis.decisions)
    first = next(d for d in data["decisions"] if d["kind"] == "play")
    assert {"game", "move_number", "player", "kind", "forced", "played", "best", "loss", "mark", "luck"} <= set(first)
    assert "proper" not in first     # a play carries no cube fields
    assert [p["error_rate"] for p in data["players"]] == [p.error_rate for p in auto5_analysis.players]


def test_threads_do_not_change_the_figures(auto5, auto5_analysis):
    assert analyse(auto5, "net", threads=2).to_dict() == auto5_analysis.to_dict()


def test_plays_read_from_the_luck_s_rolls_are_judged_as_on_their_own(auto5, auto5_analysis):
    """At 0 ply the luck values every play of every roll: the plays judged
    from its roll's share are those judged without the luck."""
    alone = analyse(auto5, "net", threads=1, luck=False)
    fields = ("kind", "forced", "played", "best", "played_equity", "best_equity", "loss", "mark")
    assert [tuple(getattr(d, f) for f in fields) for d in auto5_analysis.decisions] == \
        [tuple(getattr(d, f) for f in fields) for d in alone.decisions]
    assert sum(d.kind == "play" and not d.forced for d in alone.decisions) > 50


def test_cube_points_decided_together_are_decided_as_one_at_a_time(auto5):
    """The batch of each cube state gives cube_decision's own figures and words."""
    from bansugoroku_fast.cube import cube_decision

    record = core._record(auto5, None)
    points = [item for item in record.items if isinstance(item, core.CubePoint)]
    together = core.cube_decisions(points, BACKGAMMON, NetEvaluator.shipped(BACKGAMMON), 0)
    alone = core.cube_decisions(points, BACKGAMMON, NetEvaluator.shipped(BACKGAMMON), 0, decide=cube_decision)
    assert len(together) == len(alone) > 10
    for a, b in zip(together, alone):
        assert (a.no_double, a.double_take, a.double_pass) == pytest.approx(
            (b.no_double, b.double_take, b.double_pass), abs=1e-9)
        assert a.proper == b.proper and a.loss == pytest.approx(b.loss, abs=1e-9)


def test_cube_decisions_are_judged_by_cube_decision(auto5, monkeypatch):
    """With a stand-in cube_decision: every chance to double, double, take
    and pass of the file is a decision, losses as GNU Backgammon counts them."""
    class Stub:
        def __init__(self, nd, dt, dp, action):
            self.no_double, self.double_take, self.double_pass, self.action = nd, dt, dp, action

    calls = []

    def decide(position, rules, evaluator, *, cube, owner, match, ply):
        calls.append((cube, owner, match))
        return Stub(0.5, 0.8, 1.0, "Double, take")      # a double the opponent must take

    monkeypatch.setattr(core, "cube_decisions", functools.partial(core.cube_decisions, decide=decide))
    analysis = analyse(auto5, "net", threads=1, luck=False)
    cubes = [d for d in analysis.decisions if d.kind == "cube"]
    assert len(cubes) == len(calls) > 0
    by_action = {action: [d for d in cubes if d.action == action] for action in core.CUBE_ACTIONS}
    assert all(d.loss == pytest.approx(0.3) and not d.forced for d in by_action["no double"])
    assert all(d.loss == 0 for d in by_action["double"] + by_action["take"])
    assert all(d.loss == pytest.approx(0.2) for d in by_action["pass"])     # passing a take
    # game 1: root (right column) doubles at move 11, gnubg takes at move 12
    double = next(d for d in by_action["double"] if d.game == 1)
    take = next(d for d in by_action["take"] if d.game == 1)
    assert (double.move_number, double.player, take.move_number, take.player) == (11, 1, 12, 0)
    assert take.position_id == double.position_id and double.proper == "Double, take"
    # no cube decision in the Crawford game (game 3), nor for the side that does not own the cube
    assert not [d for d in cubes if d.game == 3]
    assert all(match.match_length == 5 for _, _, match in calls)
    player = analysis.players[1]
    assert player.close_cube == sum(1 for d in cubes if d.player == 1)
    assert player.cube_error == pytest.approx(sum(d.loss for d in cubes if d.player == 1))
    data = json.loads(analysis.to_json())
    assert any(d["kind"] == "cube" and d["proper"] == "Double, take" for d in data["decisions"])


def test_ban_sugoroku_games_are_analysed_without_a_cube():
    analysis = analyse(play_games(BAN, games=2, seed=1), "net", threads=1)
    assert analysis.rules == BAN and all(d.kind == "play" for d in analysis.decisions)
    assert {d.game for d in analysis.decisions} == {1, 2}


# --- the oracle's twin ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "seed", "plies"), [(BACKGAMMON, 5, 24), (BAN, 5, 24), (BACKGAMMON, 8, 18)])
def test_the_fast_path_agrees_with_the_oracle(rules, seed, plies):
    records = play_games(rules, games=1, seed=seed)
    fast = analyse(records, smooth, threads=1).decisions[:plies]
    rows = plain.analyse_game(list(records.positions[:plies]), records.dice[:plies].tolist(),
                              list(records.after[:plies]), rules, smooth_one)
    for decision, row in zip(fast, rows):
        assert (decision.player, decision.forced, decision.played, decision.best, decision.mark,
                decision.luck_mark) == (row["player"], row["forced"], row["played"], row["best"], row["mark"],
                                        row["luck_mark"])
        assert decision.loss == pytest.approx(row["loss"], abs=1e-9)
        assert decision.luck == pytest.approx(row["luck"], abs=1e-9)
        assert decision.best_equity == pytest.approx(row["best_equity"], abs=1e-9)
    rates = plain.error_rates(rows)
    mine = [1000 * np.mean([d.loss for d in fast if d.player == p and not d.forced]) for p in (0, 1)]
    assert mine == pytest.approx(rates)


# --- bad input ---------------------------------------------------------------------------------------------


def test_bad_arguments_are_typed_errors(auto5):
    with pytest.raises(TypeError, match="analyse takes a MatchRecord"):
        analyse("auto5.mat", "net")
    with pytest.raises(ArgumentTypeError):
        analyse(auto5, 42)
    with pytest.raises(InvalidEvaluatorError, match="unknown evaluator name"):
        analyse(auto5, "gnubg-ish")
    with pytest.raises(ValueError, match="ply must be 0, 1 or 2"):
        analyse(auto5, "net", ply=3)
    with pytest.raises(ValueError, match="threads"):
        analyse(auto5, "net", threads=0)
    records = play_games(BAN, games=1, seed=1)
    with pytest.raises(ValueError, match="rules= given"):
        analyse(records, "net", rules=BACKGAMMON)
    with pytest.raises(InvalidEvaluatorError):     # a backgammon network for Ban-sugoroku records
        analyse(records, NetEvaluator.random("backgammon", hidden=(4,)))


@pytest.mark.parametrize("figure", [mark, luck_mark, rating])
def test_a_figure_that_is_not_a_number_is_refused(figure):
    # NaN compares false with every bound: it read as the best mark or band, or as 'Awful!'.
    with pytest.raises(ValueError, match="must be a number, got NaN"):
        figure(float("nan"))
    with pytest.raises(TypeError, match=r"must be a real number, got '0\.1'"):
        figure("0.1")


def test_the_statistics_and_cube_decisions_check_what_they_are_given():
    with pytest.raises(TypeError, match="names must be the two players' names"):
        core.statistics([], ["Ann"])
    with pytest.raises(TypeError, match=r"decisions\[0\] must be a Decision, got dict"):
        core.statistics([{"player": 0}], ["Ann", "Bob"])
    with pytest.raises(TypeError, match=r"points\[0\] must be a CubePoint, got int"):
        core.cube_decisions([1], BACKGAMMON, "net", 0)
    with pytest.raises(ValueError, match="ply must be 0, 1 or 2"):
        core.cube_decisions([], BACKGAMMON, "net", 3)


def test_an_empty_match_is_an_empty_analysis():
    analysis = analyse(parse_match(" 3 point match\n"), "net")
    assert analysis.decisions == () and [p.error_rate for p in analysis.players] == [None, None]
    assert [p.rating for p in analysis.players] == [None, None]


# --- the command ----------------------------------------------------------------------------------------------


def run(capsys, *argv):
    status = main(["analyse", *argv, "--threads", "1", "--no-progress"])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_command_prints_the_statistics_and_the_errors_worst_first(capsys, auto5_analysis):
    status, out, _ = run(capsys, str(AUTO5))
    assert status == 0
    assert "Error rate (mEMG per decision)" in out and "Rating" in out
    listed = [line for line in out.splitlines() if line.startswith("  game ")]
    errors = auto5_analysis.errors()
    assert len(listed) == len(errors)
    for line, error in zip(listed, errors):     # worst first, one line each
        assert line.startswith(f"  game {error.game}, move {error.move_number}, "
                               f"{auto5_analysis.names[error.player]}: ")


def test_the_command_prints_json(capsys, auto5_analysis):
    status, out, _ = run(capsys, str(AUTO5), "--json")
    assert status == 0
    data = json.loads(out)
    assert data["decisions"] == json.loads(auto5_analysis.to_json())["decisions"]
    status, out, _ = run(capsys, str(AUTO5), str(DATA / "resign3.mat"), "--json")
    both = json.loads(out)
    assert [a["source"] for a in both] == [str(AUTO5), str(DATA / "resign3.mat")]
    assert both[0]["decisions"] == data["decisions"]     # the same on threads as alone


def test_the_command_writes_the_report_whole(capsys, tmp_path, auto5_analysis):
    target = tmp_path / "report.html"
    status, _, _ = run(capsys, str(AUTO5), "--report", str(target))
    assert status == 0 and os.listdir(tmp_path) == ["report.html"]      # no temporary file left
    page = target.read_text()
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") >= len(auto5_analysis.errors())
    assert "Position ID d7YbAABv2wIADA" in page


def test_the_command_plots_the_equity(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "equity.png"
    status, _, _ = run(capsys, str(AUTO5), "--plot", str(target))
    assert status == 0 and target.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("option", ["--report", "--plot"])
def test_a_path_that_cannot_be_written_is_refused_before_any_work(capsys, tmp_path, option, monkeypatch):
    if option == "--plot":
        pytest.importorskip("matplotlib")
    monkeypatch.setattr("bansugoroku_fast.cli.analyse._analyser", lambda: pytest.fail("analysed"))
    for bad in (str(tmp_path / "missing" / "out.html"), str(tmp_path / "out.xyz"), str(tmp_path)):
        bad = bad.replace(".html", ".png") if option == "--plot" else bad
        with pytest.raises(SystemExit) as stop:
            run(capsys, str(AUTO5), option, bad)
        assert stop.value.code == 2
        assert capsys.readouterr().err.startswith(f"error: {option}")
    assert sorted(os.listdir(tmp_path)) == []


def test_the_report_refuses_a_directory_that_is_not_there():
    with pytest.raises(OutputPathError):
        report.report_target("/no/such/dir/r.html")


def test_a_damaged_file_is_named_with_its_line(capsys, tmp_path):
    broken = tmp_path / "broken.mat"
    broken.write_text(AUTO5.read_text().replace("31: 8/5 6/5", "31: 8/4 6/5"))
    with pytest.raises(SystemExit) as stop:
        run(capsys, str(broken))
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith("error: line ") and str(broken) in err
    with pytest.raises(SystemExit):
        run(capsys, str(tmp_path / "missing.mat"))
    assert "missing.mat: cannot read it" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        run(capsys, str(AUTO5), "--evaluator", "nope")
    assert "--evaluator" in capsys.readouterr().err


def test_the_damaged_file_error_keeps_its_place(tmp_path):
    broken = tmp_path / "broken.mat"
    broken.write_text(AUTO5.read_text().replace("31: 8/5 6/5", "31: 8/4 6/5"))
    from bansugoroku_fast.cli.analyse import _read
    with pytest.raises(MatchFileError) as error:
        _read(str(broken), None)
    assert error.value.line > 0 and error.value.message.startswith(str(broken))


# --- GNU Backgammon's own analysis ------------------------------------------------------------------------


def gnubg_evaluator():
    """GNU Backgammon's network (the gnubg-nn package) as a callable
    evaluator: our row 1 is on roll, GNU Backgammon's board[1]; its five
    probabilities (the side on roll's, in the same order) flipped to row 0."""
    gnubg_nn = pytest.importorskip("gnubg_nn")

    def evaluate(positions):
        out = np.empty((len(positions), 5))
        for i, p in enumerate(np.asarray(positions)):
            board = [p[0, 1:26].tolist(), p[1, 1:26].tolist()]
            win, win2, win3, lose2, lose3 = gnubg_nn.probabilities(board, 0)
            out[i] = (1 - win, lose2, lose3, win2, win3)
        return out

    return evaluate


def test_gnubg_nn_evaluator_sees_the_start_as_gnubg_does():
    evaluate = gnubg_evaluator()
    p = evaluate(Position.initial().array[None])[0]
    assert 0.44 < p[0] < 0.5      # the side that has just moved stands a little worse than the side on roll


def _leading_number(text: str) -> float:
    """The figure GNU Backgammon's statistics print first: "-3.2   ( -0.115%)" -> -3.2."""
    return float(text.split()[0])


@pytest.mark.skipif(not REFERENCE.exists(), reason=f"no reference data: {REFERENCE}")
@pytest.mark.parametrize("index", [0, 1, 2])
def test_the_analysis_agrees_with_gnubg(index):
    """GNU Backgammon analysed its own match files at 0 ply
    (tests/data/gnubg/README.md); with its network (gnubg-nn) as the
    evaluator: the same best play on at least 95% of unforced plays (the
    same resulting position: the notations may split a move differently),
    each player's error rate within 1.5 millipoints and luck within 0.1."""
    match = json.loads(REFERENCE.read_text())["matches"][index]
    analysis = analyse(read_match(DATA / match["file"]), gnubg_evaluator(), threads=1)
    mine = {(d.game, d.move_number, d.player): d for d in analysis.decisions if d.kind == "play"}
    same = total = 0
    for theirs in match["decisions"]:
        if theirs["kind"] != "play" or theirs["candidates"] < 2:
            continue
        ours = mine[(theirs["game"], theirs["move_number"], theirs["player"])]
        position, dice = Position.from_id(theirs["position"]), tuple(theirs["dice"])
        total += 1
        same += (parse_play(position, dice, ours.best, BACKGAMMON).position
                 == parse_play(position, dice, theirs["best"], BACKGAMMON).position)
    assert same / total >= 0.95, (same, total)
    statistics = match["statistics"]
    for k, ours in enumerate(analysis.players):
        error_rate = -_leading_number(statistics["Overall statistics"]["Error rate mEMG (MWC)"][k])
        luck = _leading_number(statistics["Luck statistics"]["Luck total EMG (MWC)"][k])
        assert ours.error_rate == pytest.approx(error_rate, abs=1.5), (match["file"], k)
        assert ours.luck == pytest.approx(luck, abs=0.1), (match["file"], k)


def test_analysis_is_exported():
    import bansugoroku_fast
    assert bansugoroku_fast.analyse is analyse and bansugoroku_fast.Analysis is Analysis
