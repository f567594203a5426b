"""Deprecated alias of :mod:`bansugoroku_fast.games.tallies`."""
from ._moved import alias

alias(__name__, "bansugoroku_fast.games.tallies")
