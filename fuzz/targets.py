"""Fuzz targets: one per public entry point.

Each target turns the fuzzer's bytes into an input (through atheris'
``FuzzedDataProvider``), calls the entry point, and checks its contract:
either a result with the stated property, or one of the errors the entry
point documents. Any other exception, a crash, a hang or a sanitizer report
is a finding. Most inputs are built to be *nearly* valid (a real position
with one thing wrong), since wholly random bytes rarely get past the first
check.

>>> import atheris
>>> sorted(TARGETS)[:3]
['batch', 'dice', 'match_file']
>>> TARGETS["position_id"](b"4HPwATDgc/ABMA")   # a valid id: no finding
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import atheris
import numpy as np

import bansugoroku_fast as package
from bansugoroku_fast import PlayError, Position, Rules, oracle
from bansugoroku_fast.checks import as_dice
from bansugoroku_fast.errors import (
    InvalidDiceError,
    InvalidPositionError,
    InvalidRulesError,
    MatchFileError,
    MatchIdError,
)
from bansugoroku_fast.formats import MatchState, decode_match_id, encode_match_id, parse_match, write_match
from bansugoroku_fast.formats.match_id import GAME_STATES
from bansugoroku_fast.layout import BAR, STONES

Target = Callable[[bytes], None]
TARGETS: dict[str, Target] = {}
RULE_SETS = Rules.all_combinations()
TEXT_PIECES = ["/", " ", "*", "(", ")", "bar", "off", "b", "o", "-", ",", "2", "4", "13", "24", "25", "0", "6"]


def target(function: Callable[[atheris.FuzzedDataProvider], None]) -> Target:
    """Register ``function`` (which reads a data provider) as a bytes target."""

    def run(data: bytes) -> None:
        function(atheris.FuzzedDataProvider(data))

    run.__name__ = run.__qualname__ = function.__name__
    run.__doc__ = function.__doc__
    TARGETS[function.__name__] = run
    return run


# --- building inputs -------------------------------------------------------------


def _row(provider: atheris.FuzzedDataProvider, forbidden: set[int]) -> list[int]:
    """15 stones over off (0), points 1..24 and the bar, avoiding ``forbidden``."""
    row = [0] * 26
    places = [place for place in range(26) if place not in forbidden]
    for _ in range(STONES):
        row[provider.PickValueInList(places)] += 1
    return row


def valid_rows(provider: atheris.FuzzedDataProvider) -> list[list[int]]:
    """Two rows that make a valid position (under bear-off rules)."""
    mover = _row(provider, set())
    occupied = {BAR - point for point in range(1, 25) if mover[point]}
    return [mover, _row(provider, occupied)]


def any_rows(provider: atheris.FuzzedDataProvider) -> Any:
    """Mostly a valid position, sometimes with one count changed, sometimes raw bytes."""
    kind = provider.ConsumeIntInRange(0, 3)
    if kind == 0:
        return np.frombuffer(provider.ConsumeBytes(52).ljust(52, b"\0"), dtype=np.int8).reshape(2, 26)
    rows = valid_rows(provider)
    if kind == 1:
        rows[provider.ConsumeIntInRange(0, 1)][provider.ConsumeIntInRange(0, 25)] = provider.ConsumeIntInRange(
            -130, 130
        )
    return rows


def any_dice(provider: atheris.FuzzedDataProvider) -> Any:
    """Dice of every spelling the API meets: pairs, text, arrays, and wrong types."""
    a, b = provider.ConsumeIntInRange(-1, 8), provider.ConsumeIntInRange(-1, 8)
    kind = provider.ConsumeIntInRange(0, 9)
    if kind == 0:
        return provider.ConsumeUnicodeNoSurrogates(6)
    if kind == 1:
        return f"{a}-{b}"
    if kind == 2:
        return [a, b]
    if kind == 3:
        dtype = provider.PickValueInList(["int8", "uint8", "int64", "uint64", "float64", "bool", "m8[s]", "U1"])
        return np.array([a, b]).astype(dtype)
    if kind == 4:
        return {a, b}
    if kind == 5:
        return bytes([a % 256, b % 256])
    if kind == 6:
        return (a, b, provider.ConsumeIntInRange(1, 6))
    if kind == 7:
        return (np.int16(a), b)
    if kind == 8:
        return (float(a), b)
    return (a, b)


def nearly(provider: atheris.FuzzedDataProvider, valid: Callable[[], str], garbage_length: int,
           replacement: tuple[int, int] = (1, 1)) -> str:
    """Half the time ``valid()`` with one character replaced by fuzzed ones
    (as many as ``replacement`` allows; 0 deletes it), else
    ``garbage_length`` fuzzed characters."""
    if not provider.ConsumeBool():
        return str(provider.ConsumeUnicodeNoSurrogates(garbage_length))
    text = valid()
    spot = provider.ConsumeIntInRange(0, len(text) - 1)
    length = provider.ConsumeIntInRange(*replacement)
    return text[:spot] + str(provider.ConsumeUnicodeNoSurrogates(length)) + text[spot + 1:]


def _same_outcome(run_kernel: Callable[[], Any], run_oracle: Callable[[], Any]) -> None:
    """Both raise the same error type, or both return equal results."""
    results = []
    for run in (run_kernel, run_oracle):
        try:
            results.append(("value", run()))
        except (InvalidPositionError, InvalidDiceError, InvalidRulesError) as error:
            results.append(("error", type(error)))
    assert results[0] == results[1], results


def _play_texts(plays: list) -> list[tuple[str, Any]]:
    return [(str(play), play.position) for play in plays]


# --- targets ---------------------------------------------------------------------


@target
def positions(provider: atheris.FuzzedDataProvider) -> None:
    """Position(rows): refused with InvalidPositionError, or a position whose
    plays, first steps and outcome the kernels and the oracle agree on."""
    try:
        position = Position(any_rows(provider))
    except InvalidPositionError:
        return
    assert Position(position.array) == position == Position.from_id(position.id)
    rules = provider.PickValueInList(RULE_SETS)
    dice = (provider.ConsumeIntInRange(1, 6), provider.ConsumeIntInRange(1, 6))
    _same_outcome(lambda: _play_texts(package.legal_plays(position, dice, rules)),
                  lambda: _play_texts(oracle.legal_plays(position, dice, rules)))
    _same_outcome(lambda: package.legal_first_steps(position, dice, rules),
                  lambda: oracle.legal_first_steps(position, dice, rules))
    _same_outcome(lambda: package.outcome(position, rules), lambda: oracle.outcome(position, rules))


@target
def batch(provider: atheris.FuzzedDataProvider) -> None:
    """The batch API on a few items of any dtype and shape: a documented
    error, or results equal to the single calls item by item."""
    count = provider.ConsumeIntInRange(0, 6)
    positions = np.array([any_rows(provider) for _ in range(count)], dtype=np.int64).reshape(count, 2, 26)
    dice = np.array([[provider.ConsumeIntInRange(0, 7) for _ in range(2)] for _ in range(count)])
    dtype = provider.PickValueInList(["int8", "int8", "int16", "uint8", "float32", "bool"])
    if provider.ConsumeBool():
        positions = positions.astype(dtype)
    elif provider.ConsumeBool():
        positions = positions.transpose(0, 2, 1).copy().transpose(0, 2, 1)  # not C-contiguous
    rules = provider.PickValueInList(RULE_SETS)
    threads = provider.ConsumeIntInRange(1, 3)
    try:
        counts = package.count_plays(positions, dice, rules, threads=threads)
    except (InvalidPositionError, InvalidDiceError):
        return
    singles = [package.legal_plays(positions[i], tuple(dice[i]), rules) for i in range(count)]
    assert counts.tolist() == [len(plays) for plays in singles]
    chunk_size = provider.ConsumeIntInRange(1, 4)
    for start, chunk in package.iter_plays(positions, dice, rules, chunk_size=chunk_size, threads=threads):
        for k in range(len(chunk.offsets) - 1):
            children = chunk.children[chunk.offsets[k]:chunk.offsets[k + 1]]
            assert [c.tobytes() for c in children] == [p.position.key for p in singles[start + k]]
    shots = package.batch.shots(positions, rules, threads=threads)
    assert shots.tolist() == [package.shots(positions[i], rules) for i in range(count)]


@target
def dice(provider: atheris.FuzzedDataProvider) -> None:
    """Dice of any type: InvalidDiceError, or the plays of the pair they spell."""
    roll = any_dice(provider)
    rules = provider.PickValueInList(RULE_SETS)
    try:
        plays = package.legal_plays(Position.initial(), roll, rules)
    except InvalidDiceError:
        return
    a, b = as_dice(roll)
    assert 1 <= a <= 6 and 1 <= b <= 6
    assert plays == package.legal_plays(Position.initial(), (a, b), rules)


@target
def rules(provider: atheris.FuzzedDataProvider) -> None:
    """Rules labels and options: InvalidRulesError, or rules whose short name
    reads back as the same move-generation rules."""
    if provider.ConsumeBool():
        label = "".join(
            provider.PickValueInList(["ban", "backgammon", "bg", "ban-sugoroku", ",", "/", "=", "finish", "closure",
                                      "start", "arrival", "bear_off", "multiplied", "immediate", "off", "alternate",
                                      "roll_off", " ", provider.ConsumeUnicodeNoSurrogates(2)])
            for _ in range(provider.ConsumeIntInRange(0, 8))
        )
    else:
        label = provider.ConsumeUnicodeNoSurrogates(40)
    try:
        parsed = Rules.parse(label)
    except InvalidRulesError:
        return
    again = Rules.parse(parsed.short_name)
    assert (again.variant, again.finish, again.closure) == (parsed.variant, parsed.finish, parsed.closure)
    assert type(parsed.variant) is str and type(parsed.finish) is str


@target
def notation(provider: atheris.FuzzedDataProvider) -> None:
    """parse_play: every legal play reads back from its own notation; any
    other text is a PlayError (syntax, illegal or ambiguous) or one of the legal plays."""
    position = Position(valid_rows(provider))
    rules = provider.PickValueInList([r for r in RULE_SETS if r.bears_off])
    roll = (provider.ConsumeIntInRange(1, 6), provider.ConsumeIntInRange(1, 6))
    try:
        plays = package.legal_plays(position, roll, rules)
    except InvalidPositionError:  # both sides have won
        return
    if plays:
        play = provider.PickValueInList(list(plays))  # atheris takes a list, not a sequence
        assert package.parse_play(position, roll, str(play), rules) == play
    if provider.ConsumeBool():
        text = provider.ConsumeUnicodeNoSurrogates(30)
    else:
        text = "".join(provider.PickValueInList(TEXT_PIECES) for _ in range(provider.ConsumeIntInRange(0, 12)))
    try:
        found = package.parse_play(position, roll, text, rules)
    except PlayError:
        return
    assert found in plays


@target
def position_id(provider: atheris.FuzzedDataProvider) -> None:
    """Position.from_id: InvalidPositionError, or a position whose id is the text."""
    text = nearly(provider, lambda: Position(valid_rows(provider)).id, 16)
    try:
        position = Position.from_id(text)
    except InvalidPositionError:
        return
    assert position.id == text


@target
def xgid(provider: atheris.FuzzedDataProvider) -> None:
    """Position.from_xgid: InvalidPositionError, or a position that the XGID
    it writes reads back as."""
    text = nearly(provider, lambda: Position(valid_rows(provider)).xgid, 60, replacement=(0, 2))
    try:
        position = Position.from_xgid(text)
    except InvalidPositionError:
        return
    assert text.isascii()
    assert Position.from_xgid(position.xgid) == position


@target
def match_file(provider: atheris.FuzzedDataProvider) -> None:
    """parse_match on any bytes (the seed corpus holds real match files):
    MatchFileError, or a match whose written text reads back to the same games."""
    data = provider.ConsumeBytes(provider.remaining_bytes())
    try:
        record = parse_match(data)
    except MatchFileError:
        return
    again = parse_match(write_match(record))
    assert (again.match_length, again.players, again.rules) == (record.match_length, record.players, record.rules)
    assert len(again.games) == len(record.games)
    for mine, theirs in zip(record.games, again.games):
        assert (mine.winner, mine.points, mine.ending, mine.starter) == (
            theirs.winner, theirs.points, theirs.ending, theirs.starter)
        assert np.array_equal(mine.positions, theirs.positions) and np.array_equal(mine.after, theirs.after)


def _match_state(provider: atheris.FuzzedDataProvider) -> MatchState:
    """A MatchState from fuzzed fields, most of them in range (MatchIdError if not)."""
    dice = (provider.ConsumeIntInRange(0, 7), provider.ConsumeIntInRange(0, 7))
    return MatchState(
        cube=provider.PickValueInList([1, 2, 4, 64, 2**15, 2**16, 3, 0, -2]),
        cube_owner=provider.PickValueInList([None, 0, 1, 2]),
        player_on_roll=provider.ConsumeIntInRange(0, 2),
        crawford=provider.ConsumeBool(),
        game_state=provider.PickValueInList(list(GAME_STATES) + ["other"]),
        turn=provider.ConsumeIntInRange(0, 2),
        double_offered=provider.ConsumeBool(),
        resignation=provider.ConsumeIntInRange(0, 4),
        dice=None if dice == (0, 0) else dice,
        match_length=provider.ConsumeIntInRange(0, 2**15),
        score=(provider.ConsumeIntInRange(0, 2**15), provider.ConsumeIntInRange(0, 25)),
        jacoby=provider.ConsumeBool(),
    )


@target
def match_id(provider: atheris.FuzzedDataProvider) -> None:
    """MatchState, encode_match_id and decode_match_id: MatchIdError, or a
    state whose id decodes back to it, and text that decodes to a state
    whose id is the text (one id per state; only the order of two different
    dice may differ, as the id is read either way and written larger first)."""
    try:
        state = _match_state(provider)
    except MatchIdError:
        state = None
    if state is not None:
        assert decode_match_id(encode_match_id(state)) == state
    text = nearly(provider, lambda: encode_match_id(state or MatchState()), 12)
    try:
        decoded = decode_match_id(text)
    except MatchIdError:
        return
    written = encode_match_id(decoded)
    assert decode_match_id(written) == decoded
    if decoded.dice is None or decoded.dice[0] == decoded.dice[1]:
        assert written == text
