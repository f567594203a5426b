"""A race network against the network alone (backgammon): how close each
scores races to GNU Backgammon's race evaluation, how much variance each
leaves in a variance-reduced rollout of a race, and how each plays.

    python -m benchmarks.race_network --network runs/bg-race/run/net.npz [--positions 2000] [--games 20000]

``--network`` is a network file holding a race network
(``NetEvaluator.with_race``); "alone" is the same file's network without
it, the shipped backgammon network when the file is a race run's. Both
answer from the endgame tables where they apply, as ``"net"`` does.

**Accuracy**: ``--positions`` races (no contact, off the tables' points,
the game going on) reached after a play in games ``"net"`` plays from the
start (seed ``--seed``), each scored by both and by ``gnubg-nn`` at 0 ply
(GNU Backgammon's race network; the side not on roll is the one that has
just moved, as here). The table gives the mean and the 95th percentile of
the absolute difference from GNU Backgammon's P(win) and cubeless equity.

**Variance reduction**: ``--rollouts`` of those races (the other side to
roll), ``--rollout-games`` games each with ``variance_reduction=True``,
played and judged by each network: the mean standard error each reports,
and their ratio.

**Strength**: ``--games`` cubeless money games (duplicate dice, seats
swapped) of each against ``gnubg-nn`` 0 ply and against ``pubeval``; 0
skips them.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from tqdm import tqdm

from bansugoroku_fast import Rules, play_games, rollout
from bansugoroku_fast.batch import outcome
from bansugoroku_fast.endgames import race_batch
from bansugoroku_fast.endgames.races import contact
from bansugoroku_fast.evaluators import EvaluatorPolicy, NetEvaluator, equity
from bansugoroku_fast.evaluators.search import swap_sides
from bansugoroku_fast.strength import duplicate_match

BACKGAMMON = Rules(variant="backgammon")


def races(count: int, seed: int) -> np.ndarray:
    """``count`` distinct races off the tables reached after a play in games ``"net"`` plays."""
    found: list[np.ndarray] = []
    total = 0
    game_seed = seed
    while total < count:
        after = np.unique(play_games(BACKGAMMON, 2000, policy="net", seed=game_seed).after, axis=0)
        going = outcome(after, BACKGAMMON).winner < 0
        tabled = race_batch(swap_sides(after), BACKGAMMON, outside="nan").in_table
        kept = after[going & ~tabled & ~contact(after)]
        found.append(kept)
        total += len(kept)
        game_seed += 1
    pool = np.unique(np.concatenate(found), axis=0)
    return np.ascontiguousarray(pool[np.random.default_rng(seed).permutation(len(pool))[:count]])


def gnubg_probabilities(positions: np.ndarray) -> np.ndarray:
    """``float[N, 5]``: gnubg-nn's 0-ply figures for the side that has just moved."""
    import gnubg_nn

    out = np.empty((len(positions), 5))
    for i, position in enumerate(tqdm(positions, desc="gnubg-nn", leave=False)):
        board = [position[0, 1:26].tolist(), position[1, 1:26].tolist()]     # [not on roll, on roll]
        win, win2, win3, lose2, lose3 = gnubg_nn.probabilities(board, 0)
        out[i] = 1 - win, lose2, lose3, win2, win3      # turned round to the side that moved
    return out


def accuracy(players: dict[str, NetEvaluator], positions: np.ndarray) -> None:
    reference = gnubg_probabilities(positions)
    print(f"\nAccuracy on {len(positions)} races off the tables, against gnubg-nn 0-ply:\n")
    print("| network | mean abs P(win) diff | 95th pct | mean abs equity diff | 95th pct |")
    print("|---|---:|---:|---:|---:|")
    for name, net in players.items():
        ours = net(positions).astype(np.float64)
        win = np.abs(ours[:, 0] - reference[:, 0])
        value = np.abs(equity(ours) - equity(reference))
        print(f"| {name} | {win.mean():.4f} | {np.percentile(win, 95):.4f} | {value.mean():.4f} | "
              f"{np.percentile(value, 95):.4f} |")


def variance(players: dict[str, NetEvaluator], positions: np.ndarray, games: int, seed: int) -> None:
    errors, seconds = {}, {}
    for name, net in players.items():
        began = time.process_time()
        stderr = [rollout(position, BACKGAMMON, games=games, policy=EvaluatorPolicy(net), seed=seed + i,
                          variance_reduction=True, endgames=True, threads=1).stderr
                  for i, position in enumerate(tqdm(swap_sides(positions), desc=name, leave=False))]
        errors[name], seconds[name] = float(np.mean(stderr)), time.process_time() - began
    print(f"\nVariance-reduced rollouts of {len(positions)} races, {games} games each (endgame tables on):\n")
    print("| network | mean s.e. | ratio to alone | CPU s |")
    print("|---|---:|---:|---:|")
    for name in players:
        print(f"| {name} | {errors[name]:.5f} | {errors[name] / errors['alone']:.2f} | {seconds[name]:.0f} |")


def strength(players: dict[str, NetEvaluator], games: int, seed: int) -> None:
    from benchmarks.strength import GnubgPlayer

    print(f"\nStrength, {games} games (duplicate dice, seats swapped):\n")
    print("| network | opponent | ppg ± s.e. | s |")
    print("|---|---|---:|---:|")
    for name, net in players.items():
        for opponent_name, opponent in (("gnubg-nn 0-ply", GnubgPlayer(plies=0)), ("pubeval", "pubeval")):
            began = time.perf_counter()
            score = duplicate_match(BACKGAMMON, EvaluatorPolicy(net), opponent, games // 2, seed)
            print(f"| {name} | {opponent_name} | {score.ppg:+.3f} ± {score.stderr:.3f} | "
                  f"{time.perf_counter() - began:.0f} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--network", required=True, help="a network file holding a race network")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--rollouts", type=int, default=50)
    parser.add_argument("--rollout-games", type=int, default=144)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=77)
    args = parser.parse_args(argv)
    both = NetEvaluator.load(args.network, rules=BACKGAMMON).with_endgames()
    if both.race is None:
        parser.error(f"{args.network} holds no race network")
    players = {"alone": both.with_race(None), "with its race network": both}
    positions = races(args.positions, args.seed)
    accuracy(players, positions)
    variance(players, positions[:args.rollouts], args.rollout_games, args.seed)
    if args.games:
        strength(players, args.games, args.seed)


if __name__ == "__main__":
    main()
