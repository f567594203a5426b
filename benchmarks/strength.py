"""Strength as players measure it: cubeless money games, duplicate dice with
seats swapped, mean points per game with its standard error; and the
quality of single moves as GNU Backgammon judges them.

    python -m benchmarks.strength match --rules backgammon --games 20000 net pubeval
    python -m benchmarks.strength match --rules ban/arrival/off --games 20000 net heuristic
    python -m benchmarks.strength match --rules backgammon --games 4000 net gnubg
    python -m benchmarks.strength targets --games 20000          # every strength target, one table
    python -m benchmarks.strength quality --items 2000            # the move-quality table (backgammon)

**Players**: ``"pubeval"``, ``"heuristic"``, ``"random"`` (the package's
policies); ``"net"`` / ``"net1"``: the shipped network of the rules at 0 / 1
ply (``EvaluatorPolicy``); ``"net-0.4.0"``: the Ban-sugoroku network version
0.4.0 shipped (``benchmarks/nets-0.4.0/``, one network per combination,
15,000 self-play games each), at 0 ply; ``PATH.npz`` or ``PATH.npz@1``: a
network file at 0 (or 1) ply; ``"gnubg"`` / ``"gnubg1"``: GNU Backgammon's network through
the ``gnubg-nn`` package at 0 (1) ply, its best move asked position by
position (backgammon only).

**Matches** (:func:`bansugoroku_fast.strength.duplicate_match`): N pairs of
games from the rules' start, the same dice in both games of a pair, the
players' seats swapped; the ppg is A's mean over the 2N games and its
standard error that of the N pair means.

**Move quality**: ``gnubg`` 0-ply plays itself from the start (the dice of
``--seed``); from the positions it reaches (those with a choice of at least
two plays) ``--items`` are drawn at random. Every legal play of each item
is scored by ``gnubg-nn`` at 1 ply (the position after the play, the
opponent on roll, its cubeless equity negated); a player's loss on an item
is the best play's equity minus that of the play it chooses (0 when it
chooses gnubg's 1-ply best). The table gives each player's mean loss in
millipoints with its standard error, and how often it chose the best play.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from tqdm import tqdm

from bansugoroku_fast import Candidates, GameBatch, Rules, generate_plays
from bansugoroku_fast.batch import outcome
from bansugoroku_fast.evaluators import EvaluatorPolicy, NetEvaluator, equity, outcome_probabilities
from bansugoroku_fast.evaluators.nets import network_file
from bansugoroku_fast.games.policies import choose, resolve_policy
from bansugoroku_fast.strength import MatchScore, duplicate_match
from bansugoroku_fast.train.td import BAN_COMBINATIONS

BACKGAMMON = Rules(variant="backgammon")
#: The Ban-sugoroku networks of version 0.4.0, the yardstick of the new ones.
NETS_0_4_0 = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nets-0.4.0")


# --- GNU Backgammon as a player ----------------------------------------------------------------


def gnubg_board(position: np.ndarray) -> list[list[int]]:
    """A gnubg-nn board of an interchange position (row 0 to move):
    ``[opponent, side on roll]``, 25 places each (points 1..24, then the bar)."""
    return [position[1, 1:26].tolist(), position[0, 1:26].tolist()]


def after_steps(position: np.ndarray, steps: Sequence[tuple[int, int]]) -> np.ndarray:
    """The position after gnubg's move ``steps`` ((from, to), 25 = bar,
    0 or less = off), hits included, seen by the mover."""
    board = position.copy()
    for source, target in steps:
        board[0, source] -= 1
        if target <= 0:
            board[0, 0] += 1
            continue
        if board[1, 25 - target] == 1:  # a blot hit: to the opponent's bar
            board[1, 25 - target] = 0
            board[1, 25] += 1
        board[0, target] += 1
    return board


class GnubgPlayer:
    """GNU Backgammon's best move (``gnubg_nn.best_move`` at ``plies``),
    a :class:`~bansugoroku_fast.strength.MovePicker`."""

    def __init__(self, plies: int = 0) -> None:
        import gnubg_nn

        self.gnubg = gnubg_nn
        self.plies = plies

    def pick(self, wave: Candidates) -> np.ndarray:
        choices = np.zeros(len(wave.games), dtype=np.int64)
        for i in range(len(wave.games)):
            first, last = int(wave.offsets[i]), int(wave.offsets[i + 1])
            if last - first > 1:
                choices[i] = self.choice(wave.positions[i], wave.dice[i], wave.children[first:last])
        return choices

    def choice(self, position: np.ndarray, dice: np.ndarray, children: np.ndarray) -> int:
        move = self.gnubg.best_move(gnubg_board(position), int(dice[0]), int(dice[1]), n=self.plies)
        target = after_steps(position, move)
        match = np.flatnonzero((children == target).all(axis=(1, 2)))
        if match.size != 1:
            raise RuntimeError(f"gnubg's move {move} with {dice.tolist()} is not one of the legal plays")
        return int(match[0])

    def __repr__(self) -> str:
        return f"gnubg-nn {self.plies}-ply"


# --- players by name ------------------------------------------------------------------------------


def player(name: str, rules: Rules) -> Any:
    """The player ``name`` names (see the module) for ``rules``."""
    if name in ("pubeval", "heuristic", "random"):
        return name
    if name in ("net", "net1"):
        return EvaluatorPolicy(NetEvaluator.shipped(rules), ply=1 if name == "net1" else 0, rules=rules)
    if name == "net-0.4.0":
        if rules.is_backgammon:
            raise ValueError("net-0.4.0 is the Ban-sugoroku networks of version 0.4.0")
        return player(os.path.join(NETS_0_4_0, os.path.basename(network_file(rules))), rules)
    if name in ("gnubg", "gnubg1"):
        if not rules.is_backgammon:
            raise ValueError("gnubg plays backgammon only")
        return GnubgPlayer(plies=1 if name == "gnubg1" else 0)
    path, _, ply = name.partition("@")
    if path.endswith(".npz"):
        return EvaluatorPolicy(NetEvaluator.load(path, rules=rules), ply=int(ply or 0), rules=rules)
    raise ValueError(f"unknown player {name!r}: pubeval, heuristic, random, net, net1, gnubg, gnubg1 or PATH.npz[@ply]")


def match(rules: Rules, a: str, b: str, games: int, seed: int) -> tuple[MatchScore, float]:
    """A's score against B over ``games`` games (``games // 2`` pairs) and the wall time."""
    began = time.perf_counter()
    score = duplicate_match(rules, player(a, rules), player(b, rules), games // 2, seed)
    return score, time.perf_counter() - began


# --- the targets --------------------------------------------------------------------------------------

#: (rules, player, opponent, target ppg, whether the player must score more
#: than the target rather than at least it): what the shipped networks must reach.
TARGETS: list[tuple[Rules, str, str, float, bool]] = [
    (BACKGAMMON, "net", "gnubg", 0.0, False),
    (BACKGAMMON, "net", "pubeval", 0.63, False),
    (BACKGAMMON, "net1", "gnubg", 0.10, False),
    *[(rules, a, b, target, beats) for rules in BAN_COMBINATIONS
      for a, b, target, beats in (("net", "net-0.4.0", 0.10, False), ("net1", "net", 0.0, True))],
]


def targets(games: int, seed: int, only: str | None) -> None:
    print("| rules | A | B | games | A's ppg ± s.e. | target | met | wall s |\n|---|---|---|---:|---:|---:|---|---:|")
    for rules, a, b, target, beats in TARGETS:
        if only and only not in f"{rules.short_name} {a} {b}":
            continue
        count = max(games // 10, 4) if a == "net1" else games  # 1-ply plays ten times slower
        score, seconds = match(rules, a, b, count, seed)
        met = "yes" if (score.ppg > target if beats else score.ppg >= target) else "**no**"
        print(f"| {rules.short_name} | {a} | {b} | {score.games} | {score.ppg:+.3f} ± {score.stderr:.3f} | "
              f"{'> ' if beats else ''}{target:+.2f} | {met} | {seconds:.0f} |", flush=True)


# --- move quality ------------------------------------------------------------------------------------


def gnubg_items(items: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``items`` (position, dice) items drawn from games gnubg-nn 0-ply plays
    against itself, each with at least two legal plays."""
    gnubg = GnubgPlayer(0)
    positions: list[np.ndarray] = []
    dice: list[np.ndarray] = []
    batch = GameBatch(BACKGAMMON, max(items // 20, 10), seed=seed, threads=1)
    with tqdm(desc="gnubg self-play", unit="game", total=batch.n) as bar:
        while not batch.done:
            wave = batch.candidates()
            live = np.flatnonzero(wave.games >= 0)
            choices = np.full(batch.n, -1, dtype=np.int64)
            counts = np.diff(wave.offsets)
            for slot in live:
                first, last = int(wave.offsets[slot]), int(wave.offsets[slot + 1])
                choices[slot] = 0
                if counts[slot] > 1:
                    positions.append(wave.positions[slot].copy())
                    dice.append(wave.dice[slot].copy())
                    choices[slot] = gnubg.choice(wave.positions[slot], wave.dice[slot], wave.children[first:last])
            batch.step(choices)
            bar.n = batch.games_finished
            bar.refresh()
    pick = np.random.default_rng(seed).permutation(len(positions))[:items]
    return np.stack(positions)[pick], np.stack(dice)[pick]


def gnubg_equities(children: np.ndarray, plies: int) -> np.ndarray:
    """Cubeless equity of each child for the side that just played it, by
    gnubg-nn at ``plies`` (the opponent on roll); finished children exactly."""
    import gnubg_nn

    ended = outcome(children, BACKGAMMON)
    values = np.empty(len(children))
    for i, child in enumerate(children):
        if ended.winner[i] >= 0:
            values[i] = equity(outcome_probabilities(ended.winner[i:i + 1], ended.value[i:i + 1]))[0]
            continue
        board = [child[0, 1:26].tolist(), child[1, 1:26].tolist()]  # [not on roll, on roll]
        values[i] = -equity(np.array([gnubg_nn.probabilities(board, plies)]))[0]
    return values


Chooser = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def choosers() -> dict[str, Chooser]:
    """Each player's choice for items (positions, dice, offsets, children)."""

    def policy(name: Any) -> Chooser:
        def chooser(positions: np.ndarray, dice: np.ndarray, offsets: np.ndarray, children: np.ndarray) -> np.ndarray:
            zeros = np.zeros(len(positions), dtype=np.int64)
            resolved = resolve_policy(name, BACKGAMMON, callables=True)
            return choose(resolved, positions, offsets, children, BACKGAMMON, 0, zeros, zeros)

        return chooser

    def gnubg(positions: np.ndarray, dice: np.ndarray, offsets: np.ndarray, children: np.ndarray) -> np.ndarray:
        wave = Candidates(offsets, children, positions, dice, np.zeros(len(positions), np.int64),
                          np.zeros(len(positions), np.int64))
        return GnubgPlayer(0).pick(wave)

    found: dict[str, Chooser] = {}
    try:
        found["net"] = policy(player("net", BACKGAMMON))
        found["net1"] = policy(player("net1", BACKGAMMON))
    except ValueError as error:
        print(f"no shipped backgammon network ({error}): net and net1 left out", file=sys.stderr)
    found.update({"pubeval": policy("pubeval"), "heuristic": policy("heuristic"), "gnubg-nn 0-ply": gnubg})
    return found


def quality(items: int, seed: int) -> None:
    positions, dice = gnubg_items(items, seed)
    plays = generate_plays(positions, dice, BACKGAMMON, fields=("children",))
    offsets, children = plays.offsets, plays.children
    scores = np.concatenate([gnubg_equities(children[offsets[i]:offsets[i + 1]], 1)
                             for i in tqdm(range(len(positions)), desc="gnubg 1-ply scores", unit="item")])
    best = np.maximum.reduceat(scores, offsets[:-1])
    print(f"\nMove quality on {len(positions)} items from gnubg-nn 0-ply self-play (seed {seed}); "
          "loss = gnubg-nn 1-ply equity of its best play minus that of the play chosen, in millipoints\n")
    print("| player | mean loss (mp) ± s.e. | best play chosen |\n|---|---:|---:|")
    for name, chooser in choosers().items():
        chosen = chooser(positions, dice, offsets, children)
        loss = 1000 * (best - scores[offsets[:-1] + chosen])
        print(f"| {name} | {loss.mean():.1f} ± {loss.std(ddof=1) / math.sqrt(len(loss)):.1f} | "
              f"{100 * np.mean(loss < 1e-9):.1f}% |", flush=True)


# --- the command line ---------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    one = commands.add_parser("match", help="one match: A against B")
    one.add_argument("a")
    one.add_argument("b")
    one.add_argument("--rules", default="backgammon")
    one.add_argument("--games", type=int, default=20000, help="games in all (half as many pairs)")
    one.add_argument("--seed", type=int, default=1)
    every = commands.add_parser("targets", help="every target of the shipped networks, one table")
    every.add_argument("--games", type=int, default=20000)
    every.add_argument("--seed", type=int, default=1)
    every.add_argument("--only", help="only the rows whose 'rules A B' contain this text")
    moves = commands.add_parser("quality", help="the move-quality table")
    moves.add_argument("--items", type=int, default=2000)
    moves.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", file=sys.stderr)
    if args.command == "match":
        rules = Rules.parse(args.rules)
        score, seconds = match(rules, args.a, args.b, args.games, args.seed)
        print(f"{rules.short_name}: {args.a} against {args.b}: {score} (seed {args.seed}, {seconds:.0f} s)")
    elif args.command == "targets":
        targets(args.games, args.seed, args.only)
    else:
        quality(args.items, args.seed)


if __name__ == "__main__":
    main()
