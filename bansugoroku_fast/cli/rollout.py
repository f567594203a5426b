"""``bansugoroku rollout``: play many games from a position and tally them.

A progress bar (tqdm) runs on stderr when it is a terminal (``--no-progress``
turns it off); then a table of outcome rates by side and kind with 95%
intervals and the equity with its standard error, or the same as JSON
(``--json``: the figures with what produced them, position id, rules,
policy, games, seed, stratification, ply cap and library version, and the
command that plays the same games again). ``--plot FILE.png`` draws the
outcome distribution and the running estimate of the equity with its 95%
interval (matplotlib, the ``plot`` extra; any format matplotlib writes),
its path and format checked before the rollout runs.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from collections.abc import Callable
from typing import Any, cast

import numpy as np

from .._files import write_atomically
from ..checks import MAX_PLIES, as_output_file, as_rules, as_stratify, as_threads
from ..errors import InvalidOptionError
from ..games.bulk import as_judging, rollout, rollout_positions, rollout_values, table_settle
from ..games.policies import resolve_policies
from ..games.tallies import KINDS, RolloutResult
from ..typing import PoliciesLike
from ..version import __version__
from .common import (
    SIDE_NAMES,
    Commands,
    add_position_argument,
    add_rollout_options,
    add_rules_argument,
    position_arg,
    rollout_flags,
    rollout_options,
    rules_name,
    whole_number,
)

Z95 = 1.96


def add_parser(commands: Commands) -> None:
    rollout = commands.add_parser("rollout", help="roll out a position: outcome rates and equity")
    add_position_argument(rollout)
    add_rules_argument(rollout)
    rollout.add_argument("--games", type=_positive("games"), default=1296, metavar="N",
                         help="games to play (default 1296)")
    rollout.add_argument("--policy", default="net",
                         help="random, first, heuristic, pubeval, race, net, net1, or a pair for the two sides: "
                              "'heuristic,random' (default net: the shipped network of the rules)")
    rollout.add_argument("--seed", type=_SEED, default=0, metavar="S")
    rollout.add_argument("--threads", type=_positive("threads"), metavar="T",
                         help="threads (default: every core)")
    rollout.add_argument("--stratify", nargs="?", const=36, type=int, choices=(36, 1296),
                         help="deal the first roll (36) or first two rolls (1296) evenly")
    add_rollout_options(rollout)
    rollout.add_argument("--cubeful", action="store_true",
                         help="money play with the cube (backgammon): both sides double, take and pass by the "
                              "policy's network at 0 ply; the figures gain the cubeful equity")
    rollout.add_argument("--json", action="store_true", help="print the figures as JSON")
    rollout.add_argument("--plot", metavar="FILE.png", help="draw the outcomes and the running equity")
    rollout.add_argument("--no-progress", action="store_true", help="no progress bar")
    rollout.set_defaults(run=run_rollout)


def _positive(name: str) -> Callable[[str], int]:
    return whole_number(name, 1, out_of_range=name + ": expected a positive whole number, got {}")


_SEED = whole_number("seed", 0, 2**64 - 1, out_of_range="seed must be in 0 .. 2**64 - 1, got {}")


def policy_argument(text: str) -> PoliciesLike:
    """One policy name, or a comma-separated pair (checked by resolve_policies, which also names
    a list of three or more as no pair)."""
    names = tuple(name.strip() for name in text.split(","))
    return names[0] if len(names) == 1 else cast("PoliciesLike", names)


def _kinds_of(rules: Any) -> list[int]:
    """The outcome kinds these rules can end a game with."""
    names: tuple[str, ...]
    if rules.is_backgammon:
        names = ("single", "gammon", "backgammon")
    else:
        finish = "bear-off" if rules.bears_off else "arrival"
        names = {"multiplied": (finish, "closed-home-x2", "closed-home-x3"),
                 "immediate": (finish, "closure"), "off": (finish,)}[rules.closure]
    return [index for index, kind in enumerate(KINDS) if kind.value in names]


def _rate(count: float, games: int, stderr: float | None = None) -> dict[str, float]:
    """A share of the games with its 95% interval (binomial, or from a
    standard error where games were valued by their chances)."""
    rate = count / games
    margin = Z95 * (stderr if stderr is not None else (rate * (1 - rate) / games) ** 0.5)
    return {"rate": rate, "low": max(rate - margin, 0.0), "high": min(rate + margin, 1.0)}


def figures(result: RolloutResult, rules: Any, stratify: int = 0) -> dict[str, Any]:
    """The machine-readable figures of one rollout (what ``--json`` prints)."""
    games = int(result.games)
    kinds = np.asarray(result.kind_counts)
    counts = np.asarray(result.counts)
    valued = counts.dtype.kind == "f"    # games valued by their chances (endgames, truncate, variance reduction)
    sides = {}
    for seat, side in enumerate(("side_to_move", "opponent")):
        stderr = float(result.win_stderr) if valued else None
        sides[side] = {"wins": _rate(float(counts[seat, 1:].sum()), games, stderr)}
        for kind in [] if valued else _kinds_of(rules):     # kinds: of games played to their end
            sides[side][KINDS[kind].value] = _rate(int(kinds[seat, kind]), games)
    output: dict[str, Any] = {
        "rules": rules.short_name, "games": games, "stratify": stratify, "counts": counts.tolist(),
        "outcomes": sides, "equity": float(result.equity), "stderr": float(result.stderr),
        "mean_plies": float(result.mean_plies), "settled": int(result.settled),
    }
    if result.cubeful_equity is not None:
        output["cubeful"] = {"equity": float(result.cubeful_equity), "stderr": float(result.cubeful_stderr),
                             "passed": int(result.passed), "mean_cube": float(result.mean_cube)}
    if result.gnubg is not None and result.gnubg_stderr is not None:
        errors = result.gnubg_stderr
        output["gnubg"] = {name: {"value": float(value), "stderr": float(errors[name])}
                           for name, value in result.gnubg.items()}
    return output


def _print_table(output: dict[str, Any], title: str) -> None:
    print(title)
    print(f"{'':<30} {'rate':>8}   95% interval")
    for (_side, outcomes), name in zip(output["outcomes"].items(), SIDE_NAMES):
        for kind, rate in outcomes.items():
            label = f"{name} wins" if kind == "wins" else f"  {kind}"
            print(f"{label:<30} {100 * rate['rate']:7.2f}%   {100 * rate['low']:6.2f}% .. {100 * rate['high']:6.2f}%")
    print(f"equity (side to move, cubeless): {output['equity']:+.4f} +- {output['stderr']:.4f} (standard error"
          + (", the plain formula: conservative for a stratified rollout)" if output["stratify"] else ")"))
    if "cubeful" in output:
        cubeful = output["cubeful"]
        print(f"equity (side to move, cubeful, money): {cubeful['equity']:+.4f} +- {cubeful['stderr']:.4f}; "
              f"{cubeful['passed']:,} games ended by a pass, mean cube {cubeful['mean_cube']:.2f}")
    print(f"mean plies per game: {output['mean_plies']:.1f}")
    if output["settled"]:
        print(f"games stopped early and valued by their chances: {output['settled']:,}")


def _matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise SystemExit("error: --plot needs matplotlib: pip install 'bansugoroku-fast[plot]'") from None
    return matplotlib


def plot_target(path: str) -> str:
    """``path`` checked as a plot to write (matplotlib there, a format it
    writes, a writable directory), before any work."""
    from matplotlib.backend_bases import FigureCanvasBase

    _matplotlib()
    formats = ["." + name for name in FigureCanvasBase.get_supported_filetypes()]
    return as_output_file(path, formats, "--plot")


def _plot(values: np.ndarray, path: str, title: str) -> None:
    matplotlib = _matplotlib()
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = np.arange(1, len(values) + 1)
    running = np.cumsum(values) / games
    squares = np.cumsum(values.astype(np.float64) ** 2) / games
    stderr = np.sqrt(np.maximum(squares - running**2, 0) / np.maximum(games - 1, 1))
    figure, (outcomes, estimate) = plt.subplots(1, 2, figsize=(11, 4))
    signed = np.arange(-3, 4)
    if np.array_equal(values, np.rint(values)):
        outcomes.bar(signed, [(values == v).mean() for v in signed], color="tab:blue")
    else:    # games valued where they stopped: any value
        outcomes.hist(values, bins=60, weights=np.full(len(values), 1 / len(values)), color="tab:blue")
    outcomes.set(xlabel="value for the side to move", ylabel="share of games", title="outcomes")
    estimate.plot(games, running, color="tab:blue", label="equity")
    estimate.fill_between(games, running - Z95 * stderr, running + Z95 * stderr, alpha=0.3, label="95% interval")
    estimate.set(xlabel="games", ylabel="equity", title="running estimate")
    estimate.legend()
    figure.suptitle(title)
    figure.tight_layout()
    write_atomically(path, lambda temporary: figure.savefig(temporary, format=os.path.splitext(path)[1][1:].lower()))
    plt.close(figure)


def provenance(position_id: str, rules: Any, args: argparse.Namespace, strata: int) -> dict[str, Any]:
    """What produced a rollout's figures, and the command that plays the
    same games again (the dice depend on the seed and the game number only,
    not on the threads)."""
    command = ["bansugoroku", "rollout", "--position", position_id, "--rules", rules.label,
               "--games", str(args.games), "--policy", args.policy, "--seed", str(args.seed), "--json"]
    if strata:
        command += ["--stratify", str(strata)]
    if args.cubeful:
        command += ["--cubeful"]
    return {"position_id": position_id, "rules": rules.label, "policy": args.policy, "games": args.games,
            "seed": args.seed, "stratify": strata, "max_plies": MAX_PLIES, **rollout_options(args),
            "cubeful": bool(args.cubeful), "version": __version__, "command": shlex.join(command + rollout_flags(args))}


def run_rollout(args: argparse.Namespace) -> int:
    """Roll out the position and print the figures."""
    rules = as_rules(args.rules)
    position = position_arg(args.position)
    policies = resolve_policies(policy_argument(args.policy), rules, callables=True, networks=True)
    threads = as_threads(args.threads)
    judging = as_judging(policies, rules, args.truncate, args.variance_reduction, threads)
    settle = table_settle(rules) if args.endgames else None
    plot = plot_target(args.plot) if args.plot else None
    positions, _ = rollout_positions(position, rules)
    progress = not args.no_progress and sys.stderr.isatty()
    strata = as_stratify(args.stratify)
    if args.cubeful:
        _refuse_with_the_cube(args)
        result = rollout(position, rules, args.games, policy_argument(args.policy), args.seed, threads, progress,
                         stratify=strata or None, cubeful=True)
        values = None
    else:
        tally, values = rollout_values(positions, rules, args.games, policies, args.seed, strata, MAX_PLIES,
                                        threads, None, progress, settle=settle, judging=judging)
        result = tally.results(rules.is_backgammon)[0]
    output = figures(result, rules, strata)
    title = (f"Rollout of {position.id}, {rules_name(rules)} rules: {args.games:,} games, "
             f"policy {args.policy}, seed {args.seed}" + (f", stratified {args.stratify}" if args.stratify else "")
             + (f", {shlex.join(rollout_flags(args))}" if rollout_flags(args) else "")
             + (", cubeful" if args.cubeful else ""))
    if args.json:
        print(json.dumps({"produced_by": provenance(position.id, rules, args, strata), **output}, indent=2))
    else:
        _print_table(output, title)
    if plot and values is not None:
        _plot(values[0], plot, title)
    return 0


def _refuse_with_the_cube(args: argparse.Namespace) -> None:
    """The options a cubeful rollout does not take, refused before any game."""
    given = [flag for flag, value in (("--endgames", args.endgames), ("--truncate", args.truncate),
                                      ("--variance-reduction", args.variance_reduction), ("--plot", args.plot))
             if value]
    if given:
        raise InvalidOptionError(f"--cubeful does not combine with {', '.join(given)}")
