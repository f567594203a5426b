"""``bansugoroku conformance``: export the corpus, check an engine against it.

    bansugoroku conformance export DIR
    bansugoroku conformance check --engine module:function [--rules R] [--limit N] [--no-perft]
    bansugoroku conformance check --command "CMD" [--timeout S] ...

``check`` exits with status 1 on any disagreement (a crash or a hang too).
"""
from __future__ import annotations

import argparse

from ..checks import as_output_directory
from ..formats.conformance.checker import check_engine
from ..formats.conformance.corpus import export_corpus, load_corpus
from ..formats.conformance.engines import DEFAULT_TIMEOUT, CommandEngine, Engine, load_python_engine
from ..rules import Rules


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    conformance = commands.add_parser("conformance", help="the conformance kit for other engines")
    actions = conformance.add_subparsers(dest="conformance_command", required=True, metavar="ACTION")
    export = actions.add_parser("export", help="write the corpus files and their README into DIR")
    export.add_argument("directory", metavar="DIR")
    export.set_defaults(run=run_export)
    check = actions.add_parser("check", help="run an engine over the corpus and report")
    engine = check.add_mutually_exclusive_group(required=True)
    engine.add_argument("--engine", metavar="MODULE:FUNCTION",
                        help="a Python callable (position int8[2, 26], dice, rules) -> resulting positions")
    engine.add_argument("--command", metavar="CMD", help="a program speaking the line protocol of the README")
    check.add_argument("--rules", action="append", metavar="RULES",
                       help="only these rule sets (repeatable; default: all seven)")
    check.add_argument("--limit", type=int, metavar="N", help="only the first N items of each rule set")
    check.add_argument("--no-perft", action="store_true", help="skip the perft counts")
    check.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="S",
                       help=f"seconds a command engine may take per request (default {DEFAULT_TIMEOUT:g})")
    check.set_defaults(run=run_check)


def run_export(args: argparse.Namespace) -> int:
    written = export_corpus(as_output_directory(args.directory, "conformance export DIR"))
    print(f"wrote {len(written)} files into {args.directory}: " + ", ".join(path.name for path in written))
    return 0


def _engine(args: argparse.Namespace) -> Engine:
    if args.engine:
        try:
            return load_python_engine(args.engine)
        except ValueError as error:
            raise SystemExit(f"error: {error}") from None
    try:
        return CommandEngine(args.command, timeout=args.timeout)
    except (OSError, ValueError) as error:
        raise SystemExit(f"error: cannot start {args.command!r}: {error}") from None


def run_check(args: argparse.Namespace) -> int:
    """Run the engine over the corpus; 0 when it agrees everywhere, else 1."""
    rules_sets = [Rules.parse(text) for text in args.rules] if args.rules else None
    items, perfts = load_corpus(rules_sets)
    if args.limit is not None:
        kept: dict[Rules, int] = {}
        limited = []
        for item in items:
            kept[item.rules] = kept.get(item.rules, 0) + 1
            if kept[item.rules] <= args.limit:
                limited.append(item)
        items = limited
    engine = _engine(args)
    try:
        report = check_engine(engine, items, [] if args.no_perft else perfts)
    finally:
        engine.close()
    print(report.render())
    return 0 if report.ok else 1
