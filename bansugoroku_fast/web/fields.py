"""The JSON bodies of ``bansugoroku serve``'s calls, read and checked before
any work.

A body is read by :meth:`Body.read`: at most :data:`MAX_BODY_BYTES` bytes
of JSON holding one object, whose fields are exactly those the call takes
(an unknown field is refused, not ignored, so that a misspelt option does
not silently fall back to its default). Each field is turned into the
library's own value by its reader (:func:`position_field`,
:func:`dice_field`, ...), which raises the library's typed error naming the
field. Every error here is a :class:`~bansugoroku_fast.errors.BansugorokuError`;
the server answers each with a 4xx and a JSON message.

>>> plays = Body(required={"position": position_field, "dice": dice_field, "rules": rules_field})
>>> fields = plays.read(b'{"position": "4HPwATDgc/ABMA", "dice": [6, 5], "rules": "backgammon"}')
>>> fields["dice"], fields["rules"].short_name
((6, 5), 'backgammon')
>>> plays.read(b'{"position": "4HPwATDgc/ABMA", "dice": [6, 5], "rules": "backgammon", "ply": 1}')
Traceback (most recent call last):
...
bansugoroku_fast.errors.RequestError: unknown field 'ply'; this call takes position, dice, rules
>>> plays.read(b'{"position": "4HPwATDgc/ABMA", "dice": [6, 7], "rules": "backgammon"}')
Traceback (most recent call last):
...
bansugoroku_fast.errors.InvalidDiceError: dice: ...
"""
from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from typing import Any

from ..checks import as_dice
from ..errors import (
    InvalidArgumentError,
    InvalidCubeError,
    InvalidDiceError,
    InvalidPolicyError,
    InvalidPositionError,
    InvalidRulesError,
    MatchFileError,
    RequestError,
)
from ..position import Position
from ..rules import Rules

__all__ = ["MAX_BODY_BYTES", "MAX_MATCH_BYTES", "Body", "FieldReader", "bool_field", "dice_field",
           "json_object", "match_text_field", "ply_field", "policy_field", "position_field", "rules_field",
           "seat_field", "seed_field", "whole_field"]

#: The largest request body the server reads (1 MB); a larger one is refused with 413.
MAX_BODY_BYTES = 1_000_000
#: The largest match file text an analysis takes (the body's limit, less the JSON around it).
MAX_MATCH_BYTES = MAX_BODY_BYTES - 1_000

#: Reads one field's JSON value (the field's name, for messages) into the library's value.
FieldReader = Callable[[Any, str], Any]


def _refuse_constant(name: str) -> Any:
    raise RequestError(f"the body is not JSON: {name} is not a JSON number", status=400)


#: The decoder of bodies, made once (``json.loads`` with an argument makes one per call).
_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


def json_object(body: bytes) -> dict[str, Any]:
    """The JSON object of ``body``; :class:`RequestError` (400) for a body
    that is not UTF-8 JSON holding an object, 413 for one over
    :data:`MAX_BODY_BYTES`.

    >>> json_object(b'{"a": 1}')
    {'a': 1}
    >>> json_object(b'[1, 2]')
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.RequestError: the body must be a JSON object ({...}), got a list
    """
    if len(body) > MAX_BODY_BYTES:
        raise RequestError(f"the body is {len(body)} bytes, more than the {MAX_BODY_BYTES} allowed", status=413)
    if not body.strip():
        raise RequestError("the body is empty: send a JSON object", status=400)
    try:
        value = _DECODER.decode(body.decode(json.detect_encoding(body), "surrogatepass"))  # as json.loads reads bytes
    except UnicodeDecodeError:
        raise RequestError("the body is not UTF-8 text", status=400) from None
    except json.JSONDecodeError as error:
        raise RequestError(f"the body is not JSON: {error.msg} at line {error.lineno}, column {error.colno}",
                           status=400) from None
    except RecursionError:
        raise RequestError("the body is not JSON this server reads: nested too deep", status=400) from None
    if not isinstance(value, dict):
        raise RequestError(f"the body must be a JSON object ({{...}}), got {_json_type(value)}", status=400)
    return value


def _json_type(value: object) -> str:
    """How JSON names the type of ``value``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


class Body:
    """The fields one call takes: ``required`` and ``optional`` map each
    field's name to its reader; an optional field left out (or ``null``)
    takes its ``defaults`` entry (None without one)."""

    def __init__(self, required: Mapping[str, FieldReader] | None = None,
                 optional: Mapping[str, FieldReader] | None = None,
                 defaults: Mapping[str, Any] | None = None) -> None:
        self.required = dict(required or {})
        self.optional = dict(optional or {})
        self.defaults = dict(defaults or {})

    @property
    def names(self) -> list[str]:
        return [*self.required, *self.optional]

    def read(self, body: bytes) -> dict[str, Any]:
        """Every field of ``body`` read, or the first problem raised."""
        return self.fields(json_object(body) if body.strip() or self.required else {})

    def fields(self, value: dict[str, Any]) -> dict[str, Any]:
        """The fields of an already parsed JSON object."""
        for name in value:
            if name not in self.required and name not in self.optional:
                raise RequestError(f"unknown field {name!r}; this call takes {', '.join(self.names) or 'no field'}",
                                   status=422)
        missing = [name for name in self.required if name not in value]
        if missing:
            raise RequestError(f"missing field{'s' if len(missing) > 1 else ''} {', '.join(missing)}", status=422)
        out = {name: reader(value[name], name) for name, reader in self.required.items()}
        for name, reader in self.optional.items():
            given = value.get(name)
            out[name] = self.defaults.get(name) if given is None else reader(given, name)
        return out


# --- the fields ----------------------------------------------------------------------------------


def _string(value: Any, name: str, error: type[Exception], what: str) -> str:
    if not isinstance(value, str):
        raise error(f"{name}: {what} is a string, got {_json_type(value)}")
    return value


def position_field(value: Any, name: str) -> Position:
    """A GNU Backgammon Position ID or an XGID (``XGID=...``), row 0 the side on roll.

    >>> position_field("4HPwATDgc/ABMA", "position") == Position.initial()
    True
    >>> position_field("nonsense", "position")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidPositionError: position: ...
    """
    text = _string(value, name, InvalidPositionError, "a Position ID or an XGID").strip()
    if len(text) > 200:
        raise InvalidPositionError(f"{name}: {len(text)} characters is no Position ID or XGID")
    try:
        return Position.from_xgid(text) if text.upper().startswith("XGID=") else Position.from_id(text)
    except InvalidPositionError as error:
        raise InvalidPositionError(f"{name}: {error}") from None


def dice_field(value: Any, name: str) -> tuple[int, int]:
    """Two dice: ``[6, 5]`` (or the text ``"6-5"``).

    >>> dice_field([3, 3], "dice"), dice_field("6-5", "dice")
    ((3, 3), (6, 5))
    """
    if type(value) is list and len(value) == 2:
        first, second = value
        if type(first) is int and type(second) is int and 1 <= first <= 6 and 1 <= second <= 6:
            return first, second  # the common case, without the general checks below
    ok_list = isinstance(value, list) and len(value) == 2 and all(
        isinstance(die, int) and not isinstance(die, bool) for die in value)
    if not (ok_list or isinstance(value, str)):
        raise InvalidDiceError(f"{name}: two dice such as [6, 5], got {json.dumps(value)[:60]}")
    try:
        return as_dice(tuple(value) if isinstance(value, list) else value)
    except InvalidDiceError as error:
        raise InvalidDiceError(f"{name}: {error}") from None


@functools.lru_cache(maxsize=64)
def _rules(label: str) -> Rules:
    return Rules.parse(label)


def rules_field(value: Any, name: str) -> Rules:
    """A rules label as the command line takes it (``"backgammon"``,
    ``"ban-sugoroku"``, ``"ban-sugoroku,finish=bear_off"``, ``"ban/bear_off/off"``).

    >>> rules_field("ban/bear_off/off", "rules").label
    'ban-sugoroku,finish=bear_off,closure=off,start=alternate'
    """
    text = _string(value, name, InvalidRulesError, "a rules label such as 'backgammon'")
    if len(text) > 200:
        raise InvalidRulesError(f"{name}: {len(text)} characters is no rules label")
    try:
        return _rules(text)
    except InvalidRulesError as error:
        raise InvalidRulesError(f"{name}: {error}") from None


def whole_field(low: int, high: int) -> FieldReader:
    """A reader of a whole number in ``low .. high``."""
    def read(value: Any, name: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InvalidArgumentError(f"{name}: a whole number from {low} to {high}, got {json.dumps(value)[:60]}")
        return value

    return read


#: The plies of a search: 0, 1 or 2.
ply_field = whole_field(0, 2)
#: A seat: 0 (moves first in the first game) or 1.
seat_field = whole_field(0, 1)
#: A seed for the dice.
seed_field = whole_field(0, 2**63 - 1)


def bool_field(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidArgumentError(f"{name}: true or false, got {json.dumps(value)[:60]}")
    return value


def cube_limit_field(value: Any, name: str) -> int:
    """The cube's limit: 0 (no cube) or a power of 2 from 2 to 64."""
    if isinstance(value, bool) or value not in (0, 2, 4, 8, 16, 32, 64):
        raise InvalidCubeError(f"{name}: 0 (no cube) or a power of 2 from 2 to 64, got {json.dumps(value)[:60]}")
    return int(value)


def cube_field(value: Any, name: str) -> int:
    """The cube's value: a power of 2 from 1 to 64."""
    if isinstance(value, bool) or value not in (1, 2, 4, 8, 16, 32, 64):
        raise InvalidCubeError(f"{name}: a power of 2 from 1 to 64, got {json.dumps(value)[:60]}")
    return int(value)


def owner_field(value: Any, name: str) -> int:
    """Who owns the cube: 0 the side on roll, 1 the other (null: centred)."""
    if isinstance(value, bool) or value not in (0, 1):
        raise InvalidCubeError(f"{name}: 0 (the side on roll), 1 (the other side) or null (centred), "
                               f"got {json.dumps(value)[:60]}")
    return int(value)


#: The computer's strengths the page offers, strongest first.
POLICY_NAMES = ("net1", "net", "heuristic", "pubeval", "random")


def policy_field(value: Any, name: str) -> str:
    text = _string(value, name, InvalidPolicyError, "a policy name")
    if text not in POLICY_NAMES:
        raise InvalidPolicyError(f"{name}: one of {', '.join(POLICY_NAMES)}, got {text[:40]!r}")
    return text


def match_text_field(value: Any, name: str) -> str:
    """The text of a match file (``.mat``)."""
    text = _string(value, name, MatchFileError, "the text of a match file")
    if len(text) > MAX_MATCH_BYTES:
        raise RequestError(f"{name}: {len(text)} characters is more than the {MAX_MATCH_BYTES} allowed", status=413)
    return text


def text_field(limit: int) -> FieldReader:
    """A reader of a string of at most ``limit`` characters."""
    def read(value: Any, name: str) -> str:
        text = _string(value, name, InvalidArgumentError, "text")
        if len(text) > limit:
            raise InvalidArgumentError(f"{name}: at most {limit} characters, got {len(text)}")
        return text

    return read
