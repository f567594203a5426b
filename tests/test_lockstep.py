"""Lockstep games: GameBatch and callable policies play exactly the games of
the kernels' policies (same counter-based dice), every recorded ply is
legal, restarts keep counting games, and bad choices or scores are refused
naming the game."""
import itertools

import numpy as np
import pytest

from bansugoroku_fast import (
    GameBatch,
    Position,
    features,
    generate_plays,
    play_games,
    rank_plays,
    rollout,
    segment_argmax,
)
from bansugoroku_fast.errors import (
    GameStateError,
    GameTooLongError,
    InvalidPolicyError,
    PolicyOutputError,
    PolicyOutputTypeError,
)
from bansugoroku_fast.games.game_batch import roll_dice
from bansugoroku_fast.games.policies import FEATURE_NAMES, HEURISTIC_WEIGHTS, LinearPolicy
from bansugoroku_fast.oracle.games import roll
from tests.boards import ALL_RULES, BACKGAMMON, rules_params


def first(children, offsets):
    """The callable twin of ``"first"``: index 0 in every game."""
    return np.zeros(len(offsets) - 1, dtype=np.int64)


def linear(weights, rules):
    """The callable twin of ``LinearPolicy(weights)``: the same float64 sum
    in feature order (``0.0 + w0 x0 + w1 x1 + ...``, as the policy is
    documented), vectorised over the children; ties go to the first child."""
    w = np.asarray(weights, dtype=np.float64)

    def policy(children, offsets):
        x = features(children, rules).astype(np.float64)
        score = np.zeros(len(children))
        for k in range(len(w)):
            score += w[k] * x[:, k]
        return score

    return policy


def assert_same_records(actual, expected):
    """Equal values and equal dtypes (assert_array_equal alone ignores dtypes)."""
    for field in expected._fields:
        np.testing.assert_array_equal(getattr(actual, field), getattr(expected, field), err_msg=field)
        assert getattr(actual, field).dtype == getattr(expected, field).dtype, field


def run_to_the_end(batch, policy):
    while not batch.done:
        batch.step_with(policy)
    return batch.records()


# --- the same games as the built-in policies ---------------------------------------------


@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
def test_callable_first_plays_the_games_of_first(rules):
    expected = play_games(rules, 60, policy="first", seed=11)
    assert_same_records(play_games(rules, 60, policy=first, seed=11), expected)
    assert_same_records(run_to_the_end(GameBatch(rules, 60, seed=11), first), expected)


@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
def test_callable_linear_plays_the_games_of_the_heuristic(rules):
    weights = HEURISTIC_WEIGHTS[rules.variant]
    expected = play_games(rules, 60, policy="heuristic", seed=5)
    assert_same_records(play_games(rules, 60, policy=linear(weights, rules), seed=5), expected)
    assert_same_records(run_to_the_end(GameBatch(rules, 60, seed=5), linear(weights, rules)), expected)


def test_callable_in_a_pair_with_a_kernel_policy():
    # Seat 1 plays "random" from the kernels' choice stream either way.
    weights = np.linspace(-1, 1, len(FEATURE_NAMES))
    expected = play_games(BACKGAMMON, 80, policy=(LinearPolicy(weights), "random"), seed=2)
    actual = play_games(BACKGAMMON, 80, policy=(linear(weights, BACKGAMMON), "random"), seed=2)
    assert_same_records(actual, expected)


def test_callable_rollout_counts_equal_the_kernel_policy():
    # One position and a batch (duplicate dice), stratified first rolls, a
    # pair with the kernels' "random" for seat 1.
    start = Position.initial()
    weights = HEURISTIC_WEIGHTS["backgammon"]
    for position in (start, np.stack([start.array, start.swapped().array])):
        expected = rollout(position, BACKGAMMON, games=144, policy=(LinearPolicy(weights), "random"),
                           seed=4, stratify=36)
        actual = rollout(position, BACKGAMMON, games=144, policy=(linear(weights, BACKGAMMON), "random"),
                         seed=4, stratify=36)
        np.testing.assert_array_equal(actual.counts, expected.counts)
        np.testing.assert_array_equal(actual.kind_counts, expected.kind_counts)
        np.testing.assert_array_equal(actual.mean_plies, expected.mean_plies)


def test_callable_rank_plays_equals_the_kernel_policy():
    start = Position.initial()
    expected = rank_plays(start, (4, 2), BACKGAMMON, games=60, policy="first", seed=2)
    actual = rank_plays(start, (4, 2), BACKGAMMON, games=60, policy=first, seed=2)
    assert [(str(r.play), r.equity) for r in actual] == [(str(r.play), r.equity) for r in expected]


def test_from_a_start_position():
    # A race: seat 0 with 5 stones on its 6-point, seat 1 with 5 on its 5-point.
    start = Position([[10, 0, 0, 0, 0, 0, 5] + [0] * 19, [10, 0, 0, 0, 0, 5] + [0] * 20])
    expected = play_games(BACKGAMMON, 40, policy="first", seed=9, start=start)
    assert_same_records(run_to_the_end(GameBatch(BACKGAMMON, 40, seed=9, start=start), first), expected)


def test_stratified_games_in_lockstep_are_the_kernels():
    start = Position.initial()
    expected = play_games(BACKGAMMON, 72, policy="first", seed=9, start=start, stratify=1296)
    assert_same_records(play_games(BACKGAMMON, 72, policy=first, seed=9, start=start, stratify=1296), expected)
    batch = GameBatch(BACKGAMMON, 72, seed=9, start=start, stratify=1296)
    assert_same_records(run_to_the_end(batch, first), expected)


def test_a_start_that_is_already_over():
    # Seat 0 (row 0) has borne off all 15: games of no plies, won by seat 0
    # (a gammon: seat 1 has borne off none, none in seat 0's home), as the
    # kernels record them.
    finished = Position([[15] + [0] * 25, [0] * 6 + [15] + [0] * 19])
    batch = GameBatch(BACKGAMMON, 2, start=finished)
    assert batch.done
    records = batch.records()
    assert records.plies.tolist() == [0, 0] and records.winner.tolist() == [0, 0]
    assert records.value.tolist() == [2, 2]
    assert_same_records(records, play_games(BACKGAMMON, 2, policy="first", start=finished))
    assert_same_records(play_games(BACKGAMMON, 2, policy=first, start=finished), records)


def test_callable_is_called_once_per_wave():
    calls = []

    def counting(children, offsets):
        calls.append(len(offsets) - 1)
        return first(children, offsets)

    records = play_games(BACKGAMMON, 50, policy=counting, seed=1)
    # One call per ply index at which some game still has a play to choose:
    # never more calls than the longest game has plies.
    assert len(calls) <= int(records.plies.max())
    assert sum(calls) <= int(records.plies.sum()) and max(calls) == 50


# --- every ply legal -----------------------------------------------------------------------


@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
def test_every_recorded_ply_is_legal(rules):
    # Choices drawn from a numpy generator: each ply's result must be one of
    # the legal children of its position and roll (or, with no legal play,
    # the position itself), and each game's next ply starts from it, swapped.
    rng = np.random.default_rng(0)

    def uniform(children, offsets):
        return rng.integers(0, np.diff(offsets))

    records = run_to_the_end(GameBatch(rules, 30, seed=3), uniform)
    plays = generate_plays(records.positions, records.dice, rules)
    for ply in range(len(records.positions)):
        children = plays.children[plays.offsets[ply]:plays.offsets[ply + 1]]
        if len(children):
            assert (children == records.after[ply]).all(axis=(1, 2)).any(), ply
        else:
            assert (records.after[ply] == records.positions[ply]).all(), ply
    starts = np.setdiff1d(np.arange(len(records.positions)), records.offsets[:-1])
    np.testing.assert_array_equal(records.positions[starts], records.after[starts - 1][:, ::-1])


def test_candidates_are_generate_plays_of_the_waiting_games():
    batch = GameBatch(BACKGAMMON, 6, seed=8)
    for _ in range(5):
        wave = batch.candidates()
        expected = generate_plays(wave.positions, wave.dice, BACKGAMMON)
        np.testing.assert_array_equal(wave.offsets, expected.offsets)
        np.testing.assert_array_equal(wave.children, expected.children)
        batch.step(np.zeros(6, dtype=np.int64))


# --- restarts --------------------------------------------------------------------------------


def test_restart_keeps_counting_games():
    # Slots start game n, n + 1, ... as theirs end; game g is game g of
    # play_games whatever slot plays it, since its dice depend on (seed, g).
    batch = GameBatch(BACKGAMMON, 8, seed=6, restart=True)
    while batch.games_finished < 30:
        batch.step_with(first)
        assert not batch.done
    records = batch.records(clear=True)
    finished = len(records.plies)
    assert finished >= 30 and batch.games_started == finished + 8 and batch.games_finished == 0
    ids = batch.candidates().games
    assert ids.min() >= 8 and len(set(ids.tolist())) == 8
    expected = play_games(BACKGAMMON, batch.games_started, policy="first", seed=6)
    done_ids = np.setdiff1d(np.arange(batch.games_started), ids)  # every game not in a slot
    for position, game in enumerate(done_ids):
        mine = slice(records.offsets[position], records.offsets[position + 1])
        theirs = slice(expected.offsets[game], expected.offsets[game + 1])
        np.testing.assert_array_equal(records.after[mine], expected.after[theirs])
        assert records.winner[position] == expected.winner[game]



# --- games cut off at max_plies ---------------------------------------------------------------


def test_truncated_games_in_lockstep_are_the_kernels():
    # "first" games from the start last 38 to 82 plies: a cap of 45 cuts some.
    expected = play_games(BACKGAMMON, 12, policy="first", seed=3, max_plies=45, on_long="truncate")
    assert expected.truncated.any() and not expected.truncated.all()
    assert_same_records(play_games(BACKGAMMON, 12, policy=first, seed=3, max_plies=45, on_long="truncate"),
                        expected)
    batch = GameBatch(BACKGAMMON, 12, seed=3, max_plies=45, on_long="truncate")
    assert_same_records(run_to_the_end(batch, first), expected)


def test_truncated_rollouts_and_rankings_in_lockstep_are_the_kernels():
    start = Position.initial()
    for position in (start, np.stack([start.array, start.swapped().array])):
        expected = rollout(position, BACKGAMMON, games=24, policy="first", seed=4, max_plies=45, on_long="truncate")
        actual = rollout(position, BACKGAMMON, games=24, policy=first, seed=4, max_plies=45, on_long="truncate")
        assert np.all(np.asarray(expected.truncated) > 0)
        for name in ("counts", "kind_counts", "truncated", "games", "mean_plies", "equity"):
            np.testing.assert_array_equal(getattr(actual, name), getattr(expected, name), err_msg=name)
    expected_ranks = rank_plays(start, (4, 2), BACKGAMMON, games=12, policy="first", seed=2, max_plies=45,
                                on_long="truncate")
    actual_ranks = rank_plays(start, (4, 2), BACKGAMMON, games=12, policy=first, seed=2, max_plies=45,
                              on_long="truncate")
    assert [(str(r.play), r.equity) for r in actual_ranks] == [(str(r.play), r.equity) for r in expected_ranks]


def test_restarted_slots_start_a_new_game_when_one_is_cut_off():
    # No backgammon game ends within 12 plies: every game is cut off there,
    # and each slot goes on with the next game id.
    batch = GameBatch(BACKGAMMON, 3, seed=8, restart=True, max_plies=12, on_long="truncate")
    while batch.games_finished < 9:
        batch.step_with(first)
    records = batch.records()
    assert records.truncated.all() and (records.winner == -1).all() and (records.plies == 12).all()
    expected = play_games(BACKGAMMON, len(records.plies), policy="first", seed=8, max_plies=12, on_long="truncate")
    assert_same_records(records, expected)


def test_a_cut_off_game_raises_by_default_saying_how_to_truncate():
    batch = GameBatch(BACKGAMMON, 2, seed=7, max_plies=3)
    with pytest.raises(GameTooLongError, match='on_long="truncate" ends such games there'):
        run_to_the_end(batch, first)
    with pytest.raises(ValueError, match="on_long must be 'raise' or 'truncate', got 'cut'"):
        GameBatch(BACKGAMMON, 2, on_long="cut")

# --- segment_argmax ---------------------------------------------------------------------------


def test_segment_argmax_matches_a_loop_with_ties_and_empty_segments():
    rng = np.random.default_rng(1)
    counts = rng.integers(0, 6, size=300)
    offsets = np.concatenate([[0], np.cumsum(counts)])
    scores = rng.integers(0, 3, size=offsets[-1]).astype(np.float64)  # many ties
    expected = [int(np.argmax(scores[a:b])) if b > a else -1 for a, b in itertools.pairwise(offsets)]
    assert segment_argmax(scores, offsets).tolist() == expected


def test_segment_argmax_infinities():
    offsets = np.array([0, 2, 4])
    scores = np.array([-np.inf, -np.inf, 1.0, np.inf])
    assert segment_argmax(scores, offsets).tolist() == [0, 1]


# --- bad input ---------------------------------------------------------------------------------


def test_step_refuses_bad_choices_naming_the_game():
    batch = GameBatch(BACKGAMMON, 4, seed=0)
    counts = np.diff(batch.candidates().offsets)
    with pytest.raises(PolicyOutputTypeError, match="integers"):
        batch.step(np.zeros(4))
    with pytest.raises(TypeError):
        batch.step(["a"] * 4)
    with pytest.raises(PolicyOutputError, match=r"shape \(4,\)"):
        batch.step(np.zeros(3, dtype=np.int64))
    outside = np.zeros(4, dtype=np.int64)
    outside[2] = counts[2]
    with pytest.raises(PolicyOutputError, match=f"choice {counts[2]} for game 2 is outside"):
        batch.step(outside)
    with pytest.raises(PolicyOutputError, match="choice -1 for game 0"):
        batch.step(np.full(4, -1))
    batch.step(np.zeros(4, dtype=np.int64))  # nothing was played before: still at ply 1
    assert batch.candidates().plies.tolist() == [1, 1, 1, 1]


def test_step_after_every_game_finished():
    batch = GameBatch("ban-sugoroku", 3, seed=0)
    run_to_the_end(batch, first)
    with pytest.raises(GameStateError, match="all 3 games have finished"):
        batch.step(np.zeros(3, dtype=np.int64))
    # Finished slots have no candidates and game id -1.
    assert batch.candidates().offsets.tolist() == [0, 0, 0, 0]
    assert batch.candidates().games.tolist() == [-1, -1, -1]


@pytest.mark.parametrize("output, message", [
    (lambda children, offsets: np.zeros(len(children) + 1), "one score per child"),
    (lambda children, offsets: np.zeros(len(offsets), dtype=np.int64), "one integer per waiting game"),
    (lambda children, offsets: np.where(np.arange(len(children)) == offsets[3], np.nan, 0.0),
     "child 0 of game 3 as NaN"),
    (lambda children, offsets: np.diff(offsets), "for game 0 is outside"),
    (lambda children, offsets: None, "integer choices"),
])
def test_callable_bad_output_names_the_game(output, message):
    with pytest.raises(PolicyOutputError, match=message):
        play_games(BACKGAMMON, 5, policy=output, seed=0)
    with pytest.raises(PolicyOutputError, match=message):
        GameBatch(BACKGAMMON, 5, seed=0).step_with(output)


def test_bad_arguments():
    with pytest.raises(ValueError, match="games must be a positive integer"):
        GameBatch(BACKGAMMON, 0)
    with pytest.raises(ValueError, match="seed"):
        GameBatch(BACKGAMMON, 2, seed=-1)
    finished = Position([[15] + [0] * 25, [0] * 6 + [15] + [0] * 19])
    with pytest.raises(GameStateError, match="already over"):
        GameBatch(BACKGAMMON, 2, start=finished, restart=True)
    with pytest.raises(InvalidPolicyError):
        play_games(BACKGAMMON, 2, policy=("first",))


def test_too_long_names_game_and_seed():
    batch = GameBatch(BACKGAMMON, 2, seed=7, max_plies=3)
    with pytest.raises(GameTooLongError, match=r"game \d \(seed 7\) has not ended after 3 plies"):
        run_to_the_end(batch, first)


@pytest.mark.parametrize(("opening", "stratify"), [(False, 0), (True, 0), (False, 36), (False, 1296)])
def test_roll_dice_at_mixed_plies_is_the_oracles_roll(opening, stratify):
    """Games at different plies, in no order, with repeats: each roll is the
    specification's ``roll(seed, game, ply)`` (the vector environment's use)."""
    rng = np.random.default_rng(4)
    games = rng.integers(0, 3000, size=200)
    plies = rng.integers(0, 5, size=200)
    dice = roll_dice(11, games, plies, opening=opening, stratify=stratify)
    expected = [list(roll(11, int(g), int(p), opening=opening, stratify=stratify)) for g, p in zip(games, plies)]
    assert dice.dtype == np.int8 and dice.tolist() == expected


@pytest.mark.parametrize(("seed", "options", "message"), [
    (-1, {}, r"seed must be an integer in 0 \.\. 2\*\*64 - 1"),
    (2**64, {}, r"seed must be an integer in 0 \.\. 2\*\*64 - 1"),
    (0, {"stratify": 5}, "stratify must be None, True, 36 or 1296"),
    (0, {"stratify": 36, "opening": True}, "stratify needs a start"),  # the opening rolls no double
])
def test_roll_dice_checks_its_seed_and_stratify(seed, options, message):
    # roll_dice is public: a bad seed was an OverflowError from the kernel,
    # a bad stratify silently rolled something.
    with pytest.raises(ValueError, match=message):
        roll_dice(seed, np.array([0]), np.array([0]), **options)
