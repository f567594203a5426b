# cython: language_level=3
"""The Python entry points of the kernels for batches of positions:
``count_batch``, ``play_offsets``, ``generate_batch``, ``outcome_batch``,
``shots_batch``, with the parallel driver and the Ctrl-C machinery they
share.

The items' work is compiled twice, for the architecture's baseline and
for CPUs with AVX2, BMI1/2 and POPCNT: each thread's entry point has a
copy for AVX2 (``_count_items_avx2``, ...) into which the kernels of
this module are compiled, and the probe of ``bsf_cpu.h`` says which runs
(``bsf_cpu.h`` tells the mechanism). On the AVX2 copy a batch count takes
about a fifth fewer instructions an item: SIMD code takes three-operand
forms, shifts and masks need fewer moves.

Everything here converts arguments and drives the kernels of ``_search``,
``_shortcuts`` and ``_queries``. The contract with the Python layer
(``batch.py``; ``_single.pyx`` for single positions), the same for every
entry point:

* Rules cross as a rule code (0..15, ``Rules.code`` of a canonical
  ``Rules``; anything else is refused here).
* Positions and dice are read once, item by item, into memory the call
  owns and checked there (``load_scanned``, ``dice_status`` of ``_board.pxd``):
  caller memory that changes during the call cannot reach a kernel
  unchecked, and no separate validation pass runs before the kernel.
* A problem is a :c:type:`Status` (< 0): batch entry points return
  ``(item, status)`` of the first problem in item order, or None. The
  Python layer turns it into the typed error in one place
  (``bansugoroku_fast._kernel.status_error``).
* ``fast_counts=False`` (keyword only, for tests) counts by search alone,
  without the closed forms of ``_shortcuts``.

Batches run without the GIL, items spread in chunks over the calling
thread and the pool threads that join it (``_pool``), each thread with its
own search; results depend only on the item, never on the thread. The
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
from libc.stdint cimport int32_t, int64_t, uint8_t
from libc.string cimport memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from ._board cimport (
    Board, KIND_BOTH_WON, KIND_NONE, MAX_STEPS, PLACES, RuleSet, STATUS_BAD_CHOICE, STATUS_BORNE_OFF,
    STATUS_BOTH_WON, STATUS_CHANGED, STATUS_INVALID_DICE, STATUS_INVALID_POSITION, STATUS_NO_MEMORY,
    STATUS_NO_PLAY, STATUS_NO_SUCH_ROW, STATUS_OK, STATUS_ROW_TWICE, STATUS_TOO_LONG, Scan, checked_rules, dice_status,
    load_item, load_scanned, rules_from_code, surely_going_on,
)
from ._pool cimport BSF_POOL_MOST_THREADS, bsf_job, job_threads, run_job
from ._queries cimport count_roll, outcome_of, shots_of
from ._search cimport (
    Leaf, MODE_PLAYS, OutputRows, Search, free_slot_searches, rows_slice, run_turn_scanned, slot_search,
    write_row,
)
from ._shortcuts cimport count_scanned

cdef extern from "Python.h":
    int PyErr_CheckSignals()

cdef extern from "bsf_batch.h":
    int load_flag "bsf_load_flag"(int* flag) noexcept nogil
    void raise_flag "bsf_raise_flag"(int* flag) noexcept nogil
    void atomic_add "bsf_add"(Py_ssize_t* total, Py_ssize_t more) noexcept nogil

cdef extern from "bsf_build.h":
    int BSF_BUILT_FOR_AVX2

cdef extern from "bsf_cpu.h":
    ctypedef void avx2_copy_void "bsf_avx2_copy_void"   # the return type of an AVX2 copy
    int BSF_AVX2_COPIES
    int bsf_cpu_has_avx2() noexcept nogil
    int bsf_cpu_avx2() noexcept nogil
    int bsf_cpu_avx2_answer


def running_copies():
    """Which code the batch kernels run: ``"avx2"`` (the AVX2 copies, or a
    ``BANSUGOROKU_NATIVE=1`` build on a CPU with AVX2, BMI1/2 and POPCNT),
    else ``"baseline"``."""
    return "avx2" if BSF_BUILT_FOR_AVX2 or (BSF_AVX2_COPIES and bsf_cpu_avx2()) else "baseline"


def run_avx2_copies(bint run):
    """Run the AVX2 copies (``run``) or the baseline code from now on, in
    this module: the seam's choice (``BANSUGOROKU_KERNELS``), and tests and
    benchmarks that compare the two in one process. Returns False, and
    changes nothing, where AVX2 copies cannot run here (not compiled: not
    GCC for x86-64, or a native build; or the CPU lacks what they use)."""
    global bsf_cpu_avx2_answer
    if run and not (BSF_AVX2_COPIES and bsf_cpu_has_avx2()):
        return False
    bsf_cpu_avx2_answer = run
    return True


#: The Status values (``_board.pxd``) by name, for the Python layer.
STATUS = {
    "ok": STATUS_OK, "both_won": STATUS_BOTH_WON, "no_memory": STATUS_NO_MEMORY,
    "invalid_position": STATUS_INVALID_POSITION, "borne_off": STATUS_BORNE_OFF,
    "invalid_dice": STATUS_INVALID_DICE, "changed": STATUS_CHANGED, "too_long": STATUS_TOO_LONG,
    "no_such_row": STATUS_NO_SUCH_ROW, "row_twice": STATUS_ROW_TWICE, "bad_choice": STATUS_BAD_CHOICE,
    "no_play": STATUS_NO_PLAY,
}

#: The rows ``generate_batch`` writes, one array per field, one row a play
#: (``OutputRows`` of ``_search.pxd``): ``(field, numpy dtype, shape of a
#: row)``; ``hits`` holds 0 or 1 a byte. The Python layer checks its own
#: layout against this one at import (``bansugoroku_fast._kernel.check_layout``).
OUTPUT_ROWS = (
    ("children", "i1", (2, PLACES)),
    ("steps", "i1", (MAX_STEPS, 2)),
    ("dice", "i1", (MAX_STEPS,)),
    ("hits", "?", (MAX_STEPS,)),
)
#: The bytes of one row over every field of ``OUTPUT_ROWS``.
OUTPUT_ROW_BYTES = sizeof(Board) + 2 * MAX_STEPS + MAX_STEPS + MAX_STEPS


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
# (docs/performance/history.md, "Two threads"). Enough chunks still that, items
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


# The thread entry points again, each an AVX2 copy (bsf_cpu.h): the same
# source, every kernel of this module it calls compiled into it.
cdef avx2_copy_void _count_items_avx2(void* drive, int slot, int64_t start, int64_t stop) noexcept nogil:
    _run_items(<CountJob*> (<Drive*> drive).job, <Drive*> drive, slot, start, stop)


cdef avx2_copy_void _generate_items_avx2(void* drive, int slot, int64_t start, int64_t stop) noexcept nogil:
    _run_items(<GenerateJob*> (<Drive*> drive).job, <Drive*> drive, slot, start, stop)


cdef avx2_copy_void _shots_items_avx2(void* drive, int slot, int64_t start, int64_t stop) noexcept nogil:
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
        if bsf_cpu_avx2():
            work.run = _count_items_avx2
    elif Job is GenerateJob:
        work.run = _generate_items
        if bsf_cpu_avx2():
            work.run = _generate_items_avx2
    else:
        work.run = _shots_items
        if bsf_cpu_avx2():
            work.run = _shots_items_avx2
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
    job.items = _items(positions, dice, checked_rules(code))
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
    job.items = _items(positions, dice, checked_rules(code))
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
    cdef RuleSet rules = checked_rules(code)
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
    job.items = _items(positions, None, checked_rules(code))
    job.out = &out[0] if positions.shape[0] else NULL
    return _run(&job, threads, True)
