"""The proper cube action from the three cubeful equities, in GNU
Backgammon's words.

``no_double``, ``double_take`` and ``double_pass`` are the side on roll's
equities (normalised to a cube of 1) if it does not double, if it doubles
and the other side takes, and if it doubles and the other side passes.
The side doubles when doubling gains, whichever the reply
(``double_take >= no_double`` and ``double_pass >= no_double``); the other
side then takes when taking costs it less (``double_take < double_pass``).
A side that would double but gains more by playing on is *too good*; a
double or a pass within 1e-5 of not doubling is *optional*. With the
beaver rule, a take worth between -2 and 0 to the doubler (so worth more
to the taker doubled again) is a beaver.

>>> proper_action(0.4, 0.6, 1.0, centred=True)
'Double, take'
>>> proper_action(1.2, 1.5, 1.0, centred=True, can_win_gammon=True)
'Too good to double, pass'
>>> proper_action(1.2, 1.5, 1.0, centred=False, can_win_gammon=True)
'Too good to redouble, pass'
"""
from __future__ import annotations

__all__ = ["ACTIONS", "NOT_AVAILABLE", "OPTIONAL", "proper_action"]

#: Equities this close are equal: a double that gains no more than this is optional.
OPTIONAL = 1e-5
#: The action when the side on roll cannot double (the other side owns the cube).
NOT_AVAILABLE = "Cube not available"
#: Every action :func:`proper_action` names.
ACTIONS = (
    "No double, take", "Double, take", "Double, pass", "Too good to double, take", "Too good to double, pass",
    "No double, beaver", "Double, beaver", "Optional double, take", "Optional double, pass",
    "Optional double, beaver", "No redouble, take", "Redouble, take", "Redouble, pass",
    "Too good to redouble, take", "Too good to redouble, pass", "No redouble, beaver",
    "Optional redouble, take", "Optional redouble, pass", "Never double, take (dead cube)",
    "Never redouble, take (dead cube)", NOT_AVAILABLE,
)


def _worded(action: str, centred: bool) -> str:
    """``action`` (written for a centred cube) as said of a redouble when the cube is owned."""
    if centred:
        return action
    return (action.replace("No double", "No redouble").replace("to double", "to redouble")
            .replace("Optional double", "Optional redouble").replace("Double,", "Redouble,"))


def _beaver_zone(double_take: float, beavers: bool) -> bool:
    return beavers and -2.0 <= double_take <= 0.0


def proper_action(no_double: float, double_take: float, double_pass: float, *, centred: bool,
                  owned_by_the_other_side: bool = False, available: bool = True, can_win_gammon: bool = False,
                  match: bool = False, jacoby: bool = False, beavers: bool = False) -> str:
    """The proper action (see the module). ``available``: whether the side
    on roll may double now: not when the other side owns the cube
    (``owned_by_the_other_side``: :data:`NOT_AVAILABLE`, where GNU
    Backgammon says "Unknown cube decision"), and in a match not when the
    cube is dead for it (the Crawford game, a double that could not
    matter); ``can_win_gammon``: whether it wins any
    gammon (playing on for one needs one); ``match``: a match, where
    neither the Jacoby nor the beaver rule applies."""
    if not available:
        if not match or owned_by_the_other_side:
            return NOT_AVAILABLE
        return "Never double, take (dead cube)" if centred else "Never redouble, take (dead cube)"
    beavers = beavers and not match
    if double_take >= no_double and double_pass >= no_double:
        if double_pass > double_take:
            optional = abs(double_take - no_double) <= OPTIONAL
            if _beaver_zone(double_take, beavers):
                if double_take * 2 < no_double:     # GNU Backgammon words this one alike for a redouble
                    return "No double, beaver"
                return "Optional double, beaver" if optional else "Double, beaver"
            return _worded("Optional double, take" if optional else "Double, take", centred)
        optional = (abs(no_double - double_pass) <= OPTIONAL and can_win_gammon
                    and (match or not centred or not jacoby))
        return _worded("Optional double, pass" if optional else "Double, pass", centred)
    if no_double > double_take:
        if double_take > double_pass:
            return _worded("Too good to double, pass" if can_win_gammon else "Double, pass", centred)
        if no_double > double_pass:
            return _worded("Too good to double, take" if can_win_gammon else "No double, take", centred)
        if _beaver_zone(double_take, beavers):
            return "No double, beaver" if centred else "No redouble, beaver"
        return _worded("No double, take", centred)
    return _worded("Too good to double, pass" if can_win_gammon else "Double, pass", centred)
