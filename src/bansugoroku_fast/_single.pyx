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
from cpython.buffer cimport PyBUF_RECORDS_RO, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.long cimport PyLong_AsLongAndOverflow
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
    if len(key) != sizeof(Board):
        raise ValueError(f"a position key is {sizeof(Board)} bytes, got {len(key)}")
    return _load_cells_roll(board, <const signed char*> <const char*> key, checked_rules(code), a, b)


cdef int _load_cells_roll(Board* board, const signed char* cells, RuleSet rules, int a, int b) noexcept:
    """The position's 52 bytes at ``cells`` copied to ``board`` and checked,
    then the dice (1..6) and the outcome: a Status, or 1 while the game
    goes on and 0 once it is over."""
    cdef int winner, value, kind
    cdef int status = load_item(board, cells, rules)
    if status != STATUS_OK:
        return status
    status = dice_status(a, b)
    if status != STATUS_OK:
        return status
    kind = outcome_of(board, rules, &winner, &value)
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
    cdef int n = _single_turn(s, key, code, a, b, MODE_SEQUENCES if all_orderings else MODE_PLAYS)
    if n < 0:
        return n
    return _sequence_of(s, n, sequence_class)


cdef PlayRecords _sequence_of(Search* s, int n, sequence_class):
    """The ``n`` results of the search ``s`` as a ``sequence_class``."""
    cdef Py_ssize_t k
    cdef unsigned char* out
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


# --- legal_plays in one call, for the common forms of its arguments ----------
#
# What ``set_quick_forms`` names: the classes whose objects ``quick_plays``
# reads itself, the rule code of ``rules=None``, the function that turns a
# label into its Rules, and the sequence class of the result.
cdef type _position_class = None, _array_class = None, _rules_class = None
cdef object _plays_class = None
cdef object _rules_of_label = None
cdef int _default_code = -1
# The Rules last read and its code (a caller passes the same Rules call after
# call), and the code of each label already read (bounded: labels come from users).
cdef object _last_rules = None
cdef int _last_code = -1
cdef dict _label_codes = {}
cdef enum:
    MOST_LABELS = 256


def set_quick_forms(type position_class, type array_class, type rules_class, object default_rules,
                    object rules_of_label, object plays_class):
    """Name what :func:`quick_plays` reads: ``position_class`` (objects whose
    ``_key`` holds the position's 52 bytes), ``array_class`` (``int8[2, 26]``
    arrays, read through the buffer protocol), ``rules_class`` (objects whose
    ``code`` is their rule code), the rules of ``rules=None``, the function
    that makes a label's Rules (raising on a bad label), and the class of
    the result (a subclass of PlayRecords). Called once, by ``moves``."""
    global _position_class, _array_class, _rules_class, _plays_class, _rules_of_label, _default_code
    global _last_rules, _last_code
    if not (PyType_Check(plays_class) and PyType_IsSubtype(<type> plays_class, PlayRecords)):
        raise TypeError(f"plays_class must be a subclass of PlayRecords, got {plays_class!r}")
    _default_code = _code_of(default_rules, rules_class)
    _position_class, _array_class, _rules_class = position_class, array_class, rules_class
    _plays_class, _rules_of_label = plays_class, rules_of_label
    _last_rules, _last_code = None, -1
    _label_codes.clear()


cdef int _code_of(object rules, type rules_class) except -2:
    """The rule code of a ``rules_class`` object (0..RULE_CODES - 1), or -1."""
    if type(rules) is not rules_class:
        return -1
    code = rules.code
    if type(code) is not int or not 0 <= code < RULE_CODES:
        return -1
    return code


cdef int _quick_code(object rules) except -2:
    """The rule code of ``rules`` in a common form (None, a Rules, a label
    read before or good now), or -1."""
    global _last_rules, _last_code
    if rules is None:
        return _default_code
    if rules is _last_rules:
        return _last_code
    cdef int code
    if type(rules) is str:
        found = _label_codes.get(rules)
        if found is not None:
            return found
        try:
            code = _code_of(_rules_of_label(rules), _rules_class)
        except ValueError:      # a bad label: the caller's checks name it
            return -1
        if code >= 0 and len(_label_codes) < MOST_LABELS:
            _label_codes[rules] = code
        return code
    code = _code_of(rules, _rules_class)
    if code >= 0:
        _last_rules, _last_code = rules, code
    return code


cdef int _quick_die(object die) noexcept:
    """A die of a common form (an int) in 1..6, or 0."""
    cdef int overflow = 0
    if type(die) is not int:
        return 0
    cdef long value = PyLong_AsLongAndOverflow(die, &overflow)
    return <int> value if overflow == 0 and 1 <= value <= 6 else 0


cdef object _quick_run(Search* s, const signed char* cells, int code, int a, int b, int mode):
    """The plays of the 52 bytes at ``cells``, or None for a Status."""
    cdef Board board
    cdef int n = _load_cells_roll(&board, cells, rules_from_code(code), a, b)
    if n > 0:
        n = run_turn(s, &board, a, b, mode)
        if n < 0:
            raise MemoryError()
    if n < 0:
        return None
    return _sequence_of(s, n, _plays_class)


def quick_plays(position, dice, rules, bint all_orderings):
    """``legal_plays(position, dice, rules, all_orderings=...)`` in one call
    when its arguments are of the common forms: a Position or a C-ordered
    ``int8[2, 26]`` array (read in place, copied before it is checked); a tuple or list of two ints in 1..6; None, a
    Rules or a label. None for any other form and for bad input (a
    position the rules do not allow, a game both sides have won): the
    caller then checks the arguments in full and raises the error that
    names the problem. The same kernels and records as :func:`plays`."""
    cdef Py_buffer view
    cdef int a, b, code
    if _plays_class is None:
        raise TypeError("no forms: call set_quick_forms first")
    if (type(dice) is tuple or type(dice) is list) and len(dice) == 2:
        a, b = _quick_die(dice[0]), _quick_die(dice[1])
    else:
        return None
    code = _quick_code(rules)
    if a == 0 or b == 0 or code < 0:
        return None
    cdef Search* s = _single_search(code, True)
    cdef int mode = MODE_SEQUENCES if all_orderings else MODE_PLAYS
    if type(position) is _position_class:
        key = position._key
        if type(key) is not bytes or len(<bytes> key) != sizeof(Board):
            return None
        return _quick_run(s, <const signed char*> <const char*> <bytes> key, code, a, b, mode)
    if type(position) is not _array_class:
        return None
    try:
        PyObject_GetBuffer(position, &view, PyBUF_RECORDS_RO)
    except (BufferError, ValueError):     # an array of objects: the caller names the problem
        return None
    try:
        if (view.ndim != 2 or view.shape[0] != 2 or view.shape[1] != sizeof(Board) // 2
                or view.strides[0] != sizeof(Board) // 2 or view.strides[1] != 1     # C order
                or view.itemsize != 1 or view.format == NULL or view.format[0] != c"b" or view.format[1] != 0):
            return None
        return _quick_run(s, <const signed char*> view.buf, code, a, b, mode)
    finally:
        PyBuffer_Release(&view)


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
