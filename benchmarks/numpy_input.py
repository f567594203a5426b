"""Single ``legal_plays`` calls given numpy input against the typed call.

Items of the random-playout corpus of each default rule set
(``benchmarks.corpus``), the measures interleaved in one run, median of
``--repeats``, ns per item:

* ``typed``: ``legal_plays(Position, (a, b), Rules)`` (the values made
  before the timing), the fastest form;
* ``numpy``: ``legal_plays(int8[2, 26] array, int8[2] array, "label")``,
  what a caller holding rows of a numpy batch passes;
* ``numpy, Rules``: the same with a ``Rules`` instead of the label;
* ``int64 numpy``: the rows as ``int64[2, 26]`` (numpy's default integer),
  which take the general conversion.

The ratio of each to ``typed`` is printed; the target is ``numpy`` at most
2x ``typed``.

    python -m benchmarks.numpy_input --items 5000 --repeats 7
"""
from __future__ import annotations

from collections.abc import Callable

from bansugoroku_fast import Position, legal_plays

from . import corpus as corpus_module
from . import timing

TARGET = 2.0


def measures(sample: corpus_module.Corpus) -> dict[str, tuple[Callable[[], None], int]]:
    """One function per measure, each calling ``legal_plays`` on every item."""
    rules = sample.rules
    typed = [(Position(board), (int(dice[0]), int(dice[1])), rules) for board, dice in zip(sample.positions,
                                                                                           sample.dice)]
    boards = [board.copy() for board in sample.positions]
    dice = [roll.copy() for roll in sample.dice]
    label = rules.label
    arrays = [(board, roll, label) for board, roll in zip(boards, dice)]
    with_rules = [(board, roll, rules) for board, roll in zip(boards, dice)]
    wide = [(board.astype("int64"), roll, rules) for board, roll in zip(boards, dice)]
    count = len(typed)
    return {name: (timing.loop_over(legal_plays, items), count) for name, items in
            (("typed", typed), ("numpy", arrays), ("numpy, Rules", with_rules), ("int64 numpy", wide))}


def main(argv: list[str] | None = None) -> None:
    parser = timing.script_parser(__doc__, repeats=7)
    parser.add_argument("--items", type=int, default=5000, help="corpus items per rule set")
    args = parser.parse_args(argv)
    with timing.load_noted():
        for rules in corpus_module.DEFAULT_VARIANTS:
            sample = corpus_module.load_corpus(rules).head(args.items)
            figures = timing.interleaved_figures(measures(sample), args.repeats)
            base = figures["typed"].wall
            print(f"{rules.short_name}: {len(sample)} items, ns per call (median of {args.repeats}), ratio to typed")
            for name, figure in figures.items():
                print(f"  {name:<14} {figure.wall:8.0f} ns   {figure.wall / base:5.2f}x")
            verdict = "met" if figures["numpy"].wall <= TARGET * base else "NOT met"
            print(f"  target numpy <= {TARGET}x typed: {verdict}")


if __name__ == "__main__":
    main()
