"""The backgammon tables against GNU Backgammon's own bear-off databases:
the one-sided ``gnubg_os0.bd`` (Debian's ``gnubg`` package installs it;
the ``gnubg-nn`` package ships the same file), and at the end the
two-sided ``gnubg_ts0.bd`` with its cubeful equities (Debian builds it at
install time in /var/lib/gnubg; ``gnubg-nn`` ships it too). The one-sided
file is read with the format of GNU Backgammon's bearoff.c:

* a 40-byte header ``gnubg-OS-PP-CC-G-C-N...`` (points, stones, gammon
  distributions, compressed, normal-distribution approximation);
* compressed: per position an 8-byte index entry (a little-endian uint32
  offset in 16-bit units, then the count and first turn of the nonzero
  entries of the bear-off distribution, then the same for the gammon
  one), followed by the uint16 entries, each probability times 65535;
* uncompressed: per position 32 (and 32 gammon) uint16 entries.

Positions are numbered as our tables number them (GNU Backgammon's
PositionBearoff is the same combinatorial numbering).

The file is built with 16-bit arithmetic: each entry is
``(sum over rolls of weight * child entry + 18) // 36`` of the children
GNU Backgammon chose by their *rounded* means, with the rounding remainder
put on the largest entry. So the exact tables cannot equal it entry by
entry; what must hold, and is tested:

1. replaying that rounding over our move generation (our children of
   every position and roll, chosen by the file's own means) gives every
   entry of the file exactly, except where two children tie on the file's
   rounded means with different distributions (GNU Backgammon keeps the
   first of its move list, an order we do not share): there within 2
   units;
2. our exact means equal the file's to its precision.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bansugoroku_fast import Rules
from bansugoroku_fast.endgames import CUBE_STATES, POSITIONS, SMALL_POSITIONS, play_children, stones_of_rank, tables

CANDIDATES = [Path("/usr/share/gnubg/gnubg_os0.bd"), Path("/usr/local/share/gnubg/gnubg_os0.bd")]
#: The two-sided database: Debian's gnubg builds it at install time under /var/lib/gnubg.
TWO_SIDED_CANDIDATES = [Path("/var/lib/gnubg/gnubg_ts0.bd"), Path("/usr/share/gnubg/gnubg_ts0.bd"),
                        Path("/usr/local/share/gnubg/gnubg_ts0.bd")]
try:
    import gnubg_nn

    CANDIDATES.append(Path(gnubg_nn.__file__).parent / "data" / "gnubg_os0.bd")
    TWO_SIDED_CANDIDATES.append(Path(gnubg_nn.__file__).parent / "data" / "gnubg_ts0.bd")
except ImportError:
    gnubg_nn = None

DATABASE = next((path for path in CANDIDATES if path.exists()), None)
TWO_SIDED_DATABASE = next((path for path in TWO_SIDED_CANDIDATES if path.exists()), None)
pytestmark = pytest.mark.skipif(
    DATABASE is None, reason="GNU Backgammon's gnubg_os0.bd not found (apt-get install gnubg, or pip install gnubg-nn)"
)
BACKGAMMON = Rules(variant="backgammon")
WEIGHTS = np.array([1 if a == b else 2 for a in range(1, 7) for b in range(a, 7)])
UNIT = 65535


def read_database(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """``(finish, gammon)``: ``uint16``-valued ``int64[positions, 32]``, entry t
    = 65535 P(t turns)."""
    data = path.read_bytes()
    header = data[:40].decode("ascii")
    assert header.startswith("gnubg-OS-"), header
    points, stones = int(header[9:11]), int(header[12:14])
    has_gammon, compressed, normal = int(header[15]), int(header[17]), int(header[19])
    assert (points, stones, has_gammon, normal) == (6, 15, 1, 0), header
    count = POSITIONS
    finish, gammon = np.zeros((count, 32), np.int64), np.zeros((count, 32), np.int64)
    if not compressed:
        body = np.frombuffer(data, dtype="<u2", offset=40, count=count * 64).reshape(count, 64)
        return body[:, :32].astype(np.int64), body[:, 32:].astype(np.int64)
    index = np.frombuffer(data, dtype=np.uint8, count=count * 8, offset=40).reshape(count, 8)
    offsets = index[:, :4].copy().view("<u4").ravel()
    body = np.frombuffer(data, dtype="<u2", offset=40 + count * 8)
    for r in range(count):
        start, nonzero, first, gammon_nonzero, gammon_first = int(offsets[r]), *map(int, index[r, 4:])
        finish[r, first:first + nonzero] = body[start:start + nonzero]
        gammon[r, gammon_first:gammon_first + gammon_nonzero] = body[start + nonzero:start + nonzero + gammon_nonzero]
    return finish, gammon


@pytest.fixture(scope="module")
def database() -> tuple[np.ndarray, np.ndarray]:
    assert DATABASE is not None
    return read_database(DATABASE)


@pytest.fixture(scope="module")
def children() -> tuple[np.ndarray, np.ndarray]:
    return play_children(BACKGAMMON, POSITIONS)


def replay(dist: np.ndarray, offsets: np.ndarray, kids: np.ndarray,
           wanted: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """GNU Backgammon's 16-bit construction over our children: ``(entries
    of ranks 1.., tied)``, ``tied`` marking positions where a roll's
    least rounded mean is shared by children of different distributions
    (looked for only in the ranks ``wanted``, a mask, if given)."""
    count = len(dist)
    rolled_means = dist @ np.arange(32)             # the file's integer "mean" (sum of t * entry)
    starts = offsets[21:21 * count]                  # one group per (rank >= 1, roll)
    means = rolled_means[kids]
    least = np.minimum.reduceat(means, starts)
    sizes = np.diff(np.append(starts, len(kids)))
    group_of = np.repeat(np.arange(len(starts)), sizes)
    attains = means == least[group_of]
    # the first child of each group that attains the least mean
    first_attaining = np.full(len(starts), len(kids))
    np.minimum.at(first_attaining, group_of[attains], np.flatnonzero(attains))
    best = kids[first_attaining].astype(np.int64)
    # tied: another child attaining it has another distribution
    if wanted is not None:
        attains &= wanted[group_of // 21 + 1]
    groups = group_of[attains]
    other = (dist[kids[attains]] != dist[best[groups]]).any(axis=1)
    tied = np.zeros(len(starts), dtype=bool)
    np.logical_or.at(tied, groups, other)
    best = best.reshape(count - 1, 21)
    total = np.zeros((count - 1, 32), dtype=np.int64)
    total[:, 1:] = (dist[best][:, :, :31] * WEIGHTS[None, :, None]).sum(axis=1)
    entries = (total + 18) // 36
    largest = entries.argmax(axis=1)
    entries[np.arange(count - 1), largest] -= entries.sum(axis=1) - UNIT
    return entries, tied.reshape(count - 1, 21).any(axis=1)


def test_our_moves_rebuild_every_entry_of_the_bear_off_distributions(database, children) -> None:
    finish, _ = database
    entries, tied = replay(finish, *children)
    differ = (entries != finish[1:]).any(axis=1)
    assert not (differ & ~tied).any(), np.flatnonzero(differ & ~tied)[:10] + 1
    assert np.abs(entries - finish[1:])[tied].max() <= 2
    assert tied.sum() < 100  # rare


def test_our_moves_rebuild_every_entry_of_the_gammon_distributions(database, children) -> None:
    _, gammon = database
    stones = np.array([sum(stones_of_rank(r)) for r in range(POSITIONS)])
    entries, tied = replay(gammon, *children, wanted=stones == 15)
    full = stones[1:] == 15      # gnubg keeps gammon distributions for positions with no stone off
    assert not tied[full].any()
    assert np.array_equal(entries[full], gammon[1:][full])
    assert (gammon[1:][~full][:, 0] == UNIT).all()


def test_exact_tables_agree_with_the_database_to_its_precision(database) -> None:
    finish, gammon = database
    built = tables(BACKGAMMON)
    means = finish @ np.arange(32) / UNIT
    assert np.abs(means - built.finish_mean).max() < 3e-4
    full = np.array([sum(stones_of_rank(r)) == 15 for r in range(POSITIONS)])
    gammon_means = gammon[full] @ np.arange(32) / UNIT
    assert np.abs(gammon_means - built.first_mean[full]).max() < 3e-4
    # the distributions themselves: within the rounding the file accumulates, or a near-tie's
    ours = np.zeros((POSITIONS, 32))
    ours[:, :built.finish.shape[1]] = built.finish
    assert np.abs(ours * UNIT - finish).max() < 200


@pytest.mark.skipif(gnubg_nn is None, reason="gnubg-nn is not installed")
def test_gnubg_nn_bearoff_probabilities_agree() -> None:
    built = tables(BACKGAMMON)
    worst = 0.0
    for r in range(1, POSITIONS, 7):
        theirs = gnubg_nn.bearoff_probabilities(tuple(stones_of_rank(r)))   # entry i = turn i + 1
        mean = sum((i + 1) * p for i, p in enumerate(theirs))
        worst = max(worst, abs(mean - built.finish_mean[r]))
    assert worst < 3e-4


# --- the two-sided database, with its cubeful equities ---------------------------------
#
# gnubg_ts0.bd (``gnubg-TS-06-06-1``: 6 points, 6 stones, cubeful): a
# 40-byte header, then for the side to roll at rank ``a`` against ``b``, at
# entry ``a * 924 + b``, four little-endian uint16, each ``equity * 32767.5
# + 32767.5``: the cubeless equity, then the no-double money equities with
# the cube owned by the side to roll, centred, and owned by the other side.
# makebearoff.c builds them in 16-bit integers: an entry is the sum over the
# rolls of (weight x the best child's value) divided by 36 in C (truncated
# toward zero), a child's value the bitwise complement of the other side's
# entry, through its 16-bit cube decision where the other side may double.

needs_two_sided = pytest.mark.skipif(TWO_SIDED_DATABASE is None, reason="GNU Backgammon's gnubg_ts0.bd not found")
#: The entries' order in the file, and ours (Tables.no_double's CUBE_STATES order).
FILE_STATES = {"owned": 1, "centred": 2, "theirs": 3}
ENTRY_ONE, ENTRY_MINUS_ONE = 0x7FFF, -0x8000


def read_two_sided(path: Path) -> np.ndarray:
    """``int32[924, 924, 4]``: the file's entries as signed 16-bit values (-32768 .. 32767)."""
    data = path.read_bytes()
    assert data[:16].decode("ascii") == "gnubg-TS-06-06-1", data[:40]
    entries = np.frombuffer(data, dtype="<u2", offset=40).reshape(SMALL_POSITIONS, SMALL_POSITIONS, 4)
    return entries.astype(np.int32) - 0x8000


@pytest.fixture(scope="module")
def two_sided() -> np.ndarray:
    assert TWO_SIDED_DATABASE is not None
    return read_two_sided(TWO_SIDED_DATABASE)


def _their_cube_decision(no_double: np.ndarray, their_take: np.ndarray) -> np.ndarray:
    """makebearoff.c's 16-bit cube decision of the side on roll: it doubles
    when its take value is at least half its no-double one (C's halving
    truncates) and a pass (ENTRY_ONE) is no less; then a take at least half
    a pass is passed."""
    doubles = (their_take >= np.fix(no_double / 2)) & (no_double <= ENTRY_ONE)
    return np.where(doubles, np.where(their_take >= ENTRY_ONE // 2, ENTRY_ONE, 2 * their_take), no_double)


def replay_two_sided(positions: int) -> np.ndarray:
    """The file's 16-bit construction over our own plays, for the ranks
    below ``positions`` (the positions with up to k stones are the first
    C(k + 6, 6) ranks, and their plays stay among them), pair by pair by
    increasing ``a + b``, one diagonal at a time."""
    offsets, children = play_children(BACKGAMMON, positions)
    weights = WEIGHTS.astype(np.int32)
    table = np.zeros((positions, positions, 4), dtype=np.int32)
    counts = np.diff(offsets)
    for total in range(2 * positions - 1):
        a = np.arange(max(0, total - positions + 1), min(total, positions - 1) + 1)
        b = total - a
        table[0, b[a == 0]] = ENTRY_ONE
        table[a[(b == 0) & (a > 0)], 0] = ENTRY_MINUS_ONE
        a, b = a[(a > 0) & (b > 0)], b[(a > 0) & (b > 0)]
        if not len(a):
            continue
        groups = (21 * a[:, None] + np.arange(21)).ravel()       # one per (pair, roll)
        sizes = counts[groups]
        group_starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        entries = np.arange(sizes.sum()) - np.repeat(group_starts - offsets[groups], sizes)
        theirs = table[np.repeat(np.repeat(b, 21), sizes), children[entries]]
        values = np.stack([~theirs[:, 0], ~theirs[:, 3], ~_their_cube_decision(theirs[:, 2], theirs[:, 3]),
                           ~_their_cube_decision(theirs[:, 1], theirs[:, 3])], axis=1)
        best = np.maximum.reduceat(values, group_starts, axis=0).reshape(len(a), 21, 4)
        table[a, b] = np.fix((best * weights[None, :, None]).sum(axis=1) / 36).astype(np.int32)
    return table


def assert_replay_rebuilds_the_file(two_sided: np.ndarray, positions: int) -> None:
    rebuilt = replay_two_sided(positions)
    differ = np.argwhere((rebuilt != two_sided[:positions, :positions]).any(axis=2))
    assert not len(differ), [(stones_of_rank(int(a)), stones_of_rank(int(b))) for a, b in differ[:5]]


@needs_two_sided
def test_our_plays_rebuild_the_two_sided_database_up_to_three_stones(two_sided) -> None:
    """Replaying the file's 16-bit construction (cubeless and the three
    cube states) over our move generation rebuilds every entry exactly:
    the same plays, the same cube logic."""
    assert_replay_rebuilds_the_file(two_sided, 84)


@pytest.mark.slow
@needs_two_sided
def test_our_plays_rebuild_the_whole_two_sided_database(two_sided) -> None:
    """All 924 x 924 pairs, 3,415,104 entries (about 10 s)."""
    assert_replay_rebuilds_the_file(two_sided, SMALL_POSITIONS)


@needs_two_sided
def test_exact_cubeful_equities_agree_with_the_database_to_its_precision(two_sided) -> None:
    """The exact tables against the file's 16-bit entries: each truncated
    average of truncated children drifts a little down the recursion,
    1.3e-4 at most over all 924 x 924 pairs (4 steps of 1 / 32767.5)."""
    built = tables(BACKGAMMON)
    equities = (two_sided + 0x8000) / 32767.5 - 1
    assert np.abs(equities[:, :, 0] - (2 * built.win - 1)).max() < 1.5e-4
    for state, column in FILE_STATES.items():
        ours = built.no_double[:, :, CUBE_STATES.index(state)]
        assert np.abs(equities[:, :, column] - ours).max() < 1.5e-4, state
