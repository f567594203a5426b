# cython: language_level=3
"""Move generation for Ban-sugoroku and backgammon on int8 boards.

The rules are those of RULES.md as ``bansugoroku_fast.oracle`` reads them; the
kernels here compute the same results another way, fast:

* A turn is searched depth first on one :c:type:`Board` that is changed and
  restored in place; each resulting position is identified by an additive
  Zobrist key kept up to date move by move, and confirmed by comparing the
  52 bytes of the board, so two different positions are never merged.
* Doubles without the Ban-sugoroku win-stop (backgammon) are searched with
  non-increasing origins: every multiset of same-die moves is visited once,
  in its greatest order, and distinct multisets give distinct positions, so
  no look-up is needed at all.
* Counting two-move turns in the common case (no stone on the bar, no
  bear-off or win possible before the last move) needs no search: the count
  follows from bit masks of the board (see ``_count_two_moves``).

Everything below ``# --- Python entry points`` only converts arguments;
the kernels run without the GIL and trust their input (the Python layer
validates it first).
"""
cimport cython
from cython.parallel cimport parallel, prange
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.object cimport PyTypeObject
from cpython.ref cimport Py_INCREF

from _board cimport *

cdef extern from "Python.h":
    object PyType_GenericAlloc(PyTypeObject* type, Py_ssize_t nitems)
    int PyObject_GenericSetAttr(object obj, object name, object value) except -1

cdef extern from *:
    """
    /* Portable popcount and highest set bit: the build does not assume
       -mpopcnt, and a library call per count would cost more than this. */
    static inline int bsf_popcount(unsigned int x) {
        x = x - ((x >> 1) & 0x55555555u);
        x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
        return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
    }
    static inline int bsf_highest_bit(unsigned int x) { return 31 - __builtin_clz(x); }
    """
    int popcount "bsf_popcount"(unsigned int) nogil
    int highest_bit "bsf_highest_bit"(unsigned int) nogil   # x != 0

cdef enum:
    HOME_TOP = 6               # points 1..6 are home
    FIRST_LEAVES = 256         # initial leaf capacity of a search
    FIRST_SLOTS = 1024         # initial hash slots (a power of two)
    STEP_BITS = 13             # one (origin, target, die) step in a sequence key

# Per-place random values of the additive Zobrist key: place i of row me is
# ZOBRIST[i], place i of row opp is ZOBRIST[26 + i]. Moving a stone adds the
# value of its new place and subtracts that of its old one.
cdef uint64_t ZOBRIST[52]


cdef uint64_t _splitmix64(uint64_t* state) noexcept nogil:
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef void _init_zobrist() noexcept nogil:
    cdef uint64_t state = 20240601
    cdef int i
    for i in range(52):
        ZOBRIST[i] = _splitmix64(&state)


_init_zobrist()

# Debugging switch: False makes count_plays run the full search everywhere
# (no _count_two_moves, no counting of the last moves of a double from bit
# masks), so tests can hold the closed-form counts against it.
cdef bint FAST_COUNTS = True


# --- rules and outcomes ------------------------------------------------------


cdef RuleSet rules_from_code(int code) noexcept nogil:
    """The rule set of ``Rules.code``: bit 0 bear-off finish, bits 1-2 the
    closure (0 off, 1 multiplied, 2 immediate), bit 3 backgammon."""
    cdef RuleSet rules
    rules.bears_off = code & 1
    rules.closure = (code >> 1) & 3
    rules.backgammon = (code >> 3) & 1
    rules.doubles_moves = 4 if rules.backgammon else 2
    rules.win_stops = not rules.backgammon
    return rules


cdef inline bint _closure(const signed char* own, const signed char* other) noexcept nogil:
    """``own`` holds each of its points 1..6 with two or more while ``other``
    has a stone on the bar."""
    return (other[BAR] >= 1 and own[1] >= 2 and own[2] >= 2 and own[3] >= 2
            and own[4] >= 2 and own[5] >= 2 and own[6] >= 2)


cdef inline bint _triple_home(const signed char* own) noexcept nogil:
    """Home counts (points 1..6) 2-2-2-3-3-3 or 2-3-2-3-2-3 (mujo-gachi)."""
    if own[1] != 2 or own[3] != 2 or own[4] != 3 or own[6] != 3:
        return False
    return (own[2] == 2 and own[5] == 3) or (own[2] == 3 and own[5] == 2)


cdef int _side_won(const signed char* own, const signed char* other, RuleSet rules,
                   int* value) noexcept nogil:
    """The Kind of ``own``'s win over ``other`` (value in ``value``), or KIND_NONE."""
    cdef int point
    cdef bint finished, closure
    if rules.backgammon:
        if own[OFF] != STONES:
            return KIND_NONE
        if other[OFF] > 0:
            value[0] = 1
            return KIND_SINGLE
        if other[BAR] > 0:
            value[0] = 3
            return KIND_BACKGAMMON
        for point in range(19, 25):     # the winner's home, in the loser's numbering
            if other[point] > 0:
                value[0] = 3
                return KIND_BACKGAMMON
        value[0] = 2
        return KIND_GAMMON
    if rules.bears_off:
        finished = own[OFF] == STONES
    else:
        finished = own[1] + own[2] + own[3] + own[4] + own[5] + own[6] == STONES
    if rules.closure == CLOSURE_IMMEDIATE:
        value[0] = 1
        if finished:
            return KIND_BEAR_OFF if rules.bears_off else KIND_ARRIVAL
        return KIND_CLOSURE if _closure(own, other) else KIND_NONE
    if not finished:
        return KIND_NONE
    if rules.closure == CLOSURE_MULTIPLIED and _closure(own, other):
        if _triple_home(own):
            value[0] = 3
            return KIND_CLOSED_HOME_X3
        value[0] = 2
        return KIND_CLOSED_HOME_X2
    value[0] = 1
    return KIND_BEAR_OFF if rules.bears_off else KIND_ARRIVAL


cdef int outcome_of(const Board* board, RuleSet rules, int* winner, int* value) noexcept nogil:
    """The Kind of the finished game (``winner`` 0 = row me, 1 = row opp),
    KIND_NONE while it goes on, KIND_BOTH_WON if both rows satisfy a win."""
    cdef int mover_value = 0, opponent_value = 0
    cdef int mover_kind = _side_won(board.me, board.opp, rules, &mover_value)
    cdef int opponent_kind = _side_won(board.opp, board.me, rules, &opponent_value)
    winner[0] = -1
    value[0] = 0
    if mover_kind != KIND_NONE and opponent_kind != KIND_NONE:
        return KIND_BOTH_WON
    if mover_kind != KIND_NONE:
        winner[0] = 0
        value[0] = mover_value
        return mover_kind
    if opponent_kind != KIND_NONE:
        winner[0] = 1
        value[0] = opponent_value
        return opponent_kind
    return KIND_NONE


# --- the search context ------------------------------------------------------


cdef Search* search_new(RuleSet rules) noexcept nogil:
    """A search with room for FIRST_LEAVES results; NULL if out of memory."""
    cdef Search* s = <Search*> malloc(sizeof(Search))
    if s == NULL:
        return NULL
    memset(s, 0, sizeof(Search))
    s.rules = rules
    s.leaves = <Leaf*> malloc(FIRST_LEAVES * sizeof(Leaf))
    s.sorted_index = <int32_t*> malloc(FIRST_LEAVES * sizeof(int32_t))
    s.slots = <int32_t*> malloc(FIRST_SLOTS * sizeof(int32_t))
    if s.leaves == NULL or s.sorted_index == NULL or s.slots == NULL:
        search_free(s)
        return NULL
    memset(s.slots, 0, FIRST_SLOTS * sizeof(int32_t))
    s.leaf_capacity = FIRST_LEAVES
    s.slot_mask = FIRST_SLOTS - 1
    return s


cdef void search_free(Search* s) noexcept nogil:
    if s != NULL:
        free(s.leaves)
        free(s.sorted_index)
        free(s.slots)
        free(s)


cdef inline int _slot_of(uint64_t zkey, int mask) noexcept nogil:
    return <int> ((zkey ^ (zkey >> 29)) & <uint64_t> mask)


cdef bint _grow_leaves(Search* s) noexcept nogil:
    """Double the leaf capacity and keep the hash table at most a quarter
    full (rehashing the leaves if they are in it); False if out of memory."""
    cdef int capacity = 2 * s.leaf_capacity, slot_count = 4 * capacity, i, slot
    cdef Leaf* leaves = <Leaf*> realloc(s.leaves, capacity * sizeof(Leaf))
    if leaves == NULL:
        return False
    s.leaves = leaves
    cdef int32_t* index = <int32_t*> realloc(s.sorted_index, capacity * sizeof(int32_t))
    if index == NULL:
        return False
    s.sorted_index = index
    cdef int32_t* slots = <int32_t*> realloc(s.slots, slot_count * sizeof(int32_t))
    if slots == NULL:
        return False
    s.slots = slots
    s.slot_mask = slot_count - 1
    s.leaf_capacity = capacity
    memset(s.slots, 0, slot_count * sizeof(int32_t))
    if not s.unique:
        for i in range(s.nleaves):
            slot = _slot_of(s.leaves[i].zkey, s.slot_mask)
            while s.slots[slot]:
                slot = (slot + 1) & s.slot_mask
            s.slots[slot] = i + 1
            s.leaves[i].slot = slot
    return True


cdef inline void _clear_slots(Search* s) noexcept nogil:
    """Empty the hash table by clearing only the slots the leaves use."""
    cdef int i
    if not s.unique:
        for i in range(s.nleaves):
            s.slots[s.leaves[i].slot] = 0


# --- single moves ------------------------------------------------------------


cdef inline bint _can_move(const Search* s, int origin, int die) noexcept nogil:
    """Whether a stone (present, and allowed by the bar rule) may move from
    ``origin`` with ``die``: its target is open, or it may bear off."""
    cdef int target = origin - die, point
    if target >= 1:
        return s.board.opp[BAR - target] < 2
    if not s.rules.bears_off or s.outside:
        return False
    if target == 0:
        return True
    # A die larger than needed bears off only from the highest occupied point.
    for point in range(origin + 1, HOME_TOP + 1):
        if s.board.me[point]:
            return False
    return True


cdef inline void _set_count(Search* s, int place, int count) noexcept nogil:
    """Put ``count`` mover stones on ``place`` and refresh its occupied and
    multi bits (points only) from ``count`` itself: reading the byte back,
    or the bit masks after a byte store (which may alias them), would wait
    on memory."""
    cdef uint32_t bit = (<uint32_t> 1) << place
    s.board.me[place] = count
    if 1 <= place <= 24:
        s.occupied = (s.occupied & ~bit) | ((<uint32_t> (count > 0)) << place)
        s.multi = (s.multi & ~bit) | ((<uint32_t> (count > 1)) << place)


cdef inline void _make_move(Search* s, int depth, int origin, int die) noexcept nogil:
    cdef int target = origin - die
    cdef bint hit = False
    if target < 0:
        target = OFF
    cdef int origin_count = s.board.me[origin] - 1, target_count = s.board.me[target] + 1
    _set_count(s, origin, origin_count)
    _set_count(s, target, target_count)
    s.zkey += ZOBRIST[target] - ZOBRIST[origin]
    if origin > HOME_TOP and target <= HOME_TOP:
        s.outside -= 1
    if target != OFF and s.board.opp[BAR - target] == 1:
        hit = True
        s.board.opp[BAR - target] = 0
        s.board.opp[BAR] += 1
        s.zkey += ZOBRIST[PLACES + BAR] - ZOBRIST[PLACES + BAR - target]
    s.origin[depth] = origin
    s.target[depth] = target
    s.die[depth] = die
    s.hit[depth] = hit


cdef inline void _unmake_move(Search* s, int depth) noexcept nogil:
    cdef int origin = s.origin[depth], target = s.target[depth]
    if s.hit[depth]:
        s.board.opp[BAR] -= 1
        s.board.opp[BAR - target] = 1
        s.zkey -= ZOBRIST[PLACES + BAR] - ZOBRIST[PLACES + BAR - target]
    if origin > HOME_TOP and target <= HOME_TOP:
        s.outside += 1
    cdef int origin_count = s.board.me[origin] + 1, target_count = s.board.me[target] - 1
    _set_count(s, target, target_count)
    _set_count(s, origin, origin_count)
    s.zkey -= ZOBRIST[target] - ZOBRIST[origin]


cdef inline bint _mover_has_won(const Search* s) noexcept nogil:
    """The Ban-sugoroku win that ends a sequence (finish, or an immediate closure)."""
    if s.rules.bears_off:
        if s.board.me[OFF] == STONES:
            return True
    elif s.outside == 0:      # arrival: every stone on points 1..6
        return True
    return s.rules.closure == CLOSURE_IMMEDIATE and _closure(s.board.me, s.board.opp)


cdef inline int _count_outside(const Board* board) noexcept nogil:
    cdef int place, total = 0
    for place in range(HOME_TOP + 1, BAR + 1):
        total += board.me[place]
    return total


# --- leaves ------------------------------------------------------------------


cdef inline uint64_t _sequence_order(const Search* s, int nsteps) noexcept nogil:
    """The key tuple ((origin, target, die), ...) packed into 52 bits so that
    integer order is Python's tuple order (a missing step packs below any step)."""
    cdef uint64_t order = 0
    cdef int k
    for k in range(MAX_STEPS):
        order <<= STEP_BITS
        if k < nsteps:
            order |= ((<uint64_t> s.origin[k]) << 8) | ((<uint64_t> s.target[k]) << 3) | <uint64_t> s.die[k]
    return order


cdef inline void _store(Search* s, Leaf* leaf, int nsteps, bint large) noexcept nogil:
    memcpy(&leaf.board, &s.board, sizeof(Board))
    leaf.zkey = s.zkey
    leaf.large = large
    _store_steps(s, leaf, nsteps)


cdef inline void _store_steps(Search* s, Leaf* leaf, int nsteps) noexcept nogil:
    leaf.nsteps = nsteps
    if s.mode == MODE_COUNT:
        return
    leaf.order = _sequence_order(s, nsteps)
    memcpy(leaf.origin, s.origin, MAX_STEPS)
    memcpy(leaf.target, s.target, MAX_STEPS)
    memcpy(leaf.die, s.die, MAX_STEPS)
    memcpy(leaf.hit, s.hit, MAX_STEPS)


cdef inline bint _out_of_room(Search* s) noexcept nogil:
    """Whether the leaves are full and cannot grow (the search then fails)."""
    if s.nleaves == s.leaf_capacity and not _grow_leaves(s):
        s.failed = s.stop = True
        return True
    return False


cdef inline Leaf* _new_leaf(Search* s) noexcept nogil:
    if _out_of_room(s):
        return NULL
    s.nleaves += 1
    return &s.leaves[s.nleaves - 1]


cdef inline void _record_out(Search* s, int nsteps) noexcept nogil:
    """Write the current position and sequence to the next output row the
    batch lent (counting past the room without writing)."""
    cdef int64_t row = s.nleaves
    s.nleaves += 1
    if row < s.out_room:
        _write_row(s, row, &s.board, nsteps, s.origin, s.target, s.die, s.hit)


cdef void _record(Search* s, int used, int nsteps) noexcept nogil:
    """A maximal sequence of ``nsteps`` moves that counts as using ``used`` dice."""
    cdef bint large, hit
    cdef int k, slot
    cdef Leaf* leaf
    if used == 0 or used < s.best_used:
        return
    if used > s.best_used:      # the must-play rule: only the most dice count
        _clear_slots(s)
        s.nleaves = 0
        s.best_used = used
        s.any_large = s.hit_best = s.hit_large = s.hit_small = False
    large = s.larger != 0 and used == 1 and s.die[0] == s.larger
    if large:
        s.any_large = True

    if s.mode == MODE_SHOTS:
        hit = False
        for k in range(nsteps):
            hit = hit or s.hit[k]
        if s.larger != 0 and used == 1:
            if large:
                s.hit_large = s.hit_large or hit
            else:
                s.hit_small = s.hit_small or hit
        else:
            s.hit_best = s.hit_best or hit
            if hit and used == s.ndice:
                s.stop = True       # nothing can rule this hitting play out
        return

    if s.unique:
        if s.mode == MODE_COUNT:
            s.nleaves += 1
        elif s.wrote_out:
            _record_out(s, nsteps)
        else:
            leaf = _new_leaf(s)
            if leaf != NULL:
                _store(s, leaf, nsteps, large)
        return

    if _out_of_room(s):
        return
    slot = _slot_of(s.zkey, s.slot_mask)
    while s.slots[slot]:
        leaf = &s.leaves[s.slots[slot] - 1]
        if leaf.zkey == s.zkey and memcmp(&leaf.board, &s.board, sizeof(Board)) == 0:
            leaf.large = leaf.large or large
            if s.mode != MODE_COUNT and _sequence_order(s, nsteps) > leaf.order:
                _store_steps(s, leaf, nsteps)
            return
        slot = (slot + 1) & s.slot_mask
    leaf = &s.leaves[s.nleaves]
    s.nleaves += 1
    s.slots[slot] = s.nleaves
    leaf.slot = slot
    _store(s, leaf, nsteps, large)


# --- the search --------------------------------------------------------------


cdef inline uint32_t _origins(const Search* s, int die, int highest) noexcept nogil:
    """Bit mask of the points (at most ``highest``) from which a stone may
    move with ``die``, the mover having no stone on the bar."""
    cdef uint32_t origins = s.occupied & (s.open_points << die)
    cdef int top
    if s.rules.bears_off and s.outside == 0 and s.occupied:
        origins |= s.occupied & ((<uint32_t> 1) << die)          # exact bear-off
        top = highest_bit(s.occupied)
        if top < die:
            origins |= (<uint32_t> 1) << top      # a larger die bears off the highest
    if highest < 24:
        origins &= ((<uint32_t> 2) << highest) - 1
    return origins


cdef void _search(Search* s, int depth, int highest) noexcept nogil:
    """Extend the sequence of ``depth`` moves in every legal way, origins at
    most ``highest``, greatest origin first; record it if it cannot be extended."""
    cdef int die = s.dice[depth], origin
    cdef uint32_t origins
    if s.board.me[BAR] > 0:
        if highest >= BAR and (s.open_points >> (BAR - die)) & 1:
            _descend(s, depth, BAR, die)
        else:
            _record(s, depth, depth)
        return
    origins = _origins(s, die, highest)
    if not origins:
        _record(s, depth, depth)
    elif s.wrote_out and depth + 1 == s.ndice:
        _record_out_each(s, depth, origins, die)
    elif FAST_COUNTS and s.unique and s.mode == MODE_COUNT and depth + 3 >= s.ndice:
        if depth + 1 == s.ndice:
            _record_many(s, s.ndice, popcount(origins))   # the last ply: count, don't play
        elif s.rules.bears_off and s.outside < s.ndice - depth:
            _search_each(s, depth, origins, die)    # a bear-off may come: play on
        elif depth + 2 == s.ndice:
            _count_last_two(s, s.occupied, s.multi, die, highest)
        else:
            _count_last_three(s, origins, die)
    else:
        _search_each(s, depth, origins, die)


cdef inline void _search_each(Search* s, int depth, uint32_t origins, int die) noexcept nogil:
    cdef int origin
    while origins:
        origin = highest_bit(origins)
        origins ^= (<uint32_t> 1) << origin
        _descend(s, depth, origin, die)
        if s.stop:
            return


cdef void _record_out_each(Search* s, int depth, uint32_t origins, int die) noexcept nogil:
    """The last move of a double, from each of ``origins`` (greatest first,
    as _search_each takes them), when plays go straight to the batch's rows:
    each play is written from the board before the move, without making
    and unmaking it (what _descend then _record would do)."""
    cdef int origin, target
    cdef int64_t row
    cdef Board* board
    if s.ndice > s.best_used:      # the first play using every die (see _record)
        s.nleaves = 0
        s.best_used = s.ndice
    while origins:
        origin = highest_bit(origins)
        origins ^= (<uint32_t> 1) << origin
        row = s.nleaves
        s.nleaves += 1
        if row >= s.out_room:
            continue
        target = origin - die
        if target < 0:
            target = OFF        # a larger die bearing off the highest stone
        s.origin[depth] = origin
        s.target[depth] = target
        s.die[depth] = die
        s.hit[depth] = target != OFF and s.board.opp[BAR - target] == 1
        # Bytes computed from s.board: the row is only written, never read.
        board = <Board*> (s.out_children + row * sizeof(Board))
        memcpy(board, &s.board, sizeof(Board))
        board.me[origin] = s.board.me[origin] - 1
        board.me[target] = s.board.me[target] + 1
        if s.hit[depth]:
            board.opp[BAR - target] = 0
            board.opp[BAR] = s.board.opp[BAR] + 1
        _write_steps(s, row, depth + 1, s.origin, s.target, s.die, s.hit)


cdef void _count_last_three(Search* s, uint32_t origins, int die) noexcept nogil:
    """Count the last three moves of a double (no bar stone, no bear-off
    possible): for each first of them, from ``origins``, the last two as
    _count_last_two counts them on the masks after that move. No make and
    unmake: the open points do not change within a turn, and whether the
    move hits does not matter to the moves after it."""
    cdef int origin, target, count
    cdef uint32_t occupied, multi
    while origins:
        origin = highest_bit(origins)
        origins ^= (<uint32_t> 1) << origin
        target = origin - die       # a point: no bear-off
        count = s.board.me[origin]
        occupied = (s.occupied | ((<uint32_t> 1) << target)) & ~((<uint32_t> (count == 1)) << origin)
        multi = ((s.multi | ((<uint32_t> (s.board.me[target] >= 1)) << target))
                 & ~((<uint32_t> (count == 2)) << origin))
        _count_last_two(s, occupied, multi, die, origin)


cdef void _count_last_two(Search* s, uint32_t occupied, uint32_t multi, int die,
                          int highest) noexcept nogil:
    """Count the last two moves of a double (origins non-increasing, at most
    ``highest``; no bar stone, no bear-off possible) as _count_plain does,
    the mover's stones being ``occupied`` and ``multi``."""
    cdef uint32_t reach = s.open_points << die
    cdef uint32_t origins = occupied & reach
    if highest < 24:
        origins &= ((<uint32_t> 2) << highest) - 1
    cdef int pairs = _double_pairs(origins, occupied, multi, reach, die)
    cdef int single = popcount(origins)
    if pairs:
        _record_many(s, s.ndice, pairs)
    elif single:
        _record_many(s, s.ndice - 1, single)
    else:
        _record(s, s.ndice - 2, s.ndice - 2)


cdef inline int _double_pairs(uint32_t origins, uint32_t occupied, uint32_t multi,
                              uint32_t reach, int die) noexcept nogil:
    """Distinct two-move plays of a double (no bar stone, no bear-off) whose
    first move is from one of ``origins``, the second from the same point or
    a lower one: two origins, two stones from one point (``multi``), or one
    stone on through an empty intermediate point (``reach``: open_points << die)."""
    cdef int n = popcount(origins)
    return (n * (n - 1) // 2 + popcount(origins & multi)
            + popcount(origins & ((reach & ~occupied) << die)))


cdef inline void _record_many(Search* s, int used, int count) noexcept nogil:
    """``count`` distinct maximal sequences using ``used`` dice (unique MODE_COUNT)."""
    if used < s.best_used:
        return
    if used > s.best_used:
        s.nleaves = 0
        s.best_used = used
    s.nleaves += count


cdef void _descend(Search* s, int depth, int origin, int die) noexcept nogil:
    _make_move(s, depth, origin, die)
    if depth + 1 == s.ndice or (s.rules.win_stops and _mover_has_won(s)):
        _record(s, s.ndice, depth + 1)      # a win counts as using every die
    else:
        _search(s, depth + 1, origin if s.nonincreasing else BAR)
    _unmake_move(s, depth)


cdef void _sort_leaves(Search* s) noexcept nogil:
    """``sorted_index`` = leaf indices by descending sequence key (shell sort)."""
    cdef int n = s.nleaves, gap, i, j
    cdef int32_t item
    cdef uint64_t key
    for i in range(n):
        s.sorted_index[i] = i
    if s.presorted:
        return      # found in descending order already
    gap = 1
    while gap < n // 3:
        gap = 3 * gap + 1
    while gap >= 1:
        for i in range(gap, n):
            item = s.sorted_index[i]
            key = s.leaves[item].order
            j = i
            while j >= gap and s.leaves[s.sorted_index[j - gap]].order < key:
                s.sorted_index[j] = s.sorted_index[j - gap]
                j -= gap
            s.sorted_index[j] = item
        gap //= 3


cdef int run_turn(Search* s, const Board* start, int a, int b, int mode) noexcept nogil:
    """Search the turn of ``start`` (a game still going on) with dice ``a``, ``b``.

    Returns the number of results (MODE_COUNT, MODE_PLAYS: distinct positions;
    MODE_SEQUENCES: distinct legal sequences; MODE_SHOTS: 1 if a legal play
    hits, else 0), or -1 if memory ran out. The results are ``s.leaves`` in
    the order of ``s.sorted_index`` (MODE_PLAYS, MODE_SEQUENCES).
    """
    cdef int k, kept
    s.mode = mode
    s.wrote_out = False
    if mode == MODE_PLAYS and (a != b or s.rules.doubles_moves == 2):
        kept = _plays_two_moves(s, start, a, b)
        if kept >= 0:
            if not s.wrote_out:
                _sort_leaves(s)
            return kept
    memcpy(&s.board, start, sizeof(Board))
    s.zkey = 0
    s.outside = _count_outside(start)
    _masks(start, &s.occupied, &s.open_points)
    _more_masks(start, &s.multi, &s.blots)
    s.nleaves = 0
    s.best_used = 0
    s.any_large = s.stop = s.failed = False
    s.hit_best = s.hit_large = s.hit_small = False
    if a != b:
        s.ndice = 2
        s.larger = a if a > b else b
        s.nonincreasing = s.presorted = False
        s.unique = mode == MODE_SEQUENCES or mode == MODE_SHOTS
        s.dice[0] = a
        s.dice[1] = b
        _search(s, 0, BAR)
        if not s.stop:
            s.dice[0] = b
            s.dice[1] = a
            _search(s, 0, BAR)
    else:
        s.ndice = s.rules.doubles_moves
        s.larger = 0
        # With the win-stop, a sequence can only be reordered if no prefix
        # of the reordering wins: search every order (two moves only).
        s.nonincreasing = not s.rules.win_stops and mode != MODE_SEQUENCES
        s.presorted = s.nonincreasing
        # Found in final order, each once: write to the batch's rows if lent.
        s.wrote_out = s.presorted and mode == MODE_PLAYS and s.out_children != NULL
        s.unique = s.nonincreasing or mode == MODE_SEQUENCES or mode == MODE_SHOTS
        for k in range(s.ndice):
            s.dice[k] = a
        _search(s, 0, BAR)
    if s.failed:
        _clear_slots(s)
        s.nleaves = 0
        return -1
    if mode == MODE_SHOTS:
        if s.best_used == 0:
            return 0
        if s.larger != 0 and s.best_used == 1:
            return s.hit_large if s.any_large else s.hit_small
        return s.hit_best
    _clear_slots(s)
    if s.larger != 0 and s.best_used == 1 and s.any_large:
        # One die only, and the larger one can be played: it must be.
        kept = 0
        for k in range(s.nleaves):
            if s.leaves[k].large:
                if kept != k:
                    s.leaves[kept] = s.leaves[k]
                kept += 1
        s.nleaves = kept
    if mode != MODE_COUNT and not s.wrote_out:
        _sort_leaves(s)
    return s.nleaves


# --- two-move plays without a search ---------------------------------------------


cdef inline bint _apply_step(Board* board, int origin, int target) noexcept nogil:
    """Move a mover stone from ``origin`` to the point ``target`` on ``board``;
    whether it hit."""
    cdef bint hit = board.opp[BAR - target] == 1
    board.me[origin] -= 1
    board.me[target] += 1
    if hit:
        board.opp[BAR - target] = 0
        board.opp[BAR] += 1
    return hit


cdef inline void _play_step(Leaf* leaf, int k, int origin, int die) noexcept nogil:
    """Step ``k`` of a leaf's play, applied to its board (target >= 1)."""
    cdef int target = origin - die
    cdef bint hit = _apply_step(&leaf.board, origin, target)
    leaf.origin[k] = origin
    leaf.target[k] = target
    leaf.die[k] = die
    leaf.hit[k] = hit


cdef inline void _play_step_out(Board* board, signed char* steps, signed char* dice,
                                unsigned char* hits, int k, int origin, int die) noexcept nogil:
    """_play_step writing to batch output rows."""
    cdef int target = origin - die
    cdef bint hit = _apply_step(board, origin, target)
    steps[2 * k] = origin
    steps[2 * k + 1] = target
    dice[k] = die
    hits[k] = hit


cdef inline void _emit_out(Search* s, const Board* start, int origin1, int die1,
                           int origin2, int die2) noexcept nogil:
    """_emit into the output rows the batch lent (counting past the room
    without writing, so a disagreement with the count shows)."""
    cdef int64_t row = s.nleaves
    s.nleaves += 1
    if row >= s.out_room:
        return
    cdef Board* board = <Board*> (s.out_children + row * sizeof(Board))
    cdef signed char* steps = s.out_steps + row * 2 * MAX_STEPS
    cdef signed char* dice = s.out_dice + row * MAX_STEPS
    cdef unsigned char* hits = s.out_hits + row * MAX_STEPS
    memcpy(board, start, sizeof(Board))
    memset(steps, -1, 2 * MAX_STEPS)
    memset(dice, -1, MAX_STEPS)
    memset(hits, 0, MAX_STEPS)
    _play_step_out(board, steps, dice, hits, 0, origin1, die1)
    if origin2:
        _play_step_out(board, steps, dice, hits, 1, origin2, die2)


cdef inline void _write_row(Search* s, int64_t row, const Board* board, int nsteps,
                            const signed char* origin, const signed char* target,
                            const signed char* die, const signed char* hit) noexcept nogil:
    """Output row ``row`` of the rows the batch lent = this play."""
    memcpy(s.out_children + row * sizeof(Board), board, sizeof(Board))
    _write_steps(s, row, nsteps, origin, target, die, hit)


cdef inline void _write_steps(Search* s, int64_t row, int nsteps,
                              const signed char* origin, const signed char* target,
                              const signed char* die, const signed char* hit) noexcept nogil:
    """The steps, dice and hits of output row ``row`` (padded with -1, hits
    with 0), each field written once from a local copy."""
    cdef signed char steps[2 * MAX_STEPS]
    cdef signed char dice[MAX_STEPS]
    cdef unsigned char hits[MAX_STEPS]
    cdef int k
    for k in range(MAX_STEPS):
        if k < nsteps:
            steps[2 * k] = origin[k]
            steps[2 * k + 1] = target[k]
            dice[k] = die[k]
            hits[k] = hit[k]
        else:
            steps[2 * k] = steps[2 * k + 1] = dice[k] = -1
            hits[k] = 0
    memcpy(s.out_steps + row * 2 * MAX_STEPS, steps, 2 * MAX_STEPS)
    memcpy(s.out_dice + row * MAX_STEPS, dice, MAX_STEPS)
    memcpy(s.out_hits + row * MAX_STEPS, hits, MAX_STEPS)


cdef inline void _emit(Search* s, const Board* start, int origin1, int die1,
                       int origin2, int die2) noexcept nogil:
    """Add the play (origin1 with die1[, then origin2 with die2]) as a leaf,
    or straight to the batch's output rows if it lent some."""
    if s.out_children != NULL:
        _emit_out(s, start, origin1, die1, origin2, die2)
        return
    cdef Leaf* leaf = _new_leaf(s)
    if leaf == NULL:
        return
    memcpy(&leaf.board, start, sizeof(Board))
    leaf.large = False
    _play_step(leaf, 0, origin1, die1)
    leaf.nsteps = 1
    if origin2:
        _play_step(leaf, 1, origin2, die2)
        leaf.nsteps = 2


cdef inline bint _is_open(const Search* s, int point) noexcept nogil:
    return point >= 1 and (s.open_points >> point) & 1


cdef inline bint _routes_merge(const Search* s, int origin, int first, int second) noexcept nogil:
    """One stone from ``origin`` moving ``first`` then ``second`` reaches the
    same position by the other route: that route is open and neither
    intermediate point holds a blot."""
    return (_is_open(s, origin - second)
            and not (s.blots >> (origin - first)) & 1
            and not (s.blots >> (origin - second)) & 1)


cdef int _plays_two_moves(Search* s, const Board* start, int a, int b) noexcept nogil:
    """The plays of a two-move turn in the cases _count_two_moves counts,
    as leaves in descending canonical order (``s.presorted``); -1 where
    only a search will do."""
    cdef int small = a if a < b else b, large = a if a > b else b
    cdef int origin1, origin2, die1, die2, target1, k, bar = start.me[BAR]
    cdef uint32_t first_origins, second_origins, after
    if not _two_moves_decided(start, s.rules):
        return -1
    memcpy(&s.board, start, sizeof(Board))
    _masks(start, &s.occupied, &s.open_points)
    _more_masks(start, &s.multi, &s.blots)
    s.nleaves = 0
    s.failed = False
    s.presorted = True
    s.wrote_out = s.out_children != NULL
    if bar:
        _plays_entering(s, start, small, large)
        return s.nleaves if not s.failed else -1
    first_origins = s.occupied
    while first_origins:
        origin1 = highest_bit(first_origins)
        first_origins ^= (<uint32_t> 1) << origin1
        for k in range(2):      # the smaller die lands higher: its key is greater
            die1 = small if k == 0 else large
            die2 = large if k == 0 else small
            target1 = origin1 - die1
            if not _is_open(s, target1) or (k == 1 and small == large):
                continue
            # Points holding a stone after the first move, able to move die2.
            after = s.occupied | ((<uint32_t> 1) << target1)
            if start.me[origin1] == 1:
                after &= ~((<uint32_t> 1) << origin1)
            second_origins = after & (s.open_points << die2)
            if small == large:      # origins non-increasing: each multiset once, greatest order
                second_origins &= ((<uint32_t> 2) << origin1) - 1
            while second_origins:
                origin2 = highest_bit(second_origins)
                second_origins ^= (<uint32_t> 1) << origin2
                if small != large:
                    if origin2 == target1:
                        # One stone on through target1; via the smaller die first is greater.
                        if die2 < die1 and _routes_merge(s, origin1, die1, die2):
                            continue
                    elif origin2 - die2 == origin1:
                        continue    # = the stone from origin2 through origin1: greater key
                    elif origin2 > origin1 or (origin2 == origin1 and die1 == large):
                        continue    # independent moves: the other order is greater
                _emit(s, start, origin1, die1, origin2, die2)
    if s.nleaves == 0:      # no two-move play: one die, the larger if it plays
        for k in range(2):
            die1 = large if k == 0 else small
            first_origins = s.occupied & (s.open_points << die1)
            while first_origins:
                origin1 = highest_bit(first_origins)
                first_origins ^= (<uint32_t> 1) << origin1
                _emit(s, start, origin1, die1, 0, 0)
            if s.nleaves:
                break
    if s.failed:
        s.nleaves = 0
        return -1
    return s.nleaves


cdef void _plays_entering(Search* s, const Board* start, int small, int large) noexcept nogil:
    """_plays_two_moves with stones on the bar (see _count_entering)."""
    cdef int k, die1, die2, entry, origin2
    cdef uint32_t second_origins
    if start.me[BAR] >= 2:
        if small == large:
            if _is_open(s, BAR - small):
                _emit(s, start, BAR, small, BAR, small)
        elif _is_open(s, BAR - small) and _is_open(s, BAR - large):
            _emit(s, start, BAR, small, BAR, large)
        elif _is_open(s, BAR - large):
            _emit(s, start, BAR, large, 0, 0)
        elif _is_open(s, BAR - small):
            _emit(s, start, BAR, small, 0, 0)
        return
    for k in range(2):
        die1 = small if k == 0 else large
        die2 = large if k == 0 else small
        entry = BAR - die1
        if not _is_open(s, entry) or (k == 1 and small == large):
            continue
        second_origins = (s.occupied | ((<uint32_t> 1) << entry)) & (s.open_points << die2)
        while second_origins:
            origin2 = highest_bit(second_origins)
            second_origins ^= (<uint32_t> 1) << origin2
            if (origin2 == entry and die2 < die1
                    and _routes_merge(s, BAR, die1, die2)):
                continue    # the entered stone on: via the smaller die first is greater
            _emit(s, start, BAR, die1, origin2, die2)
    if s.nleaves == 0:
        if _is_open(s, BAR - large):
            _emit(s, start, BAR, large, 0, 0)
        elif _is_open(s, BAR - small):
            _emit(s, start, BAR, small, 0, 0)


# --- counting without a search -------------------------------------------------


cdef inline void _masks(const Board* board, uint32_t* occupied, uint32_t* open_points) noexcept nogil:
    """Bit p (1..24, mover numbering): the mover has a stone on p; the
    opponent does not block p (fewer than 2 stones)."""
    occupied[0] = row_gt(board.me, 0) & POINT_BITS
    open_points[0] = ~flip26(row_gt(board.opp, 1)) & POINT_BITS


cdef inline void _more_masks(const Board* board, uint32_t* multi, uint32_t* blots) noexcept nogil:
    """Bit p: the mover has two or more on p; the opponent has one stone on p."""
    multi[0] = row_gt(board.me, 1) & POINT_BITS
    blots[0] = flip26(row_eq(board.opp, 1)) & POINT_BITS


cdef inline int _home_missing(const Board* board) noexcept nogil:
    """Stones the mover lacks for two on each of its points 1..6."""
    cdef int point, missing = 0
    for point in range(1, HOME_TOP + 1):
        if board.me[point] < 2:
            missing += 2 - board.me[point]
    return missing


cdef inline bint _two_moves_decided(const Board* board, RuleSet rules) noexcept nogil:
    """Whether no bear-off and no win can come before the second move of a
    two-move turn, the case that _count_two_moves and _plays_two_moves
    handle without a search."""
    cdef int bar = board.me[BAR]
    # An entering stone never lands in the home; any other first move
    # fills at most one missing stone.
    if rules.closure == CLOSURE_IMMEDIATE and _home_missing(board) < (1 if bar else 2):
        return False
    return bar or _count_outside(board) >= 2


cdef int _count_two_moves(const Board* board, RuleSet rules, int a, int b) noexcept nogil:
    """Distinct plays of a two-move turn (dice a > b, or a double a == b
    giving two moves) without a search, or -1 where only a search will do:
    when a bear-off or a win could happen before the second move."""
    cdef uint32_t occupied, open_points
    if not _two_moves_decided(board, rules):
        return -1
    _masks(board, &occupied, &open_points)
    if board.me[BAR]:
        return _count_entering(board, occupied, open_points, a, b)
    return _count_plain(board, occupied, open_points, a, b)


cdef int _count_entering(const Board* board, uint32_t occupied, uint32_t open_points,
                         int a, int b) noexcept nogil:
    """_count_two_moves with stones on the bar: every sequence starts by
    entering, at 25 - die; after entering with one die the other die moves
    any stone (the entered one too), so no bear-off can follow."""
    cdef int entry_a = BAR - a, entry_b = BAR - b, plays = 0
    cdef bint open_a = (open_points >> entry_a) & 1, open_b = (open_points >> entry_b) & 1
    if a == b:
        if not open_a:
            return 0
        if board.me[BAR] >= 2:
            return 1
        plays = popcount((occupied | ((<uint32_t> 1) << entry_a)) & (open_points << a))
        return plays if plays else 1
    if board.me[BAR] >= 2:      # both dice enter (same position in either order), or one
        return 1 if open_a or open_b else 0
    if open_a:
        plays += popcount((occupied | ((<uint32_t> 1) << entry_a)) & (open_points << b))
    if open_b:
        plays += popcount((occupied | ((<uint32_t> 1) << entry_b)) & (open_points << a))
    # The entered stone moving on with the other die reaches 25 - a - b by
    # both routes: one play unless an intermediate point holds a blot.
    if (open_a and open_b and (open_points >> (BAR - a - b)) & 1
            and board.opp[a] != 1 and board.opp[b] != 1):
        plays -= 1
    if plays:
        return plays
    return 1 if open_a or open_b else 0


cdef int _count_plain(const Board* board, uint32_t occupied, uint32_t open_points,
                      int a, int b) noexcept nogil:
    """_count_two_moves with no stone on the bar and at least two outside
    home (so neither move can bear off or win).

    Each two-move play is a multiset {(p, a), (q, b)} of single moves
    (origin, die), realisable in some order; distinct multisets reach distinct
    positions, except that one stone moving a + b through an intermediate
    point that hits nothing reaches the same position by either route.
    """
    cdef uint32_t multi, blots
    cdef uint32_t reach_a, reach_b, from_a, from_b, chain_a, chain_b, merged
    cdef int na, nb, pairs
    _more_masks(board, &multi, &blots)
    reach_a = open_points << a          # bit p: p - a is a point the mover may land on
    from_a = occupied & reach_a         # origins of legal single moves with a
    na = popcount(from_a)
    if a == b:
        pairs = _double_pairs(from_a, occupied, multi, reach_a, a)
        return pairs if pairs else na
    # Chains through an empty intermediate point (through an occupied one,
    # the pair of origins is already counted).
    reach_b = open_points << b
    from_b = occupied & reach_b
    nb = popcount(from_b)
    chain_a = from_a & ((reach_b & ~occupied) << a)
    chain_b = from_b & ((reach_a & ~occupied) << b)
    merged = (occupied & reach_a & reach_b & (reach_b << a) & (reach_a << b)
              & ~(blots << a) & ~(blots << b))
    pairs = (na * nb - popcount(from_a & from_b & ~multi)
             + popcount(chain_a) + popcount(chain_b) - popcount(merged))
    if pairs:
        return pairs
    return na if na else nb     # one die only: the larger (a) when it plays


cdef int count_plays_one(Search* s, const Board* start, int a, int b) noexcept nogil:
    """Distinct plays of ``start`` with dice ``a``, ``b``: 0 for a pass or a
    finished game, -1 if both rows have won (invalid), -2 if out of memory."""
    cdef int winner, value
    cdef int kind = outcome_of(start, s.rules, &winner, &value)
    if kind == KIND_BOTH_WON:
        return -1
    if kind != KIND_NONE:
        return 0
    return _count_turn(s, start, a, b)


cdef inline int _count_turn(Search* s, const Board* start, int a, int b) noexcept nogil:
    """count_plays_one of a game going on (-2 if out of memory)."""
    cdef int n
    if a < b:
        a, b = b, a
    if FAST_COUNTS and (a != b or s.rules.doubles_moves == 2):
        n = _count_two_moves(start, s.rules, a, b)
        if n >= 0:
            return n
    n = run_turn(s, start, a, b, MODE_COUNT)
    return -2 if n < 0 else n


cdef int shots_one(Search* s, const Board* start) noexcept nogil:
    """How many of the 36 rolls let the mover hit with a legal play (0 if
    the game is over), -1 if both rows have won, -2 if out of memory."""
    cdef int winner, value, a, b, hits, total = 0
    cdef int kind = outcome_of(start, s.rules, &winner, &value)
    cdef int point
    cdef bint any_blot = False
    if kind == KIND_BOTH_WON:
        return -1
    if kind != KIND_NONE:
        return 0
    for point in range(1, BAR):
        if start.opp[point] == 1:
            any_blot = True
            break
    if not any_blot:
        return 0
    for a in range(1, 7):
        for b in range(1, a + 1):
            hits = run_turn(s, start, a, b, MODE_SHOTS)
            if hits < 0:
                return -2
            if hits:
                total += 1 if a == b else 2
    return total


cdef int64_t _perft(Search** searches, const Board* start, int depth, int a, int b) noexcept nogil:
    """Leaves of the play tree ``depth`` plies deep (searches: one per ply)
    over the 21 rolls, or (``a`` != 0) below the roll ``a``, ``b`` only;
    -1 if both rows have won somewhere, -2 if out of memory."""
    cdef int winner, value
    cdef int64_t total = 0, below
    if depth == 0:
        return 1
    cdef int kind = outcome_of(start, searches[0].rules, &winner, &value)
    if kind == KIND_BOTH_WON:
        return -1
    if kind != KIND_NONE:
        return 1
    if a:
        return _perft_roll(searches, start, depth, a, b)
    for a in range(6, 0, -1):
        for b in range(a, 0, -1):
            below = _perft_roll(searches, start, depth, a, b)
            if below < 0:
                return below
            total += below
    return total


cdef int64_t _perft_roll(Search** searches, const Board* start, int depth, int a, int b) noexcept nogil:
    """perft below one roll of ``start`` (a game going on, ``depth`` >= 1):
    the sum over its plays, or 1 for a pass."""
    cdef Search* s = searches[0]
    cdef int n, k
    cdef int64_t total = 0, below
    cdef Board child
    if depth == 1:
        n = _count_turn(s, start, a, b)
        if n < 0:
            return n
        return n if n else 1
    n = run_turn(s, start, a, b, MODE_PLAYS)
    if n < 0:
        return -2
    if n == 0:
        return 1
    for k in range(n):
        memcpy(child.me, s.leaves[k].board.opp, PLACES)
        memcpy(child.opp, s.leaves[k].board.me, PLACES)
        below = _perft(searches + 1, &child, depth - 1, 0, 0)
        if below < 0:
            return below
        total += below
    return total


# --- Python entry points: single positions -----------------------------------
#
# A position crosses as the 52 bytes of Position.key (row me then row opp),
# rules as Rules.code. Single calls keep the GIL (they take microseconds)
# and share one search per rule code.

cdef Search* _single_searches[16]


cdef Search* _single_search(int code) except NULL:
    if _single_searches[code] == NULL:
        _single_searches[code] = search_new(rules_from_code(code))
        if _single_searches[code] == NULL:
            raise MemoryError()
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
    global FAST_COUNTS
    FAST_COUNTS = enabled


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
    RECORD_BYTES-byte record in its slot ``_record`` and nothing else: it is
    allocated as ``object.__new__`` would, without ``__init__``, which would
    cost more than the search. A record: the 52-byte board, the number of
    steps, 3 pad bytes, then (origin, target, die, hit) for each of 4 steps."""
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
            _write_record(out + k * RECORD_BYTES, &s.leaves[s.sorted_index[k]])
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
    memcpy(out, &leaf.board, sizeof(Board))
    memset(out + 52, 0, RECORD_BYTES - 52)
    out[52] = leaf.nsteps
    for k in range(leaf.nsteps):
        out[56 + 4 * k] = leaf.origin[k]
        out[57 + 4 * k] = leaf.target[k]
        out[58 + 4 * k] = leaf.die[k]
        out[59 + 4 * k] = leaf.hit[k]


def count(bytes key, int a, int b, int code):
    """Distinct plays of one position, or -1 if both rows have won."""
    cdef Board board
    _load(&board, key)
    cdef int n = count_plays_one(_single_search(code), &board, a, b)
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
        leaf = &s.leaves[k]
        found.add((leaf.origin[0], leaf.target[0], leaf.die[0], bool(leaf.hit[0])))
    return sorted(found, reverse=True)


def shots(bytes key, int code):
    """Rolls out of 36 with a hitting legal play; -1 if both rows have won."""
    cdef Board board
    _load(&board, key)
    cdef int n = shots_one(_single_search(code), &board)
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
        searches[k] = search_new(rules)
    try:
        for k in range(levels):
            if searches[k] == NULL:
                raise MemoryError()
        _load(&board, key)
        with nogil:
            total = _perft(searches, &board, depth, a, b)
        if total == -2:
            raise MemoryError()
        return total
    finally:
        for k in range(levels):
            search_free(searches[k])
        free(searches)


# --- Python entry points: batches --------------------------------------------
#
# The Python layer has validated every item; the loops run without the GIL,
# items spread over OpenMP threads with a dynamic schedule, each thread with
# its own search. Results depend only on the item, never on the thread.

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
    cdef Search* s
    cdef const signed char* rows
    s = NULL
    with nogil, parallel(num_threads=threads):
        s = search_new(rules)
        for i in prange(n, schedule="dynamic", chunksize=CHUNK):
            rows = &positions[i, 0, 0]
            if not looks_valid(rows):
                out[i] = -3
            elif not rules.bears_off and (rows[OFF] or rows[PLACES + OFF]):
                out[i] = -4
            elif s == NULL:
                out[i] = -2
            else:
                out[i] = count_plays_one(s, <const Board*> rows, dice[i, 0], dice[i, 1])
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
    cdef Search* s
    cdef const Board* board
    cdef int kind, found, k
    cdef Leaf* leaf
    cdef int mismatches = 0
    # Row 0 of each output (none when no item has a play: nothing is written)
    cdef signed char* children0 = NULL
    cdef signed char* steps0 = NULL
    cdef signed char* dice0 = NULL
    cdef uint8_t* hits0 = NULL
    if children.shape[0]:
        children0, steps0 = &children[0, 0, 0], &steps[0, 0, 0]
        dice0, hits0 = &step_dice[0, 0], &hits[0, 0]
    s = NULL
    with nogil, parallel(num_threads=threads):
        s = search_new(rules)
        for i in prange(n, schedule="dynamic", chunksize=CHUNK):
            found = 0
            if s != NULL:
                # (outcome_of's winner and value go to the thread's search)
                board = <const Board*> &positions[i, 0, 0]
                kind = outcome_of(board, rules, &s.winner, &s.value)
                if kind == KIND_NONE:
                    s.out_children = children0 + offsets[i] * sizeof(Board)
                    s.out_steps = steps0 + offsets[i] * 2 * MAX_STEPS
                    s.out_dice = dice0 + offsets[i] * MAX_STEPS
                    s.out_hits = hits0 + offsets[i] * MAX_STEPS
                    s.out_room = offsets[i + 1] - offsets[i]
                    found = run_turn(s, board, dice[i, 0], dice[i, 1], MODE_PLAYS)
                    if found == s.out_room and not s.wrote_out:
                        for k in range(found):
                            leaf = &s.leaves[s.sorted_index[k]]
                            _write_row(s, k, &leaf.board, leaf.nsteps, leaf.origin, leaf.target,
                                       leaf.die, leaf.hit)
                    s.out_children = NULL
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
    cdef Search* s
    s = NULL
    with nogil, parallel(num_threads=threads):
        s = search_new(rules)
        for i in prange(n, schedule="dynamic", chunksize=CHUNK):
            if s == NULL:
                out[i] = -2
            else:
                out[i] = shots_one(s, <const Board*> &positions[i, 0, 0])
        search_free(s)
