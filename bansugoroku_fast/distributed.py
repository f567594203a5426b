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
from typing import Any

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
from .errors import ArgumentTypeError, InvalidArgumentError, InvalidDiceError, InvalidPositionError
from .games import bulk
from .games.policies import resolve_policies
from .games.tallies import RolloutResult
from .rules import Rules

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


def count_plays(positions: Any, dice: Any, rules: Any = None) -> da.Array:
    """Lazy ``int32[N]``: :func:`bansugoroku_fast.count_plays` of every chunk."""
    rules = as_rules(rules)
    positions = _positions(positions)
    rolls = _dice(dice, positions)
    if isinstance(rolls, da.Array):
        def count(block: np.ndarray, block_dice: np.ndarray) -> np.ndarray:
            return batch.count_plays(block, block_dice, rules, threads=1)

        return _map(count, positions, rolls, dtype=np.int32, trailing=(), name="count_plays")
    return _map(lambda block: batch.count_plays(block, rolls, rules, threads=1), positions,
                dtype=np.int32, trailing=(), name="count_plays")


def outcome(positions: Any, rules: Any = None) -> OutcomeBatch:
    """:func:`bansugoroku_fast.batch.outcome` as an :class:`OutcomeBatch` of
    lazy ``int8[N]`` arrays (``winner``, ``value``, ``kind``; -1 while the
    game goes on)."""
    rules = as_rules(rules)

    def found(block: np.ndarray) -> np.ndarray:
        return np.stack(batch.outcome(block, rules), axis=1)

    table = _map(found, _positions(positions), dtype=np.int8, trailing=(3,), name="outcome")
    return OutcomeBatch(table[:, 0], table[:, 1], table[:, 2])


def shots(positions: Any, rules: Any = None) -> da.Array:
    """Lazy ``int8[N]``: :func:`bansugoroku_fast.batch.shots`."""
    rules = as_rules(rules)
    return _map(lambda block: batch.shots(block, rules, threads=1), _positions(positions),
                dtype=np.int8, trailing=(), name="shots")


def blocked_points(positions: Any) -> da.Array:
    """Lazy ``bool[N, 25]``: :func:`bansugoroku_fast.batch.blocked_points`."""
    return _map(batch.blocked_points, _positions(positions), dtype=np.bool_, trailing=(25,),
                name="blocked_points")


def blots(positions: Any) -> da.Array:
    """Lazy ``bool[N, 2, 25]``: :func:`bansugoroku_fast.batch.blots`."""
    return _map(batch.blots, _positions(positions), dtype=np.bool_, trailing=(2, 25), name="blots")


def closure_holds(positions: Any) -> da.Array:
    """Lazy ``bool[N, 2]``: :func:`bansugoroku_fast.batch.closure_holds`."""
    return _map(batch.closure_holds, _positions(positions), dtype=np.bool_, trailing=(2,),
                name="closure_holds")


def pip_counts(positions: Any) -> da.Array:
    """Lazy ``int32[N, 2]``: :func:`bansugoroku_fast.batch.pip_counts`."""
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


def rollout(positions: Any, rules: Any, games: int, policy: Any = "net", seed: int = 0,
            client: Client | None = None, *, block: int | None = None, stratify: int | None = None,
            max_plies: int = MAX_PLIES, progress: bool = False, endgames: bool = False,
            truncate: int | None = None, variance_reduction: bool = False) -> RolloutResult:
    """:func:`bansugoroku_fast.rollout` on Dask: the same arguments, the same
    result, bit for bit (``stderr_target`` excepted: its stopping rule is
    sequential). With ``endgames``, ``truncate`` or ``variance_reduction``
    the games' values are floats, added per 1,296 games: ``block`` is then
    a multiple of 1,296 (or all the games).

    Tasks are (up to :data:`POSITIONS_PER_TASK` positions) x (``block``
    games); ``block`` must divide ``games`` (by default 1,296 games when it
    does, else all of them). ``client``: a ``dask.distributed.Client`` (a
    remote scheduler's or a ``LocalCluster``'s); None runs the tasks on
    Dask's default scheduler (the current client if there is one, else local
    threads). ``progress``: Dask's own progress bar
    (``dask.distributed.progress`` with a client, ``ProgressBar`` without).

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


def analyse_files(files: Sequence[str | Path], evaluator: Any = "net", *, ply: int = 0, rules: Any = None,
                  luck: bool = True, client: Client | None = None, progress: bool = False) -> list[Any]:
    """The :class:`~bansugoroku_fast.analysis.Analysis` of each match file,
    one Dask task per file, in the order of ``files``: each the same, bit
    for bit, as ``analyse(read_match(file), evaluator, ply=ply,
    threads=1)`` gives on this machine (``source`` the file's name, as
    ``bansugoroku analyse`` writes it). The files are read here first, so
    that a missing or damaged one is named (file, line and column) before
    any analysis runs, and the workers need no access to them. ``client``
    and ``progress`` as in :func:`rollout`; ``evaluator`` a name
    (``"net"``) or anything :func:`~bansugoroku_fast.analyse` takes that
    pickles.

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
