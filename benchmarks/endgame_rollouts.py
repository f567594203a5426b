"""Rollouts that stop at the exact endgame tables against the same rollouts
played out: the same mean, a smaller standard error, fewer plies.

For documented race and late-contact positions, ``rollout(position, rules,
games, policy="race", seed=1)`` played out and with ``endgames=True``:
each one's equity, its standard error, the plies per game and the games
stopped at the tables; and, since game ``g`` of both is the same game up to
the stop, the paired difference of the two per game (its mean and standard
error: the played-out rollout's error that the stop removes). The ``"race"``
policy plays races as the tables do, so both estimate the same equity.

    python -m benchmarks.endgame_rollouts --games 5184
"""
from __future__ import annotations

import argparse

import numpy as np

from bansugoroku_fast import Position, rollout
from bansugoroku_fast.checks import MAX_PLIES
from bansugoroku_fast.games.bulk import rollout_values, table_settle
from bansugoroku_fast.games.policies import resolve_policies
from bansugoroku_fast.rules import Rules


def board(row0: list[int], row1: list[int]) -> Position:
    """A position from each row's stones on points 0 (off or home), 1, 2, ..."""
    return Position([row0 + [0] * (26 - len(row0)), row1 + [0] * (26 - len(row1))])


#: name: (rules, position)
CASES = {
    "backgammon race in the tables (15 v 15 on 1..6)":
        ("backgammon", board([0, 3, 3, 3, 2, 2, 2], [0, 2, 2, 3, 3, 3, 2])),
    "backgammon race, stones on 7..9":
        ("backgammon", board([0, 2, 2, 2, 2, 2, 1, 2, 1, 1], [0, 2, 2, 2, 2, 2, 2, 1, 1, 1])),
    "backgammon late contact, one back stone":
        ("backgammon", board([0, 3, 3, 2, 2, 2, 2] + [0] * 13 + [1], [0, 3, 3, 3, 3, 0, 2, 0, 1])),
    "Ban-sugoroku (arrival) late contact, one back stone":
        ("ban-sugoroku", board([0, 5, 0, 0, 0, 0, 0, 2, 2, 2, 2, 1] + [0] * 8 + [1],
                               [0, 3, 2, 2, 0, 0, 0, 0, 0, 2, 2, 2, 2])),
}


def paired_difference(position: Position, rules: Rules, games: int, seed: int) -> tuple[float, float]:
    """Mean and standard error of (played-out value - stopped value), game by game."""
    policies = resolve_policies("race", rules, callables=True)
    arguments = (position.array[None], rules, games, policies, seed, 0, MAX_PLIES, 1, None, False)
    _, played = rollout_values(*arguments)
    _, stopped = rollout_values(*arguments, settle=table_settle(rules))
    difference = played[0].astype(np.float64) - stopped[0]
    return float(difference.mean()), float(difference.std(ddof=1) / np.sqrt(games))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=5184)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args(argv)
    print(f"| position | id | played out: equity ± s.e. | plies | endgames=True: equity ± s.e. | plies "
          f"| stopped | paired difference ± s.e. |  ({arguments.games} games, policy race, seed {arguments.seed})")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for name, (label, position) in CASES.items():
        rules = Rules.parse(label)
        out, stop = (rollout(position, rules, games=arguments.games, policy="race", seed=arguments.seed,
                             threads=1, endgames=endgames) for endgames in (False, True))
        mean, error = paired_difference(position, rules, arguments.games, arguments.seed)
        print(f"| {name} | `{position.id}` | {out.equity:+.4f} ± {out.stderr:.4f} | {out.mean_plies:.1f} "
              f"| {stop.equity:+.4f} ± {stop.stderr:.4f} | {stop.mean_plies:.1f} | {stop.settled} "
              f"| {mean:+.4f} ± {error:.4f} |")


if __name__ == "__main__":
    main()
