"""Rule sets: Ban-sugoroku with its local options, and modern backgammon.

>>> Rules()
Rules(variant='ban-sugoroku', finish='arrival', closure='multiplied', start='alternate')
>>> Rules(variant="backgammon")
Rules(variant='backgammon', finish='bear_off', closure='off', start='roll_off')
>>> Rules(finish="bear_off").doubles_moves, Rules(variant="backgammon").doubles_moves
(2, 4)
>>> Rules(closure="sometimes")
Traceback (most recent call last):
...
bansugoroku_fast.errors.InvalidRulesError: unknown closure 'sometimes' for ban-sugoroku; accepted: 'multiplied', ...
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from .errors import InvalidRulesError, RulesTypeError

BAN_SUGOROKU = "ban-sugoroku"
BACKGAMMON = "backgammon"
SHORT_VARIANTS = {"ban": BAN_SUGOROKU, "bg": BACKGAMMON}  # the labels' short names

#: The 21 distinct rolls, larger die first, ordered 6-6, 6-5, ..., 1-1: the
#: order of perft_divide and of every table indexed by roll.
ALL_ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1))

#: For each variant and option: the accepted values, the first being the default.
OPTIONS: dict[str, dict[str, tuple[str, ...]]] = {
    BAN_SUGOROKU: {
        "finish": ("arrival", "bear_off"),
        "closure": ("multiplied", "immediate", "off"),
        "start": ("alternate", "roll_off"),
    },
    # Modern backgammon has no local options: each tuple holds its one value.
    BACKGAMMON: {
        "finish": ("bear_off",),
        "closure": ("off",),
        "start": ("roll_off",),
    },
}


def _is_one_of(value: object, accepted: Iterable[str]) -> bool:
    """Whether ``value`` is a str equal to one of ``accepted`` (compared as a
    plain str, so that a subclass cannot redefine equality)."""
    return isinstance(value, str) and str.__str__(value) in accepted


def _accepted(values: Iterable[str]) -> str:
    return ", ".join(repr(v) for v in values)


@dataclass(frozen=True)
class Rules:
    """One rule set; frozen and hashable, so usable as a dict key.

    ``variant`` is ``"ban-sugoroku"`` (default) or ``"backgammon"``. The
    Ban-sugoroku options (docs/rules.md §3.1), defaults first:

    * ``finish``: ``"arrival"`` (iri-gachi, win once all 15 are home) or
      ``"bear_off"`` (early Edo: gather home, then bear off all 15);
    * ``closure``: ``"multiplied"`` (closed home doubles or triples a win),
      ``"immediate"`` (forming the closure wins at once) or ``"off"``;
    * ``start``: ``"alternate"`` or ``"roll_off"``.

    Backgammon takes no options: leaving them out (or passing the only value
    it has) is accepted, anything else raises :class:`InvalidRulesError`.

    Parameters
    ----------
    variant : str
        ``"ban-sugoroku"`` or ``"backgammon"``.
    finish : str or None
        Ban-sugoroku's finish, ``"arrival"`` or ``"bear_off"`` (None: the
        default, arrival).
    closure : str or None
        Ban-sugoroku's closed home, ``"multiplied"``, ``"immediate"`` or
        ``"off"`` (None: multiplied).
    start : str or None
        Who starts, ``"alternate"`` or ``"roll_off"`` (None: alternate).

    Examples
    --------
    >>> Rules().short_name, Rules("backgammon").short_name
    ('ban/arrival/multiplied', 'backgammon')
    >>> Rules(finish="bear_off", closure="off") == Rules(finish="bear_off", closure="off")
    True
    >>> Rules("backgammon", closure="immediate")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidRulesError: ...
    """

    variant: str = BAN_SUGOROKU
    finish: str | None = None
    closure: str | None = None
    start: str | None = None

    def __post_init__(self) -> None:
        if not _is_one_of(self.variant, OPTIONS):
            raise InvalidRulesError(
                f"unknown variant {self.variant!r}; accepted: {_accepted(OPTIONS)}"
            )
        object.__setattr__(self, "variant", str.__str__(self.variant))
        for option, accepted in OPTIONS[self.variant].items():
            value = getattr(self, option)
            if value is None:
                object.__setattr__(self, option, accepted[0])
            elif _is_one_of(value, accepted):
                object.__setattr__(self, option, str.__str__(value))  # a plain str, even from a subclass
            else:
                what = "unknown" if self.variant == BAN_SUGOROKU else "backgammon has no"
                raise InvalidRulesError(
                    f"{what} {option} {value!r} for {self.variant}; accepted: {_accepted(accepted)}"
                )

    @property
    def is_backgammon(self) -> bool:
        return self.variant == BACKGAMMON

    @property
    def doubles_moves(self) -> int:
        """Moves a double gives: 2 in Ban-sugoroku, 4 in backgammon."""
        return 4 if self.is_backgammon else 2

    @property
    def bears_off(self) -> bool:
        """True when stones leave the board (early-Edo finish and backgammon)."""
        return self.finish == "bear_off"

    @property
    def win_stops_turn(self) -> bool:
        """Ban-sugoroku: a sequence ends the moment its side wins (docs/rules.md §2.8)."""
        return not self.is_backgammon

    @cached_property
    def code(self) -> int:
        """A small integer naming the combination, as the kernels take it
        (computed once per Rules: a single kernel call reads it).

        Bit 0: bear-off finish; bits 1-2: closure (0 off, 1 multiplied,
        2 immediate); bit 3: backgammon.

        >>> [Rules(finish=f, closure=c).code for f in ("arrival", "bear_off")
        ...  for c in ("off", "multiplied", "immediate")]
        [0, 2, 4, 1, 3, 5]
        >>> Rules(variant="backgammon").code
        9
        """
        closure = ("off", "multiplied", "immediate").index(self.closure)
        return int(self.bears_off) | closure << 1 | int(self.is_backgammon) << 3

    @classmethod
    def all_combinations(cls) -> list[Rules]:
        """Every rule combination that changes move generation or outcomes
        (``start`` does not), Ban-sugoroku first.

        >>> len(Rules.all_combinations())
        7
        """
        ban = [
            cls(finish=finish, closure=closure)
            for finish in OPTIONS[BAN_SUGOROKU]["finish"]
            for closure in OPTIONS[BAN_SUGOROKU]["closure"]
        ]
        return ban + [cls(variant=BACKGAMMON)]

    @property
    def label(self) -> str:
        """The full label: every option spelt out, so that
        :meth:`parse` gives these rules back (the spelling the command line,
        match files and JSON output write).

        >>> Rules(finish="bear_off").label
        'ban-sugoroku,finish=bear_off,closure=multiplied,start=alternate'
        >>> Rules.parse(Rules(closure="off", start="roll_off").label) == Rules(closure="off", start="roll_off")
        True
        >>> Rules(variant="backgammon").label
        'backgammon'
        """
        if self.is_backgammon:
            return BACKGAMMON
        return f"{BAN_SUGOROKU},finish={self.finish},closure={self.closure},start={self.start}"

    @property
    def short_name(self) -> str:
        """A compact label, for test ids and benchmark tables (it leaves
        out ``start``; :attr:`label` names every option).

        >>> Rules().short_name, Rules(variant="backgammon").short_name
        ('ban/arrival/multiplied', 'backgammon')
        """
        if self.is_backgammon:
            return "backgammon"
        return f"ban/{self.finish}/{self.closure}"

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Rules from a short label (as the command line takes them).

        >>> Rules.parse("backgammon") == Rules(variant="backgammon")
        True
        >>> Rules.parse("ban/bear_off/immediate")
        Rules(variant='ban-sugoroku', finish='bear_off', closure='immediate', start='alternate')
        >>> Rules.parse("ban-sugoroku,finish=bear_off")
        Rules(variant='ban-sugoroku', finish='bear_off', closure='multiplied', start='alternate')
        >>> Rules.parse("ban,closure=off") == Rules(closure="off")
        True
        """
        if not isinstance(text, str):
            raise RulesTypeError(
                f"a rules label must be a str such as 'backgammon', got {type(text).__name__}"
            )
        text = text.strip()
        if SHORT_VARIANTS.get(text, text) == BACKGAMMON:
            return cls(variant=BACKGAMMON)
        if "=" in text or "," in text:
            parts = [part.strip() for part in text.split(",")]
            if not all(parts):
                raise InvalidRulesError(
                    f"empty part in rules label {text!r}; write e.g. 'ban-sugoroku,finish=bear_off'"
                )
            variant = BAN_SUGOROKU
            if "=" not in parts[0]:
                first = parts.pop(0)
                variant = SHORT_VARIANTS.get(first, first)
            options = {}
            for part in parts:
                key, equals, value = part.partition("=")
                if key not in OPTIONS[BAN_SUGOROKU]:
                    raise InvalidRulesError(
                        f"unknown rule option {key!r}; accepted: {_accepted(OPTIONS[BAN_SUGOROKU])}"
                    )
                if not equals:
                    raise InvalidRulesError(f"rule option {key!r} in {text!r} has no value; write {key}=value")
                if key in options:
                    raise InvalidRulesError(f"rule option {key!r} given twice in {text!r}")
                options[key] = value
            return cls(variant=variant, **options)
        head, *rest = text.split("/")
        if SHORT_VARIANTS.get(head, head) != BAN_SUGOROKU or len(rest) > 3:
            raise InvalidRulesError(
                f"cannot read rules {text!r}; write e.g. 'backgammon', "
                "'ban/arrival/multiplied' or 'ban-sugoroku,finish=bear_off'"
            )
        return cls(BAN_SUGOROKU, *rest)

