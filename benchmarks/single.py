"""Time single ``legal_plays`` calls from Python against gnubg-nn's ``moves()``.

On the same backgammon random-playout items (the corpus of
``benchmarks.corpus``), one run, the measures interleaved, best of
``--repeats``, ns per item:

* ``gnubg-nn``: ``moves = gnubg_nn.moves(board, d1, d2); len(moves)``, then
  a loop over ``moves`` (its board is converted before the timing);
* ``legal_plays + iteration``: ``plays = legal_plays(position, dice, rules);
  len(plays)``, then a loop over ``plays``: gnubg-nn's tuple holds one key
  per resulting position, and our sequence makes one ``Play`` per resulting
  position as the loop reaches it (its steps and position decode on first
  access, as gnubg-nn's keys decode with ``board_from_position_key``); this
  is the measure the target (at most 0.45x gnubg-nn) is about;
* ``legal_plays + len``: the call and ``len()`` alone (no play is made);
* ``legal_plays + play.position``: the loop also reads each play's
  resulting ``Position`` (more than gnubg-nn's keys give);
* ``legal_play_count``: the plain cost of counting the plays.

    python -m benchmarks.single --items 20000 --repeats 7
"""
from __future__ import annotations

from collections.abc import Callable

from bansugoroku_fast import Rules, legal_plays
from bansugoroku_fast.moves import legal_play_count

from . import corpus as corpus_module
from . import timing

BACKGAMMON = Rules(variant="backgammon")
#: The project's target: ``legal_plays`` with ``len()`` and iteration at most
#: this times gnubg-nn's ``moves()`` with the same.
TARGET = 0.45


def _loops(sample: corpus_module.Corpus) -> dict[str, Callable[[], None]]:
    """One function per measure, each doing every item of ``sample``."""
    from .peers import GnubgNN

    peer = GnubgNN()
    boards = [(peer.board(position), int(roll[0]), int(roll[1]))
              for position, roll in zip(sample.positions, sample.dice)]
    items = sample.items()

    def gnubg() -> None:
        for board, a, b in boards:
            moves = peer.lib.moves(board, a, b)
            len(moves)
            for _ in moves:
                pass

    def iteration() -> None:
        for position, dice in items:
            plays = legal_plays(position, dice, BACKGAMMON)
            len(plays)
            for _ in plays:
                pass

    def length() -> None:
        for position, dice in items:
            len(legal_plays(position, dice, BACKGAMMON))

    def positions() -> None:
        for position, dice in items:
            plays = legal_plays(position, dice, BACKGAMMON)
            len(plays)
            for play in plays:
                _ = play.position

    def count() -> None:
        for position, dice in items:
            legal_play_count(position, dice, BACKGAMMON)

    return {
        "gnubg-nn moves() + iteration": gnubg,
        "legal_plays + iteration": iteration,
        "legal_plays + len": length,
        "legal_plays + play.position": positions,
        "legal_play_count": count,
    }


def best_ns(loops: dict[str, Callable[[], None]], items: int, repeats: int) -> dict[str, float]:
    """The best (least) wall ns per item of each loop over ``repeats``
    interleaved rounds (one untimed round first)."""
    figures = timing.interleaved_figures({name: (loop, items) for name, loop in loops.items()},
                                         repeats=repeats, summary=min)
    return {name: figure.wall for name, figure in figures.items()}


def markdown(best: dict[str, float]) -> str:
    """The table: ns per item and the ratio to gnubg-nn's time."""
    yardstick = best["gnubg-nn moves() + iteration"]
    lines = ["| measure | ns per item | time / gnubg-nn's |", "|---|---:|---:|"]
    lines += [f"| {name} | {ns:,.0f} | {ns / yardstick:.2f}x |" for name, ns in best.items()]
    ratio = best["legal_plays + iteration"] / yardstick
    lines += ["", f"Target: legal_plays + iteration at most {TARGET}x gnubg-nn's: "
                  f"{'met' if ratio <= TARGET else 'missed'} ({ratio:.2f}x)."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = timing.script_parser(__doc__, repeats=7)
    parser.add_argument("--items", type=int, default=20_000, help="backgammon corpus items timed")
    args = parser.parse_args(argv)
    sample = corpus_module.load_corpus(BACKGAMMON).head(args.items)
    with timing.load_noted():
        best = best_ns(_loops(sample), len(sample), args.repeats)
    print(markdown(best))


if __name__ == "__main__":
    main()
