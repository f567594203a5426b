# cython: language_level=3
"""The Python entry points of the kernels: single positions and batches.

Everything here converts arguments and drives the kernels of ``_search``,
``_shortcuts`` and ``_queries``; the Python layer (``api.py``, ``batch.py``)
has checked the arguments first.

* Single positions cross as the 52 bytes of ``Position.key`` (row me then
  row opp), rules as a rule code. Single calls keep the GIL (they take
  microseconds) and share one search per rule code. ``plays`` returns one
  object per play holding a byte record (layout: ``RECORD_OFFSETS``).
* Batches (``count_batch``, ``generate_batch``, ``outcome_batch``,
  ``shots_batch``) run without the GIL, items spread over OpenMP threads
  with a dynamic schedule, each thread with its own search. Results depend
  only on the item, never on the thread.

Why it is fast: the count pass checks each position while it is in cache,
so ``count_plays`` makes no separate validation pass; ``generate_batch``
writes each item's plays straight into the caller's arrays (the rows of
``OutputRows``), with no intermediate copy where the plays are found in
their final order.
"""
from cython.parallel cimport parallel, prange
from libc.stdint cimport int32_t, int64_t, uint8_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.object cimport PyTypeObject
from cpython.ref cimport Py_INCREF

from ._board cimport (
    Board, KIND_BOTH_WON, KIND_NONE, MAX_STEPS, OFF, PLACES, RECORD_BOARD, RECORD_BYTES,
    RECORD_NSTEPS, RECORD_STEP_BYTES, RECORD_STEPS, RULE_CODES, RuleSet, looks_valid,
    rules_from_code,
)
from ._queries cimport count_roll, outcome_of, perft as perft_of, shots_of
from ._search cimport (
    Leaf, MODE_PLAYS, MODE_SEQUENCES, OutputRows, Search, rows_slice, run_turn, search_free,
    search_new, write_row,
)

cdef extern from "Python.h":
    object PyType_GenericAlloc(PyTypeObject* type, Py_ssize_t nitems)
    int PyObject_GenericSetAttr(object obj, object name, object value) except -1

#: Byte offsets in the record of a play that ``plays`` returns: the board
#: (``board_bytes`` long), the number of steps, then per step ``step_bytes``
#: bytes (origin, target, die, hit) from ``steps`` on.
RECORD_OFFSETS = {
    "board": RECORD_BOARD, "board_bytes": sizeof(Board), "nsteps": RECORD_NSTEPS,
    "steps": RECORD_STEPS, "step_bytes": RECORD_STEP_BYTES, "bytes": RECORD_BYTES,
}

# Debugging switch: False makes the counts run the full search everywhere
# (no closed-form counts), so tests can hold the closed forms against it.
cdef bint _fast_counts = True


# --- single positions ------------------------------------------------------------

cdef Search* _single_searches[RULE_CODES]


cdef Search* _single_search(int code) except NULL:
    if _single_searches[code] == NULL:
        _single_searches[code] = search_new(rules_from_code(code), _fast_counts)
        if _single_searches[code] == NULL:
            raise MemoryError()
    _single_searches[code].fast_counts = _fast_counts
    return _single_searches[code]


cdef inline void _load(Board* board, bytes key):
    memcpy(board, <const char*> key, sizeof(Board))


cdef int _single_turn(Search* s, bytes key, int a, int b, int mode) except -2:
    """run_turn on the position ``key``: the number of results (0 too if the
    game is over), or -1 if both rows have won."""
    cdef Board board
    cdef int winner, value, n
    _load(&board, key)
    cdef int kind = outcome_of(&board, s.rules, &winner, &value)
    if kind == KIND_BOTH_WON:
        return -1
    if kind != KIND_NONE:
        return 0
    n = run_turn(s, &board, a, b, mode)
    if n < 0:
        raise MemoryError()
    return n


def set_fast_counts(bint enabled):
    """Switch the closed-form counts of ``count_plays`` on or off (tests)."""
    global _fast_counts
    _fast_counts = enabled


def outcome(bytes key, int code):
    """``(winner, value, kind code)``, ``None`` while the game goes on, or
    ``False`` if both rows have won (an invalid position)."""
    cdef Board board
    cdef int winner, value
    _load(&board, key)
    cdef int kind = outcome_of(&board, rules_from_code(code), &winner, &value)
    if kind == KIND_BOTH_WON:
        return False
    if kind == KIND_NONE:
        return None
    return winner, value, kind


def plays(bytes key, int a, int b, int code, bint all_orderings, type play_class):
    """The plays of one position as a list of ``play_class`` objects, or
    ``None`` if both rows have won (the caller raises). Each object gets a
    record (layout: ``RECORD_OFFSETS``) in its slot ``_record`` and nothing
    else: it is allocated as ``object.__new__`` would, without ``__init__``,
    which would cost more than the search."""
    cdef Search* s = _single_search(code)
    cdef int k
    cdef unsigned char* out
    cdef list result
    cdef int n = _single_turn(s, key, a, b, MODE_SEQUENCES if all_orderings else MODE_PLAYS)
    if n < 0:
        return None
    if n == 0:
        return []
    # Every record first, with no Python call that could re-enter and reuse
    # the search, then the objects.
    out = <unsigned char*> malloc(n * RECORD_BYTES)
    if out == NULL:
        raise MemoryError()
    try:
        for k in range(n):
            _write_record(out + k * RECORD_BYTES, &s.found.leaves[s.found.sorted_index[k]])
        result = PyList_New(n)
        for k in range(n):
            play = PyType_GenericAlloc(<PyTypeObject*> play_class, 0)
            PyObject_GenericSetAttr(play, "_record",
                                    PyBytes_FromStringAndSize(<char*> out + k * RECORD_BYTES, RECORD_BYTES))
            Py_INCREF(play)     # the list steals a reference
            PyList_SET_ITEM(result, k, play)
        return result
    finally:
        free(out)


cdef inline void _write_record(unsigned char* out, const Leaf* leaf) noexcept nogil:
    cdef int k
    cdef unsigned char* step
    memset(out, 0, RECORD_BYTES)
    memcpy(out + RECORD_BOARD, &leaf.board, sizeof(Board))
    out[RECORD_NSTEPS] = leaf.nsteps
    for k in range(leaf.nsteps):
        step = out + RECORD_STEPS + k * RECORD_STEP_BYTES
        step[0] = leaf.origin[k]
        step[1] = leaf.target[k]
        step[2] = leaf.die[k]
        step[3] = leaf.hit[k]


def count(bytes key, int a, int b, int code):
    """Distinct plays of one position, or -1 if both rows have won."""
    cdef Board board
    _load(&board, key)
    cdef int n = count_roll(_single_search(code), &board, a, b)
    if n == -2:
        raise MemoryError()
    return n


def first_steps(bytes key, int a, int b, int code):
    """Distinct ``(origin, target, die, hit)`` starting a legal sequence,
    descending; ``None`` if both rows have won."""
    cdef Search* s = _single_search(code)
    cdef int k
    cdef Leaf* leaf
    cdef int n = _single_turn(s, key, a, b, MODE_SEQUENCES)
    if n < 0:
        return None
    found = set()
    for k in range(n):
        leaf = &s.found.leaves[k]
        found.add((leaf.origin[0], leaf.target[0], leaf.die[0], bool(leaf.hit[0])))
    return sorted(found, reverse=True)


def shots(bytes key, int code):
    """Rolls out of 36 with a hitting legal play; -1 if both rows have won."""
    cdef Board board
    _load(&board, key)
    cdef int n = shots_of(_single_search(code), &board)
    if n == -2:
        raise MemoryError()
    return n


def perft(bytes key, int depth, int code, int a=0, int b=0):
    """perft of one position (or, given dice ``a``, ``b``, of its plays with
    that roll, a pass counting 1); -1 if both rows have won somewhere."""
    cdef Board board
    cdef RuleSet rules = rules_from_code(code)
    cdef int k, levels = depth + 1
    cdef int64_t total
    cdef Search** searches = <Search**> malloc(levels * sizeof(Search*))
    if searches == NULL:
        raise MemoryError()
    for k in range(levels):
        searches[k] = search_new(rules, _fast_counts)
    try:
        for k in range(levels):
            if searches[k] == NULL:
                raise MemoryError()
        _load(&board, key)
        with nogil:
            total = perft_of(searches, &board, depth, a, b)
        if total == -2:
            raise MemoryError()
        return total
    finally:
        for k in range(levels):
            search_free(searches[k])
        free(searches)


# --- batches ----------------------------------------------------------------------

cdef enum:
    CHUNK = 32      # items a thread takes at a time


def count_batch(const signed char[:, :, ::1] positions, const signed char[:, ::1] dice,
                int code, int threads, int32_t[::1] out):
    """``out[i]`` = distinct plays of item i; -1: both rows have won, -2: out
    of memory, -3: not a valid position, -4: stones borne off although the
    rules never bear off. Positions are checked here, item by item while
    they are in cache, so that the public count makes no separate pass; the
    caller formats the message of a bad item."""
    cdef Py_ssize_t n = positions.shape[0], i
    cdef RuleSet rules = rules_from_code(code)
    cdef bint fast_counts = _fast_counts
    cdef Search* s
    cdef const signed char* rows
    s = NULL
    with nogil, parallel(num_threads=threads):
        s = search_new(rules, fast_counts)
        for i in prange(n, schedule="dynamic", chunksize=CHUNK):
            rows = &positions[i, 0, 0]
            if not looks_valid(rows):
                out[i] = -3
            elif not rules.bears_off and (rows[OFF] or rows[PLACES + OFF]):
                out[i] = -4
            elif s == NULL:
                out[i] = -2
            else:
                out[i] = count_roll(s, <const Board*> rows, dice[i, 0], dice[i, 1])
        search_free(s)


def generate_batch(const signed char[:, :, ::1] positions, const signed char[:, ::1] dice,
                   int code, int threads, const int64_t[::1] offsets,
                   signed char[:, :, ::1] children, signed char[:, :, ::1] steps,
                   signed char[:, ::1] step_dice, uint8_t[:, ::1] hits):
    """Write the plays of item i to rows ``offsets[i]:offsets[i+1]`` of the
    outputs (as ``count_batch`` counted them), each item's plays by
    descending canonical key. Returns the number of items whose play count
    differed from the offsets (0 unless the kernels disagree)."""
    cdef Py_ssize_t n = positions.shape[0], i
    cdef RuleSet rules = rules_from_code(code)
    cdef bint fast_counts = _fast_counts
    cdef Search* s
    cdef const Board* board
    cdef int kind, found, k
    cdef Leaf* leaf
    cdef int mismatches = 0
    # Every output row (none when no item has a play: nothing is written)
    cdef OutputRows all_rows
    memset(&all_rows, 0, sizeof(OutputRows))
    if children.shape[0]:
        all_rows.children, all_rows.steps = &children[0, 0, 0], &steps[0, 0, 0]
        all_rows.dice, all_rows.hits = &step_dice[0, 0], &hits[0, 0]
        all_rows.room = children.shape[0]
    s = NULL
    with nogil, parallel(num_threads=threads):
        s = search_new(rules, fast_counts)
        for i in prange(n, schedule="dynamic", chunksize=CHUNK):
            found = 0
            if s != NULL:
                # (outcome_of's winner and value go to the thread's search)
                board = <const Board*> &positions[i, 0, 0]
                kind = outcome_of(board, rules, &s.winner, &s.value)
                if kind == KIND_NONE:
                    s.rows = rows_slice(&all_rows, offsets[i], offsets[i + 1] - offsets[i])
                    found = run_turn(s, board, dice[i, 0], dice[i, 1], MODE_PLAYS)
                    if found == s.rows.room and not s.wrote_out:
                        for k in range(found):
                            leaf = &s.found.leaves[s.found.sorted_index[k]]
                            write_row(&s.rows, k, &leaf.board, leaf.nsteps, leaf.origin, leaf.target,
                                      leaf.die, leaf.hit)
                    s.rows.children = NULL
            if found != offsets[i + 1] - offsets[i]:
                mismatches += 1
        search_free(s)
    return mismatches


def outcome_batch(const signed char[:, :, ::1] positions, int code, signed char[::1] winner,
                  signed char[::1] value, signed char[::1] kind):
    """Fill the outcome arrays (winner -1 and kind -1 while the game goes on);
    return the first item where both rows have won, or -1."""
    cdef Py_ssize_t n = positions.shape[0], i, first_bad = -1
    cdef RuleSet rules = rules_from_code(code)
    cdef int item_winner, item_value, item_kind
    with nogil:
        for i in range(n):
            item_kind = outcome_of(<const Board*> &positions[i, 0, 0], rules, &item_winner, &item_value)
            if item_kind == KIND_BOTH_WON:
                if first_bad < 0:
                    first_bad = i
                item_kind = KIND_NONE
            winner[i] = item_winner
            value[i] = item_value
            kind[i] = item_kind
    return first_bad


def shots_batch(const signed char[:, :, ::1] positions, int code, int threads, signed char[::1] out):
    """``out[i]`` = shots of item i (-1: both rows have won, -2: out of memory)."""
    cdef Py_ssize_t n = positions.shape[0], i
    cdef RuleSet rules = rules_from_code(code)
    cdef bint fast_counts = _fast_counts
    cdef Search* s
    s = NULL
    with nogil, parallel(num_threads=threads):
        s = search_new(rules, fast_counts)
        for i in prange(n, schedule="dynamic", chunksize=CHUNK):
            if s == NULL:
                out[i] = -2
            else:
                out[i] = shots_of(s, <const Board*> &positions[i, 0, 0])
        search_free(s)
