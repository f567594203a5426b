"""Deprecated alias of :mod:`bansugoroku_fast.moves`."""
from ._moved import alias

alias(__name__, "bansugoroku_fast.moves")
