"""``bansugoroku play``: a game against the computer, two computers watched,
or (with neither option) one random game printed move by move.

    bansugoroku play --vs heuristic [--seat 0|1]      # you against the computer
    bansugoroku play --seats heuristic,random         # watch two policies play
    bansugoroku play                                  # a random game, printed
    bansugoroku play --vs heuristic --save game.mat   # and keep it as a match file
    bansugoroku play --vs net --match 5               # a 5-point match (backgammon)

Against the computer, moves are typed in notation (``24/18 13/8``, a move
at a time or all at once, ``bar/22``, ``6/off``); ``undo`` takes back the
moves of the turn so far, ``moves`` lists the legal plays, ``board`` redraws
the board, ``help`` lists the commands, ``leave`` hands your seat to the
computer (which plays the game to its end), ``quit`` stops. In backgammon,
``double`` before rolling offers the cube and ``take`` / ``drop`` answer the
computer's double; the computer doubles, takes and passes by the shipped
network's 0-ply cube decisions (``--cube net``, the default:
:class:`~bansugoroku_fast.games.computer.NetCube`, which weighs gammons and
the match score), or by the source page's pip-count rule with ``--cube
pips`` (:class:`~bansugoroku_fast.games.computer.PipCountCube`). ``--match
N`` plays a match to N points, game after game, the score shown between
games (the Crawford game has no doubling; the computer's cube reads the
score). Ban-sugoroku has no cube. A wrong entry is
explained and the turn goes on. Once the game is over, the board and a
last line say who won, how (the kind of win, a dropped double) and for how
many points. ``--save FILE.mat`` writes the game (or the match) as a match file that
``bansugoroku match show`` reads (its path is checked before the game).
"""
from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from .. import render
from .._files import write_atomically
from ..checks import as_dice, as_output_file
from ..errors import InvalidDiceError, InvalidOptionError, InvalidPolicyError
from ..formats.mat import write_match
from ..games.computer import Computer, check_policy
from ..games.interactive import CubeRecord, Game, Match, ScriptedDice, Turn, TurnRecord, dice_text
from ..rules import Rules
from .common import Commands, add_rules_argument, position_arg, rules_name

HELP = """\
Commands:
  24/18 13/8   play moves in notation (a move at a time or the whole play;
               bar/22 enters from the bar, 6/off bears off, 8/5(2) twice)
  undo         take back the moves of this turn so far
  moves        list the legal plays of your roll
  board        draw the board again
  roll         roll the dice (or just Enter; backgammon, when you could double)
  double       offer the cube before rolling (backgammon)
  take, drop   answer the computer's double (backgammon)
  leave        give your seat to the computer; it plays the game to the end
  quit         stop here
  help         this list"""


def add_parser(commands: Commands) -> None:
    play = commands.add_parser(
        "play", help="play against the computer (--vs), watch two policies (--seats), or print a random game",
        description="Play against the computer (--vs POLICY), watch two policies (--seats P0,P1), or print one "
                    "random game (neither). Against the computer, type at the prompt:",
        epilog=HELP, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rules_argument(play)
    play.add_argument("--seed", type=int, help="seed of the dice and the computers' choices (default: random)")
    who = play.add_mutually_exclusive_group()
    who.add_argument("--vs", metavar="POLICY", help="play against the computer using POLICY (e.g. heuristic)")
    who.add_argument("--seats", metavar="P0,P1", help="watch two policies play (seat 0's, seat 1's)")
    play.add_argument("--seat", type=int, choices=(0, 1), default=0, help="your seat with --vs (default 0)")
    play.add_argument("--position", metavar="ID",
                      help="start from this Position ID (seen by the seat to move, seat 0) instead of the start")
    play.add_argument("--dice", metavar="ROLLS",
                      help="roll these dice in order instead of random ones, e.g. '6-5 3-1 4-4'")
    play.add_argument("--save", metavar="FILE.mat",
                      help="write the game as a match file (what 'bansugoroku match show' reads)")
    play.add_argument("--cube", choices=("net", "pips"), default="net",
                      help="how the computer doubles, takes and passes in backgammon: 'net', the shipped "
                           "network's cube decisions (default: it weighs gammons and the match score), or "
                           "'pips', the source page's pip-count rule")
    play.add_argument("--match", type=int, metavar="POINTS",
                      help="play a match to POINTS points, game after game (the computer's cube reads the score; "
                           "the Crawford game has no doubling)")
    play.set_defaults(run=run_play)


def run_play(args: argparse.Namespace) -> int:
    rules = Rules.parse(args.rules)
    seed = args.seed if args.seed is not None else random.randrange(10**6)
    save = _save_target(args.save, args.position)
    length = _match_length(args.match, args.position, args.vs, args.seats)
    if args.vs is None and args.seats is None:
        return _print_random_game(rules, seed, save)
    if args.seats is not None:
        policies = _seat_policies(args.seats, rules)
        computers = [Computer(policy, cube=args.cube, rng=random.Random(seed + 1 + seat))
                     for seat, policy in enumerate(policies)]
        names = (f"seat 0 ({policies[0]})", f"seat 1 ({policies[1]})")
        if length:
            match = Match(rules, _dice(seed, args.dice), length=length)
            status = _watch_match(match, computers, seed)
            _save(match, save, names, length)
            return status
        game = _new_game(rules, seed, args.position, args.dice)
        for seat, computer in enumerate(computers):
            game.hand_over(seat, computer)
        status = _watch(game, seed)
        _save(game, save, names)
        return status
    check_policy(args.vs, rules)
    computer = Computer(args.vs, cube=args.cube, rng=random.Random(seed + 1))
    names = ("You", f"Computer ({args.vs})")
    players = (names[args.seat], names[1 - args.seat])
    if length:
        match = Match(rules, _dice(seed, args.dice), length=length)
        status = TerminalMatch(match, args.seat, computer, input).run()
        _save(match, save, players, length)
        return status
    game = _new_game(rules, seed, args.position, args.dice)
    status = TerminalGame(game, args.seat, computer, input).run()
    _save(game, save, players)
    return status


def _match_length(points: int | None, position_id: str | None, vs: str | None, seats: str | None) -> int:
    """``--match``'s points, checked (0 without the option)."""
    if points is None:
        return 0
    if points < 1:
        raise InvalidOptionError(f"--match needs a number of points, at least 1, got {points}")
    if position_id is not None:
        raise InvalidOptionError("--match plays whole games from the start; leave out --position")
    if vs is None and seats is None:
        raise InvalidOptionError("--match plays against the computer (--vs) or watches two computers (--seats)")
    return points


def _save_target(path: str | None, position_id: str | None) -> str | None:
    """``--save``'s path, checked before the game is played."""
    if path is None:
        return None
    if position_id is not None:
        raise InvalidOptionError("--save writes a match file, whose games start from the start position; "
                                 "leave out --position")
    return as_output_file(path, [".mat"], "--save")


def _save(game: Game | Match, path: str | None, players: tuple[str, str], length: int = 0) -> None:
    if path is None:
        return
    text = write_match(game, players=players, match_length=length)

    def write(temporary: str) -> None:
        with open(temporary, "w", encoding="utf-8") as stream:
            stream.write(text)

    write_atomically(path, write)
    print(f"Saved to {path} ('bansugoroku match show {path}' shows it).")


def final_board(game: Game, seat: int) -> str:
    """The board of a finished game seen by ``seat`` (X), nobody to move."""
    return render.board(game.position_for(seat).rows, to_move=False)


def _dice(seed: int, dice: str | None) -> random.Random | ScriptedDice:
    """The dice of ``--seed``, or of ``--dice``."""
    return random.Random(seed) if dice is None else _scripted(dice)


def _new_game(rules: Rules, seed: int, position_id: str | None, dice: str | None) -> Game:
    source = _dice(seed, dice)
    if position_id is None:
        return Game(rules, source)
    return Game.from_position(position_arg(position_id), rules, source)


def _scripted(text: str) -> ScriptedDice:
    """``'6-5 3-1'`` as dice to roll in that order (die by die)."""
    values = [die for roll in text.replace(",", " ").split() for die in as_dice(roll)]
    if not values:
        raise InvalidDiceError(f"--dice needs rolls such as '6-5 3-1', got {text!r}")
    return ScriptedDice(values)


def _seat_policies(text: str, rules: Rules) -> list[str]:
    policies = [name.strip() for name in text.split(",")]
    if len(policies) != 2:
        raise InvalidPolicyError(
            f"--seats names two policies, seat 0's and seat 1's (e.g. heuristic,random), got {text!r}"
        )
    for policy in policies:
        check_policy(policy, rules)
    return policies


# --- describing the game ----------------------------------------------------------------


def _describe_start(game: Game) -> str:
    if not game.opening_rolls:
        return f"Seat {game.starter} starts."
    rolls = "; ".join(f"seat 0 rolls {a}, seat 1 rolls {b}" for a, b in game.opening_rolls)
    how = "plays those two dice" if game.rules.is_backgammon else "rolls both dice afresh"
    return f"Roll-off: {rolls}. Seat {game.starter} starts and {how}."


def _record_text(record: TurnRecord | CubeRecord, name: Callable[[int], str]) -> str:
    """One line of the game's history, with the seats named (``"You"`` takes
    the verbs without their s)."""
    who = name(record.seat)

    def does(verb: str) -> str:
        return f"{who} {verb if who == 'You' else verb + 's'}"

    if isinstance(record, CubeRecord):
        if record.action == "double":
            return f"{does('double')} to {record.cube * 2}."
        if record.action == "take":
            return f"{does('take')}: the cube is at {record.cube}, owned by {who.lower()}."
        return f"{does('drop')} the double."
    played = str(record.play) if record.play is not None else "no legal play, the turn passes"
    return f"{record.number:3d}. {does('roll')} {dice_text(record.dice)}: {played}"


def _print_random_game(rules: Rules, seed: int, save: str | None = None) -> int:
    """One random game (no cube), its moves and its result."""
    game = Game(rules, seed)
    for seat in (0, 1):
        game.hand_over(seat, Computer("random", cube=None, rng=random.Random(seed * 2 + seat)))
    game.advance()
    print(f"A random game, {rules_name(rules)} rules, seed {seed}")
    print(_describe_start(game))
    for record in game.history:
        print(record)
    print()
    print(f"Final position, seen by seat {game.seat_to_move} (X), who moved last:")
    print(final_board(game, game.seat_to_move))
    print()
    print(f"Result: {game.result}.")
    _save(game, save, ("seat 0 (random)", "seat 1 (random)"))
    return 0


def _watch(game: Game, seed: int) -> int:
    """Two computers play; print every action, the final board and the result."""
    names = {seat: f"seat {seat} ({game.computers[seat].policy})" for seat in (0, 1)}
    print(f"{names[0]} against {names[1]}, {rules_name(game.rules)} rules, seed {seed}")
    print(_describe_start(game))
    game.advance()
    for record in game.history:
        print(_record_text(record, names.__getitem__))
    print()
    print(f"Final position, seen by seat {game.seat_to_move} (X):")
    print(final_board(game, game.seat_to_move) if game.is_over else game.position)
    print()
    print(f"Result: {game.result}." if game.is_over else "The game has not ended.")
    return 0


def _score_line(match: Match, game: Game, name: Callable[[int], str]) -> str:
    """Before a game of a match: its number and the score (and the Crawford game)."""
    score = match.scores
    crawford = " The Crawford game: no doubling." if game.match is not None and game.match.crawford else ""
    return (f"Game {len(match.games)} of a {match.length}-point match: {name(0)} {score[0]}, "
            f"{name(1)} {score[1]}.{crawford}")


def _match_result(match: Match, name: Callable[[int], str]) -> str:
    winner = match.winner
    assert winner is not None
    verb = "win" if name(winner) == "You" else "wins"
    return f"{name(winner)} {verb} the match, {match.scores[winner]}-{match.scores[1 - winner]}."


def _watch_match(match: Match, computers: list[Computer], seed: int) -> int:
    """Two computers play a match; print each game's actions and result, and the match's."""
    names = {seat: f"seat {seat} ({computers[seat].policy})" for seat in (0, 1)}
    print(f"{names[0]} against {names[1]}, a {match.length}-point match, {rules_name(match.rules)} rules, "
          f"seed {seed}")
    while not match.is_over:
        game = match.new_game()
        for seat in (0, 1):
            game.hand_over(seat, computers[seat])
        print()
        print(_score_line(match, game, names.__getitem__))
        print(_describe_start(game))
        game.advance()
        for record in game.history:
            print(_record_text(record, names.__getitem__))
        print(f"Result: {game.result}.")
    print()
    print(_match_result(match, names.__getitem__))
    return 0


# --- a person against the computer --------------------------------------------------------


class _Quit(Exception):
    """The person typed ``quit`` (or the input ended)."""


class TerminalGame:
    """A person (``seat``) against ``computer``, reading lines with ``read``
    (``input``) and printing to standard output."""

    def __init__(self, game: Game, seat: int, computer: Computer, read: Callable[[str], str]) -> None:
        self.game = game
        self.seat = seat
        self.computer = computer
        self.read = read
        self.shown = 0  # history records already printed
        self.drawn = -1  # the history's length when the board was last drawn
        self.stopped = False  # the person typed quit
        self.left = False  # the person gave the seat to the computer
        game.hand_over(1 - seat, computer)

    def name(self, seat: int) -> str:
        return "You" if seat == self.seat else "The computer"

    def run(self) -> int:
        game = self.game
        print(f"You (seat {self.seat}, X on the board) against the computer ({self.computer.policy}), "
              f"{rules_name(game.rules)} rules. Type 'help' for the commands.")
        print(_describe_start(game))
        try:
            while not game.is_over:
                game.advance()
                self.show_news()
                if not game.is_over:
                    self.decide()
        except _Quit:
            print("Game stopped before its end.")
            self.stopped = True
            return 0
        self.show_news()
        print()
        print(final_board(game, self.seat))
        result = game.result
        assert result is not None
        print(f"{self.name(result.winner)} win{'' if result.winner == self.seat else 's'} "
              f"{result.points} point{'s' if result.points != 1 else ''}: {result}.")
        return 0

    def show_news(self) -> None:
        for record in self.game.history[self.shown:]:
            print(_record_text(record, self.name))
        self.shown = len(self.game.history)

    def draw(self, again: bool = False) -> None:
        """The board seen by the person, unless nothing changed since it
        was last drawn (``again`` draws it anyway)."""
        game = self.game
        if len(game.history) == self.drawn and not again:
            return
        self.drawn = len(game.history)
        print()
        print(game.position_for(self.seat))
        if game.rules.is_backgammon:
            owner = game.cube_owner
            where = "in the middle" if owner is None else f"owned by {self.name(owner).lower()}"
            print(f"Cube: {game.cube}, {where}")

    def ask(self, prompt: str, empty: str | None = None) -> str:
        """The next command; ``help``, ``board`` and ``quit`` are handled
        here, an empty line is ``empty`` (skipped if None)."""
        while True:
            try:
                line = self.read(prompt).strip()
            except EOFError:
                raise _Quit from None
            command = line.lower()
            if command == "quit":
                raise _Quit
            if command == "help":
                print(HELP)
            elif command == "board":
                self.draw(again=True)
            elif command or empty is not None:
                return line or str(empty)

    def decide(self) -> None:
        """The person's next decision: answer a double, roll or double, or
        play the roll."""
        game = self.game
        if game.double_offered_by is not None:
            self.answer_double()
        elif game.dice is None and game.can_double:
            self.roll_or_double()
        else:
            if game.dice is None:
                game.roll()
            self.show_news()  # a pass
            if game.dice is not None and game.seat_to_move == self.seat:
                self.play_roll()

    def answer_double(self) -> None:
        game = self.game
        self.draw()
        print(f"The computer doubles to {game.cube * 2}. Take (play on for {game.cube * 2}) "
              f"or drop (lose {game.cube} now)?")
        self.pick("take or drop> ", {"take": game.take, "drop": game.drop})

    def roll_or_double(self) -> None:
        self.draw()
        self.pick("roll (Enter) or double> ", {"roll": self.game.roll, "double": self.double}, empty="roll")

    def double(self) -> None:
        self.game.offer_double()
        self.show_news()

    def pick(self, prompt: str, actions: dict[str, Callable[[], object]], empty: str | None = None) -> None:
        """Ask until the person types one of ``actions`` (or ``leave``), then do it."""
        actions = {**actions, "leave": self.leave}
        while True:
            command = self.ask(prompt, empty).lower()
            if command in actions:
                actions[command]()
                return
            print(f"{command!r} is not possible now: type {' or '.join(map(repr, actions))} (or 'help').")

    def play_roll(self) -> None:
        game = self.game
        self.draw()
        turn = game.start_turn()
        print(f"You rolled {dice_text(turn.dice)}. Your move:")
        while not turn.is_complete:
            line = self.ask(f"{self.dice_left(turn)}> ")
            command = line.lower()
            if command == "undo":
                turn.undo()
                print("Back to the start of the turn.")
            elif command == "moves":
                print("Legal plays: " + ", ".join(str(play) for play in game.legal_plays()))
            elif command == "leave":
                self.leave()
                return
            elif command in ("roll", "double", "take", "drop"):
                print(f"{command!r} is not possible now: play your {dice_text(turn.dice)} (or 'help').")
            else:
                self.try_moves(turn, line)
        game.play(turn)

    @staticmethod
    def dice_left(turn: Turn) -> str:
        return "dice " + " ".join(str(die) for die in turn.dice_left)

    def try_moves(self, turn: Turn, line: str) -> None:
        try:
            turn.play(line)
        except ValueError as error:
            print(f"Not possible: {error}. Try again ('moves' lists the legal plays, 'help' the commands).")
            return
        if not turn.is_complete and turn.steps:
            print("So far: " + " ".join(str(step) for step in turn.steps))

    def leave(self) -> None:
        """The person leaves: the computer takes the seat and plays on."""
        print("You leave; the computer takes your seat and plays the game to its end.")
        self.left = True
        self.game.hand_over(self.seat, Computer(self.computer.policy, self.computer.cube, self.computer.rng))


class TerminalMatch:
    """A person (``seat``) against ``computer`` in a match: one
    :class:`TerminalGame` per game, the score shown before each; ``quit``
    stops the match, ``leave`` gives the rest of it to the computer."""

    def __init__(self, match: Match, seat: int, computer: Computer, read: Callable[[str], str]) -> None:
        self.match, self.seat, self.computer, self.read = match, seat, computer, read

    def name(self, seat: int) -> str:
        return "You" if seat == self.seat else "The computer"

    def run(self) -> int:
        match = self.match
        print(f"A {match.length}-point match against the computer ({self.computer.policy}).")
        while not match.is_over:
            game = match.new_game()
            print()
            print(_score_line(match, game, lambda seat: self.name(seat).lower()))
            terminal = TerminalGame(game, self.seat, self.computer, self.read)
            terminal.run()
            if terminal.stopped:
                print(f"Match stopped at {match.scores[0]}-{match.scores[1]}.")
                return 0
            if terminal.left:
                self._computers_finish()
        print()
        print(_match_result(match, self.name))
        return 0

    def _computers_finish(self) -> None:
        """The person left: the computer plays both seats to the match's end."""
        while not self.match.is_over:
            game = self.match.new_game()
            for seat in (0, 1):
                game.hand_over(seat, Computer(self.computer.policy, self.computer.cube, self.computer.rng))
            game.advance()
            print(f"Game {len(self.match.games)}: {game.result}.")
