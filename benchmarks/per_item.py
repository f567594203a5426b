"""The batch kernels per item: one call to profile, or fresh output against out= buffers.

    python -m benchmarks.per_item call {count,generate,children,out} {ban,backgammon} [--size 20000]
    python -m benchmarks.per_item faults [--size 50000] [--repeats 5]

``call`` makes one batch call on the corpus of one rule set (one thread;
``out`` generates every field twice into the same ``out=`` buffers, the
first call touching their pages), for callgrind to count with only the
kernel entry point collected (``benchmarks/README.md``, ``per_item``)::

    valgrind --tool=callgrind --collect-atstart=no \\
        '--toggle-collect=__pyx_pw_*_batch_*generate_batch' \\
        "$(python -c 'import sys; print(sys.executable)')" -m benchmarks.per_item call generate ban

``faults`` times ``generate_plays`` into fresh arrays (their block straight
from the OS, and recycled from the call before: ``batch.set_output_recycling``)
against ``out=`` buffers in one run (best of the repeats, wall ns per item)
with the minor page faults of each call (``resource.getrusage``, Linux and
macOS): the cost of fresh output that callgrind, which counts user-space
instructions only, does not see.
"""
from __future__ import annotations

import resource
import time
from collections.abc import Callable

from bansugoroku_fast import Rules, batch

from .corpus import Corpus, load_corpus
from .timing import load_noted, not_recycled, script_parser

CALLS = ("count", "generate", "children", "out")
VARIANTS = {"ban": Rules(), "backgammon": Rules(variant="backgammon")}


def one_call(call: str, corpus: Corpus) -> None:
    """The kernel call named ``call`` on every item of ``corpus``, one thread."""
    positions, dice, rules = corpus.positions, corpus.dice, corpus.rules
    if call == "count":
        batch.count_plays(positions, dice, rules, threads=1)
    elif call == "out":
        buffers = batch.play_buffers(len(corpus), corpus.total_plays)
        for _ in range(2):
            batch.generate_plays(positions, dice, rules, threads=1, out=buffers)
    else:
        fields = ("children",) if call == "children" else batch.FIELDS
        batch.generate_plays(positions, dice, rules, threads=1, fields=fields)


def timed_faults(function: Callable[[], object]) -> tuple[float, int]:
    """Seconds and minor page faults of one call of ``function``."""
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    start = time.perf_counter()
    function()
    seconds = time.perf_counter() - start
    return seconds, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults


OUTPUTS = ("from the OS", "recycled", "out=")


def fresh_against_out(corpus: Corpus, fields: tuple[str, ...], repeats: int) -> dict[str, tuple[float, int]]:
    """Best seconds (with that call's faults) of generating into each of
    :data:`OUTPUTS`, alternated."""
    buffers = batch.play_buffers(len(corpus), corpus.total_plays, fields)
    args = (corpus.positions, corpus.dice, corpus.rules)

    def fresh() -> object:
        return batch.generate_plays(*args, threads=1, fields=fields)

    calls: dict[str, Callable[[], object]] = {
        "from the OS": not_recycled(fresh),
        "recycled": fresh,
        "out=": lambda: batch.generate_plays(*args, threads=1, fields=fields, out=buffers),
    }
    best: dict[str, tuple[float, int]] = {}
    for _ in range(repeats):
        for name, call in calls.items():
            figure = timed_faults(call)
            if name not in best or figure[0] < best[name][0]:
                best[name] = figure
    return best


def print_faults(size: int, repeats: int) -> None:
    """The ``faults`` table, one line per rule set and fields."""
    print("| rule set, fields |" + "".join(f" {output}: ns, faults per item |" for output in OUTPUTS)
          + " from the OS / out= | recycled / out= |")
    print("|---|" + "---|" * (len(OUTPUTS) + 2))
    for name, rules in VARIANTS.items():
        corpus = load_corpus(rules, size)
        for fields, label in ((batch.FIELDS, "every field"), (("children",), "children only")):
            best = fresh_against_out(corpus, fields, repeats)
            cells = "".join(f" {best[k][0] / size * 1e9:,.0f}, {best[k][1] / size:.3f} |" for k in OUTPUTS)
            ratios = "".join(f" {best[k][0] / best['out='][0]:.2f}x |" for k in OUTPUTS[:2])
            print(f"| {name}, {label} |{cells}{ratios}")


def main(argv: list[str] | None = None) -> None:
    parser = script_parser(__doc__, size=None, repeats=5)
    parser.add_argument("what", choices=("call", "faults"))
    parser.add_argument("call", nargs="?", choices=CALLS, default="generate")
    parser.add_argument("variant", nargs="?", choices=tuple(VARIANTS), default="ban")
    parser.add_argument("--size", type=int, default=None, help="corpus items (20,000 for call, 50,000 for faults)")
    args = parser.parse_args(argv)
    if args.what == "call":
        one_call(args.call, load_corpus(VARIANTS[args.variant], args.size or 20_000))
    else:
        with load_noted():
            print_faults(args.size or 50_000, args.repeats)


if __name__ == "__main__":
    main()
