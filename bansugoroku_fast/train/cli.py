"""The command line of training: ``python -m bansugoroku_fast.train td ...``
(TD(λ) self-play; ``td`` may be left out) and ``... rollouts ...``
(rounds of rollout targets and fits)."""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Sequence
from typing import Any

from ..evaluators.encoding import ENCODINGS
from ..evaluators.network import ACTIVATIONS
from ..rules import Rules
from .rollouts import KINDS, TARGETS, RoundsConfig, train_on_rollouts
from .td import td_main

__all__ = ["main", "rollouts_main"]


def _rollouts_parser() -> argparse.ArgumentParser:
    defaults: dict[str, Any] = {field.name: field.default for field in dataclasses.fields(RoundsConfig)}
    parser = argparse.ArgumentParser(prog="python -m bansugoroku_fast.train rollouts",
                                     description="Train a network on rollouts, round after round, in a folder "
                                                 "(run the same command again to go on).")
    parser.add_argument("--rules", required=True, help="a rules label: backgammon, ban/arrival/multiplied, ...")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--folder", required=True, help="the run's folder (made if missing)")
    parser.add_argument("--rounds", type=int, required=True, help="rounds in all (a resumed run may raise it)")
    parser.add_argument("--start", default="", help="a network file to start from (default: random weights)")
    parser.add_argument("--hidden", type=int, nargs="+", default=list(defaults["hidden"]))
    parser.add_argument("--activation", choices=ACTIVATIONS, default=defaults["activation"])
    parser.add_argument("--encoding", choices=tuple(ENCODINGS), default=defaults["encoding"])
    parser.add_argument("--games", type=int, default=defaults["games"], help="self-play games a round")
    parser.add_argument("--positions", type=int, default=defaults["positions"], help="positions a round")
    parser.add_argument("--disagreement", type=float, default=defaults["disagreement"],
                        help="share of the positions from where two networks choose differently")
    parser.add_argument("--target", choices=TARGETS, default=defaults["target"])
    parser.add_argument("--rollout-games", type=int, default=defaults["rollout_games"])
    parser.add_argument("--truncate", type=int, default=defaults["truncate"], help="plies (0: played out)")
    parser.add_argument("--chunk", type=int, default=defaults["chunk"], help="positions a task")
    parser.add_argument("--window", type=int, default=defaults["window"], help="rounds of targets each fit uses")
    parser.add_argument("--epochs", type=int, default=defaults["epochs"])
    parser.add_argument("--minibatch", type=int, default=defaults["minibatch"])
    parser.add_argument("--rate", type=float, default=defaults["rate"])
    parser.add_argument("--eval-games", type=int, default=defaults["eval_games"],
                        help="duplicate pairs a round against each opponent")
    parser.add_argument("--kind", choices=KINDS, default=defaults["kind"],
                        help="race: train the race network of the --contact network")
    parser.add_argument("--contact", default=defaults["contact"],
                        help="with --kind race: the network file whose race network the run trains")
    parser.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)),
                        help="processes making targets (default: every core)")
    parser.add_argument("--scheduler", help="a Dask scheduler's address: the targets run on its workers")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def rollouts_main(argv: Sequence[str] | None = None) -> int:
    """The ``rollouts`` command line; returns the exit status (2 for bad arguments)."""
    args = _rollouts_parser().parse_args(argv)
    try:
        config = RoundsConfig(
            rules=Rules.parse(args.rules), seed=args.seed, rounds=args.rounds, start=args.start,
            hidden=tuple(args.hidden), activation=args.activation, encoding=args.encoding, games=args.games,
            positions=args.positions, disagreement=args.disagreement, target=args.target,
            rollout_games=args.rollout_games, truncate=args.truncate, chunk=args.chunk, window=args.window,
            epochs=args.epochs, minibatch=args.minibatch, rate=args.rate, eval_games=args.eval_games,
            kind=args.kind, contact=args.contact)
        client = None
        if args.scheduler:
            from distributed import Client

            client = Client(args.scheduler)
        run = train_on_rollouts(config, args.folder, workers=args.workers, client=client, progress=not args.quiet)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    last = run.curve[-1]
    scores = " ".join(f"{name} {value[0]:+.3f}±{value[1]:.3f}" for name, value in last.items()
                      if isinstance(value, list))
    print(f"{run.rounds_done} rounds; network in {os.path.join(args.folder, 'net.npz')}; last round: {scores}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``td`` or ``rollouts`` (the first argument; without it, ``td``)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments and arguments[0] == "rollouts":
        return rollouts_main(arguments[1:])
    if arguments and arguments[0] == "td":
        arguments = arguments[1:]
    return td_main(arguments)
