"""Truncated and variance-reduced rollouts (``truncate=``, ``variance_reduction=``):
against the oracle, against the played-out rollout, across threads and Dask,
and their bad input."""
from __future__ import annotations

import numpy as np
import pytest

from bansugoroku_fast import Position, Rules, play_games, rank_plays, rollout
from bansugoroku_fast.errors import InvalidEvaluatorError, PolicyTypeError
from bansugoroku_fast.evaluators import EvaluatorPolicy, NetEvaluator, evaluate
from bansugoroku_fast.evaluators.search import ROLL_DICE, ROLL_WEIGHTS, RolloutJudge
from bansugoroku_fast.oracle import games as oracle
from tests.boards import landing_grid

BACKGAMMON = Rules(variant="backgammon")
BAN = Rules()
BAN_LOCAL = Rules(finish="bear_off", closure="immediate")


def _midgame(rules: Rules, ply: int = 12) -> np.ndarray:
    """A position reached in a heuristic game (row 0 to roll)."""
    return play_games(rules, 1, "heuristic", seed=4).positions[ply]


def _small_net(rules: Rules) -> EvaluatorPolicy:
    return EvaluatorPolicy(NetEvaluator.random(rules, hidden=(8,), seed=5))


def _same(one, other) -> bool:
    """Every field of two rollout results equal, bit for bit."""
    return all(np.array_equal(np.asarray(getattr(one, name)), np.asarray(getattr(other, name)))
               if not isinstance(getattr(one, name), dict) else getattr(one, name) == getattr(other, name)
               for name in one.__dataclass_fields__)


def _figures(result) -> np.ndarray:
    return np.concatenate([np.asarray(result.counts, dtype=float).ravel(), [result.equity, result.stderr]])


# Fewer games than strata on purpose (the oracle's games are slow; the dealing is compared).
@pytest.mark.filterwarnings("ignore::bansugoroku_fast.errors.UnevenStrataWarning")
@pytest.mark.parametrize(("judging", "rules"), landing_grid(
    [dict(truncate=4, variance_reduction=True), dict(truncate=2),
     dict(truncate=6, variance_reduction=True, stratify=36)],
    [BACKGAMMON, BAN, BAN_LOCAL]))
def test_the_oracle_agrees(judging, rules):
    """Same games, same luck, same stops: the float32 kernels' figures within
    1e-5 of the oracle's float64 ones."""
    policy, start = _small_net(rules), _midgame(rules)
    mine = rollout(start, rules, games=8, policy=policy, seed=2, **judging)
    theirs = oracle.rollout(start, rules, games=8, policy=policy, seed=2, **judging)
    assert mine.settled == theirs.settled
    assert np.asarray(mine.kind_counts).tolist() == [list(row) for row in theirs.kind_counts]
    np.testing.assert_allclose(_figures(mine), _figures(theirs), atol=1e-5)


def test_the_oracle_agrees_on_whole_games_with_variance_reduction():
    policy = _small_net(BAN)
    start = _midgame(BAN, 28)
    mine = rollout(start, BAN, games=3, policy=policy, seed=7, variance_reduction=True)
    theirs = oracle.rollout(start, BAN, games=3, policy=policy, seed=7, variance_reduction=True)
    assert mine.settled == theirs.settled == 0
    np.testing.assert_allclose(_figures(mine), _figures(theirs), atol=1e-5)


@pytest.mark.parametrize("rules", [BACKGAMMON, BAN_LOCAL], ids=str)
def test_a_rolls_luck_averages_to_nothing_over_the_21_rolls(rules):
    judge = RolloutJudge(NetEvaluator.random(rules, hidden=(8,), seed=1), rules)
    boards = play_games(rules, 2, "heuristic", seed=9).positions[::7][:12]
    lucks = np.stack([judge.luck(boards, np.tile(roll, (len(boards), 1))) for roll in ROLL_DICE])
    assert np.abs(np.einsum("r,rksv->ksv", ROLL_WEIGHTS, lucks)).max() < 1e-12
    assert np.abs(lucks).max() > 0.01    # the rolls do differ


def test_variance_reduction_leaves_the_games_as_played():
    """The same games as the played-out rollout (kind_counts: who won, how),
    with the net played in lockstep instead of the kernels; only the
    figures move, the luck taken out."""
    start = _midgame(BACKGAMMON, 20)
    played = rollout(start, BACKGAMMON, games=72, policy="net", seed=5)
    reduced = rollout(start, BACKGAMMON, games=72, policy="net", seed=5, variance_reduction=True)
    assert np.array_equal(played.kind_counts, reduced.kind_counts)
    assert reduced.settled == 0 and played.mean_plies == reduced.mean_plies
    assert reduced.equity != played.equity


def test_variance_reduction_shrinks_the_standard_error():
    start = _midgame(BACKGAMMON, 10)
    kwargs = dict(games=288, policy="net", seed=11)
    played = rollout(start, BACKGAMMON, **kwargs)
    reduced = rollout(start, BACKGAMMON, variance_reduction=True, **kwargs)
    assert reduced.stderr < played.stderr / 2
    assert abs(reduced.equity - played.equity) < 4 * played.stderr


def test_a_truncated_game_counts_the_evaluators_chances():
    """Truncated at one ply, each game's value is the evaluator's value of
    the position after the first play, seen by the side to roll next."""
    net = NetEvaluator.random(BACKGAMMON, hidden=(8,), seed=3)
    start = _midgame(BACKGAMMON, 8)
    result = rollout(start, BACKGAMMON, games=36, policy=EvaluatorPolicy(net), seed=1, truncate=1, stratify=36)
    records = play_games(BACKGAMMON, 36, EvaluatorPolicy(net), seed=1, start=start, stratify=36,
                         max_plies=1, on_long="truncate")
    after = records.after[records.offsets[:-1]]     # seen by seat 0, who just moved: its own chances
    win, win2, win3, lose2, lose3 = evaluate(after, BACKGAMMON, net).astype(np.float64).mean(axis=0)
    expected = [[0, win - win2, win2 - win3, win3], [0, 1 - win - lose2, lose2 - lose3, lose3]]
    assert result.settled == 36
    np.testing.assert_allclose(np.asarray(result.counts) / 36, expected, atol=1e-12)


@pytest.mark.parametrize("rules", [BACKGAMMON, BAN], ids=str)
def test_bit_identical_on_any_thread_count(rules):
    start = _midgame(rules)
    runs = [rollout(start, rules, games=1300, policy="net", seed=3, truncate=5, variance_reduction=True,
                    threads=threads) for threads in (1, 2)]
    assert _same(runs[0], runs[1])


def test_bit_identical_on_dask():
    pytest.importorskip("dask")
    from bansugoroku_fast import distributed

    start = _midgame(BAN)
    kwargs = dict(games=2592, policy="net", seed=3, truncate=3, variance_reduction=True)
    local = rollout(start, BAN, **kwargs)
    remote = distributed.rollout(start, BAN, block=1296, **kwargs)
    assert _same(local, remote)
    with pytest.raises(ValueError, match="multiple of 1296"):
        distributed.rollout(start, BAN, block=648, **kwargs)


def test_rank_plays_ranks_by_the_adjusted_rollouts_of_the_plays():
    start = Position.initial()
    kwargs = dict(games=72, policy="net", seed=2, truncate=4, variance_reduction=True)
    ranked = rank_plays(start, (4, 2), BACKGAMMON, **kwargs)
    best = ranked[0]
    alone = rollout(best.play.position.swapped(), BACKGAMMON, **kwargs)
    assert best.equity == pytest.approx(-alone.equity, abs=1e-12)
    assert str(best.play) == "8/4 6/4"
    assert all(r.difference_stderr < 0.05 for r in ranked[1:4])


@pytest.mark.parametrize("truncate", [0, -3, 2.5, True, "4"])
def test_truncate_must_be_a_positive_integer(truncate):
    with pytest.raises((ValueError, TypeError), match="truncate"):
        rollout(Position.initial(), BACKGAMMON, games=4, policy="net", truncate=truncate)


def test_variance_reduction_must_be_a_bool():
    with pytest.raises(TypeError, match="variance_reduction"):
        rollout(Position.initial(), BACKGAMMON, games=4, policy="net", variance_reduction="yes")


@pytest.mark.parametrize("policy", ["heuristic", "random", lambda children, offsets: np.zeros(len(offsets) - 1)])
def test_a_policy_without_an_evaluator_is_refused(policy):
    for call in (rollout, oracle.rollout):
        if call is oracle.rollout and callable(policy):
            continue
        with pytest.raises(PolicyTypeError, match=r"EvaluatorPolicy|network"):
            call(Position.initial(), BACKGAMMON, games=4, policy=policy, variance_reduction=True)


def test_an_evaluator_of_other_rules_is_refused_before_any_game():
    policy = EvaluatorPolicy(NetEvaluator.random(BACKGAMMON, hidden=(8,)))
    with pytest.raises(InvalidEvaluatorError, match="plays backgammon, not ban"):
        rollout(Position.initial(BAN), BAN, games=4, policy=policy, truncate=3)


def test_a_python_evaluator_judges_as_the_same_network_does():
    net = NetEvaluator.random(BAN, hidden=(8,), seed=2)
    start = _midgame(BAN)
    kwargs = dict(games=36, seed=6, truncate=4, variance_reduction=True, stratify=36)
    by_net = rollout(start, BAN, policy=EvaluatorPolicy(net), **kwargs)
    by_callable = rollout(start, BAN, policy=EvaluatorPolicy(lambda positions: net(positions), rules=BAN), **kwargs)
    # the kernels value a reply from its parent's first-layer sums, the callable from scratch: float32 rounding apart
    np.testing.assert_allclose(np.asarray(by_callable.counts), np.asarray(by_net.counts), atol=1e-5)
    assert by_callable.stderr == pytest.approx(by_net.stderr, abs=1e-5)
    assert np.array_equal(by_callable.kind_counts, by_net.kind_counts)


def test_a_one_ply_policy_plays_the_same_games_with_its_luck_judged_at_0_ply():
    start = _midgame(BACKGAMMON, 30)
    played = rollout(start, BACKGAMMON, games=12, policy="net1", seed=3, max_plies=6, on_long="truncate")
    judged = rollout(start, BACKGAMMON, games=12, policy="net1", seed=3, truncate=6, variance_reduction=True)
    assert np.array_equal(played.kind_counts, judged.kind_counts)    # the games that ended within 6 plies
    assert judged.settled == played.truncated
