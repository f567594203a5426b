"""The files of the networks shipped with the package, trained by
:mod:`bansugoroku_fast.train` (the commands, seeds and wall times are in
``docs/networks.md``): one ``.npz`` per rule combination, named after
``Rules.short_name`` with ``/`` as ``-`` (``backgammon.npz``,
``ban-arrival-multiplied.npz``, ...). The six Ban-sugoroku files are one
network trained on every combination with the rules as inputs
(``python -m bansugoroku_fast.train --rules 'ban/*'``), each with its
combination's rule inputs folded into its first biases.

Load one with :meth:`NetEvaluator.shipped(rules)
<bansugoroku_fast.evaluators.NetEvaluator.shipped>`, or name it ``"net"``
wherever an evaluator is taken.

>>> from bansugoroku_fast import Rules
>>> network_file(Rules(finish="bear_off", closure="off")).endswith("ban-bear_off-off.npz")
True
"""
from __future__ import annotations

import os

from ...checks import as_rules
from ...typing import RulesLike

__all__ = ["network_file", "ships"]

FOLDER = os.path.dirname(os.path.abspath(__file__))


def network_file(rules: RulesLike) -> str:
    """The path of the shipped network file of ``rules``, whether or not
    one ships.

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults.

    Returns
    -------
    str
        ``<this folder>/<short name with "-" for "/">.npz``.

    Raises
    ------
    InvalidRulesError
        The rules are not a rule set (``RulesTypeError`` for a value that
        is not a :class:`~bansugoroku_fast.rules.Rules` or a label).

    Examples
    --------
    >>> import os
    >>> os.path.basename(network_file("backgammon")), os.path.basename(network_file(None))
    ('backgammon.npz', 'ban-arrival-multiplied.npz')
    """
    return os.path.join(FOLDER, as_rules(rules).short_name.replace("/", "-") + ".npz")


def ships(rules: RulesLike) -> bool:
    """Whether a network for ``rules`` ships with the package.

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults.

    Returns
    -------
    bool
        True when :func:`network_file` of ``rules`` exists.

    Raises
    ------
    InvalidRulesError
        The rules are not a rule set (``RulesTypeError`` for a value that
        is not a :class:`~bansugoroku_fast.rules.Rules` or a label).

    Examples
    --------
    >>> ships("backgammon"), ships("ban/bear_off/immediate")
    (True, True)
    """
    return os.path.exists(network_file(rules))
