"""GNU Backgammon's analysis figures: the marks of a play, the luck of a
roll, the rating band of an error rate, and the words of a cube action.

Each threshold is GNU Backgammon 1.07's default (``analysis.c``): a play
is *doubtful* when it loses more than 0.03 (normalised equity), *bad* over
0.06, *very bad* over 0.12; a roll is *lucky* when it gains more than 0.3,
*very lucky* over 0.6, and *unlucky* / *very unlucky* the other way; the
rating bands read the error rate per decision (normalised equity, not
millipoints) against 0.002, 0.005, 0.008, 0.012, 0.018, 0.026 and 0.035.
Each comparison is strict, as there: a loss of exactly 0.03 is no mark.

>>> mark(0.03), mark(0.0301), mark(0.07), mark(0.5)
(None, 'doubtful', 'bad', 'very bad')
>>> luck_mark(0.31), luck_mark(-0.61), luck_mark(0.0)
('lucky', 'very unlucky', None)
>>> rating(0.0019), rating(0.0049), rating(0.05), rating(None)
('Supernatural', 'World class', 'Awful!', None)
"""
from __future__ import annotations

import math
import numbers

from ..errors import ArgumentTypeError, InvalidArgumentError

__all__ = ["LUCK_LEVELS", "MARKS", "RATINGS", "SKILL_LEVELS", "luck_mark", "mark", "rating"]

#: A play's mark and the loss it must exceed (normalised equity), worst first.
SKILL_LEVELS = (("very bad", 0.12), ("bad", 0.06), ("doubtful", 0.03))
#: Every mark a decision can carry, worst first.
MARKS = tuple(name for name, _ in SKILL_LEVELS)
#: A roll's luck mark and the gain (or, negated, the loss) it must exceed.
LUCK_LEVELS = (("very lucky", 0.6), ("lucky", 0.3))
#: GNU Backgammon's rating bands: the name and the error rate per decision
#: (normalised equity) it must stay under, best first.
RATINGS = (("Supernatural", 0.002), ("World class", 0.005), ("Expert", 0.008), ("Advanced", 0.012),
           ("Intermediate", 0.018), ("Casual player", 0.026), ("Beginner", 0.035), ("Awful!", float("inf")))


def _figure(value: object, name: str) -> float:
    """``value`` as a float, or a typed error: a figure is a real number, not NaN (a comparison with
    NaN is always false, so NaN would read as the best mark)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ArgumentTypeError(f"{name} must be a real number, got {value!r}")
    if math.isnan(value):
        raise InvalidArgumentError(f"{name} must be a number, got NaN")
    return float(value)


def mark(loss: float) -> str | None:
    """GNU Backgammon's mark of a decision that loses ``loss``.

    Parameters
    ----------
    loss : float
        The equity the decision gives up against the best one (normalised
        equity, >= 0).

    Returns
    -------
    str or None
        ``"very bad"`` over 0.12, ``"bad"`` over 0.06, ``"doubtful"`` over
        0.03 (:data:`SKILL_LEVELS`), else None.

    Raises
    ------
    ArgumentTypeError
        ``loss`` is not a real number.
    InvalidArgumentError
        ``loss`` is NaN.

    Examples
    --------
    >>> mark(0.03), mark(0.0301), mark(0.07), mark(0.5)
    (None, 'doubtful', 'bad', 'very bad')
    """
    loss = _figure(loss, "loss")
    for name, level in SKILL_LEVELS:
        if loss > level:
            return name
    return None


def luck_mark(luck: float) -> str | None:
    """GNU Backgammon's mark of a roll of luck ``luck``.

    Parameters
    ----------
    luck : float
        What the roll gained (negative: lost) against the average roll
        (normalised equity).

    Returns
    -------
    str or None
        ``"very lucky"`` over 0.6, ``"lucky"`` over 0.3, ``"unlucky"`` and
        ``"very unlucky"`` the other way (:data:`LUCK_LEVELS`), else None.

    Raises
    ------
    ArgumentTypeError
        ``luck`` is not a real number.
    InvalidArgumentError
        ``luck`` is NaN.

    Examples
    --------
    >>> luck_mark(0.31), luck_mark(-0.61), luck_mark(0.0)
    ('lucky', 'very unlucky', None)
    """
    luck = _figure(luck, "luck")
    for name, level in LUCK_LEVELS:
        if luck > level:
            return name
        if luck < -level:
            return name.replace("lucky", "unlucky")
    return None


def rating(error_per_decision: float | None) -> str | None:
    """GNU Backgammon's rating band of an error rate per decision.

    Parameters
    ----------
    error_per_decision : float or None
        The total loss per decision counted (normalised equity, not
        millipoints); None when there is no decision to rate.

    Returns
    -------
    str or None
        The band's name (:data:`RATINGS`: the first whose bound the rate
        stays under), or None for None.

    Raises
    ------
    ArgumentTypeError
        The rate is not a real number nor None.
    InvalidArgumentError
        The rate is NaN.

    Examples
    --------
    >>> rating(0.0019), rating(0.0049), rating(0.05), rating(None)
    ('Supernatural', 'World class', 'Awful!', None)
    """
    if error_per_decision is None:
        return None
    error_per_decision = _figure(error_per_decision, "error_per_decision")
    for name, below in RATINGS:
        if error_per_decision < below:
            return name
    return RATINGS[-1][0]
