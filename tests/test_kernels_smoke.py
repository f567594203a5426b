"""Quick checks of the kernel-backed API (bansugoroku_fast.moves, .batch).

The big differential harness lives elsewhere; these make sure every kernel
entry point runs, agrees with the oracle on the start position and on a few
random-playout positions per rule combination, and hits the public
backgammon figures.
"""
import random

import numpy as np
import pytest

from bansugoroku_fast import _batch, batch, checks, moves, oracle
from bansugoroku_fast.errors import InvalidDiceError, InvalidPositionError
from bansugoroku_fast.position import Position
from bansugoroku_fast.rules import Rules

from . import strategies
from .boards import rules_params

BACKGAMMON = Rules(variant="backgammon")
ALL_RULES = Rules.all_combinations()
ROLLS = np.array(oracle.ALL_ROLLS, dtype=np.int8)


def playout_positions(rules, count, seed):
    """Positions met in random games (sampled sparsely, so late phases show up)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = Position.initial()
        while len(found) < count and moves.outcome(position, rules) is None:
            if rng.random() < 0.2:
                found.append(position)
            plays = moves.legal_plays(position, (rng.randint(1, 6), rng.randint(1, 6)), rules)
            if plays:
                position = rng.choice(plays).position
            position = position.swapped()
        found.append(position)  # a finished game too
    return found[:count]


def as_values(plays):
    return [(p.steps, p.dice, p.hits, p.position) for p in plays]


# --- public figures ----------------------------------------------------------


def test_backgammon_start_position_counts():
    start = Position.initial()
    counts = {roll: moves.legal_play_count(start, roll, BACKGAMMON) for roll in oracle.ALL_ROLLS}
    assert counts[(6, 5)] == 7 and counts[(1, 1)] == 42 and counts[(5, 5)] == 4
    assert sum(counts.values()) == 447
    assert {roll: len(moves.legal_plays(start, roll, BACKGAMMON)) for roll in counts} == counts


def test_backgammon_perft():
    start = Position.initial()
    assert moves.perft(start, 1, BACKGAMMON) == 447
    assert moves.perft(start, 2, BACKGAMMON) == 202_782
    divide = moves.perft_divide(start, 2, BACKGAMMON)
    assert list(divide) == list(oracle.ALL_ROLLS) and sum(divide.values()) == 202_782


def test_perft_divide_matches_oracle_at_depth_one():
    for rules in (Rules(), BACKGAMMON):
        assert moves.perft_divide(Position.initial(), 1, rules) == oracle.perft_divide(
            Position.initial(), 1, rules
        )


# --- agreement with the oracle ---------------------------------------------------


@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
def test_single_calls_match_oracle(rules):
    count = 12 if rules.is_backgammon else 40
    for position in playout_positions(rules, count, seed=rules.code):
        assert moves.outcome(position, rules) == oracle.outcome(position, rules)
        assert moves.shots(position, rules) == oracle.shots(position, rules)
        assert moves.blocked_points(position) == oracle.blocked_points(position)
        assert moves.blots(position) == oracle.blots(position)
        assert moves.pip_counts(position) == oracle.pip_counts(position)
        assert moves.closure_holds(position, 1) == oracle.closure_holds(position, 1)
        for roll in oracle.ALL_ROLLS:
            want = oracle.legal_plays(position, roll, rules)
            assert as_values(moves.legal_plays(position, roll, rules)) == as_values(want)
            assert moves.legal_play_count(position, roll, rules) == len(want)
            assert moves.legal_first_steps(position, roll, rules) == oracle.legal_first_steps(
                position, roll, rules
            )


def counts_held_to_search(array, rolls, rules):
    """Every position of ``array`` with every roll of ``rolls``, as
    ``(items, dice, counts)``: ``count_plays`` (closed forms where they
    apply), asserted equal to the plain search's counts."""
    items = np.repeat(array, len(rolls), axis=0)
    dice = np.tile(rolls, (len(array), 1))
    fast = batch.count_plays(items, dice, rules)
    searched = np.empty_like(fast)
    problem, total = _batch.count_batch(items, dice, rules.code, 2, searched, fast_counts=False)
    assert problem is None
    assert (fast == searched).all()
    assert total == fast.sum()
    return items, dice, fast


@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
def test_closed_form_counts_match_search(rules):
    positions = playout_positions(rules, 60, seed=rules.code + 100)
    items, dice, fast = counts_held_to_search(np.stack([p.array for p in positions]), ROLLS, rules)
    # The single count takes the same switch.
    for index in range(0, len(items), 97):
        roll = tuple(dice[index].tolist())
        assert moves.legal_play_count(items[index], roll, rules, fast_counts=False) == fast[index]


def test_all_orderings_match_oracle():
    for rules in (Rules(), BACKGAMMON):
        for position in playout_positions(rules, 5, seed=7):
            for roll in oracle.ALL_ROLLS:
                want = oracle.legal_plays(position, roll, rules, all_orderings=True)
                got = moves.legal_plays(position, roll, rules, all_orderings=True)
                assert as_values(got) == as_values(want)


def test_kernel_plays_behave_like_plays():
    start = Position.initial()
    mine = moves.legal_plays(start, (6, 5), BACKGAMMON)
    theirs = oracle.legal_plays(start, (6, 5), BACKGAMMON)
    assert mine == theirs
    assert {hash(p) for p in mine} == {hash(p) for p in theirs}
    assert [str(p) for p in mine] == [str(p) for p in theirs]
    assert mine[0].as_steps()[0].die == 6


# --- the batch API ---------------------------------------------------------------------


@pytest.mark.parametrize("rules", [Rules(), Rules(finish="bear_off", closure="immediate"), BACKGAMMON],
                         ids=lambda r: r.short_name)
def test_batch_matches_single_calls_for_any_thread_count(rules):
    positions = playout_positions(rules, 30, seed=3)
    array = np.stack([p.array for p in positions])
    items = np.repeat(array, len(ROLLS), axis=0)
    dice = np.tile(ROLLS, (len(array), 1))
    one = batch.generate_plays(items, dice, rules, threads=1)
    two = batch.generate_plays(items, dice, rules, threads=2)
    for field in one._fields:
        assert np.array_equal(getattr(one, field), getattr(two, field))
    assert np.array_equal(batch.count_plays(items, dice, rules, threads=2), one.counts())
    for i in range(0, len(items), 7):
        plays = moves.legal_plays(Position(items[i]), tuple(dice[i]), rules)
        rows = slice(one.offsets[i], one.offsets[i + 1])
        assert [Position(c) for c in one.children[rows]] == [p.position for p in plays]
        for k, play in enumerate(plays):
            n = len(play.steps)
            row = one.offsets[i] + k
            assert [tuple(s) for s in one.steps[row, :n].tolist()] == list(play.steps)
            assert one.dice[row, :n].tolist() == list(play.dice)
            assert one.hits[row, :n].tolist() == list(play.hits)
            assert (one.steps[row, n:] == -1).all() and (one.dice[row, n:] == -1).all()
    chunks = list(batch.iter_plays(items, dice, rules, chunk_size=50))
    assert [start for start, _ in chunks] == list(range(0, len(items), 50))
    assert np.array_equal(np.concatenate([c.children for _, c in chunks]), one.children)


def test_batch_queries_match_single_calls():
    rules = Rules()
    positions = playout_positions(rules, 40, seed=5)
    array = np.stack([p.array for p in positions])
    result = batch.outcome(array, rules)
    assert batch.shots(array, rules).tolist() == [moves.shots(p, rules) for p in positions]
    assert batch.pip_counts(array).tolist() == [list(moves.pip_counts(p)) for p in positions]
    blocked = batch.blocked_points(array)
    blot_mask = batch.blots(array)
    closures = batch.closure_holds(array)
    for i, position in enumerate(positions):
        outcome = moves.outcome(position, rules)
        assert result.winner[i] == (-1 if outcome is None else outcome.winner)
        assert result.kinds()[i] == (None if outcome is None else outcome.kind)
        assert tuple(np.flatnonzero(blocked[i])) == moves.blocked_points(position)
        assert tuple(tuple(np.flatnonzero(row)) for row in blot_mask[i]) == moves.blots(position)
        assert closures[i].tolist() == [moves.closure_holds(position, s) for s in (0, 1)]


def test_int8_input_is_not_copied():
    array = np.stack([Position.initial().array] * 2)
    assert checks.as_positions_array(array) is array


def test_batch_accepts_other_integer_dtypes():
    array = np.stack([Position.initial().array] * 2).astype(np.int64)
    assert batch.count_plays(array, [[6, 5], [1, 1]], BACKGAMMON).tolist() == [7, 42]


# --- bad input -------------------------------------------------------------------------


def test_bad_positions_name_the_item():
    array = np.stack([Position.initial().array] * 3)
    array[2, 0, 6] = 4  # row 0 sums to 14
    with pytest.raises(InvalidPositionError, match="position 2: row 0"):
        batch.count_plays(array, [[6, 5]] * 3, Rules())
    with pytest.raises(InvalidPositionError, match=r"shape \(N, 2, 26\)"):
        batch.count_plays(array[:, :, :25], [[6, 5]] * 3, Rules())
    with pytest.raises(InvalidPositionError, match="integers"):
        batch.count_plays(array.astype(float), [[6, 5]] * 3, Rules())


def test_borne_off_stones_refused_in_arrival():
    array = np.stack([Position.initial().array] * 2)
    array[1, 1, 6] -= 1
    array[1, 1, 0] += 1
    assert batch.count_plays(array, [[6, 5]] * 2, Rules(finish="bear_off")).shape == (2,)
    with pytest.raises(InvalidPositionError, match=r"position 1: row 1.*borne off"):
        batch.count_plays(array, [[6, 5]] * 2, Rules())
    with pytest.raises(InvalidPositionError):
        moves.legal_plays(array[1], (6, 5), Rules())


def test_both_sides_won_is_invalid():
    both = np.zeros((2, 26), dtype=np.int8)
    both[0, 1:7] = [3, 3, 3, 2, 2, 2]
    both[1, 1:7] = [3, 3, 3, 2, 2, 2]
    array = np.stack([Position.initial().array, both])
    for call in (
        lambda: batch.count_plays(array, [[6, 5]] * 2, Rules()),
        lambda: batch.generate_plays(array, [[6, 5]] * 2, Rules()),
        lambda: batch.outcome(array, Rules()),
        lambda: batch.shots(array, Rules()),
    ):
        with pytest.raises(InvalidPositionError, match="position 1: both sides"):
            call()
    with pytest.raises(InvalidPositionError, match="both sides"):
        moves.outcome(both, Rules())
    with pytest.raises(InvalidPositionError, match="both sides"):
        moves.perft_divide(both, 1, Rules())


def test_bad_dice_name_the_item():
    array = np.stack([Position.initial().array] * 2)
    with pytest.raises(InvalidDiceError, match="dice 1"):
        batch.count_plays(array, [[6, 5], [0, 3]], Rules())
    with pytest.raises(InvalidDiceError, match="shape"):
        batch.count_plays(array, [[6, 5]], Rules())
    with pytest.raises(ValueError, match="threads"):
        batch.count_plays(array, [[6, 5]] * 2, Rules(), threads=0)


def test_batch_kernels_refuse_shapes_their_item_loop_cannot_read():
    # The kernels read an item as 52 bytes and a roll's second die one
    # stride on: narrower arrays must be refused, not read past.
    code, out = Rules().code, np.zeros(2, dtype=np.int32)
    positions = np.stack([Position.initial().array] * 2)
    with pytest.raises(ValueError, match="dice must be n x 2"):
        _batch.count_batch(positions, np.full((2, 1), 3, dtype=np.int8), code, 1, out)
    with pytest.raises(ValueError, match=r"positions must be n x 2 x 26"):
        _batch.count_batch(np.ascontiguousarray(positions[:, :, :25]), np.full((2, 2), 3, dtype=np.int8), code, 1,
                           out)
    with pytest.raises(ValueError, match=r"positions must be n x 2 x 26"):
        _batch.shots_batch(np.ascontiguousarray(positions[:, :, :25]), code, 1, np.zeros(2, dtype=np.int8))


def test_finished_game_has_no_plays():
    won = [[0] * 26, [0] * 26]
    won[0][1:7] = [3, 3, 3, 2, 2, 2]
    won[1][10] = 15
    assert moves.outcome(won, Rules()) is not None
    assert moves.legal_plays(won, (6, 5), Rules()) == []
    assert moves.legal_play_count(won, (6, 5), Rules()) == 0
    assert moves.shots(won, Rules()) == 0
    assert moves.perft(won, 3, Rules()) == 1
    assert moves.perft_divide(won, 2, Rules()) == oracle.perft_divide(won, 2, Rules()) == {}


def test_iter_plays_reuse_yields_the_same_plays_chunk_by_chunk():
    """reuse=True writes every chunk into the same memory: each chunk, copied
    when yielded, equals the matching slice of generate_plays."""
    positions = np.stack([Position.initial().array] * len(oracle.ALL_ROLLS))
    dice = np.array(oracle.ALL_ROLLS, dtype=np.int8)
    rules = BACKGAMMON
    whole = batch.generate_plays(positions, dice, rules)
    chunks = [
        (start, chunk.offsets.copy(), chunk.children.copy())
        for start, chunk in batch.iter_plays(positions, dice, rules, chunk_size=4, reuse=True)
    ]
    for start, offsets, children in chunks:
        first, last = whole.offsets[start], whole.offsets[start + len(offsets) - 1]
        assert (offsets + first == whole.offsets[start:start + len(offsets)]).all()
        assert (children == whole.children[first:last]).all()


def backgammon_position(mover_places: dict[int, int], opponent_point: int) -> np.ndarray:
    """The mover's stones on ``mover_places`` (place: stones; 25 the bar),
    the rest borne off; the opponent's 15 on its own ``opponent_point``."""
    array = np.zeros((2, 26), dtype=np.int8)
    for place, stones in mover_places.items():
        array[0, place] = stones
    array[0, 0] = 15 - sum(mover_places.values())
    array[1, opponent_point] = 15
    return array


@pytest.mark.parametrize(("mover_points", "roll", "plays"), [
    # 2 off and 1 off both, or 2->1 then the 2 bears the highest (1) off.
    ({2: 1, 1: 1}, (2, 1), 2),
    # 6 off and then the 5 bears the highest (1) off, or 6->1 then the 6
    # bears one of the two off; the 5 cannot bear off from 1 while 6 is held.
    ({6: 1, 1: 1}, (6, 5), 2),
    # {4, 4}, {5, 3} (5->3 then 6->5 reaches what 6->5->3 does), {6, 2}.
    ({6: 1, 5: 1}, (2, 1), 3),
])
def test_counts_near_the_bear_off_known_answers(mover_points, roll, plays):
    array = backgammon_position(mover_points, 1)     # the opponent far away
    for dice in (roll, roll[::-1]):
        assert batch.count_plays(array[None], [dice], BACKGAMMON).tolist() == [plays]
        assert len(oracle.legal_plays(Position(array), dice, BACKGAMMON)) == plays


@pytest.mark.parametrize("rules", [rules for rules in ALL_RULES if rules.bears_off], ids=lambda r: r.short_name)
def test_counts_near_the_bear_off_match_search_and_oracle(rules):
    # Backgammon counts a non-double with at most one stone outside home by
    # the exact keys of its plays (count_by_keys in _shortcuts.pxd): held to
    # the plain search and to the oracle, hits and bear-offs included.
    array = strategies.edge_positions(rules, 80, seed=21, kinds=("bear_off", "last_outside"))
    rolls = np.array([roll for roll in oracle.ALL_ROLLS if roll[0] != roll[1]], dtype=np.int8)
    items, dice, fast = counts_held_to_search(array, rolls, rules)
    for index in range(0, len(items), 5):
        roll = tuple(dice[index].tolist())
        assert fast[index] == len(oracle.legal_plays(Position(items[index]), roll, rules)), index


@pytest.mark.parametrize(("mover_places", "plays"), [
    # 6-6, no bear-off (stones outside): the 24s go 24->18->12->6 (each point
    # moves at most as many as it holds or receives; 6 and 1 cannot move),
    # the 13s 13->7->1. Plays of four moves by how many each chain takes:
    # 24-chain 0..4 moves in 1, 1, 2, 2, 2 ways, 13-chain 4..0 in 1, 1, 2, 1, 1:
    # 1 + 1 + 4 + 2 + 2 = 10.
    ({24: 2, 13: 2, 1: 11}, 10),
    # One 24 on the bar: it enters on 19 first, then three moves: the lone
    # 24 takes 0..3 (one way each), the 19-13-7 chain 3..0 in 3, 3, 2, 1 ways.
    ({25: 1, 24: 1, 13: 2, 1: 11}, 9),
])
def test_double_counts_known_answers(mover_places, plays):
    # The last three and four moves of a double are counted in closed form
    # (triple_plays in _shortcuts.pxd): held to counts reasoned from the rules.
    array = backgammon_position(mover_places, 2)     # the mover's 23: in no 6's way
    assert batch.count_plays(array[None], [(6, 6)], BACKGAMMON).tolist() == [plays]
    assert len(oracle.legal_plays(Position(array), (6, 6), BACKGAMMON)) == plays


@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
def test_double_counts_match_search(rules):
    # Every double on playout and edge positions: the closed forms of the
    # last moves (count_last_four, count_last_three, triple_plays) against
    # the plain search.
    array = np.concatenate([np.stack([p.array for p in playout_positions(rules, 150, seed=rules.code + 7)]),
                            strategies.edge_positions(rules, 150, seed=rules.code + 7)])
    counts_held_to_search(array, np.array([(die, die) for die in range(1, 7)], dtype=np.int8), rules)


def ban_position(mover_places: dict[int, int], opponent_places: dict[int, int]) -> np.ndarray:
    """A Ban-sugoroku arrival position: each side's stones on its own places
    (place: stones; 25 the bar)."""
    array = np.zeros((2, 26), dtype=np.int8)
    for row, places in enumerate((mover_places, opponent_places)):
        for place, stones in places.items():
            array[row, place] = stones
    assert (array.sum(axis=1) == 15).all()
    return array


# The opponent's 15 on its 13 (the mover's 12): in no way of these moves.
FAR_OPPONENT = {13: 15}


@pytest.mark.parametrize(("mover_places", "opponent_places", "roll", "plays"), [
    # docs/rules.md §2.8: 8/6 and 8/2 each bring the last stone home and win.
    ({8: 1, 1: 14}, FAR_OPPONENT, (6, 2), 2),
    # The same, and 3/1 with the 2 first, then 8/2 wins with the 6 (8/6
    # first would have won already).
    ({8: 1, 3: 1, 1: 13}, FAR_OPPONENT, (6, 2), 3),
    # §2.8: a double stops too; 7/6 wins, so 7/6/5 is no play.
    ({7: 1, 1: 14}, FAR_OPPONENT, (1, 1), 1),
    # 10/7 does not arrive, so the stone goes on: 10/7/4 is the one play.
    ({10: 1, 1: 14}, FAR_OPPONENT, (3, 3), 1),
    # §2.7: the opponent holds the mover's 9, so no sequence uses both
    # dice and none arrives: the larger die, 20/14.
    ({20: 1, 1: 14}, {16: 2, 13: 13}, (6, 5), 1),
])
def test_last_stone_counts_known_answers(mover_places, opponent_places, roll, plays):
    # The arrival of the last stone outside home is counted in closed form
    # (count_last_stone in _shortcuts.pxd): held to counts reasoned from the rules.
    array = ban_position(mover_places, opponent_places)
    for dice in {roll, roll[::-1]}:
        assert batch.count_plays(array[None], [dice], Rules()).tolist() == [plays]
        assert len(oracle.legal_plays(Position(array), dice, Rules())) == plays


@pytest.mark.parametrize("rules", [rules for rules in ALL_RULES if not rules.bears_off and not rules.is_backgammon],
                         ids=lambda r: r.short_name)
def test_last_stone_counts_match_search_and_oracle(rules):
    # Every roll of positions with one stone outside home (hits, blocks and
    # the immediate closure's reach included): the closed form against the
    # plain search, and a sample against the oracle.
    array = strategies.edge_positions(rules, 150, seed=rules.code + 31, kinds=("last_outside",))
    items, dice, fast = counts_held_to_search(array, ROLLS, rules)
    for index in range(0, len(items), 7):
        roll = tuple(dice[index].tolist())
        assert fast[index] == len(oracle.legal_plays(Position(items[index]), roll, rules)), index


def test_one_roll_as_text_serves_the_whole_batch():
    """``"6-5"`` is read as the single calls read it, one roll for every item."""
    positions = np.stack([Position.initial().array] * 3)
    as_text = batch.count_plays(positions, "6-5", "backgammon")
    as_pairs = batch.count_plays(positions, [[6, 5]] * 3, "backgammon")
    assert as_text.tolist() == as_pairs.tolist() == [7, 7, 7]
    with pytest.raises(InvalidDiceError, match="cannot read dice"):
        batch.count_plays(positions, "six-five", "backgammon")
