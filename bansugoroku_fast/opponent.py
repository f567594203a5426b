"""Deprecated alias of :mod:`bansugoroku_fast.games.computer`."""
from ._moved import alias

alias(__name__, "bansugoroku_fast.games.computer")
