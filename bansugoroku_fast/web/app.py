"""The routes of ``bansugoroku serve`` (:func:`create_app`) and the server
(:func:`run_server`).

The calls (``docs/reference/web.md`` lists them with their bodies, and
``GET /api/openapi.json`` describes them):

* for any program, with no session: ``POST /api/plays``, ``/api/evaluate``,
  ``/api/best``, ``/api/analyse``, ``/api/board``; ``GET /api/health``;
* for the page, with a session's token (``Authorization: Bearer TOKEN``):
  ``POST``/``DELETE /api/sessions``, the match against the computer under
  ``/api/game``, and the analyses that report their progress under
  ``/api/jobs``.

Every body is read by :mod:`~bansugoroku_fast.web.fields` before any work.
Bad input gets a 4xx and ``{"error": MESSAGE, "type": NAME, "status": N}``:
400 a body that is not a JSON object, 401 a missing or unknown session,
404 an unknown route or job, 405 a wrong method, 409 an action out of turn,
413 a body over 1 MB, 422 a field that is missing, unknown or wrong (a bad
id, dice, rules label, an illegal play, a match file that does not
replay), 429 too many analyses at once; and a session call to a server
of several worker processes, which share no session, gets 503.
``POST /api/plays`` is answered before Starlette's middleware and routing
(:class:`ServeApp`), with the same checks and answers.

>>> from starlette.testclient import TestClient
>>> client = TestClient(create_app())
>>> client.post("/api/plays", json={"position": "4HPwATDgc/ABMA", "dice": [6, 5], "rules": "backgammon"}).json()
{'plays': [{'play': '24/13', 'position': '4HPwAyDgc/ABMA'}, ...]}
>>> client.post("/api/plays", json={"position": "4HPwATDgc/ABMA", "dice": [6, 5]}).status_code
422
"""
from __future__ import annotations

import functools
import gc
import json
import os
import threading
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

try:
    import orjson
except ImportError:  # the web extra installs it; without it, the standard library's json
    orjson = None  # type: ignore[assignment]

from ..analysis import analyse
from ..cube.decision import cube_decision
from ..errors import BansugorokuError, GameStateError, InvalidArgumentError, RequestError
from ..evaluators.search import best_plays, evaluate_position
from ..formats.mat import MatchRecord, parse_match, write_match
from ..moves import legal_plays, outcome
from ..position import Position
from ..render import svg
from ..rules import Rules
from ..version import __version__
from . import openapi
from .fields import (
    MAX_BODY_BYTES,
    Body,
    bool_field,
    cube_field,
    cube_limit_field,
    dice_field,
    match_text_field,
    owner_field,
    ply_field,
    policy_field,
    position_field,
    rules_field,
    seat_field,
    seed_field,
    text_field,
    whole_field,
)
from .sessions import AnalysisJob, GameSettings, MatchPlay, Session, SessionStore, cube_json

__all__ = ["DIRECT_CALLS", "LOOPBACK_HOSTS", "MAX_ANALYSE_PLAYS", "WORKER_SETTINGS", "ServeApp", "create_app",
           "run_server", "worker_app"]

STATIC = Path(__file__).resolve().parent / "static"
#: The Host headers a server bound to the loopback answers (a page elsewhere
#: cannot reach it through a name of its own: DNS rebinding).
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")
#: The most checker plays one analysis takes, by ply (its time stays within about a minute).
MAX_ANALYSE_PLAYS = {0: 20_000, 1: 5_000, 2: 300}
#: Analysis jobs running or waiting at once, over every session.
MAX_JOBS = 8
#: Searches of 1 ply or more (and synchronous analyses) running at once; more wait their turn.
SEARCH_THREADS = 2

#: What every response carries: the page loads nothing from another host, and is framed by none.
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; style-src 'self'; "
                                 b"script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


# --- the bodies ------------------------------------------------------------------------------

PLAYS = Body(required={"position": position_field, "dice": dice_field, "rules": rules_field})
EVALUATE = Body(required={"position": position_field, "rules": rules_field},
                optional={"ply": ply_field, "cube": cube_field, "cube_owner": owner_field},
                defaults={"ply": 0, "cube": 1})
BEST = Body(required={"position": position_field, "dice": dice_field, "rules": rules_field},
            optional={"ply": ply_field, "limit": whole_field(1, 1000)}, defaults={"ply": 0})
ANALYSE = Body(required={"match": match_text_field},
               optional={"ply": ply_field, "rules": rules_field, "name": text_field(200)},
               defaults={"ply": 0, "name": ""})
BOARD = Body(required={"position": position_field}, optional={"interactive": bool_field},
             defaults={"interactive": False})
NEW_GAME = Body(required={"rules": rules_field},
                optional={"computer_seat": seat_field, "policy": policy_field, "cube_limit": cube_limit_field,
                          "seed": seed_field, "position": position_field},
                defaults={"computer_seat": 1, "policy": "net", "cube_limit": 64})
MOVE = Body(optional={"from": whole_field(0, 25), "to": whole_field(0, 25), "play": text_field(200)})
HINT = Body(optional={"ply": ply_field}, defaults={"ply": 0})
NOTHING = Body()


class _JSONResponse(JSONResponse):
    """A JSON answer, encoded as :meth:`encode` does for the direct lane too."""

    @staticmethod
    def encode(content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")

    def render(self, content: Any) -> bytes:
        return self.encode(content)


def _json(value: Any, status: int = 200) -> JSONResponse:
    return _JSONResponse(value, status_code=status)


async def _body(request: Request) -> bytes:
    """The request's body, refused (413) past :data:`MAX_BODY_BYTES` before it is all read."""
    return await _limited_body(request.headers.get("content-length", ""), request.stream())


async def _limited_body(declared: str, chunks: AsyncIterator[bytes]) -> bytes:
    """The body of the ``chunks`` received, whose ``Content-Length`` header
    says ``declared`` (or is empty): refused (413) past
    :data:`MAX_BODY_BYTES`, by the header before any is read, else as soon
    as what was read passes it."""
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise RequestError(f"the body is {declared} bytes, more than the {MAX_BODY_BYTES} allowed", status=413)
    parts, size = [], 0
    async for chunk in chunks:
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise RequestError(f"the body is more than the {MAX_BODY_BYTES} bytes allowed", status=413)
        parts.append(chunk)
    return b"".join(parts)


async def _fields(request: Request, body: Body) -> dict[str, Any]:
    return body.read(await _body(request))


# --- the calls any program makes --------------------------------------------------------------


async def health(request: Request) -> Response:
    return _json({"status": "ok", "version": __version__})


async def openapi_document(request: Request) -> Response:
    return _json(openapi.document(__version__))


def _plays_json(position: Position, dice: tuple[int, int], rules: Rules) -> list[dict[str, str]]:
    """Each legal play's notation and the Position ID after it, seen by the side then on roll."""
    found = legal_plays(position, dice, rules)
    return [{"play": notation, "position": position_id}
            for notation, position_id in zip(found.notations(), found.position_ids(swapped=True))]


def _plays_answer(fields: dict[str, Any]) -> dict[str, Any]:
    return {"plays": _plays_json(fields["position"], fields["dice"], fields["rules"])}


async def plays(request: Request) -> Response:
    return _json(_plays_answer(await _fields(request, PLAYS)))


def _evaluation(fields: dict[str, Any]) -> dict[str, Any]:
    position, rules, ply = fields["position"], fields["rules"], fields["ply"]
    probabilities = [float(p) for p in evaluate_position(position, rules, "net", ply)]
    equity = 2 * probabilities[0] - 1 + probabilities[1] - probabilities[3] + probabilities[2] - probabilities[4]
    cube = None
    if rules.is_backgammon and outcome(position, rules) is None:
        cube = cube_json(cube_decision(position, rules, "net", cube=fields["cube"], owner=fields["cube_owner"],
                                       ply=ply))
    return {"probabilities": probabilities, "equity": equity, "ply": ply, "cube": cube}


async def evaluate(request: Request) -> Response:
    fields = await _fields(request, EVALUATE)
    return _json(await _search(request, functools.partial(_evaluation, fields), fields["ply"]))


def _best(fields: dict[str, Any]) -> dict[str, Any]:
    scored = best_plays(fields["position"], fields["dice"], fields["rules"], "net", fields["ply"])
    if fields["limit"] is not None:
        scored = scored[:fields["limit"]]
    return {"plays": [{"play": str(s.play), "position": s.play.position.swapped().id, "equity": s.equity,
                       "probabilities": list(s.probabilities), "ply": s.ply} for s in scored]}


async def best(request: Request) -> Response:
    fields = await _fields(request, BEST)
    return _json(await _search(request, functools.partial(_best, fields), fields["ply"]))


async def board(request: Request) -> Response:
    fields = await _fields(request, BOARD)
    return _json({"svg": svg(fields["position"].rows, interactive=fields["interactive"])})


def _match_record(text: str, rules: Any) -> MatchRecord:
    record = parse_match(text, rules=rules)
    return record


def _check_size(record: MatchRecord, ply: int) -> None:
    """Refuse (422) a match whose analysis would run too long, before any work."""
    count = sum(len(game.dice) for game in record.games)
    if count > MAX_ANALYSE_PLAYS[ply]:
        raise RequestError(f"the match has {count} checker plays; an analysis at {ply} ply takes at most "
                           f"{MAX_ANALYSE_PLAYS[ply]} (split the file, or a lower ply)", status=422)


async def analyse_match(request: Request) -> Response:
    fields = await _fields(request, ANALYSE)
    record = _match_record(fields["match"], fields["rules"])
    _check_size(record, fields["ply"])

    def run() -> dict[str, Any]:
        result: dict[str, Any] = analyse(record, "net", ply=fields["ply"], threads=1, source=fields["name"]).to_dict()
        return result

    return _json(await _search(request, run, ply=2))


async def _search(request: Request, work: Callable[[], Any], ply: int) -> Any:
    """Run ``work`` here (0 ply: it takes microseconds) or on the search
    threads, refusing (429) when they all are busy and others already wait."""
    if ply == 0:
        return work()
    limiter: anyio.CapacityLimiter = request.app.state.search_limiter
    if limiter.statistics().tasks_waiting >= 4 * SEARCH_THREADS:
        raise RequestError("the server is busy with searches; try again in a moment", status=429)
    return await anyio.to_thread.run_sync(work, limiter=limiter)


# --- sessions -----------------------------------------------------------------------------------


def _token(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise RequestError("this call needs a session: send 'Authorization: Bearer TOKEN' with the token of "
                           "POST /api/sessions", status=401)
    return token.strip()


def _store(request: Request) -> SessionStore:
    """The app's sessions; 503 in a server of several processes, which would not share them."""
    store: SessionStore | None = request.app.state.sessions
    if store is None:
        raise RequestError("this server runs several worker processes, which share no session: the page's games "
                           "and analyses need a server of one process (bansugoroku serve without --workers)",
                           status=503)
    return store


def _session(request: Request) -> Session:
    return _store(request).get(_token(request))


async def create_session(request: Request) -> Response:
    await _fields(request, NOTHING)
    store = _store(request)
    session = store.create()
    return _json({"token": session.token, "expires_in": store.ttl}, status=201)


async def session_info(request: Request) -> Response:
    session = _session(request)
    store = _store(request)
    return _json({"expires_in": store.ttl, "game": session.play is not None,
                  "jobs": [job.state()["job"] for job in session.jobs.values()]})


async def delete_session(request: Request) -> Response:
    _store(request).delete(_token(request))
    return Response(status_code=204)


async def _in_session(request: Request, body: Body, act: Callable[[Session, dict[str, Any]], Any]) -> Response:
    """Read ``body``, then run ``act(session, fields)`` on a worker thread
    under the session's lock (the computer's turns take a moment)."""
    session = _session(request)
    fields = await _fields(request, body)

    def locked() -> Any:
        with session.lock:
            return act(session, fields)

    result = await anyio.to_thread.run_sync(locked, limiter=request.app.state.game_limiter)
    return result if isinstance(result, Response) else _json(result)


def _new_game(session: Session, fields: dict[str, Any]) -> dict[str, Any]:
    settings = GameSettings(rules=fields["rules"], computer_seat=fields["computer_seat"], policy=fields["policy"],
                            cube_limit=fields["cube_limit"], seed=fields["seed"], start=fields["position"])
    if settings.policy == "pubeval" and not settings.rules.is_backgammon:
        raise RequestError("policy: pubeval plays backgammon only", status=422)
    session.play = MatchPlay(settings)
    return session.play.state()


async def new_game(request: Request) -> Response:
    return await _in_session(request, NEW_GAME, _new_game)


async def game_state(request: Request) -> Response:
    return await _in_session(request, NOTHING, lambda session, _: session.match().state())


def _action(name: str) -> Callable[[Request], Awaitable[Response]]:
    """The route of a game action without arguments: roll, double, take, drop, undo, next."""
    method = {"roll": MatchPlay.roll, "double": MatchPlay.double, "take": MatchPlay.take,
              "drop": MatchPlay.drop, "undo": MatchPlay.undo, "next": MatchPlay.next_game}[name]

    def act(session: Session, _: dict[str, Any]) -> dict[str, Any]:
        match = session.match()
        method(match)
        return match.state()

    async def route(request: Request) -> Response:
        return await _in_session(request, NOTHING, act)

    route.__name__ = f"game_{name}"
    return route


def _move(session: Session, fields: dict[str, Any]) -> dict[str, Any]:
    match = session.match()
    if fields["play"] is not None:
        if fields["from"] is not None or fields["to"] is not None:
            raise RequestError("send either 'from' and 'to' or 'play', not both", status=422)
        match.play(fields["play"])
    elif fields["from"] is None or fields["to"] is None:
        raise RequestError("a move needs 'from' and 'to' (points 1..24, 25 the bar, 0 off), or 'play'", status=422)
    else:
        match.move(fields["from"], fields["to"])
    return match.state()


async def game_move(request: Request) -> Response:
    return await _in_session(request, MOVE, _move)


async def game_hint(request: Request) -> Response:
    return await _in_session(request, HINT, lambda session, fields: session.match().hint(fields["ply"]))


def _match_text(session: Session) -> str:
    match = session.match()
    names = ["", ""]
    names[match.human], names[1 - match.human] = "You", f"Computer ({match.settings.policy})"
    return write_match(match.finished_games(), players=(names[0], names[1]))


async def game_match(request: Request) -> Response:
    return await _in_session(request, NOTHING, lambda session, _: {"match": _match_text(session)})


# --- analysis jobs --------------------------------------------------------------------------------


def _start_job(request: Request, session: Session, record: MatchRecord, ply: int, name: str) -> dict[str, Any]:
    _check_size(record, ply)
    executor: ThreadPoolExecutor = request.app.state.jobs
    with request.app.state.jobs_lock:
        running = request.app.state.running_jobs
        running[:] = [job for job in running if job.status == "running"]
        if len(running) >= MAX_JOBS:
            raise RequestError(f"{MAX_JOBS} analyses are already running or waiting; try again later", status=429)
        for old in session.jobs.values():
            old.cancel()         # a page follows one analysis at a time
        job = AnalysisJob(record, ply, source=name)
        session.jobs = {job.id: job}
        running.append(job)
    executor.submit(job.run)
    return job.state()


async def create_job(request: Request) -> Response:
    session = _session(request)
    fields = await _fields(request, ANALYSE)
    record = await anyio.to_thread.run_sync(_match_record, fields["match"], fields["rules"])
    return _json(_start_job(request, session, record, fields["ply"], fields["name"]), status=202)


async def game_analyse(request: Request) -> Response:
    session = _session(request)
    fields = await _fields(request, HINT)
    with session.lock:
        text = _match_text(session)
    record = await anyio.to_thread.run_sync(_match_record, text, None)
    return _json(_start_job(request, session, record, fields["ply"], "the game just played"), status=202)


async def job_state(request: Request) -> Response:
    session = _session(request)
    return _json(session.job(request.path_params["job"]).state())


async def cancel_job(request: Request) -> Response:
    session = _session(request)
    job = session.job(request.path_params["job"])
    job.cancel()
    return _json(job.state())


# --- the page -----------------------------------------------------------------------------------------


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")


# --- errors ---------------------------------------------------------------------------------------------


def _status(error: BansugorokuError) -> int:
    if isinstance(error, RequestError):
        return error.status
    if isinstance(error, GameStateError):
        return 409
    return 422


async def library_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, BansugorokuError)
    status = _status(error)
    return _json(_error_json(error, status), status=status)


def _error_json(error: BansugorokuError, status: int) -> dict[str, Any]:
    return {"error": str(error), "type": type(error).__name__, "status": status}


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    status = error.status_code
    message = {404: f"no such route: {request.method} {request.url.path}",
               405: f"{request.method} is not allowed on {request.url.path}"}.get(status, str(error.detail))
    return _json({"error": message, "type": "HTTPException", "status": status}, status=status)


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every response (a plain ASGI
    middleware: it costs the API calls nothing measurable)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


# --- the calls answered directly ------------------------------------------------------------------------

#: The calls :class:`ServeApp` answers before Starlette's middleware and
#: routing: those that need no session nor thread, which programs call in
#: bulk. Each path's body and the function answering its fields.
DIRECT_CALLS: dict[str, tuple[Body, Callable[[dict[str, Any]], Any]]] = {
    "/api/plays": (PLAYS, _plays_answer),
}


def _direct_json(content: Any) -> bytes:
    """The direct lane's answers (strings and numbers only) as JSON:
    orjson's bytes where it is installed (the ``web`` extra installs it),
    which are the standard library's here, at a tenth of its cost."""
    if orjson is None:
        return _JSONResponse.encode(content)
    return orjson.dumps(content)


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return ""


async def _received(receive: Receive) -> AsyncIterator[bytes]:
    """The body's chunks as the server hands them over (as ``Request.stream`` reads them)."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientDisconnect()
        yield message.get("body", b"")
        if not message.get("more_body", False):
            return


async def _answer_directly(call: tuple[Body, Callable[[dict[str, Any]], Any]], scope: Scope, receive: Receive,
                           send: Send) -> None:
    """Answer one of :data:`DIRECT_CALLS` as its route would: the body
    read and checked, the answer or the 4xx JSON message of bad input, the
    security headers."""
    body, answer = call
    try:
        fields = body.read(await _limited_body(_header(scope, b"content-length"), _received(receive)))
        content, status = answer(fields), 200
    except BansugorokuError as error:
        status = _status(error)
        content = _error_json(error, status)
    except ClientDisconnect:
        return                 # nobody to answer
    data = _direct_json(content)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(data)),
                            *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": data})


class ServeApp(Starlette):
    """The application of ``bansugoroku serve``: Starlette, except that the
    calls of :data:`DIRECT_CALLS` (``POST /api/plays``) are answered
    before its middleware and routing, which cost them as much again as
    their work: with the same checks and answers (the ``Host`` header, the
    body's size and fields, a 4xx JSON message for bad input, the security
    headers). A request this lane does not surely take (another method, a
    ``Host`` it does not know for one of ``direct_hosts``) goes the whole way.

    Parameters
    ----------
    direct_hosts
        The ``Host`` names (without a port, lower case) the direct lane
        answers; None: any (the app checks no ``Host``).
    **settings
        Starlette's arguments.
    """

    def __init__(self, *, direct_hosts: frozenset[str] | None, **settings: Any) -> None:
        super().__init__(**settings)
        self.direct_hosts = direct_hosts

    def _answers_host(self, scope: Scope) -> bool:
        if self.direct_hosts is None:
            return True
        host = _header(scope, b"host")
        name, _, port = host.rpartition(":")
        plain_port = port.isascii() and port.isdigit()  # not "²", which latin-1 headers can hold
        return (name if name and plain_port else host).lower() in self.direct_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" and not scope.get("root_path"):
            call = DIRECT_CALLS.get(scope["path"])
            if call is not None and self._answers_host(scope):
                await _answer_directly(call, scope, receive, send)
                return
        await super().__call__(scope, receive, send)


# --- the application ------------------------------------------------------------------------------------


def routes() -> list[Route | Mount]:
    game_actions = [Route(f"/api/game/{name}", _action(name), methods=["POST"])
                    for name in ("roll", "double", "take", "drop", "undo", "next")]
    return [
        Route("/", index, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/health", health, methods=["GET"]),
        Route("/api/openapi.json", openapi_document, methods=["GET"]),
        Route("/api/plays", plays, methods=["POST"]),
        Route("/api/evaluate", evaluate, methods=["POST"]),
        Route("/api/best", best, methods=["POST"]),
        Route("/api/analyse", analyse_match, methods=["POST"]),
        Route("/api/board", board, methods=["POST"]),
        Route("/api/sessions", create_session, methods=["POST"]),
        Route("/api/sessions", session_info, methods=["GET"]),
        Route("/api/sessions", delete_session, methods=["DELETE"]),
        Route("/api/game", new_game, methods=["POST"]),
        Route("/api/game", game_state, methods=["GET"]),
        *game_actions,
        Route("/api/game/move", game_move, methods=["POST"]),
        Route("/api/game/hint", game_hint, methods=["POST"]),
        Route("/api/game/match", game_match, methods=["GET"]),
        Route("/api/game/analyse", game_analyse, methods=["POST"]),
        Route("/api/jobs", create_job, methods=["POST"]),
        Route("/api/jobs/{job}", job_state, methods=["GET"]),
        Route("/api/jobs/{job}", cancel_job, methods=["DELETE"]),
    ]


def create_app(*, allowed_hosts: list[str] | None = None, session_ttl: float | None = None,
               sessions: SessionStore | None = None, page_sessions: bool = True) -> ServeApp:
    """The ASGI application of ``bansugoroku serve``.

    Parameters
    ----------
    allowed_hosts
        The ``Host`` headers answered (None: any); :func:`run_server` gives
        :data:`LOOPBACK_HOSTS` when it binds the loopback.
    session_ttl
        Seconds a session lives unused (default
        :data:`~bansugoroku_fast.web.sessions.SESSION_TTL`).
    sessions
        The session store (a new one by default; tests give one with a clock of their own).
    page_sessions
        Keep the page's sessions (its games and analyses). False for one
        of several worker processes, which would not share them: the
        session calls then answer 503, the other calls as always.

    Returns
    -------
    ServeApp
        The application (a Starlette application), to run with uvicorn or to test with Starlette's ``TestClient``.

    Examples
    --------
    >>> from starlette.testclient import TestClient
    >>> TestClient(create_app()).get("/api/health").json()["status"]
    'ok'
    """
    middleware = [Middleware(SecurityHeaders)]
    if allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts, www_redirect=False))
    exact_hosts = None if allowed_hosts is None else frozenset(
        host.lower() for host in allowed_hosts if not host.startswith("*"))
    app = ServeApp(direct_hosts=exact_hosts, routes=routes(), middleware=middleware,
                   exception_handlers={BansugorokuError: library_error, HTTPException: http_error})
    store = None
    if page_sessions:
        store = sessions if sessions is not None else SessionStore()
        if session_ttl is not None:
            store.ttl = session_ttl
    app.state.sessions = store
    app.state.search_limiter = anyio.CapacityLimiter(SEARCH_THREADS)
    app.state.game_limiter = anyio.CapacityLimiter(SEARCH_THREADS * 4)
    app.state.jobs = ThreadPoolExecutor(max_workers=1, thread_name_prefix="analysis")
    app.state.jobs_lock = threading.Lock()
    app.state.running_jobs = []
    return app


#: The environment variable carrying :func:`run_server`'s settings to its worker processes (JSON).
WORKER_SETTINGS = "BANSUGOROKU_SERVE_SETTINGS"


def _ready_process() -> None:
    """Ready a serving process: move what importing and building the app
    made (tens of thousands of objects, alive until the end) out of the
    garbage collector's reach, so that its full collections, which stop
    every request, look only at what requests leave behind."""
    gc.collect()
    gc.freeze()


def worker_app() -> ServeApp:
    """The app of one of the worker processes of :func:`run_server` with
    ``workers`` > 1 (uvicorn makes it in each), its settings read from
    :data:`WORKER_SETTINGS`: without the page's sessions, which the
    processes would not share.

    Returns
    -------
    ServeApp
        The application.
    """
    settings = json.loads(os.environ.get(WORKER_SETTINGS, "{}"))
    app = create_app(allowed_hosts=settings.get("allowed_hosts"), page_sessions=False)
    _ready_process()
    return app


def run_server(host: str = "127.0.0.1", port: int = 8000, *, open_browser: bool = False,
               session_ttl: float | None = None, log_level: str = "info", access_log: bool = False,
               workers: int = 1) -> None:
    """Serve the page and the API with uvicorn until interrupted.

    Parameters
    ----------
    host
        The address to bind: the loopback by default; any other address
        serves every machine that reaches it (a :class:`UserWarning` says so).
    port
        The TCP port.
    open_browser
        Open the page in the default browser once the server is up.
    session_ttl
        Seconds a session lives unused.
    log_level
        uvicorn's log level.
    access_log
        Log every request (at ``info`` level): it costs about as much as
        answering ``POST /api/plays``.
    workers
        Processes answering requests (uvicorn's workers, sharing the
        port). With more than one, the stateless calls (``/api/plays``,
        ``/api/evaluate``, ``/api/best``, ``/api/analyse``, ``/api/board``,
        ``/api/health``) take more load, but the page's sessions, which the
        processes would not share, answer 503: the page needs one.

    Raises
    ------
    InvalidArgumentError
        ``workers`` is below 1, or above 1 with ``open_browser``.
    """
    import uvicorn

    if workers < 1 or (workers > 1 and open_browser):
        raise InvalidArgumentError(f"workers: 1 or more, and 1 to open the page (its games need one process), "
                                   f"got {workers}")
    loopback = host in LOOPBACK_HOSTS or host.startswith("127.")
    if not loopback:
        warnings.warn(f"serving on {host}: every machine that reaches this address can use the server "
                      "(it has no login); the default, 127.0.0.1, serves this machine only", UserWarning, stacklevel=2)
    allowed_hosts = [*LOOPBACK_HOSTS, host] if loopback else None
    url = f"http://{'localhost' if loopback else host}:{port}/"
    # no proxy sits in front: the client's address is the connection's, whatever a header says
    options: dict[str, Any] = {"host": host, "port": port, "log_level": log_level, "access_log": access_log,
                               "limit_concurrency": 1000, "timeout_keep_alive": 30, "proxy_headers": False}
    if workers > 1:
        os.environ[WORKER_SETTINGS] = json.dumps({"allowed_hosts": allowed_hosts})
        print(f"Serving the API on {url}api/ from {workers} processes (Ctrl+C stops); the page needs one process")
        uvicorn.run(f"{__name__}:worker_app", factory=True, workers=workers, **options)
        return
    app = create_app(allowed_hosts=allowed_hosts, session_ttl=session_ttl)
    server = uvicorn.Server(uvicorn.Config(app, **options))
    if open_browser:
        import webbrowser

        def open_when_up() -> None:
            while not server.started and not server.should_exit:
                threading.Event().wait(0.05)
            if server.started:
                webbrowser.open(url)

        threading.Thread(target=open_when_up, daemon=True).start()
    print(f"Serving on {url} (Ctrl+C stops)")
    _ready_process()
    server.run()
