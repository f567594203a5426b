"""The plain C move generator of issue 10's yardstick (``benchmarks/plain_movegen.c``)
agrees with the batch kernels: the same count and the same set of children
for every item, on random-playout items and on the differential tests' edge
positions (game-over ones included), for Ban-sugoroku's defaults and for
backgammon. The kernels are differentially tested against the oracle on
millions of items, so a disagreement here is a bug in the C yardstick, whose
speed figures would then mean nothing.

The generator is compiled on the fly (a few seconds, once); the test is
skipped only where there is no C compiler.
"""
from __future__ import annotations

import numpy as np
import pytest

from bansugoroku_fast import Position, Rules, batch

from . import playouts, source_tree, strategies

PLAYOUT_ITEMS = 3_000
EDGE_ITEMS = 2_000

# The yardstick is built by benchmarks.yardstick with setuptools.
pytestmark = [source_tree.needs("benchmarks"), source_tree.needs_c_compiler()]


@pytest.fixture(scope="module")
def yardstick():
    from benchmarks import yardstick

    yardstick.load("_plain_movegen")  # compiled here, once
    return yardstick


def items(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Playout items, then edge positions with random rolls."""
    positions, dice = playouts.playout_items(rules, PLAYOUT_ITEMS, seed=7)
    edge = strategies.edge_positions(rules, EDGE_ITEMS, seed=4)
    edge_dice = np.random.default_rng([4, rules.code]).integers(1, 7, size=(EDGE_ITEMS, 2), dtype=np.int8)
    return np.concatenate([positions, edge]), np.concatenate([dice, edge_dice])


@pytest.mark.parametrize("rules", [Rules(), Rules(variant="backgammon")], ids=lambda rules: rules.short_name)
def test_plain_generator_agrees_with_the_kernels(yardstick, rules):
    positions, dice = items(rules)
    assert yardstick.disagreement(positions, dice, rules) is None


@pytest.mark.parametrize("rules", [Rules(), Rules(variant="backgammon")], ids=lambda rules: rules.short_name)
def test_plain_count_on_two_threads_gives_what_one_thread_gives(yardstick, rules):
    # The two-thread yardstick of benchmarks/speed.py shares the items out
    # over the threads: each count lands at its own item all the same.
    positions, dice = items(rules)
    two_threads = yardstick.plain_count(positions, dice, rules, threads=2)
    assert np.array_equal(two_threads, batch.count_plays(positions, dice, rules))


def test_a_won_game_has_no_plays(yardstick):
    # Ban-sugoroku's arrival finish: all fifteen of row 1's stones on its
    # points 1..6 is a won game (docs/rules.md §3), so the mover has no play
    # although 13/7 and 13/8 would be open. (Row 1's points 1..3 are the
    # mover's 24..22: no point holds stones of both sides.)
    position = np.zeros((1, 2, 26), dtype=np.int8)
    position[0, 0, 13] = 15
    position[0, 1, 1:4] = 5
    Position(position[0])  # a valid position
    dice = np.array([[6, 5]], dtype=np.int8)
    assert yardstick.plain_count(position, dice, Rules()).tolist() == [0]
    assert batch.count_plays(position, dice, Rules()).tolist() == [0]


def test_ban_sugoroku_double_played_in_either_order(yardstick):
    # Roll 2-2, X on 7 and 3 with the rest home: 7/5 wins at once and ends
    # the turn, but 3/1 then 7/5 is a full play too (the win comes with the
    # last die), so there are two plays (docs/rules.md §2.7, the win-stop
    # decision); a search that took only non-increasing origins finds one.
    row, opponent = [0] * 26, [0] * 26
    row[7], row[3], row[2], row[1] = 1, 1, 9, 4
    opponent[13] = 15  # on X's 12, out of the way
    position = np.array([[row, opponent]], dtype=np.int8)
    Position(position[0])  # a valid position
    dice = np.array([[2, 2]], dtype=np.int8)
    assert yardstick.plain_count(position, dice, Rules()).tolist() == [2]
    assert batch.count_plays(position, dice, Rules()).tolist() == [2]
    assert yardstick.disagreement(position, dice, Rules()) is None  # the same two children


def test_disagreement_is_found(yardstick, monkeypatch):
    # The check itself: one child of the C generator changed is reported.
    positions, dice = playouts.playout_items(Rules(), 200, seed=7)
    generate = yardstick.plain_generate

    def one_child_wrong(*args):
        offsets, children = generate(*args)
        children = children.copy()
        children[-1, 1, 25] += 1
        return offsets, children

    monkeypatch.setattr(yardstick, "plain_generate", one_child_wrong)
    assert "children differ" in yardstick.disagreement(positions, dice, Rules())


def test_a_count_disagreement_is_found(yardstick, monkeypatch):
    # The count check: one count of the C generator changed is reported, at its item.
    positions, dice = playouts.playout_items(Rules(), 200, seed=7)
    count = yardstick.plain_count

    def one_count_wrong(*args):
        counts = count(*args).copy()
        counts[5] += 1
        return counts

    monkeypatch.setattr(yardstick, "plain_count", one_count_wrong)
    assert yardstick.disagreement(positions, dice, Rules()).startswith(f"{Rules().short_name} item 5: ")
