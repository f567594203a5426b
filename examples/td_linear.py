"""Learn LinearPolicy weights by TD(lambda) self-play on the vector environment.

    python examples/td_linear.py [--rules backgammon] [--games 6000] [--envs 64]
                                 [--lam 0.5] [--alpha 1.5] [--evaluate-every 1000]
                                 [--evaluation-games 1000] [--plot curve.png]

The value of a position is linear in its :func:`~bansugoroku_fast.features`
(each feature divided by a fixed scale, so that one step size suits them
all): ``V(s) = w . (features(s) / scale)``, the expected points of the side
that has just played into ``s``. Each move of the agent is greedy one ply
(the candidate child of greatest value, from
``BanSugorokuVectorEnv.candidates()``); the opponent inside the vector
environment is a callable scoring its children with the same weights, so
both seats play the current policy (self-play). After each agent move the
previous afterstate's value moves towards the new one (TD(lambda) over the
agent's afterstates, eligibility traces per sub-environment, each step
divided by the trace's squared length as in NLMS, which keeps it from
diverging); a finished game's last afterstate moves towards its points.

Every ``--evaluate-every`` training games, ``LinearPolicy(w / scale)`` plays
``--evaluation-games`` games (half as seat 0, half as seat 1) against
``"random"`` and against ``"heuristic"`` with the kernels' ``play_games``;
the learning curve (win rate by training games) is printed and, with
``--plot``, drawn with matplotlib (the ``plot`` extra). The shipped
``"heuristic"``'s own win rate against ``"random"`` is printed as the bar
to reach.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bansugoroku_fast import FEATURE_NAMES, LinearPolicy, Rules, features, play_games
from bansugoroku_fast.batch import segment_argmax
from bansugoroku_fast.checks import as_output_file, as_rules
from bansugoroku_fast.envs import BanSugorokuVectorEnv
from bansugoroku_fast.errors import OutputPathError

#: Each feature's scale: a typical largest value, so scaled features are about 0..1.
SCALE_BY_KIND = {
    "pips": 167.0, "off": 15.0, "bar": 3.0, "home": 15.0, "back": 15.0, "blots": 5.0, "points": 8.0,
    "home_points": 6.0, "prime": 6.0, "anchors": 3.0, "exposure": 36.0, "stacking": 10.0, "closure": 1.0,
    "won": 1.0,
}
SCALE = np.array([SCALE_BY_KIND[name.split("_", 1)[1]] for name in FEATURE_NAMES])
MAX_PLAYS = 8192


@dataclass
class Curve:
    """Win rates measured during training."""

    games: list[int] = field(default_factory=list)
    against_random: list[float] = field(default_factory=list)
    against_heuristic: list[float] = field(default_factory=list)


def win_rate(rules: Rules, policy: object, opponent: object, games: int, seed: int) -> float:
    """Share of ``games`` won by ``policy``: half of them as seat 0, half as seat 1."""
    half = max(games // 2, 1)
    first = play_games(rules, half, policy=(policy, opponent), seed=seed).winner
    second = play_games(rules, half, policy=(opponent, policy), seed=seed + 1).winner
    return float(((first == 0).sum() + (second == 1).sum()) / (2 * half))


class SelfPlayTD:
    """TD(lambda) over the agent's afterstates in ``envs`` vector games."""

    def __init__(self, rules: Rules, envs: int, lam: float, alpha: float, seed: int) -> None:
        self.rules, self.lam, self.alpha = rules, lam, alpha
        self.weights = np.zeros(len(FEATURE_NAMES))
        # Self-play reaches odd positions: room for the largest rolls (the mask is not used).
        self.env = BanSugorokuVectorEnv(envs, rules, opponent=self.scores, max_plays=MAX_PLAYS)
        self.env.reset(seed=seed)
        self.traces = np.zeros((envs, len(FEATURE_NAMES)))
        self.previous = np.zeros(envs)  # V of each game's last afterstate (0: none yet)
        self.finished = 0

    def scaled_features(self, children: np.ndarray) -> np.ndarray:
        return features(children, self.rules).astype(np.float64) / SCALE

    def scores(self, children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        """The opponent's callable: the value of every candidate child."""
        return self.scaled_features(children) @ self.weights

    def play(self, games: int) -> None:
        """Train until ``games`` more games have finished."""
        target = self.finished + games
        while self.finished < target:
            offsets, children = self.env.candidates()
            values_all = self.scaled_features(children)
            choices = segment_argmax(values_all @ self.weights, offsets)
            chosen = values_all[offsets[:-1] + choices]
            value = chosen @ self.weights
            started = self.traces.any(axis=1)
            # V(previous afterstate) moves towards V(this one).
            self.learn(np.where(started, value - self.previous, 0.0))
            self.traces = self.lam * self.traces + chosen
            self.previous = value
            _, rewards, terminated, truncated, _ = self.env.step(choices)
            ended = terminated | truncated
            if ended.any():
                # The last afterstate moves towards the points (truncation: no target).
                self.learn(np.where(terminated, rewards - value, 0.0))
                self.traces[ended] = 0.0
                self.previous[ended] = 0.0
                self.finished += int(ended.sum())

    def learn(self, errors: np.ndarray) -> None:
        """Normalised TD step (each game's step divided by its trace's squared
        length, as NLMS does), so that large traces never make it diverge."""
        norms = np.maximum((self.traces**2).sum(axis=1), 1.0)
        self.weights += self.alpha * ((errors / norms) @ self.traces) / len(errors)

    def policy(self) -> LinearPolicy:
        """The greedy policy of the current weights, over raw features."""
        return LinearPolicy((self.weights / SCALE).tolist())


def train(rules: Rules, games: int, envs: int, lam: float, alpha: float, evaluate_every: int,
          evaluation_games: int, seed: int = 0, report: bool = True) -> tuple[SelfPlayTD, Curve]:
    """Train for ``games`` games, measuring the win rates every ``evaluate_every``."""
    learner, curve = SelfPlayTD(rules, envs, lam, alpha, seed), Curve()
    while True:
        policy = learner.policy()
        curve.games.append(learner.finished)
        curve.against_random.append(win_rate(rules, policy, "random", evaluation_games, seed=10_000))
        curve.against_heuristic.append(win_rate(rules, policy, "heuristic", evaluation_games, seed=20_000))
        if report:
            print(f"{learner.finished:7d} games: {curve.against_random[-1]:.3f} against random, "
                  f"{curve.against_heuristic[-1]:.3f} against heuristic", flush=True)
        if learner.finished >= games:
            return learner, curve
        learner.play(min(evaluate_every, games - learner.finished))


def draw(curve: Curve, bar: float, title: str) -> Any:
    """The learning curve as a matplotlib figure; the legend sits below the
    axes, where no point of the curve can be (the last points end in the
    corner a legend inside would take)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 4.6))
    axes.plot(curve.games, curve.against_random, marker="o", label='against "random"')
    axes.plot(curve.games, curve.against_heuristic, marker="o", label='against "heuristic"')
    axes.axhline(bar, linestyle="--", color="grey", label='"heuristic" against "random"')
    axes.set(xlabel="training games", ylabel="win rate", ylim=(0, 1.02), title=title)
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize="small", frameon=False)
    figure.tight_layout()
    return figure


def plot(curve: Curve, bar: float, path: str, title: str) -> None:
    import matplotlib.pyplot as plt

    figure = draw(curve, bar, title)
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="backgammon")
    parser.add_argument("--games", type=int, default=6000, help="training games")
    parser.add_argument("--envs", type=int, default=64, help="games in lockstep")
    parser.add_argument("--lam", type=float, default=0.5, help="TD(lambda) trace decay")
    parser.add_argument("--alpha", type=float, default=1.5, help="normalised step size (below 2)")
    parser.add_argument("--evaluate-every", type=int, default=1000, help="training games between evaluations")
    parser.add_argument("--evaluation-games", type=int, default=1000, help="games per evaluation")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", metavar="FILE.png", help="save the learning curve")
    args = parser.parse_args(argv)
    rules = as_rules(args.rules)
    if args.plot:  # checked before the training, not after it
        from matplotlib.backend_bases import FigureCanvasBase

        formats = ["." + name for name in FigureCanvasBase.get_supported_filetypes()]
        try:
            as_output_file(args.plot, formats, "--plot")
        except OutputPathError as error:
            parser.error(str(error))
    bar = win_rate(rules, "heuristic", "random", args.evaluation_games, seed=10_000)
    print(f'"heuristic" against "random": {bar:.3f} ({rules.short_name}, {args.evaluation_games} games)')
    learner, curve = train(rules, args.games, args.envs, args.lam, args.alpha, args.evaluate_every,
                           args.evaluation_games, args.seed)
    print("weights (raw features):", dict(zip(FEATURE_NAMES, np.round(learner.policy().weights, 4).tolist())))
    if args.plot:
        plot(curve, bar, args.plot, f"TD({args.lam}) self-play, {rules.short_name}")
        print(f"learning curve saved to {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
