"""Training on rollouts: rounds of positions, targets and a fit, each
stage checkpointed in a folder.

``python -m bansugoroku_fast.train rollouts --rules backgammon --seed 1 --folder runs/bg --rounds 20``

**A round** ``r`` (folder ``round-0003/`` for ``r = 3``) takes the network
of round ``r - 1`` (round 0: ``start``, a network file, or random weights)
through four stages, each ending in a file written whole (a temporary
file, then a rename):

1. **Positions** (``positions.npz``): ``games`` games of self-play by that
   network (0 ply, in the kernels, on the dice of ``(seed, r)``); every
   position reached after a play, seen by the side that has just moved,
   that is neither finished nor valued exactly by the endgame tables
   (the network hands those over to them), is a candidate, and
   ``positions`` of them are drawn. A ``disagreement`` share of them
   comes instead from where two networks choose differently: at each
   position before a play, this network's choice and the previous
   round's (round 0: ``"pubeval"``'s in backgammon, ``"heuristic"``'s
   otherwise); both children of every such roll are candidates.
2. **Targets** (``targets-00012.npz``, one file per ``chunk`` positions):
   each position's five probabilities for the side that has just moved,
   by the network, either at 1 ply (``target="ply1"``: the mean over the
   opponent's 21 rolls of its best reply's 0-ply value) or by a
   truncated, variance-reduced rollout (``target="rollout"``:
   ``rollout_games`` games from the position, the opponent to roll,
   stopped after ``truncate`` plies and valued there, each roll's luck
   taken out; ``truncate=0``: played to the end). Chunks run on
   ``workers`` processes, or as tasks of a Dask ``Client``: every chunk's
   dice come from ``(seed, r, chunk)`` and it runs on one thread, so its
   targets are the same bits wherever it runs. A stopped run keeps every
   chunk finished.
3. **Fit** (``fit.npz``, ``net.npz``): Adam on the cross-entropy of the
   five outputs against the targets of this round and the ``window - 1``
   before it, ``epochs`` passes in minibatches (shuffled from ``(seed,
   r)``), from the previous round's weights and optimiser state. The
   network keeps :class:`~bansugoroku_fast.evaluators.NetEvaluator`'s
   layers (``bansugoroku_fast.train.fitting``): ``net.npz`` is the file
   that plays.
4. **Score** (``score.json``): ``eval_games`` duplicate pairs of the new
   network (0 ply, with the endgame tables) against each of
   :func:`opponents`; the folder's ``curve.json`` and ``curve.png``
   (the learning curve) and ``net.npz`` (the latest network) follow.

**A race network** (``kind="race"``): the run trains the race network
of the network in the file ``contact`` (:meth:`NetEvaluator.with_race
<bansugoroku_fast.evaluators.NetEvaluator.with_race>`), which keeps its
layers. The player of every stage is that network handing its races to
the race network as it stands; the positions are the races among the
candidates (no contact, off the tables); ``start``, ``hidden``,
``activation`` and the fit are the race network's, and ``net.npz`` holds
both networks.

**Resuming.** Run the same command again: each stage whose file exists
is read, not redone, so a run stopped anywhere (Ctrl-C) goes on from its
last file and ends with the same bytes as a run never stopped. The folder's
``run.json`` holds the configuration: another version, other rules or
another configuration (but a larger ``rounds``) is refused with an
:class:`~bansugoroku_fast.errors.InvalidTrainingError` naming the file, as
is any damaged file, before any work.

>>> import tempfile
>>> config = RoundsConfig(rules=Rules(finish="arrival", closure="off"), seed=2, rounds=1, hidden=(8,), games=20,
...                       positions=40, chunk=20, rollout_games=4, truncate=0, epochs=2, eval_games=10)
>>> with tempfile.TemporaryDirectory() as folder:
...     run = train_on_rollouts(config, folder, progress=False)
...     sorted(os.listdir(os.path.join(folder, "round-0000")))
['fit.npz', 'net.npz', 'positions.npz', 'score.json', 'targets-00000.npz', 'targets-00001.npz']
>>> run.rounds_done, list(run.curve[-1])[:3]
(1, ['round', 'positions', 'seconds'])
"""
from __future__ import annotations

import concurrent.futures
import dataclasses
import math
import multiprocessing
import os
import time
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from tqdm import tqdm

from ..batch import generate_plays, outcome
from ..checks import as_rules
from ..endgames.races import contact, race_batch
from ..errors import InvalidTrainingError
from ..evaluators.encoding import ENCODINGS, encode_valid, encoding_size
from ..evaluators.network import ACTIVATIONS, NetEvaluator
from ..evaluators.scoring import flip
from ..evaluators.search import EvaluatorPolicy, ply_values, swap_sides
from ..games.bulk import play_games, rollout
from ..games.policies import choose, resolve_policy
from ..rules import Rules
from ..strength import duplicate_match
from ..version import __version__
from . import fitting
from .files import atomic_json, atomic_savez, read_json, read_npz

__all__ = ["KINDS", "ROUNDS_VERSION", "TARGETS", "RoundsConfig", "RoundsRun", "chunk_targets", "opponents",
           "plot_rounds", "train_on_rollouts"]

#: The format of a run's folder (``run.json``'s ``version``).
ROUNDS_VERSION = 1
#: How a position's target is made.
TARGETS = ("ply1", "rollout")
#: What a run trains: a whole network, or the race network of the ``contact`` network.
KINDS = ("all", "race")
#: What a resumed run may change.
RESUMABLE = ("rounds",)
#: The dice of the learning curve's games, the same for every round and run.
EVAL_SEED = 20_240_601
POSITIONS_STREAM, TARGETS_STREAM, FIT_STREAM, INIT_STREAM = 1, 2, 3, 4


@dataclasses.dataclass(frozen=True)
class RoundsConfig:
    """What a run on rollouts does (see the module); checked on creation
    (:class:`~bansugoroku_fast.errors.InvalidTrainingError` names the field).

    >>> RoundsConfig(rules=Rules(), seed=1, rounds=2, target="td")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidTrainingError: target must be one of ('ply1', 'rollout'), got 'td'
    """

    rules: Rules
    seed: int
    rounds: int
    start: str = ""
    hidden: tuple[int, ...] = (128,)
    activation: str = "relu"
    encoding: str = "raw198+features"
    games: int = 2000
    positions: int = 20000
    disagreement: float = 0.25
    target: str = "rollout"
    rollout_games: int = 36
    truncate: int = 7
    chunk: int = 500
    window: int = 3
    epochs: int = 4
    minibatch: int = 128
    rate: float = 1e-3
    eval_games: int = 1000
    kind: str = "all"
    contact: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", as_rules(self.rules))
        object.__setattr__(self, "hidden", tuple(self.hidden))
        counts = ("seed", "rounds", "games", "positions", "rollout_games", "truncate", "chunk", "window", "epochs",
                  "minibatch", "eval_games")
        for name in counts:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
                raise InvalidTrainingError(f"{name} must be a non-negative integer, got {value!r}")
        for name in ("rounds", "games", "positions", "rollout_games", "chunk", "window", "epochs", "minibatch",
                     "eval_games"):
            if getattr(self, name) == 0:
                raise InvalidTrainingError(f"{name} must be positive, got 0")
        if self.seed >= 2**32:
            raise InvalidTrainingError(f"seed must be in 0 .. 2**32 - 1, got {self.seed}")
        if self.target not in TARGETS:
            raise InvalidTrainingError(f"target must be one of {TARGETS}, got {self.target!r}")
        if self.activation not in ACTIVATIONS:
            raise InvalidTrainingError(f"activation must be one of {ACTIVATIONS}, got {self.activation!r}")
        if self.encoding not in ENCODINGS:
            raise InvalidTrainingError(f"encoding must be one of {tuple(ENCODINGS)}, got {self.encoding!r}")
        if not 1 <= len(self.hidden) <= 2 or not all(
                isinstance(h, (int, np.integer)) and not isinstance(h, bool) and 1 <= h <= 4096 for h in self.hidden):
            raise InvalidTrainingError(f"hidden must be one or two layer sizes in 1 .. 4096, got {self.hidden!r}")
        if not (isinstance(self.disagreement, (int, float)) and 0.0 <= self.disagreement <= 1.0):
            raise InvalidTrainingError(f"disagreement must be a share in [0, 1], got {self.disagreement!r}")
        if not (isinstance(self.rate, (int, float)) and 0.0 < self.rate < 1.0 and math.isfinite(self.rate)):
            raise InvalidTrainingError(f"rate must be a number in (0, 1), got {self.rate!r}")
        if not isinstance(self.start, str):
            raise InvalidTrainingError(f"start must be a network file's path or '', got {self.start!r}")
        if self.kind not in KINDS:
            raise InvalidTrainingError(f"kind must be one of {KINDS}, got {self.kind!r}")
        if not isinstance(self.contact, str) or (self.kind == "race") != bool(self.contact):
            raise InvalidTrainingError(f"contact names the network whose race network a run of kind 'race' "
                                       f"trains, and only then; got kind {self.kind!r}, contact {self.contact!r}")

    def as_dict(self) -> dict[str, Any]:
        fields = dataclasses.asdict(self)
        fields["rules"] = self.rules.short_name
        fields["hidden"] = list(self.hidden)
        return fields

    @classmethod
    def from_dict(cls, fields: dict[str, Any]) -> RoundsConfig:
        fields = dict(fields)
        fields["rules"] = Rules.parse(fields["rules"])
        fields["hidden"] = tuple(fields["hidden"])
        return cls(**fields)


def _seed(seed: int, *path: int) -> int:
    """A 32-bit seed for one purpose of a run (``path``), independent of the others."""
    return int(np.random.SeedSequence([seed, *path]).generate_state(1, dtype=np.uint32)[0])


# --- the targets of one chunk (what a worker runs) ------------------------------------------------------


def chunk_targets(positions: np.ndarray, network: dict[str, np.ndarray], target: str, rollout_games: int,
                  truncate: int, seed: int) -> np.ndarray:
    """``float32[K, 5]``: the targets of ``positions`` (``int8[K, 2, 26]``,
    unfinished, seen by the side that has just moved) by the network whose
    file arrays are ``network`` (:meth:`NetEvaluator.arrays`), with the
    endgame tables, on one thread: ``"ply1"``, its 1-ply values;
    ``"rollout"``, ``rollout_games`` games of a rollout from each position
    (the other side to roll, dice of ``seed``), truncated after
    ``truncate`` plies (0: played out) and variance-reduced, turned back to
    the side that moved. The same arguments give the same bits anywhere:
    what a process pool and a Dask cluster run.

    >>> net = NetEvaluator.random("backgammon", hidden=(4,), seed=0)
    >>> from bansugoroku_fast import Position
    >>> after = Position.initial("backgammon").array[None]
    >>> chunk_targets(after, net.arrays(), "rollout", 4, 3, seed=1).shape
    (1, 5)
    """
    net = _network(network)
    if target == "ply1":
        return ply_values(positions, net.rules, net, 1, 1).astype(np.float32)
    result = rollout(swap_sides(positions), net.rules, games=rollout_games, policy=EvaluatorPolicy(net), seed=seed,
                     threads=1, truncate=truncate or None, variance_reduction=True)
    counts = np.asarray(result.counts, dtype=np.float64).reshape(len(positions), 2, 4)
    shares = counts / counts.sum(axis=(1, 2))[:, None, None]
    roller = np.stack([shares[:, 0, 1:].sum(axis=1), shares[:, 0, 2:].sum(axis=1), shares[:, 0, 3],
                       shares[:, 1, 2:].sum(axis=1), shares[:, 1, 3]], axis=1)
    mover = np.clip(flip(roller), 0.0, 1.0)     # luck taken out may leave a figure a little outside [0, 1]
    return _ordered(mover).astype(np.float32)


def _ordered(p: np.ndarray) -> np.ndarray:
    """Cumulative probabilities put in order (each slot at most the one it is part of)."""
    p[:, 1] = np.minimum(p[:, 1], p[:, 0])
    p[:, 2] = np.minimum(p[:, 2], p[:, 1])
    p[:, 3] = np.minimum(p[:, 3], 1 - p[:, 0])
    p[:, 4] = np.minimum(p[:, 4], p[:, 3])
    return p


def _network(arrays: dict[str, np.ndarray]) -> NetEvaluator:
    """The network of file arrays (its race network too), with the endgame tables."""
    return NetEvaluator.from_arrays(arrays).with_endgames()


# --- where chunks run -------------------------------------------------------------------------------------


Task = tuple[np.ndarray, dict[str, np.ndarray], str, int, int, int]


def _run_tasks(tasks: dict[int, Task], workers: int, client: Any) -> Iterator[tuple[int, np.ndarray]]:
    """``(index, targets)`` of each task as it finishes: on a Dask
    ``client``, on ``workers`` processes, or here (``workers == 1``)."""
    if client is not None:
        from distributed import as_completed

        futures = {client.submit(chunk_targets, *task, pure=False): index for index, task in tasks.items()}
        for future in as_completed(futures):
            yield futures[future], future.result()
        return
    if workers == 1:
        for index, task in tasks.items():
            yield index, chunk_targets(*task)
        return
    context = multiprocessing.get_context("spawn")     # no fork of a process with a thread pool
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
        pending = {pool.submit(chunk_targets, *task): index for index, task in tasks.items()}
        for future in concurrent.futures.as_completed(pending):
            yield pending[future], future.result()


# --- a run ----------------------------------------------------------------------------------------------


def opponents(rules: Rules) -> tuple[str, ...]:
    """The learning curve's opponents: ``"random"``, ``"heuristic"``, and ``"pubeval"`` in backgammon."""
    return ("random", "heuristic", "pubeval") if rules.is_backgammon else ("random", "heuristic")


@dataclasses.dataclass
class RoundsRun:
    """A run's state after its last finished round: ``parameters`` (a
    NetEvaluator's layers), ``adam``, ``rounds_done`` and ``curve`` (one
    dict a round: ``round``, ``positions``, ``seconds``, ``loss`` and each
    opponent's ``[ppg, stderr]``)."""

    config: RoundsConfig
    parameters: list[np.ndarray]
    adam: fitting.Adam
    rounds_done: int = 0
    curve: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    contact: NetEvaluator | None = None     # kind "race": the network whose race network this is

    def network(self) -> NetEvaluator:
        """The network as it stands, with the endgame tables (kind
        ``"race"``: the contact network with it as its race network)."""
        config = self.config
        net = fitting.evaluator(self.parameters, config.rules, config.encoding, config.activation, endgames=True)
        return self.contact.with_race(net).with_endgames() if self.contact is not None else net


def _round_folder(folder: str, index: int) -> str:
    return os.path.join(folder, f"round-{index:04d}")


def _check_folder(folder: str, config: RoundsConfig) -> None:
    """Create ``folder``'s ``run.json``, or check that it is this run's."""
    if not os.path.isdir(folder):
        parent = os.path.dirname(os.path.abspath(folder))
        if not os.path.isdir(parent):
            raise InvalidTrainingError(f"folder: {parent} does not exist")
        os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "run.json")
    if not os.path.exists(path):
        atomic_json(path, {"version": ROUNDS_VERSION, "library": __version__, "config": config.as_dict()})
        return
    saved = read_json(path)
    if not isinstance(saved, dict) or saved.get("version") != ROUNDS_VERSION:
        version = saved.get("version") if isinstance(saved, dict) else None
        raise InvalidTrainingError(f"{path}: a run folder of version {version!r}, this library reads "
                                   f"{ROUNDS_VERSION}")
    try:
        kept = RoundsConfig.from_dict(saved["config"])
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidTrainingError(f"{path}: a damaged run file ({error})") from None
    if kept.rules != config.rules:
        raise InvalidTrainingError(f"{path}: the run plays {kept.rules.short_name}, not {config.rules.short_name}")
    if dataclasses.replace(config, **{name: getattr(kept, name) for name in RESUMABLE}) != kept:
        raise InvalidTrainingError(f"{path}: the run was made with another configuration ({kept.as_dict()}); "
                                   f"only {', '.join(RESUMABLE)} may change")
    if kept != config:      # a longer run: the file says so
        atomic_json(path, {**saved, "config": config.as_dict()})


def _starting(config: RoundsConfig) -> RoundsRun:
    """Round 0's network: the ``start`` file's layers, or random ones
    (kind ``"race"``: the race network's, beside the ``contact`` file's
    network)."""
    contact_net = _contact(config) if config.kind == "race" else None
    if config.start:
        try:
            net = NetEvaluator.load(config.start, rules=config.rules)
        except ValueError as error:
            raise InvalidTrainingError(f"start: {error}") from None
        sizes = (encoding_size(config.encoding), *config.hidden, 5)
        if (net.layer_sizes, net.encoding, net.activation) != (sizes, config.encoding, config.activation):
            raise InvalidTrainingError(
                f"start: {config.start} is a {net!r}, not the configuration's {'-'.join(map(str, sizes))} "
                f"{config.activation} {config.encoding}")
        parameters = [np.array(p) for p in (*net.weights, *net.biases)]
    else:
        rng = np.random.default_rng(_seed(config.seed, INIT_STREAM))
        parameters = fitting.initial_parameters(encoding_size(config.encoding), config.hidden, rng)
    return RoundsRun(config, parameters, fitting.Adam(parameters, config.rate), contact=contact_net)


def _contact(config: RoundsConfig) -> NetEvaluator:
    """The ``contact`` file's network (its own race network, if any, left out)."""
    try:
        net = NetEvaluator.load(config.contact, rules=config.rules).with_race(None)
    except ValueError as error:
        raise InvalidTrainingError(f"contact: {error}") from None
    if net.encoding != config.encoding:
        raise InvalidTrainingError(f"contact: {config.contact} reads {net.encoding!r}; a race network reads its "
                                   f"network's encoding, not {config.encoding!r}")
    return net


def _load_fit(path: str, run: RoundsRun) -> float:
    """Round's ``fit.npz`` into ``run`` (parameters and Adam); its loss."""
    data = read_npz(path)
    try:
        parameters = [np.array(data[f"param_{k}"], dtype=np.float32) for k in range(len(run.parameters))]
        run.adam.restore(data)
        loss = float(data["loss"])
    except (KeyError, ValueError) as error:
        raise InvalidTrainingError(f"{path}: a damaged fit file ({error})") from None
    if [p.shape for p in parameters] != [p.shape for p in run.parameters]:
        raise InvalidTrainingError(f"{path}: the layers' shapes differ from the configuration's")
    run.parameters[:] = parameters
    return loss


def train_on_rollouts(config: RoundsConfig, folder: str, *, workers: int = 1, client: Any = None,
                      progress: bool = True) -> RoundsRun:
    """Run (or go on with) the rounds of ``config`` in ``folder`` (see the
    module): ``workers`` processes make the targets, or the Dask
    ``client``'s workers; returns the state after the last round.
    Raises :class:`~bansugoroku_fast.errors.InvalidTrainingError` naming
    the file for a folder of another run, version or rules, or a damaged
    file, before any work."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidTrainingError(f"workers must be a positive integer, got {workers!r}")
    _check_folder(folder, config)
    run = _starting(config)
    with tqdm(total=config.rounds, unit="round", disable=not progress, dynamic_ncols=True,
              desc=f"rollouts {config.rules.short_name}") as bar:
        for index in range(config.rounds):
            _round(run, folder, index, workers, client, progress)
            bar.update(1)
            bar.set_postfix_str(" ".join(f"{name} {value[0]:+.3f}" for name, value in run.curve[-1].items()
                                         if isinstance(value, list)))
    return run


def _round(run: RoundsRun, folder: str, index: int, workers: int, client: Any, progress: bool) -> None:
    config, here = run.config, _round_folder(folder, index)
    os.makedirs(here, exist_ok=True)
    began = time.perf_counter()
    fit_path, net_path, score_path = (os.path.join(here, name) for name in ("fit.npz", "net.npz", "score.json"))
    if os.path.exists(fit_path) and os.path.exists(net_path):
        loss = _load_fit(fit_path, run)
    else:
        positions = _positions(run, folder, index)
        _targets(run, here, positions, index, workers, client, progress)
        loss = _fit(run, folder, index)
        arrays = {f"param_{k}": p for k, p in enumerate(run.parameters)}
        atomic_savez(fit_path, {**arrays, **run.adam.state(), "loss": np.float64(loss)})
        run.network().save(net_path)
    if os.path.exists(score_path):
        point = read_json(score_path)
    else:
        point = {"round": index, "positions": config.positions, "seconds": round(time.perf_counter() - began, 1),
                 "loss": loss}
        player = EvaluatorPolicy(run.network())
        for name in opponents(config.rules):
            score = duplicate_match(config.rules, player, name, config.eval_games, EVAL_SEED, progress=False)
            point[name] = [score.ppg, score.stderr]
        atomic_json(score_path, point)
    run.rounds_done = index + 1
    run.curve = run.curve[:index] + [point]
    atomic_json(os.path.join(folder, "curve.json"), run.curve)
    run.network().with_endgames(False).save(os.path.join(folder, "net.npz"))
    plot_rounds(run.curve, os.path.join(folder, "curve.png"), config)


# --- stage 1: positions -------------------------------------------------------------------------------------


def _positions(run: RoundsRun, folder: str, index: int) -> np.ndarray:
    path = os.path.join(_round_folder(folder, index), "positions.npz")
    if os.path.exists(path):
        data = read_npz(path)
        kept = data.get("positions")
        if kept is None or kept.dtype != np.int8 or kept.shape[1:] != (2, 26):
            raise InvalidTrainingError(f"{path}: a damaged positions file (no int8[N, 2, 26] 'positions')")
        return kept
    config = run.config
    net = run.network()
    records = play_games(config.rules, config.games, policy=EvaluatorPolicy(net),
                         seed=_seed(config.seed, POSITIONS_STREAM, index), threads=1)
    rng = np.random.default_rng(_seed(config.seed, POSITIONS_STREAM, index, 1))
    played = _trainable(np.unique(records.after, axis=0), config)
    wanted = round(config.positions * config.disagreement)
    disputed = _trainable(_disagreements(records.positions, records.dice, net, _reference(run, folder, index)),
                          config)
    disputed = disputed[rng.permutation(len(disputed))[:wanted]]
    rest = played[rng.permutation(len(played))[:config.positions - len(disputed)]]
    positions = np.ascontiguousarray(np.concatenate([disputed, rest]))
    atomic_savez(path, {"positions": positions, "disputed": np.int64(len(disputed))})
    return positions


def _trainable(boards: np.ndarray, config: RoundsConfig) -> np.ndarray:
    """The boards (seen by the side that moved) neither finished nor valued
    by the endgame tables (kind ``"race"``: the races among them)."""
    if not len(boards):
        return boards
    going = outcome(boards, config.rules).winner < 0
    tabled = race_batch(swap_sides(boards), config.rules, outside="nan").in_table
    wanted = going & ~tabled
    if config.kind == "race":
        wanted &= ~contact(boards)
    return np.ascontiguousarray(boards[wanted])


def _reference(run: RoundsRun, folder: str, index: int) -> Any:
    """The player this round's network is compared with: the previous round's network, or a built-in policy."""
    if index == 0:
        return resolve_policy("pubeval" if run.config.rules.is_backgammon else "heuristic", run.config.rules)
    return EvaluatorPolicy(NetEvaluator.load(os.path.join(_round_folder(folder, index - 1), "net.npz"),
                                             rules=run.config.rules).with_endgames())


def _disagreements(before: np.ndarray, dice: np.ndarray, net: NetEvaluator, reference: Any) -> np.ndarray:
    """The children both players choose at each (position, roll) where they differ."""
    plays = generate_plays(before, dice, net.rules, fields=("children",))
    mine = EvaluatorPolicy(net)(plays.children, plays.offsets)
    theirs = _choose(reference, before, plays.children, plays.offsets, net.rules)
    differ = (mine != theirs) & (mine >= 0)
    starts = plays.offsets[:-1][differ]
    return np.concatenate([plays.children[starts + mine[differ]], plays.children[starts + theirs[differ]]])


def _choose(player: Any, parents: np.ndarray, children: np.ndarray, offsets: np.ndarray,
            rules: Rules) -> np.ndarray:
    """``player``'s choice in each group of children (an EvaluatorPolicy, or a resolved built-in policy)."""
    if isinstance(player, EvaluatorPolicy):
        return np.asarray(player(children, offsets))
    zeros = np.zeros(len(parents), dtype=np.int64)
    return np.asarray(choose(player, np.ascontiguousarray(parents), offsets, children, rules, 0, zeros, zeros))


# --- stage 2: targets -----------------------------------------------------------------------------------------


def _targets(run: RoundsRun, here: str, positions: np.ndarray, index: int, workers: int, client: Any,
             progress: bool) -> None:
    config = run.config
    arrays = run.network().arrays()
    chunks = range(0, len(positions), config.chunk)
    tasks: dict[int, Task] = {}
    for number, first in enumerate(chunks):
        if not os.path.exists(_chunk_path(here, number)):
            tasks[number] = (positions[first:first + config.chunk], arrays, config.target, config.rollout_games,
                             config.truncate, _seed(config.seed, TARGETS_STREAM, index, number))
    with tqdm(total=len(chunks), initial=len(chunks) - len(tasks), unit="chunk", disable=not progress, leave=False,
              desc=f"round {index} targets ({config.target})", dynamic_ncols=True) as bar:
        for number, targets in _run_tasks(tasks, workers, client):
            atomic_savez(_chunk_path(here, number), {"targets": targets})
            bar.update(1)


def _chunk_path(here: str, number: int) -> str:
    return os.path.join(here, f"targets-{number:05d}.npz")


def round_data(folder: str, index: int, rules: Rules, encoding: str) -> tuple[np.ndarray, np.ndarray]:
    """A finished round's inputs (encoded) and targets, in position order."""
    here = _round_folder(folder, index)
    positions = read_npz(os.path.join(here, "positions.npz"))["positions"]
    chunks = sorted(name for name in os.listdir(here) if name.startswith("targets-"))
    targets = np.concatenate([_chunk(os.path.join(here, name)) for name in chunks]) if chunks else np.zeros((0, 5))
    if len(targets) != len(positions):
        raise InvalidTrainingError(f"{here}: {len(targets)} targets for {len(positions)} positions")
    return encode_valid(positions, encoding, rules), targets.astype(np.float32)


def _chunk(path: str) -> np.ndarray:
    data = read_npz(path)
    targets = data.get("targets")
    if targets is None or targets.ndim != 2 or targets.shape[1] != 5 or not np.isfinite(targets).all():
        raise InvalidTrainingError(f"{path}: a damaged targets file (no finite float[K, 5] 'targets')")
    return targets


# --- stage 3: the fit --------------------------------------------------------------------------------------------


def _fit(run: RoundsRun, folder: str, index: int) -> float:
    config = run.config
    parts = [round_data(folder, r, config.rules, config.encoding) for r in range(max(0, index - config.window + 1),
                                                                                  index + 1)]
    inputs = np.concatenate([p[0] for p in parts])
    targets = np.concatenate([p[1] for p in parts])
    rng = np.random.default_rng(_seed(config.seed, FIT_STREAM, index))
    return fitting.fit_epochs(run.parameters, run.adam, config.activation, inputs, targets, config.epochs,
                              config.minibatch, rng)


# --- the learning curve ------------------------------------------------------------------------------------------


def plot_rounds(curve: Sequence[dict[str, Any]], path: str, config: RoundsConfig) -> None:
    """The learning curve: each opponent's ppg (± 2 standard errors) by round, written atomically."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .._files import write_atomically

    figure, axes = plt.subplots(figsize=(7, 4))
    rounds = [point["round"] for point in curve]
    for name in opponents(config.rules):
        ppg = np.array([point[name][0] for point in curve])
        err = np.array([point[name][1] for point in curve])
        axes.errorbar(rounds, ppg, yerr=2 * err, marker="o", capsize=3, label=f"against {name}")
    axes.axhline(0.0, color="grey", linewidth=0.8)
    axes.set_xlabel("round")
    axes.set_ylabel("points per game (duplicate, ±2 s.e.)")
    axes.set_title(f"{config.rules.short_name}: targets {config.target}, hidden {config.hidden}, seed {config.seed}")
    axes.legend()
    figure.tight_layout()
    try:
        write_atomically(path, lambda temporary: figure.savefig(temporary, format="png"))
    finally:
        plt.close(figure)

