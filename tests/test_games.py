"""Whole games: the kernel-backed ``bansugoroku_fast.games`` against its
specification ``bansugoroku_fast.oracle.games``, and the properties every
run must have.

* Differential: ``oracle.play_games`` and the package's ``play_games`` play
  the same games ply by ply (positions, dice, results, winners, values,
  kinds, ply counts) for every rule combination and every built-in policy,
  from the rules' start and from middle-game starts; the same for rollouts
  (stratified too) and ``rank_plays``. The oracle is slow (a tenth of a
  second per game), so the default run plays a few hundred games in all;
  ``-m slow`` plays hundreds per rule combination and policy.
* Properties on hundreds of kernel games per rule combination: every ply is
  a legal play of its position and roll (or a pass when there is none), the
  next ply starts from its swapped result, only the last ply ends the game and
  its outcome is the recorded one; rollout counts equal the tally of the same
  games; one and two threads give the same results; batch composition does
  not change a game; random rollouts agree with a plain Python loop over
  ``legal_plays`` within statistical error.
"""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

import bansugoroku_fast as package
from bansugoroku_fast import LinearPolicy, Position, Rules, _games, _kernel, batch, games, oracle
from bansugoroku_fast.games.policies import FEATURE_NAMES, HEURISTIC_WEIGHTS, RANDOM, policy_weights, resolve_policies
from bansugoroku_fast.games.tallies import KINDS, rank
from bansugoroku_fast.oracle import games as oracle_games

from . import playouts
from .boards import board, rules_params

RULES = Rules.all_combinations()
BACKGAMMON = Rules(variant="backgammon")


def _policies(rules: Rules) -> list:
    names = ["random", "first", "heuristic"] + (["pubeval"] if rules.is_backgammon else [])
    return names + [("heuristic", "random")]


CASES = [
    pytest.param(rules, policy, id=f"{rules.short_name}-{'+'.join(policy) if isinstance(policy, tuple) else policy}")
    for rules in RULES for policy in _policies(rules)
]

#: Games per (rules, policy) compared with the oracle: from the start, and
#: from middle-game starts.
ORACLE_GAMES = 4
ORACLE_MIDDLE_STARTS = 2
SLOW_ORACLE_GAMES = 200
#: Kernel games per rule combination for the property checks.
PROPERTY_GAMES = 400


def _as_arrays(records) -> dict:
    return {name: np.asarray(getattr(records, name)) for name in (*records._fields, "truncated")}


def assert_same_games(kernel_records, oracle_records) -> None:
    """Field by field, ply by ply; on a difference, name the first game that differs."""
    kernel, reference = _as_arrays(kernel_records), _as_arrays(oracle_records)
    for name in ("winner", "value", "kind", "plies", "offsets", "truncated"):
        if not np.array_equal(kernel[name], reference[name]):
            game = int(np.flatnonzero(kernel[name] != reference[name])[0])
            got, expected = kernel[name][game], reference[name][game]
            pytest.fail(f"{name} differs first at game {game}: kernel {got}, oracle {expected}")
    for name in ("positions", "dice", "after"):
        assert kernel[name].dtype == np.int8
        differs = (kernel[name] != reference[name]).reshape(len(kernel[name]), -1).any(axis=1)
        if differs.any():
            ply = int(np.flatnonzero(differs)[0])
            game = int(np.searchsorted(kernel["offsets"], ply, side="right") - 1)
            pytest.fail(f"{name} differs first at ply {ply} (game {game}, its ply {ply - kernel['offsets'][game]})")



# --- the random draw --------------------------------------------------------------------

#: Items per rule combination whose every play is drawn: against the kernels'
#: listed plays (bulk), and against the oracle's (a sample; it is slow).
DRAW_ITEMS, DRAW_ORACLE_ITEMS = 6000, 150


def _draw_every_play(positions: np.ndarray, dice: np.ndarray, counts: np.ndarray, rules: Rules):
    """The "random" policy's draw of every play k of every item: for each
    item and k < its count, the smallest word that ``below`` maps to k
    (the oracle's ``below``, checked). Returns the items' index of each
    draw, k, and the positions drawn (passes: one draw each, k = 0)."""
    item, k, words = [], [], []
    for i, n in enumerate(counts.tolist()):
        for play in range(max(n, 1)):
            word = -(-(play << 64) // max(n, 1))  # ceil(play * 2**64 / n)
            assert oracle_games.below(word, max(n, 1)) == play
            item.append(i)
            k.append(play)
            words.append(word)
    item_array = np.array(item, dtype=np.int64)
    out = np.empty((len(item), 2, 26), dtype=np.int8)
    drawn_counts = np.empty(len(item), dtype=np.int32)
    _games.random_play_batch(np.ascontiguousarray(positions[item_array]), np.ascontiguousarray(dice[item_array]),
                             rules.code, np.array(words, dtype=np.uint64), out, drawn_counts)
    assert drawn_counts.tolist() == counts[item_array].tolist()
    return item_array, np.array(k, dtype=np.int64), out


@pytest.mark.parametrize("rules", rules_params(RULES))
def test_the_random_draw_makes_the_drawn_play_of_the_listed_plays(rules):
    """The game loop draws play k without listing the plays (closed-form
    counts, then only play k made): for every k of thousands of items from
    random playouts, it is play k of ``generate_plays``."""
    positions, dice = playouts.playout_items(rules, DRAW_ITEMS, seed=5)
    plays = batch.generate_plays(positions, dice, rules, fields=("children",))
    counts = np.diff(plays.offsets).astype(np.int32)
    item, k, out = _draw_every_play(positions, dice, counts, rules)
    played = counts[item] > 0
    expected = plays.children[plays.offsets[item[played]] + k[played]]
    assert np.array_equal(out[played], expected)
    assert np.array_equal(out[~played], positions[item[~played]])    # a pass leaves the position


@pytest.mark.parametrize("rules", rules_params(RULES))
def test_the_random_draw_equals_the_oracle_play_by_play(rules):
    positions, dice = playouts.playout_items(rules, DRAW_ORACLE_ITEMS, seed=6, engine="oracle")
    listed = [oracle.legal_plays(Position(p.tolist()), tuple(d.tolist()), rules) for p, d in zip(positions, dice)]
    counts = np.array([len(one) for one in listed], dtype=np.int32)
    item, k, out = _draw_every_play(positions, dice, counts, rules)
    for row, (i, play) in enumerate(zip(item.tolist(), k.tolist())):
        expected = listed[i][play].position.rows if listed[i] else positions[i].tolist()
        assert out[row].tolist() == [list(r) for r in expected], (i, play)


def test_the_random_draw_refuses_arrays_that_disagree_and_bad_dice():
    start = Position.initial().array[None]
    out, counts = np.empty((1, 2, 26), dtype=np.int8), np.empty(1, dtype=np.int32)
    with pytest.raises(ValueError, match="disagree"):
        _games.random_play_batch(start, np.ones((2, 2), dtype=np.int8), 0, np.zeros(1, dtype=np.uint64), out, counts)
    with pytest.raises(ValueError, match=r"dice\[0\] = 7, 1"):
        _games.random_play_batch(start, np.array([[7, 1]], dtype=np.int8), 0, np.zeros(1, dtype=np.uint64), out,
                                 counts)

# --- the dice ----------------------------------------------------------------------------


def test_splitmix64_known_answer():
    # The published first outputs of SplitMix64 seeded with 0 (Vigna's
    # reference implementation): 0xe220a8397b1dcdaf, then 0x6e789e6aa1b965f4
    # (the second is the first output seeded with 0x9E3779B97F4A7C15).
    assert oracle_games.splitmix64(0) == 0xE220A8397B1DCDAF
    assert oracle_games.splitmix64(0x9E3779B97F4A7C15) == 0x6E789E6AA1B965F4


def test_below_is_the_high_word_of_the_product():
    # 2**64 - 1 scaled to 36 values is 35; 2**63 is exactly the middle: 18.
    assert oracle_games.below(2**64 - 1, 36) == 35
    assert oracle_games.below(2**63, 36) == 18
    assert oracle_games.below(0, 36) == 0


@pytest.mark.parametrize("opening", [False, True])
@pytest.mark.parametrize("stratify", [0, 36, 1296])
def test_kernel_dice_equal_the_oracle_dice(opening, stratify):
    rng = random.Random(7)
    for seed in (0, 1, 2**64 - 1, rng.getrandbits(64)):
        games_index = np.array([0, 1, 35, 36, 1295, 1296, 2**40, rng.getrandbits(62)], dtype=np.int64)
        for ply in (0, 1, 2, 9_999):
            out = np.empty((len(games_index), 2), dtype=np.int8)
            _games.dice_batch(seed, games_index, np.full(len(games_index), ply), opening, stratify, out)
            expected = [oracle_games.roll(seed, int(g), ply, opening=opening, stratify=stratify) for g in games_index]
            assert [tuple(row) for row in out.tolist()] == expected


def test_kernel_dice_and_choices_take_each_item_at_its_own_ply():
    # A lockstep wave mixes plies: one call gives each item the roll and the
    # random choice of its own (game, ply), as a call per ply does.
    games_index = np.array([4, 4, 9, 0], dtype=np.int64)
    plies = np.array([3, 0, 3, 11], dtype=np.int64)
    mixed = np.empty((4, 2), dtype=np.int8)
    _games.dice_batch(7, games_index, plies, False, 0, mixed)
    assert [tuple(row) for row in mixed.tolist()] == [oracle_games.roll(7, int(g), int(p))
                                                       for g, p in zip(games_index, plies)]
    parents = np.repeat(Position.initial().array[None], 4, axis=0)
    found = batch.generate_plays(parents, mixed, Rules(), fields=("children",))
    choices = np.empty(4, dtype=np.int32)
    code, weights = RANDOM, np.zeros(len(FEATURE_NAMES))
    _games.choose_batch(code, weights, parents, found.offsets, found.children, Rules().code, 7, games_index, plies,
                        choices)
    for k in range(4):
        one = np.empty(1, dtype=np.int32)
        _games.choose_batch(code, weights, parents[k:k + 1], found.offsets[k:k + 2], found.children, Rules().code,
                            7, games_index[k:k + 1], plies[k:k + 1], one)
        assert one[0] == choices[k]


def test_kernel_dice_and_choices_refuse_arrays_of_different_lengths():
    with pytest.raises(ValueError, match="same length"):
        _games.dice_batch(0, np.zeros(3, dtype=np.int64), np.zeros(2, dtype=np.int64), False, 0,
                          np.empty((3, 2), dtype=np.int8))
    parents = Position.initial().array[None]
    with pytest.raises(ValueError, match="disagree"):
        _games.choose_batch(0, np.zeros(1), parents, np.zeros(2, dtype=np.int64), parents, 0, 0,
                            np.zeros(1, dtype=np.int64), np.zeros(2, dtype=np.int64), np.empty(1, dtype=np.int32))
    with pytest.raises(ValueError, match="outside children"):
        _games.choose_batch(0, np.zeros(1), parents, np.array([0, 5]), parents, 0, 0,
                            np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64), np.empty(1, dtype=np.int32))
    features = len(FEATURE_NAMES)
    with pytest.raises(ValueError, match=rf"{features + 1} values, more than the {features} features"):
        _games.choose_batch(0, np.zeros(features + 1), parents, np.zeros(2, dtype=np.int64), parents, 0,
                            0, np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64), np.empty(1, dtype=np.int32))


class EnvState:
    """The arrays of ``n`` vector-environment games that ``advance_batch``
    moves in place, each at the rules' start (seat 0 to roll)."""

    def __init__(self, rules: Rules, n: int) -> None:
        self.boards = np.repeat(Position.initial(rules).array[None], n, axis=0)
        self.dice = np.zeros((n, 2), dtype=np.int8)
        self.plies = np.zeros(n, dtype=np.int64)
        self.games = np.arange(n, dtype=np.int64)
        self.counts = np.zeros(n, dtype=np.int32)
        self.winner = np.full(n, -1, dtype=np.int8)
        self.value = np.zeros(n, dtype=np.int8)
        self.truncated = np.zeros(n, dtype=np.uint8)

    def advance(self, rows, choices, agent_seat, policy, rules, seed, max_plies=10_000, max_plays=10_000,
                **changed) -> None:
        arrays = {name: getattr(self, name) for name in
                  ("boards", "dice", "plies", "games", "counts", "winner", "value", "truncated")} | changed
        _kernel.advance_batch(np.asarray(rows, dtype=np.int64), np.asarray(choices, dtype=np.int64),
                              *arrays.values(), agent_seat, policy.code, policy_weights(policy), rules.code, seed,
                              rules.is_backgammon, max_plies, max_plays)


@pytest.mark.parametrize("rules, policy", [
    (Rules(), "heuristic"), (Rules(variant="backgammon"), "random"), (Rules(variant="backgammon"), "pubeval"),
    (Rules(finish="bear_off", closure="immediate"), "first"),
])
def test_advancing_games_with_no_agent_plays_them_as_play_games(rules, policy):
    # Agent seat 2 is neither seat: advance_batch plays both seats with the
    # policy from the start to the end, so each game must be game g of
    # play_games with the same seed (same dice, choices, passes, end).
    n, seed = 12, 5
    records = games.play_games(rules, n, policy, seed=seed)
    state = EnvState(rules, n)
    state.advance(np.arange(n), np.full(n, -1), 2, resolve_policies(policy, rules)[0], rules, seed)
    assert state.winner.tolist() == records.winner.tolist()
    assert state.value.tolist() == records.value.tolist()
    assert state.plies.tolist() == (records.plies - 1).tolist()  # the winning ply is not counted past
    assert np.array_equal(state.boards, records.after[records.offsets[1:] - 1])  # seen by the last mover
    assert not state.counts.any() and not state.truncated.any()


def test_advancing_stops_at_the_agents_roll_and_at_max_plies():
    # Agent in seat 1, "first" in seat 0: ply 0 is the opponent's (played
    # in the kernel), ply 1 the agent's; it stops there with its roll, the
    # dice of (seed, game, 1), and their count of plays. Playing its first
    # play with max_plies 3 then truncates every game at ply 3 (no game of
    # Ban-sugoroku ends in 3 plies: 15 stones to bring home first).
    rules, n, seed = Rules(), 6, 9
    first = resolve_policies("first", rules)[0]
    state = EnvState(rules, n)
    state.advance(np.arange(n), np.full(n, -1), 1, first, rules, seed)
    assert state.plies.tolist() == [1] * n
    assert [tuple(roll) for roll in state.dice.tolist()] == [oracle_games.roll(seed, g, 1) for g in range(n)]
    expected = batch.count_plays(state.boards, state.dice, rules)
    assert state.counts.tolist() == np.asarray(expected).tolist() and state.counts.min() > 0
    state.advance(np.arange(n), np.zeros(n), 1, first, rules, seed, max_plies=3)
    assert state.truncated.all() and not state.counts.any() and state.plies.tolist() == [3] * n
    assert (state.winner == -1).all()


def test_advancing_refuses_bad_rows_choices_and_lengths():
    rules = Rules()
    random_policy = resolve_policies("random", rules)[0]
    state = EnvState(rules, 3)
    with pytest.raises(ValueError, match=r"rows\[1\] = 3 is not a game \(0..2\)"):
        state.advance([0, 3], [-1, -1], 0, random_policy, rules, 1)
    with pytest.raises(ValueError, match="disagree in length"):
        state.advance([0, 1], [-1], 0, random_policy, rules, 1)
    with pytest.raises(ValueError, match="disagree in length"):
        state.advance([0], [-1], 0, random_policy, rules, 1, counts=np.zeros(2, dtype=np.int32))
    state.advance([0, 1, 2], [-1, -1, -1], 0, random_policy, rules, 1)  # each stops at the agent's roll
    with pytest.raises(ValueError, match=r"choices\[0\] = .*: game row 2 has .* plays"):
        state.advance([2], [state.counts[2]], 0, random_policy, rules, 1)
    with pytest.raises(ValueError, match=r"choices\[0\] = -2 is neither -1"):
        state.advance([2], [-2], 0, random_policy, rules, 1)
    # The choice is checked against the kernel's own search of the row's
    # board and dice, not the counts array: a count raised by hand does not
    # let a choice past the roll's plays through.
    plays_of_row_0 = int(state.counts[0])
    state.counts[0] = plays_of_row_0 + 5
    with pytest.raises(ValueError, match=rf"choices\[0\] = {plays_of_row_0}: game row 0 has {plays_of_row_0} plays"):
        state.advance([0], [plays_of_row_0], 0, random_policy, rules, 1)
    # A row listed twice: its second choice would meet a game already moved on.
    with pytest.raises(ValueError, match=r"rows\[1\] = 1 is listed twice"):
        state.advance([1, 1], [state.counts[1] - 1] * 2, 0, random_policy, rules, 1)


def test_dice_are_uniform():
    # 36,000 rolls: each ordered roll expected 1,000 times; a chi-square with
    # 35 degrees of freedom exceeds 70 with probability about 1e-4.
    counts = [0] * 36
    for game in range(1000):
        for ply in range(36):
            a, b = oracle_games.roll(11, game, ply)
            counts[6 * (a - 1) + b - 1] += 1
    chi_square = sum((count - 1000) ** 2 / 1000 for count in counts)
    assert chi_square < 70


def test_the_backgammon_opening_is_never_a_double_and_each_pair_comes_up():
    openings = [oracle_games.roll(3, game, 0, opening=True) for game in range(600)]
    assert all(a > b for a, b in openings)  # the starter's higher die first
    assert set(openings) == set(oracle_games.OPENING_ROLLS)
    records = games.play_games(BACKGAMMON, 200, "first", seed=3)
    first_dice = records.dice[records.offsets[:-1]]
    assert (first_dice[:, 0] > first_dice[:, 1]).all()


def test_stratified_first_rolls_are_dealt_evenly():
    first = [oracle_games.roll(5, game, 0, stratify=36) for game in range(36)]
    assert len(set(first)) == 36
    pairs = {(oracle_games.roll(5, g, 0, stratify=1296), oracle_games.roll(5, g, 1, stratify=1296))
             for g in range(1296)}
    assert len(pairs) == 1296
    # each run of 36 consecutive games of the 1,296 also deals every first roll once
    assert len({oracle_games.roll(5, g, 0, stratify=1296) for g in range(72, 108)}) == 36


def test_a_game_does_not_depend_on_the_other_games_of_the_run():
    few = games.play_games("ban-sugoroku", 5, "random", seed=9)
    many = games.play_games("ban-sugoroku", 40, "random", seed=9)
    end = few.offsets[-1]
    assert np.array_equal(few.positions, many.positions[:end])
    assert np.array_equal(few.dice, many.dice[:end])
    assert np.array_equal(few.winner, many.winner[:5])


def test_duplicate_dice_whatever_the_start_and_the_policy():
    # Game g rolls the same dice at ply p from any start, with any policy.
    start = Position.initial()
    middle = Position(games.play_games(BACKGAMMON, 1, "first", seed=2).positions[10])
    one = games.play_games(BACKGAMMON, 20, "random", seed=4, start=start)
    other = games.play_games(BACKGAMMON, 20, "heuristic", seed=4, start=middle)
    for game in range(20):
        plies = min(one.plies[game], other.plies[game])
        first_one, first_other = one.offsets[game], other.offsets[game]
        assert np.array_equal(one.dice[first_one:first_one + plies], other.dice[first_other:first_other + plies])


# --- whole games against the oracle -----------------------------------------------------


def _middle_starts(rules: Rules, count: int) -> list[Position]:
    """Positions some way into kernel games (row 0 to roll)."""
    records = games.play_games(rules, count, "random", seed=1234)
    return [Position(records.positions[records.offsets[g] + records.plies[g] // 2]) for g in range(count)]


@pytest.mark.parametrize("rules, policy", CASES)
def test_whole_games_equal_the_oracle(rules, policy):
    seed = 101 + rules.code
    assert_same_games(games.play_games(rules, ORACLE_GAMES, policy, seed=seed),
                      oracle.play_games(rules, ORACLE_GAMES, policy, seed=seed))
    for start in _middle_starts(rules, ORACLE_MIDDLE_STARTS):
        assert_same_games(games.play_games(rules, 2, policy, seed=seed, start=start),
                          oracle.play_games(rules, 2, policy, seed=seed, start=start))


@pytest.mark.slow
@pytest.mark.parametrize("rules, policy", CASES)
def test_many_whole_games_equal_the_oracle(rules, policy):
    assert_same_games(games.play_games(rules, SLOW_ORACLE_GAMES, policy, seed=77),
                      oracle.play_games(rules, SLOW_ORACLE_GAMES, policy, seed=77))



# --- games cut off at max_plies (on_long="truncate") ------------------------------------

CUT_RULES = (Rules(), Rules(finish="bear_off", closure="immediate"), BACKGAMMON)
CUT_POLICIES = ("random", ("heuristic", "random"), "first")
#: The (rules, policy) indices compared by default (the oracle is slow):
#: each rule family and each policy once; every pair with ``-m slow``.
DEFAULT_CUTS = {(0, 0), (1, 2), (2, 1)}
CUT_CASES = [
    pytest.param(rules, policy, id=f"{rules.short_name}-{policy if isinstance(policy, str) else '+'.join(policy)}",
                 marks=[] if (r, p) in DEFAULT_CUTS else [pytest.mark.slow])
    for r, rules in enumerate(CUT_RULES) for p, policy in enumerate(CUT_POLICIES)
]


@pytest.mark.parametrize("rules, policy", CUT_CASES)
def test_truncated_games_equal_the_oracle_and_are_the_first_plies_of_the_whole_games(rules, policy):
    whole = games.play_games(rules, 8, policy, seed=12)
    cap = int(np.sort(whole.plies)[3])  # the four shortest games end within it, the longest do not
    kernel = games.play_games(rules, 8, policy, seed=12, max_plies=cap, on_long="truncate")
    assert_same_games(kernel, oracle.play_games(rules, 8, policy, seed=12, max_plies=cap, on_long="truncate"))
    cut = kernel.truncated
    assert cut.dtype == bool and cut.any() and not cut.all()
    assert (kernel.winner[cut] == -1).all() and (kernel.kind[cut] == -1).all() and (kernel.value[cut] == 0).all()
    assert (kernel.plies[cut] == cap).all()
    # Without the cap the same games go on: a cut-off game's plies are the
    # first ``cap`` of its whole game, and every other game is unchanged.
    assert not whole.truncated.any() and np.array_equal(cut, whole.plies > cap)
    for game in range(8):
        mine = slice(kernel.offsets[game], kernel.offsets[game + 1])
        theirs = slice(whole.offsets[game], whole.offsets[game] + kernel.plies[game])
        assert np.array_equal(kernel.positions[mine], whole.positions[theirs])
        assert np.array_equal(kernel.after[mine], whole.after[theirs])
    for name in ("winner", "value", "kind", "plies"):
        assert np.array_equal(getattr(kernel, name)[~cut], getattr(whole, name)[~cut])


@pytest.mark.parametrize("rules", [Rules(), BACKGAMMON], ids=lambda r: r.short_name)
def test_a_truncated_rollout_counts_the_cut_games_apart(rules):
    start = Position.initial(rules)
    kernel = games.rollout(start, rules, 16, "random", seed=4, max_plies=70, on_long="truncate")
    reference = oracle.rollout(start, rules, 16, "random", seed=4, max_plies=70, on_long="truncate")
    assert kernel.counts.tolist() == [list(row) for row in reference.counts]
    assert kernel.kind_counts.tolist() == [list(row) for row in reference.kind_counts]
    summary = ("games", "truncated", "equity", "stderr", "win_probability", "mean_plies")
    assert [getattr(kernel, name) for name in summary] == [getattr(reference, name) for name in summary]
    assert kernel.gnubg == reference.gnubg
    # The figures are those of the finished games of the same run, the cut
    # ones counted in ``truncated``, ``games`` and the plies only.
    records = games.play_games(rules, 16, "random", seed=4, start=start, max_plies=70, on_long="truncate")
    done = ~records.truncated
    assert kernel.truncated == int(records.truncated.sum()) > 0 and kernel.games == 16 and done.any()
    assert kernel.counts.sum() == done.sum()
    signed = np.where(records.winner == 0, records.value, -records.value)[done]
    assert kernel.equity == pytest.approx(signed.mean())
    assert kernel.win_probability == pytest.approx((records.winner[done] == 0).mean())
    assert kernel.mean_plies == pytest.approx(records.plies.mean())


def test_a_rollout_of_only_truncated_games_has_no_figures():
    result = games.rollout(Position.initial(), BACKGAMMON, 5, "random", max_plies=5, on_long="truncate")
    assert result.truncated == result.games == 5 and result.counts.sum() == 0
    assert math.isnan(result.equity) and math.isnan(result.gnubg["win"]) and result.mean_plies == 5.0


def test_truncated_rank_plays_equals_the_oracle_and_leaves_the_cut_games_out():
    start, dice = Position.initial(), (6, 5)
    kernel = games.rank_plays(start, dice, BACKGAMMON, 6, "random", seed=5, max_plies=60, on_long="truncate")
    reference = oracle.rank_plays(start, dice, BACKGAMMON, 6, "random", seed=5, max_plies=60, on_long="truncate")
    rows = [(str(r.play), r.equity, r.stderr, r.difference_stderr) for r in kernel]
    assert rows == [(str(r.play), r.equity, r.stderr, r.difference_stderr) for r in reference]
    # Each play's equity is minus the truncated rollout of its child, whose
    # cut games are left out.
    children = [games.rollout(ranked.play.position.swapped(), BACKGAMMON, 6, "random", seed=5, max_plies=60,
                              on_long="truncate") for ranked in kernel]
    for ranked, child in zip(kernel, children):
        assert ranked.equity == pytest.approx(-child.equity) or (math.isnan(ranked.equity) and child.truncated == 6)
    assert any(child.truncated for child in children) and any(child.truncated < 6 for child in children)


def test_ranking_leaves_truncated_games_out_and_a_play_with_none_finished_last():
    plays = package.legal_plays(Position.initial(), (6, 5))[:3]
    ranked = rank(plays, [[1, None, -1, 1], [None, None, None, None], [2, 2, None, 0]])
    assert [r.play for r in ranked] == [plays[2], plays[0], plays[1]]
    assert ranked[0].equity == pytest.approx(4 / 3) and ranked[1].equity == pytest.approx(1 / 3)
    assert math.isnan(ranked[2].equity)
    # Play 0 against the best over the games both finished (0 and 3): 2 - 1 and 0 - 1.
    assert ranked[1].difference_stderr == pytest.approx(1.0)

@pytest.mark.parametrize("rules", [BACKGAMMON, Rules(), Rules(finish="bear_off", closure="immediate")],
                         ids=lambda r: r.short_name)
def test_linear_policy_with_own_weights_equals_the_oracle(rules):
    weights = [((index * 37) % 11 - 5) / 4 for index in range(len(FEATURE_NAMES))]
    policy = (LinearPolicy(weights), "random")
    assert_same_games(games.play_games(rules, 4, policy, seed=8), oracle.play_games(rules, 4, policy, seed=8))


def test_features_equal_the_oracle():
    for rules in RULES:
        records = games.play_games(rules, 30, "random", seed=rules.code)
        sample = records.after[:: max(1, len(records.after) // 300)]
        kernel = games.features(sample, rules)
        assert kernel.dtype == np.float32 and kernel.shape == (len(sample), len(FEATURE_NAMES))
        expected = [oracle.features(position, rules) for position in sample]
        assert kernel.tolist() == expected


# --- properties of kernel games ------------------------------------------------------------


@pytest.mark.parametrize("rules", rules_params(RULES))
def test_every_ply_is_legal_and_games_chain(rules):
    records = games.play_games(rules, PROPERTY_GAMES, ("heuristic", "random"), seed=31)
    offsets = records.offsets
    assert offsets[0] == 0 and np.array_equal(np.diff(offsets), records.plies)
    plays = batch.generate_plays(records.positions, records.dice, rules)
    counts = plays.counts()
    moved = counts > 0
    # A pass leaves the position as it was; a move reaches one of the children.
    assert np.array_equal(records.after[~moved], records.positions[~moved])
    for ply in np.flatnonzero(moved):
        children = plays.children[plays.offsets[ply]:plays.offsets[ply + 1]]
        assert (children == records.after[ply]).all(axis=(1, 2)).any(), f"ply {ply} is not a legal play"
    last = offsets[1:] - 1
    following = np.ones(len(records.positions), dtype=bool)
    following[offsets[:-1]] = False  # first plies of games follow no ply
    swapped = records.after[:-1][:, ::-1]
    assert np.array_equal(records.positions[1:][following[1:]], swapped[following[1:]])
    ended = batch.outcome(records.after, rules)
    still_going = np.ones(len(records.after), dtype=bool)
    still_going[last] = False
    assert (ended.winner[still_going] == -1).all()
    assert (ended.winner[last] == 0).all()  # the last mover has won
    mover_seat = (records.plies - 1) % 2
    assert np.array_equal(records.winner, mover_seat)
    assert np.array_equal(records.value, ended.value[last])
    assert np.array_equal(records.kind, ended.kind[last])


def test_first_plays_the_first_legal_play():
    records = games.play_games(BACKGAMMON, 20, "first", seed=6)
    for ply in range(0, len(records.positions), 7):
        plays = package.legal_plays(Position(records.positions[ply]), tuple(records.dice[ply]), BACKGAMMON)
        expected = plays[0].position.array if plays else records.positions[ply]
        assert np.array_equal(records.after[ply], expected)


def test_zero_weights_tie_everywhere_and_pick_the_first_play():
    zero = games.play_games("ban-sugoroku", 30, LinearPolicy([0.0] * len(FEATURE_NAMES)), seed=2)
    first = games.play_games("ban-sugoroku", 30, "first", seed=2)
    assert_same_games(zero, first)


def test_heuristic_is_the_linear_policy_with_the_shipped_weights():
    shipped = LinearPolicy(HEURISTIC_WEIGHTS["backgammon"])
    assert_same_games(games.play_games(BACKGAMMON, 30, "heuristic", seed=3),
                      games.play_games(BACKGAMMON, 30, shipped, seed=3))


@pytest.mark.parametrize("policy", ["random", "heuristic", "pubeval"])
def test_results_do_not_depend_on_threads(policy):
    one = games.play_games(BACKGAMMON, 300, policy, seed=12, threads=1)
    two = games.play_games(BACKGAMMON, 300, policy, seed=12, threads=2)
    assert_same_games(one, two)
    start = Position(one.positions[5])
    assert (games.rollout(start, BACKGAMMON, 500, policy, seed=1, threads=1).counts
            == games.rollout(start, BACKGAMMON, 500, policy, seed=1, threads=2).counts).all()


def test_policies_beat_random_clearly():
    # Far fewer games than the benchmark (which targets 75%); with 200 games a
    # policy winning 90% of the time falls below 80% with probability < 1e-4.
    for rules, policy in ((BACKGAMMON, "heuristic"), (BACKGAMMON, "pubeval"), (Rules(), "heuristic")):
        records = games.play_games(rules, 200, (policy, "random"), seed=21)
        assert (records.winner == 0).mean() >= 0.8, (rules.short_name, policy)


# --- rollouts ----------------------------------------------------------------------------------


def _tally(records) -> np.ndarray:
    counts = np.zeros((2, 4), dtype=np.int64)
    np.add.at(counts, (records.winner, records.value), 1)
    return counts


@pytest.mark.parametrize("rules", rules_params(RULES))
def test_rollout_counts_equal_the_tally_of_the_same_games(rules):
    start = _middle_starts(rules, 1)[0]
    records = games.play_games(rules, 300, "heuristic", seed=5, start=start)
    result = games.rollout(start, rules, 300, "heuristic", seed=5)
    assert result.counts.dtype == np.int64 and result.counts.shape == (2, 4)
    assert np.array_equal(result.counts, _tally(records))
    kinds = np.zeros((2, len(KINDS)), dtype=np.int64)
    np.add.at(kinds, (records.winner, records.kind), 1)
    assert np.array_equal(result.kind_counts, kinds)
    assert result.mean_plies == records.plies.mean()
    signed = np.where(records.winner == 0, records.value, -records.value)
    assert result.equity == pytest.approx(signed.mean(), abs=1e-12)
    assert result.stderr == pytest.approx(signed.std(ddof=1) / math.sqrt(300), rel=1e-9)
    assert result.win_probability == pytest.approx((records.winner == 0).mean(), abs=1e-12)


def test_rollout_of_a_batch_uses_duplicate_dice_and_equals_single_rollouts():
    starts = _middle_starts(BACKGAMMON, 3)
    stacked = np.stack([s.array for s in starts])
    result = games.rollout(stacked, BACKGAMMON, 100, "pubeval", seed=4)
    assert result.counts.shape == (3, 2, 4) and result.equity.shape == (3,)
    for index, start in enumerate(starts):
        single = games.rollout(start, BACKGAMMON, 100, "pubeval", seed=4)
        assert np.array_equal(result.counts[index], single.counts)
        assert result.gnubg["win_gammon"][index] == single.gnubg["win_gammon"]


# Fewer games than strata on purpose (the dealing is compared, not the figures).
@pytest.mark.filterwarnings("ignore::bansugoroku_fast.errors.UnevenStrataWarning")
@pytest.mark.parametrize("rules, stratify", [(BACKGAMMON, 36), (BACKGAMMON, 1296), (Rules(), None)],
                         ids=["backgammon-36", "backgammon-1296", "ban-none"])
def test_rollout_equals_the_oracle(rules, stratify):
    start = _middle_starts(rules, 1)[0]
    kernel = games.rollout(start, rules, 16, "random", seed=3, stratify=stratify)
    reference = oracle.rollout(start, rules, 16, "random", seed=3, stratify=stratify)
    assert kernel.counts.tolist() == [list(row) for row in reference.counts]
    assert kernel.kind_counts.tolist() == [list(row) for row in reference.kind_counts]
    summary = ("equity", "stderr", "mean_plies")
    assert [getattr(kernel, name) for name in summary] == [getattr(reference, name) for name in summary]
    assert kernel.gnubg == reference.gnubg


@pytest.mark.parametrize("stratify", [36, 1296])
def test_stratified_rollout_counts_equal_the_tally_of_stratified_games(stratify):
    start = _middle_starts(BACKGAMMON, 1)[0]
    records = games.play_games(BACKGAMMON, 1296, "heuristic", seed=6, start=start, stratify=stratify)
    # Every first roll (of 36) is dealt once per 36 consecutive games: 36 times in 1,296.
    first_dice = records.dice[records.offsets[:-1]]
    rolls, times = np.unique(first_dice, axis=0, return_counts=True)
    assert len(rolls) == 36 and (times == 36).all()
    result = games.rollout(start, BACKGAMMON, 1296, "heuristic", seed=6, stratify=stratify)
    assert np.array_equal(result.counts, _tally(records))
    assert_same_games(games.play_games(BACKGAMMON, 3, "random", seed=6, start=start, stratify=stratify),
                      oracle.play_games(BACKGAMMON, 3, "random", seed=6, start=start, stratify=stratify))


def test_backgammon_figures_follow_from_the_counts():
    result = games.rollout(Position.initial(), BACKGAMMON, 2000, "random", seed=8)
    won, lost = result.counts[0], result.counts[1]
    figures = result.gnubg
    assert figures["win"] == pytest.approx(won.sum() / 2000)
    assert figures["win_gammon"] == pytest.approx((won[2] + won[3]) / 2000)  # gammons include backgammons
    assert figures["lose_backgammon"] == pytest.approx(lost[3] / 2000)
    assert figures["equity"] == result.equity
    p = figures["win"]
    assert result.gnubg_stderr["win"] == pytest.approx(math.sqrt(p * (1 - p) / 1999), rel=1e-9)
    assert games.rollout(Position.initial(), Rules(), 20, "random").gnubg is None


def test_the_stopping_rule_stops_at_the_first_block_under_the_target():
    start = _middle_starts(BACKGAMMON, 1)[0]
    one_block = games.rollout(start, BACKGAMMON, 1296, "heuristic", seed=2)
    target = 0.75 * one_block.largest_stderr()  # needs about 1.8 blocks
    stopped = games.rollout(start, BACKGAMMON, 20 * 1296, "heuristic", seed=2, stderr_target=target)
    assert stopped.games % 1296 == 0 and 1296 < stopped.games < 20 * 1296
    assert stopped.largest_stderr() <= target
    same = games.rollout(start, BACKGAMMON, stopped.games, "heuristic", seed=2)
    assert np.array_equal(same.counts, stopped.counts)  # the same games, deterministic
    shorter = games.rollout(start, BACKGAMMON, stopped.games - 1296, "heuristic", seed=2)
    assert shorter.largest_stderr() > target


def _python_loop_win_rate(rules: Rules, games_count: int, rng: random.Random) -> float:
    """Seat 0's win rate over random games played by a plain loop over
    ``legal_plays`` with Python's own random numbers."""
    wins = 0
    for _ in range(games_count):
        position, seat = Position.initial(), 0
        while True:
            plays = package.legal_plays(position, (rng.randint(1, 6), rng.randint(1, 6)), rules)
            after = rng.choice(plays).position if plays else position
            result = package.outcome(after, rules)
            if result is not None:
                wins += seat == 0
                break
            position, seat = after.swapped(), 1 - seat
    return wins / games_count


@pytest.mark.parametrize("rules, loop_games", [
    pytest.param(Rules(), 400, id="ban-sugoroku"),
    pytest.param(BACKGAMMON, 2000, id="backgammon", marks=pytest.mark.slow),
])
def test_random_rollouts_agree_with_a_plain_python_loop(rules, loop_games):
    rollout_games = 20_000
    loop_rate = _python_loop_win_rate(rules, loop_games, random.Random(99))
    rate = games.rollout(Position.initial(), rules, rollout_games, "random", seed=99).win_probability
    # Both estimate the same probability; 4.5 standard errors of the difference
    # (the loop's dominates) leave a false alarm rate below 1e-5.
    spread = math.sqrt(0.25 / loop_games + 0.25 / rollout_games)
    assert abs(loop_rate - rate) < 4.5 * spread


# --- rank_plays --------------------------------------------------------------------------------


def test_rank_plays_equals_the_oracle_and_is_sorted():
    records = games.play_games(BACKGAMMON, 1, "random", seed=17)
    counts = batch.count_plays(records.positions, records.dice, BACKGAMMON)
    late = np.arange(len(counts)) >= len(counts) - 30
    ply = int(np.flatnonzero((counts >= 3) & (counts <= 6) & late)[0])  # a few plays, short games
    start, dice = Position(records.positions[ply]), tuple(records.dice[ply].tolist())
    kernel = games.rank_plays(start, dice, BACKGAMMON, 6, "random", seed=5)
    reference = oracle.rank_plays(start, dice, BACKGAMMON, 6, "random", seed=5)
    assert [(str(r.play), r.equity, r.stderr) for r in kernel] == [(str(r.play), r.equity, r.stderr) for r in reference]
    equities = [r.equity for r in kernel]
    assert equities == sorted(equities, reverse=True)
    assert kernel[0].difference_stderr == 0.0
    assert len(kernel) == counts[ply]


def test_rank_plays_equities_are_minus_the_rollouts_of_the_children():
    start = Position.initial()
    ranked = games.rank_plays(start, (6, 5), BACKGAMMON, 200, "random", seed=1)
    for entry in ranked[:3]:
        child = games.rollout(entry.play.position.swapped(), BACKGAMMON, 200, "random", seed=1)
        assert entry.equity == pytest.approx(-child.equity, abs=1e-12)


def test_rank_plays_of_a_pass_is_empty():
    # All 15 of the mover's stones on the bar against a closed home: no play.
    position = board(mover_bar=15, opponent_at={p: 2 for p in range(19, 25)} | {13: 3})
    assert games.rank_plays(position, (6, 6), BACKGAMMON, 10) == []
