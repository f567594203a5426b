# cython: language_level=3
"""The Python entry points of the kernels for one position: ``outcome``,
``plays``, ``count_roll_plays``, ``first_steps``, ``shots``,
``board_facts``, ``perft``.

Each converts its arguments and drives the kernels of ``_search``,
``_shortcuts`` and ``_queries``, under the contract every entry point keeps
with the Python layer (``api.py``; ``_batch.pyx`` for batches):

* A position crosses as the 52 bytes of ``Position.key`` (row me then row
  opp), rules as a rule code (0..15, ``Rules.code`` of a canonical
  ``Rules``; anything else is refused here).
* The position is copied once into memory the call owns and checked there
  (``load_item``, ``dice_status`` of ``_board.pxd``), with no separate
  validation pass.
* A problem is a :c:type:`Status` (< 0), returned instead of the result;
  the Python layer turns it into the typed error
  (``bansugoroku_fast._kernel``).
* ``fast_counts=False`` (keyword only, for tests) counts by search alone,
  without the closed forms of ``_shortcuts``.

Single calls keep the GIL (they take microseconds) and share one search
per rule code; ``plays`` returns a ``PlayRecords`` sequence
(``_play_records``) holding one byte record per play, which makes a play
object only when it is read.
"""
from libc.stdint cimport int64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.type cimport PyType_Check, PyType_IsSubtype

from ._board cimport (
    Board, KIND_BOTH_WON, KIND_NONE, POINT_BITS, RECORD_BOARD, RECORD_BYTES, RECORD_NSTEPS, RECORD_STEP_BYTES,
    RECORD_STEPS, RULE_CODES, RuleSet, STATUS_BOTH_WON, STATUS_NO_MEMORY, STATUS_OK, Scan, checked_rules,
    dice_status, home_closed, load_item, row_eq, rules_from_code, scan_board,
)
from ._play_records cimport PlayRecords
from ._queries cimport count_roll, outcome_of, perft as perft_of, shots_of
from ._search cimport Leaf, MODE_PLAYS, MODE_SEQUENCES, Search, run_turn, search_free, search_new

cdef extern from "bsf_build.h":
    int BSF_BUILT_FOR_AVX2

cdef extern from "bsf_single.h":
    object new_object "bsf_new_object"(object cls)

#: The instructions this build uses beyond the architecture's baseline:
#: ``"avx2"`` (AVX2, BMI1/2 and POPCNT: a ``BANSUGOROKU_NATIVE=1`` build on
#: such a CPU), else ``"baseline"``.
BUILT_FOR = "avx2" if BSF_BUILT_FOR_AVX2 else "baseline"


cdef Search* _single_searches[RULE_CODES]


cdef Search* _single_search(int code, bint fast_counts) except NULL:
    cdef RuleSet rules = checked_rules(code)
    if _single_searches[code] == NULL:
        _single_searches[code] = search_new(rules, fast_counts)
        if _single_searches[code] == NULL:
            raise MemoryError()
    _single_searches[code].fast_counts = fast_counts
    return _single_searches[code]


cdef int _load(Board* board, bytes key, int code) except -100:
    """The position ``key`` copied to ``board`` and checked (for the rules
    of ``code``; for the position alone if ``code`` is -1): a Status."""
    cdef RuleSet rules = rules_from_code(1)     # bears off: refuses no borne-off stone
    if code != -1:
        rules = checked_rules(code)
    if len(key) != sizeof(Board):
        raise ValueError(f"a position key is {sizeof(Board)} bytes, got {len(key)}")
    return load_item(board, <const signed char*> <const char*> key, rules)


cdef int _load_roll(Board* board, bytes key, int code, int a, int b) except -100:
    """_load, then the dice (1..6) and the outcome: a Status, or 1 while
    the game goes on and 0 once it is over."""
    cdef int winner, value, kind
    cdef int status = _load(board, key, code)
    if status != STATUS_OK:
        return status
    status = dice_status(a, b)
    if status != STATUS_OK:
        return status
    kind = outcome_of(board, rules_from_code(code), &winner, &value)
    if kind == KIND_BOTH_WON:
        return STATUS_BOTH_WON
    return 1 if kind == KIND_NONE else 0


cdef int _single_turn(Search* s, bytes key, int code, int a, int b, int mode) except -100:
    """run_turn on the position ``key``: the number of results (0 too if the
    game is over), or a Status."""
    cdef Board board
    cdef int going_on = _load_roll(&board, key, code, a, b)
    if going_on <= 0:
        return going_on
    cdef int n = run_turn(s, &board, a, b, mode)
    return STATUS_NO_MEMORY if n < 0 else n


def outcome(bytes key, int code):
    """``(winner, value, kind code)``, ``None`` while the game goes on, or a Status."""
    cdef Board board
    cdef int winner, value
    cdef int status = _load(&board, key, code)
    if status != STATUS_OK:
        return status
    cdef int kind = outcome_of(&board, rules_from_code(code), &winner, &value)
    if kind == KIND_BOTH_WON:
        return STATUS_BOTH_WON
    if kind == KIND_NONE:
        return None
    return winner, value, kind


def plays(bytes key, int a, int b, int code, bint all_orderings, sequence_class):
    """The plays of one position as a ``sequence_class`` (a subclass of
    :class:`PlayRecords`), or a Status."""
    if not (PyType_Check(sequence_class)
            and PyType_IsSubtype(<type> sequence_class, PlayRecords)):
        raise TypeError(f"sequence_class must be a subclass of PlayRecords, got {sequence_class!r}")
    cdef Search* s = _single_search(code, True)
    cdef Py_ssize_t k
    cdef unsigned char* out
    cdef int n = _single_turn(s, key, code, a, b, MODE_SEQUENCES if all_orderings else MODE_PLAYS)
    if n < 0:
        return n
    # The records are copied out of the shared search before any Python code
    # can run (a bytes object is not tracked by the garbage collector, so
    # making it runs no finalizer): a call that re-enters (a finalizer, a
    # signal handler, another thread) may then reuse the search freely.
    cdef bytes records = PyBytes_FromStringAndSize(NULL, n * RECORD_BYTES)
    out = <unsigned char*> PyBytes_AS_STRING(records)
    for k in range(n):
        _write_record(out + k * RECORD_BYTES, &s.found.leaves[s.found.sorted_index[k]])
    cdef PlayRecords sequence = new_object(sequence_class)
    sequence.records = records
    sequence.count = n
    return sequence


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


def count_roll_plays(bytes key, int a, int b, int code, *, bint fast_counts=True):
    """Distinct plays of one position and roll (0: a pass or a finished
    game), or a Status."""
    cdef Board board
    cdef int going_on = _load_roll(&board, key, code, a, b)
    if going_on <= 0:
        return going_on
    return count_roll(_single_search(code, fast_counts), &board, a, b)


def first_steps(bytes key, int a, int b, int code):
    """Distinct ``(origin, target, die, hit)`` starting a legal sequence,
    descending, or a Status."""
    cdef Search* s = _single_search(code, True)
    cdef int k
    cdef int n = _single_turn(s, key, code, a, b, MODE_SEQUENCES)
    if n < 0:
        return n
    # Copied out before any Python object is made (which could re-enter).
    cdef signed char* steps = <signed char*> malloc(4 * n + 1)
    if steps == NULL:
        raise MemoryError()
    try:
        for k in range(n):
            leaf = &s.found.leaves[k]
            steps[4 * k], steps[4 * k + 1] = leaf.origin[0], leaf.target[0]
            steps[4 * k + 2], steps[4 * k + 3] = leaf.die[0], leaf.hit[0]
        found = {(steps[4 * k], steps[4 * k + 1], steps[4 * k + 2], bool(steps[4 * k + 3]))
                 for k in range(n)}
    finally:
        free(steps)
    return sorted(found, reverse=True)


def shots(bytes key, int code):
    """Rolls out of 36 with a hitting legal play, or a Status."""
    cdef Board board
    cdef int status = _load(&board, key, code)
    if status != STATUS_OK:
        return status
    return shots_of(_single_search(code, True), &board)


def board_facts(bytes key):
    """``(blocked, blots of row 0, blots of row 1, closures)`` of one
    position, or a Status: bit p of ``blocked`` says row 1 holds row 0's
    point p with two or more, bit p of a row's blots that the row has one
    stone on its point p, bit s of ``closures`` that side s's home is
    closed against a stone on the bar."""
    cdef Board board
    cdef Scan scan
    cdef int status = _load(&board, key, -1)
    if status != STATUS_OK:
        return status
    scan_board(&board, &scan)
    return (
        scan.opp_multi & POINT_BITS,
        row_eq(board.me, 1) & POINT_BITS,
        row_eq(board.opp, 1) & POINT_BITS,
        <int> home_closed(board.me, board.opp) | (<int> home_closed(board.opp, board.me)) << 1,
    )


def perft(bytes key, int depth, int code, int a=0, int b=0, *, bint fast_counts=True):
    """perft of one position (or, given dice ``a``, ``b``, of its plays with
    that roll, a pass counting 1), or a Status."""
    cdef Board board
    cdef RuleSet rules = checked_rules(code)
    cdef int k, levels = depth + 1
    cdef int64_t total
    cdef int status = _load(&board, key, code)
    if status != STATUS_OK:
        return status
    if depth < 0:
        raise ValueError(f"depth must be >= 0, got {depth}")
    cdef Search** searches = <Search**> malloc(levels * sizeof(Search*))
    if searches == NULL:
        raise MemoryError()
    for k in range(levels):
        searches[k] = search_new(rules, fast_counts)
    try:
        for k in range(levels):
            if searches[k] == NULL:
                raise MemoryError()
        with nogil:
            total = perft_of(searches, &board, depth, a, b)
        return total
    finally:
        for k in range(levels):
            search_free(searches[k])
        free(searches)
