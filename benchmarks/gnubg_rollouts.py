"""The library's rollouts against GNU Backgammon's own (Debian's ``gnubg``)
on twelve positions of different kinds: how far apart the equities are,
and the CPU time each needs for the same standard error.

    python -m benchmarks.gnubg_rollouts reference [--trials 1296] [--jobs 2]   # GNU Backgammon's, slow
    python -m benchmarks.gnubg_rollouts compare [--games 1296] [--network FILE]

**GNU Backgammon's rollouts** (``reference``): ``/usr/games/gnubg -t -q``
is given each position (``set gnubgid``, the side to roll on roll, no
dice) and ``rollout``: ``--trials`` cubeless games, chequer play at 0 ply,
variance reduction and quasi-random dice on, its other rollout settings
its defaults (games stop at its one-sided bear-off database), one thread.
gnubg prints its figures only to a terminal, so it runs under
``script``. The figures (P(win), gammons, backgammons, equity and their
standard errors, for the side to roll) and the CPU time of the rollout
(gnubg's CPU time less that of a run without the rollout) go to
``benchmarks/data/gnubg-rollouts.json``, position by position (a stopped
run keeps the positions it finished and goes on with the others).

**The library's** (``compare``): ``rollout(position, "backgammon",
games=--games, policy=NET, variance_reduction=True, endgames=True,
threads=1)``, NET the shipped network (or ``--network FILE``, with the
endgame tables), on the CPU time of this process. For each position the
table gives both equities with their standard errors, the difference
(target: within 0.03), and the CPU time the library would need to reach
GNU Backgammon's standard error, ``our_time * (our_se / gnubg_se) ** 2``,
over GNU Backgammon's time (target: at most 1/3).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import tempfile
import time
from typing import Any

from bansugoroku_fast import Position, rollout
from bansugoroku_fast.evaluators import NetEvaluator
from bansugoroku_fast.formats.match_id import MatchState, gnubg_id

GNUBG = "/usr/games/gnubg"
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "gnubg-rollouts.json")
#: Within this equity of GNU Backgammon's rollout.
EQUITY_TARGET = 0.03
#: At most this share of GNU Backgammon's CPU time for its standard error.
TIME_TARGET = 1 / 3
#: A standard error below gnubg's last printed decimal: an exact figure.
EXACT = 5e-6


def side(points: dict[int, int], bar: int = 0) -> list[int]:
    """A row: borne off, points 1..24 (the side's own numbering), the bar."""
    row = [0] * 26
    for point, count in points.items():
        row[point] = count
    row[25] = bar
    row[0] = 15 - sum(row[1:])
    return row


#: name -> the position, row 0 to roll (each row in its own numbering).
POSITIONS: dict[str, Position] = {
    "opening": Position.initial("backgammon"),
    "middle game": Position([side({24: 2, 13: 4, 8: 3, 6: 4, 5: 2}), side({24: 2, 13: 4, 8: 2, 6: 5, 4: 2})]),
    "one back, escaping": Position([side({24: 1, 13: 4, 8: 3, 6: 5, 5: 2}),
                                    side({13: 4, 8: 2, 7: 2, 6: 5, 4: 2})]),
    "back game": Position([side({24: 2, 22: 3, 13: 2, 11: 2, 6: 3, 5: 1, 4: 2}),
                           side({8: 2, 7: 2, 6: 4, 5: 3, 4: 2, 2: 2})]),
    "prime against prime": Position([side({23: 2, 9: 2, 8: 2, 7: 2, 6: 3, 5: 2, 4: 2}),
                                     side({23: 2, 9: 2, 8: 2, 7: 2, 6: 3, 5: 2, 4: 2})]),
    "ace-point game": Position([side({24: 2, 8: 2, 6: 4, 5: 3, 4: 2, 3: 2}),
                                side({6: 3, 5: 3, 4: 2, 3: 2, 2: 2})]),
    "blitz": Position([side({13: 2, 8: 2, 6: 3, 5: 2, 4: 2, 3: 2, 2: 2}), side({13: 5, 8: 3, 6: 5}, bar=2)]),
    "holding game": Position([side({20: 2, 13: 3, 8: 3, 6: 5, 5: 2}), side({10: 2, 8: 3, 7: 2, 6: 5, 4: 3})]),
    "crashed board": Position([side({24: 2, 6: 2, 4: 2, 3: 3, 2: 3, 1: 3}), side({18: 2, 13: 4, 8: 3, 6: 4, 5: 2})]),
    "bear-in": Position([side({8: 2, 7: 3, 6: 4, 5: 3, 4: 3}), side({9: 3, 8: 3, 7: 2, 6: 3, 5: 2, 4: 2})]),
    "long race": Position([side({12: 3, 11: 2, 9: 3, 8: 2, 6: 3, 4: 2}), side({12: 2, 10: 3, 8: 3, 7: 2, 6: 3, 5: 2})]),
    "bear-off": Position([side({6: 3, 5: 3, 4: 2, 3: 2, 2: 2, 1: 1}), side({6: 4, 5: 2, 4: 2, 3: 2, 2: 1})]),
}

#: "Current Position:" then the figures line and the standard errors' line of gnubg's rollout output.
FIGURES = re.compile(r"Current Position:\s*\n\s*([-+\d.\s]+?)\s+CL\s+([-+]?\d*\.\d+)\s*\n\s*\[([-+\d.\s]+?)\s+CL\s+"
                     r"([-+]?\d*\.\d+)\]")


def gnubg_commands(position: Position, trials: int, seed: int) -> str:
    identifier = gnubg_id(position, MatchState(player_on_roll=1, turn=1))
    return "\n".join([
        "set threads 1", "new game", f"set gnubgid {identifier}", f"set rollout trials {trials}",
        "set rollout cubeful off", "set rollout chequerplay plies 0", "set rollout varredn on",
        "set rollout quasirandom on", f"set rollout seed {seed}", "set output digits 5", "rollout", "quit", "y", ""])


def run_gnubg(commands: str) -> tuple[str, float]:
    """gnubg's terminal output for ``commands`` and its CPU seconds (``script`` gives it a terminal)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as file:
        file.write(commands)
    try:
        with tempfile.TemporaryFile("w+") as output:
            child = subprocess.Popen(["script", "-qc", f"{GNUBG} -t -q < {file.name}", "/dev/null"],
                                     stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            _, status, usage = os.wait4(child.pid, 0)     # this child's CPU (with gnubg's), not another job's
            child.returncode = os.waitstatus_to_exitcode(status)     # reaped here: Popen must not wait again
            output.seek(0)
            text = output.read()
    finally:
        os.unlink(file.name)
    return text, usage.ru_utime + usage.ru_stime


def gnubg_rollout(name: str, trials: int, seed: int, startup: float) -> dict[str, Any]:
    output, seconds = run_gnubg(gnubg_commands(POSITIONS[name], trials, seed))
    found = FIGURES.findall(output)
    if not found:
        raise RuntimeError(f"{name}: no rollout figures in gnubg's output:\n{output[-2000:]}")
    figures, equity, errors, equity_error = found[-1]
    win, win_gammon, win_backgammon, _, lose_gammon, lose_backgammon = (
        float(x) for x in figures.replace("-", " ").split())
    return {"position": POSITIONS[name].id, "trials": trials, "seed": seed,
            "probabilities": [win, win_gammon, win_backgammon, lose_gammon, lose_backgammon],
            "equity": float(equity), "stderr": float(equity_error),
            "stderrs": [float(x) for x in errors.replace("-", " ").split()],
            "cpu_seconds": round(max(seconds - startup, 0.0), 2)}


def reference(trials: int, jobs: int, seed: int) -> None:
    kept: dict[str, Any] = {}
    if os.path.exists(DATA):
        with open(DATA) as file:
            kept = json.load(file)
    header = {"gnubg": subprocess.run([GNUBG, "--version"], capture_output=True, text=True).stdout.split("\n")[0],
              "command": f"python -m benchmarks.gnubg_rollouts reference --trials {trials} --jobs {jobs}",
              "settings": "cubeless, chequer play 0 ply, variance reduction, quasi-random dice, one thread, "
                          "its default one-sided bear-off truncation"}
    kept.setdefault("header", header)
    results = kept.setdefault("positions", {})
    _, startup = run_gnubg("quit\ny\n")
    todo = [name for name in POSITIONS if results.get(name, {}).get("trials") != trials]
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        futures = {pool.submit(gnubg_rollout, name, trials, seed, startup): name for name in todo}
        for future in concurrent.futures.as_completed(futures):
            name = futures[future]
            results[name] = future.result()
            print(f"{name}: {results[name]['equity']:+.3f} ± {results[name]['stderr']:.5f} "
                  f"({results[name]['cpu_seconds']} s)", flush=True)
            os.makedirs(os.path.dirname(DATA), exist_ok=True)
            with open(DATA + ".tmp", "w") as file:
                json.dump(kept, file, indent=1)
            os.replace(DATA + ".tmp", DATA)


def compare(games: int, network: str, seed: int) -> None:
    with open(DATA) as file:
        results = json.load(file)["positions"]
    policy: Any = NetEvaluator.load(network, rules="backgammon").with_endgames() if network else "net"
    print(f"| position | gnubg equity ± s.e. | gnubg CPU s | ours ± s.e. ({games} games) | our CPU s | "
          f"difference | within {EQUITY_TARGET} | time for gnubg's s.e. / gnubg's |")
    print("|---|---:|---:|---:|---:|---:|---|---:|")
    misses = {"equity": 0, "time": 0}
    for name, position in POSITIONS.items():
        if name not in results:
            continue
        theirs = results[name]
        began = time.process_time()
        ours = rollout(position, "backgammon", games=games, policy=policy, seed=seed, threads=1,
                       variance_reduction=True, endgames=True)
        seconds = time.process_time() - began
        difference = ours.equity - theirs["equity"]
        ratio = time_ratio(seconds, ours.stderr, theirs["stderr"], theirs["cpu_seconds"])
        close, quick = abs(difference) <= EQUITY_TARGET, ratio <= TIME_TARGET
        misses["equity"] += not close
        misses["time"] += not quick
        print(f"| {name} | {theirs['equity']:+.3f} ± {theirs['stderr']:.5f} | {theirs['cpu_seconds']:.1f} | "
              f"{ours.equity:+.3f} ± {ours.stderr:.5f} | {seconds:.1f} | {difference:+.3f} | "
              f"{'yes' if close else '**no**'} | {ratio:.2f}{'' if quick else ' **no**'} |")
    print(f"\nmisses: {misses['equity']} of equity, {misses['time']} of time")


def time_ratio(seconds: float, ours: float, theirs: float, their_seconds: float) -> float:
    """The CPU time our rollout needs for the standard error ``theirs``
    over GNU Backgammon's time: 0 when ours is exact (below gnubg's five
    printed decimals), inf when only theirs is."""
    if ours < EXACT:
        return 0.0
    if theirs < EXACT or their_seconds <= 0:
        return float("inf")
    return seconds * (ours / theirs) ** 2 / their_seconds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("reference", help="GNU Backgammon's rollouts (slow)")
    make.add_argument("--trials", type=int, default=1296)
    make.add_argument("--jobs", type=int, default=2)
    make.add_argument("--seed", type=int, default=1)
    check = commands.add_parser("compare", help="the library's rollouts against them")
    check.add_argument("--games", type=int, default=1296)
    check.add_argument("--network", default="", help="a network file (default: the shipped network)")
    check.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.command == "reference":
        reference(args.trials, args.jobs, args.seed)
    else:
        compare(args.games, args.network, args.seed)


if __name__ == "__main__":
    main()
