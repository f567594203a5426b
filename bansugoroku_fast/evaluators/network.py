"""Networks: a multilayer perceptron over an input encoding, and its ``.npz`` file.

A :class:`NetEvaluator` has one or two hidden layers (``"sigmoid"`` or
``"relu"`` units) and five sigmoid outputs, float32 throughout: for positions
seen by the side that has just moved it gives that side's P(win), P(win 2+),
P(win 3), P(lose 2+), P(lose 3), made consistent by :func:`consistent`.

**The file** (``numpy.savez``, read with ``allow_pickle=False``), every key
required and no other:

* ``version``: integer 1 (:data:`FORMAT_VERSION`);
* ``encoding``: str, a name in :data:`~.encoding.ENCODINGS`;
* ``rules``: str, the rules the network was trained for, as
  :meth:`Rules.parse <bansugoroku_fast.Rules.parse>` reads it
  (``Rules.short_name``: ``"backgammon"``, ``"ban/arrival/multiplied"``...);
* ``activation``: str, ``"sigmoid"`` or ``"relu"`` (the hidden units');
* ``weights_0``, ``biases_0``, ..., ``weights_L``, ``biases_L`` (L = 1 or 2
  hidden layers): ``weights_k`` is ``[inputs, outputs]`` (so a layer is
  ``x @ weights_k + biases_k``), ``biases_k`` is ``[outputs]``; the first
  layer's inputs are the encoding's units, each layer's inputs the previous
  one's outputs, the last layer's outputs 5. Real numbers, all finite; stored
  as float32.

A network with a race network (:meth:`NetEvaluator.with_race`) also holds
``race_activation`` and the race network's layers ``race_weights_0``,
``race_biases_0``, ... in the same form (the race network shares the
network's encoding and rules).

Loading checks all of it and raises
:class:`~bansugoroku_fast.errors.NetworkFileError` naming the key and what is
wrong; saving writes a temporary file beside the target and renames it, so
nothing half-written is ever left at ``path``.

>>> import os, tempfile
>>> net = NetEvaluator.random("backgammon", hidden=(8,), seed=1)
>>> net.layer_sizes, net.encoding, net.activation
((198, 8, 5), 'raw198', 'sigmoid')
>>> path = os.path.join(tempfile.mkdtemp(), "net.npz")
>>> net.save(path)
>>> NetEvaluator.load(path) == net
True
"""
from __future__ import annotations

import functools
import itertools
import numbers
import os
import zipfile
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import _kernel
from .._files import write_atomically
from ..checks import MAX_THREADS, as_rules
from ..errors import ArgumentTypeError, InvalidArgumentError, InvalidEvaluatorError, NetworkFileError
from ..rules import Rules
from ..typing import RulesLike
from . import kernel_arrays
from .encoding import ENCODINGS, checked_positions

__all__ = ["ACTIVATIONS", "FORMAT_VERSION", "OUTPUTS", "NetEvaluator", "consistent", "layer_outputs", "loss_gradients",
           "sigmoid"]

#: The version of the ``.npz`` format this module reads and writes.
FORMAT_VERSION = 1
#: The hidden units' activations.
ACTIVATIONS = ("sigmoid", "relu")
#: Outputs of every network: P(win), P(win 2+), P(win 3), P(lose 2+), P(lose 3).
OUTPUTS = 5
#: Hidden layers a network may have.
HIDDEN_LAYERS = (1, 2)
#: The positions :meth:`NetEvaluator.score_valid` scores at a time.
SCORE_BLOCK = 16384


def in_blocks(score: Callable[[np.ndarray], np.ndarray], positions: np.ndarray) -> np.ndarray:
    """``float32[N, 5]``: ``score`` of ``positions`` called on blocks of
    :data:`SCORE_BLOCK` (a block's buffers stay in the CPU's cache, and
    none of a large batch's size is faulted in), the results put together.

    >>> in_blocks(lambda block: np.ones((len(block), OUTPUTS), dtype=np.float32), np.zeros((40000, 2, 26))).shape
    (40000, 5)
    """
    if len(positions) <= SCORE_BLOCK:
        return score(positions)
    out = np.empty((len(positions), OUTPUTS), dtype=np.float32)
    for start in range(0, len(positions), SCORE_BLOCK):
        out[start:start + SCORE_BLOCK] = score(positions[start:start + SCORE_BLOCK])
    return out
_HEADER_KEYS = ("version", "encoding", "rules", "activation")
#: The prefix of a race network's keys in its network's file.
RACE_PREFIX = "race_"


def sigmoid(x: np.ndarray) -> np.ndarray:
    """The logistic function, in the dtype of ``x``, without overflow warnings."""
    half = x.dtype.type(0.5)
    result: np.ndarray = half + half * np.tanh(half * x)
    return result


def probability_rows(probabilities: object, name: str = "probabilities") -> np.ndarray:
    """``probabilities`` as an array of rows of five real numbers (``[N, 5]``), or a typed error
    naming ``name``: the five outcome probabilities of each position."""
    try:
        array = np.asarray(probabilities)
    except ValueError as error:
        raise InvalidArgumentError(f"{name} must be an array of shape (N, 5): {error}") from None
    if array.dtype.kind not in "fiu" or array.dtype == np.bool_:
        raise ArgumentTypeError(f"{name} must be real numbers (float[N, 5]), got dtype {array.dtype}")
    if array.ndim != 2 or array.shape[1] != OUTPUTS:
        raise InvalidArgumentError(f"{name} must have shape (N, 5), five per position, got {array.shape}")
    return array


def consistent(probabilities: np.ndarray) -> np.ndarray:
    """Five outcome probabilities per row made consistent, in place.

    Each is clipped to [0, 1], then P(w2+) <= P(win), P(w3) <= P(w2+),
    P(l2+) <= P(lose) = 1 - P(win) and P(l3) <= P(l2+), each lowered to its
    bound, as GNU Backgammon does with its outputs.

    Parameters
    ----------
    probabilities : numpy.ndarray
        ``float[N, 5]``, changed in place.

    Returns
    -------
    numpy.ndarray
        ``probabilities`` itself.

    Raises
    ------
    ArgumentTypeError
        Not a float numpy array (a list or an integer array cannot be changed
        in place).
    InvalidArgumentError
        Not of shape ``(N, 5)``.

    Examples
    --------
    >>> consistent(np.array([[0.7, 0.8, 0.9, 0.5, 0.1]], dtype=np.float32)).tolist()
    [[0.699999988079071, 0.699999988079071, 0.699999988079071, 0.30000001192092896, 0.10000000149011612]]
    """
    if not isinstance(probabilities, np.ndarray) or probabilities.dtype.kind != "f":
        raise ArgumentTypeError("consistent changes its argument in place: it takes a float numpy array, got "
                                f"{type(probabilities).__name__} {getattr(probabilities, 'dtype', '')}".rstrip())
    probability_rows(probabilities)
    np.clip(probabilities, 0, 1, out=probabilities)
    win, win2, win3, lose2, lose3 = (probabilities[:, k] for k in range(OUTPUTS))
    np.minimum(win2, win, out=win2)
    np.minimum(win3, win2, out=win3)
    np.minimum(lose2, 1 - win, out=lose2)
    np.minimum(lose3, lose2, out=lose3)
    return probabilities


class NetEvaluator:
    """A network that scores positions seen by the side that has just moved.

    ``weights[k]`` is ``[inputs, outputs]``, ``biases[k]`` is ``[outputs]``;
    1 or 2 hidden layers, then 5 outputs; ``encoding`` names the input
    encoding, ``rules`` the rules it plays, ``activation`` the hidden units'.
    Calling it on ``int8[N, 2, 26]`` positions gives ``float32[N, 5]``
    (finished positions too: :func:`~bansugoroku_fast.evaluators.evaluate`
    scores those from their outcome instead).

    Parameters
    ----------
    weights : Sequence of numpy.ndarray
        ``weights[k]`` is ``[inputs, outputs]`` of layer ``k``: 1 or 2 hidden
        layers, then 5 outputs.
    biases : Sequence of numpy.ndarray
        ``biases[k]`` is ``[outputs]`` of layer ``k``.
    encoding : str
        The input encoding, a key of :data:`ENCODINGS`.
    rules : ~bansugoroku_fast.typing.RulesLike
        The rules the network plays.
    activation : str
        The hidden units' activation, one of :data:`ACTIVATIONS`.
    endgames : bool
        Score races on the endgame tables' points from the exact tables
        instead of the network.
    race : NetEvaluator or None
        The network that scores the positions without contact that the
        tables do not (:meth:`with_race`).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> net = NetEvaluator.random("backgammon", hidden=(8, 4), activation="relu", seed=0)
    >>> net(Position.initial().array[None]).shape
    (1, 5)
    >>> NetEvaluator([np.zeros((198, 8))], [np.zeros(8)])
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidEvaluatorError: a network has 1 or 2 hidden layers then the output layer ...
    """

    def __init__(self, weights: Sequence[Any], biases: Sequence[Any], *, encoding: str = "raw198",
                 rules: RulesLike = "backgammon", activation: str = "sigmoid", endgames: bool = False,
                 race: NetEvaluator | None = None) -> None:
        self._encoding, self._activation = _checked_names(encoding, activation, "")
        self._rules = as_rules(rules)
        self._weights, self._biases = _checked_layers(list(weights), list(biases), self._encoding, "")
        self._endgames = _checked_endgames(endgames)
        self._race = self._checked_race(race)
        self._model: Any = None

    def _copy(self, **changes: Any) -> NetEvaluator:
        """A copy sharing the arrays, with some of ``_weights``, ``_biases``,
        ``_endgames`` and ``_race`` replaced (already checked)."""
        net = type(self).__new__(type(self))
        net.__dict__.update(self.__dict__)
        for name, value in changes.items():
            setattr(net, f"_{name}", value)
        net._model = None
        return net

    # -- construction --

    @classmethod
    def random(cls, rules: Any = "backgammon", hidden: Sequence[int] = (80,), *, encoding: str = "raw198",
               activation: str = "sigmoid", seed: int = 0) -> NetEvaluator:
        """A network with random weights (normal, standard deviation
        1/sqrt(inputs) per layer; biases 0): a starting point for training
        and a subject for tests."""
        generator = np.random.default_rng(seed)
        sizes = [ENCODINGS.get(encoding, 0), *hidden, OUTPUTS]
        weights = [generator.normal(0, 1 / np.sqrt(max(n, 1)), (n, m)).astype(np.float32)
                   for n, m in itertools.pairwise(sizes)]
        biases = [np.zeros(m, dtype=np.float32) for m in sizes[1:]]
        return cls(weights, biases, encoding=encoding, rules=rules, activation=activation)

    def rounded(self) -> NetEvaluator:
        """This network with its weights rounded so that the kernels can
        score its children exactly in 16-bit integers (:attr:`exact`): each
        first-layer weight to a multiple of its input's scale / 256, each
        output weight to a multiple of 1 / 1024. The scores move by about
        a thousandth; a network trained in floats plays as well rounded
        (``docs/networks.md`` measures it).

        >>> net = NetEvaluator.random("backgammon", hidden=(16,), activation="relu", seed=0)
        >>> net.exact, net.rounded().exact
        (False, True)
        """
        rounded = kernel_arrays.rounded_layers(self._weights, self._biases)
        weights, biases = _checked_layers(*rounded, self._encoding, "")
        race = self._race.rounded() if self._race is not None else None
        return self._copy(weights=weights, biases=biases, race=race)

    def with_endgames(self, endgames: bool = True) -> NetEvaluator:
        """This network answering from the exact endgame tables (or not):
        a position both of whose sides the tables of its rules cover (a
        race on the tables' six points: two-sided where both sides have at
        most 6 stones there, else the one-sided convolution, as GNU
        Backgammon's evaluation answers from its bear-off databases) is
        scored from them, not the layers, wherever the network scores:
        :meth:`__call__`, searches, the ``"net"`` policies' games and
        rollouts (docs/endgames.md says what is exact). The shipped
        networks do (:meth:`shipped`); the weights are shared.

        >>> from bansugoroku_fast import Position
        >>> net = NetEvaluator.random("backgammon", hidden=(8,), seed=1).with_endgames()
        >>> board = Position([[14, 1] + [0] * 24, [14, 0, 0, 0, 0, 0, 1] + [0] * 19])  # row 1 rolls next
        >>> round(float(net(board.array[None])[0, 0]) * 36, 4)    # row 0 wins unless row 1's 6 comes off
        9.0
        """
        return self._copy(endgames=_checked_endgames(endgames))

    def with_race(self, race: NetEvaluator | None) -> NetEvaluator:
        """This network handing every position without contact (no stone
        of either side has one of the other still ahead of it) to ``race``,
        a network of the same encoding and rules, wherever it scores
        (:meth:`__call__`, searches, games, rollouts), except where its
        endgame tables answer: GNU Backgammon's race network, beside its
        contact network. None: no race network. The weights are shared.

        >>> from bansugoroku_fast import Position
        >>> net = NetEvaluator.random("backgammon", hidden=(8,), seed=1)
        >>> race = NetEvaluator.random("backgammon", hidden=(4,), seed=2)
        >>> race_board = Position([[0, 0, 0, 0, 0, 0, 15] + [0] * 19, [0, 0, 0, 0, 0, 0, 15] + [0] * 19])
        >>> bool((net.with_race(race)(race_board.array[None]) == race(race_board.array[None])).all())
        True
        >>> net.with_race(race).with_race(None) == net
        True
        """
        return self._copy(race=self._checked_race(race))

    def _checked_race(self, race: object) -> NetEvaluator | None:
        if race is None:
            return None
        if not isinstance(race, NetEvaluator):
            raise ArgumentTypeError(f"race must be a NetEvaluator or None, got {type(race).__name__}")
        if race._race is not None:
            raise InvalidEvaluatorError("a race network has no race network of its own")
        if (race._encoding, race._rules.short_name) != (self._encoding, self._rules.short_name):
            raise InvalidEvaluatorError(
                f"the race network reads {race._encoding!r} for {race._rules.short_name}; its network reads "
                f"{self._encoding!r} for {self._rules.short_name}")
        if not _kernel.net_fits(race.layer_sizes):
            raise InvalidEvaluatorError(f"a race network's hidden layers have at most {_kernel.NET_MAX_HIDDEN} "
                                        f"units, got {race.layer_sizes[1:-1]}")
        return race._copy(endgames=False) if race._endgames else race

    @property
    def exact(self) -> bool:
        """Whether the kernels score this network's children in 16-bit
        integers, sixteen units to a vector, with the same sums as floats
        (``bsf_net.h``): one hidden layer of ReLU units, a multiple of 16,
        weights as :meth:`rounded` makes them and first-layer sums that
        stay within 16 bits on every position."""
        return bool(self.native_model().exact)

    @classmethod
    def shipped(cls, rules: Any) -> NetEvaluator:
        """The network shipped with the package for ``rules`` (the one the
        name ``"net"`` stands for), answering from the exact endgame
        tables where they apply (:meth:`with_endgames`), loaded once per
        rule set and shared: a NetEvaluator never changes. No network for
        ``rules`` raises :class:`~bansugoroku_fast.errors.NetworkFileError`.

        >>> NetEvaluator.shipped("backgammon").rules.variant, NetEvaluator.shipped("backgammon").endgames
        ('backgammon', True)
        >>> NetEvaluator.shipped("backgammon") is NetEvaluator.shipped("backgammon")
        True
        """
        return _shipped(as_rules(rules))

    @classmethod
    def load(cls, path: str | os.PathLike[str], rules: Any = None) -> NetEvaluator:
        """The network saved at ``path``; with ``rules``, also check that it
        was trained for them (the ``start`` option aside, which no position
        shows). Any problem raises
        :class:`~bansugoroku_fast.errors.NetworkFileError` naming the key."""
        name = os.fspath(path)
        try:
            with np.load(name, allow_pickle=False) as data:
                arrays = {key: data[key] for key in data.files}
        except FileNotFoundError:
            raise NetworkFileError("no such file", name) from None
        except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
            raise NetworkFileError(f"not a network file (.npz without pickles): {error}", name) from None
        net = cls.from_arrays(arrays, where=name)
        if rules is not None:
            net.check_rules(rules, where=name)
        return net

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], *, where: str = "") -> NetEvaluator:
        """The network of a file's arrays by key (what :meth:`arrays`
        gives and :meth:`load` reads), checked as :meth:`load` checks a
        file; ``where`` names their source in a
        :class:`~bansugoroku_fast.errors.NetworkFileError`.

        >>> net = NetEvaluator.random("backgammon", hidden=(4,), seed=1)
        >>> NetEvaluator.from_arrays(net.arrays()) == net
        True
        """
        path = where or "arrays"
        missing = [key for key in _HEADER_KEYS if key not in arrays]
        if missing:
            raise NetworkFileError(f"missing (a network file holds {', '.join(_HEADER_KEYS)} and its layers)",
                                   path, missing[0])
        version = arrays["version"]
        if version.shape != () or version.dtype.kind not in "iu" or int(version) != FORMAT_VERSION:
            raise NetworkFileError(f"this library reads version {FORMAT_VERSION}, got {version!r}", path, "version")
        header = {key: _text(arrays[key], key, path) for key in _HEADER_KEYS[1:]}
        encoding, activation = _checked_names(header["encoding"], header["activation"], path)
        try:
            rules = Rules.parse(header["rules"])
        except ValueError as error:
            raise NetworkFileError(f"cannot read the rules: {error}", path, "rules") from None
        race_keys = {key for key in arrays if key.startswith(RACE_PREFIX)}
        net = cls._read_layers(arrays, "", set(arrays) - race_keys - set(_HEADER_KEYS), encoding, activation, rules,
                               path)
        if race_keys:
            activation_key = f"{RACE_PREFIX}activation"
            if activation_key not in arrays:
                raise NetworkFileError("missing (a race network's layers come with its activation)", path,
                                       activation_key)
            _, race_activation = _checked_names(encoding, _text(arrays[activation_key], activation_key, path), path)
            race = cls._read_layers(arrays, RACE_PREFIX, race_keys - {activation_key}, encoding, race_activation,
                                    rules, path)
            try:
                net = net.with_race(race)
            except InvalidEvaluatorError as error:
                raise NetworkFileError(str(error), path, f"{RACE_PREFIX}weights_0") from None
        return net

    @classmethod
    def _read_layers(cls, arrays: dict[str, np.ndarray], prefix: str, keys: set[str], encoding: str,
                     activation: str, rules: Rules, path: str) -> NetEvaluator:
        """The network of the layer keys ``keys`` (each ``prefix`` then
        ``weights_k`` or ``biases_k``), checked."""
        layers = sum(1 for key in keys if key.startswith(f"{prefix}weights_"))
        expected = {f"{prefix}{kind}_{k}" for k in range(layers) for kind in ("weights", "biases")}
        stray = sorted(keys - expected) + sorted(expected - keys)
        if stray:
            what = "unexpected" if stray[0] in keys else "missing"
            raise NetworkFileError(f"{what} (layers are {prefix}weights_0, {prefix}biases_0, ... numbered from 0)",
                                   path, stray[0])
        weights, biases = _checked_layers([arrays[f"{prefix}weights_{k}"] for k in range(layers)],
                                          [arrays[f"{prefix}biases_{k}"] for k in range(layers)], encoding, path,
                                          prefix)
        net = cls.__new__(cls)
        net._encoding, net._activation, net._rules = encoding, activation, rules
        net._weights, net._biases = weights, biases
        net._endgames, net._race = False, None
        net._model = None
        return net

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the network to ``path`` (exactly that name) atomically: a
        temporary file in the same folder, renamed over ``path`` once
        complete; on any failure ``path`` is untouched and the temporary
        file removed."""
        def write(temporary: str) -> None:
            with open(temporary, "wb") as file:
                np.savez(file, **self.arrays())  # type: ignore[arg-type]

        write_atomically(path, write, durable=True)

    def arrays(self) -> dict[str, np.ndarray]:
        """The file's arrays by key (what :meth:`save` writes)."""
        arrays: dict[str, np.ndarray] = {
            "version": np.array(FORMAT_VERSION, dtype=np.int64),
            "encoding": np.array(self._encoding),
            "rules": np.array(self._rules.short_name),
            "activation": np.array(self._activation),
        }
        for k, (weights, biases) in enumerate(zip(self._weights, self._biases)):
            arrays[f"weights_{k}"], arrays[f"biases_{k}"] = weights, biases
        if self._race is not None:
            race = self._race.arrays()
            arrays[f"{RACE_PREFIX}activation"] = race["activation"]
            arrays.update({f"{RACE_PREFIX}{key}": value for key, value in race.items() if key not in _HEADER_KEYS})
        return arrays

    # -- what it is --

    @property
    def encoding(self) -> str:
        return self._encoding

    @property
    def activation(self) -> str:
        return self._activation

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def endgames(self) -> bool:
        """Whether it answers from the exact endgame tables where they
        apply (:meth:`with_endgames`; not part of the file)."""
        return self._endgames

    @property
    def race(self) -> NetEvaluator | None:
        """The network that scores the positions without contact the
        tables do not (:meth:`with_race`), or None."""
        return self._race

    @property
    def weights(self) -> tuple[np.ndarray, ...]:
        """Each layer's ``float32[inputs, outputs]`` (read-only views)."""
        return tuple(_read_only(w) for w in self._weights)

    @property
    def biases(self) -> tuple[np.ndarray, ...]:
        return tuple(_read_only(b) for b in self._biases)

    @property
    def layer_sizes(self) -> tuple[int, ...]:
        """Inputs, each hidden layer's units, outputs."""
        return (self._weights[0].shape[0], *(w.shape[1] for w in self._weights))

    def check_rules(self, rules: Any, where: str = "") -> None:
        """Raise :class:`~bansugoroku_fast.errors.InvalidEvaluatorError`
        unless the network was trained for ``rules`` (``start`` aside)."""
        wanted = as_rules(rules)
        if wanted.short_name != self._rules.short_name:
            place = f"{where}: " if where else ""
            raise InvalidEvaluatorError(
                f"{place}the network plays {self._rules.short_name}, not {wanted.short_name}"
            )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NetEvaluator):
            return NotImplemented
        mine, theirs = self.arrays(), other.arrays()
        return (self._endgames == other._endgames and mine.keys() == theirs.keys()
                and all(np.array_equal(mine[k], theirs[k]) for k in mine))

    __hash__ = None  # type: ignore[assignment]  # mutable arrays inside: not hashable

    def __repr__(self) -> str:
        sizes = "-".join(map(str, self.layer_sizes))
        tables = " with endgame tables" if self._endgames else ""
        race = f", race network {'-'.join(map(str, self._race.layer_sizes))}" if self._race is not None else ""
        return (f"<NetEvaluator {sizes} {self._activation} {self._encoding} for {self._rules.short_name}"
                f"{race}{tables}>")

    # -- scoring --

    def __call__(self, positions: Any, *, threads: int | None = 1) -> np.ndarray:
        """``float32[N, 5]``: the network's consistent outputs for
        ``int8[N, 2, 26]`` positions these rules accept (checked), computed
        by the kernels on ``threads`` threads (None: every core; the results
        do not depend on it); from the tables where :attr:`endgames` and
        they apply, else from the :attr:`race` network where there is one
        and the position has no contact."""
        return self.score_valid(checked_positions(positions, self._rules), as_threads(threads))

    def score_valid(self, positions: np.ndarray, threads: int = 1) -> np.ndarray:
        """:meth:`__call__` of checked positions and thread count, in blocks
        of :data:`SCORE_BLOCK` (no buffer of a large batch's size is faulted
        in); the kernel computes the features the network reads as it
        scores each position."""
        return in_blocks(lambda block: kernel_arrays.scores(self.native_model(), block, self._rules.code, threads),
                         positions)

    def best_children(self, children: np.ndarray, offsets: np.ndarray, threads: int = 1) -> np.ndarray:
        """``int64[N]``: the index of the child with the greatest 0-ply
        equity in each group ``offsets[i]:offsets[i + 1]`` of checked
        children (-1 for an empty group; ties: the first), a finished child
        worth its outcome's signed value: the choice a game kernel makes
        through ``net_best_child``, in one call. ``threads`` computes the
        features, when the network reads them."""
        values = None
        if self._encoding != "raw198":
            values = _kernel.features(children, self._rules).astype(np.int32)
        return kernel_arrays.best_children(self.native_model(), children, offsets, self._rules.code, values)

    def native_model(self) -> Any:
        """The network as the kernels read it (made once, then kept: the
        arrays never change)."""
        if self._model is None:
            model = self._layers_model()
            if self._race is not None:      # its own model: it answers from this network's tables
                model.use_race(self._race.with_endgames(self._endgames)._layers_model())
            self._model = model
        return self._model

    def _layers_model(self) -> Any:
        """The kernels' model of the layers, with the tables where :attr:`endgames`."""
        model = kernel_arrays.model(self._weights, self._biases, self._encoding, self._activation)
        if self._endgames:
            kernel_arrays.use_tables(model, self._rules)
        return model

    def forward(self, inputs: np.ndarray) -> np.ndarray:
        """``float32[N, 5]``: the consistent outputs for encoded inputs
        ``float32[N, K]`` (:func:`~.encoding.encode`) by numpy's float32
        matmul: the reference the kernels' pass is tested against, and what
        a trainer differentiates (the layers alone: inputs are no
        positions, so no tables and no race network)."""
        return consistent(layer_outputs(self._weights, self._biases, self._activation, inputs)[-1])

    def gradients(self, inputs: np.ndarray, targets: np.ndarray) -> tuple[list[np.ndarray], float]:
        """The gradients of the mean cross-entropy of the five sigmoid
        outputs against ``targets`` (:func:`loss_gradients`), in the order
        ``weights_0, ..., biases_0, ...``, and that loss: what a trainer
        fitting this network's weights takes its steps on."""
        return loss_gradients(self._weights, self._biases, self._activation, inputs, targets)


def layer_outputs(weights: Sequence[np.ndarray], biases: Sequence[np.ndarray], activation: str,
                  inputs: np.ndarray) -> list[np.ndarray]:
    """Every layer's activations of a network in :class:`NetEvaluator`'s
    layout (``weights[k]`` is ``[inputs, outputs]``), the encoded inputs
    first, the raw sigmoid outputs last (before :func:`consistent`), in
    float32 (in float64 for float64 weights, as a gradient check wants):
    the one forward pass in numpy, which :meth:`NetEvaluator.forward`
    and training share.

    >>> net = NetEvaluator.random("backgammon", hidden=(3,), seed=0)
    >>> [a.shape for a in layer_outputs(net.weights, net.biases, "sigmoid", np.zeros((2, 198), np.float32))]
    [(2, 198), (2, 3), (2, 5)]
    """
    layers = [np.asarray(inputs, dtype=np.result_type(weights[0].dtype, np.float32))]  # float32, or wider weights
    last = len(weights) - 1
    for k, (w, b) in enumerate(zip(weights, biases)):
        z = layers[-1] @ w + b
        layers.append(sigmoid(z) if k == last or activation == "sigmoid" else np.maximum(z, 0))
    return layers


def loss_gradients(weights: Sequence[np.ndarray], biases: Sequence[np.ndarray], activation: str,
                   inputs: np.ndarray, targets: np.ndarray) -> tuple[list[np.ndarray], float]:
    """Backpropagation through :func:`layer_outputs`: the gradients of the
    mean over rows (summed over the five outputs) of the cross-entropy of
    each sigmoid output against its target (the gradient at an output's
    logit is ``output - target``), weights first then biases, and that
    mean loss.

    >>> net = NetEvaluator.random("backgammon", hidden=(3,), seed=0)
    >>> grads, loss = loss_gradients(net.weights, net.biases, "relu", np.ones((2, 198), np.float32),
    ...                              np.full((2, 5), 0.5, np.float32))
    >>> [g.shape for g in grads], round(loss, 3) > 0
    ([(198, 3), (3, 5), (3,), (5,)], True)
    """
    layers = layer_outputs(weights, biases, activation, inputs)
    out = layers[-1]
    eps = 1e-7
    loss = -float(np.mean(np.sum(targets * np.log(out + eps) + (1 - targets) * np.log(1 - out + eps), axis=1)))
    delta = ((out - targets) / len(out)).astype(out.dtype)     # float32 in training
    grad_w: list[np.ndarray] = []
    grad_b: list[np.ndarray] = []
    for k in range(len(weights) - 1, -1, -1):
        grad_w.insert(0, layers[k].T @ delta)
        grad_b.insert(0, delta.sum(axis=0))
        if k:
            back = delta @ weights[k].T
            a = layers[k]
            delta = back * (a * (1.0 - a)) if activation == "sigmoid" else back * (a > 0)
    return [*grad_w, *grad_b], loss


@functools.cache
def _shipped(rules: Rules) -> NetEvaluator:
    from .nets import network_file  # the folder of files imports nothing back

    path = network_file(rules)
    if not os.path.exists(path):
        raise NetworkFileError(f"no network ships for {rules.short_name}", path)
    return NetEvaluator.load(path, rules=rules).with_endgames()


def as_threads(threads: object) -> int:
    """``threads`` checked: None (every CPU this process may run on) or an
    integer in 1..:data:`~bansugoroku_fast.batch.MAX_THREADS`."""
    if threads is None:
        return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral) or not 1 <= int(threads) <= MAX_THREADS:
        raise InvalidArgumentError(f"threads must be an integer in 1..{MAX_THREADS} or None, got {threads!r}")
    return int(threads)


def _checked_endgames(endgames: object) -> bool:
    if not isinstance(endgames, (bool, np.bool_)):
        raise InvalidEvaluatorError(f"endgames must be True or False, got {endgames!r}")
    return bool(endgames)


def _read_only(array: np.ndarray) -> np.ndarray:
    view: np.ndarray = array.view()
    view.flags.writeable = False
    return view


def _fail(message: str, path: str, key: str) -> InvalidEvaluatorError:
    """The error of a bad value: a NetworkFileError when it comes from a
    file, else an InvalidEvaluatorError naming the key in the message."""
    if path:
        return NetworkFileError(message, path, key)
    return InvalidEvaluatorError(f"{key}: {message}" if key else message)


def _text(array: np.ndarray, key: str, path: str) -> str:
    """A 0-d str array's text (numpy writes a str as dtype ``<U``; bytes,
    dtype ``S``, as other tools may write it, are read as ASCII)."""
    if array.shape == () and array.dtype.kind == "S":
        try:
            return bytes(array.item()).decode("ascii")
        except UnicodeDecodeError:
            raise _fail("must be ASCII text", path, key) from None
    if array.shape != () or array.dtype.kind != "U":
        raise _fail(f"must be a str, got an array of dtype {array.dtype} and shape {array.shape}", path, key)
    return str(array)


def _checked_names(encoding: object, activation: object, path: str) -> tuple[str, str]:
    if not isinstance(encoding, str) or encoding not in ENCODINGS:
        raise _fail(f"unknown encoding {encoding!r}; accepted: {', '.join(map(repr, ENCODINGS))}", path, "encoding")
    if not isinstance(activation, str) or activation not in ACTIVATIONS:
        raise _fail(f"unknown activation {activation!r}; accepted: {', '.join(map(repr, ACTIVATIONS))}",
                    path, "activation")
    return encoding, activation


def _checked_layers(weights: list[Any], biases: list[Any], encoding: str, path: str,
                    prefix: str = "") -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """The layers as C-contiguous float32 arrays, after checking that they
    chain from the encoding's inputs to 5 outputs and hold finite numbers."""
    if len(weights) != len(biases):
        raise _fail(f"{len(weights)} weight matrices but {len(biases)} bias vectors", path, "")
    if len(weights) - 1 not in HIDDEN_LAYERS:
        raise _fail(f"a network has 1 or 2 hidden layers then the output layer (2 or 3 layers), got {len(weights)}",
                    path, "")
    inputs = ENCODINGS[encoding]
    checked_weights, checked_biases = [], []
    for k, (w, b) in enumerate(zip(weights, biases)):
        outputs = OUTPUTS if k == len(weights) - 1 else None
        w = _real_array(w, f"{prefix}weights_{k}", path)
        if w.ndim != 2 or w.shape[0] != inputs or (outputs and w.shape[1] != outputs) or w.shape[1] < 1:
            wanted = f"({inputs}, {outputs or 'units'})"
            why = f"{encoding!r} has {inputs} inputs" if k == 0 else f"the layer before has {inputs} outputs"
            last = "; the last layer has 5 outputs" if outputs else ""
            raise _fail(f"shape {w.shape}, expected {wanted} ({why}{last})", path, f"{prefix}weights_{k}")
        b = _real_array(b, f"{prefix}biases_{k}", path)
        if b.shape != (w.shape[1],):
            raise _fail(f"shape {b.shape}, expected ({w.shape[1]},) (one per output of {prefix}weights_{k})",
                        path, f"{prefix}biases_{k}")
        checked_weights.append(w)
        checked_biases.append(b)
        inputs = w.shape[1]
    return tuple(checked_weights), tuple(checked_biases)


def _real_array(value: Any, key: str, path: str) -> np.ndarray:
    """``value`` as a C-contiguous float32 array of finite numbers."""
    try:
        array = np.asarray(value)
    except ValueError as error:
        raise _fail(f"not a rectangular array: {error}", path, key) from None
    if array.dtype.kind not in "fiu" or array.dtype == np.bool_:
        raise _fail(f"must hold real numbers, got dtype {array.dtype}", path, key)
    with np.errstate(over="ignore"):
        single = np.ascontiguousarray(array, dtype=np.float32)
    bad = ~np.isfinite(single)
    if bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        what = "NaN" if np.isnan(array[index]) else "infinite (in float32)"
        raise _fail(f"value at {index} is {what}", path, key)
    checked: np.ndarray = single
    return checked
