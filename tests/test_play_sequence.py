"""``legal_plays`` returns a lazy sequence: it must behave
as the list of its plays (the oracle's list), make a play only when one is
read, never change once returned (whatever runs meanwhile: finalizers,
signal handlers, other threads calling ``legal_plays`` on the same shared
search), and its arguments' fast paths must give what the general checks
give, results and errors alike.
"""
from __future__ import annotations

import copy
import gc
import pickle
import signal
import sys
import threading

import numpy as np
import pytest

from bansugoroku_fast import Position, Rules, moves, oracle
from bansugoroku_fast.errors import InvalidDiceError, InvalidPositionError
from bansugoroku_fast.moves import Plays, legal_plays

from . import playouts

BACKGAMMON = Rules(variant="backgammon")
BAN = Rules()
START = Position.initial()


def values(plays) -> list[tuple]:
    """Everything a play says, for exact comparison."""
    return [(play.steps, play.dice, play.hits, play.position.key) for play in plays]


def items(rules: Rules, count: int) -> list[tuple[Position, tuple[int, int]]]:
    positions, dice = playouts.playout_items(rules, 400, seed=3)
    return [(Position(position), (int(roll[0]), int(roll[1]))) for position, roll in zip(positions[:count], dice)]


def kernel_plays_alive() -> int:
    """How many play objects the kernel sequence has made that still exist."""
    return sum(type(obj) is moves._KernelPlay for obj in gc.get_objects())


@pytest.mark.parametrize("rules", [BAN, BACKGAMMON], ids=["ban", "backgammon"])
def test_sequence_behaves_as_the_oracle_list(rules):
    for position, roll in items(rules, 60):
        lazy = legal_plays(position, roll, rules)
        eager = oracle.legal_plays(position, roll, rules)
        assert isinstance(lazy, Plays) and len(lazy) == len(eager)
        assert values(lazy) == values(eager)  # iteration
        assert values(lazy[k] for k in range(len(eager))) == values(eager)
        assert values(lazy[-k] for k in range(1, len(eager) + 1)) == values(eager[-k] for k in range(1, len(eager) + 1))
        for chosen in (slice(None), slice(1, None), slice(None, -1), slice(None, None, -1), slice(1, 100, 3),
                       slice(-3, None), slice(100, 200)):
            assert type(lazy[chosen]) is list and values(lazy[chosen]) == values(eager[chosen])
        assert values(reversed(lazy)) == values(reversed(eager))
        assert lazy == eager and eager == lazy and (lazy != eager) is False
        assert lazy == legal_plays(position, roll, rules)
        assert repr(lazy) == repr(eager) and bool(lazy) == bool(eager)
        if eager:
            middle = eager[len(eager) // 2]
            assert middle in lazy and lazy.index(middle) == eager.index(middle) and lazy.count(middle) == 1


def test_sequence_differs_from_other_plays_and_other_types():
    plays = legal_plays(START, (6, 5), BACKGAMMON)
    other = legal_plays(START, (6, 4), BACKGAMMON)
    assert plays != other and plays != list(other) and plays != tuple(plays) and plays != plays[:-1]
    assert legal_plays(START, (6, 5), BACKGAMMON, all_orderings=True) != plays  # more plays: the orders too


def test_len_makes_no_play_and_reading_makes_one_each_time():
    plays = legal_plays(START, (1, 1), BACKGAMMON)
    # 42 distinct plays of 1-1 from the start (README: perft_divide at depth
    # 1), the count the oracle, written from the rules alone, finds too.
    assert len(oracle.legal_plays(START, (1, 1), BACKGAMMON)) == 42
    gc.collect()
    before = kernel_plays_alive()
    assert len(plays) == 42 and kernel_plays_alive() == before
    first = plays[0]
    assert len(plays) == 42  # unchanged by reading
    assert plays[0] == first and plays[0] is not first  # equal, made again
    kept = list(plays)
    assert len({id(play) for play in [first, *kept]}) == 43  # a play of its own each read
    assert kernel_plays_alive() >= 43


def test_plays_the_caller_holds_never_change():
    # The kernel makes a play again in place only once nothing but the
    # kernel holds it: a play kept from a loop, held across the next read,
    # or read before another call, keeps its values whatever is read later.
    expected = values(oracle.legal_plays(START, (1, 1), BACKGAMMON))
    kept = [play for index, play in enumerate(legal_plays(START, (1, 1), BACKGAMMON)) if index % 3 == 0]
    plays = iter(legal_plays(START, (1, 1), BACKGAMMON))
    previous = next(plays)
    for index, play in enumerate(plays, start=1):
        assert play is not previous and values([previous, play]) == expected[index - 1:index + 1]
        previous = play
    for position, dice in items(BACKGAMMON, 60):  # many later plays, each read and dropped
        assert values(legal_plays(position, dice, BACKGAMMON)) == values(
            oracle.legal_plays(position, dice, BACKGAMMON))
    assert values(kept) == expected[::3]
    read_early = legal_plays(START, (6, 5), BACKGAMMON)[2]
    steps = read_early.steps
    for _ in legal_plays(START, (1, 2), BACKGAMMON):
        pass
    assert read_early.steps is steps and values([read_early]) == values(
        oracle.legal_plays(START, (6, 5), BACKGAMMON))[2:3]


@pytest.mark.parametrize("index, error", [(7, IndexError), (-8, IndexError), (2**100, IndexError),
                                          (-(2**100), IndexError), ("0", TypeError), (1.0, TypeError),
                                          (None, TypeError)])
def test_bad_indices_fail_as_on_a_list(index, error):
    # Seven plays: from the start the 6 moves 24/18, 13/7 or 8/2 and the 5
    # moves 13/8 or 8/3 (24/19 and 6/1 land on the opponent's points), so
    # 24/13, 24/18 13/8, 24/18 8/3, 13/7 13/8, 13/7 8/3, 8/2 8/3 and 13/2
    # (13/7/2, 13/8/2 and 13/8 8/2 reach the same position).
    plays = legal_plays(START, (6, 5), BACKGAMMON)
    assert len(plays) == 7
    with pytest.raises(error):
        list(plays)[index]
    with pytest.raises(error):
        plays[index]


def test_numpy_and_bool_indices_work_as_on_a_list():
    plays = legal_plays(START, (6, 5), BACKGAMMON)
    eager = list(plays)
    for index in (np.int64(3), np.int8(-2), True, False):
        assert plays[index] == eager[index]


def test_sequence_is_immutable_unhashable_and_pickles_as_its_list():
    plays = legal_plays(START, (6, 5), BACKGAMMON)
    with pytest.raises(TypeError):
        plays[0] = plays[1]  # type: ignore[index]
    with pytest.raises(TypeError):
        hash(plays)
    restored = pickle.loads(pickle.dumps(plays))
    assert type(restored) is list and restored == plays
    assert values(restored) == values(plays)


def test_play_class_must_have_its_own_object_slots():
    # The kernel fills the slots _records and _index of the objects it makes
    # without setattr: a class without them is refused, and nothing changes.
    class NoSlots(moves.Play):
        pass

    class OtherSlots(moves.Play):
        __slots__ = ("_records",)
    from bansugoroku_fast import _play_records

    for wrong in (NoSlots, OtherSlots, int):
        with pytest.raises(TypeError):
            _play_records.set_play_class(wrong)
    assert values(legal_plays(START, (6, 5), BACKGAMMON)) == values(oracle.legal_plays(START, (6, 5), BACKGAMMON))


def test_play_class_slots_filled_with_none_must_be_object_slots():
    # The kernel also fills the slots a play decodes into with None, by
    # their place in the object: a name that is not a writable object slot
    # of the class or of a base, or _records / _index again, is refused,
    # and nothing changes.
    from bansugoroku_fast import _play_records

    for wrong in (("_steps", "_no_such_slot"), ("_records",), ("count",), tuple(f"_{k}" for k in range(9))):
        with pytest.raises((TypeError, ValueError)):
            _play_records.set_play_class(moves._KernelPlay, wrong)
    plays = legal_plays(START, (6, 5), BACKGAMMON)
    assert values(plays) == values(oracle.legal_plays(START, (6, 5), BACKGAMMON))


def test_a_kernel_play_decodes_once_and_copies_as_it_reads():
    # Decoded on first read and kept: the same objects on the next read;
    # a copy or a pickle made before any read reads the same values.
    plays = legal_plays(START, (6, 5), BACKGAMMON)
    expected = oracle.legal_plays(START, (6, 5), BACKGAMMON)
    unread_copy, unread_pickle = copy.copy(plays[3]), pickle.loads(pickle.dumps(plays[3]))
    play = plays[3]
    assert play.position is play.position and play.steps is play.steps
    for same in (play, unread_copy, unread_pickle):
        assert (same.steps, same.dice, same.hits, same.position) == (
            expected[3].steps, expected[3].dice, expected[3].hits, expected[3].position)


# --- nothing changes a returned sequence, whatever re-enters ------------------------------------


class CallsOnCollection:
    """Garbage in a reference cycle whose finalizer runs ``legal_plays``
    (on another item), whenever the collector happens to run."""

    calls = 0

    def __init__(self, item):
        self.item, self.cycle = item, self

    def __del__(self):
        position, roll, rules = self.item
        legal_plays(position, roll, rules)
        type(self).calls += 1


def test_finalizers_calling_legal_plays_mid_call_change_nothing():
    # A collection at nearly every allocation: the finalizers run inside
    # legal_plays (as it makes its sequence) and while we read the sequence,
    # each searching another item with the same shared search.
    cases = [(position, roll, rules) for rules in (BAN, BACKGAMMON) for position, roll in items(rules, 25)]
    expected = [values(oracle.legal_plays(*case)) for case in cases]
    thresholds = gc.get_threshold()
    CallsOnCollection.calls = 0
    gc.set_threshold(1, 1, 1)
    try:
        for k, case in enumerate(cases):
            CallsOnCollection(cases[-1 - k])
            held = legal_plays(*case)
            CallsOnCollection(cases[k - 1])
            assert values(held) == expected[k]
            assert values(held) == expected[k]  # the plays made again read the same records
    finally:
        gc.set_threshold(*thresholds)
        gc.collect()
    assert CallsOnCollection.calls > len(cases)


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs setitimer")
def test_signal_handlers_calling_legal_plays_change_nothing():
    cases = [(position, roll, BACKGAMMON) for position, roll in items(BACKGAMMON, 40)]
    expected = [values(oracle.legal_plays(*case)) for case in cases]
    handled = []

    def handler(signum, frame):
        position, roll, rules = cases[len(handled) % len(cases)]
        handled.append(len(legal_plays(position, roll, rules)))

    previous = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, 0.0002, 0.0002)
    try:
        for _ in range(20):
            for k, case in enumerate(cases):
                assert values(legal_plays(*case)) == expected[k]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert handled  # the handler did run amid the calls


def test_threads_sharing_the_search_get_their_own_results():
    cases = [(position, roll, rules) for rules in (BAN, BACKGAMMON) for position, roll in items(rules, 30)]
    expected = [values(oracle.legal_plays(*case)) for case in cases]
    held = [legal_plays(*case) for case in cases]  # held while the threads run
    failures = []
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible

    def work(offset):
        for round_ in range(5):
            for k in range(len(cases)):
                item = (k + offset + round_) % len(cases)
                if values(legal_plays(*cases[item])) != expected[item]:
                    failures.append(item)

    try:
        threads = [threading.Thread(target=work, args=(offset,)) for offset in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []
    assert [values(plays) for plays in held] == expected


# --- the fast paths give what the general checks give -------------------------------------------


class SubPosition(Position):
    __slots__ = ()


class SubRules(Rules):
    pass


class LooksLikePosition:
    """Has what a Position has (key, array) but is not one."""

    def __init__(self, position):
        self.key, self._key, self.array, self._array = position.key, position.key, position.array, position.array


def outcome_of_call(function, *args):
    try:
        return "ok", values(function(*args))
    except Exception as error:
        return "raised", type(error), str(error)


@pytest.mark.parametrize("position", [
    START, SubPosition(START.array), START.array, np.asfortranarray(START.array), START.array.astype(np.int64),
    START.array.astype(object), START.array.tolist(), START.id, LooksLikePosition(START),
    np.zeros((2, 26), dtype=np.int8), "not an id",
], ids=["position", "subclass", "array", "fortran array", "int64 array", "object array", "list", "id", "lookalike",
        "invalid", "bad id"])
@pytest.mark.parametrize("dice", [
    (6, 5), [6, 5], (np.int8(6), np.int64(5)), np.array([6, 5]), "6-5", (True, 5), (6.0, 5), (0, 5), (6, 5, 1),
    (6, 2**70), [6, "5"],
], ids=["tuple", "list", "numpy ints", "array", "text", "bool", "float", "zero", "three", "huge", "list of text"])
@pytest.mark.parametrize("rules", [BACKGAMMON, SubRules("backgammon"), "backgammon", None, "chess", 9, 2**70],
                         ids=["rules", "subclass", "label", "default", "bad label", "code", "huge code"])
def test_fast_paths_give_the_general_results_and_errors(position, dice, rules):
    # The oracle checks every argument through the general path (checks.py).
    kernel = outcome_of_call(legal_plays, position, dice, rules)
    assert kernel == outcome_of_call(oracle.legal_plays, position, dice, rules)
    if kernel[0] == "raised":
        assert issubclass(kernel[1], (ValueError, TypeError))


def test_kernel_errors_after_the_fast_paths_match_the_oracle():
    # Valid arguments that the rules refuse (a stone borne off under the
    # arrival finish, where stones never leave the board) pass the fast
    # paths and are refused by the kernel, with the general path's error.
    rows = START.array.copy()
    rows[0, 6] -= 1
    rows[0, 0] = 1
    position = Position(rows)
    kernel = outcome_of_call(legal_plays, position, (6, 5), BAN)
    assert kernel[:2] == ("raised", InvalidPositionError)
    assert kernel == outcome_of_call(oracle.legal_plays, position, (6, 5), BAN)
    with pytest.raises(InvalidDiceError):
        legal_plays(position, (6, 7), BACKGAMMON)


def test_play_positions_are_read_only_and_their_own():
    # A play's position is a view of its own 52 bytes: it cannot be written,
    # and no later call changes it.
    first = legal_plays(START, (6, 5), BACKGAMMON)[0].position
    expected = first.key
    with pytest.raises(ValueError):
        first.array[0, 6] = 0
    legal_plays(START, (1, 1), BACKGAMMON)[0].position  # noqa: B018 (reads another record)
    assert first.key == expected and first.array.tobytes() == expected
    assert first == Position(first.array.tolist())


@pytest.mark.parametrize("rules", [BACKGAMMON, BAN], ids=str)
def test_boards_are_the_plays_positions_as_one_array(rules):
    positions, dice = playouts.playout_items(rules, 300, seed=21)
    for position, roll in zip(positions, dice):
        pair = (int(roll[0]), int(roll[1]))
        found = legal_plays(position, pair, rules)
        boards = found.boards()
        assert boards.dtype == np.int8 and boards.shape == (len(found), 2, 26)
        expected = [play.position.array for play in oracle.legal_plays(position, pair, rules)]
        assert [board.tolist() for board in boards] == [array.tolist() for array in expected]
        boards[:] = 0     # a copy: the plays are unchanged
        assert [play.position.array.tolist() for play in found] == [array.tolist() for array in expected]


@pytest.mark.parametrize("rules", [BACKGAMMON, BAN], ids=str)
def test_ids_and_notations_are_each_play_s_own(rules):
    """``Plays.position_ids`` and ``Plays.notations`` (read from the records at
    once) give each play's Position ID as GNU Backgammon writes it, from
    either side, and ``str(play)``."""
    gnubg_nn = pytest.importorskip("gnubg_nn")
    positions, dice = playouts.playout_items(rules, 300, seed=23)
    for position, roll in zip(positions, dice):
        found = legal_plays(position, (int(roll[0]), int(roll[1])), rules)
        assert len(found.notations()) == len(found.position_ids()) == len(found)
        for play, notation, own_id, next_id in zip(found, found.notations(), found.position_ids(),
                                                    found.position_ids(swapped=True)):
            mover, other = play.position.tolist()
            assert own_id == gnubg_nn.position_id([other[1:26], mover[1:26]])  # the side not on roll first
            assert next_id == gnubg_nn.position_id([mover[1:26], other[1:26]])
            assert notation == str(play)
