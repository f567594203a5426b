"""Deprecated alias of :mod:`bansugoroku_fast.games.policies`."""
from ._moved import alias

alias(__name__, "bansugoroku_fast.games.policies")
