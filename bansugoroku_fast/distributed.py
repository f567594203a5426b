"""Bulk analysis and rollouts on Dask (the ``distributed`` extra).

**Rollouts** (:func:`rollout`): the games of a batch of positions split into
tasks of (a chunk of positions x a block of games). Game ``g`` of a run is
game ``g`` of the counter-based dice of ``seed`` whichever task plays it, and
the tasks return integer tallies that add up, so the result is bit-identical
to :func:`bansugoroku_fast.rollout` with the same arguments, on any number of
workers; a task lost with a worker is played again, to the same result.

**Analysis of match files** (:func:`analyse_files`): one task per file,
each analysed as :func:`bansugoroku_fast.analyse` analyses it alone (one
thread), so the figures are the same, bit for bit, on any number of workers.

**Analysis of positions held as a** ``dask.array``: ``int8[N, 2, 26]``
positions chunked along the first axis (from ``.npy`` files, zarr stores or
anything larger than memory) go through the batch queries of
:mod:`bansugoroku_fast.batch` chunk by chunk with ``map_blocks``, lazily: each
function here returns dask arrays, and nothing runs until they are computed
(on the local scheduler, or on a cluster with a ``dask.distributed.Client``).
A bad position raises when its chunk is computed, named by its index in the
whole array.

>>> import dask.array as da
>>> import numpy as np
>>> from bansugoroku_fast import Position
>>> positions = da.from_array(np.stack([Position.initial().array] * 5), chunks=(2, 2, 26))
>>> counts = count_plays(positions, (6, 5), "backgammon")
>>> counts
dask.array<count_plays, shape=(5,), dtype=int32, chunksize=(2,), chunktype=numpy.ndarray>
>>> counts.compute().tolist(), pip_counts(positions)[:, 0].sum().compute()
([7, 7, 7, 7, 7], np.int64(835))
"""
from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

import dask
import dask.array as da
import numpy as np
from dask.diagnostics import ProgressBar
from distributed import Client
from distributed import progress as distributed_progress

from . import batch
from .batch import OutcomeBatch
from .checks import (
    BLOCK,
    MAX_PLIES,
    as_dice,
    as_rules,
    as_stratify,
    positive_int,
    run_arguments,
    scoring_rules,
    warn_uneven_strata,
)
from .errors import (
    ArgumentTypeError,
    InvalidArgumentError,
    InvalidDiceError,
    InvalidEvaluatorError,
    InvalidPositionError,
)
from .games import bulk
from .games.policies import resolve_policies
from .games.tallies import RolloutResult
from .rules import Rules
from .typing import BatchLike, PoliciesLike, PositionLike, RulesLike

if TYPE_CHECKING:
    from .analysis import Analysis
    from .evaluators.scoring import EvaluatorLike

#: Positions per rollout task (a chunk of positions plays one block of games).
POSITIONS_PER_TASK = 64

__all__ = [
    "rollout", "analyse_files", "count_plays", "outcome", "shots", "blocked_points", "blots", "closure_holds",
    "pip_counts",
]

_ITEM = re.compile(r"^(position|dice) (\d+)")


def _positions(positions: Any) -> da.Array:
    """``positions`` as a dask array of shape ``(N, 2, 26)``, chunked along
    the first axis only (its content is checked chunk by chunk, later)."""
    array = positions if isinstance(positions, da.Array) else da.asarray(positions)
    if array.ndim != 3 or array.shape[1:] != (2, 26):
        raise InvalidPositionError(f"positions must have shape (N, 2, 26), got {array.shape}")
    if not np.issubdtype(array.dtype, np.integer):
        raise InvalidPositionError(f"positions must hold integers, got dtype {array.dtype}")
    return array.rechunk({1: -1, 2: -1})


def _renumbered(error: ValueError, start: int) -> ValueError:
    """``error`` with the item it names counted from the start of the whole array."""
    message = _ITEM.sub(lambda found: f"{found[1]} {start + int(found[2])}", str(error), count=1)
    if message == str(error):
        message = f"in positions {start}..: {error}"
    return type(error)(message)


def _per_chunk(query: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    """``query`` over one chunk, its errors naming items of the whole array
    (``index`` holds the chunk's item numbers)."""
    def run(index: np.ndarray, *blocks: np.ndarray) -> np.ndarray:
        try:
            return query(*blocks)
        except (InvalidPositionError, InvalidDiceError) as error:
            raise _renumbered(error, int(index[0])) from None

    return run


def _map(query: Callable[..., np.ndarray], positions: da.Array, *per_item: da.Array, dtype: Any,
         trailing: tuple[int, ...], name: str) -> da.Array:
    """``query(positions_chunk, *per_item_chunks)`` chunk by chunk:
    ``(N, 2, 26)`` (and ``(N, k)`` per item) in, ``(N, *trailing)`` out."""
    index = da.arange(positions.shape[0], chunks=positions.chunks[0])
    new_axes = dict(zip("uvw", trailing))
    arguments: list[Any] = [index, "i", positions, "ijk"]
    for array in per_item:
        arguments += [array.rechunk((positions.chunks[0], -1)), "il"]
    return da.blockwise(_per_chunk(query), "i" + "uvw"[: len(trailing)], *arguments, dtype=dtype,
                        new_axes=new_axes, concatenate=True, token=name)


def _dice(dice: Any, positions: da.Array) -> da.Array | tuple[int, int]:
    """One pair for every position, or ``(N, 2)`` dice chunked like the positions."""
    array = dice if isinstance(dice, da.Array) else np.asarray(dice)
    if array.shape == (2,):
        return as_dice(array.tolist())
    if array.ndim != 2 or array.shape != (positions.shape[0], 2):
        raise InvalidDiceError(f"dice must be one pair or shape ({positions.shape[0]}, 2), got {array.shape}")
    return da.asarray(array)


def count_plays(positions: da.Array | BatchLike, dice: da.Array | BatchLike, rules: RulesLike = None) -> da.Array:
    """The number of legal plays of each position with its roll, lazily:
    :func:`bansugoroku_fast.batch.count_plays` chunk by chunk.

    Parameters
    ----------
    positions : dask.array.Array or ~bansugoroku_fast.typing.BatchLike
        ``int8[N, 2, 26]`` positions (row 0 to move), chunked along the
        first axis (an array in memory becomes one chunk).
    dice : dask.array.Array or ~bansugoroku_fast.typing.BatchLike
        One roll for every position (such as ``(6, 5)``), or ``int8[N, 2]``,
        a roll per position.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults.

    Returns
    -------
    dask.array.Array
        Lazy ``int32[N]``, one count per position (0 for a pass).

    Raises
    ------
    InvalidPositionError
        ``positions`` are not of shape ``(N, 2, 26)`` or not integers; when
        a chunk is computed, a position that is not one (named by its index
        in the whole array).
    InvalidDiceError
        A roll that is not two integers in 1..6, or dice of another shape than
        one pair or ``(N, 2)``.
    InvalidRulesError
        The rules are not a rule set.

    Examples
    --------
    >>> import dask.array as da
    >>> import numpy as np
    >>> from bansugoroku_fast import Position
    >>> board = np.zeros((2, 26), dtype=np.int8)
    >>> board[0, 0], board[0, 13], board[1, 0], board[1, 18] = 14, 1, 14, 1
    >>> positions = da.from_array(np.stack([Position.initial().array, board]), chunks=(1, 2, 26))
    >>> count_plays(positions, (6, 5), "backgammon").compute().tolist()   # 13/7*/2 or 13/8/2
    [7, 2]
    """
    rules = as_rules(rules)
    positions = _positions(positions)
    rolls = _dice(dice, positions)
    if isinstance(rolls, da.Array):
        def count(block: np.ndarray, block_dice: np.ndarray) -> np.ndarray:
            return batch.count_plays(block, block_dice, rules, threads=1)

        return _map(count, positions, rolls, dtype=np.int32, trailing=(), name="count_plays")
    return _map(lambda block: batch.count_plays(block, rolls, rules, threads=1), positions,
                dtype=np.int32, trailing=(), name="count_plays")


def outcome(positions: da.Array | BatchLike, rules: RulesLike = None) -> OutcomeBatch:
    """Who has won in each position, lazily:
    :func:`bansugoroku_fast.batch.outcome` chunk by chunk.

    Parameters
    ----------
    positions : dask.array.Array or ~bansugoroku_fast.typing.BatchLike
        ``int8[N, 2, 26]`` positions (row 0 to move), chunked along the
        first axis (an array in memory becomes one chunk).
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults.

    Returns
    -------
    OutcomeBatch
        Lazy ``int8[N]`` arrays ``winner`` (0 = row 0), ``value`` and
        ``kind``, each -1 while the game goes on.

    Raises
    ------
    InvalidPositionError
        ``positions`` are not of shape ``(N, 2, 26)`` or not integers; when
        a chunk is computed, a position that is not one (named by its index
        in the whole array).
    InvalidRulesError
        The rules are not a rule set.

    Examples
    --------
    >>> import dask.array as da
    >>> import numpy as np
    >>> from bansugoroku_fast import Position
    >>> board = np.zeros((2, 26), dtype=np.int8)
    >>> board[0, 0], board[0, 13], board[1, 0], board[1, 18] = 14, 1, 14, 1
    >>> positions = da.from_array(np.stack([Position.initial().array, board]), chunks=(1, 2, 26))
    >>> outcome(positions, "backgammon").winner.compute().tolist()
    [-1, -1]
    """
    rules = as_rules(rules)

    def found(block: np.ndarray) -> np.ndarray:
        return np.stack(batch.outcome(block, rules), axis=1)

    table = _map(found, _positions(positions), dtype=np.int8, trailing=(3,), name="outcome")
    return OutcomeBatch(table[:, 0], table[:, 1], table[:, 2])


def shots(positions: da.Array | BatchLike, rules: RulesLike = None) -> da.Array:
    """How many of the 36 rolls give the mover a play that hits, lazily:
    :func:`bansugoroku_fast.batch.shots` chunk by chunk.

    Parameters
    ----------
    positions : dask.array.Array or ~bansugoroku_fast.typing.BatchLike
        ``int8[N, 2, 26]`` positions (row 0 to move), chunked along the
        first axis (an array in memory becomes one chunk).
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults.

    Returns
    -------
    dask.array.Array
        Lazy ``int8[N]``, 0 to 36 per position.

    Raises
    ------
    InvalidPositionError
        ``positions`` are not of shape ``(N, 2, 26)`` or not integers; when
        a chunk is computed, a position that is not one (named by its index
        in the whole array).
    InvalidRulesError
        The rules are not a rule set.

    Examples
    --------
    The second board's blot is six pips in front of the mover's stone: 17
    rolls hit it (every 6, 5-1, 4-2, 3-3 and 2-2).

    >>> import dask.array as da
    >>> import numpy as np
    >>> from bansugoroku_fast import Position
    >>> board = np.zeros((2, 26), dtype=np.int8)
    >>> board[0, 0], board[0, 13], board[1, 0], board[1, 18] = 14, 1, 14, 1
    >>> positions = da.from_array(np.stack([Position.initial().array, board]), chunks=(1, 2, 26))
    >>> shots(positions, "backgammon").compute().tolist()
    [0, 17]
    """
    rules = as_rules(rules)
    return _map(lambda block: batch.shots(block, rules, threads=1), _positions(positions),
                dtype=np.int8, trailing=(), name="shots")


def blocked_points(positions: da.Array | BatchLike) -> da.Array:
    """The mover's points that the opponent holds with two or more, lazily:
    :func:`bansugoroku_fast.batch.blocked_points` chunk by chunk.

    Parameters
    ----------
    positions : dask.array.Array or ~bansugoroku_fast.typing.BatchLike
        ``int8[N, 2, 26]`` positions (row 0 to move), chunked along the
        first axis (an array in memory becomes one chunk).

    Returns
    -------
    dask.array.Array
        Lazy ``bool[N, 25]``: entry ``p`` (1..24) of each position is
        whether the mover's point ``p`` is blocked (entry 0 unused).

    Raises
    ------
    InvalidPositionError
        ``positions`` are not of shape ``(N, 2, 26)`` or not integers; when
        a chunk is computed, a position that is not one (named by its index
        in the whole array).

    Examples
    --------
    >>> import dask.array as da
    >>> import numpy as np
    >>> from bansugoroku_fast import Position
    >>> board = np.zeros((2, 26), dtype=np.int8)
    >>> board[0, 0], board[0, 13], board[1, 0], board[1, 18] = 14, 1, 14, 1
    >>> positions = da.from_array(np.stack([Position.initial().array, board]), chunks=(1, 2, 26))
    >>> blocked = blocked_points(positions).compute()
    >>> np.flatnonzero(blocked[0]).tolist(), int(blocked[1].sum())
    ([1, 12, 17, 19], 0)
    """
    return _map(batch.blocked_points, _positions(positions), dtype=np.bool_, trailing=(25,),
                name="blocked_points")


def blots(positions: da.Array | BatchLike) -> da.Array:
    """The points holding exactly one stone, of each side, lazily:
    :func:`bansugoroku_fast.batch.blots` chunk by chunk.

    Parameters
    ----------
    positions : dask.array.Array or ~bansugoroku_fast.typing.BatchLike
        ``int8[N, 2, 26]`` positions (row 0 to move), chunked along the
        first axis (an array in memory becomes one chunk).

    Returns
    -------
    dask.array.Array
        Lazy ``bool[N, 2, 25]``: entry ``[side, p]`` is whether that
        side's point ``p`` (its own numbering, 1..24) holds one stone.

    Raises
    ------
    InvalidPositionError
        ``positions`` are not of shape ``(N, 2, 26)`` or not integers; when
        a chunk is computed, a position that is not one (named by its index
        in the whole array).

    Examples
    --------
    >>> import dask.array as da
    >>> import numpy as np
    >>> from bansugoroku_fast import Position
    >>> board = np.zeros((2, 26), dtype=np.int8)
    >>> board[0, 0], board[0, 13], board[1, 0], board[1, 18] = 14, 1, 14, 1
    >>> positions = da.from_array(np.stack([Position.initial().array, board]), chunks=(1, 2, 26))
    >>> found = blots(positions).compute()
    >>> int(found[0].sum()), np.flatnonzero(found[1, 0]).tolist(), np.flatnonzero(found[1, 1]).tolist()
    (0, [13], [18])
    """
    return _map(batch.blots, _positions(positions), dtype=np.bool_, trailing=(2, 25), name="blots")


def closure_holds(positions: da.Array | BatchLike) -> da.Array:
    """Whether each side's home is closed while the other side is on the bar,
    lazily: :func:`bansugoroku_fast.batch.closure_holds` chunk by chunk.

    Parameters
    ----------
    positions : dask.array.Array or ~bansugoroku_fast.typing.BatchLike
        ``int8[N, 2, 26]`` positions (row 0 to move), chunked along the
        first axis (an array in memory becomes one chunk).

    Returns
    -------
    dask.array.Array
        Lazy ``bool[N, 2]``: row 0's closure, then row 1's.

    Raises
    ------
    InvalidPositionError
        ``positions`` are not of shape ``(N, 2, 26)`` or not integers; when
        a chunk is computed, a position that is not one (named by its index
        in the whole array).

    Examples
    --------
    >>> import dask.array as da
    >>> import numpy as np
    >>> from bansugoroku_fast import Position
    >>> board = np.zeros((2, 26), dtype=np.int8)
    >>> board[0, 0], board[0, 13], board[1, 0], board[1, 18] = 14, 1, 14, 1
    >>> positions = da.from_array(np.stack([Position.initial().array, board]), chunks=(1, 2, 26))
    >>> closure_holds(positions).compute().tolist()
    [[False, False], [False, False]]
    """
    return _map(batch.closure_holds, _positions(positions), dtype=np.bool_, trailing=(2,),
                name="closure_holds")


def pip_counts(positions: da.Array | BatchLike) -> da.Array:
    """Both sides' pip counts of each position, lazily:
    :func:`bansugoroku_fast.batch.pip_counts` chunk by chunk.

    Parameters
    ----------
    positions : dask.array.Array or ~bansugoroku_fast.typing.BatchLike
        ``int8[N, 2, 26]`` positions (row 0 to move), chunked along the
        first axis (an array in memory becomes one chunk).

    Returns
    -------
    dask.array.Array
        Lazy ``int32[N, 2]``: the mover's, then the opponent's.

    Raises
    ------
    InvalidPositionError
        ``positions`` are not of shape ``(N, 2, 26)`` or not integers; when
        a chunk is computed, a position that is not one (named by its index
        in the whole array).

    Examples
    --------
    >>> import dask.array as da
    >>> import numpy as np
    >>> from bansugoroku_fast import Position
    >>> board = np.zeros((2, 26), dtype=np.int8)
    >>> board[0, 0], board[0, 13], board[1, 0], board[1, 18] = 14, 1, 14, 1
    >>> positions = da.from_array(np.stack([Position.initial().array, board]), chunks=(1, 2, 26))
    >>> pip_counts(positions).compute().tolist()
    [[167, 167], [13, 18]]
    """
    return _map(batch.pip_counts, _positions(positions), dtype=np.int32, trailing=(2,), name="pip_counts")


# --- rollouts ------------------------------------------------------------------------


def _play_block(starts: np.ndarray, rules: Rules, block: int, policy: Any, seed: int, first_game: int,
                stratify: int | None, max_plies: int, endgames: bool, truncate: int | None,
                variance_reduction: bool) -> bulk.RolloutTally:
    """The tallies of games ``first_game .. first_game + block - 1`` from each of ``starts``."""
    policies = resolve_policies(policy, rules, callables=True, networks=True)
    settle = bulk.table_settle(rules) if endgames else None
    judging = bulk.as_judging(policies, rules, truncate, variance_reduction, 1)
    tally, _ = bulk.rollout_values(starts, rules, block, policies, seed, as_stratify(stratify), max_plies, 1,
                                   None, False, first_game, settle=settle, judging=judging)
    return tally


def _block_size(block: object, game_count: int, exact: bool = False) -> int:
    """Games per task: ``block``, which must divide ``game_count``; by
    default 1,296 when it divides the count, else all the games. ``exact``
    (games valued in floats, summed per 1,296 games): a block must also be
    a multiple of 1,296 games, or all of them."""
    if block is None:
        return BLOCK if game_count % BLOCK == 0 else game_count
    size = positive_int(block, "block")
    if game_count % size:
        raise InvalidArgumentError(f"games={game_count} does not split into blocks of {size} games; "
                         f"choose a block that divides it")
    if exact and size % BLOCK and size != game_count:
        raise InvalidArgumentError(f"block={size}: with endgames, truncate or variance_reduction a block must be a "
                                   f"multiple of {BLOCK} games (or all {game_count}), so that its sums add up as "
                                   f"one run's")
    return size


def _checked_client(client: object) -> Client | None:
    if client is not None and not isinstance(client, Client):
        raise ArgumentTypeError(f"client must be a dask.distributed.Client or None, got {type(client).__name__}")
    return client


def _summed(parts: Sequence[bulk.RolloutTally], chunks: int, blocks: int,
            backgammon: bool) -> list[RolloutResult]:
    """One result per position: the tallies of its chunk's blocks added up
    in the order of their games (as one local run adds them)."""
    results = []
    for chunk in range(chunks):
        mine = parts[chunk * blocks:(chunk + 1) * blocks]
        tally = copy.deepcopy(mine[0])
        for more in mine[1:]:
            tally.add_tally(more)
        results += tally.results(backgammon)
    return results


def rollout(positions: PositionLike, rules: RulesLike, games: int, policy: PoliciesLike = "net", seed: int = 0,
            client: Client | None = None, *, block: int | None = None, stratify: int | None = None,
            max_plies: int = MAX_PLIES, progress: bool = False, endgames: bool = False,
            truncate: int | None = None, variance_reduction: bool = False) -> RolloutResult:
    """:func:`bansugoroku_fast.rollout` on Dask: the same arguments, the same
    result, bit for bit (``stderr_target`` excepted: its stopping rule is
    sequential).

    Tasks are (up to :data:`POSITIONS_PER_TASK` positions) x (``block``
    games). With ``endgames``, ``truncate`` or ``variance_reduction`` the
    games' values are floats, added per 1,296 games: ``block`` is then a
    multiple of 1,296 (or all the games).

    Parameters
    ----------
    positions : ~bansugoroku_fast.typing.PositionLike or numpy.ndarray
        One position (a :class:`~bansugoroku_fast.position.Position`, an id
        or an ``int8[2, 26]``) or a batch ``int8[N, 2, 26]``, row 0 to roll.
    rules : ~bansugoroku_fast.typing.RulesLike
        The rule set; None assumes Ban-sugoroku's defaults and warns
        (:class:`~bansugoroku_fast.errors.AssumedRulesWarning`).
    games : int
        How many games from each position, at least 1.
    policy : ~bansugoroku_fast.typing.PoliciesLike
        As in :func:`bansugoroku_fast.play_games` (it must pickle, to reach
        the workers); by default ``"net"``, the shipped network.
    seed : int
        The dice: the same seed rolls the same games.
    client : dask.distributed.Client or None
        A remote scheduler's or a ``LocalCluster``'s client; None runs the
        tasks on Dask's default scheduler (the current client if there is
        one, else local threads).
    block : int or None
        Games per task, dividing ``games``; None: 1,296 when that divides
        ``games``, else all of them.
    stratify : int or None
        36 (or 1296) deals the first roll (or two) evenly, as in
        :func:`bansugoroku_fast.rollout`.
    max_plies : int
        The plies a game may last.
    progress : bool
        Dask's own progress bar (``dask.distributed.progress`` with a
        client, ``ProgressBar`` without).
    endgames : bool
        Stop each game at the exact endgame tables, as in
        :func:`bansugoroku_fast.rollout`.
    truncate : int or None
        Stop each game after this many plies and count the evaluator's
        chances there (an evaluator policy only).
    variance_reduction : bool
        Subtract each roll's luck from its game's result (an evaluator
        policy only).

    Returns
    -------
    RolloutResult
        As :func:`bansugoroku_fast.rollout` returns it (with a leading ``N``
        axis for a batch).

    Raises
    ------
    InvalidPositionError
        A position is not one of the rules.
    InvalidRulesError
        The rules are not a rule set.
    InvalidArgumentError
        A count or option out of its range (``games`` of 0, a ``block`` that
        does not divide ``games`` or, with float values, is no multiple of
        1,296; ``ArgumentTypeError`` for a ``client`` that is not one).
    InvalidPolicyError
        A policy that is not one (``PolicyTypeError`` when ``truncate`` or
        ``variance_reduction`` is asked of a policy without an evaluator).
    GameTooLongError
        A game has not ended after ``max_plies`` plies.

    Examples
    --------
    >>> import bansugoroku_fast
    >>> from bansugoroku_fast import Position
    >>> result = rollout(Position.initial(), "backgammon", games=72, policy="first", seed=1, block=36)
    >>> local = bansugoroku_fast.rollout(Position.initial(), "backgammon", games=72, policy="first", seed=1)
    >>> result.counts.tolist() == local.counts.tolist(), result.equity == local.equity
    (True, True)
    """
    rules = scoring_rules(rules, "distributed.rollout")
    rules, game_count, seed, max_plies, _ = run_arguments(rules, games, seed, max_plies, None)
    warn_uneven_strata(as_stratify(stratify), game_count, "distributed.rollout")
    endgames = bulk.as_endgames(endgames)
    judging = bulk.as_judging(resolve_policies(policy, rules, callables=True, networks=True), rules, truncate,
                              variance_reduction, 1)
    size = _block_size(block, game_count, endgames or judging is not None)
    client = _checked_client(client)
    starts, single = bulk.rollout_positions(positions, rules)
    chunks = [starts[i:i + POSITIONS_PER_TASK] for i in range(0, len(starts), POSITIONS_PER_TASK)]
    firsts = range(0, game_count, size)
    play = dask.delayed(_play_block, pure=True)
    tasks = [play(chunk, rules, size, policy, seed, first, stratify, max_plies, endgames, truncate, variance_reduction)
             for chunk in chunks for first in firsts]
    if client is None:
        with ProgressBar() if progress else nullcontext():
            parts = dask.compute(*tasks)
    else:
        futures = client.compute(tasks)
        if progress:
            distributed_progress(futures)
        parts = client.gather(futures)
    result = bulk.stacked(_summed(parts, len(chunks), len(firsts), rules.is_backgammon))
    return bulk.unstacked(result) if single else result


def _analysed(record: Any, evaluator: Any, ply: int, luck: bool, source: str) -> Any:
    from .analysis import analyse

    return analyse(record, evaluator, ply=ply, threads=1, luck=luck, source=source)


def analyse_files(files: Sequence[str | Path], evaluator: EvaluatorLike = "net", *, ply: int = 0,
                  rules: RulesLike = None, luck: bool = True, client: Client | None = None,
                  progress: bool = False) -> list[Analysis]:
    """The :class:`~bansugoroku_fast.analysis.Analysis` of each match file,
    one Dask task per file, in the order of ``files``.

    Each is the same, bit for bit, as ``analyse(read_match(file),
    evaluator, ply=ply, threads=1)`` gives on this machine (``source`` the
    file's name, as ``bansugoroku analyse`` writes it). The files are read
    here first, so that a missing or damaged one is named (file, line and
    column) before any analysis runs, and the workers need no access to
    them.

    Parameters
    ----------
    files : Sequence of str or pathlib.Path
        The match files (``.mat``).
    evaluator : ~bansugoroku_fast.evaluators.EvaluatorLike
        ``"net"`` (each record's shipped network) or anything
        :func:`~bansugoroku_fast.analyse` takes that pickles.
    ply : int
        The plays' search depth, 0, 1 or 2.
    rules : ~bansugoroku_fast.typing.RulesLike
        The rules the files are played under, as
        :func:`~bansugoroku_fast.read_match` takes them (None: read from each
        file).
    luck : bool
        Judge each roll's luck too.
    client : dask.distributed.Client or None
        As in :func:`rollout`.
    progress : bool
        As in :func:`rollout`.

    Returns
    -------
    list of Analysis
        One per file, in order.

    Raises
    ------
    MatchFileError
        A file cannot be read or is not a match file (named, with the line
        and column).
    InvalidArgumentError
        ``ply`` is not 0, 1 or 2 (``ArgumentTypeError`` for ``files`` that
        are not a sequence of paths, or a ``client`` that is not one).
    InvalidEvaluatorError
        An unknown evaluator name (``ArgumentTypeError`` for a value that
        is not an evaluator).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from bansugoroku_fast import analyse, play_games, read_match
    >>> from bansugoroku_fast.formats import write_match
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> paths = [folder / f"match{seed}.mat" for seed in (1, 2)]
    >>> for seed, path in zip((1, 2), paths):
    ...     _ = path.write_text(write_match(play_games("backgammon", 2, policy="first", seed=seed)))
    >>> analyses = analyse_files(paths, luck=False)
    >>> alone = analyse(read_match(paths[1]), luck=False, threads=1, source=str(paths[1]))
    >>> analyses[1].to_json() == alone.to_json()
    True
    """
    from .evaluators.search import as_ply
    from .formats import read_match

    if isinstance(files, (str, Path)) or not isinstance(files, Sequence):
        raise ArgumentTypeError(f"files must be a sequence of paths, got {type(files).__name__}")
    ply, client = as_ply(ply), _checked_client(client)
    _check_evaluator(evaluator)
    records = [_read_file(file, rules, read_match) for file in files]
    task = dask.delayed(_analysed, pure=True)
    tasks = [task(record, evaluator, ply, bool(luck), str(file)) for record, file in zip(records, files)]
    if client is None:
        with ProgressBar() if progress else nullcontext():
            return list(dask.compute(*tasks))
    futures = client.compute(tasks)
    if progress:
        distributed_progress(futures)
    return list(client.gather(futures))


def _check_evaluator(evaluator: object) -> None:
    """Refuse an evaluator no task could use, before any file is read (each task resolves it
    for its record's rules)."""
    from .evaluators.scoring import EVALUATOR_NAMES

    if isinstance(evaluator, str):
        if evaluator not in EVALUATOR_NAMES:
            names = ", ".join(repr(name) for name in EVALUATOR_NAMES)
            raise InvalidEvaluatorError(f"unknown evaluator name {evaluator!r}: the names are {names}")
    elif not callable(evaluator):
        raise ArgumentTypeError(f"an evaluator is a NetEvaluator, a callable positions -> float[N, 5] or the "
                                 f"name \"net\", got {type(evaluator).__name__}")


def _read_file(file: object, rules: Any, read_match: Callable[..., Any]) -> Any:
    from .errors import MatchFileError

    if not isinstance(file, (str, Path)):
        raise ArgumentTypeError(f"each file must be a path (str or pathlib.Path), got {type(file).__name__}")
    try:
        return read_match(Path(file), rules=rules)
    except OSError as error:
        raise MatchFileError(f"{file}: cannot read it: {error.strerror or error}") from None
    except MatchFileError as error:
        raise MatchFileError(f"{file}: {error.message}", error.line, error.column) from None
