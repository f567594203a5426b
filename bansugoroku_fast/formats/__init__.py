"""Interchange with other programs: match files (``.mat``), GNU Backgammon's
Match ID and the ``Position ID:Match ID`` pair, and the conformance kit
(:mod:`bansugoroku_fast.formats.conformance`) for other engines."""
from .mat import GameRecord, MatchRecord, parse_match, play_text, read_match, write_match
from .match_id import (
    MatchState,
    decode_match_id,
    encode_match_id,
    game_gnubg_id,
    game_state_of,
    gnubg_id,
    parse_gnubg_id,
)

__all__ = [
    "GameRecord",
    "MatchRecord",
    "MatchState",
    "decode_match_id",
    "encode_match_id",
    "game_gnubg_id",
    "game_state_of",
    "gnubg_id",
    "parse_gnubg_id",
    "play_text",
    "parse_match",
    "read_match",
    "write_match",
]
