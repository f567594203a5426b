"""Time other engines' legal-move listing on our backgammon corpus, in the
same run as ours, and check that they reach the same sets of positions.

Peers (installed by hand, never by this script: ``pip install -e '.[peers]'``):

* **gnubg-nn** (GNU Backgammon's engine): ``gnubg_nn.moves(board, d1, d2)``
  lists the distinct resulting positions as position keys. Its board is
  ``anBoard[2][25]``: ``board[1]`` the side on roll, ``board[0]`` the other,
  each in its own numbering, index ``i`` = point ``i + 1``, 24 = bar,
  borne-off stones implied. The keys decode (``board_from_position_key``)
  to the same layout, the side that moved still second.
* **bgsage** (Open Sage): ``bgsage.possible_moves(board, d1, d2)`` lists the
  resulting boards. Its board is 26 signed ints from the mover's view:
  ``[0]`` = opponent's bar, ``[1..24]`` the mover's points (> 0 mover,
  < 0 opponent), ``[25]`` = mover's bar.
* **OpenSpiel** (``pyspiel.load_game("backgammon")``): no way to set a
  position, so each corpus game is replayed in its own state: chance action
  = our roll, then every legal action is applied (and, for a double, every
  legal action of the second half of the turn) and the resulting boards
  (``board(player, point)``, bar = ``board(player, 100)``) are compared with
  ours; the game goes on with the action reaching our chosen play. Its
  timing is ``state.legal_actions()`` at each decision: checker-move pairs,
  not deduplicated, and for a double only the first half of the turn.

Every peer also must give 447 plays over the 21 rolls from the start
(``self_check``), which pins the board conversion down.
"""
from __future__ import annotations

import argparse
import dataclasses
import importlib
import importlib.metadata
import re
from datetime import date

import numpy as np

from bansugoroku_fast import Rules, batch, moves, oracle
from bansugoroku_fast.position import INITIAL_ROW, Position

from . import corpus as corpus_module
from . import engines, timing

BACKGAMMON = Rules(variant="backgammon")
STONES = 15
START_TOTAL = 447  # distinct plays over the 21 rolls from the start
CHUNK = 10_000  # items whose sets are held at once when comparing


def keys_of(arrays: np.ndarray) -> set[bytes]:
    """The 52-byte keys of ``int8[k, 2, 26]`` positions, as a set."""
    flat = np.ascontiguousarray(arrays, dtype=np.int8).reshape(-1, 52)
    return {row.tobytes() for row in flat}


def _rows_with_off(mover_and_bar: np.ndarray) -> np.ndarray:
    """``int8[k, 26]`` rows from ``[k, 25]`` (points 1..24 then bar): index 0
    gets the stones borne off (15 minus the rest)."""
    rows = np.zeros((len(mover_and_bar), 26), dtype=np.int8)
    rows[:, 1:26] = mover_and_bar
    rows[:, 0] = STONES - rows[:, 1:26].sum(axis=1)
    return rows


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "?"


# --- peers with a listing function ---------------------------------------------


class Engine:
    """A peer engine: its names, and loading it only if it imports."""

    name = ""
    distribution = ""  # the PyPI name
    call = ""  # the timed call, for the table

    @classmethod
    def load(cls):
        """``(peer, None)`` when importable, else ``(None, why not)``."""
        try:
            return cls(), None
        except Exception as error:  # ImportError, or a broken binary
            return None, f"{type(error).__name__}: {error}"

    @property
    def version(self) -> str:
        return _version(self.distribution)


class Peer(Engine):
    """A peer engine that lists the positions a (position, roll) leads to."""

    module = ""

    def __init__(self):
        self.lib = importlib.import_module(self.module)

    def board(self, position: np.ndarray):
        """The peer's board for our ``int8[2, 26]`` position."""
        raise NotImplementedError

    def listing(self, board, a: int, b: int):
        """The peer's own listing call (this is what is timed)."""
        raise NotImplementedError

    def positions(self, listed) -> np.ndarray:
        """The listed results as our ``int8[k, 2, 26]`` positions (mover = row 0)."""
        raise NotImplementedError

    def resulting_keys(self, position: np.ndarray, a: int, b: int) -> set[bytes]:
        return keys_of(self.positions(self.listing(self.board(position), a, b)))


class GnubgNN(Peer):
    name = "gnubg-nn"
    distribution = "gnubg-nn"
    module = "gnubg_nn"
    call = "gnubg_nn.moves(board, d1, d2)"

    def board(self, position):
        mover, other = position.tolist()
        return [other[1:26], mover[1:26]]

    def listing(self, board, a, b):
        return self.lib.moves(board, a, b)

    def positions(self, listed):
        if not listed:
            return np.zeros((0, 2, 26), dtype=np.int8)
        boards = np.array([self.lib.board_from_position_key(key) for key in listed], dtype=np.int8)
        mover, other = _rows_with_off(boards[:, 1]), _rows_with_off(boards[:, 0])
        return np.stack([mover, other], axis=1)


class Bgsage(Peer):
    name = "bgsage"
    distribution = "bgsage"
    module = "bgsage"
    call = "bgsage.possible_moves(board, d1, d2)"

    def board(self, position):
        mover, other = position.astype(np.int16)
        signed = np.zeros(26, dtype=np.int16)
        signed[1:25] = mover[1:25] - other[24:0:-1]
        signed[25], signed[0] = mover[25], other[25]
        return signed.tolist()

    def listing(self, board, a, b):
        return self.lib.possible_moves(board, a, b)

    def positions(self, listed):
        boards = np.array(listed, dtype=np.int16).reshape(-1, 26)
        mover = np.zeros((len(boards), 25), dtype=np.int16)
        other = np.zeros((len(boards), 25), dtype=np.int16)
        mover[:, 0:24] = np.maximum(boards[:, 1:25], 0)
        other[:, 0:24] = np.maximum(-boards[:, 24:0:-1], 0)  # its point q = our 25 - q
        mover[:, 24], other[:, 24] = boards[:, 25], boards[:, 0]
        return np.stack([_rows_with_off(mover), _rows_with_off(other)], axis=1)


LISTING_PEERS = (GnubgNN, Bgsage)


def self_check(peer: Peer) -> int:
    """Distinct plays over the 21 rolls from the start (must be 447)."""
    start = np.array([INITIAL_ROW, INITIAL_ROW], dtype=np.int8)
    return sum(len(peer.resulting_keys(start, a, b)) for a, b in oracle.ALL_ROLLS)


# --- agreement -------------------------------------------------------------------


@dataclasses.dataclass
class Mismatch:
    """One item where a peer and we reach different sets of positions."""

    position: np.ndarray
    dice: tuple[int, int]
    ours: set[bytes]
    theirs: set[bytes]

    def describe(self) -> str:
        """Position id, roll, counts, and the plays on each side only."""
        position = Position._trusted(self.position)
        ours_only = self.ours - self.theirs
        named = {
            play.position.key: str(play)
            for play in oracle.legal_plays(position, self.dice, BACKGAMMON)
        }
        ours_text = ", ".join(sorted(named.get(key, "?") for key in ours_only)) or "-"
        theirs_only = [Position._from_key(key).id for key in sorted(self.theirs - self.ours)]
        return (
            f"{position.id} {self.dice[0]}-{self.dice[1]}: ours {len(self.ours)}, "
            f"theirs {len(self.theirs)}; ours only: {ours_text}; "
            f"theirs only (position ids after): {', '.join(theirs_only) or '-'}"
        )


@dataclasses.dataclass
class Agreement:
    """How a peer's sets compare with ours over some items."""

    items: int = 0
    mismatches: list[Mismatch] = dataclasses.field(default_factory=list)
    passes_as_unchanged: int = 0  # a pass listed as one "play" to the same position
    note: str = ""

    def check(self, position: np.ndarray, dice, ours: set[bytes], theirs: set[bytes]) -> None:
        """Count one item; a pass the peer lists as the position unchanged
        (no legal play leaves the board as it was) counts as a pass."""
        self.items += 1
        unchanged = position.tobytes()
        if unchanged in theirs:
            theirs = theirs - {unchanged}
            self.passes_as_unchanged += 1
        if theirs != ours:
            self.mismatches.append(Mismatch(position.copy(), dice, ours, theirs))

    def notes(self) -> str:
        parts = [self.note] if self.note else []
        if self.passes_as_unchanged:
            parts.append(f"{self.passes_as_unchanged:,} passes listed as the unchanged position "
                         "(counted as passes)")
        return "; ".join(parts)

    @property
    def agreed(self) -> int:
        return self.items - len(self.mismatches)


def our_keys(positions: np.ndarray, dice: np.ndarray) -> list[set[bytes]]:
    """Per item, the keys of the positions our batch engine lists."""
    offsets, children = engines.children_of(positions, dice, BACKGAMMON)
    return [keys_of(children[offsets[i]:offsets[i + 1]]) for i in range(len(positions))]


def compare_listing(peer: Peer, sample: corpus_module.Corpus, progress=None) -> Agreement:
    """Compare ``peer``'s sets with ours on every item of ``sample``."""
    agreement = Agreement()
    for start in range(0, len(sample), CHUNK):
        chunk = sample.take(np.arange(start, min(start + CHUNK, len(sample))))
        ours = our_keys(chunk.positions, chunk.dice)
        for position, roll, our_set in zip(chunk.positions, chunk.dice, ours):
            a, b = int(roll[0]), int(roll[1])
            agreement.check(position, (a, b), our_set, peer.resulting_keys(position, a, b))
        if progress is not None:
            progress(agreement.items)
    return agreement


# --- OpenSpiel: replaying corpus games ---------------------------------------------

OPENSPIEL_BAR = 100  # BackgammonState.board(player, 100) is that player's bar
X_PLAYER = 0


class OpenSpiel(Engine):
    """OpenSpiel's backgammon, driven by replaying corpus games."""

    name = "open-spiel"
    distribution = "open-spiel"
    call = "state.legal_actions() (first half of a double; pairs, not deduplicated)"

    def __init__(self):
        self.pyspiel = importlib.import_module("pyspiel")
        self.game = self.pyspiel.load_game("backgammon", {"max_player_turns": 100_000})

    @staticmethod
    def row(state, player: int) -> list[int]:
        """One player's row in our layout: X's point p is its index 24 - p,
        O's point p its index p - 1."""
        if player == X_PLAYER:
            points = [state.board(player, 24 - point) for point in range(1, 25)]
        else:
            points = [state.board(player, point - 1) for point in range(1, 25)]
        bar = state.board(player, OPENSPIEL_BAR)
        return [STONES - sum(points) - bar] + points + [bar]

    def position(self, state, mover: int) -> bytes:
        """The key of ``state`` in our layout, ``mover`` as row 0."""
        rows = np.array([self.row(state, mover), self.row(state, 1 - mover)], dtype=np.int8)
        return rows.tobytes()

    @staticmethod
    def roll_of(state, action: int) -> tuple[int, int]:
        digits = re.search(r"roll: (\d)(\d)", state.action_to_string(action))
        return int(digits[1]), int(digits[2])

    def chance_action(self, state, dice) -> int:
        """The chance outcome that rolls ``dice`` (either order)."""
        wanted = sorted(dice)
        for action, _ in state.chance_outcomes():
            if sorted(self.roll_of(state, action)) == wanted:
                return action
        raise LookupError(f"no chance outcome rolls {dice}")

    def results(self, state, mover: int) -> dict[bytes, int]:
        """``{resulting position key: first action}`` over the whole turn
        (both halves of a double)."""
        found: dict[bytes, int] = {}
        for action in state.legal_actions():
            child = state.child(action)
            if not child.is_terminal() and not child.is_chance_node() and child.current_player() == mover:
                keys = self.results(child, mover)
            else:
                keys = {self.position(child, mover): action}
            for key in keys:
                found.setdefault(key, action)
        return found

    def play_to(self, state, mover: int, target: bytes) -> None:
        """Apply to ``state`` the actions of the turn that reach ``target``."""
        for action in state.legal_actions():
            child = state.child(action)
            if not child.is_terminal() and not child.is_chance_node() and child.current_player() == mover:
                if target in self.results(child, mover):
                    state.apply_action(action)
                    return self.play_to(state, mover, target)
            elif self.position(child, mover) == target:
                state.apply_action(action)
                return None
        raise LookupError("OpenSpiel has no action reaching our chosen play")


def replay_openspiel(peer: OpenSpiel, sample: corpus_module.Corpus, max_items: int, progress=None):
    """Replay the games of ``sample`` (in game order) in OpenSpiel over at
    most ``max_items`` items; return ``(agreement, decision states, the
    replayed items as a corpus)``."""
    ordered = sample.in_game_order()
    ours = our_keys(ordered.positions, ordered.dice)
    agreement, decisions, replayed = Agreement(), [], []
    state, broken_game, desynced, cut_short = None, None, 0, 0
    for index in range(len(ordered)):
        if agreement.items >= max_items:
            break
        game, ply = int(ordered.game[index]), int(ordered.ply[index])
        if game == broken_game:
            continue
        if ply == 0:
            state = peer.game.new_initial_state()
        dice = (int(ordered.dice[index][0]), int(ordered.dice[index][1]))
        state.apply_action(peer.chance_action(state, dice))
        mover = state.current_player()
        if peer.position(state, mover) != ordered.positions[index].tobytes():
            desynced, broken_game = desynced + 1, game
            continue
        decisions.append(state.clone())
        replayed.append(index)
        agreement.check(ordered.positions[index], dice, ours[index], set(peer.results(state, mover)))
        try:
            peer.play_to(state, mover, ordered.after[index].tobytes())
        except LookupError:
            cut_short, broken_game = cut_short + 1, game
        if progress is not None and agreement.items % 500 == 0:
            progress(agreement.items)
    items = ordered.take(np.array(replayed, dtype=np.int64))
    agreement.note = f"{len(np.unique(items.game))} games replayed"
    if desynced or cut_short:
        agreement.note += (f" ({desynced} left after a position differed, {cut_short} after "
                           "OpenSpiel could not play our chosen play)")
    return agreement, decisions, items


# --- timing and report ------------------------------------------------------------


@dataclasses.dataclass
class PeerResult:
    name: str
    version: str
    call: str
    ns_peer: float | None = None
    ns_ours_single: float | None = None
    ns_ours_batch: float | None = None
    timed_items: int = 0
    agreement: Agreement | None = None
    problem: str = ""


def time_listing(peer: Peer, sample: corpus_module.Corpus, repeats: int) -> dict[str, float]:
    """ns per item: the peer's listing, our single call and our batch generate,
    interleaved on the same items."""
    boards = [(peer.board(position), int(roll[0]), int(roll[1]))
              for position, roll in zip(sample.positions, sample.dice)]
    measures = {"peer": (timing.loop_over(peer.listing, boards), len(sample))}
    measures.update(our_measures(sample))
    return timing.interleaved_medians(measures, repeats=repeats)


def our_measures(sample: corpus_module.Corpus) -> dict:
    """Our single call and batch generate (one thread) over ``sample``, as
    timing measures."""
    items = [(position, roll, BACKGAMMON) for position, roll in sample.items()]
    return {
        "ours_single": (timing.loop_over(moves.legal_plays, items), len(sample)),
        "ours_batch": (
            lambda: batch.generate_plays(sample.positions, sample.dice, BACKGAMMON, threads=1),
            len(sample),
        ),
    }


def time_openspiel(decisions, items: corpus_module.Corpus, repeats: int) -> dict[str, float]:
    """ns per item: ``state.legal_actions()`` at each decision, and ours on
    the same items, interleaved."""
    states = [(state,) for state in decisions]
    measures = {"peer": (timing.loop_over(lambda state: state.legal_actions(), states), len(states))}
    measures.update(our_measures(items))
    return timing.interleaved_medians(measures, repeats=repeats)


def run_listing_peer(peer_class, bg_corpus, *, timed_items, checked_items, repeats, say=print):
    peer, problem = peer_class.load()
    if peer is None:
        return PeerResult(peer_class.name, _version(peer_class.distribution), peer_class.call, problem=problem)
    result = PeerResult(peer.name, peer.version, peer.call)
    start_total = self_check(peer)
    if start_total != START_TOTAL:
        result.problem = f"start position: {start_total} plays over 21 rolls, not {START_TOTAL}"
    sample = bg_corpus.head(timed_items)
    say(f"{peer.name}: timing on {len(sample):,} items")
    figures = time_listing(peer, sample, repeats)
    result.timed_items = len(sample)
    result.ns_peer = figures["peer"]
    result.ns_ours_single = figures.get("ours_single")
    result.ns_ours_batch = figures.get("ours_batch")
    say(f"{peer.name}: comparing sets on {min(checked_items, len(bg_corpus)):,} items")
    result.agreement = compare_listing(peer, bg_corpus.head(checked_items))
    return result


def run_openspiel(bg_corpus, *, checked_items, repeats, say=print):
    peer, problem = OpenSpiel.load()
    if peer is None:
        return PeerResult(OpenSpiel.name, _version(OpenSpiel.distribution), OpenSpiel.call, problem=problem)
    result = PeerResult(peer.name, peer.version, peer.call)
    say(f"open-spiel: replaying games for {checked_items:,} items")
    agreement, decisions, items = replay_openspiel(peer, bg_corpus, checked_items)
    result.agreement = agreement
    if decisions:
        figures = time_openspiel(decisions, items, repeats)
        result.ns_peer = figures["peer"]
        result.ns_ours_single = figures.get("ours_single")
        result.ns_ours_batch = figures.get("ours_batch")
        result.timed_items = len(decisions)
    return result


def run_peers(bg_corpus, *, timed_items=20_000, checked_items=None, openspiel_items=10_000,
              repeats=5, say=print) -> list[PeerResult]:
    """Every peer: timing and agreement on ``bg_corpus`` (a backgammon corpus)."""
    checked_items = len(bg_corpus) if checked_items is None else checked_items
    results = [
        run_listing_peer(peer_class, bg_corpus, timed_items=timed_items,
                         checked_items=checked_items, repeats=repeats, say=say)
        for peer_class in LISTING_PEERS
    ]
    results.append(run_openspiel(bg_corpus, checked_items=openspiel_items, repeats=repeats, say=say))
    return results


def _ns(value) -> str:
    return "n/a" if value is None else f"{value:,.0f}"


def _ratio(numerator, denominator) -> str:
    if numerator is None or denominator is None or denominator == 0:
        return "n/a"
    return f"{numerator / denominator:.2f}x"


def markdown(results: list[PeerResult], examples: int = 3) -> str:
    """The per-peer timing table, then the agreement table and examples."""
    lines = [
        "| peer (version) | their listing, ns | ours single call, ns | ours batch generate (1 thread), ns "
        "| theirs / ours single (> 1: ours faster) | theirs / ours batch | items timed |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r.name} {r.version} | {_ns(r.ns_peer)} | {_ns(r.ns_ours_single)} | {_ns(r.ns_ours_batch)} "
            f"| {_ratio(r.ns_peer, r.ns_ours_single)} | {_ratio(r.ns_peer, r.ns_ours_batch)} "
            f"| {r.timed_items:,} |"
        )
    lines += ["", "| peer | timed call | items compared | same set | mismatches | note |",
              "|---|---|---:|---:|---:|---|"]
    for r in results:
        a = r.agreement
        compared = f"{a.items:,}" if a else "0"
        agreed = f"{a.agreed:,}" if a else "-"
        mismatched = f"{len(a.mismatches):,}" if a else "-"
        note = "; ".join(part for part in (r.problem, a.notes() if a else "") if part)
        lines.append(f"| {r.name} | `{r.call}` | {compared} | {agreed} | {mismatched} | {note} |")
    for r in results:
        if r.agreement and r.agreement.mismatches:
            lines += ["", f"{r.name}, first mismatches:", ""]
            lines += [f"- {m.describe()}" for m in r.agreement.mismatches[:examples]]
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description="Time and check peer engines on the backgammon corpus.")
    parser.add_argument("--size", type=int, default=None, help="corpus size (default: by engine)")
    parser.add_argument("--seed", type=int, default=corpus_module.DEFAULT_SEED)
    parser.add_argument("--timed-items", type=int, default=20_000)
    parser.add_argument("--checked-items", type=int, default=None, help="default: the whole corpus")
    parser.add_argument("--openspiel-items", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--examples", type=int, default=3, help="mismatches shown per peer")
    args = parser.parse_args(argv)
    bg_corpus = corpus_module.load_corpus(BACKGAMMON, args.size, args.seed)
    print(corpus_module.summary(bg_corpus))
    results = run_peers(bg_corpus, timed_items=args.timed_items, checked_items=args.checked_items,
                        openspiel_items=args.openspiel_items, repeats=args.repeats)
    print(f"\nPeers, {date.today().isoformat()}:\n")
    print(markdown(results, args.examples))


if __name__ == "__main__":
    main()
