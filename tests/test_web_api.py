"""``bansugoroku serve``'s HTTP API (the ``web`` extra), called as a program
calls it: every call, a whole game through the session calls, and every
kind of bad input answered with a 4xx and a JSON message, never a 500."""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2", reason="Starlette's test client needs httpx2")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.testclient import TestClient

from bansugoroku_fast import Position, Rules, analyse, parse_match, read_match
from bansugoroku_fast.cube import ACTIONS, cube_decision
from bansugoroku_fast.web import app as web_app
from bansugoroku_fast.web.app import LOOPBACK_HOSTS, create_app
from bansugoroku_fast.web.fields import MAX_BODY_BYTES
from bansugoroku_fast.web.sessions import SessionStore

START = Position.initial()
MATCHES = Path(__file__).parent / "data" / "gnubg"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as test_client:
        yield test_client


def session(client) -> dict[str, str]:
    answer = client.post("/api/sessions")
    assert answer.status_code == 201
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def board(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """A position from each side's stones by point (the rest borne off)."""
    rows = np.zeros((2, 26), dtype=np.int8)
    for row, stones in ((0, mine), (1, theirs)):
        for point, count in stones.items():
            rows[row, point] = count
        rows[row, 0] = 15 - rows[row].sum()
    return Position(rows)


def nearly(value):
    """``value`` with every float compared to 1e-12."""
    if isinstance(value, float):
        return pytest.approx(value, rel=1e-12, abs=1e-12)
    if isinstance(value, dict):
        return {key: nearly(item) for key, item in value.items()}
    if isinstance(value, list):
        return [nearly(item) for item in value]
    return value


def refused(answer, status: int, words: str = "") -> dict:
    """The answer is a JSON error of ``status`` whose message holds ``words``."""
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) == {"error", "type", "status"} and body["status"] == status
    assert words in body["error"], body["error"]
    return body


# --- the calls any program makes ------------------------------------------------------------------


def test_health_says_ok_and_the_version(client):
    from bansugoroku_fast import __version__

    assert client.get("/api/health").json() == {"status": "ok", "version": __version__}


def test_the_plays_of_6_5_from_the_backgammon_start(client):
    answer = client.post("/api/plays", json={"position": START.id, "dice": [6, 5], "rules": "backgammon"})
    assert answer.status_code == 200
    plays = answer.json()["plays"]
    # From the start, 6-5 is played seven ways: the two dice with one stone
    # (24/13, 13/2) or with two of the back, mid and 8 points' stones.
    assert sorted(p["play"] for p in plays) == sorted(
        ["24/13", "24/18 13/8", "24/18 8/3", "13/8 13/7", "13/2", "13/7 8/3", "8/3 8/2"])
    lover = next(p for p in plays if p["play"] == "24/13")
    after = Position.from_id(lover["position"])       # seen by the side now on roll: the opponent
    assert after.rows[0] == START.rows[0]
    assert after.rows[1][24] == 1 and after.rows[1][13] == 6


def test_plays_read_an_xgid_and_ban_sugoroku_doubles_move_twice(client):
    answer = client.post("/api/plays", json={"position": START.xgid, "dice": "1-1", "rules": "ban-sugoroku"})
    plays = answer.json()["plays"]
    assert plays and all(Position.from_id(p["position"]).pip_count(1) == 167 - 2 for p in plays)


def test_evaluate_gives_five_ordered_probabilities_the_equity_and_the_cube(client):
    answer = client.post("/api/evaluate", json={"position": START.id, "rules": "backgammon", "ply": 0}).json()
    p = answer["probabilities"]
    assert len(p) == 5 and 0 <= p[2] <= p[1] <= p[0] <= 1 and 0 <= p[4] <= p[3] <= 1 - p[0]
    assert answer["equity"] == pytest.approx(2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4])
    assert answer["cube"]["action"] in ACTIONS
    ban = client.post("/api/evaluate", json={"position": START.id, "rules": "ban-sugoroku"}).json()
    assert ban["cube"] is None


def test_evaluate_a_finished_game_is_exact(client):
    # The side on roll has borne off 3 stones, the other side all 15: a single loss.
    lost = board({6: 12}, {})
    answer = client.post("/api/evaluate", json={"position": lost.id, "rules": "backgammon"}).json()
    assert answer["probabilities"] == [0.0, 0.0, 0.0, 0.0, 0.0] and answer["equity"] == -1.0
    assert answer["cube"] is None


def test_best_lists_every_play_best_first(client):
    body = {"position": START.id, "dice": [3, 1], "rules": "backgammon", "ply": 1}
    best = client.post("/api/best", json=body).json()["plays"]
    legal = client.post("/api/plays", json={k: body[k] for k in ("position", "dice", "rules")}).json()["plays"]
    assert sorted(p["play"] for p in best) == sorted(p["play"] for p in legal)
    # every play is searched at 1 ply (the filter keeps the best 8), and those come first
    plies = [p["ply"] for p in best]
    assert plies == sorted(plies, reverse=True)
    deep = [p["equity"] for p in best if p["ply"] == 1]
    assert deep == sorted(deep, reverse=True)
    assert len(client.post("/api/best", json={**body, "limit": 2}).json()["plays"]) == 2


def test_analyse_gives_what_analyse_json_gives(client):
    text = (MATCHES / "auto5.mat").read_text()
    answer = client.post("/api/analyse", json={"match": text, "ply": 0})
    assert answer.status_code == 200
    expected = json.loads(analyse(read_match(MATCHES / "auto5.mat"), "net", ply=0, threads=1).to_json())
    assert answer.json() == expected


def test_board_draws_the_svg_with_hit_areas_when_interactive(client):
    plain = client.post("/api/board", json={"position": START.id}).json()["svg"]
    played = client.post("/api/board", json={"position": START.id, "interactive": True}).json()["svg"]
    assert plain.startswith("<svg") and 'class="hit"' not in plain
    assert played.count('class="hit"') == 26       # 24 points, the bar, the tray


def test_the_openapi_document_names_every_route_and_each_body_s_fields(client):
    doc = client.get("/api/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    routes = {(route.path, method) for route in web_app.routes() if route.path.startswith("/api/")
              for method in route.methods - {"HEAD"}}
    documented = {(path, method.upper()) for path, item in doc["paths"].items() for method in item
                  if method != "parameters"}
    assert routes == documented
    bodies = {"/api/plays": web_app.PLAYS, "/api/evaluate": web_app.EVALUATE, "/api/best": web_app.BEST,
              "/api/analyse": web_app.ANALYSE, "/api/board": web_app.BOARD, "/api/game": web_app.NEW_GAME,
              "/api/game/move": web_app.MOVE, "/api/game/hint": web_app.HINT, "/api/jobs": web_app.ANALYSE}
    for path, body in bodies.items():
        schema = doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert sorted(schema["properties"]) == sorted(body.names), path
        assert sorted(schema.get("required", [])) == sorted(body.required), path


# --- bad input: a 4xx with a JSON message, never a 500 ------------------------------------------------

GOOD = {
    "/api/plays": {"position": START.id, "dice": [6, 5], "rules": "backgammon"},
    "/api/evaluate": {"position": START.id, "rules": "backgammon"},
    "/api/best": {"position": START.id, "dice": [6, 5], "rules": "backgammon"},
    "/api/analyse": {"match": " 0 point match\n"},
    "/api/board": {"position": START.id},
}


@pytest.mark.parametrize("path", sorted(GOOD))
def test_every_call_refuses_a_body_that_is_not_a_json_object(client, path):
    refused(client.post(path, content=b"{not json"), 400, "not JSON")
    refused(client.post(path, content=b"[1, 2]"), 400, "a JSON object")
    refused(client.post(path, content=b""), 400, "empty")
    refused(client.post(path, content=b'{"ply": NaN}'), 400, "NaN")
    refused(client.post(path, content=b"\xff\xfe"), 400)
    refused(client.post(path, content=b"[" * 100_000 + b"]" * 100_000), 400)


@pytest.mark.parametrize("path", sorted(GOOD))
def test_every_call_refuses_an_unknown_or_a_missing_field(client, path):
    refused(client.post(path, json={**GOOD[path], "colour": "white"}), 422, "unknown field 'colour'")
    field = next(iter(GOOD[path]))
    refused(client.post(path, json={k: v for k, v in GOOD[path].items() if k != field}), 422, f"missing field {field}")


@pytest.mark.parametrize("path", sorted(GOOD))
def test_every_call_refuses_a_body_over_1_mb(client, path):
    big = json.dumps({**GOOD[path], "pad": "x" * MAX_BODY_BYTES}).encode()
    refused(client.post(path, content=big), 413, "allowed")

    def chunks():        # no Content-Length: refused while it is read
        yield b'{"pad": "'
        for _ in range(MAX_BODY_BYTES // 65536 + 2):
            yield b"x" * 65536
        yield b'"}'

    refused(client.post(path, content=chunks()), 413, "allowed")


BAD_FIELDS = [
    ("/api/plays", "position", "4HPwATDgc/ABM", "InvalidPositionError"),
    ("/api/plays", "position", "XGID=nonsense", "InvalidPositionError"),
    ("/api/plays", "position", 12, "InvalidPositionError"),
    ("/api/plays", "position", "x" * 500, "InvalidPositionError"),
    ("/api/plays", "dice", [6, 7], "InvalidDiceError"),
    ("/api/plays", "dice", [6, 5, 4], "InvalidDiceError"),
    ("/api/plays", "dice", [True, 1], "InvalidDiceError"),
    ("/api/plays", "dice", "six-five", "InvalidDiceError"),
    ("/api/plays", "rules", "chess", "InvalidRulesError"),
    ("/api/plays", "rules", "ban-sugoroku,finish=never", "InvalidRulesError"),
    ("/api/plays", "rules", ["backgammon"], "InvalidRulesError"),
    ("/api/evaluate", "ply", 3, "InvalidArgumentError"),
    ("/api/evaluate", "ply", "1", "InvalidArgumentError"),
    ("/api/evaluate", "ply", True, "InvalidArgumentError"),
    ("/api/evaluate", "cube", 3, "InvalidCubeError"),
    ("/api/evaluate", "cube_owner", 2, "InvalidCubeError"),
    ("/api/best", "ply", -1, "InvalidArgumentError"),
    ("/api/best", "limit", 0, "InvalidArgumentError"),
    ("/api/analyse", "match", " 1 point match\n\n Game 1\n nonsense\n", "MatchFileError"),
    ("/api/analyse", "match", 5, "MatchFileError"),
    ("/api/analyse", "rules", "go", "InvalidRulesError"),
    ("/api/board", "interactive", "yes", "InvalidArgumentError"),
]


@pytest.mark.parametrize(("path", "field", "value", "kind"), BAD_FIELDS)
def test_a_bad_field_is_refused_naming_it(client, path, field, value, kind):
    body = refused(client.post(path, json={**GOOD[path], field: value}), 422)
    assert body["type"] == kind and (field in body["error"] or kind == "MatchFileError"), body


def test_a_position_these_rules_refuse_is_refused(client):
    # Ban-sugoroku's arrival finish bears nothing off: a stone off is no position of it.
    answer = client.post("/api/plays", json={"position": board({6: 14}, {13: 15}).id, "dice": [6, 5],
                                             "rules": "ban-sugoroku"})
    assert answer.status_code == 422


def test_an_analysis_too_long_is_refused_before_any_work(client, monkeypatch):
    monkeypatch.setitem(web_app.MAX_ANALYSE_PLAYS, 0, 10)
    text = (MATCHES / "auto5.mat").read_text()
    refused(client.post("/api/analyse", json={"match": text}), 422, "checker plays")


def test_unknown_routes_and_methods_get_json_errors(client):
    refused(client.get("/api/nothing"), 404, "no such route")
    refused(client.get("/api/plays"), 405, "not allowed")
    refused(client.put("/api/game"), 405)


def test_a_server_bound_to_the_loopback_answers_only_its_own_names():
    guarded = TestClient(create_app(allowed_hosts=list(LOOPBACK_HOSTS)), base_url="http://127.0.0.1:8000")
    assert guarded.get("/api/health").status_code == 200
    assert guarded.get("/api/health", headers={"host": "attacker.example"}).status_code == 400


def test_the_direct_lane_checks_the_host_too():
    guarded = TestClient(create_app(allowed_hosts=list(LOOPBACK_HOSTS)), base_url="http://127.0.0.1:8000")
    body = GOOD["/api/plays"]
    for host in ("127.0.0.1:8000", "localhost", "LOCALHOST:80", "[::1]:8000"):
        assert guarded.post("/api/plays", json=body, headers={"host": host}).status_code == 200, host
    for host in ("attacker.example", "localhost.attacker.example:8000", "127.0.0.1.nip.io", "", "localhost:",
                 "localhost:8000:1"):
        assert guarded.post("/api/plays", json=body, headers={"host": host}).status_code == 400, host
    # a port of digits other than 0-9 (a latin-1 header can hold "²") goes the whole way, to be refused there
    assert not guarded.app._answers_host({"headers": [(b"host", b"localhost:\xb2")]})
    assert guarded.app._answers_host({"headers": [(b"host", b"localhost:8000")]})


PLAYS_BODIES = [
    json.dumps(GOOD["/api/plays"]).encode(),
    json.dumps({"position": "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "dice": "3-3",
                "rules": "ban-sugoroku"}).encode(),
    json.dumps({**GOOD["/api/plays"], "dice": [6, 7]}).encode(),
    json.dumps({**GOOD["/api/plays"], "colour": "white"}).encode(),
    json.dumps({**GOOD["/api/plays"], "rules": "chess"}).encode(),
    json.dumps({**GOOD["/api/plays"], "rules": "\u00e9checs\t\u2028\x7f"}, ensure_ascii=False).encode(),
    json.dumps({**GOOD["/api/plays"], "c\u00f4t\u00e9\n\"": 1}).encode(),
    b"{not json", b"", b"[1]", b'{"ply": NaN}', b"\xff\xfe",
    json.dumps({**GOOD["/api/plays"], "pad": "x" * MAX_BODY_BYTES}).encode(),
]


@pytest.mark.parametrize("encoder", ["orjson", "json"])
@pytest.mark.parametrize("body", PLAYS_BODIES, ids=range(len(PLAYS_BODIES)))
def test_the_direct_lane_answers_as_the_routes_do(body, encoder, monkeypatch):
    """``POST /api/plays`` answered before the middleware and routing gives
    what the whole stack gives: status, headers and body (with orjson or
    without it)."""
    if encoder == "json":
        monkeypatch.setattr(web_app, "orjson", None)
    else:
        pytest.importorskip("orjson")
    app = create_app(allowed_hosts=list(LOOPBACK_HOSTS))

    async def routed(scope, receive, send):  # the same app, the whole way
        await Starlette.__call__(app, scope, receive, send)

    direct = TestClient(app, base_url="http://127.0.0.1:8000").post("/api/plays", content=body)
    whole = TestClient(routed, base_url="http://127.0.0.1:8000").post("/api/plays", content=body)
    assert direct.status_code == whole.status_code and direct.content == whole.content
    assert sorted(direct.headers.items()) == sorted(whole.headers.items())
    assert "default-src 'self'" in direct.headers["content-security-policy"]


def _json_values():
    scalars = (st.none() | st.booleans() | st.integers(-10, 100) | st.floats(allow_nan=False, allow_infinity=False)
               | st.text(max_size=20))
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8),
                                                                                           inner, max_size=4),
                        max_leaves=10)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(sorted(GOOD)), field=st.sampled_from(["position", "dice", "rules", "ply", "match"]),
       value=_json_values())
def test_any_value_of_any_field_is_answered_without_a_server_error(client, path, field, value):
    answer = client.post(path, json={**GOOD[path], field: value})
    assert answer.status_code < 500, answer.text


def test_every_page_answer_carries_the_security_headers(client):
    answer = client.get("/")
    assert answer.status_code == 200 and "text/html" in answer.headers["content-type"]
    assert "default-src 'self'" in answer.headers["content-security-policy"]
    assert client.get("/static/js/main.js").status_code == 200
    refused(client.get("/static/../app.py"), 404)


# --- sessions and the game --------------------------------------------------------------------------


def test_a_game_is_reachable_only_by_its_own_session(client):
    mine, other = session(client), session(client)
    assert client.post("/api/game", json={"rules": "ban-sugoroku", "seed": 1}, headers=mine).status_code == 200
    refused(client.get("/api/game", headers=other), 409, "no game")
    refused(client.get("/api/game"), 401, "needs a session")
    refused(client.get("/api/game", headers={"Authorization": "Bearer not-a-token"}), 401, "unknown or expired")
    refused(client.get("/api/game", headers={"Authorization": "Basic abc"}), 401)
    assert client.get("/api/sessions", headers=mine).json()["game"] is True
    assert client.delete("/api/sessions", headers=mine).status_code == 204
    refused(client.get("/api/game", headers=mine), 401)


def test_sessions_expire_when_left_unused():
    now = [0.0]
    store = SessionStore(ttl=60, clock=lambda: now[0])
    expiring = TestClient(create_app(sessions=store))
    headers = session(expiring)
    now[0] = 59.0
    assert expiring.get("/api/sessions", headers=headers).status_code == 200
    now[0] = 59.0 + 61.0
    refused(expiring.get("/api/sessions", headers=headers), 401, "expired")
    assert len(store) == 0


def test_the_store_holds_a_bounded_number_of_sessions():
    store = SessionStore(max_sessions=3)
    tokens = [store.create().token for _ in range(5)]
    assert len(store) == 3
    with pytest.raises(ValueError, match="unknown or expired"):
        store.get(tokens[0])
    assert store.get(tokens[-1]).token == tokens[-1]


def play_out(client, headers, state):
    """Play the person's first listed move (and take every double) until the game is over."""
    for _ in range(5000):
        if state["phase"] == "over":
            return state
        if state["phase"] == "roll":
            state = client.post("/api/game/roll", headers=headers).json()
        elif state["phase"] == "answer":
            state = client.post("/api/game/take", headers=headers).json()
        else:
            move = state["moves"][0]
            answer = client.post("/api/game/move", json={"from": move["from"], "to": move["to"]}, headers=headers)
            assert answer.status_code == 200, answer.text
            state = answer.json()
    raise AssertionError("the game did not end")


def test_a_whole_game_of_ban_sugoroku_then_the_next(client):
    headers = session(client)
    state = client.post("/api/game", json={"rules": "ban-sugoroku", "computer_seat": 1, "policy": "net",
                                           "seed": 11}, headers=headers).json()
    assert state["you"] == 0 and state["phase"] == "move" and state["cube_limit"] == 0
    assert not state["can"]["double"]
    state = play_out(client, headers, state)
    result = state["result"]
    assert result["points"] in (1, 2, 3) and state["score"][result["winner"]] == result["points"]
    assert state["can"]["next"]
    refused(client.post("/api/game/roll", headers=headers), 409, "over")
    second = client.post("/api/game/next", headers=headers).json()
    assert second["game"] == 2 and second["score"] == state["score"]
    # the alternate start: the computer starts the second game, and its first play is an event with its boards
    assert second["history"][0].startswith("1. The computer rolls")
    first = second["events"][0]
    assert first["who"] == "computer" and len(first["frames"]) >= 1 and first["frames"][0]["board"].startswith("<svg")


def test_moves_undo_hints_and_refusals_within_a_turn(client):
    headers = session(client)
    state = client.post("/api/game", json={"rules": "backgammon", "cube_limit": 0, "seed": 5,
                                           "position": START.id}, headers=headers).json()
    # with the cube off nothing comes before the roll: it is rolled at once
    assert state["phase"] == "move" and not state["can"]["double"]
    refused(client.post("/api/game/double", headers=headers), 409, "cube is off")
    refused(client.post("/api/game/roll", headers=headers), 409, "play your roll")
    start_board = state["board"]
    hint = client.post("/api/game/hint", json={"ply": 0}, headers=headers).json()
    equities = [p["equity"] for p in hint["plays"]]
    assert equities == sorted(equities, reverse=True) and 1 <= len(equities) <= 5
    refused(client.post("/api/game/move", json={"from": 3, "to": 1}, headers=headers), 422, "not legal")
    refused(client.post("/api/game/move", json={"from": 3}, headers=headers), 422, "'from' and 'to'")
    refused(client.post("/api/game/move", json={"from": 30, "to": 1}, headers=headers), 422, "from")
    refused(client.post("/api/game/take", headers=headers), 409, "no double")
    refused(client.post("/api/game/undo", headers=headers), 409, "nothing to undo")
    if len(state["dice_left"]) > 1:
        single = next(m for m in state["moves"] if abs(m["from"] - m["to"]) in state["dice_left"])
        moved = client.post("/api/game/move", json={"from": single["from"], "to": single["to"]},
                            headers=headers).json()
        assert moved["steps"] and moved["can"]["undo"] and moved["board"] != start_board
        undone = client.post("/api/game/undo", headers=headers).json()
        assert undone["steps"] == [] and undone["board"] == start_board
    best = hint["plays"][0]["play"]
    played = client.post("/api/game/move", json={"play": best}, headers=headers).json()
    assert played["history"][0].endswith(best)


def test_the_computer_doubles_and_you_take(client):
    # The computer (seat 0) on roll, 5 pips ahead in a 15-stone bear-off race.
    race = board({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1})
    decision = cube_decision(race, "backgammon", "net")
    assert decision.double_take >= decision.no_double and decision.double_pass >= decision.no_double
    headers = session(client)
    state = client.post("/api/game", json={"rules": "backgammon", "computer_seat": 0, "seed": 2,
                                           "position": race.id}, headers=headers).json()
    assert state["phase"] == "answer" and state["can"]["take"] and state["can"]["drop"]
    assert state["events"][-1]["kind"] == "double"
    state = client.post("/api/game/take", headers=headers).json()
    assert state["cube"] == {"value": 2, "owner": "you"}
    assert not state["analysable"]
    refused(client.get("/api/game/match", headers=headers), 409, "chosen position")


def test_you_double_a_won_race_and_the_computer_passes(client):
    # You (seat 0) on roll, 42 pips against 57 with every stone home: a pass.
    race = board({6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2}, {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2})
    headers = session(client)
    state = client.post("/api/game", json={"rules": "backgammon", "computer_seat": 1, "position": race.id},
                        headers=headers).json()
    assert state["can"]["double"]
    state = client.post("/api/game/double", headers=headers).json()
    assert [e["kind"] for e in state["events"]] == ["double", "drop"]
    assert state["result"]["winner"] == "you" and state["result"]["points"] == 1 and state["score"]["you"] == 1


def test_new_game_refuses_bad_settings(client):
    headers = session(client)
    refused(client.post("/api/game", json={"rules": "ban-sugoroku", "policy": "pubeval"}, headers=headers), 422,
            "pubeval")
    refused(client.post("/api/game", json={"rules": "backgammon", "policy": "gnubg"}, headers=headers), 422)
    refused(client.post("/api/game", json={"rules": "backgammon", "cube_limit": 3}, headers=headers), 422)
    refused(client.post("/api/game", json={"rules": "backgammon", "computer_seat": 2}, headers=headers), 422)
    refused(client.post("/api/game", json={"rules": "backgammon", "seed": -1}, headers=headers), 422)
    refused(client.post("/api/game", json={"rules": "backgammon", "speed": 1}, headers=headers), 422, "unknown")
    refused(client.post("/api/game/roll", headers=headers), 409, "no game")


# --- analyses with progress --------------------------------------------------------------------------


def follow(client, headers, job: dict) -> dict:
    for _ in range(6000):
        if job["status"] != "running":
            return job
        time.sleep(0.05)
        job = client.get(f"/api/jobs/{job['job']}", headers=headers).json()
    raise AssertionError("the analysis did not end")


def test_a_match_file_analysed_as_a_job_gives_the_same_analysis(client):
    headers = session(client)
    text = (MATCHES / "auto5.mat").read_text()
    answer = client.post("/api/jobs", json={"match": text, "ply": 0, "name": "auto5.mat"}, headers=headers)
    assert answer.status_code == 202
    done = follow(client, headers, answer.json())
    assert done["status"] == "done" and done["done"] == done["total"]
    whole = analyse(read_match(MATCHES / "auto5.mat"), "net", ply=0, threads=1, source="auto5.mat").to_dict()
    # analysed a game at a time, the same figures as at once (the luck to the last bits of a double:
    # the batches the luck's searches run in are not the same)
    assert done["analysis"] == nearly(whole)


def test_the_game_just_played_is_analysed(client):
    headers = session(client)
    state = client.post("/api/game", json={"rules": "ban-sugoroku", "seed": 4, "policy": "heuristic"},
                        headers=headers).json()
    play_out(client, headers, state)
    text = client.get("/api/game/match", headers=headers).json()["match"]
    record = parse_match(text)
    assert record.rules == Rules() and len(record.games) == 1 and record.players[0] == "You"
    done = follow(client, headers, client.post("/api/game/analyse", json={"ply": 0}, headers=headers).json())
    assert done["status"] == "done"
    assert {d["player"] for d in done["analysis"]["decisions"]} == {0, 1}


def test_a_job_can_be_cancelled_and_is_private_to_its_session(client):
    headers, other = session(client), session(client)
    text = (MATCHES / "auto5.mat").read_text()
    job = client.post("/api/jobs", json={"match": text, "ply": 1}, headers=headers).json()
    refused(client.get(f"/api/jobs/{job['job']}", headers=other), 404)
    cancelled = client.delete(f"/api/jobs/{job['job']}", headers=headers).json()
    assert cancelled["status"] in ("cancelled", "done")
    assert follow(client, headers, cancelled)["status"] in ("cancelled", "done")
    refused(client.get("/api/jobs/no-such-job", headers=headers), 404)
    refused(client.post("/api/jobs", json={"match": "nonsense"}, headers=headers), 422)


# --- the command --------------------------------------------------------------------------------------


def test_serve_binds_the_loopback_and_warns_for_another_host(monkeypatch):
    import uvicorn

    started = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: started.append(self.config.host))
    monkeypatch.setattr(web_app, "_ready_process", lambda: None)  # gc.freeze() is for a server's own process
    from bansugoroku_fast.cli import main

    assert main(["serve", "--port", "8765"]) == 0
    with pytest.warns(UserWarning, match="every machine"):
        main(["serve", "--host", "0.0.0.0", "--port", "8765"])
    assert started == ["127.0.0.1", "0.0.0.0"]


def test_a_server_of_several_processes_answers_the_api_but_no_session():
    served = TestClient(create_app(page_sessions=False))
    assert served.post("/api/plays", json=GOOD["/api/plays"]).status_code == 200
    assert served.post("/api/evaluate", json=GOOD["/api/evaluate"]).status_code == 200
    refused(served.post("/api/sessions"), 503, "worker processes")
    for method, path in (("GET", "/api/sessions"), ("DELETE", "/api/sessions"), ("GET", "/api/game"),
                         ("POST", "/api/game/roll"), ("POST", "/api/jobs"), ("GET", "/api/jobs/x")):
        refused(served.request(method, path, headers={"Authorization": "Bearer x"}), 503, "one process")


def test_serve_workers_run_uvicorn_s_processes_with_the_host_check(monkeypatch):
    import uvicorn

    runs = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: runs.append((app, options)))
    monkeypatch.delenv(web_app.WORKER_SETTINGS, raising=False)
    monkeypatch.setattr(web_app, "_ready_process", lambda: None)  # gc.freeze() is for a server's own process
    from bansugoroku_fast.cli import main

    assert main(["serve", "--port", "8765", "--workers", "2"]) == 0
    (target, options), = runs
    assert target == "bansugoroku_fast.web.app:worker_app" and options["factory"] and options["workers"] == 2
    assert options["host"] == "127.0.0.1" and not options["access_log"] and not options["proxy_headers"]
    worker = TestClient(web_app.worker_app(), base_url="http://127.0.0.1:8765")  # what each process makes
    assert worker.post("/api/plays", json=GOOD["/api/plays"]).status_code == 200
    assert worker.post("/api/plays", json=GOOD["/api/plays"], headers={"host": "evil.example"}).status_code == 400
    refused(worker.post("/api/sessions"), 503)
    with pytest.raises(SystemExit, match="one worker"):
        main(["serve", "--open", "--workers", "2"])
    with pytest.raises(SystemExit):
        main(["serve", "--workers", "0"])
