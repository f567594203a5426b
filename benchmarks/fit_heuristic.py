"""Tune the weights of the ``"heuristic"`` policy (reproduces the numbers
shipped in ``bansugoroku_fast/policies.py``).

    python -m benchmarks.fit_heuristic --rules backgammon
    python -m benchmarks.fit_heuristic --rules ban-sugoroku --steps 40 --seed 2

A seeded hill climb in numpy on head-to-head results. The weights are
symmetric (row 1's are minus row 0's) and ``won`` stays at 100, so that a
winning play is always taken; the search moves row 0's other thirteen
weights. Each step scales one weight (or flips a zero one to a small value)
and plays the candidate against the incumbent, half the games in each seat,
both halves on the same dice (duplicate dice: the luck cancels); the
candidate replaces the incumbent if it wins at least ``--accept`` of them.
Against ``"random"`` every reasonable candidate wins almost every game, so
that rate cannot tell them apart; it is printed at the end.
"""
from __future__ import annotations

import argparse

import numpy as np

from bansugoroku_fast import LinearPolicy, Rules, play_games
from bansugoroku_fast.scoring import SIDE_FEATURES

WON = SIDE_FEATURES.index("won")

#: The starting point: signs from backgammon common sense (pips and blots
#: are bad, made points and primes good), sizes by hand.
START = {
    "pips": -0.05, "off": 0.3, "bar": -0.6, "home": 0.05, "back": -0.1, "blots": -0.3,
    "points": 0.2, "home_points": 0.3, "prime": 0.2, "anchors": 0.2, "exposure": -0.05,
    "stacking": -0.05, "closure": 0.5, "won": 100.0,
}


def policy_of(own: np.ndarray) -> LinearPolicy:
    return LinearPolicy(np.concatenate([own, -own]))


def share(rules: Rules, candidate: LinearPolicy | str, incumbent: LinearPolicy | str, games: int,
          seed: int) -> float:
    """``candidate``'s share of wins, half the games in each seat on the same dice."""
    first = play_games(rules, games // 2, (candidate, incumbent), seed=seed)
    second = play_games(rules, games // 2, (incumbent, candidate), seed=seed)
    return float(((first.winner == 0).sum() + (second.winner == 1).sum()) / (2 * (games // 2)))


def climb(rules: Rules, steps: int, games: int, accept: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    own = np.array([START[name] for name in SIDE_FEATURES], dtype=np.float64)
    movable = [index for index in range(len(SIDE_FEATURES)) if index != WON]
    for step in range(steps):
        index = int(rng.choice(movable))
        trial = own.copy()
        trial[index] = trial[index] * rng.choice([0.5, 0.7, 1.4, 2.0]) if trial[index] else rng.choice([-0.1, 0.1])
        rate = share(rules, policy_of(trial), policy_of(own), games, seed=1000 + step)
        taken = rate >= accept
        print(f"step {step:3d}: {SIDE_FEATURES[index]:<12} {own[index]:+.4g} -> {trial[index]:+.4g}: "
              f"{100 * rate:5.1f}%{'  taken' if taken else ''}", flush=True)
        if taken:
            own = trial
    return own


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="backgammon")
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--games", type=int, default=3000, help="games per step (both seats)")
    parser.add_argument("--accept", type=float, default=0.52, help="share of wins a change needs")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rules = Rules.parse(args.rules)
    own = climb(rules, args.steps, args.games, args.accept, args.seed)
    tuned = policy_of(own)
    start_policy = policy_of(np.array([START[name] for name in SIDE_FEATURES]))
    print(f"\nagainst the start: {100 * share(rules, tuned, start_policy, 10_000, 7):.1f}%")
    print(f"against random:    {100 * share(rules, tuned, 'random', 10_000, 7):.1f}%")
    print("row 0's weights (row 1's are the opposite):")
    print("    " + ", ".join(f"{name}={weight:.4g}" for name, weight in zip(SIDE_FEATURES, own)))


if __name__ == "__main__":
    main()
