"""The page's sessions: a match against the computer, played a move at a
time, and the analyses a session asked for.

A :class:`Session` is created by ``POST /api/sessions`` and known only by
its token, a random 256-bit string the page sends back in each call's
``Authorization: Bearer`` header; nothing else names it, so a game is
reachable only by its own session. A session left unused for ``ttl``
seconds expires (:class:`SessionStore`), and the store holds at most
``max_sessions`` (the least recently used goes first).

A session's :class:`MatchPlay` is the flow of ``bansugoroku play`` with a
person at one seat and a :class:`CubefulComputer` at the other: the person
rolls (the roll is automatic when no double is possible), moves a stone at a
time (only moves that some legal play continues, :class:`~bansugoroku_fast.turn.Turn`),
may undo the moves of the turn until it is complete, and the turn passes
once every die is used. The computer's turns are recorded as events, with
the board after each of its moves, for the page to show step by step.

An :class:`AnalysisJob` analyses a match file a game at a time on a worker
thread, so that the page can show its progress and cancel it between games.

>>> settings = GameSettings(rules=Rules(), computer_seat=1, policy="heuristic", seed=3)
>>> play = MatchPlay(settings)
>>> state = play.state()
>>> state["phase"], state["dice"] is not None, state["you"]
('move', True, 0)
"""
from __future__ import annotations

import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..analysis import analyse, statistics
from ..cube.decision import cube_decision
from ..errors import GameStateError, RequestError
from ..evaluators.search import best_plays, evaluate_position
from ..games.computer import Computer
from ..games.interactive import CubeRecord, Game, Seed, TurnRecord
from ..moves import legal_plays
from ..play import Play
from ..position import Position
from ..render import svg
from ..rules import Rules
from ..turn import Turn, dice_text

__all__ = ["AnalysisJob", "CubefulComputer", "GameSettings", "MatchPlay", "Session", "SessionStore",
           "SESSION_TTL", "MAX_SESSIONS"]

#: Seconds a session lives unused.
SESSION_TTL = 3600.0
#: Sessions the server holds at once; the least recently used goes first.
MAX_SESSIONS = 500
#: Turns a game may last before the server refuses to play on (a safety net: real games end long before).
MAX_TURNS = 2_000
#: Games a session's match may hold.
MAX_GAMES = 200
#: How many of the best plays a hint lists.
HINT_PLAYS = 5
#: Seconds an analysis job may run before it stops between two games.
JOB_SECONDS = 600.0


# --- the computer ---------------------------------------------------------------------------


@dataclass
class CubefulComputer(Computer):
    """A :class:`~bansugoroku_fast.games.computer.Computer` whose cube is
    decided by :func:`~bansugoroku_fast.cube.cube_decision` (the shipped
    network at 0 ply, money play): it doubles when doubling gains whatever
    the reply, and takes when taking costs less than passing. ``limit`` is
    the highest cube it doubles to; ``owner`` says who owns the cube (the
    seat, or None in the middle) when it answers a double.
    """

    rules: Rules = field(default_factory=lambda: Rules(variant="backgammon"))
    limit: int = 64
    owner: Callable[[], int | None] = lambda: None
    cube_value: Callable[[], int] = lambda: 1

    def should_double(self, position: Position, owns_cube: bool) -> bool:
        if self.cube_value() * 2 > self.limit:
            return False
        decision = cube_decision(position, self.rules, "net", cube=self.cube_value(),
                                 owner=0 if owns_cube else None)
        return decision.double_take >= decision.no_double and decision.double_pass >= decision.no_double

    def should_take(self, position: Position) -> bool:
        """``position`` is seen by the doubler, on roll."""
        doubler_owns = self.owner() is not None
        decision = cube_decision(position, self.rules, "net", cube=self.cube_value(),
                                 owner=0 if doubler_owns else None)
        return decision.double_take <= decision.double_pass


# --- a match against the computer ------------------------------------------------------------


@dataclass(frozen=True)
class GameSettings:
    """What the New game dialog chose: ``rules``; ``cube_limit`` (0: no
    cube; backgammon only); the computer's seat (seat 0 starts the first
    game under the ``alternate`` start) and its ``policy``; ``seed`` of the
    dice (None: random); ``start``: a position to start the first game
    from, seen by seat 0, on roll (None: the start position)."""

    rules: Rules
    computer_seat: int = 1
    policy: str = "net"
    cube_limit: int = 64
    seed: int | None = None
    start: Position | None = None

    def __post_init__(self) -> None:
        if not self.rules.is_backgammon and self.cube_limit:
            object.__setattr__(self, "cube_limit", 0)   # Ban-sugoroku has no doubling cube


def _board(position: Position) -> str:
    return svg(position.rows, interactive=True)


class MatchPlay:
    """A match between a person and the computer (see the module); every
    method that acts returns nothing and raises a typed error when the
    action is not possible now; :meth:`state` says what the page shows."""

    def __init__(self, settings: GameSettings) -> None:
        self.settings = settings
        self.rules = settings.rules
        self.human = 1 - settings.computer_seat
        # one source of dice for the whole match, so that its games follow one stream
        self.dice: Seed = random.Random(settings.seed if settings.seed is not None else secrets.randbits(62))
        self.games: list[Game] = []
        self.turn: Turn | None = None
        self.events: list[dict[str, Any]] = []
        self.message = ""
        self.computer = CubefulComputer(settings.policy, rules=self.rules, limit=settings.cube_limit or 1,
                                        owner=lambda: self.game.cube_owner, cube_value=lambda: self.game.cube)
        self._sequences: list[tuple[Any, ...]] = []
        self._new_game()

    @property
    def game(self) -> Game:
        return self.games[-1]

    # -- the games --

    def _new_game(self) -> None:
        number = len(self.games)
        if number >= MAX_GAMES:
            raise GameStateError(f"a session's match holds at most {MAX_GAMES} games: start a new match")
        if number == 0 and self.settings.start is not None:
            game = Game.from_position(self.settings.start, self.rules, self.dice, seat_to_move=0)
        else:
            starter = number % 2 if self.rules.start == "alternate" else None
            game = Game(self.rules, self.dice, starter=starter)
        game.hand_over(self.settings.computer_seat, self.computer)
        self.games.append(game)
        self.turn = None
        self.events = []
        if game.opening_rolls:
            rolls = "; ".join(f"{self._name(0)} {a}, {self._name(1)} {b}" for a, b in game.opening_rolls)
            self.message = f"Roll-off: {rolls}. {self._name(game.starter, capital=True)} start" \
                           f"{'s' if game.starter != self.human else ''}."
        else:
            self.message = f"{self._name(game.starter, capital=True)} start{'s' if game.starter != self.human else ''}."
        self._advance()

    def next_game(self) -> None:
        """The next game of the match, once this one is over."""
        if not self.game.is_over:
            raise GameStateError("the game is not over yet")
        self._new_game()

    @property
    def score(self) -> tuple[int, int]:
        """Points won so far, by seat."""
        points = [0, 0]
        for game in self.games:
            if game.result is not None:
                points[game.result.winner] += game.result.points
        return points[0], points[1]

    # -- the person's actions --

    @property
    def may_double(self) -> bool:
        """The person may offer the cube now."""
        game = self.game
        return (self.settings.cube_limit > 0 and game.seat_to_move == self.human and game.can_double
                and game.cube * 2 <= self.settings.cube_limit)

    def roll(self) -> None:
        game = self.game
        if game.is_over or game.seat_to_move != self.human or game.dice is not None \
                or game.double_offered_by is not None:
            raise GameStateError(f"you cannot roll now: {self._waiting_for()}")
        self.events = []
        self._roll_for_person()
        self._advance()

    def double(self) -> None:
        if not self.may_double:
            why = "the cube is off in this match" if not self.settings.cube_limit else self._why_no_double()
            raise GameStateError(f"you cannot double now: {why}")
        self.events = []
        start = len(self.game.history)
        self.game.offer_double()
        self._answer_for_computer()
        self._record(start)
        self._advance()

    def take(self) -> None:
        self._answer(take=True)

    def drop(self) -> None:
        self._answer(take=False)

    def move(self, origin: int, target: int) -> None:
        """Move one stone from ``origin`` to ``target`` (25 the bar, 0 off),
        with one die or several."""
        turn = self._person_turn()
        turn.play((origin, target))
        self._after_move(turn)

    def play(self, text: str) -> None:
        """Play moves in notation (``"24/18 13/8"``): the rest of the turn, or part of it."""
        turn = self._person_turn()
        turn.play(text)
        self._after_move(turn)

    def undo(self) -> None:
        turn = self._person_turn()
        if not turn.steps:
            raise GameStateError("nothing to undo: no move made this turn")
        turn.undo()
        self.events = []

    # -- helpers of the person's turn --

    def _person_turn(self) -> Turn:
        if self.turn is None:
            raise GameStateError(f"you have no move to make now: {self._waiting_for()}")
        return self.turn

    def _after_move(self, turn: Turn) -> None:
        self.events = []
        if turn.is_complete:
            start = len(self.game.history)
            self.turn = None
            self.game.play(turn)
            self._record(start)
            self._advance()

    def _answer(self, take: bool) -> None:
        game = self.game
        if game.double_offered_by is None or game.double_offered_by == self.human:
            raise GameStateError("no double of the computer awaits your answer")
        self.events = []
        start = len(game.history)
        game.take() if take else game.drop()
        self._record(start)
        self._advance()

    def _roll_for_person(self) -> None:
        start = len(self.game.history)
        self.game.roll()
        self._record(start)     # a roll with no legal play passes at once

    def _answer_for_computer(self) -> None:
        game = self.game
        if self.computer.should_take(game.position):
            game.take()
        else:
            game.drop()

    def _advance(self) -> None:
        """Let the computer act until the person must act or the game ends."""
        game = self.game
        while not game.is_over:
            if game.turn_count > MAX_TURNS:
                raise GameStateError(f"the game has lasted {MAX_TURNS} turns; start a new one")
            offerer = game.double_offered_by
            if offerer is not None:
                if offerer == self.human:
                    start = len(game.history)
                    self._answer_for_computer()
                    self._record(start)
                    continue
                return      # the person answers the computer's double
            if game.seat_to_move != self.human:
                before, start = game.position, len(game.history)
                game.play_turn(self.computer)
                self._record(start, before)
                continue
            if game.dice is None:
                if self.may_double:
                    return  # the person rolls or doubles
                self._roll_for_person()
                continue
            self.turn = game.start_turn()
            self._sequences = [play.as_steps() for play in
                               legal_plays(self.turn.start_position, self.turn.dice, self.rules, all_orderings=True)]
            return

    def _record(self, start: int, before: Position | None = None) -> None:
        """Events for the history records from ``start`` on; ``before``: the
        position (seen by the mover) before the computer's turn among them."""
        for record in self.game.history[start:]:
            event: dict[str, Any] = {"seat": record.seat, "who": self._who(record.seat),
                                     "text": self._record_text(record)}
            if isinstance(record, CubeRecord):
                event["kind"] = record.action
            else:
                event["kind"] = "play" if record.play is not None else "pass"
                event["dice"] = list(record.dice)
                if record.play is not None and before is not None and record.seat != self.human:
                    event["frames"] = self._frames(before, record.dice, record.play)
            self.events.append(event)

    def _frames(self, before: Position, dice: tuple[int, int], play: Play) -> list[dict[str, str]]:
        """The board (the person's view) after each move of the computer's play."""
        turn = Turn(before, dice, self.rules)
        frames = []
        for step in play.as_steps():
            turn.play((step.origin, step.target, step.die))
            frames.append({"move": str(step), "board": _board(turn.position.swapped())})
        return frames

    # -- words --

    def _who(self, seat: int) -> str:
        return "you" if seat == self.human else "computer"

    def _name(self, seat: int, capital: bool = False) -> str:
        name = "you" if seat == self.human else "the computer"
        return name.capitalize() if capital else name

    def _record_text(self, record: TurnRecord | CubeRecord) -> str:
        who = self._name(record.seat, capital=True)
        you = record.seat == self.human

        def does(verb: str) -> str:
            return f"{who} {verb if you else verb + 's'}"

        if isinstance(record, CubeRecord):
            if record.action == "double":
                return f"{does('double')} to {record.cube * 2}."
            if record.action == "take":
                return f"{does('take')}: the cube is at {record.cube}."
            return f"{does('pass')} the double."
        played = str(record.play) if record.play is not None else "no legal play, the turn passes"
        return f"{record.number}. {does('roll')} {dice_text(record.dice)}: {played}"

    def _waiting_for(self) -> str:
        game = self.game
        if game.is_over:
            return "the game is over"
        if game.double_offered_by is not None:
            return "a double awaits an answer" if game.double_offered_by == self.human else \
                "answer the computer's double (take or pass)"
        if game.seat_to_move != self.human:
            return "it is the computer's turn"
        if game.dice is None:
            return "roll first"
        return "play your roll"

    def _why_no_double(self) -> str:
        game = self.game
        if game.seat_to_move != self.human:
            return "it is not your turn"
        if game.cube * 2 > self.settings.cube_limit:
            return f"the cube stops at {self.settings.cube_limit}"
        if game.dice is not None:
            return "the dice are rolled"
        if game.cube_owner is not None and game.cube_owner != self.human:
            return "the computer owns the cube"
        return "not before this roll"

    # -- what the page shows --

    def moves(self) -> list[dict[str, Any]]:
        """Every move the person can make now: ``from``/``to`` (one stone,
        one die or several, as far as some legal play continues), greatest first."""
        turn = self.turn
        if turn is None or turn.is_complete:
            return []
        played = turn.steps
        reach: set[tuple[int, int]] = set()
        for sequence in self._sequences:
            if sequence[:len(played)] != played:
                continue
            rest = sequence[len(played):]
            if not rest:
                continue
            origin = at = rest[0].origin
            for step in rest:
                if step.origin != at:
                    break
                at = step.target
                reach.add((origin, at))
        return [{"from": origin, "to": target, "text": f"{'bar' if origin == 25 else origin}/"
                 f"{'off' if target == 0 else target}"} for origin, target in sorted(reach, reverse=True)]

    def state(self) -> dict[str, Any]:
        """Everything the page draws (see the API reference)."""
        game, human = self.game, self.human
        view = self.turn.position if self.turn is not None else game.position_for(human)
        phase = self._phase()
        owner = game.cube_owner
        you, computer = self.score[human], self.score[1 - human]
        result = None
        if game.result is not None:
            winner = game.result
            how = "a dropped double" if winner.outcome is None else str(winner.outcome.kind)
            result = {"winner": self._who(winner.winner), "points": winner.points, "how": how,
                      "text": f"{self._name(winner.winner, capital=True)} win{'' if winner.winner == human else 's'} "
                              f"{winner.points} point{'s' if winner.points != 1 else ''} ({how})."}
        return {
            "rules": self.rules.label,
            "you": human,
            "computer": {"seat": 1 - human, "policy": self.settings.policy},
            "cube_limit": self.settings.cube_limit,
            "game": len(self.games),
            "score": {"you": you, "computer": computer},
            "phase": phase,
            "board": _board(view),
            "position": view.id,
            "pips": {"you": view.pip_count(0), "computer": view.pip_count(1)},
            "off": {"you": int(view.array[0, 0]), "computer": int(view.array[1, 0])},
            "bar": {"you": int(view.array[0, 25]), "computer": int(view.array[1, 25])},
            "cube": {"value": game.cube, "owner": None if owner is None else self._who(owner)},
            "dice": list(game.dice) if game.dice is not None else None,
            "dice_left": list(self.turn.dice_left) if self.turn is not None else [],
            "steps": [str(step) for step in self.turn.steps] if self.turn is not None else [],
            "moves": self.moves(),
            "can": {"roll": phase == "roll", "double": self.may_double, "take": phase == "answer",
                    "drop": phase == "answer", "undo": bool(self.turn and self.turn.steps),
                    "next": game.is_over, "hint": phase in ("roll", "move")},
            "events": self.events,
            "history": [self._record_text(record) for record in game.history],
            "message": self.message,
            "result": result,
            "analysable": self.settings.start is None,
        }

    def _phase(self) -> str:
        game = self.game
        if game.is_over:
            return "over"
        if game.double_offered_by is not None and game.double_offered_by != self.human:
            return "answer"
        if self.turn is not None:
            return "move"
        if game.seat_to_move == self.human and game.dice is None:
            return "roll"
        return "waiting"

    def hint(self, ply: int) -> dict[str, Any]:
        """The best plays of the person's roll with their equities, or
        before the roll the cube decision (backgammon) and the equity."""
        game = self.game
        if self.turn is not None:
            scored = best_plays(self.turn.start_position, self.turn.dice, self.rules, "net", ply)
            return {"plays": [{"play": str(s.play), "equity": s.equity, "probabilities": list(s.probabilities),
                               "ply": s.ply} for s in scored[:HINT_PLAYS]]}
        if game.seat_to_move != self.human or game.is_over or game.double_offered_by is not None:
            raise GameStateError(f"no hint now: {self._waiting_for()}")
        position = game.position
        out: dict[str, Any] = {"plays": [], "equity": None, "cube": None}
        if self.may_double:
            decision = cube_decision(position, self.rules, "net", cube=game.cube,
                                     owner=None if game.cube_owner is None else 0, ply=ply)
            out["cube"] = cube_json(decision)
        probabilities = evaluate_position(position, self.rules, "net", ply)
        out["probabilities"] = [float(p) for p in probabilities]
        out["equity"] = _equity(probabilities)
        return out

    def finished_games(self) -> list[Game]:
        """The games to write as a match file: those played from the start position."""
        if self.settings.start is not None:
            raise GameStateError("this match started from a chosen position; a match file starts from the "
                                 "start position, so it cannot be analysed")
        return list(self.games)


def _equity(probabilities: Any) -> float:
    p = [float(value) for value in probabilities]
    return 2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4]


def cube_json(decision: Any) -> dict[str, Any]:
    """A :class:`~bansugoroku_fast.cube.CubeDecision` as JSON."""
    return {"action": decision.action, "no_double": decision.no_double, "double_take": decision.double_take,
            "double_pass": decision.double_pass, "take_point": decision.take_point,
            "cube_efficiency": decision.cube_efficiency, "kind": decision.kind, "ply": decision.ply}


# --- analysis jobs --------------------------------------------------------------------------------


class AnalysisJob:
    """The analysis of a match file's games, one game at a time on a worker
    thread: :attr:`status` is ``"running"``, ``"done"``, ``"cancelled"`` or
    ``"failed"``; :attr:`done` and :attr:`total` count the checker plays
    analysed; :attr:`result` is :meth:`Analysis.to_dict
    <bansugoroku_fast.analysis.Analysis.to_dict>` once done."""

    def __init__(self, record: Any, ply: int, source: str = "", clock: Callable[[], float] = time.monotonic) -> None:
        self.id = secrets.token_urlsafe(12)
        self.record = record
        self.ply = ply
        self.source = source
        self.clock = clock
        self.status = "running"
        self.total = sum(max(len(game.dice), 1) for game in record.games) or 1
        self.done = 0
        self.result: dict[str, Any] | None = None
        self.error = ""
        self._cancel = threading.Event()

    def cancel(self) -> None:
        """Stop before the next game (a game under way finishes first)."""
        self._cancel.set()
        if self.status == "running":
            self.status = "cancelled"

    def run(self) -> None:
        """Analyse every game, stopping if cancelled or past :data:`JOB_SECONDS`."""
        deadline = self.clock() + JOB_SECONDS
        analyses = []
        try:
            for game in self.record.games:
                if self._cancel.is_set():
                    self.status = "cancelled"
                    return
                if self.clock() > deadline:
                    self.status, self.error = "failed", f"the analysis took longer than {JOB_SECONDS:.0f} s"
                    return
                analyses.append(analyse(replace(self.record, games=(game,)), "net", ply=self.ply, threads=1))
                self.done += max(len(game.dice), 1)
            self.result = combined(analyses, self.record, self.ply, self.source)
            self.status = "done" if not self._cancel.is_set() else "cancelled"
        except (ValueError, TypeError) as error:    # the library's typed errors: the file's own fault
            self.status, self.error = "failed", str(error)

    def state(self) -> dict[str, Any]:
        return {"job": self.id, "status": self.status, "done": self.done, "total": self.total,
                "error": self.error or None, "analysis": self.result if self.status == "done" else None}


def combined(analyses: list[Any], record: Any, ply: int, source: str) -> dict[str, Any]:
    """One analysis (as :meth:`Analysis.to_dict`) of games analysed one by one."""
    if not analyses:
        empty = analyse(record, "net", ply=ply, threads=1, source=source)
        out: dict[str, Any] = empty.to_dict()
        return out
    first = analyses[0]
    decisions = tuple(d for a in analyses for d in a.decisions)
    games = tuple(g for a in analyses for g in a.games)
    whole = replace(first, decisions=decisions, games=games, source=source,
                    players=statistics(decisions, first.names))
    result: dict[str, Any] = whole.to_dict()
    return result


# --- sessions ---------------------------------------------------------------------------------------


class Session:
    """One page's state: its match (None before the first New game) and its analysis jobs."""

    def __init__(self, token: str, now: float) -> None:
        self.token = token
        self.last_used = now
        self.play: MatchPlay | None = None
        self.jobs: dict[str, AnalysisJob] = {}
        self.lock = threading.Lock()

    def match(self) -> MatchPlay:
        if self.play is None:
            raise RequestError("this session has no game yet: start one with POST /api/game", status=409)
        return self.play

    def job(self, job_id: str) -> AnalysisJob:
        job = self.jobs.get(job_id)
        if job is None:
            raise RequestError(f"no analysis {job_id[:40]!r} in this session", status=404)
        return job

    def cancel_jobs(self) -> None:
        for job in self.jobs.values():
            job.cancel()


class SessionStore:
    """The sessions by token, expiring ``ttl`` seconds after their last use.

    >>> clock = iter([0.0, 10.0, 5000.0]).__next__
    >>> store = SessionStore(ttl=3600, clock=clock)
    >>> token = store.create().token
    >>> store.get(token).token == token
    True
    >>> store.get(token)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.RequestError: unknown or expired session: start a new one with POST /api/sessions
    """

    def __init__(self, ttl: float = SESSION_TTL, max_sessions: int = MAX_SESSIONS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self.max_sessions = max_sessions
        self.clock = clock
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._sessions)

    def create(self) -> Session:
        now = self.clock()
        with self._lock:
            self._sweep(now)
            while len(self._sessions) >= self.max_sessions:
                _, oldest = self._sessions.popitem(last=False)
                oldest.cancel_jobs()
            session = Session(secrets.token_urlsafe(32), now)
            self._sessions[session.token] = session
        return session

    def get(self, token: str) -> Session:
        now = self.clock()
        with self._lock:
            self._sweep(now)
            session = self._sessions.get(token)
            if session is None:
                raise RequestError("unknown or expired session: start a new one with POST /api/sessions",
                                   status=401)
            session.last_used = now
            self._sessions.move_to_end(token)
        return session

    def delete(self, token: str) -> None:
        with self._lock:
            session = self._sessions.pop(token, None)
        if session is None:
            raise RequestError("unknown or expired session", status=401)
        session.cancel_jobs()

    def _sweep(self, now: float) -> None:
        """Forget the sessions unused for ``ttl`` seconds (oldest first: the dict is in order of use)."""
        while self._sessions:
            token, oldest = next(iter(self._sessions.items()))
            if now - oldest.last_used <= self.ttl:
                return
            del self._sessions[token]
            oldest.cancel_jobs()

