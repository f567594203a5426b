"""The OpenAPI 3.1 description of ``bansugoroku serve``'s calls, written by
hand beside the bodies of :mod:`~bansugoroku_fast.web.app` (a test holds
the two to the same fields) and served at ``GET /api/openapi.json``.

>>> doc = document("1.0")
>>> doc["openapi"], sorted(doc["paths"])[:3]
('3.1.0', ['/api/analyse', '/api/best', '/api/board'])
"""
from __future__ import annotations

from typing import Any

__all__ = ["document"]

POSITION = {"type": "string", "description": "A GNU Backgammon Position ID (14 characters) or an XGID "
                                             "('XGID=...'), seen by the side on roll.",
            "examples": ["4HPwATDgc/ABMA"]}
DICE = {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6}, "minItems": 2, "maxItems": 2,
        "description": "The roll, e.g. [6, 5] (the text '6-5' is read too).", "examples": [[6, 5]]}
RULES = {"type": "string", "description": "A rules label as the command line takes it: 'backgammon', 'ban-sugoroku', "
                                          "'ban-sugoroku,finish=bear_off,closure=off', 'ban/bear_off/off'.",
         "examples": ["backgammon"]}
PLY = {"type": "integer", "minimum": 0, "maximum": 2, "default": 0, "description": "The plies of the search."}
PROBABILITIES = {"type": "array", "items": {"type": "number"}, "minItems": 5, "maxItems": 5,
                 "description": "P(win), P(win 2+), P(win 3), P(lose 2+), P(lose 3) of the side on roll "
                                "(GNU Backgammon's order)."}
CUBE = {"type": ["object", "null"], "description": "The cube decision of the side on roll (backgammon; null "
                                                  "otherwise), as bansugoroku_fast.cube.cube_decision gives it.",
        "properties": {"action": {"type": "string"}, "no_double": {"type": "number"},
                       "double_take": {"type": "number"}, "double_pass": {"type": "number"},
                       "take_point": {"type": "number"}, "cube_efficiency": {"type": "number"},
                       "kind": {"type": "string"}, "ply": {"type": "integer"}}}
ERROR = {"type": "object", "required": ["error", "type", "status"],
         "properties": {"error": {"type": "string", "description": "What is wrong, naming the field."},
                        "type": {"type": "string", "description": "The library's error class."},
                        "status": {"type": "integer"}}}
STATE = {"type": "object", "description": "What the page draws: the board (SVG, seen by you), the phase "
                                          "('roll', 'move', 'answer', 'waiting', 'over'), the dice, the moves you "
                                          "can make, what you can do ('can'), the computer's actions since your "
                                          "last one ('events', each play with the board after each move), the "
                                          "history, the score and the result. See docs/reference/web.md."}
JOB = {"type": "object", "required": ["job", "status", "done", "total"],
       "properties": {"job": {"type": "string"},
                      "status": {"enum": ["running", "done", "cancelled", "failed"]},
                      "done": {"type": "integer", "description": "Checker plays analysed so far."},
                      "total": {"type": "integer"}, "error": {"type": ["string", "null"]},
                      "analysis": {"type": ["object", "null"], "description": "Once done: as POST /api/analyse."}}}


def _object(required: dict[str, Any], optional: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": list(required),
            "properties": {**required, **(optional or {})}}


def _errors(*statuses: int) -> dict[str, Any]:
    words = {400: "The body is not a JSON object.", 401: "No session, or an unknown or expired one.",
             404: "No such job.", 409: "Not possible now (out of turn, the game is over...).",
             413: "The body is over 1 MB.", 422: "A field is missing, unknown or wrong (a bad id, dice, rules, "
                                                  "an illegal move, a match file that does not replay).",
             429: "Too many searches or analyses at once: try again later.",
             503: "The server runs several worker processes (bansugoroku serve --workers), which share no "
                  "session: the page's calls need a server of one."}
    return {str(status): {"description": words[status], "content": {"application/json": {"schema": ERROR}}}
            for status in statuses}


def _call(summary: str, body: dict[str, Any] | None, answer: dict[str, Any], *errors: int,
          status: int = 200, session: bool = False) -> dict[str, Any]:
    if session:
        errors = (*errors, 503)
    operation: dict[str, Any] = {
        "summary": summary,
        "responses": {str(status): {"description": "OK", "content": {"application/json": {"schema": answer}}},
                      **_errors(*errors)},
    }
    if body is not None:
        operation["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
    if session:
        operation["security"] = [{"session": []}]
    return operation


def document(version: str) -> dict[str, Any]:
    """The OpenAPI document of the server of ``version``."""
    body_errors = (400, 413, 422)
    session_errors = (400, 401, 409, 413, 422)
    plays = {"type": "array", "items": {"type": "object", "properties": {
        "play": {"type": "string", "description": "The play in notation, e.g. '24/13'."},
        "position": {"type": "string", "description": "The Position ID after the play, seen by the side "
                                                      "now on roll (the opponent)."}}}}
    scored = {"type": "array", "items": {"type": "object", "properties": {
        "play": {"type": "string"}, "position": {"type": "string"}, "equity": {"type": "number"},
        "probabilities": PROBABILITIES, "ply": {"type": "integer"}}}}
    analyse_body = _object({"match": {"type": "string", "description": "The text of a match file (.mat)."}},
                           {"ply": PLY, "rules": {**RULES, "description": "The rules of a file with no Variant "
                                                                         "header (backgammon otherwise)."},
                            "name": {"type": "string", "maxLength": 200}})
    analysis = {"type": "object", "description": "As `bansugoroku analyse --json` prints it: source, rules, ply, "
                                                 "match_length, names, games, players, decisions, version."}
    game_body = _object({"rules": RULES}, {
        "computer_seat": {"type": "integer", "enum": [0, 1], "default": 1,
                          "description": "The computer's seat; seat 0 starts the first game (alternate start)."},
        "policy": {"enum": ["net1", "net", "heuristic", "pubeval", "random"], "default": "net",
                   "description": "The computer's strength (pubeval: backgammon only)."},
        "cube_limit": {"enum": [0, 2, 4, 8, 16, 32, 64], "default": 64,
                       "description": "0: no cube; else the highest cube (backgammon only)."},
        "seed": {"type": "integer", "minimum": 0, "description": "Seed of the dice (random if left out)."},
        "position": {**POSITION, "description": "Start the first game here, seen by seat 0 on roll (such a "
                                                "match cannot be analysed: a match file starts from the start)."}})
    action = _call("Act in the session's game; the new state", None, STATE, *session_errors, session=True)
    paths: dict[str, Any] = {
        "/api/health": {"get": _call("The server is up", None, {"type": "object", "properties": {
            "status": {"const": "ok"}, "version": {"type": "string"}}})},
        "/api/openapi.json": {"get": _call("This document", None, {"type": "object"})},
        "/api/plays": {"post": _call("The legal plays of a roll",
                                     _object({"position": POSITION, "dice": DICE, "rules": RULES}),
                                     {"type": "object", "properties": {"plays": plays}}, *body_errors)},
        "/api/evaluate": {"post": _call(
            "The five probabilities and the equity of the side on roll (and its cube decision in backgammon)",
            _object({"position": POSITION, "rules": RULES},
                    {"ply": PLY, "cube": {"enum": [1, 2, 4, 8, 16, 32, 64], "default": 1},
                     "cube_owner": {"enum": [0, 1, None], "description": "0 the side on roll, 1 the other, "
                                                                         "null centred."}}),
            {"type": "object", "properties": {"probabilities": PROBABILITIES, "equity": {"type": "number"},
                                              "ply": {"type": "integer"}, "cube": CUBE}}, *body_errors, 429)},
        "/api/best": {"post": _call(
            "The plays of a roll, best first, with their equities",
            _object({"position": POSITION, "dice": DICE, "rules": RULES},
                    {"ply": PLY, "limit": {"type": "integer", "minimum": 1, "description": "At most this many."}}),
            {"type": "object", "properties": {"plays": scored}}, *body_errors, 429)},
        "/api/analyse": {"post": _call("The analysis of a match file, as `bansugoroku analyse --json`",
                                       analyse_body, analysis, *body_errors, 429)},
        "/api/board": {"post": _call("The board as SVG, seen by the side on roll",
                                     _object({"position": POSITION}, {"interactive": {"type": "boolean"}}),
                                     {"type": "object", "properties": {"svg": {"type": "string"}}}, *body_errors)},
        "/api/sessions": {
            "post": _call("A new session: its token, and the seconds it lives unused", None,
                          {"type": "object", "properties": {"token": {"type": "string"},
                                                            "expires_in": {"type": "number"}}}, 400, 503,
                          status=201),
            "get": _call("The session: the seconds it lives unused, whether it has a game, its jobs", None,
                         {"type": "object", "properties": {"expires_in": {"type": "number"},
                                                           "game": {"type": "boolean"},
                                                           "jobs": {"type": "array", "items": {"type": "string"}}}},
                         401, session=True),
            "delete": {"summary": "End the session", "security": [{"session": []}],
                       "responses": {"204": {"description": "Ended"}, **_errors(401, 503)}},
        },
        "/api/game": {
            "post": _call("A new match against the computer", game_body, STATE, *session_errors, session=True),
            "get": _call("The game's state", None, STATE, 401, 409, session=True),
        },
        **{f"/api/game/{name}": {"post": {**action, "summary": summary}} for name, summary in (
            ("roll", "Roll the dice"), ("double", "Offer the cube (backgammon, before rolling)"),
            ("take", "Take the computer's double"), ("drop", "Pass the computer's double"),
            ("undo", "Take back the moves of this turn"), ("next", "The next game of the match"))},
        "/api/game/move": {"post": _call(
            "Move a stone (from, to: 1..24, 25 the bar, 0 off) or play moves in notation",
            {"type": "object", "additionalProperties": False,
             "properties": {"from": {"type": "integer", "minimum": 0, "maximum": 25},
                            "to": {"type": "integer", "minimum": 0, "maximum": 25},
                            "play": {"type": "string", "examples": ["24/18 13/8"]}}},
            STATE, *session_errors, session=True)},
        "/api/game/hint": {"post": _call(
            "The best plays of your roll (or, before it, the equity and the cube decision)",
            _object({}, {"ply": PLY}), {"type": "object"}, *session_errors, session=True)},
        "/api/game/match": {"get": _call("The match so far as a match file", None, {
            "type": "object", "properties": {"match": {"type": "string"}}}, 401, 409, session=True)},
        "/api/game/analyse": {"post": _call("Start analysing the match so far", _object({}, {"ply": PLY}), JOB,
                                            *session_errors, 429, status=202, session=True)},
        "/api/jobs": {"post": _call("Start analysing a match file; follow it with GET /api/jobs/{job}",
                                    analyse_body, JOB, *session_errors, 429, status=202, session=True)},
        "/api/jobs/{job}": {
            "parameters": [{"name": "job", "in": "path", "required": True, "schema": {"type": "string"}}],
            "get": _call("The job's progress (and its analysis once done)", None, JOB, 401, 404, session=True),
            "delete": _call("Cancel the job (between two games)", None, JOB, 401, 404, session=True),
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "bansugoroku serve", "version": version,
                 "description": "Legal plays, evaluations, best plays and analyses of Ban-sugoroku and "
                                "backgammon, and the page's games against the computer. Every error is a 4xx "
                                "with a JSON body {error, type, status}."},
        "paths": paths,
        "components": {"securitySchemes": {"session": {
            "type": "http", "scheme": "bearer",
            "description": "The token of POST /api/sessions; a session expires when left unused."}}},
    }
