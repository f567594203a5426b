"""A fixed corpus of (position, roll) items from random playouts, per rule set.

Games are played from the start position with dice from a seeded
``numpy.random.Generator``; each ply the side to move picks uniformly among
its legal plays (distinct resulting positions, taken in the order of their
52-byte keys, so the choice does not depend on which engine listed them),
then the board is swapped to the other side's view. Every ply is recorded as
one item: the position before the roll (row 0 to move), the roll, how many
plays it had, and the position after the chosen play (same perspective).
Under ``start="roll_off"`` (backgammon) a game's first roll is never a double.

Several games run side by side so that the batch kernel lists their plays in
one call; finished games are replaced by new ones. The items are stored in a
seeded random order, so any prefix of the corpus is a fair sample of it.

The corpus is cached under ``benchmarks/.cache/`` as a ``.npz`` keyed by
(rules, size, seed): the same key gives the same items whichever engine built
it (the kernels and the oracle agree, which the test suite checks).

>>> from bansugoroku_fast import Rules
>>> small = build_corpus(Rules(variant="backgammon"), size=60, seed=1, backend="oracle")
>>> len(small), small.positions.shape, small.dice.shape
(60, (60, 2, 26), (60, 2))
>>> again = build_corpus(Rules(variant="backgammon"), size=60, seed=1, backend="oracle")
>>> bool((small.positions == again.positions).all() and (small.dice == again.dice).all())
True
"""
from __future__ import annotations

import argparse
import dataclasses
import time
from pathlib import Path

import numpy as np

from bansugoroku_fast import Rules
from bansugoroku_fast.position import INITIAL_ROW, Position

from . import engines

CACHE_DIR = Path(__file__).resolve().parent / ".cache"
#: Bump when the way a corpus is built changes, so old caches are not reused.
FORMAT_VERSION = 1
DEFAULT_SEED = 20240229
#: Items in a corpus.
DEFAULT_SIZE = 100_000
#: A game longer than this is abandoned (random play never gets near it).
MAX_PLIES = 5_000
#: Plies a random game lasts, roughly: sets how many games run side by side.
TYPICAL_GAME_PLIES = 200

#: The rule sets benchmarked by default: Ban-sugoroku's defaults and backgammon.
DEFAULT_VARIANTS = (Rules(), Rules(variant="backgammon"))


def variants(all_combinations: bool = False) -> tuple[Rules, ...]:
    """The rule sets to benchmark: the two defaults, or all seven combinations."""
    return tuple(Rules.all_combinations()) if all_combinations else DEFAULT_VARIANTS


@dataclasses.dataclass(frozen=True)
class Corpus:
    """The items of one corpus, as parallel arrays (item ``i`` in each)."""

    rules: Rules
    seed: int
    positions: np.ndarray  # int8[N, 2, 26], row 0 to move
    dice: np.ndarray  # int8[N, 2]
    play_counts: np.ndarray  # int32[N], legal plays of (position, dice)
    after: np.ndarray  # int8[N, 2, 26], after the chosen play (mover's view)
    game: np.ndarray  # int32[N], which game the item comes from
    ply: np.ndarray  # int32[N], its ply within that game (0 = first)
    built_with: str = ""

    def __len__(self) -> int:
        return len(self.dice)

    def head(self, count: int) -> Corpus:
        """The first ``count`` items: a fair sample, as the order is random."""
        return self.take(np.arange(min(count, len(self))))

    def take(self, indices) -> Corpus:
        """The items at ``indices``, as a corpus."""
        arrays = {
            name: np.ascontiguousarray(getattr(self, name)[indices])
            for name in ("positions", "dice", "play_counts", "after", "game", "ply")
        }
        return dataclasses.replace(self, **arrays)

    def in_game_order(self) -> Corpus:
        """The items sorted by game then ply, so each game can be replayed."""
        return self.take(np.lexsort((self.ply, self.game)))

    def items(self):
        """``(Position, (a, b))`` per item, ready for the single-call API."""
        return [
            (Position._trusted(position), (int(roll[0]), int(roll[1])))
            for position, roll in zip(self.positions, self.dice)
        ]

    @property
    def total_plays(self) -> int:
        """The sum of the play counts: a regression total for the kernels."""
        return int(self.play_counts.sum(dtype=np.int64))


# --- building ---------------------------------------------------------------


def sorted_child_order(offsets: np.ndarray, children: np.ndarray) -> np.ndarray:
    """Indices of ``children`` sorted by item, then by the 52 bytes of each child."""
    count = len(children)
    padded = np.zeros((count, 56), dtype=np.uint8)
    padded[:, :52] = children.reshape(count, 52).view(np.uint8)
    words = padded.view(">u8")  # big-endian: integer order is byte order
    item_of_child = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    keys = [words[:, column] for column in range(6, -1, -1)] + [item_of_child]
    return np.lexsort(keys)


def _roll(rng: np.random.Generator, first_ply: np.ndarray, no_first_double: bool) -> np.ndarray:
    """One roll per game; a game's first roll is redrawn while it is a double
    when the rules start with a roll-off."""
    dice = rng.integers(1, 7, size=(len(first_ply), 2)).astype(np.int8)
    if no_first_double:
        redraw = first_ply & (dice[:, 0] == dice[:, 1])
        while redraw.any():
            dice[redraw] = rng.integers(1, 7, size=(int(redraw.sum()), 2))
            redraw = first_ply & (dice[:, 0] == dice[:, 1])
    return dice


def _choose_children(rng, boards, dice, rules, backend):
    """One uniformly chosen legal play per game: ``(after, play counts)``;
    a game with no play passes (``after`` is its board unchanged)."""
    offsets, children = engines.children_of(boards, dice, rules, backend=backend)
    counts = np.diff(offsets).astype(np.int32)
    picks = np.floor(rng.random(len(boards)) * counts).astype(np.int64)
    after = boards.copy()
    moved = counts > 0
    if moved.any():
        order = sorted_child_order(offsets, children)
        after[moved] = children[order[offsets[:-1][moved] + picks[moved]]]
    return after, counts


def _games_over(after: np.ndarray, moved: np.ndarray, rules) -> np.ndarray:
    """Which games have just ended (only a play can end a game)."""
    over = np.zeros(len(after), dtype=bool)
    over[moved] = engines.games_over(np.ascontiguousarray(after[moved]), rules)
    return over


def parallel_games_for(size: int) -> int:
    """How many games to play side by side: enough for a batch, few enough
    that the corpus holds whole games, not just openings."""
    return int(np.clip(size // TYPICAL_GAME_PLIES, 1, 512))


def build_corpus(rules: Rules, size: int = DEFAULT_SIZE, seed: int = DEFAULT_SEED, *,
                 backend: str = "batch", progress=None) -> Corpus:
    """Play random games until ``size`` items are recorded (see the module
    docstring). ``progress``, if given, is called with the items recorded so
    far after each round."""
    rng = np.random.default_rng([seed, rules.code, FORMAT_VERSION])
    slots = parallel_games_for(size)
    initial = np.array([INITIAL_ROW, INITIAL_ROW], dtype=np.int8)
    boards = np.repeat(initial[None], slots, axis=0)
    game = np.arange(slots, dtype=np.int32)
    ply = np.zeros(slots, dtype=np.int32)
    next_game = slots
    no_first_double = rules.start == "roll_off"
    chunks: list[dict[str, np.ndarray]] = []
    recorded = 0
    while recorded < size:
        dice = _roll(rng, ply == 0, no_first_double)
        after, counts = _choose_children(rng, boards, dice, rules, backend)
        chunks.append(dict(positions=boards, dice=dice, play_counts=counts,
                           after=after, game=game.copy(), ply=ply.copy()))
        recorded += slots
        if progress is not None:
            progress(min(recorded, size))
        over = _games_over(after, counts > 0, rules) | (ply + 1 >= MAX_PLIES)
        boards = np.ascontiguousarray(after[:, ::-1])
        ply = ply + 1
        restarted = np.flatnonzero(over)
        boards[restarted] = initial
        ply[restarted] = 0
        game[restarted] = next_game + np.arange(len(restarted), dtype=np.int32)
        next_game += len(restarted)
    arrays = {name: np.concatenate([chunk[name] for chunk in chunks])[:size] for name in chunks[0]}
    shuffle = rng.permutation(size)
    arrays = {name: np.ascontiguousarray(array[shuffle]) for name, array in arrays.items()}
    return Corpus(rules=rules, seed=seed, built_with=backend, **arrays)


# --- caching ------------------------------------------------------------------


def cache_path(rules: Rules, size: int, seed: int, cache_dir: Path = CACHE_DIR) -> Path:
    """Where the corpus of (rules, size, seed) is cached."""
    label = rules.short_name.replace("/", "-")
    return Path(cache_dir) / f"{label}-n{size}-seed{seed}-v{FORMAT_VERSION}.npz"


def save_corpus(corpus: Corpus, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp.npz")
    np.savez_compressed(
        temporary,
        positions=corpus.positions, dice=corpus.dice, play_counts=corpus.play_counts,
        after=corpus.after, game=corpus.game, ply=corpus.ply,
        seed=np.int64(corpus.seed), rules=np.str_(corpus.rules.short_name),
        built_with=np.str_(corpus.built_with),
    )
    temporary.replace(path)


def read_corpus(path: Path, rules: Rules) -> Corpus:
    with np.load(path) as data:
        if str(data["rules"]) != rules.short_name:
            raise ValueError(f"{path} holds a corpus for {data['rules']}, not {rules.short_name}")
        arrays = {name: data[name] for name in ("positions", "dice", "play_counts", "after", "game", "ply")}
        return Corpus(rules=rules, seed=int(data["seed"]), built_with=str(data["built_with"]), **arrays)


def load_corpus(rules: Rules, size: int | None = None, seed: int = DEFAULT_SEED, *,
                cache_dir: Path = CACHE_DIR, rebuild: bool = False, backend: str = "batch",
                progress=None) -> Corpus:
    """The corpus of (rules, size, seed), from the cache or built (and cached)."""
    size = DEFAULT_SIZE if size is None else size
    path = cache_path(rules, size, seed, cache_dir)
    if path.exists() and not rebuild:
        return read_corpus(path, rules)
    corpus = build_corpus(rules, size, seed, backend=backend, progress=progress)
    save_corpus(corpus, path)
    return corpus


def summary(corpus: Corpus) -> str:
    """One line about a corpus: items, games, doubles, passes, mean plays."""
    doubles = float(np.mean(corpus.dice[:, 0] == corpus.dice[:, 1]))
    passes = float(np.mean(corpus.play_counts == 0))
    return (
        f"{corpus.rules.short_name}: {len(corpus):,} items from {len(np.unique(corpus.game)):,} games "
        f"(seed {corpus.seed}, built with {corpus.built_with}); doubles {doubles:.1%}, "
        f"passes {passes:.1%}, mean plays {corpus.play_counts.mean():.1f}, "
        f"max {corpus.play_counts.max()}, total {corpus.total_plays:,}"
    )


def main(argv=None) -> None:
    """Build (or load) the corpora and print a line about each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=DEFAULT_SIZE, help="items per corpus")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--all-rules", action="store_true", help="every rule combination")
    parser.add_argument("--rebuild", action="store_true", help="ignore the cache")
    parser.add_argument("--backend", default="batch", choices=engines.BACKENDS)
    args = parser.parse_args(argv)
    for rules in variants(args.all_rules):
        started = time.perf_counter()
        corpus = load_corpus(rules, args.size, args.seed, rebuild=args.rebuild, backend=args.backend)
        print(f"{summary(corpus)} [{time.perf_counter() - started:.1f} s]")


if __name__ == "__main__":
    main()
