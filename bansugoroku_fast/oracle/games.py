"""Whole games written for reading: the counter-based dice, the policies,
:func:`play_games`, :func:`rollout` and :func:`rank_plays` (the features the
policies read are in :mod:`~bansugoroku_fast.oracle.features`).

The kernel-backed functions of :mod:`bansugoroku_fast.games` play exactly
the same games for the same arguments (the differential tests compare them
ply by ply); this module is their specification. Plain Python: no numpy, no
kernel code.

**The dice.** Every random number of a run is a pure function of
``(seed, game, ply, stream)`` -- no generator state is carried from one game
or ply to the next -- so results are the same for any thread count, chunking
or batch, game ``g`` of every position of a batch sees the same dice
(duplicate dice), and the dice of any game at any ply can be computed
directly. With ``M = 2**64`` and all arithmetic modulo ``M``:

* ``splitmix64(x)``: the first output of SplitMix64 seeded with ``x``:
  ``z = x + 0x9E3779B97F4A7C15``; ``z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9``;
  ``z = (z ^ (z >> 27)) * 0x94D049BB133111EB``; return ``z ^ (z >> 31)``;
* ``word(seed, game, ply, stream) =
  splitmix64(splitmix64(splitmix64(seed) ^ game) ^ (2 * ply + stream))``,
  stream 0 for the dice, 1 for the ``"random"`` policy's choice;
* ``below(word, n) = (word * n) >> 64`` (the high 64 bits of the 128-bit
  product): an integer in ``0 .. n - 1``, no rejection;
* the roll of ply ``p`` of game ``g`` is ``i = below(word(seed, g, p, 0), 36)``,
  dice ``(i // 6 + 1, i % 6 + 1)``;
* the backgammon opening (``start=None``): ply 0 plays the roll-off's two
  dice, a non-double: ``OPENING_ROLLS[below(word(seed, g, 0, 0), 15)]``, the
  15 pairs ``(high, low)`` in the order (2, 1), (3, 1), (3, 2), (4, 1), ...,
  (6, 5) -- the starter's own (higher) die first;
* the ``"random"`` policy's choice among ``n`` plays at ply ``p`` of game
  ``g``: play ``below(word(seed, g, p, 1), n)`` in ``legal_plays`` order;
* stratified first rolls (``rollout(..., stratify=36)`` or ``1296``): with
  ``j = g % stratify``, ply 0 rolls index ``j % 36`` and (1296 only) ply 1
  rolls index ``(j // 36 + j % 36) % 36`` (indices as above), so each run of
  36 consecutive games deals every first roll once, and each 1,296 every
  pair of first two rolls once, as GNU Backgammon's quasi-random dice do.

Who starts: seat 0 is by definition the side that moves first (the side to
move of ``start``). Under Ban-sugoroku's ``alternate`` start seat 0 rolls both
dice; under ``roll_off`` the winner of the roll-off rolls both dice afresh,
which is the same: ply 0 is an ordinary roll (doubles included). Only the
backgammon opening differs (above). To let each policy of a pair start half
the games, play a second run with the pair swapped.

>>> from bansugoroku_fast import Position, Rules
>>> roll(seed=0, game=0, ply=0), roll(seed=0, game=0, ply=0, opening=True)
((1, 5), (3, 2))
>>> records = play_games("backgammon", games=2, policy="first", seed=7)
>>> records.offsets[-1] == sum(records.plies), records.winner[0] in (0, 1)
(True, True)
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..checks import (
    BLOCK,
    MAX_PLIES,
    as_on_long,
    as_stderr_target,
    as_stratify,
    check_position_for_rules,
    is_positive_int,
    positive_int,
    run_arguments,
    scoring_rules,
    warn_uneven_strata,
)
from ..errors import ArgumentTypeError, GameTooLongError, InvalidArgumentError, PolicyTypeError
from ..games.policies import (
    FIRST,
    LINEAR,
    NET,
    PUBEVAL,
    RANDOM,
    ResolvedPolicy,
    kernel_network,
    resolve_policies,
)
from ..games.tallies import GNUBG_FIGURES, KINDS, RankedPlay, RolloutResult, rank, summarize
from ..layout import BAR, OFF
from ..play import Play
from ..position import Position, as_position
from ..rules import Rules
from ..scoring import PUBEVAL_CONTACT_WEIGHTS, PUBEVAL_RACE_WEIGHTS, PUBEVAL_WIN_SCORE
from ..typing import DiceLike, PoliciesLike, PositionLike, RulesLike
from .endgames import two_sided_table
from .evaluators import PlainNetwork, Shares, equity, evaluate, luck, standing_value
from .features import board_features
from .moves import legal_plays, outcome

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
DICE_STREAM, CHOICE_STREAM = 0, 1
OPENING_ROLLS = tuple((high, low) for high in range(2, 7) for low in range(1, high))


# --- the counter-based dice ---------------------------------------------------


def splitmix64(x: int) -> int:
    """The first output of SplitMix64 seeded with ``x`` (a 64-bit mix).

    >>> hex(splitmix64(0))
    '0xe220a8397b1dcdaf'
    """
    z = (x + GAMMA) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def word(seed: int, game: int, ply: int, stream: int) -> int:
    """The 64-bit random word of ``stream`` at ``ply`` of ``game``."""
    return splitmix64(splitmix64(splitmix64(seed) ^ game) ^ (2 * ply + stream))


def below(value: int, n: int) -> int:
    """``value`` (64 bits) scaled to ``0 .. n - 1``: the high word of ``value * n``."""
    return (value * n) >> 64


def _roll_of_index(index: int) -> tuple[int, int]:
    return index // 6 + 1, index % 6 + 1


def roll(seed: int, game: int, ply: int, *, opening: bool = False, stratify: int = 0) -> tuple[int, int]:
    """The dice of ``ply`` of ``game`` (see the module docstring).

    >>> [roll(1, 0, 0, stratify=36) for _ in range(1)], roll(1, 37, 0, stratify=36)
    ([(1, 1)], (1, 2))
    """
    if stratify and ply == 0:
        return _roll_of_index(game % stratify % 36)
    if stratify == 1296 and ply == 1:
        j = game % 1296
        return _roll_of_index((j // 36 + j % 36) % 36)
    value = word(seed, game, ply, DICE_STREAM)
    if opening and ply == 0:
        return OPENING_ROLLS[below(value, len(OPENING_ROLLS))]
    return _roll_of_index(below(value, 36))


# --- the policies --------------------------------------------------------------------


def linear_score(weights: Sequence[float], values: Sequence[float]) -> float:
    """``0.0 + weights[0] * values[0] + ...`` in index order (float64)."""
    score = 0.0
    for weight, value in zip(weights, values):
        score += weight * value
    return score


def is_race(board: Sequence[Sequence[int]]) -> bool:
    """No contact: the mover's rearmost stone has passed the opponent's
    rearmost stone (a place ``q`` of the opponent is the mover's ``25 - q``)."""
    mover, opponent = board
    mover_back = max(place for place in range(1, 26) if mover[place])
    opponent_back = max(place for place in range(1, 26) if opponent[place])
    return mover_back + opponent_back <= 25


def pubeval_inputs(board: Sequence[Sequence[int]]) -> list[float]:
    """Tesauro's 122 inputs of a position seen by the side that just moved:
    five per point, from point 24 down to point 1 (block ``b`` is point
    ``24 - b``): an opposing blot there; one own stone; two or more; exactly
    three; ``(n - 3) / 2`` for ``n >= 4`` own stones. Then the opponent's
    stones on the bar / 2 and the mover's borne-off stones / 15."""
    mover, opponent = board
    inputs = [0.0] * 122
    for block in range(24):
        point = 24 - block
        n = mover[point] if mover[point] else -opponent[BAR - point]
        first = 5 * block
        inputs[first] = 1.0 if n == -1 else 0.0
        inputs[first + 1] = 1.0 if n == 1 else 0.0
        inputs[first + 2] = 1.0 if n >= 2 else 0.0
        inputs[first + 3] = 1.0 if n == 3 else 0.0
        inputs[first + 4] = (n - 3) / 2 if n >= 4 else 0.0
    inputs[120] = opponent[BAR] / 2
    inputs[121] = mover[OFF] / 15
    return inputs


def pubeval_score(board: Sequence[Sequence[int]], race: bool) -> float:
    """pubeval of the position after a play (``race``: judged before it), in
    float64 (the original sums in float32; a near tie may go the other way)."""
    if board[0][OFF] == 15:
        return PUBEVAL_WIN_SCORE
    weights = PUBEVAL_RACE_WEIGHTS if race else PUBEVAL_CONTACT_WEIGHTS
    return linear_score(weights, pubeval_inputs(board))


def _best(scores: Sequence[float]) -> int:
    """Index of the greatest score, the first on a tie."""
    best = 0
    for index in range(1, len(scores)):
        if scores[index] > scores[best]:
            best = index
    return best


def resolved(policy: object, rules: Rules) -> tuple[ResolvedPolicy, ResolvedPolicy]:
    """The two seats' policies (see :mod:`bansugoroku_fast.games.policies`):
    the named ones, ``LinearPolicy`` and network policies (an
    ``EvaluatorPolicy`` at 0 ply by a ``NetEvaluator``, or ``"net"``): the
    play of greatest 0-ply equity by the network's float64 forward pass
    (:class:`~bansugoroku_fast.oracle.evaluators.PlainNetwork`, held in
    ``function``; a finished child worth its outcome), the first on a tie.
    The kernels choose in float32: where two plays' equities are within
    about 1e-5 they may take the other one."""
    def plain(one: ResolvedPolicy) -> ResolvedPolicy:
        if one.code != NET:
            return one
        return ResolvedPolicy(NET, (), PlainNetwork.of(kernel_network(one.function, rules)))

    first, second = resolve_policies(policy, rules, networks=True)
    return plain(first), plain(second)


def choose(policy: ResolvedPolicy, board: Sequence[Sequence[int]], plays: Sequence[Play],
           rules: Rules, seed: int, game: int, ply: int) -> int:
    """The index (in ``legal_plays`` order) of the play ``policy`` picks."""
    if policy.code == RANDOM:
        return below(word(seed, game, ply, CHOICE_STREAM), len(plays))
    if policy.code == FIRST:
        return 0
    children = [play.position.rows for play in plays]
    if policy.code == LINEAR:
        return _best([linear_score(policy.weights, board_features(child, rules)) for child in children])
    if policy.code == PUBEVAL:
        race = is_race(board)
        return _best([pubeval_score(child, race) for child in children])
    if policy.code == NET:   # policy.function: the PlainNetwork (see resolved)
        return _best([equity(evaluate(play.position, rules, policy.function)) for play in plays])
    raise AssertionError(f"unknown policy code {policy.code}")


# --- whole games -------------------------------------------------------------------


class RecordFields(NamedTuple):
    """The eight lists of :class:`GameRecords` (see there)."""

    offsets: list[int]
    positions: list[list[list[int]]]
    dice: list[tuple[int, int]]
    after: list[list[list[int]]]
    winner: list[int]
    value: list[int]
    kind: list[int]
    plies: list[int]


RecordFields.offsets.__doc__ = "Game ``g`` owns plies ``offsets[g]:offsets[g + 1]``."
RecordFields.positions.__doc__ = "The position before each ply, a ``2 x 26`` list seen by its mover."
RecordFields.dice.__doc__ = "The roll of each ply."
RecordFields.after.__doc__ = "The position after each ply, seen by the same side (``positions[i]`` for a pass)."
RecordFields.winner.__doc__ = "The seat that won each game (0 = the side that moved first; -1 cut off)."
RecordFields.value.__doc__ = "The points each game was won for, 1, 2 or 3 (0 cut off)."
RecordFields.kind.__doc__ = "How each game was won, an index into ``games.tallies.KINDS`` (-1 cut off)."
RecordFields.plies.__doc__ = "The plies each game lasted."


class GameRecords(RecordFields):
    """The games of :func:`play_games`, as plain lists (the package returns
    numpy arrays of the same names and shapes). Game ``g`` owns plies
    ``offsets[g]:offsets[g + 1]``; ``positions[i]`` (before ply ``i``) and
    ``after[i]`` are ``2 x 26`` lists seen by the mover of that ply (a pass:
    ``after[i] == positions[i]``); ``dice[i]`` its roll. Per game: ``winner``
    (seat; 0 = the side that moved first), ``value``, ``kind`` (index in
    :data:`~bansugoroku_fast.games.tallies.KINDS`) and ``plies``; and,
    beside the eight fields as in the package's records, ``truncated``: cut
    off unfinished at ``max_plies`` (``on_long="truncate"``; winner and kind
    -1, value 0).

    Parameters
    ----------
    *fields : list
        The eight lists, in the order of :class:`RecordFields`.
    truncated : list of bool or None
        Per game, whether it was cut off at ``max_plies`` (None: none).

    Examples
    --------
    >>> records = play_games("backgammon", 2, policy="first", seed=1)
    >>> len(records.offsets), len(records.positions) == records.offsets[-1], records.truncated
    (3, True, [False, False])
    """

    truncated: list[bool]

    def __new__(cls, *fields: list[Any], truncated: list[bool] | None = None) -> GameRecords:
        records = super().__new__(cls, *fields)
        records.truncated = [] if truncated is None else truncated
        return records


class _Game(NamedTuple):
    records: list[tuple[list[list[int]], tuple[int, int], list[list[int]]]]  # if kept
    plies: int
    winner: int  # -1: truncated; -2: stopped at the endgame tables (see shares)
    value: int
    kind: int
    shares: list[list[float]] | None = None  # [seat][value]: the exact chances where it stopped
    luck: list[list[float]] | None = None    # [seat][value]: the luck of its rolls (variance reduction)

    @property
    def truncated(self) -> bool:
        return self.winner == -1


class Judging(NamedTuple):
    """A rollout judged by ``network`` (0 ply): games stop after
    ``truncate`` plies (None: never), valued by it; with
    ``variance_reduction`` each roll's luck is kept, to be subtracted."""

    network: PlainNetwork
    truncate: int | None
    variance_reduction: bool


def _play_one(start: Position, rules: Rules, policies: tuple[ResolvedPolicy, ResolvedPolicy],
              seed: int, game: int, *, opening: bool, stratify: int, max_plies: int,
              keep: bool, on_long: str = "raise", tables: TableValues | None = None,
              judging: Judging | None = None) -> _Game:
    """Game ``game`` from ``start`` (seat 0 to move); ``keep``: record its
    plies. Not over after ``max_plies`` plies: GameTooLongError, or with
    ``on_long="truncate"`` the game ends there, winner and kind -1, value 0.
    Before each roll, ``tables``: the game stops at a position they value
    (winner -2, its exact chances in ``shares``); then ``judging``: after
    ``truncate`` plies it stops (winner -2, the network's chances in
    ``shares``); every roll's luck summed by seat in ``luck``."""
    position = start
    ended = outcome(position, rules)
    records: list[Any] = []
    ply = 0
    if ended is not None:  # over before it starts: row 0 is seat 0
        return _Game(records, 0, ended.winner, ended.value, KINDS.index(ended.kind))
    total_luck = [[0.0] * 4, [0.0] * 4] if judging is not None and judging.variance_reduction else None
    while True:
        seat = ply % 2
        chances = tables.chances(position) if tables is not None else None
        if chances is None and judging is not None and judging.truncate is not None and ply >= judging.truncate:
            chances = standing_value(position, rules, judging.network)
        if chances is not None:  # row 0 of the chances is the side to roll, ``seat``
            return _Game(records, ply, -2, 0, -1, _by_seat(chances, seat), total_luck)
        if ply == max_plies:
            if on_long == "truncate":
                return _Game(records, ply, -1, 0, -1)
            raise GameTooLongError.of_game(f"game {game}", seed, max_plies)
        dice = roll(seed, game, ply, opening=opening, stratify=stratify)
        if total_luck is not None and judging is not None:
            rolled = _by_seat(luck(position, dice, rules, judging.network), seat)
            total_luck = [[a + b for a, b in zip(mine, more)] for mine, more in zip(total_luck, rolled)]
        board = [list(row) for row in position.rows]
        plays = legal_plays(position, dice, rules)
        after = position
        if plays:
            after = plays[choose(policies[seat], board, plays, rules, seed, game, ply)].position
        if keep:
            records.append((board, dice, [list(row) for row in after.rows]))
        ply += 1
        ended = outcome(after, rules)
        if ended is not None:  # ``after`` is seen by the mover: its row 0 is ``seat``
            winner = seat if ended.winner == 0 else 1 - seat
            return _Game(records, ply, winner, ended.value, KINDS.index(ended.kind), luck=total_luck)
        position = after.swapped()


def _by_seat(shares: Shares, seat: int) -> Shares:
    """Shares whose row 0 is the side to roll, ``seat``, in seat order."""
    return shares if seat == 0 else shares[::-1]


def _start(start: object, rules: Rules) -> tuple[Position, bool]:
    """The start position and whether ply 0 is the backgammon opening."""
    if start is None:
        return Position.initial(rules), rules.is_backgammon
    position = as_position(start)
    check_position_for_rules(position, rules)
    return position, False


def play_games(rules: RulesLike, games: int, policy: PoliciesLike = "random", seed: int = 0,
               start: PositionLike | None = None, threads: int | None = None, *, stratify: int | None = None,
               max_plies: int = MAX_PLIES, on_long: str = "raise") -> GameRecords:
    """Play ``games`` whole games and record every ply.

    The plain-Python specification of :func:`bansugoroku_fast.play_games`
    (with the same dice, policies and records).

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        The rule set (None: Ban-sugoroku with its default options).
    games : int
        How many games, at least 1.
    policy : ~bansugoroku_fast.typing.PoliciesLike
        One policy for both seats or a pair ``(seat 0's, seat 1's)``: a
        built-in's name (``"random"``, ``"first"``, ``"heuristic"``,
        ``"pubeval"``, ``"race"``, ``"net"``, ``"net1"``) or a
        :class:`~bansugoroku_fast.games.policies.LinearPolicy` (see
        :mod:`bansugoroku_fast.games.policies`).
    seed : int
        The dice: game ``g`` of a seed always rolls the same dice.
    start : ~bansugoroku_fast.typing.PositionLike or None
        The position every game starts from (row 0 = seat 0, to roll; any
        roll), or None for the rules' start (in backgammon, ply 0 then plays
        the roll-off's non-double).
    threads : int or None
        Accepted (and checked) for the package's signature; the oracle plays
        on one thread.
    stratify : int or None
        36 or 1296 deals the first roll (or two) evenly, as :func:`rollout`
        does (a ``start`` is needed in backgammon).
    max_plies : int
        The plies a game may last.
    on_long : str
        ``"raise"``: a game not over after ``max_plies`` plies raises;
        ``"truncate"``: it ends there, unfinished (see :class:`GameRecords`).

    Returns
    -------
    GameRecords
        Every ply of every game (positions, dice, the position after), each
        game's winner, value, kind and length.

    Raises
    ------
    InvalidRulesError
        The rules are not a rule set.
    InvalidArgumentError
        A count, seed or option out of its range (``games`` of 0, a negative
        ``seed``, an unknown ``on_long``, ``stratify`` other than 36 or 1296,
        or stratified without a ``start`` in backgammon).
    InvalidPolicyError
        A policy that is not one (``PolicyTypeError`` for a value of another
        type).
    InvalidPositionError
        ``start`` is not a position of the rules.
    GameTooLongError
        A game has not ended after ``max_plies`` plies, unless
        ``on_long="truncate"``.

    Examples
    --------
    >>> records = play_games("ban-sugoroku", games=3, policy=("heuristic", "random"), seed=1)
    >>> len(records.offsets), len(records.positions) == records.offsets[-1]
    (4, True)
    """
    rules, games, seed, max_plies, _ = run_arguments(rules, games, seed, max_plies, threads)
    on_long = as_on_long(on_long)
    policies = resolved(policy, rules)
    position, opening = _start(start, rules)
    strata = as_stratify(stratify, opening)
    records = GameRecords([0], [], [], [], [], [], [], [])
    for game in range(games):
        played = _play_one(position, rules, policies, seed, game, opening=opening, stratify=strata,
                           max_plies=max_plies, keep=True, on_long=on_long)
        for board, dice, after in played.records:
            records.positions.append(board)
            records.dice.append(dice)
            records.after.append(after)
        records.offsets.append(len(records.positions))
        records.winner.append(played.winner)
        records.value.append(played.value)
        records.kind.append(played.kind)
        records.plies.append(played.plies)
        records.truncated.append(played.truncated)
    return records


# --- rollouts -------------------------------------------------------------------------


#: The most stones a side of the oracle's two-sided table, as in the package's tables (built in
#: plain Python, it takes about a minute at 5 stones and several at 6).
MOST_TABLE_STONES = 6


@functools.lru_cache(maxsize=8)
def _two_sided(rules: Rules, most_stones: int) -> dict[tuple[tuple[int, ...], tuple[int, ...]], float]:
    """The oracle's two-sided table, built once per process (seconds in plain Python)."""
    return two_sided_table(rules, most_stones)  # type: ignore[return-value]


class TableValues:
    """The oracle's exact race values, for rollouts that stop at the tables:
    a position (the side to roll in row 0) is valued when every stone of
    both sides stands on the table's points or is off (home, under the
    arrival finish: points 1..6), with at most ``most_stones`` on the
    table's points a side (see :mod:`bansugoroku_fast.oracle.endgames`: the
    two-sided table, built in plain Python, so for few stones only). Two
    such sides cannot be in contact (each stands on its own points 1..12),
    and with 9 stones or more off no gammon is possible."""

    def __init__(self, rules: Rules, most_stones: object = 3) -> None:
        if not is_positive_int(most_stones) or int(most_stones) > MOST_TABLE_STONES:
            raise InvalidArgumentError(
                f"table_stones must be an integer in 1..{MOST_TABLE_STONES}, got {most_stones!r}")
        self.rules, self.most_stones = rules, int(most_stones)
        self.win = _two_sided(rules, self.most_stones)

    def stones(self, row: Sequence[int]) -> tuple[int, ...] | None:
        """The row's stones on the table's six points, or None if it has a
        stone above them (or too many on them)."""
        top = 6 if self.rules.bears_off else 12
        if any(row[point] for point in range(top + 1, 26)):
            return None
        stones = tuple(row[top - 5:top + 1])
        return stones if sum(stones) <= self.most_stones else None

    def chances(self, position: Position) -> list[list[float]] | None:
        """``[row][value]``: the exact chance of each result, row 0 to
        roll (a rollout's ``counts`` layout), or None."""
        mine, theirs = (self.stones(row) for row in position.rows)
        if mine is None or theirs is None:
            return None
        win = self.win[(mine, theirs)]
        return [[0.0, win, 0.0, 0.0], [0.0, 1.0 - win, 0.0, 0.0]]


def _table_values(rules: Rules, endgames: object, table_stones: object) -> TableValues | None:
    """The tables a rollout stops at (``endgames``), checked, or None."""
    if not isinstance(endgames, bool):
        raise ArgumentTypeError(f"endgames must be True or False, got {endgames!r}")
    return TableValues(rules, table_stones) if endgames else None


@dataclass
class _Tallies:
    """Seat 0's signed value of each game played (None: truncated), the
    tallies of the finished games, the plies of all and the truncated count."""

    values: list[float | None] = field(default_factory=list)
    counts: list[list[Any]] = field(default_factory=lambda: [[0] * 4, [0] * 4])
    kind_counts: list[list[int]] = field(default_factory=lambda: [[0] * len(KINDS), [0] * len(KINDS)])
    plies: int = 0
    truncated: int = 0
    exact: bool = False  # games may stop at the tables: counts of probabilities, and squares
    squares: list[float] = field(default_factory=lambda: [0.0] * len(GNUBG_FIGURES))
    settled: int = 0

    def add(self, played: _Game) -> None:
        self.plies += played.plies
        if played.truncated:
            self.truncated += 1
            self.values.append(None)
            return
        if self.exact:
            self._add_shares(played)
            return
        self.counts[played.winner][played.value] += 1
        self.kind_counts[played.winner][played.kind] += 1
        self.values.append(played.value if played.winner == 0 else -played.value)

    def _add_shares(self, played: _Game) -> None:
        """A game as a probability vector: a one-hot if played to its end."""
        shares = played.shares
        if shares is None:
            shares = [[0.0] * 4, [0.0] * 4]
            shares[played.winner][played.value] = 1.0
            self.kind_counts[played.winner][played.kind] += 1
        else:
            self.settled += 1
        if played.luck is not None:
            shares = [[share - luck for share, luck in zip(row, lucks)] for row, lucks in zip(shares, played.luck)]
        won, lost = shares
        figures = [won[1] + won[2] + won[3], won[2] + won[3], won[3], lost[1] + lost[2] + lost[3],
                   lost[2] + lost[3], lost[3], sum(v * (won[v] - lost[v]) for v in range(4))]
        for seat in (0, 1):
            for value in range(4):
                self.counts[seat][value] += shares[seat][value]
        for k, figure in enumerate(figures):
            self.squares[k] += figure * figure
        self.values.append(figures[-1])

    def summary(self, rules: Rules) -> RolloutResult:
        if self.exact:
            return summarize(self.counts, self.kind_counts, plies=self.plies, backgammon=rules.is_backgammon,
                             truncated=self.truncated, squares=self.squares,
                             finished=len(self.values) - self.truncated, settled=self.settled)
        return summarize(self.counts, self.kind_counts, plies=self.plies, backgammon=rules.is_backgammon,
                         truncated=self.truncated)


def _signed_values(position: Position, rules: Rules, games: int,
                   policies: tuple[ResolvedPolicy, ResolvedPolicy], seed: int, stratify: int,
                   max_plies: int, stop_at: float | None, on_long: str = "raise",
                   tables: TableValues | None = None, judging: Judging | None = None) -> _Tallies:
    """The games played and their tallies; with ``stop_at``, blocks of
    :data:`BLOCK` games until every figure's standard error is at most
    ``stop_at`` (or ``games`` are played); ``tables``: games stop there;
    ``judging``: games judged by a network (see :func:`_play_one`)."""
    tallies = _Tallies(exact=tables is not None or judging is not None)
    for game in range(games):
        tallies.add(_play_one(position, rules, policies, seed, game, opening=False, stratify=stratify,
                              max_plies=max_plies, keep=False, on_long=on_long, tables=tables,
                              judging=judging))
        block_done = (game + 1) % BLOCK == 0
        if (stop_at is not None and block_done and game + 1 < games
                and tallies.summary(rules).largest_stderr() <= stop_at):
            break
    return tallies


def rollout(position: PositionLike, rules: RulesLike = None, games: int = 1296, policy: PoliciesLike = "net",
            seed: int = 0, threads: int | None = None, progress: bool = False, *,
            stratify: int | None = None, stderr_target: float | None = None,
            max_plies: int = MAX_PLIES, on_long: str = "raise", endgames: bool = False,
            table_stones: int = 3, truncate: int | None = None, variance_reduction: bool = False) -> RolloutResult:
    """Play ``games`` games from ``position`` (seat 0 = row 0, to roll) and
    tally them.

    The plain-Python specification of :func:`bansugoroku_fast.rollout`: game
    ``g`` is game ``g`` of ``play_games(rules, games, policy, seed,
    start=position, stratify=stratify)``. The oracle takes one position (the
    package also a batch).

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 (seat 0) to roll.
    rules : ~bansugoroku_fast.typing.RulesLike
        The rule set; None assumes Ban-sugoroku's defaults and warns
        (:class:`~bansugoroku_fast.errors.AssumedRulesWarning`).
    games : int
        How many games, at least 1.
    policy : ~bansugoroku_fast.typing.PoliciesLike
        As in :func:`play_games`; by default ``"net"``, the shipped network.
    seed : int
        The dice: the same seed rolls the same games.
    threads : int or None
        Accepted (and checked) for the package's signature.
    progress : bool
        Accepted for the package's signature; the oracle shows no bar.
    stratify : int or None
        36 (or 1296) deals the first roll (or two) evenly; the standard
        errors stay the plain, conservative formula (see
        :mod:`bansugoroku_fast.games.tallies`).
    stderr_target : float or None
        Play blocks of :data:`~bansugoroku_fast.checks.BLOCK` games and stop
        after the first block at which every figure's standard error is at
        most this.
    max_plies : int
        The plies a game may last.
    on_long : str
        ``"raise"`` or ``"truncate"``: a game not over after ``max_plies``
        plies ends there, counted apart.
    endgames : bool
        Stop each game at the first position the oracle's two-sided table
        values (:class:`TableValues`) and count its exact chances; the
        package's ``rollout`` stops at every table position, so the two agree
        where every table race the games reach is that small.
    table_stones : int
        The most stones a side on the table's points (1..6) of that table,
        built in plain Python: seconds for 3, about a minute for 5.
    truncate : int or None
        Seat 0's policy a network at 0 ply: stop each game after this many
        plies, valued by the network's float64 forward pass
        (:func:`~bansugoroku_fast.oracle.evaluators.standing_value`), checked
        after the tables' stop.
    variance_reduction : bool
        Seat 0's policy a network at 0 ply: subtract each roll's
        :func:`~bansugoroku_fast.oracle.evaluators.luck` from its game's
        result.

    Returns
    -------
    RolloutResult
        The games' counts by seat and value, the win probability, the equity
        and GNU Backgammon's figures, each with its standard error (see
        :class:`~bansugoroku_fast.games.tallies.RolloutResult`).

    Raises
    ------
    InvalidPositionError
        The position is not one of the rules (a batch included).
    InvalidRulesError
        The rules are not a rule set.
    InvalidArgumentError
        A count or option out of its range (``games`` of 0, ``stratify``
        other than 36 or 1296, ``table_stones`` outside 1..6, a
        ``stderr_target`` that is not positive...; ``ArgumentTypeError`` for
        ``endgames`` or ``variance_reduction`` not a bool).
    InvalidPolicyError
        A policy that is not one (``PolicyTypeError`` when ``truncate`` or
        ``variance_reduction`` is asked of a policy that is not a network).
    GameTooLongError
        A game has not ended after ``max_plies`` plies, unless
        ``on_long="truncate"``.

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> result = rollout(Position.initial(), "backgammon", games=4, policy="first")
    >>> result.games, sum(map(sum, result.counts))
    (4, 4)
    """
    rules = scoring_rules(rules, "rollout")
    rules, games, seed, max_plies, _ = run_arguments(rules, games, seed, max_plies, threads)
    on_long = as_on_long(on_long)
    position = as_position(position)
    check_position_for_rules(position, rules)
    tables = _table_values(rules, endgames, table_stones)
    strata = as_stratify(stratify)
    warn_uneven_strata(strata, games, "rollout")
    policies = resolved(policy, rules)
    return _signed_values(
        position, rules, games, policies, seed, strata, max_plies,
        as_stderr_target(stderr_target), on_long, tables, _judging(policies, truncate, variance_reduction),
    ).summary(rules)


def _judging(policies: tuple[ResolvedPolicy, ResolvedPolicy], truncate: object,
             variance_reduction: object) -> Judging | None:
    """The rollout's :class:`Judging` by seat 0's network, or None."""
    if truncate is not None:
        truncate = positive_int(truncate, "truncate")
    if not isinstance(variance_reduction, bool):
        raise ArgumentTypeError(f"variance_reduction must be True or False, got {variance_reduction!r}")
    if truncate is None and not variance_reduction:
        return None
    if policies[0].code != NET:
        raise PolicyTypeError("truncate and variance_reduction need seat 0's policy to be a network at 0 ply")
    return Judging(policies[0].function, truncate, variance_reduction)


def rank_plays(position: PositionLike, dice: DiceLike, rules: RulesLike = None, games: int = 1296,
               policy: PoliciesLike = "net", seed: int = 0, threads: int | None = None,
               progress: bool = False, *, stratify: int | None = None,
               max_plies: int = MAX_PLIES, on_long: str = "raise", endgames: bool = False,
               table_stones: int = 3) -> list[RankedPlay]:
    """Roll out every legal play of ``dice`` in ``position`` and rank them,
    best first.

    The rollouts use duplicate dice (game ``g`` after each play sees the
    same rolls). Each play's games start from its position with the
    opponent to roll: its equity is minus that rollout's. The plain-Python
    specification of :func:`bansugoroku_fast.rank_plays`.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to play ``dice``.
    dice : ~bansugoroku_fast.typing.DiceLike
        The roll whose plays are ranked.
    rules : ~bansugoroku_fast.typing.RulesLike
        The rule set; None assumes Ban-sugoroku's defaults and warns
        (:class:`~bansugoroku_fast.errors.AssumedRulesWarning`).
    games : int
        How many games after each play, at least 1.
    policy : ~bansugoroku_fast.typing.PoliciesLike
        As in :func:`play_games`; by default ``"net"``, the shipped network.
    seed : int
        The dice: the same seed rolls the same games.
    threads : int or None
        Accepted (and checked) for the package's signature.
    progress : bool
        Accepted for the package's signature; the oracle shows no bar.
    stratify : int or None
        36 (or 1296) deals the first roll (or two) evenly, as in
        :func:`rollout`.
    max_plies : int
        The plies a game may last.
    on_long : str
        ``"raise"`` or ``"truncate"``: a game not over after ``max_plies``
        plies is left out (see :func:`~bansugoroku_fast.games.tallies.rank`).
    endgames : bool
        Stop games at the oracle's two-sided table, as in :func:`rollout`.
    table_stones : int
        The most stones a side (1..6) of that table, as in :func:`rollout`.

    Returns
    -------
    list of RankedPlay
        Every legal play, greatest equity for the side that plays first (ties
        in ``legal_plays`` order), each with its standard error and that of
        its difference to the best play; empty when the roll has no play.

    Raises
    ------
    InvalidPositionError
        The position is not one of the rules.
    InvalidDiceError
        The dice are not a roll.
    InvalidRulesError
        The rules are not a rule set.
    InvalidArgumentError
        A count or option out of its range (``games`` of 0, an ``on_long``
        other than the two, ``table_stones`` outside 1..6...).
    InvalidPolicyError
        A policy that is not one.
    GameTooLongError
        A game has not ended after ``max_plies`` plies, unless
        ``on_long="truncate"``.

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> ranked = rank_plays(Position.initial(), (6, 5), "backgammon", games=2, policy="first")
    >>> len(ranked), ranked[0].difference_stderr
    (7, 0.0)
    """
    rules = scoring_rules(rules, "rank_plays")
    rules, games, seed, max_plies, _ = run_arguments(rules, games, seed, max_plies, threads)
    on_long = as_on_long(on_long)
    strata = as_stratify(stratify)
    warn_uneven_strata(strata, games, "rank_plays")
    policies = resolved(policy, rules)
    plays = legal_plays(position, dice, rules)
    tables = _table_values(rules, endgames, table_stones)
    values = []
    for play in plays:
        signed = _signed_values(play.position.swapped(), rules, games, policies, seed, strata, max_plies, None,
                                on_long, tables).values
        values.append([None if value is None else -value for value in signed])
    return rank(plays, values)
