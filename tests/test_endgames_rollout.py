"""Rollouts that stop at the exact endgame tables (``rollout(..., endgames=True)``),
the ``"race"`` policy, and the ``bansugoroku race`` command."""
from __future__ import annotations

import json

import numpy as np
import pytest

from bansugoroku_fast import Position, play_games, rank_plays, rollout
from bansugoroku_fast.cli import main
from bansugoroku_fast.endgames import race, race_batch, race_play
from bansugoroku_fast.errors import InvalidPolicyError
from bansugoroku_fast.games.bulk import rollout_values, table_settle
from bansugoroku_fast.games.game_batch import SETTLED, rollout_stopped
from bansugoroku_fast.games.policies import policy_arrays, resolve_policies
from bansugoroku_fast.games.tallies import GNUBG_FIGURES, figure_values
from bansugoroku_fast.rules import Rules

BACKGAMMON = Rules.parse("backgammon")


def board(row0: list[int], row1: list[int]) -> Position:
    """A position from each row's stones on points 0.. (point 0: borne off)."""
    return Position([row0 + [0] * (26 - len(row0)), row1 + [0] * (26 - len(row1))])


# Fifteen stones each on points 1..6: a race in the tables from the start.
IN_TABLE = board([0, 3, 3, 3, 2, 2, 2], [0, 2, 2, 3, 3, 3, 2])
# A race with stones on points 7..9: in the tables after a few plies.
OUTSIDE = board([0, 2, 2, 2, 2, 2, 1, 2, 1, 1], [0, 2, 2, 2, 2, 2, 2, 1, 1, 1])
# Late contact: one stone of row 0 still behind row 1's home stones.
LATE_CONTACT = board([0, 3, 3, 2, 2, 2, 2] + [0] * 13 + [1], [0, 3, 3, 3, 3, 0, 2, 0, 1])
# Ban-sugoroku (arrival finish), late contact.
BAN_LATE = board([0, 5, 0, 0, 0, 0, 0, 2, 2, 2, 2, 1] + [0] * 8 + [1], [0, 3, 2, 2, 0, 0, 0, 0, 0, 2, 2, 2, 2])


def settle_by(rules: Rules):
    def settle(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        figures = race_batch(boards, rules, outside="nan")
        return figures.in_table, figures.value_probabilities()
    return settle


@pytest.mark.parametrize("rules, position, policy", [
    ("backgammon", OUTSIDE, "random"),
    ("backgammon", LATE_CONTACT, "heuristic"),
    ("backgammon", LATE_CONTACT, "random"),
    ("ban-sugoroku", BAN_LATE, "random"),
])
def test_games_are_the_played_out_games_up_to_the_first_table_position(rules, position, policy):
    """Game g stops at the first ply of the played-out game g (play_games,
    same seed and start) whose position is in a table, and counts that
    position's exact chances, by seat; a game that never reaches a table
    ends as it ended there."""
    rules = Rules.parse(rules)
    games, seed = 60, 7
    records = play_games(rules, games, policy, seed, start=position)
    ends, shares = rollout_stopped(position.array[None], 0, games, resolve_policies(policy, rules), rules, seed,
                                     0, 10_000, 1, settle_by(rules))
    figures = race_batch(records.positions, rules, outside="nan")
    chances = figures.value_probabilities()
    stopped = 0
    for g in range(games):
        start, stop = int(records.offsets[g]), int(records.offsets[g + 1])
        in_table = np.flatnonzero(figures.in_table[start:stop])
        if in_table.size:
            ply = int(in_table[0])
            assert ends.winner[g] == SETTLED and ends.plies[g] == ply
            expected = chances[start + ply] if ply % 2 == 0 else chances[start + ply][::-1]
            np.testing.assert_array_equal(shares[g], expected)
            stopped += 1
        else:
            assert (ends.winner[g], ends.value[g], ends.plies[g]) == (records.winner[g], records.value[g],
                                                                      records.plies[g])
            assert shares[g].sum() == 1.0 and shares[g, records.winner[g], records.value[g]] == 1.0
    assert stopped > 0   # the comparison above was made


@pytest.mark.parametrize("rules, position, policy", [
    ("backgammon", OUTSIDE, "random"),
    ("backgammon", LATE_CONTACT, ("heuristic", "pubeval")),
    ("backgammon", IN_TABLE, "first"),
    ("ban-sugoroku", BAN_LATE, "heuristic"),
])
def test_the_kernels_stop_where_the_lockstep_games_stop(rules, position, policy):
    """Kernel policies stop in the kernels' game engine: the same stop
    plies, ends and chances as the lockstep waves, to the last bit."""
    rules = Rules.parse(rules)
    policies = resolve_policies(policy, rules)
    stop = table_settle(rules)
    positions = np.stack([position.array, OUTSIDE.array if rules.is_backgammon else position.array])
    codes, weights = policy_arrays(policies)
    ends, shares = stop.kernel_games(positions, 3, 50, codes, weights, 9, 36, 10_000, 2, "raise")
    twin_ends, twin_shares = rollout_stopped(positions, 3, 50, policies, rules, 9, 36, 10_000, 1, stop)
    for field in ("winner", "value", "plies"):
        np.testing.assert_array_equal(getattr(ends, field), getattr(twin_ends, field))
    np.testing.assert_array_equal(shares, twin_shares)
    kernel, lockstep = (rollout_values(positions, rules, 50, policies, 9, 36, 10_000, 1, None, False, 3,
                                       settle=stop, lockstep_only=only)[0] for only in (False, True))
    np.testing.assert_array_equal(kernel.counts, lockstep.counts)
    np.testing.assert_array_equal(kernel.squares, lockstep.squares)


def test_figures_are_the_means_and_standard_errors_of_the_games_values():
    """Each figure and its standard error are those of its per-game values
    (numpy's mean and sample standard deviation over sqrt(n))."""
    games, seed = 200, 3
    result = rollout(LATE_CONTACT, "backgammon", games=games, policy="random", seed=seed, endgames=True)
    _, shares = rollout_stopped(LATE_CONTACT.array[None], 0, games, resolve_policies("random", BACKGAMMON),
                                  BACKGAMMON, seed, 0, 10_000, 1, settle_by(BACKGAMMON))
    values = figure_values(shares)
    for k, name in enumerate(GNUBG_FIGURES):
        assert result.gnubg[name] == pytest.approx(values[:, k].mean(), abs=1e-12)
        assert result.gnubg_stderr[name] == pytest.approx(values[:, k].std(ddof=1) / np.sqrt(games), abs=1e-12)
    assert result.equity == result.gnubg["equity"] and result.win_probability == result.gnubg["win"]
    assert 0 < result.settled <= games and result.games == games


def test_a_start_in_the_tables_gives_the_exact_figures_at_ply_0():
    exact = race(IN_TABLE, "backgammon")
    result = rollout(IN_TABLE, "backgammon", games=100, policy="random", endgames=True)
    assert result.equity == pytest.approx(exact.equity, abs=1e-12)
    assert result.win_probability == pytest.approx(exact.win, abs=1e-12)
    assert result.stderr < 1e-6 and result.mean_plies == 0.0 and result.settled == 100


def test_endgames_false_is_the_played_out_rollout():
    plain = rollout(LATE_CONTACT, "backgammon", games=72, policy="heuristic", seed=2)
    same = rollout(LATE_CONTACT, "backgammon", games=72, policy="heuristic", seed=2, endgames=False)
    assert repr(same) == repr(plain) and plain.settled == 0 and plain.counts.dtype == np.int64
    wins = int(plain.counts[0].sum())
    assert plain.win_probability == wins / 72 and plain.win_stderr == pytest.approx(
        np.sqrt(wins * (72 - wins) / 72 / 71 / 72), rel=1e-12)


@pytest.mark.parametrize("position", [OUTSIDE, LATE_CONTACT])
def test_same_mean_smaller_stderr_fewer_plies(position):
    """Played by the tables' own play ("race"), the played-out rollout and
    the one that stops at the tables estimate the same equity: they agree
    within 4 standard errors of the difference; the stopped one has the
    smaller standard error and plays fewer plies."""
    played = rollout(position, "backgammon", games=1296, policy="race", seed=11)
    stopped = rollout(position, "backgammon", games=1296, policy="race", seed=11, endgames=True)
    assert abs(played.equity - stopped.equity) < 4 * played.stderr
    assert stopped.stderr < played.stderr
    assert stopped.mean_plies < played.mean_plies


def test_batch_rollout_matches_single_positions():
    batch = np.stack([OUTSIDE.array, LATE_CONTACT.array])
    result = rollout(batch, "backgammon", games=40, policy="random", seed=4, endgames=True)
    for i, position in enumerate((OUTSIDE, LATE_CONTACT)):
        one = rollout(position, "backgammon", games=40, policy="random", seed=4, endgames=True)
        assert result.equity[i] == pytest.approx(one.equity, abs=1e-12) and result.settled[i] == one.settled
    assert result.counts.dtype == np.float64


def test_rank_plays_in_a_table_race_ranks_by_the_tables():
    """Every child of a table race is in the table, so each play's rollout
    is its exact equity, and the best is the tables' best play."""
    position = board([13, 0, 0, 0, 0, 1, 1], [11, 4])
    ranked = rank_plays(position, (4, 1), "backgammon", games=36, endgames=True)
    assert str(ranked[0].play) == str(race_play(position, (4, 1), "backgammon"))
    for item in ranked:
        assert item.equity == pytest.approx(-race(item.play.position.swapped(), "backgammon").equity, abs=1e-12)
        assert item.stderr < 1e-6


def test_endgames_must_be_a_bool():
    with pytest.raises(TypeError, match="endgames"):
        rollout(IN_TABLE, "backgammon", games=4, endgames="yes")


def test_race_policy_plays_a_table_race_by_the_tables():
    """In a table race the "race" policy picks race_play's play (a lone
    stone on 6 against four stones on the 1-point, roll 4-1: 5/off)."""
    position = board([13, 0, 0, 0, 0, 1, 1], [11, 4])
    records = play_games("backgammon", 36, "race", seed=0, start=position)
    first = records.offsets[:-1]
    for g in range(36):
        dice = tuple(int(d) for d in records.dice[first[g]])
        best = race_play(position, dice, "backgammon")
        assert Position(records.after[first[g]]) == best.position


def test_race_policy_is_refused_where_callables_are_not_played():
    with pytest.raises(InvalidPolicyError, match="race"):
        resolve_policies("race", "backgammon")


# --- the command line -------------------------------------------------------------------


def test_race_command_prints_the_textbook_one_stone_race(capsys):
    """A lone stone on the 6-point against one on the 1-point: the side to
    roll wins with 27 rolls of 36."""
    position = board([14, 0, 0, 0, 0, 0, 1], [14, 1])
    assert main(["race", position.id, "--rules", "backgammon", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["win"] == pytest.approx(27 / 36) and figures["method"] == "two-sided"
    assert figures["equity"] == pytest.approx(2 * 27 / 36 - 1) and figures["turns"] == [1.25, 1.0]
    assert main(["race", position.id, "--rules", "backgammon"]) == 0
    assert "0.750000" in capsys.readouterr().out


@pytest.mark.parametrize("position, message", [(LATE_CONTACT.id, "contact"), ("not-an-id", "")])
def test_race_command_refuses_a_bad_position_in_one_line(capsys, position, message):
    with pytest.raises(SystemExit) as exit_:
        main(["race", position, "--rules", "backgammon"])
    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith("error: ") and error.count("\n") == 1 and message in error


# --- the oracle's twin ------------------------------------------------------------------

# At most 3 stones a side on the board: every table race these games reach is
# small enough for the oracle's plain-Python two-sided table.
SMALL_LATE_CONTACT = {
    "backgammon": board([12, 1, 1] + [0] * 17 + [1], [12, 2, 0, 0, 0, 0, 0, 0, 1]),
    "ban-sugoroku": board([0, 12, 0, 0, 0, 0, 0, 1, 0, 1] + [0] * 10 + [1], [0, 12, 0, 0, 0, 0, 0, 0, 2, 0, 1]),
}


@pytest.mark.parametrize("rules", ["backgammon", "ban-sugoroku"])
def test_oracle_rollout_that_stops_at_the_tables_agrees(rules):
    """The oracle's rollout stops at the same plies, with the same chances
    (its own plain-Python two-sided table), and gives the same figures."""
    from bansugoroku_fast.oracle import games as oracle

    position = SMALL_LATE_CONTACT[rules]
    ours = rollout(position, rules, games=48, policy="random", seed=5, endgames=True)
    theirs = oracle.rollout(position, rules, games=48, policy="random", seed=5, endgames=True)
    assert (ours.settled, ours.mean_plies, ours.games) == (theirs.settled, theirs.mean_plies, theirs.games)
    assert ours.settled > 0
    np.testing.assert_allclose(np.array(ours.counts, dtype=float), np.array(theirs.counts, dtype=float),
                               rtol=0, atol=1e-12)
    for name in ("equity", "stderr", "win_probability", "win_stderr"):
        assert getattr(ours, name) == pytest.approx(getattr(theirs, name), abs=1e-12), name
    ranked = rank_plays(position, (2, 1), rules, games=12, policy="random", seed=5, endgames=True)
    twins = oracle.rank_plays(position, (2, 1), rules, games=12, policy="random", seed=5, endgames=True)
    assert [str(r.play) for r in ranked] == [str(r.play) for r in twins]
    assert [r.equity for r in ranked] == pytest.approx([r.equity for r in twins], abs=1e-12)
