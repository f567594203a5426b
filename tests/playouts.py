"""Reproducible random playouts: the (position, roll) corpora of the differential tests.

A playout plays whole games from the start position, rolling two dice each
ply, choosing uniformly among the legal plays, and swapping the rows after each
ply (row 0 is always the side to move). Each ply before the move contributes
one ``(position, roll)`` item; a finished game starts again from the start.

* :func:`playout_items` is the cached corpus builder: ``(positions int8[N, 2, 26],
  dice int8[N, 2])`` of ``N`` distinct items for one rule combination and seed.
  It runs many games side by side through the kernel batch API
  (``bansugoroku_fast.batch.generate_plays``), which builds 50,000 items in well
  under a second.
* :func:`random_game` plays one game with any ``legal_plays`` function
  (the oracle's too: slow, for small checks).

Game over is decided here by a small independent numpy test (finished, or an
``immediate`` closure), not by the package: the corpora must not depend on the
code under test more than necessary.
"""
from __future__ import annotations

import functools
import importlib
import os
import random

import numpy as np

from bansugoroku_fast.position import INITIAL_ROW, Position
from bansugoroku_fast.rules import Rules

#: A game longer than this many plies restarts (it cannot happen in practice
#: but keeps a pathological engine from looping forever).
MAX_PLIES = 2000


#: Where the kernel-backed modules live. The environment variable lets the
#: harness be run against a stand-in (e.g. one built on the oracle, with a
#: planted bug) to check that the harness itself catches mistakes.
KERNEL_PACKAGE = os.environ.get("BANSUGOROKU_KERNEL_PACKAGE", "bansugoroku_fast")


def kernel_module(name: str):
    """``bansugoroku_fast.<name>`` (``moves`` or ``batch``), or the stand-in's."""
    return importlib.import_module(f"{KERNEL_PACKAGE}.{name}")


def initial_array() -> np.ndarray:
    return np.array([INITIAL_ROW, INITIAL_ROW], dtype=np.int8)


def game_over(positions: np.ndarray, rules: Rules) -> np.ndarray:
    """``bool[N]``: some side has won in each ``int8[N, 2, 26]`` position
    (written independently of the package, from docs/rules.md §3 and §4.2)."""
    positions = positions.astype(np.int16)
    home = positions[:, :, 1:7]
    if rules.bears_off:
        finished = positions[:, :, 0] == 15
    else:
        finished = home.sum(axis=2) == 15
    over = finished.any(axis=1)
    if rules.closure == "immediate":
        made = (home >= 2).all(axis=2)  # [N, side]
        other_on_bar = positions[:, ::-1, 25] >= 1
        over |= (made & other_on_bar).any(axis=1)
    return over


# --- one game at a time ---------------------------------------------------------------


def random_game(rules: Rules, rng: random.Random, legal_plays, max_plies: int = MAX_PLIES):
    """Yield ``(position, roll, plays)`` for each ply of one random game
    played with ``legal_plays`` (the oracle's or the kernel API's)."""
    position = Position.initial()
    for _ in range(max_plies):
        if game_over(position.array[None], rules)[0]:
            return
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, roll, rules)
        yield position, roll, plays
        if plays:
            position = rng.choice(plays).position
        position = position.swapped()


def _serial_items(rules: Rules, count: int, seed: int, legal_plays):
    rng = random.Random(f"playout-{seed}-{rules.code}")
    positions, dice, seen = [], [], set()
    while len(positions) < count:
        for position, roll, _ in random_game(rules, rng, legal_plays):
            if (position.key, roll) in seen:
                continue
            seen.add((position.key, roll))
            positions.append(position.array)
            dice.append(roll)
            if len(positions) >= count:
                break
    return np.array(positions, dtype=np.int8), np.array(dice, dtype=np.int8)


# --- many games side by side (batch kernels) -------------------------------------------


def _batch_rounds(rules: Rules, rng: np.random.Generator, games: int, plies: int, batch):
    """``plies`` plies of ``games`` parallel games: yields (positions, dice) per ply."""
    start = initial_array()
    positions = np.repeat(start[None], games, axis=0)
    age = np.zeros(games, dtype=np.int64)
    for _ in range(plies):
        dice = rng.integers(1, 7, size=(games, 2), dtype=np.int8)
        yield positions, dice
        result = batch.generate_plays(positions, dice, rules)
        offsets = np.asarray(result.offsets)
        children = np.asarray(result.children)
        counts = np.diff(offsets)
        pick = offsets[:-1] + np.floor(rng.random(games) * counts).astype(np.int64)
        moved = counts > 0
        after = positions.copy()
        if moved.any():
            after[moved] = children[pick[moved]]
        after = np.ascontiguousarray(after[:, ::-1, :])  # the other side to move
        age += 1
        restart = game_over(after, rules) | (age >= MAX_PLIES)
        after[restart] = start
        age[restart] = 0
        positions = after


def _unique_items(positions: np.ndarray, dice: np.ndarray):
    """Drop repeated (position, ordered roll) items, keeping first appearances."""
    flat = np.concatenate([positions.reshape(len(positions), 52), dice], axis=1)
    rows = np.ascontiguousarray(flat).view(np.dtype((np.void, 54))).ravel()
    _, first = np.unique(rows, return_index=True)
    first.sort()
    return positions[first], dice[first]


def _batch_items(rules: Rules, count: int, seed: int, batch):
    rng = np.random.default_rng([seed, rules.code, 0xBA5])
    # Few enough games side by side that each is played to its end several
    # times (about 500 plies per game slot): the corpus then holds bear-offs,
    # finishes and wins, not only middle games.
    games = int(min(4096, max(16, count // 400)))
    kept_positions = np.empty((0, 2, 26), dtype=np.int8)
    kept_dice = np.empty((0, 2), dtype=np.int8)
    plies = max(8, (count * 5 // 4) // games + 1)
    while len(kept_positions) < count:
        pos_chunks, dice_chunks = [kept_positions], [kept_dice]
        for positions, dice in _batch_rounds(rules, rng, games, plies, batch):
            pos_chunks.append(positions)
            dice_chunks.append(dice)
        kept_positions, kept_dice = _unique_items(
            np.concatenate(pos_chunks), np.concatenate(dice_chunks)
        )
        plies *= 2  # more than enough on the next round
    return kept_positions[:count], kept_dice[:count]


# --- the corpus --------------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def playout_items(rules: Rules, count: int, seed: int, engine: str = "kernel"):
    """``(positions int8[count, 2, 26], dice int8[count, 2])``: distinct
    ``(position, roll)`` items from random playouts of ``rules``, reproducible
    from ``seed`` (for a given engine). Cached; the arrays are read-only.

    ``engine``: "kernel" (the batch kernels) or "oracle" (slow: a few
    thousand items only).
    Game-over positions are not items (their plays are tested elsewhere).
    """
    if engine == "oracle":
        from bansugoroku_fast import oracle

        positions, dice = _serial_items(rules, count, seed, oracle.legal_plays)
    else:
        positions, dice = _batch_items(rules, count, seed, kernel_module("batch"))
    positions, dice = _unique_items(positions, dice)
    positions = np.ascontiguousarray(positions[:count])
    dice = np.ascontiguousarray(dice[:count])
    if len(positions) < count:
        raise RuntimeError(f"only {len(positions)} distinct items, wanted {count}")
    positions.flags.writeable = False
    dice.flags.writeable = False
    return positions, dice
