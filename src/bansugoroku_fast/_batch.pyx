# cython: language_level=3
"""The Python entry points of the kernels: single positions and batches.

Everything here converts arguments and drives the kernels of ``_search``,
``_shortcuts`` and ``_queries``. The contract with the Python layer
(``api.py``, ``batch.py``), the same for every entry point:

* Rules cross as a rule code (0..15, ``Rules.code`` of a canonical
  ``Rules``; anything else is refused here).
* Positions and dice are read once, item by item, into memory the call
  owns and checked there (``load_scanned``, ``dice_status`` of ``_board.pxd``):
  caller memory that changes during the call cannot reach a kernel
  unchecked, and no separate validation pass runs before the kernel.
* A problem is a :c:type:`Status` (< 0): single entry points return it
  instead of their result; batch entry points return ``(item, status)`` of
  the first problem in item order, or None. The Python layer turns it into
  the typed error in one place (``bansugoroku_fast._status.status_error``).
* ``fast_counts=False`` (keyword only, for tests) counts by search alone,
  without the closed forms of ``_shortcuts``.

Single positions cross as the 52 bytes of ``Position.key`` (row me then row
opp). Single calls keep the GIL (they take microseconds) and share one
search per rule code; ``plays`` returns a ``PlayRecords`` sequence holding
one byte record per play (layout: ``RECORD_OFFSETS``), which makes a play
object only when it is read. Batches run without the GIL, items
spread in chunks over the calling thread and the pool threads that join
it (``_pool``), each thread with its own search; results depend only on
the item, never on the thread. The
calling thread looks for signals every few items, once per
``SIGNAL_CHECK_SECONDS`` at most, taking the GIL briefly (``_stopped``): on
Ctrl-C every thread skips its remaining items and the call raises
``KeyboardInterrupt``.

Why it is fast: each item's 52 bytes are read once into SIMD registers,
which give the copy, the check and every bit mask the kernels use
(``load_scanned``), so a count makes no separate validation pass and
scales over threads; the common count (a game going on, a two-move roll)
is compiled into the item loop (``_count_scanned``), with no call into
another module, once for each default rule set with its rules as
constants (``_count_item_under``) and once for any rules; ``generate_batch`` writes each item's plays straight into
the caller's arrays (an ``OutputRows`` cursor), with no intermediate copy
where the plays are found in their final order.

Names other kernels cimport (declared in the .pxd files): ``Board``,
``Scan``, ``RuleSet``, ``rules_from_code``, ``load_item``, ``load_scanned``,
``surely_going_on``, ``dice_status``, ``Status`` (``_board``); ``Search``,
``search_new``, ``search_free``, ``run_turn``, ``run_turn_scanned``
(MODE_PLAYS: distinct positions in ``legal_plays`` order), ``found_board``
(``_search``); ``outcome_of``, ``count_roll`` (``_queries``).
"""
cimport cython
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec
from types import MemberDescriptorType
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.number cimport PyIndex_Check, PyNumber_AsSsize_t
from cpython.object cimport PyObject, PyTypeObject
from cpython.type cimport PyType_Check, PyType_IsSubtype
from cpython.ref cimport Py_INCREF

from ._board cimport (
    BAR, Board, KIND_BOTH_WON, KIND_NONE, MAX_STEPS, POINT_BITS, RECORD_BOARD, RECORD_BYTES,
    RECORD_NSTEPS, RECORD_STEP_BYTES, RECORD_STEPS, RULE_CODES, RuleSet, STATUS_BORNE_OFF,
    STATUS_BOTH_WON, STATUS_CHANGED, STATUS_INVALID_DICE, STATUS_INVALID_POSITION,
    STATUS_NO_MEMORY, STATUS_OK, Scan, dice_status, home_closed, load_item, load_scanned, row_eq,
    rules_from_code, scan_board, surely_going_on,
)
from ._pool cimport BSF_POOL_MOST_THREADS, bsf_job, job_threads, run_job
from ._queries cimport count_roll, outcome_of, perft as perft_of, shots_of
from ._search cimport (
    Leaf, MODE_PLAYS, MODE_SEQUENCES, OutputRows, Search, free_slot_searches, rows_slice, run_turn,
    run_turn_scanned, search_free, search_new, slot_search, write_row,
)
from ._shortcuts cimport count_scanned

cdef extern from "Python.h":
    object PyType_GenericAlloc(PyTypeObject* type, Py_ssize_t nitems)
    int PyErr_CheckSignals()
    # A __slots__ entry: its descriptor's member (CPython's descrobject.h
    # and structmember.h; stable since Python 2.2).
    ctypedef struct PyMemberDef:
        int type
        Py_ssize_t offset
        int flags
    ctypedef struct PyMemberDescrObject:
        PyMemberDef* d_member

cdef extern from "structmember.h":
    enum:
        T_OBJECT_EX     # the type of a __slots__ member
        READONLY

cdef extern from *:
    """
    static int bsf_load_flag(int *flag) { return __atomic_load_n(flag, __ATOMIC_RELAXED); }
    static void bsf_raise_flag(int *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELAXED); }
    static void bsf_add(Py_ssize_t *total, Py_ssize_t more) { __atomic_fetch_add(total, more, __ATOMIC_RELAXED); }
    /* cls() without __init__, through its tp_new slot (no lookup of __new__). */
    static PyObject* bsf_new_object(PyObject *cls) {
        PyObject *no_arguments = PyTuple_New(0), *made;
        if (no_arguments == NULL) return NULL;
        made = ((PyTypeObject*) cls)->tp_new((PyTypeObject*) cls, no_arguments, NULL);
        Py_DECREF(no_arguments);
        return made;
    }
    """
    int load_flag "bsf_load_flag"(int* flag) noexcept nogil
    void raise_flag "bsf_raise_flag"(int* flag) noexcept nogil
    void atomic_add "bsf_add"(Py_ssize_t* total, Py_ssize_t more) noexcept nogil
    object new_object "bsf_new_object"(object cls)

#: Byte offsets in the record of a play that ``plays`` returns: the board
#: (``board_bytes`` long), the number of steps, then per step ``step_bytes``
#: bytes (origin, target, die, hit) from ``steps`` on.
RECORD_OFFSETS = {
    "board": RECORD_BOARD, "board_bytes": sizeof(Board), "nsteps": RECORD_NSTEPS,
    "steps": RECORD_STEPS, "step_bytes": RECORD_STEP_BYTES, "bytes": RECORD_BYTES,
}

cdef extern from *:
    """
    /* Which instructions this copy of the module was compiled to use, and
       which the CPU running it has (GCC and Clang on x86; elsewhere none). */
    #if defined(__AVX2__) && defined(__BMI2__) && defined(__POPCNT__)
    #define BSF_BUILT_FOR_AVX2 1
    #else
    #define BSF_BUILT_FOR_AVX2 0
    #endif
    static int bsf_cpu_has_avx2(void) {
    #if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2")
            && __builtin_cpu_supports("popcnt");
    #else
        return 0;
    #endif
    }
    """
    int BSF_BUILT_FOR_AVX2
    int bsf_cpu_has_avx2() noexcept nogil

#: The instructions this build of the kernels uses beyond the architecture's
#: baseline: ``"avx2"`` (AVX2, BMI1/2 and POPCNT: the ``_batch_avx2`` build,
#: or a ``BANSUGOROKU_NATIVE=1`` build on such a CPU), else ``"baseline"``.
BUILT_FOR = "avx2" if BSF_BUILT_FOR_AVX2 else "baseline"


def cpu_has_avx2():
    """Whether the CPU running this process has what the ``"avx2"`` build
    uses (and the OS saves its registers): AVX2, BMI1, BMI2, POPCNT."""
    return bool(bsf_cpu_has_avx2())


#: The Status values (``_board.pxd``) by name, for the Python layer.
STATUS = {
    "ok": STATUS_OK, "both_won": STATUS_BOTH_WON, "no_memory": STATUS_NO_MEMORY,
    "invalid_position": STATUS_INVALID_POSITION, "borne_off": STATUS_BORNE_OFF,
    "invalid_dice": STATUS_INVALID_DICE, "changed": STATUS_CHANGED,
}


cdef RuleSet _rules(int code) except *:
    if not 0 <= code < RULE_CODES:
        raise ValueError(f"rule code must be in 0..{RULE_CODES - 1}, got {code}")
    return rules_from_code(code)


# --- single positions ------------------------------------------------------------

cdef Search* _single_searches[RULE_CODES]


cdef Search* _single_search(int code, bint fast_counts) except NULL:
    cdef RuleSet rules = _rules(code)
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
        rules = _rules(code)
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


# What PlayRecords makes its plays of (``set_play_class``): the class,
# where its slots ``_records`` and ``_index`` are in its objects, and where
# its slots filled with None are (MOST_NONE_SLOTS at most).
cdef enum:
    MOST_NONE_SLOTS = 8
cdef type _play_class = None
cdef Py_ssize_t _records_offset = 0, _index_offset = 0
cdef Py_ssize_t _none_offsets[MOST_NONE_SLOTS]
cdef int _none_slots = 0


cdef Py_ssize_t _slot_offset(type cls, str name, bint own) except -1:
    """Where the ``__slots__`` entry ``name`` of ``cls`` (holding any
    object; ``own``: of ``cls`` itself, not of a base) is in its objects."""
    descriptor = next((klass.__dict__[name] for klass in cls.__mro__ if name in klass.__dict__), None)
    if type(descriptor) is not MemberDescriptorType or (own and descriptor.__objclass__ is not cls):
        raise TypeError(f"{cls.__name__} must have {'its own' if own else 'a'} slot {name!r}")
    cdef PyMemberDef* member = (<PyMemberDescrObject*> descriptor).d_member
    if member.type != T_OBJECT_EX or member.flags & READONLY:
        raise TypeError(f"{cls.__name__}.{name} must be a writable object slot")
    return member.offset


def set_play_class(type play_class, tuple none_slots=()):
    """Make the plays of every ``PlayRecords`` ``play_class`` objects: each
    allocated as ``object.__new__`` would, without ``__init__`` (which
    would cost more than the search), its slot ``_records`` the records of
    its sequence and ``_index`` its index there, and each slot named in
    ``none_slots`` (its own or a base's) None: a value decoded on first
    read is then told apart from one not yet decoded by a test for None,
    where an empty slot would raise AttributeError (300 ns to catch).
    Called once, by ``api``."""
    global _play_class, _records_offset, _index_offset, _none_slots
    cdef Py_ssize_t records_offset = _slot_offset(play_class, "_records", True)
    cdef Py_ssize_t index_offset = _slot_offset(play_class, "_index", True)
    cdef Py_ssize_t none_offsets[MOST_NONE_SLOTS]
    cdef int k
    if len(none_slots) > MOST_NONE_SLOTS:
        raise ValueError(f"at most {MOST_NONE_SLOTS} slots filled with None, got {len(none_slots)}")
    for k, name in enumerate(none_slots):
        none_offsets[k] = _slot_offset(play_class, name, False)
        if none_offsets[k] in (records_offset, index_offset):
            raise ValueError(f"slot {name!r} is _records or _index")
    _play_class, _records_offset, _index_offset = play_class, records_offset, index_offset
    for k in range(len(none_slots)):
        _none_offsets[k] = none_offsets[k]
    _none_slots = len(none_slots)


cdef inline void _set_slot(object obj, Py_ssize_t offset, object value) noexcept:
    """Fill the empty object slot at ``offset`` of ``obj`` (new reference)."""
    Py_INCREF(value)
    (<PyObject**> (<char*> <PyObject*> obj + offset))[0] = <PyObject*> value


cdef class PlayRecords:
    """The plays of one ``plays`` call: their records (layout
    ``RECORD_OFFSETS``), one play object (``set_play_class``) made per play
    only when it is read. Immutable: the records are its own, so that no
    later call changes them. Indexing (negative too; a slice gives a list),
    ``len``, iteration and equality behave as on a list of the plays."""

    cdef readonly bytes records
    cdef Py_ssize_t count

    def __len__(self):
        return self.count

    cdef object _play(self, Py_ssize_t k):
        cdef int slot
        if _play_class is None:
            raise TypeError("no play class: call set_play_class first")
        play = PyType_GenericAlloc(<PyTypeObject*> _play_class, 0)
        _set_slot(play, _records_offset, self.records)
        _set_slot(play, _index_offset, k)
        for slot in range(_none_slots):
            _set_slot(play, _none_offsets[slot], None)
        return play

    def __getitem__(self, index):
        cdef Py_ssize_t k
        if isinstance(index, slice):
            return [self._play(k) for k in range(*index.indices(self.count))]
        if not PyIndex_Check(index):
            raise TypeError(f"play indices must be integers or slices, not {type(index).__name__}")
        k = PyNumber_AsSsize_t(index, IndexError)
        if k < 0:
            k += self.count
        if not 0 <= k < self.count:
            raise IndexError("play index out of range")
        return self._play(k)

    def __iter__(self):
        return _PlayIterator(self)

    def __eq__(self, other):
        if isinstance(other, PlayRecords):
            return (<PlayRecords> other).records == self.records or list(other) == list(self)
        if isinstance(other, list):
            return other == list(self)
        return NotImplemented

    __hash__ = None     # equal to a list of its plays, and as unhashable

    def __repr__(self):
        return repr(list(self))

    def __reduce__(self):
        return list, (list(self),)


@cython.auto_pickle(False)
cdef class _PlayIterator:
    """Iterates a PlayRecords, making each play as it is reached."""

    cdef PlayRecords plays
    cdef Py_ssize_t next_index

    def __cinit__(self, PlayRecords plays):
        self.plays = plays

    def __iter__(self):
        return self

    def __next__(self):
        if self.next_index >= self.plays.count:
            raise StopIteration
        self.next_index += 1
        return self.plays._play(self.next_index - 1)


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
    cdef RuleSet rules = _rules(code)
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


# --- batches ----------------------------------------------------------------------

# Items a thread takes at a time. Taking a chunk is an atomic update of a
# counter the threads share (its cache line moves between the cores), so a
# chunk must be long next to that: with 32 counts (1.5 us) two threads ran
# 1.6-1.7x one thread, with 256 (12 us) 1.8-1.85x. Where two chunks of
# plays meet, the threads also write neighbouring bytes of every output
# array (a cache line of each crosses between the cores), so a chunk of
# plays is a share of the batch, CHUNKS_PER_THREAD to a thread: over chunks
# of 32 it took a two-thread generate of 50,000 items (781-item chunks)
# from 1.72-1.87x to 1.94-1.97x, where 128 a thread gave 1.91-1.94x. Not
# more than MOST_CHUNK, nor counts in shares: the threads then read the
# input far apart, and two threads counting 2.1 million items went from
# 2.3x to 1.9-2.0x one thread, where neighbouring chunks (each thread's
# reads bringing in the other's next lines) beat two separate processes
# (benchmarks/README.md, "Thread scaling"). Enough chunks still that, items
# of unequal cost in any order, the threads end together (a "guided"
# schedule, whose first chunks are half the batch, gave the same speed-up
# and can leave one thread alone on the costly half).
cdef enum:
    COUNT_CHUNK = 256       # counts: 30-120 ns an item
    CHUNK = 32              # plays written or shots: 0.3-7 us an item
    MOST_CHUNK = 1024
    CHUNKS_PER_THREAD = 32

# The longest the calling thread goes without looking for signals (Ctrl-C),
# besides the items it is working on.
cdef double signal_check_seconds = 0.02
SIGNAL_CHECK_SECONDS = signal_check_seconds
# How often the calling thread reads the clock: at items whose index has
# these low bits clear (each chunk of CHUNK items has some), so that reading
# the clock costs nothing next to the cheapest items.
cdef enum:
    EVERY_ITEM = 0
    EVERY_16_ITEMS = 15
    EVERY_64_ITEMS = 63


cdef struct Interrupt:
    int stop            # raised once a signal handler failed (KeyboardInterrupt)
    double next_check   # when the calling thread next looks for signals


cdef inline double _now() noexcept nogil:
    cdef timespec now
    clock_gettime(CLOCK_MONOTONIC, &now)
    return now.tv_sec + 1e-9 * now.tv_nsec


cdef Interrupt _interrupt_ready():
    return Interrupt(stop=0, next_check=_now() + signal_check_seconds)


cdef inline bint _stopped(Interrupt* interrupt, Py_ssize_t item, int clock_mask, int slot) noexcept nogil:
    """Whether the batch must stop. The calling thread (slot 0, the only one
    Python runs signal handlers in) looks for signals when it is time,
    taking the GIL briefly; pool threads only read the flag it raises."""
    if (item & clock_mask) == 0 and slot == 0 and _now() >= interrupt.next_check:
        with gil:
            if PyErr_CheckSignals() < 0:    # the handler raised: keep its exception for the end
                raise_flag(&interrupt.stop)
        interrupt.next_check = _now() + signal_check_seconds
    return load_flag(&interrupt.stop)


cdef int _raise_if_stopped(const Interrupt* interrupt) except -1:
    """After the loops: propagate the exception a signal handler raised."""
    if interrupt.stop:
        return -1   # the exception is set: Cython propagates it
    return 0


# --- the parallel driver -----------------------------------------------------------
#
# count_batch, generate_batch and shots_batch share one loop (``_drive``):
# items spread over the threads of the pool (``_pool``: the calling thread
# and the pool threads that join it), each thread with its own search,
# signals looked for between items, problems counted. What is done with
# one item is the job's (``_run_item``). The jobs are a fused type, so the
# chunk loop is compiled once per job with its item function inlined: one
# call through a pointer per chunk, none per item.

# The items a batch reads, as the entry point checked their shapes.
cdef struct Items:
    const signed char* positions    # int8[n, 2, 26], C-contiguous
    const signed char* dice         # int8[n, 2] (NULL: no dice), strides below
    Py_ssize_t dice_item_stride     # 0: one roll for every item
    Py_ssize_t dice_die_stride
    Py_ssize_t n
    RuleSet rules


cdef struct CountJob:
    Items items
    int32_t* out                    # plays of item i, or its Status
    Py_ssize_t plays                # the plays of the items without a problem (atomic)
    int constant_rules              # the rule code if a default's and fast_counts, else -1 (_count_item)


# The default rule sets' codes (Rules().code, Rules(variant="backgammon").code).
cdef enum:
    BAN_SUGOROKU_CODE = 2           # arrival finish, multiplied closure
    BACKGAMMON_CODE = 9


cdef struct GenerateJob:
    Items items
    const int64_t* offsets          # item i's plays go to rows offsets[i]:offsets[i + 1]
    OutputRows rows                 # every output row
    int32_t* out                    # 0, or the Status of item i


cdef struct ShotsJob:
    Items items
    signed char* out                # shots of item i, or its Status


ctypedef fused Job:
    CountJob
    GenerateJob
    ShotsJob


cdef Items _items(const signed char[:, :, ::1] positions, const signed char[:, :] dice,
                  RuleSet rules) except *:
    """The items of ``positions`` (and ``dice``, if not None; same length,
    as the entry point checked). The shapes the item loop's pointer
    arithmetic assumes are checked here: n x 2 x 26 and n x 2."""
    cdef Items items
    if positions.shape[1] != 2 or positions.shape[2] != 26:
        raise ValueError("positions must be n x 2 x 26")
    if dice is not None and dice.shape[1] != 2:
        raise ValueError("dice must be n x 2")
    memset(&items, 0, sizeof(Items))
    items.n = positions.shape[0]
    items.rules = rules
    if items.n:
        items.positions = &positions[0, 0, 0]
        if dice is not None:
            items.dice = &dice[0, 0]
            items.dice_item_stride = dice.strides[0]
            items.dice_die_stride = dice.strides[1]
    return items


cdef inline int _load_position(Board* board, Scan* scan, Search* s, const Items* items, Py_ssize_t i,
                               RuleSet rules) noexcept nogil:
    """Copy position i to ``board`` (memory of this thread), scanning and
    checking it under ``rules`` (the items') as it is copied: a Status
    (STATUS_NO_MEMORY if the thread has no search)."""
    if s == NULL:
        return STATUS_NO_MEMORY
    return load_scanned(board, scan, items.positions + i * sizeof(Board), rules)


cdef inline int _load_item_roll(Board* board, Scan* scan, int* a, int* b, Search* s, const Items* items,
                                Py_ssize_t i, RuleSet rules) noexcept nogil:
    """_load_position, then copy roll i to ``a``, ``b`` and check it."""
    cdef const signed char* roll = items.dice + i * items.dice_item_stride
    a[0] = roll[0]
    b[0] = roll[items.dice_die_stride]
    cdef int status = _load_position(board, scan, s, items, i, rules)
    return dice_status(a[0], b[0]) if status == STATUS_OK else status


cdef inline int _count_scanned(Search* s, RuleSet rules, bint fast_counts, const Board* board, const Scan* scan,
                               int a, int b) noexcept nogil:
    """count_roll of a checked ``board`` scanned as ``scan``, its common case
    (a game going on, a two-move roll that no bear-off or win can cut
    short) counted here, without a call into another module."""
    if not surely_going_on(board, scan, rules):
        return count_roll(s, board, a, b)
    return count_scanned(s, rules, fast_counts, board, scan, a, b)


# Tags of the copies of the item count (a fused type): the count of the
# default rule sets takes their rules (and fast_counts) as constants, so
# that the compiler drops the branches of the other rule sets.
cdef struct BanSugorokuRules:
    char unused
cdef struct BackgammonRules:
    char unused
cdef struct ItemsRules:     # any rule set: the items' rules, the search's fast_counts
    char unused

ctypedef fused RulesTag:
    BanSugorokuRules
    BackgammonRules
    ItemsRules


cdef int _count_item_under(RulesTag* tag, CountJob* job, Search* s, Py_ssize_t i) noexcept nogil:
    cdef Board board
    cdef Scan scan
    cdef int a, b
    cdef RuleSet rules
    cdef bint fast_counts = True
    if RulesTag is BanSugorokuRules:
        rules = rules_from_code(BAN_SUGOROKU_CODE)
    elif RulesTag is BackgammonRules:
        rules = rules_from_code(BACKGAMMON_CODE)
    else:
        rules = job.items.rules
        fast_counts = s.fast_counts if s != NULL else True
    cdef int result = _load_item_roll(&board, &scan, &a, &b, s, &job.items, i, rules)
    if result == STATUS_OK:
        result = _count_scanned(s, rules, fast_counts, &board, &scan, a, b)
    job.out[i] = result
    return result


cdef inline int _count_item(CountJob* job, Search* s, Py_ssize_t i) noexcept nogil:
    if job.constant_rules == BAN_SUGOROKU_CODE:
        return _count_item_under(<BanSugorokuRules*> NULL, job, s, i)
    if job.constant_rules == BACKGAMMON_CODE:
        return _count_item_under(<BackgammonRules*> NULL, job, s, i)
    return _count_item_under(<ItemsRules*> NULL, job, s, i)


cdef inline int _write_plays(Search* s, const Board* board, const Scan* scan, int a, int b, RuleSet rules,
                             OutputRows* all_rows, int64_t first, int64_t count) noexcept nogil:
    """Write the plays of ``board`` (scanned as ``scan``) with ``a``, ``b``
    to rows ``first`` .. ``first + count`` of ``all_rows`` if there are
    ``count`` of them (0 if the game is over): how many there are, or a
    Status."""
    cdef int winner, value, k, found, kind
    cdef const Leaf* leaf
    if not surely_going_on(board, scan, rules):
        kind = outcome_of(board, rules, &winner, &value)
        if kind == KIND_BOTH_WON:
            return STATUS_BOTH_WON
        if kind != KIND_NONE:
            return 0
    s.rows = rows_slice(all_rows, first, count)
    found = run_turn_scanned(s, board, scan, a, b, MODE_PLAYS)
    if found == s.rows.room and not s.wrote_out:    # plays found in another order: sorted now
        for k in range(found):
            leaf = &s.found.leaves[s.found.sorted_index[k]]
            write_row(&s.rows, k, &leaf.board, leaf.nsteps, leaf.origin, leaf.target, leaf.die, leaf.hit)
    s.rows.children = NULL
    return STATUS_NO_MEMORY if found < 0 else found


cdef inline int _generate_item(GenerateJob* job, Search* s, Py_ssize_t i) noexcept nogil:
    cdef Board board
    cdef Scan scan
    cdef int a, b
    cdef int64_t first = job.offsets[i], count = job.offsets[i + 1] - first
    cdef int result = _load_item_roll(&board, &scan, &a, &b, s, &job.items, i, job.items.rules)
    if result == STATUS_OK:
        result = _write_plays(s, &board, &scan, a, b, job.items.rules, &job.rows, first, count)
        if result >= 0 and result != count:    # the input changed since it was counted
            result = STATUS_CHANGED
    job.out[i] = result if result < 0 else STATUS_OK
    return result


cdef inline int _shots_item(ShotsJob* job, Search* s, Py_ssize_t i) noexcept nogil:
    cdef Board board
    cdef Scan scan
    cdef int result = _load_position(&board, &scan, s, &job.items, i, job.items.rules)
    if result == STATUS_OK:
        result = shots_of(s, &board)
    job.out[i] = result
    return result


cdef inline int _run_item(Job* job, Search* s, Py_ssize_t i) noexcept nogil:
    """Do item i of the job, write its result: its Status if < 0."""
    if Job is CountJob:
        return _count_item(job, s, i)
    elif Job is GenerateJob:
        return _generate_item(job, s, i)
    else:
        return _shots_item(job, s, i)


cdef inline int _clock_mask(Job* job) noexcept nogil:
    """How often the calling thread reads the clock, by the cost of an item."""
    if Job is CountJob:
        return EVERY_64_ITEMS
    elif Job is GenerateJob:
        return EVERY_16_ITEMS
    else:
        return EVERY_ITEM


cdef inline Py_ssize_t _chunk(Job* job, int threads) noexcept nogil:
    """Items a thread takes at a time: COUNT_CHUNK counts; plays written or
    shots, a share of the batch (CHUNKS_PER_THREAD chunks a thread) between
    CHUNK and MOST_CHUNK."""
    if Job is CountJob:
        return COUNT_CHUNK
    cdef Py_ssize_t share = job.items.n // (CHUNKS_PER_THREAD * max(threads, 1))
    return min(max(share, CHUNK), MOST_CHUNK)


# What the threads of a batch share.
cdef struct Drive:
    void* job                       # a CountJob, GenerateJob or ShotsJob
    Search** searches               # slot k's search, made at its first chunk (NULL before)
    RuleSet rules
    bint fast_counts
    int clock_mask
    Interrupt* signals
    Py_ssize_t problems             # items with a problem (atomic)


cdef inline void _run_items(Job* job, Drive* drive, int slot, int64_t start, int64_t stop) noexcept nogil:
    """Items ``start .. stop - 1`` of ``job`` on the thread of ``slot``."""
    cdef Search* s = slot_search(drive.searches, slot, drive.rules, drive.fast_counts)
    cdef Py_ssize_t i, problems = 0, plays = 0
    cdef int result
    for i in range(start, stop):
        if _stopped(drive.signals, i, drive.clock_mask, slot):
            break
        result = _run_item(job, s, i)
        if result < 0:
            problems += 1
        elif Job is CountJob:
            plays += result
    if problems:
        atomic_add(&drive.problems, problems)
    if Job is CountJob:
        # Summed here, where the counts are in registers: numpy's sum of
        # them after the call ran with cold caches (59-85 us for 50,000
        # items, `python -m benchmarks.startup --between-passes`), serial
        # time between a two-thread generate's passes.
        atomic_add(&job.plays, plays)


cdef void _count_items(void* drive, int slot, int64_t start, int64_t stop) noexcept nogil:
    _run_items(<CountJob*> (<Drive*> drive).job, <Drive*> drive, slot, start, stop)


cdef void _generate_items(void* drive, int slot, int64_t start, int64_t stop) noexcept nogil:
    _run_items(<GenerateJob*> (<Drive*> drive).job, <Drive*> drive, slot, start, stop)


cdef void _shots_items(void* drive, int slot, int64_t start, int64_t stop) noexcept nogil:
    _run_items(<ShotsJob*> (<Drive*> drive).job, <Drive*> drive, slot, start, stop)


cdef Py_ssize_t _drive(Job* job, int threads, bint fast_counts, bint followed, Interrupt* signals) noexcept nogil:
    """Run every item of ``job`` on up to ``threads`` threads (items skipped
    once ``signals`` says stop; ``followed``: another batch call follows at
    once, so the pool threads stay awake for it): the number of items with
    a problem."""
    cdef Search* searches[BSF_POOL_MOST_THREADS]
    cdef Drive drive
    cdef bsf_job work
    threads = job_threads(threads)
    memset(searches, 0, threads * sizeof(Search*))
    drive.job, drive.searches, drive.rules, drive.fast_counts = job, searches, job.items.rules, fast_counts
    drive.clock_mask, drive.signals, drive.problems = _clock_mask(job), signals, 0
    if Job is CountJob:
        work.run = _count_items
    elif Job is GenerateJob:
        work.run = _generate_items
    else:
        work.run = _shots_items
    work.task, work.items, work.chunk, work.threads = &drive, job.items.n, _chunk(job, threads), threads
    work.followed = followed
    run_job(&work)
    free_slot_searches(searches, threads)
    return drive.problems


cdef object _run(Job* job, int threads, bint fast_counts, bint followed=False):
    """``_drive`` the job, then raise what a signal handler raised, or
    return the first problem ``(item, status)`` or None."""
    cdef Interrupt interrupt = _interrupt_ready()
    cdef Py_ssize_t i, problems
    with nogil:
        problems = _drive(job, threads, fast_counts, followed, &interrupt)
    _raise_if_stopped(&interrupt)
    if problems:
        for i in range(job.items.n):
            if job.out[i] < 0:
                return i, job.out[i]
    return None


def count_batch(const signed char[:, :, ::1] positions, const signed char[:, :] dice,
                int code, int threads, int32_t[::1] out, *, bint fast_counts=True, bint followed=False):
    """``out[i]`` = distinct plays of item i, or its Status; returns the
    first problem ``(item, status)`` or None, and the sum of the plays of
    the items without one. Each item is checked as it is read (no separate
    pass). ``followed``: a ``generate_batch`` of the same items follows at
    once (the pool threads stay awake for it)."""
    cdef CountJob job
    cdef Py_ssize_t n = positions.shape[0]
    if dice.shape[0] != n or out.shape[0] != n:
        raise ValueError("positions, dice and out must have the same length")
    job.items = _items(positions, dice, _rules(code))
    job.out = &out[0] if n else NULL
    job.constant_rules = code if fast_counts and code in (BAN_SUGOROKU_CODE, BACKGAMMON_CODE) else -1
    job.plays = 0
    problem = _run(&job, threads, fast_counts, followed)
    return problem, job.plays


def play_offsets(const int32_t[::1] counts, int64_t[::1] offsets):
    """``offsets[0] = 0``, ``offsets[i + 1] = offsets[i] + counts[i]``: where
    each item's plays start in the output of ``generate_batch``; returns
    the total. numpy's ``cumsum`` of ``int32`` into ``int64`` casts through
    a buffer: 102 us for the counts of 50,000 Ban-sugoroku corpus items,
    against 12.5 us here (``python -m timeit``, both into an offsets array
    made once), serial time between a two-thread generate's passes."""
    cdef Py_ssize_t i, n = counts.shape[0]
    cdef int64_t total = 0
    if offsets.shape[0] != n + 1:
        raise ValueError("offsets must have room for len(counts) + 1")
    with nogil:
        offsets[0] = 0
        for i in range(n):
            total += counts[i]
            offsets[i + 1] = total
    return total


def generate_batch(const signed char[:, :, ::1] positions, const signed char[:, :] dice,
                   int code, int threads, const int64_t[::1] offsets,
                   signed char[:, :, ::1] children, signed char[:, :, ::1] steps,
                   signed char[:, ::1] step_dice, uint8_t[:, ::1] hits, int32_t[::1] status):
    """Write the plays of item i to rows ``offsets[i]:offsets[i+1]`` of the
    outputs (as ``count_batch`` counted them), each item's plays by
    descending canonical key; ``steps``, ``step_dice`` and ``hits`` may be
    None (not wanted). ``status[i]``: 0, or the Status of item i
    (STATUS_CHANGED: its play count differs from the offsets, so the input
    changed since it was counted); returns the first problem or None."""
    cdef GenerateJob job
    cdef Py_ssize_t n = positions.shape[0]
    if dice.shape[0] != n or offsets.shape[0] != n + 1 or status.shape[0] != n:
        raise ValueError("positions, dice, offsets and status lengths disagree")
    cdef Py_ssize_t rows = offsets[n] if n else 0
    if n and offsets[0] != 0:
        raise ValueError("offsets must start at 0")
    if children.shape[0] < rows or children.shape[1] != 2:
        raise ValueError("children too short for the offsets")
    if steps is not None and (steps.shape[0] < rows or steps.shape[1] != MAX_STEPS or steps.shape[2] != 2):
        raise ValueError("steps too short for the offsets")
    if step_dice is not None and (step_dice.shape[0] < rows or step_dice.shape[1] != MAX_STEPS):
        raise ValueError("dice too short for the offsets")
    if hits is not None and (hits.shape[0] < rows or hits.shape[1] != MAX_STEPS):
        raise ValueError("hits too short for the offsets")
    job.items = _items(positions, dice, _rules(code))
    job.offsets = &offsets[0]
    job.out = &status[0] if n else NULL
    # Every output row (none when no item has a play: nothing is written)
    memset(&job.rows, 0, sizeof(OutputRows))
    if rows:
        job.rows.children = &children[0, 0, 0]
        job.rows.steps = &steps[0, 0, 0] if steps is not None else NULL
        job.rows.dice = &step_dice[0, 0] if step_dice is not None else NULL
        job.rows.hits = &hits[0, 0] if hits is not None else NULL
        job.rows.room = rows
    return _run(&job, threads, True)


def outcome_batch(const signed char[:, :, ::1] positions, int code, signed char[::1] winner,
                  signed char[::1] value, signed char[::1] kind):
    """Fill the outcome arrays (winner -1 and kind -1 while the game goes
    on); return the first problem ``(item, status)`` or None."""
    cdef Py_ssize_t n = positions.shape[0], i
    cdef RuleSet rules = _rules(code)
    cdef Board board
    cdef int item_winner, item_value, item_kind, problem = STATUS_OK
    cdef Interrupt interrupt = _interrupt_ready()
    if not (winner.shape[0] == value.shape[0] == kind.shape[0] == n):
        raise ValueError("positions and outcome arrays must have the same length")
    with nogil:
        for i in range(n):
            if _stopped(&interrupt, i, EVERY_64_ITEMS, 0):
                break
            problem = load_item(&board, &positions[i, 0, 0], rules)
            if problem != STATUS_OK:
                break
            item_kind = outcome_of(&board, rules, &item_winner, &item_value)
            if item_kind == KIND_BOTH_WON:
                problem = STATUS_BOTH_WON
                break
            winner[i] = item_winner
            value[i] = item_value
            kind[i] = item_kind
    _raise_if_stopped(&interrupt)
    return (i, problem) if problem != STATUS_OK else None


def shots_batch(const signed char[:, :, ::1] positions, int code, int threads, signed char[::1] out):
    """``out[i]`` = shots of item i, or its Status; returns the first
    problem ``(item, status)`` or None."""
    cdef ShotsJob job
    if out.shape[0] != positions.shape[0]:
        raise ValueError("positions and out must have the same length")
    job.items = _items(positions, None, _rules(code))
    job.out = &out[0] if positions.shape[0] else NULL
    return _run(&job, threads, True)
