"""Training evaluator networks by TD(λ) self-play, in numpy.

``python -m bansugoroku_fast.train td --rules backgammon --games 200000 --seed 1 --out bg.npz``

**The algorithm.** ``parallel`` games of self-play run in lockstep in a
:class:`~bansugoroku_fast.GameBatch` (``restart=True``: a finished game's slot
starts the next game at once). At each wave the network scores every
candidate child of every waiting game in one matrix product (finished
children are scored exactly from ``outcome``) and each game plays the child
of greatest equity (greedy: the dice explore). Each game keeps the inputs and
the five outputs of the children it chose: its *afterstates* ``s_0 .. s_T``,
each seen by the side that played it, ``s_T`` the finished position with its
exact value ``z``.

When a game ends, its forward-view λ-returns are computed backwards from the
real result (discount 1, no reward before the end)::

    G_T = z,    G_t = flip_t((1 - λ) V(s_{t+1}) + λ G_{t+1})

where ``V`` is the value the network gave when the child was chosen and
``flip_t`` turns the five probabilities of ``s_{t+1}``'s side into those of
``s_t``'s (P(win) -> 1 - P(win), the win and loss columns swap) when the two
afterstates were played by different sides (a pass lets a side play twice in
a row). ``λ = 1`` trains on the game's results alone (Monte Carlo), ``λ = 0``
is one-step TD. The pairs ``(s_t, G_t)``, ``t < T``, join a buffer; every
``update_size`` pairs the buffer is shuffled and the network takes Adam steps
on minibatches, minimising the cross-entropy of each of its five sigmoid
outputs against the λ-return (the gradient at an output's logit is
``output - target``).

**Segments, checkpoints and determinism.** Training runs in segments of
``segment_games`` finished games. Segment ``k`` plays the dice of seed
``derive(seed, k)`` in a fresh batch, stops once ``segment_games`` games have
ended (the games still in progress are dropped), then trains on what remains
in the buffer. Every random choice (initial weights, dice, shuffles) comes
from ``seed`` and the segment's number, so a run is bit-identical for the
same seed (on the same BLAS and thread count), and a run resumed from a
checkpoint written at the end of a segment (network, Adam state, learning
curve) continues exactly as the uninterrupted run does.

**The learning curve.** Every ``eval_every`` games the network (0-ply, greedy)
plays ``eval_games`` duplicate games with seats swapped (``eval_games`` each
way, the same dice) against ``"pubeval"`` (backgammon) and ``"heuristic"``;
the mean points per game and its standard error go into the checkpoint and
the plot.

>>> import tempfile, os
>>> config = TrainingConfig(rules=Rules(), games=64, seed=3, hidden=(8,), parallel=16, segment_games=32,
...                         eval_every=0)
>>> with tempfile.TemporaryDirectory() as folder:
...     run = train(config, os.path.join(folder, "net.npz"), progress=False)
...     os.path.exists(os.path.join(folder, "net.npz"))
True
>>> run.games
64
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from tqdm import tqdm

from .._files import write_atomically
from ..batch import outcome, segment_argmax
from ..checks import as_rules
from ..errors import InvalidTrainingError
from ..evaluators.encoding import ENCODINGS, encode_valid, encoding_size
from ..evaluators.nets import network_file
from ..evaluators.network import ACTIVATIONS, NetEvaluator
from ..evaluators.scoring import equity, flip, outcome_probabilities
from ..evaluators.search import EvaluatorPolicy
from ..games.game_batch import GameBatch
from ..rules import Rules
from ..strength import MatchScore, duplicate_match
from . import fitting
from .files import atomic_savez, read_npz

__all__ = [
    "CHECKPOINT_VERSION",
    "SHARED_CHECKPOINT",
    "BAN_COMBINATIONS",
    "EVERY_BAN",
    "TrainingConfig",
    "TrainingRun",
    "checkpoint_path",
    "lambda_returns",
    "network_inputs",
    "td_main",
    "opponents",
    "plot_curve",
    "rule_inputs",
    "specialised",
    "train",
    "train_every_ban",
    "unfolded",
    "with_rule_inputs",
]

#: The format of the training state files (``<out>.ckpt.npz``).
CHECKPOINT_VERSION = 1
#: The training state of a :data:`EVERY_BAN` run, in its folder.
SHARED_CHECKPOINT = "ban-shared.ckpt.npz"
#: What a resumed run may change: its length and its step sizes from then on
#: (a lower rate fine-tunes a network; the step size of game ``g`` is then the
#: new configuration's ``rate_at(g)``).
RESUMABLE_CHANGES = ("games", "rate", "rate_halving")


# --- λ-returns -------------------------------------------------------------------------------


def lambda_returns(values: np.ndarray, seats: np.ndarray, lam: float) -> np.ndarray:
    """Forward-view λ-returns of one game's afterstates (discount 1).

    ``values[t]``: the five outputs the network gave afterstate ``t`` (the
    last row: the exact result of the finished position); ``seats[t]``: the
    side that played it. Returns ``float64[T, 5]``, the targets of
    afterstates ``0 .. T - 1`` (``T = len(values) - 1``), each for its own side.

    Seen by one fixed side the recursion is linear (``flip`` is affine and the
    blend's weights sum to 1), so ``G_t = sum_k (1 - λ) λ^(k-1) V_{t+k} +
    λ^(T-t-1) z`` for every ``t`` at once, as one triangular matrix product.

    >>> end = np.array([[1.0, 0, 0, 0, 0]])
    >>> lambda_returns(np.vstack([np.full((2, 5), 0.5), end]), np.array([0, 1, 0]), lam=1.0)[:, 0].tolist()
    [1.0, 0.0]
    >>> lambda_returns(np.vstack([np.full((2, 5), 0.5), end]), np.array([0, 1, 0]), lam=0.0)[:, 0].tolist()
    [0.5, 0.0]
    """
    count = len(values) - 1
    other = np.asarray(seats) != seats[0]
    fixed = np.where(other[:, None], flip(values), values)  # every row seen by seats[0]'s side
    ahead = np.arange(count + 1)[None, :] - np.arange(count)[:, None]  # j - t
    weights = np.where(ahead >= 1, (1.0 - lam) * np.power(lam, np.maximum(ahead - 1, 0)), 0.0)
    weights[:, count] = np.power(lam, count - 1 - np.arange(count))  # the real result takes the tail
    targets = weights @ fixed
    return np.where(other[:count, None], flip(targets), targets)


# --- the parameters being trained ------------------------------------------------------------


#: The six Ban-sugoroku rule combinations, in the order a shared run's segments take them.
BAN_COMBINATIONS = tuple(Rules(finish=finish, closure=closure)
                         for finish in ("arrival", "bear_off") for closure in ("multiplied", "immediate", "off"))
#: The ``--rules`` label of a shared run: one network for every Ban-sugoroku combination.
EVERY_BAN = "ban/*"
RULE_INPUTS = 3


def rule_inputs(rules: Rules) -> np.ndarray:
    """The three rule inputs of a shared network: bears off, closure immediate,
    closure off (all zero: arrival with multiplied closures).

    >>> rule_inputs(Rules(finish="bear_off", closure="off")).tolist()
    [1.0, 0.0, 1.0]
    """
    return np.array([rules.finish == "bear_off", rules.closure == "immediate", rules.closure == "off"],
                    dtype=np.float32)


def with_rule_inputs(inputs: np.ndarray, rules: Rules) -> np.ndarray:
    """``inputs`` with the three :func:`rule_inputs` columns of ``rules`` appended."""
    return np.hstack([inputs, np.broadcast_to(rule_inputs(rules), (len(inputs), RULE_INPUTS))])


def specialised(parameters: Sequence[np.ndarray], rules: Rules) -> list[np.ndarray]:
    """The parameters of a plain network playing ``rules`` as the shared
    network ``parameters`` (whose last three inputs are :func:`rule_inputs`)
    does: the rule inputs are constant within a game, so they fold into the
    first layer's biases.

    >>> rng = np.random.default_rng(0)
    >>> shared = fitting.initial_parameters(4 + RULE_INPUTS, (3,), rng)
    >>> shared[1][:] = 0.5
    >>> x = rng.random((2, 4), dtype=np.float32)
    >>> rules = BAN_COMBINATIONS[5]
    >>> bool(np.allclose(fitting.predict(shared, "sigmoid", with_rule_inputs(x, rules)),
    ...                  fitting.predict(specialised(shared, rules), "sigmoid", x), atol=1e-6))
    True
    """
    weights, biases = fitting.layers(parameters)
    first, rule_rows = weights[0][:-RULE_INPUTS], weights[0][-RULE_INPUTS:]
    return [np.ascontiguousarray(first), *weights[1:], biases[0] + rule_inputs(rules) @ rule_rows, *biases[1:]]


def unfolded(networks: Sequence[NetEvaluator]) -> list[np.ndarray]:
    """The shared network whose :func:`specialised` networks are ``networks``
    (one per combination, in :data:`BAN_COMBINATIONS`' order): they differ in
    their first layer's biases alone, and those are linear in the rule inputs.

    >>> rng = np.random.default_rng(0)
    >>> shared = fitting.initial_parameters(198 + RULE_INPUTS, (3,), rng)
    >>> shared[0][-RULE_INPUTS:] = rng.normal(size=(RULE_INPUTS, 3))
    >>> files = [fitting.evaluator(specialised(shared, rules), rules, "raw198", "relu") for rules in BAN_COMBINATIONS]
    >>> all(np.allclose(a, b, atol=1e-6) for a, b in zip(unfolded(files), shared))
    True
    """
    parameters = [[np.asarray(p, dtype=np.float32) for p in (*net.weights, *net.biases)] for net in networks]
    layers = len(networks[0].weights)
    first_biases = np.array([p[layers] for p in parameters], dtype=np.float64)
    rules_inputs = np.array([[1.0, *rule_inputs(rules)] for rules in BAN_COMBINATIONS])
    solution, *_ = np.linalg.lstsq(rules_inputs, first_biases, rcond=None)
    others_equal = all(np.array_equal(p[k], parameters[0][k]) for p in parameters for k in range(len(p)) if k != layers)
    if not others_equal or not np.allclose(rules_inputs @ solution, first_biases, atol=1e-5):
        raise InvalidTrainingError("start: the six networks are not the specialised networks of one shared network")
    shared = [np.array(p, dtype=np.float32) for p in parameters[0]]    # copies: training writes them
    shared[0] = np.vstack([shared[0], solution[1:]]).astype(np.float32)
    shared[layers] = solution[0].astype(np.float32)
    return shared


def _starting_parameters(config: TrainingConfig, shared: bool) -> list[np.ndarray]:
    """The layers of ``config.start``, checked against the configuration."""
    files = ([_file_in(config.start, rules) for rules in BAN_COMBINATIONS] if shared
             else [config.start])
    try:
        networks = [NetEvaluator.load(path) for path in files]
    except (OSError, ValueError) as error:
        raise InvalidTrainingError(f"start: {error}") from None
    sizes = (encoding_size(config.encoding), *config.hidden, 5)
    for path, net in zip(files, networks):
        if (net.layer_sizes, net.encoding, net.activation) != (sizes, config.encoding, config.activation):
            raise InvalidTrainingError(f"start: {path} is a {net!r}, not the configuration's "
                                       f"{'-'.join(map(str, sizes))} {config.activation} {config.encoding}")
    if shared:
        return unfolded(networks)
    return [np.array(p, dtype=np.float32) for p in (*networks[0].weights, *networks[0].biases)]


def _file_in(folder: str, rules: Rules) -> str:
    """Where a folder of six networks keeps that of ``rules``: named as the shipped one."""
    return os.path.join(folder, os.path.basename(network_file(rules)))


# --- configuration ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class TrainingConfig:
    """What a training run does; checked on creation
    (:class:`~bansugoroku_fast.errors.InvalidTrainingError` names the field).

    * ``games``: games of self-play to train on (a multiple of ``segment_games``);
    * ``hidden``: hidden layer sizes (one or two); ``activation``: ``"sigmoid"`` or ``"relu"``;
    * ``encoding``: ``"raw198"`` or ``"raw198+features"`` (see :mod:`bansugoroku_fast.evaluators.encoding`);
    * ``lam``: λ of the λ-returns; ``rate``: Adam's step size at the start,
      halved every ``rate_halving`` games trained (0: constant); ``minibatch``:
      pairs per Adam step; ``update_size``: pairs gathered before each round of steps;
    * ``parallel``: games played in lockstep; ``segment_games``: games per segment (the checkpoint unit);
    * ``eval_every``: games between learning-curve points (0: none; a multiple of
      ``segment_games``); ``eval_games``: duplicate games per point (each way);
    * ``start``: the network to train on from (a network file; a :data:`EVERY_BAN`
      run: a folder of six networks one such run wrote, see :func:`unfolded`),
      or ``""``: random weights.

    >>> TrainingConfig(rules=Rules(), games=100, seed=1, segment_games=30)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidTrainingError: games (100) must be a positive multiple of segment_games (30)
    """

    rules: Rules
    games: int
    seed: int
    hidden: tuple[int, ...] = (80,)
    activation: str = "sigmoid"
    encoding: str = "raw198+features"
    lam: float = 0.7
    rate: float = 1e-3
    rate_halving: int = 0
    minibatch: int = 64
    update_size: int = 4096
    parallel: int = 128
    segment_games: int = 1000
    eval_every: int = 10000
    eval_games: int = 500
    start: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", as_rules(self.rules))
        object.__setattr__(self, "hidden", tuple(self.hidden))
        for name in ("games", "seed", "rate_halving", "minibatch", "update_size", "parallel", "segment_games",
                     "eval_every", "eval_games"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise InvalidTrainingError(f"{name} must be an integer, got {value!r}")
        positive = ("minibatch", "update_size", "parallel", "segment_games", "eval_games")
        for name in positive:
            if getattr(self, name) <= 0:
                raise InvalidTrainingError(f"{name} must be positive, got {getattr(self, name)}")
        if not 0 <= self.seed < 2**32:
            raise InvalidTrainingError(f"seed must be in 0 .. 2**32 - 1, got {self.seed}")
        if self.rate_halving < 0:
            raise InvalidTrainingError(f"rate_halving must be 0 (constant) or positive, got {self.rate_halving}")
        if self.games <= 0 or self.games % self.segment_games:
            raise InvalidTrainingError(
                f"games ({self.games}) must be a positive multiple of segment_games ({self.segment_games})"
            )
        if self.eval_every < 0 or self.eval_every % self.segment_games:
            raise InvalidTrainingError(
                f"eval_every ({self.eval_every}) must be 0 or a multiple of segment_games ({self.segment_games})"
            )
        if not 1 <= len(self.hidden) <= 2 or not all(
            isinstance(h, (int, np.integer)) and not isinstance(h, bool) and 1 <= h <= 4096 for h in self.hidden
        ):
            raise InvalidTrainingError(f"hidden must be one or two layer sizes in 1 .. 4096, got {self.hidden!r}")
        if self.activation not in ACTIVATIONS:
            raise InvalidTrainingError(f"activation must be one of {ACTIVATIONS}, got {self.activation!r}")
        if self.encoding not in tuple(ENCODINGS):
            raise InvalidTrainingError(f"encoding must be one of {tuple(ENCODINGS)}, got {self.encoding!r}")
        if not (isinstance(self.lam, (int, float)) and 0.0 <= self.lam <= 1.0):
            raise InvalidTrainingError(f"lam must be a number in [0, 1], got {self.lam!r}")
        if not (isinstance(self.rate, (int, float)) and 0.0 < self.rate < 1.0 and math.isfinite(self.rate)):
            raise InvalidTrainingError(f"rate must be a number in (0, 1), got {self.rate!r}")
        if not isinstance(self.start, str):
            raise InvalidTrainingError(f"start must be a network file's or folder's path or '', got {self.start!r}")

    def rate_at(self, games: int) -> float:
        """Adam's step size once ``games`` games have been trained on (it
        depends on that count alone, so a longer run resumed keeps to it).

        >>> TrainingConfig(rules=Rules(), games=1000, seed=0, rate=0.01, rate_halving=500).rate_at(1000)
        0.0025
        """
        return self.rate * 0.5 ** (games / self.rate_halving) if self.rate_halving else self.rate

    def as_json(self) -> str:
        fields = dataclasses.asdict(self)
        fields["rules"] = self.rules.short_name
        return json.dumps(fields, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> TrainingConfig:
        fields = json.loads(text)
        fields["rules"] = Rules.parse(fields["rules"])
        fields["hidden"] = tuple(fields["hidden"])
        return cls(**fields)


def _derived_seed(seed: int, *path: int) -> int:
    """A 32-bit seed for one purpose of a run (``path``), independent of the others."""
    return int(np.random.SeedSequence([seed, *path]).generate_state(1, dtype=np.uint32)[0])


INIT_STREAM, DICE_STREAM, SHUFFLE_STREAM = 0, 1, 2
#: The dice of the learning curve's games do not depend on the run's seed:
#: every point of every run is measured on the same games.
EVAL_SEED = 20_240_601


# --- self-play -----------------------------------------------------------------------------


class _Learner:
    """Gathers (input, λ-return) pairs and takes Adam steps every ``update_size`` pairs."""

    def __init__(self, parameters: list[np.ndarray], adam: fitting.Adam, config: TrainingConfig) -> None:
        self.parameters, self.adam, self.config = parameters, adam, config
        self.inputs: list[np.ndarray] = []
        self.targets: list[np.ndarray] = []
        self.pending = 0
        self.loss = float("nan")

    def add_game(self, inputs: np.ndarray, values: np.ndarray, seats: np.ndarray) -> None:
        """One finished game: ``inputs[t]`` of afterstate ``t < T``,
        ``values[t]`` its outputs (``values[T]``: the exact result)."""
        if len(inputs) == 0:
            return
        self.inputs.append(inputs)
        self.targets.append(lambda_returns(values, seats, self.config.lam).astype(np.float32))
        self.pending += len(inputs)

    def update(self, rng: np.random.Generator, final: bool = False) -> None:
        """Adam steps over the pending pairs (shuffled) once there are
        ``update_size`` of them, or whatever is left when ``final``."""
        if self.pending < self.config.update_size and not (final and self.pending):
            return
        inputs, targets = np.concatenate(self.inputs), np.concatenate(self.targets)
        self.inputs, self.targets, self.pending = [], [], 0
        order = rng.permutation(len(inputs))
        losses = []
        for start in range(0, len(order), self.config.minibatch):
            rows = order[start:start + self.config.minibatch]
            gradients, loss = fitting.gradients(self.parameters, self.config.activation, inputs[rows], targets[rows])
            self.adam.step(self.parameters, gradients)
            losses.append(loss)
        self.loss = float(np.mean(losses))


def _score_children(parameters: list[np.ndarray], config: TrainingConfig, children: np.ndarray,
                    shared: bool) -> tuple[np.ndarray, ...]:
    """Inputs, outputs (exact for finished children) and equities of
    ``children`` under ``config.rules`` (``shared``: with the rule inputs)."""
    rules = config.rules
    inputs = encode_valid(children, config.encoding, rules)
    if shared:
        inputs = with_rule_inputs(inputs, rules)
    values = fitting.predict(parameters, config.activation, inputs)
    ended = outcome(children, rules)
    over = ended.winner >= 0
    if over.any():
        values[over] = outcome_probabilities(ended.winner[over], ended.value[over])
    return inputs, values, equity(values), over


def _play_segment(learner: _Learner, config: TrainingConfig, segment: int, tick: Callable[[int], None],
                  shared: bool = False) -> None:
    """Self-play until ``segment_games`` games have ended, training as they
    end (``shared``: a network with the rule inputs)."""
    learner.adam.rate = config.rate_at(segment * config.segment_games)
    seed = _derived_seed(config.seed, DICE_STREAM, segment)
    rng = np.random.default_rng(_derived_seed(config.seed, SHUFFLE_STREAM, segment))
    batch = GameBatch(config.rules, config.parallel, seed=seed, restart=True, record=False, threads=1)
    trails: list[list[tuple[np.ndarray, np.ndarray, int]]] = [[] for _ in range(config.parallel)]
    finished = 0
    while finished < config.segment_games:
        wave = batch.candidates()
        inputs, values, scores, over = _score_children(learner.parameters, config, wave.children, shared)
        choices = segment_argmax(scores, wave.offsets)
        rows = wave.offsets[:-1] + choices
        chosen_inputs, chosen_values = inputs[rows], values[rows]  # copies: the wave's arrays can go
        for slot in range(config.parallel):
            row = int(rows[slot])
            trails[slot].append((chosen_inputs[slot], chosen_values[slot], int(wave.plies[slot] % 2)))
            if over[row]:
                finished += 1
                _finish_trail(learner, trails[slot])
                trails[slot] = []
                tick(1)
                if finished == config.segment_games:
                    break
        learner.update(rng)
        batch.step(choices)
    learner.update(rng, final=True)


def _finish_trail(learner: _Learner, trail: list[tuple[np.ndarray, np.ndarray, int]]) -> None:
    inputs = np.array([step[0] for step in trail[:-1]], dtype=np.float32).reshape(len(trail) - 1, -1)
    values = np.array([step[1] for step in trail], dtype=np.float64)
    seats = np.array([step[2] for step in trail])
    learner.add_game(inputs, values, seats)


# --- the learning curve --------------------------------------------------------------------------


def opponents(rules: Rules) -> tuple[str, ...]:
    """The learning curve's opponents: ``"pubeval"`` (backgammon) and ``"heuristic"``."""
    return ("pubeval", "heuristic") if rules.is_backgammon else ("heuristic",)


def _measure(parameters: list[np.ndarray], config: TrainingConfig) -> dict[str, MatchScore]:
    net = fitting.evaluator(parameters, config.rules, config.encoding, config.activation)
    player = EvaluatorPolicy(net)   # greedy, 0 ply, in the kernels
    return {name: duplicate_match(config.rules, player, name, config.eval_games, EVAL_SEED, progress=False)
            for name in opponents(config.rules)}


# --- runs, checkpoints, files ----------------------------------------------------------------------


@dataclasses.dataclass
class TrainingRun:
    """The state of a run: its network's parameters (a :class:`NetEvaluator`'s
    layers, :mod:`~bansugoroku_fast.train.fitting`), optimiser, games trained
    and curve (``curve[i]`` = ``{"games": n, "seconds": s, "<opponent>":
    [ppg, stderr], "loss": l}``)."""

    config: TrainingConfig
    parameters: list[np.ndarray]
    adam: fitting.Adam
    games: int = 0
    seconds: float = 0.0
    curve: list[dict[str, Any]] = dataclasses.field(default_factory=list)

    @classmethod
    def start(cls, config: TrainingConfig, shared: bool = False) -> TrainingRun:
        """A new run from ``config.start`` or random weights (``shared``: a
        network with the three rule inputs after the encoding's)."""
        if config.start:
            parameters = _starting_parameters(config, shared)
        else:
            rng = np.random.default_rng(_derived_seed(config.seed, INIT_STREAM))
            parameters = fitting.initial_parameters(network_inputs(config, shared), config.hidden, rng)
        return cls(config, parameters, fitting.Adam(parameters, config.rate))

    def save_checkpoint(self, path: str) -> None:
        """The whole state, written atomically (a temporary file, then ``os.replace``)."""
        arrays: dict[str, Any] = {
            "version": np.int64(CHECKPOINT_VERSION),
            "config": np.array(self.config.as_json()),
            "games": np.int64(self.games),
            "seconds": np.float64(self.seconds),
            "curve": np.array(json.dumps(self.curve)),
            **self.adam.state(),
        }
        for k, p in enumerate(self.parameters):
            arrays[f"param_{k}"] = p
        atomic_savez(path, arrays)

    @classmethod
    def load_checkpoint(cls, path: str, config: TrainingConfig | None = None, shared: bool = False) -> TrainingRun:
        """The run saved at ``path``; ``config`` may lengthen it and change its
        step sizes (:data:`RESUMABLE_CHANGES`), nothing else (``shared``: a
        :data:`EVERY_BAN` run's)."""
        data = read_npz(path)
        if "version" not in data or data["version"].shape != () or int(data["version"]) != CHECKPOINT_VERSION:
            raise InvalidTrainingError(f"{path}: checkpoint version {data.get('version')}, "
                                       f"expected {CHECKPOINT_VERSION}")
        try:
            saved = TrainingConfig.from_json(str(data["config"]))
            layers = len(saved.hidden) + 1
            parameters = [np.array(data[f"param_{k}"], dtype=np.float32) for k in range(2 * layers)]
            adam = fitting.Adam(parameters, saved.rate)
            adam.restore(data)
            state = int(data["games"]), float(data["seconds"]), json.loads(str(data["curve"]))
        except (KeyError, ValueError, TypeError) as error:
            raise InvalidTrainingError(f"{path}: a damaged checkpoint ({error})") from None
        schedule = {name: getattr(saved, name) for name in RESUMABLE_CHANGES}
        if config is not None and dataclasses.replace(config, **schedule) != saved:
            raise InvalidTrainingError(
                f"{path}: the checkpoint was made with another configuration ({saved.as_json()}); "
                f"only {', '.join(RESUMABLE_CHANGES)} may change on --resume"
            )
        if parameters[0].shape[0] != network_inputs(saved, shared):
            kind = "a single rule set's run" if shared else f"a {EVERY_BAN} run"
            raise InvalidTrainingError(f"{path}: the checkpoint of {kind} ({parameters[0].shape[0]} inputs)")
        return cls(config or saved, parameters, adam, *state)

    def save_network(self, path: str) -> None:
        """The network as an evaluator ``.npz`` (:class:`~bansugoroku_fast.evaluators.NetEvaluator`)."""
        fitting.evaluator(self.parameters, self.config.rules, self.config.encoding, self.config.activation).save(path)


def network_inputs(config: TrainingConfig, shared: bool) -> int:
    """The inputs of a run's network: the encoding's, then the rule inputs if ``shared``."""
    return encoding_size(config.encoding) + (RULE_INPUTS if shared else 0)


def checkpoint_path(out: str) -> str:
    """Where a run writing ``out`` keeps its training state (a :data:`EVERY_BAN`
    run: ``out`` is its folder, the state ``ban-shared.ckpt.npz`` in it).

    >>> checkpoint_path("backgammon.npz"), checkpoint_path(os.path.join("nets", ""))
    ('backgammon.npz.ckpt.npz', 'nets/ban-shared.ckpt.npz')
    """
    if os.path.isdir(out) or out.endswith(os.sep):
        return os.path.join(out, SHARED_CHECKPOINT)
    return f"{out}.ckpt.npz"


def _resumed_run(config: TrainingConfig, state: str, shared: bool) -> TrainingRun:
    """The run checkpointed at ``state``, to be taken to ``config.games``."""
    if not os.path.exists(state):
        raise InvalidTrainingError(f"--resume: no checkpoint {state} to resume from")
    run = TrainingRun.load_checkpoint(state, config, shared)
    if run.games > _total_games(config, shared):
        raise InvalidTrainingError(f"--resume: the checkpoint has {run.games} games already, more than "
                                   f"--games {config.games}{' a combination' if shared else ''}")
    return run


def _total_games(config: TrainingConfig, shared: bool) -> int:
    return config.games * (len(BAN_COMBINATIONS) if shared else 1)


def train(config: TrainingConfig, out: str, *, resume: bool = False, plot: str | None = None,
          progress: bool = True) -> TrainingRun:
    """Run ``config`` (or continue the run checkpointed beside ``out`` when
    ``resume``), writing the network to ``out`` and the training state to
    :func:`checkpoint_path` at the end of every segment."""
    _check_output(out, "out")
    if plot is not None:
        _check_output(plot, "plot")
    state = checkpoint_path(out)
    run = _resumed_run(config, state, shared=False) if resume else TrainingRun.start(config)
    bar = tqdm(total=config.games, initial=run.games, unit="game", disable=not progress,
               desc=f"TD({config.lam}) {config.rules.short_name}", dynamic_ncols=True)
    learner = _Learner(run.parameters, run.adam, config)
    if not run.curve and config.eval_every:
        _add_point(run)
    with bar:
        while run.games < config.games:
            began = time.perf_counter()
            _play_segment(learner, config, run.games // config.segment_games, bar.update)
            run.games += config.segment_games
            run.seconds += time.perf_counter() - began
            if config.eval_every and run.games % config.eval_every == 0:
                _add_point(run, learner.loss)
                bar.set_postfix_str(_point_text(run.curve[-1]))
            run.save_checkpoint(state)
            run.save_network(out)
            if plot is not None:
                plot_curve(run, plot)
    return run


def train_every_ban(config: TrainingConfig, folder: str, *, resume: bool = False, plot: str | None = None,
                    progress: bool = True) -> TrainingRun:
    """Train one network whose last three inputs are the :func:`rule_inputs`
    on the six Ban-sugoroku combinations (``config.games`` games each;
    ``config.rules`` is not used) and write its six :func:`specialised`
    networks into ``folder``, one file per combination named as the shipped
    ones (``ban-arrival-multiplied.npz``, ...).

    The combinations take turns segment by segment: segment ``k`` plays
    ``BAN_COMBINATIONS[k % 6]`` on the dice of ``(seed, k)``, and trains only
    on its own games (the buffer is emptied at its end), so every step knows
    the rules its positions were played under. Every ``eval_every`` games of
    each combination, each specialised network plays ``eval_games`` duplicate
    pairs against ``"heuristic"`` (the curve's columns are the combinations'
    short names). At the end of every segment the state goes to
    :data:`SHARED_CHECKPOINT` in ``folder`` and the six networks are
    rewritten, each atomically; ``resume`` continues from there bit for bit.

    >>> import tempfile
    >>> config = TrainingConfig(rules=Rules(), games=4, seed=3, hidden=(8,), parallel=4, segment_games=4,
    ...                         eval_every=0)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     run = train_every_ban(config, folder, progress=False)
    ...     sorted(os.listdir(folder))[:3]
    ['ban-arrival-immediate.npz', 'ban-arrival-multiplied.npz', 'ban-arrival-off.npz']
    >>> run.games
    24
    """
    if not os.path.isdir(folder):
        raise InvalidTrainingError(f"out: {folder} is not a folder (a {EVERY_BAN} run writes six networks into one)")
    if plot is not None:
        _check_output(plot, "plot")
    state = checkpoint_path(os.path.join(folder, ""))
    run = _resumed_run(config, state, shared=True) if resume else TrainingRun.start(config, shared=True)
    learner = _Learner(run.parameters, run.adam, config)
    with tqdm(total=_total_games(config, True), initial=run.games, unit="game", disable=not progress,
              desc=f"TD({config.lam}) {EVERY_BAN}", dynamic_ncols=True) as bar:
        while run.games < _total_games(config, True):
            segment = run.games // config.segment_games
            rules = BAN_COMBINATIONS[segment % len(BAN_COMBINATIONS)]
            began = time.perf_counter()
            _play_segment(learner, dataclasses.replace(config, rules=rules), segment, bar.update, shared=True)
            run.seconds += time.perf_counter() - began
            run.games += config.segment_games
            if config.eval_every and run.games % (len(BAN_COMBINATIONS) * config.eval_every) == 0:
                _add_shared_point(run, run.games // len(BAN_COMBINATIONS), learner.loss)
                bar.set_postfix_str(_point_text(run.curve[-1]))
            run.save_checkpoint(state)
            _save_specialised(run, folder)
            if plot is not None and run.curve:
                plot_curve(run, plot, title=f"{EVERY_BAN}, rules as inputs")
    return run


def _save_specialised(run: TrainingRun, folder: str) -> None:
    """The six networks of a shared run, one file per combination."""
    config = run.config
    for rules in BAN_COMBINATIONS:
        path = _file_in(folder, rules)
        fitting.evaluator(specialised(run.parameters, rules), rules, config.encoding, config.activation).save(path)


def _add_shared_point(run: TrainingRun, games: int, loss: float) -> None:
    point: dict[str, Any] = {"games": games, "seconds": round(run.seconds, 1), "loss": loss}
    for rules in BAN_COMBINATIONS:
        config = run.config
        player = EvaluatorPolicy(fitting.evaluator(specialised(run.parameters, rules), rules, config.encoding,
                                                   config.activation))
        score = duplicate_match(rules, player, "heuristic", run.config.eval_games, EVAL_SEED, progress=False)
        point[rules.short_name] = [score.ppg, score.stderr]
    run.curve.append(point)


def _add_point(run: TrainingRun, loss: float = float("nan")) -> None:
    scores = _measure(run.parameters, run.config)
    point: dict[str, Any] = {"games": run.games, "seconds": round(run.seconds, 1), "loss": loss}
    point.update({name: [score.ppg, score.stderr] for name, score in scores.items()})
    run.curve.append(point)


def _point_text(point: dict[str, Any]) -> str:
    return " ".join(f"{name} {point[name][0]:+.3f}±{point[name][1]:.3f}" for name in point
                    if name not in ("games", "seconds", "loss"))


def _check_output(path: str, what: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InvalidTrainingError(f"{what}: folder {folder} does not exist")


def plot_curve(run: TrainingRun, path: str, title: str | None = None) -> None:
    """The learning curve (ppg ± 2 standard errors by training games), written atomically:
    one line per opponent (a shared run: per combination, against ``"heuristic"``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    games = [point["games"] for point in run.curve]
    for name in [key for key in run.curve[0] if key not in ("games", "seconds", "loss")]:
        ppg = np.array([point[name][0] for point in run.curve])
        err = np.array([point[name][1] for point in run.curve])
        axes.errorbar(games, ppg, yerr=2 * err, marker="o", capsize=3,
                      label=f"{name} against heuristic" if "/" in name else f"against {name}")
    axes.axhline(0.0, color="grey", linewidth=0.8)
    axes.set_xlabel("training games")
    axes.set_ylabel("points per game (duplicate, ±2 s.e.)")
    config = run.config
    axes.set_title(f"{title or config.rules.short_name}: {config.encoding}, hidden {config.hidden}, "
                   f"seed {config.seed}")
    axes.legend()
    figure.tight_layout()
    try:
        image_format = os.path.splitext(path)[1][1:] or "png"
        write_atomically(path, lambda temporary: figure.savefig(temporary, format=image_format))
    finally:
        plt.close(figure)


# --- the command line ----------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    defaults: dict[str, Any] = {field.name: field.default for field in dataclasses.fields(TrainingConfig)}
    parser = argparse.ArgumentParser(prog="python -m bansugoroku_fast.train td",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--rules", required=True,
                        help=f"a rules label: backgammon, ban/arrival/multiplied, ...; {EVERY_BAN}: one network "
                             "for the six Ban-sugoroku combinations, the rules as inputs")
    parser.add_argument("--games", type=int, required=True,
                        help=f"games of self-play to train on ({EVERY_BAN}: per combination)")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--out", required=True,
                        help=f"the network file to write (.npz; {EVERY_BAN}: a folder for the six networks)")
    parser.add_argument("--hidden", type=int, nargs="+", default=list(defaults["hidden"]),
                        help="hidden layer sizes (one or two)")
    parser.add_argument("--activation", choices=ACTIVATIONS, default=defaults["activation"])
    parser.add_argument("--encoding", choices=tuple(ENCODINGS), default=defaults["encoding"])
    parser.add_argument("--lam", type=float, default=defaults["lam"], help="λ of the λ-returns")
    parser.add_argument("--rate", type=float, default=defaults["rate"], help="Adam's step size")
    parser.add_argument("--rate-halving", type=int, default=defaults["rate_halving"],
                        help="games over which the step size halves (0: constant)")
    parser.add_argument("--minibatch", type=int, default=defaults["minibatch"])
    parser.add_argument("--update-size", type=int, default=defaults["update_size"])
    parser.add_argument("--parallel", type=int, default=defaults["parallel"], help="games played in lockstep")
    parser.add_argument("--segment-games", type=int, default=defaults["segment_games"],
                        help="games between checkpoints")
    parser.add_argument("--eval-every", type=int, default=defaults["eval_every"],
                        help="games between learning-curve points (0: none)")
    parser.add_argument("--eval-games", type=int, default=defaults["eval_games"],
                        help="duplicate games per point, each way")
    parser.add_argument("--start", default="",
                        help=f"the network to train on from (a file; {EVERY_BAN}: a folder of six networks)")
    parser.add_argument("--resume", action="store_true", help="continue the run checkpointed beside --out")
    parser.add_argument("--plot", help="write the learning curve to this image")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def td_main(argv: Sequence[str] | None = None) -> int:
    """The ``td`` command line; returns the exit status (2 for bad arguments)."""
    args = _parser().parse_args(argv)
    try:
        every_ban = args.rules.strip() == EVERY_BAN
        config = TrainingConfig(
            rules=BAN_COMBINATIONS[0] if every_ban else Rules.parse(args.rules), games=args.games, seed=args.seed,
            hidden=tuple(args.hidden),
            activation=args.activation, encoding=args.encoding, lam=args.lam, rate=args.rate,
            rate_halving=args.rate_halving, minibatch=args.minibatch, update_size=args.update_size,
            parallel=args.parallel, segment_games=args.segment_games, eval_every=args.eval_every,
            eval_games=args.eval_games, start=args.start,
        )
        if every_ban:
            run = train_every_ban(config, args.out, resume=args.resume, plot=args.plot, progress=not args.quiet)
        else:
            run = train(config, args.out, resume=args.resume, plot=args.plot, progress=not args.quiet)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"{run.games} games in {run.seconds:.0f} s; {'networks' if every_ban else 'network'} written to {args.out}")
    if run.curve:
        print(f"last point: {_point_text(run.curve[-1])}")
    return 0

