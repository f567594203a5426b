"""Cube decisions and match equity."""
from .met import MatchEquityTable

__all__ = ["MatchEquityTable"]
