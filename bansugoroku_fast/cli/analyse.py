"""``bansugoroku analyse``: judge every decision of match files, as GNU
Backgammon's analysis does.

    bansugoroku analyse FILE.mat ... [--ply N] [--json] [--report FILE.html] [--plot FILE.png]
                        [--rules RULES] [--evaluator net] [--threads T] [--no-progress]

Prints each file's statistics (unforced decisions, errors, error rate in
millipoints per decision, luck, rating) and its marked decisions worst
first; ``--json`` prints :meth:`Analysis.to_json
<bansugoroku_fast.analysis.Analysis.to_json>` instead (a list of them for
several files). ``--report`` writes an HTML page with the board of each
marked decision and the equity through each game; ``--plot`` draws that
equity (matplotlib, the ``plot`` extra). Both paths are checked before any
work, and written whole or not at all. Several files are analysed on
threads, each file's figures the same as alone.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ..analysis import report
from ..checks import as_rules
from ..errors import InvalidOptionError, MatchFileError
from ..evaluators.network import as_threads
from ..formats.mat import MatchRecord, read_match
from .common import RULES_HELP, Commands, whole_number


def add_parser(commands: Commands) -> None:
    analyse = commands.add_parser("analyse", help="judge every play and cube decision of match files",
                                  aliases=["analyze"])
    analyse.add_argument("files", nargs="+", metavar="FILE.mat", help="match files (.mat)")
    analyse.add_argument("--ply", type=whole_number("ply", 0, 2, out_of_range="ply must be 0, 1 or 2, got {}"),
                         default=0, help="the plies the plays are searched to (0, 1 or 2; default 0)")
    analyse.add_argument("--evaluator", default="net", help="the evaluator: net (the shipped network; the default)")
    analyse.add_argument("--rules", default=None,
                         help="the rules of files without a Variant header (default backgammon): " + RULES_HELP)
    analyse.add_argument("--threads", type=whole_number("threads", 1, out_of_range="threads must be 1 or more, got {}"),
                         metavar="T", help="threads (default: every core)")
    analyse.add_argument("--json", action="store_true", help="print the analysis as JSON")
    analyse.add_argument("--report", metavar="FILE.html", help="write an HTML report with the boards of the errors")
    analyse.add_argument("--plot", metavar="FILE.png", help="plot the equity through each game")
    analyse.add_argument("--no-progress", action="store_true", help="no progress bar")
    analyse.set_defaults(run=run_analyse)


def _read(file: str, rules: Any) -> MatchRecord:
    """The match file at ``file``; any problem is a MatchFileError naming the file."""
    try:
        return read_match(Path(file), rules=rules)
    except OSError as error:
        raise MatchFileError(f"{file}: cannot read it: {error.strerror or error}") from None
    except MatchFileError as error:
        raise MatchFileError(f"{file}: {error.message}", error.line, error.column) from None


def _core() -> Any:
    """:mod:`bansugoroku_fast.analysis.core`, loaded late: it stands on the
    searches' ten levels, and an import here would put the command above them."""
    return importlib.import_module("bansugoroku_fast.analysis.core")


def _analyser() -> Callable[..., Any]:
    """:func:`bansugoroku_fast.analysis.analyse`."""
    function: Callable[..., Any] = _core().analyse
    return function


def run_analyse(args: argparse.Namespace) -> int:
    """Analyse the files and print the figures; write the report and the plot."""
    known = _core().EVALUATOR_NAMES
    if args.evaluator not in known:
        names = ", ".join(known)
        raise InvalidOptionError(f"--evaluator: unknown evaluator {args.evaluator!r}; the names are {names}")
    target = report.report_target(args.report) if args.report else None
    plot = report.plot_target(args.plot) if args.plot else None
    rules = as_rules(args.rules) if args.rules is not None else None
    threads = as_threads(args.threads)
    records = [_read(file, rules) for file in args.files]
    analyse = _analyser()
    show = not args.no_progress and sys.stderr.isatty()
    if len(records) == 1:
        analyses = [analyse(records[0], args.evaluator, ply=args.ply, threads=threads, progress=show,
                            source=args.files[0])]
    else:
        def one(item: tuple[str, MatchRecord]) -> Any:
            return analyse(item[1], args.evaluator, ply=args.ply, threads=1, source=item[0])

        with ThreadPoolExecutor(max_workers=min(threads, len(records))) as pool:
            results = pool.map(one, zip(args.files, records))
            if show:
                from tqdm import tqdm
                results = tqdm(results, total=len(records), desc="files", leave=False)
            analyses = list(results)
    if args.json:
        if len(analyses) == 1:
            print(analyses[0].to_json())
        else:
            print("[\n" + ",\n".join(a.to_json() for a in analyses) + "\n]")
    else:
        print("\n\n".join(report.summary(a) for a in analyses))
    if target:
        report.write_report(target, analyses)
    if plot:
        report.plot_equity(analyses, plot)
    return 0
