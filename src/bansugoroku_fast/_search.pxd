# cython: language_level=3
"""The depth-first turn search: its state, its result set, the batch output
cursor, and what other kernels call (see ``_search.pyx``).

The inline helpers below add a play to the result set or write one to the
cursor's rows; they are defined here so that ``_shortcuts`` (which fills
the same result set without a search) compiles them in and calls nothing
of ``_search`` at run time.

Why writing a row is fast: a play's steps, dice and hits are packed into
integers (byte k = step k) and written as one store per field, the bytes
past the play's steps masked to their padding (``write_packed_steps``), so
there is no loop and no branch per step.
"""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport realloc
from libc.string cimport memcpy, memset

from ._board cimport BAR, Board, MAX_STEPS, RuleSet, Scan

# What a search collects at its leaves.
cdef enum Mode:
    MODE_COUNT = 0       # distinct resulting positions, no steps
    MODE_PLAYS = 1       # distinct positions with their canonical steps
    MODE_SEQUENCES = 2   # every distinct legal sequence (all orderings)
    MODE_SHOTS = 3       # only: does some legal sequence hit?

cdef struct Leaf:
    Board board           # the resulting position (row me = the side that played)
    uint64_t zkey         # additive Zobrist key of the board, relative to the start
    uint64_t order        # the sequence key tuple packed so that > compares alike
    signed char origin[4]
    signed char target[4]
    signed char die[4]
    signed char hit[4]
    int nsteps
    int slot              # its slot in the hash table

# The plays a search found: leaves, and the hash table that dedupes them.
cdef struct PlaySet:
    Leaf* leaves
    int count             # plays found (leaves stored, or rows written)
    int capacity
    int32_t* slots        # leaf index + 1, 0 = empty
    int slot_mask
    int32_t* sorted_index # leaf indices by descending order (MODE_PLAYS/SEQUENCES)
    bint failed           # out of memory

# The batch output cursor: the rows a batch lends for one item's plays
# (``children`` NULL: none lent; ``steps``, ``dice``, ``hits`` NULL: that
# field is not wanted).
cdef struct OutputRows:
    signed char* children # Board rows
    signed char* steps    # 2 * MAX_STEPS bytes a row
    signed char* dice     # MAX_STEPS bytes a row
    unsigned char* hits   # MAX_STEPS bytes a row
    int64_t room          # rows lent

cdef enum:
    # The most two-move plays a non-double counted by keys can have: two die
    # orders, at most 7 first origins (run_turn_scanned allows no more
    # occupied points) and 8 second ones (one more point after the first move).
    MAX_PLAY_KEYS = 128

cdef struct Search:
    RuleSet rules
    bint fast_counts      # count from closed forms where they apply (off: tests)
    int mode
    bint unique           # leaves are distinct by construction: no hash look-up
    bint nonincreasing    # doubles without win-stop: origins never increase
    bint presorted        # leaves were found in descending key order: no sort
    # the position being searched and the sequence that led to it
    Board board
    uint64_t zkey
    int outside           # mover stones on points 7..24 and the bar
    uint32_t occupied     # bit p: the mover has a stone on point p (1..24)
    uint32_t multi        # bit p: the mover has two or more on point p
    uint32_t open_points  # bit p: the opponent does not block point p (fixed in a turn)
    uint32_t blots        # bit p: the opponent has one stone on p (at the start of the turn)
    int ndice             # moves the roll gives
    int dice[4]           # the die of each move in the order being searched
    int least_used        # the fewest dice a play recorded may use: all of a
                          # non-double's (one die only: _search_one_die), 1 for a double
    signed char origin[4]
    signed char target[4]
    signed char die[4]
    signed char hit[4]
    # what the search keeps of the sequences it finishes
    int best_used
    bint stop             # early exit (shots, out of memory)
    bint hit_best         # MODE_SHOTS: some play using best_used dice hits
    PlaySet found
    # The two-move generator and the search of a presorted double write
    # their plays to ``rows`` directly when a batch lends some (at most
    # rows.room of them; found.count still counts them) and set wrote_out.
    OutputRows rows
    bint wrote_out
    # A non-double being counted near the bear-off (count_keys): its plays
    # that use both dice, each as the exact key of the position it reaches
    # (no move made, no board compared), ``nkeys`` of them, each once.
    bint count_keys
    int nkeys
    uint64_t play_keys[MAX_PLAY_KEYS]


cdef Search* search_new(RuleSet rules, bint fast_counts) noexcept nogil
cdef void search_free(Search* s) noexcept nogil
cdef Search* slot_search(Search** searches, int slot, RuleSet rules, bint fast_counts) noexcept nogil
cdef void free_slot_searches(Search** searches, int slots) noexcept nogil
cdef int run_turn(Search* s, const Board* start, int a, int b, int mode) noexcept nogil
cdef int run_turn_scanned(Search* s, const Board* start, const Scan* scan, int a, int b, int mode) noexcept nogil
cdef int count_turn(Search* s, const Board* start, int a, int b) noexcept nogil
cdef void two_move_play(const Board* start, const Scan* scan, int a, int b, int k, Board* out) noexcept nogil


cdef inline const Board* found_board(const Search* s, int k) noexcept nogil:
    """The position after the ``k``-th play of the last ``run_turn`` in
    MODE_PLAYS or MODE_SEQUENCES (``legal_plays`` order), with no rows lent."""
    return &s.found.leaves[s.found.sorted_index[k]].board


# --- the result set: adding a play -------------------------------------------


cdef inline int slot_of(uint64_t zkey, int mask) noexcept nogil:
    return <int> ((zkey ^ (zkey >> 29)) & <uint64_t> mask)


cdef inline bint grow_leaves(PlaySet* found, bint hashed) noexcept nogil:
    """Double the leaf capacity and keep the hash table at most a quarter
    full (rehashing the leaves if ``hashed``); False if out of memory."""
    cdef int capacity = 2 * found.capacity, slot_count = 4 * capacity, i, slot
    cdef Leaf* leaves = <Leaf*> realloc(found.leaves, capacity * sizeof(Leaf))
    if leaves == NULL:
        return False
    found.leaves = leaves
    cdef int32_t* index = <int32_t*> realloc(found.sorted_index, capacity * sizeof(int32_t))
    if index == NULL:
        return False
    found.sorted_index = index
    cdef int32_t* slots = <int32_t*> realloc(found.slots, slot_count * sizeof(int32_t))
    if slots == NULL:
        return False
    found.slots = slots
    found.slot_mask = slot_count - 1
    found.capacity = capacity
    memset(found.slots, 0, slot_count * sizeof(int32_t))
    if hashed:
        for i in range(found.count):
            slot = slot_of(found.leaves[i].zkey, found.slot_mask)
            while found.slots[slot]:
                slot = (slot + 1) & found.slot_mask
            found.slots[slot] = i + 1
            found.leaves[i].slot = slot
    return True


cdef inline bint out_of_room(Search* s) noexcept nogil:
    """Whether the leaves are full and cannot grow (the search then fails)."""
    if s.found.count == s.found.capacity and not grow_leaves(&s.found, not s.unique):
        s.found.failed = s.stop = True
        return True
    return False


cdef inline Leaf* new_leaf(Search* s) noexcept nogil:
    if out_of_room(s):
        return NULL
    s.found.count += 1
    return &s.found.leaves[s.found.count - 1]


cdef inline void clear_slots(Search* s) noexcept nogil:
    """Empty the hash table by clearing only the slots the leaves use."""
    cdef int i
    if not s.unique:
        for i in range(s.found.count):
            s.found.slots[s.found.leaves[i].slot] = 0


cdef inline void record_many(Search* s, int used, int count) noexcept nogil:
    """``count`` distinct maximal sequences using ``used`` (> 0) dice, in a
    search whose leaves are unique and only counted (MODE_COUNT)."""
    if used < s.best_used:
        return
    if used > s.best_used:      # the must-play rule: only the most dice count
        s.found.count = 0
        s.best_used = used
    s.found.count += count


# --- the output cursor: writing a play to a lent row ---------------------------


cdef inline OutputRows rows_slice(const OutputRows* rows, int64_t first, int64_t count) noexcept nogil:
    """Rows ``first:first + count`` of ``rows`` (the rows of one batch item)."""
    cdef OutputRows part
    part.children = rows.children + first * sizeof(Board) if rows.children != NULL else NULL
    part.steps = rows.steps + first * 2 * MAX_STEPS if rows.steps != NULL else NULL
    part.dice = rows.dice + first * MAX_STEPS if rows.dice != NULL else NULL
    part.hits = rows.hits + first * MAX_STEPS if rows.hits != NULL else NULL
    part.room = count
    return part


# The rows are written in C (bsf_rows.h): a board held in registers, stored
# whole, then the bytes that changed.
cdef extern from "bsf_rows.h":
    int64_t write_move_rows "bsf_write_move_rows"(
        signed char* children, signed char* steps, signed char* dice, unsigned char* hits, int64_t row,
        int64_t room, const signed char* middle, uint32_t origins, int die, uint32_t blots, int step,
        uint64_t earlier_pairs, uint32_t earlier_dice, uint32_t earlier_hits) noexcept nogil
    int64_t write_children "bsf_write_children"(signed char* children, int64_t row, int64_t room,
                                                const signed char* middle, uint32_t origins, int die,
                                                uint32_t blots) noexcept nogil


cdef inline bint steps_wanted(const OutputRows* rows) noexcept nogil:
    """Whether the batch wants some step field (steps, dice or hits)."""
    return rows.steps != NULL or rows.dice != NULL or rows.hits != NULL


cdef inline void write_moves(Search* s, const Board* middle, uint32_t origins, int die, uint32_t blots,
                             int step, uint64_t earlier_pairs, uint32_t earlier_dice,
                             uint32_t earlier_hits) noexcept nogil:
    """The plays ``middle`` + one move with ``die`` from each of ``origins``
    to the next rows the batch lent (``write_children``, or
    ``write_move_rows`` when a step field is wanted: the move is step
    ``step`` of its play, after the ``earlier`` ones)."""
    if not steps_wanted(&s.rows):
        s.found.count = write_children(s.rows.children, s.found.count, s.rows.room,
                                       <const signed char*> middle, origins, die, blots)
    else:
        s.found.count = write_move_rows(s.rows.children, s.rows.steps, s.rows.dice, s.rows.hits, s.found.count,
                                        s.rows.room, <const signed char*> middle, origins, die, blots, step,
                                        earlier_pairs, earlier_dice, earlier_hits)


cdef inline void write_moves_after(Search* s, const Board* board, int origin, int die, uint32_t blots,
                                   uint32_t next_origins, int next_die, int step, uint64_t earlier_pairs,
                                   uint32_t earlier_dice, uint32_t earlier_hits) noexcept nogil:
    """The plays ``board`` + step ``step`` (a move with ``die`` from
    ``origin`` to a point, hitting where ``blots`` has the target's bit) +
    one move with ``next_die`` from each of ``next_origins`` to the next
    rows (``write_moves``): the position after step ``step`` is made once
    and every row written from it."""
    cdef int target = origin - die
    cdef uint32_t hit = (blots >> target) & 1
    cdef uint32_t pair = <uint8_t> origin | (<uint32_t> <uint8_t> target) << 8
    cdef Board middle
    memcpy(&middle, board, sizeof(Board))
    patch_step(&middle, origin, target, hit)
    # A blot hit by this step is gone: the next cannot hit it again.
    write_moves(s, &middle, next_origins, next_die, blots & ~((<uint32_t> 1) << target), step + 1,
                earlier_pairs | (<uint64_t> pair) << (16 * step),
                earlier_dice | (<uint32_t> <uint8_t> die) << (8 * step), earlier_hits | hit << (8 * step))


cdef inline void patch_step(Board* board, int origin, int target, bint hit) noexcept nogil:
    """Move a mover stone from ``origin`` to the point ``target`` on ``board``,
    hitting the blot there if ``hit``."""
    board.me[origin] -= 1
    board.me[target] += 1
    if hit:
        board.opp[BAR - target] = 0
        board.opp[BAR] += 1


cdef inline bint apply_step(Board* board, int origin, int target) noexcept nogil:
    """Move a mover stone from ``origin`` to the point ``target`` on ``board``;
    whether it hit."""
    cdef bint hit = board.opp[BAR - target] == 1
    patch_step(board, origin, target, hit)
    return hit


cdef inline uint64_t spread_bytes(uint32_t x) noexcept nogil:
    """Byte k of ``x`` to byte 2k of the result (the others 0)."""
    cdef uint64_t wide = x
    wide = (wide | (wide << 16)) & 0x0000FFFF0000FFFFULL
    return (wide | (wide << 8)) & 0x00FF00FF00FF00FFULL


cdef inline void write_packed_steps(const OutputRows* rows, int64_t row, int nsteps, uint64_t pairs,
                                    uint32_t die, uint32_t hit) noexcept nogil:
    """The steps, dice and hits of output row ``row`` from packed fields:
    bytes 2k, 2k + 1 of ``pairs`` the origin and target of step k, byte k
    of ``die`` and ``hit`` its die and hit (bytes of steps from ``nsteps``
    on are ignored). Padded with -1, hits with 0, each field wanted one
    store, with no branch per step."""
    cdef uint32_t keep = <uint32_t> (((<uint64_t> 1) << (8 * nsteps)) - 1)   # bytes of the steps
    cdef uint64_t keep_pairs, steps
    cdef uint32_t dice, hits
    if rows.steps != NULL:
        keep_pairs = spread_bytes(keep) * 0x101      # both bytes of each kept step
        steps = (pairs & keep_pairs) | ~keep_pairs
        memcpy(rows.steps + row * 2 * MAX_STEPS, &steps, 2 * MAX_STEPS)
    if rows.dice != NULL:
        dice = (die & keep) | ~keep
        memcpy(rows.dice + row * MAX_STEPS, &dice, MAX_STEPS)
    if rows.hits != NULL:
        hits = hit & keep
        memcpy(rows.hits + row * MAX_STEPS, &hits, MAX_STEPS)


cdef inline uint32_t packed(const signed char* field) noexcept nogil:
    """The 4 bytes of a step field (MAX_STEPS long) as one integer."""
    cdef uint32_t value
    memcpy(&value, field, MAX_STEPS)
    return value


cdef inline void write_steps(const OutputRows* rows, int64_t row, int nsteps,
                             const signed char* origin, const signed char* target,
                             const signed char* die, const signed char* hit) noexcept nogil:
    """The steps, dice and hits of output row ``row`` from step arrays
    (MAX_STEPS bytes each; see write_packed_steps)."""
    write_packed_steps(rows, row, nsteps, spread_bytes(packed(origin)) | (spread_bytes(packed(target)) << 8),
                       packed(die), packed(hit))


cdef inline void write_row(const OutputRows* rows, int64_t row, const Board* board, int nsteps,
                           const signed char* origin, const signed char* target,
                           const signed char* die, const signed char* hit) noexcept nogil:
    """Output row ``row`` = this play."""
    memcpy(rows.children + row * sizeof(Board), board, sizeof(Board))
    write_steps(rows, row, nsteps, origin, target, die, hit)
