"""Generate the conformance corpus shipped in
``bansugoroku_fast/formats/conformance/corpus/`` from the oracle.

The items are chosen with the tests' own reproducible generators (random
playouts played by the oracle, tests/playouts.py; edge positions,
tests/strategies.py), so the corpus covers what the differential tests
cover, plus items sought for the must-play rules and finished games
(:func:`sought_items`); every expected result, tag and perft count is the
oracle's. Regenerate with

    python -m tests.conformance_corpus

and tests/test_conformance_corpus.py checks that this reproduces the shipped
files exactly.
"""
from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import numpy as np

import bansugoroku_fast as package
from bansugoroku_fast import oracle
from bansugoroku_fast.formats.conformance import corpus as corpus_format
from bansugoroku_fast.formats.conformance.corpus import CorpusItem, PerftItem
from bansugoroku_fast.oracle.moves import _board, _single_moves
from bansugoroku_fast.position import Position
from bansugoroku_fast.rules import Rules
from tests.playouts import playout_items
from tests.strategies import edge_positions

SEED = 2026
PLAYOUT_ITEMS = 300
EDGE_POSITIONS = 200
ROLLS_PER_EDGE_POSITION = 2
#: Classes that random rolls rarely exercise: each rule set gets this many
#: more items of each, found in a further stream of edge positions (one item
#: per position, the first roll that exercises a class still short).
SOUGHT_CLASSES = ("larger_die", "max_dice", "game_over")
SOUGHT_ITEMS = 25
SEARCH_POSITIONS = 3000
SEARCH_CHUNK = 250
#: The 21 distinct rolls, in the order the search tries them.
ROLLS = [(high, low) for high in range(6, 0, -1) for low in range(high, 0, -1)]
#: Edge kinds that get perft entries (besides the start).
PERFT_KINDS = ("bar", "entry_blocked", "bear_off", "last_outside", "stuck_home", "win_next")
PERFT_CANDIDATES = 300
#: Positions counted to depth 3 have at most this many depth-1 and depth-2
#: leaves (keeps regeneration by the oracle to seconds).
SMALL_DEPTH_1 = 40
DEPTH_3_LIMIT = 800
FOLDER = Path(corpus_format.__file__).parent / corpus_format.CORPUS_FOLDER
GAME_OVER = "game_over"

Chosen = tuple[np.ndarray, tuple[int, int], tuple[str, ...]]


def selected_items(rules: Rules) -> list[Chosen]:
    """The (position, roll, generator tag) of every item, in file order."""
    positions, dice = playout_items(rules, PLAYOUT_ITEMS, SEED, engine="oracle")
    chosen = [(position, (int(a), int(b)), ("playout",)) for position, (a, b) in zip(positions, dice)]
    edges, kinds = edge_positions(rules, EDGE_POSITIONS, SEED, with_kinds=True)
    rng = random.Random(f"corpus-rolls-{SEED}-{rules.code}")
    for position, kind in zip(edges, kinds):
        for _ in range(ROLLS_PER_EDGE_POSITION):
            roll = (rng.randint(1, 6), rng.randint(1, 6))
            chosen.append((position, roll, (_generator_tag(kind),)))
    return chosen + sought_items(rules)


def _generator_tag(kind: str) -> str:
    return "won" if kind == GAME_OVER else kind  # the rules decide the game_over tag


def sought_items(rules: Rules) -> list[Chosen]:
    """:data:`SOUGHT_ITEMS` items of each of :data:`SOUGHT_CLASSES` (fewer
    if :data:`SEARCH_POSITIONS` edge positions hold no more), one per
    position. The kernels point at candidates quickly; the oracle's tags decide."""
    wanted = dict.fromkeys(SOUGHT_CLASSES, SOUGHT_ITEMS)
    found: list[Chosen] = []
    for chunk in range(SEARCH_POSITIONS // SEARCH_CHUNK):
        edges, kinds = edge_positions(rules, SEARCH_CHUNK, SEED + 2 + chunk, with_kinds=True)
        for array, kind, rolls in zip(edges, kinds, _candidate_rolls(edges, rules)):
            position = Position(array)
            for roll in rolls:
                if "max_dice" not in rolls[roll] and wanted["max_dice"]:
                    rolls[roll] |= set(_rule_tags(position, roll, rules, engine=package))
                if any(wanted.get(tag) for tag in rolls[roll]):
                    short = [tag for tag in _rule_tags(position, roll, rules) if wanted.get(tag)]
                    if short:
                        found.append((array, roll, (_generator_tag(kind),)))
                        for tag in short:
                            wanted[tag] -= 1
                        break
            if not any(wanted.values()):
                return found
    return found


def _candidate_rolls(edges: np.ndarray, rules: Rules) -> list[dict[tuple[int, int], set[str]]]:
    """For each position, the rolls that the kernels suggest exercise
    ``game_over`` (every roll of a finished game: the first is kept) or
    ``larger_die`` (every play moves one stone by the larger die); the
    others with at least one play, which may exercise ``max_dice``."""
    count = len(edges)
    rolls = np.array(ROLLS, dtype=np.int8)
    items = package.generate_plays(np.repeat(edges, len(ROLLS), axis=0), np.tile(rolls, (count, 1)), rules,
                                   fields=("children", "dice"))
    plays = np.diff(items.offsets)
    single_larger = (items.dice[:, 1] == -1) & (items.dice[:, 0] == np.repeat(np.tile(rolls[:, 0], count), plays))
    # Items whose plays are all single steps by the larger die (vacuously true without plays).
    failures = np.zeros(len(plays), dtype=np.int64)
    np.add.at(failures, np.repeat(np.arange(len(plays)), plays), ~single_larger)
    over = package.batch.outcome(edges, rules).winner >= 0
    candidates = []
    for index in range(count):
        if over[index]:
            candidates.append({ROLLS[0]: {GAME_OVER}})
            continue
        tags: dict[tuple[int, int], set[str]] = {}
        for k, (high, low) in enumerate(ROLLS):
            item = index * len(ROLLS) + k
            if plays[item] and high != low and not failures[item]:
                tags[(high, low)] = {"larger_die"}
            elif plays[item]:
                tags[(high, low)] = set()
        candidates.append(tags)
    return candidates


def _rule_tags(position: Position, dice: tuple[int, int], rules: Rules, engine: ModuleType = oracle) -> list[str]:
    """The must-play rules an item exercises, and whether it is a pass or a
    finished game, as ``engine`` (the oracle, or the package's kernels)
    answers; the single moves are the oracle's."""
    if engine.outcome(position, rules) is not None:
        return [GAME_OVER]
    plays = engine.legal_plays(position, dice, rules)
    if not plays:
        return ["pass"]
    tags = []
    board = _board(position)
    single = {(s.origin, s.target, s.die) for die in set(dice) for s in _single_moves(board, die, rules)}
    first = {(s.origin, s.target, s.die) for s in engine.legal_first_steps(position, dice, rules)}
    if single - first:
        tags.append("max_dice")  # a move that could be made is illegal: it strands dice
    a, b = dice
    one_die = all(len(play.steps) == 1 and engine.outcome(play.position, rules) is None for play in plays)
    larger_only = all(play.dice[0] == max(a, b) for play in plays)
    if a != b and one_die and larger_only and _single_moves(board, min(a, b), rules):
        tags.append("larger_die")  # the smaller die could be played alone, but must not
    return tags


def expected_item(rules: Rules, array: np.ndarray, dice: tuple[int, int], tags: tuple[str, ...]) -> CorpusItem:
    position = Position(array)
    plays = oracle.legal_plays(position, dice, rules)
    all_tags = tags + tuple(_rule_tags(position, dice, rules))
    results = tuple(sorted(play.position.id for play in plays))
    return CorpusItem(rules, position.id, dice, all_tags, results)


def _small_tree(position: Position, rules: Rules) -> bool:
    """A tree that branches (more than one leaf for some roll) but stays
    small to depth 2: depth 3 stays cheap."""
    return (21 < oracle.perft(position, 1, rules) <= SMALL_DEPTH_1
            and oracle.perft(position, 2, rules) <= DEPTH_3_LIMIT)


def perft_positions(rules: Rules) -> list[tuple[Position, int]]:
    """``(position, deepest depth)``: the start to depth 2, and for each edge
    kind of :data:`PERFT_KINDS` its first position with a small tree (to
    depth 3) or, failing that, its first position (to depth 1)."""
    chosen = [(Position.initial(), 2)]
    edges, kinds = edge_positions(rules, PERFT_CANDIDATES, SEED + 1, with_kinds=True)
    for kind in PERFT_KINDS:
        candidates = [Position(array) for array, found in zip(edges, kinds) if found == kind]
        candidates = [position for position in candidates if oracle.outcome(position, rules) is None]
        small = next((position for position in candidates if _small_tree(position, rules)), None)
        if small is not None:
            chosen.append((small, 3))
        elif candidates:
            chosen.append((candidates[0], 1))
    return chosen


def perft_items(rules: Rules) -> list[PerftItem]:
    return [PerftItem(rules, position.id, depth, oracle.perft(position, depth, rules))
            for position, deepest in perft_positions(rules) for depth in range(1, deepest + 1)]


def write_corpus(folder: Path = FOLDER) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for rules in Rules.all_combinations():
        stem = corpus_format.slug(rules)
        items = [expected_item(rules, *chosen) for chosen in selected_items(rules)]
        moves = corpus_format.moves_header(rules) + "".join(corpus_format.format_item(i) + "\n" for i in items)
        (folder / (stem + corpus_format.MOVES_SUFFIX)).write_text(moves, encoding="utf-8")
        perfts = perft_items(rules)
        perft = corpus_format.perft_header(rules) + "".join(corpus_format.format_perft(p) + "\n" for p in perfts)
        (folder / (stem + corpus_format.PERFT_SUFFIX)).write_text(perft, encoding="utf-8")


if __name__ == "__main__":
    write_corpus()
