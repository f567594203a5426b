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
from typing import Any

from ...checks import as_rules

__all__ = ["network_file", "ships"]

FOLDER = os.path.dirname(os.path.abspath(__file__))


def network_file(rules: Any) -> str:
    """The path of the shipped network of ``rules`` (whether or not it exists)."""
    return os.path.join(FOLDER, as_rules(rules).short_name.replace("/", "-") + ".npz")


def ships(rules: Any) -> bool:
    """True when a network for ``rules`` ships with the package.

    >>> ships("backgammon")
    True
    """
    return os.path.exists(network_file(rules))
