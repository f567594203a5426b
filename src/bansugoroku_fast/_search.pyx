# cython: language_level=3
"""The walker of a turn: every legal play of a roll, listed, counted or drawn.

The rules of a turn (docs/rules.md §2, as ``bansugoroku_fast.oracle``
reads them) are written here once: where a stone may move with a die, bar
entry first and bear-off (``_move_origins``), and the must-play rule (the
most dice: ``_record``; one die: the larger if it plays,
``_die_of_one_move``). Two walks apply them, fast:

* The depth-first search, for every roll: one :c:type:`Board` changed and
  restored in place (``_make_move`` / ``_unmake_move``), the masks of the
  mover's stones kept up to date move by move, so that a move's origins
  are one mask expression, not a scan. Each resulting position has an
  additive Zobrist key, confirmed by comparing the 52 bytes of the board,
  so two positions are never merged (``_record``). Doubles without the
  win-stop (backgammon) take non-increasing origins: every multiset of
  moves once, in its greatest order, so no look-up and no sort; with rows
  lent by a batch, the last move is written from the board before it
  (``_record_out_each``), and where no bear-off can come, the last two
  from the position after the first of them (``_record_out_last_two``).
* The two-move walk (``_walk_two_moves``), for a two-move turn where no
  bear-off and no win can come before the second move: the pairs of
  origins in ``legal_plays`` order, each position once by construction,
  with neither a dedupe table nor a sort; it lists them (``run_turn``) or
  makes play k alone (``two_move_play``, the game loop's random draw).

Counts that need no walk (closed forms: two-move rolls, a double's last
moves, a non-double's last move by keys) are ``_shortcuts``', held against
these walks by the tests (``fast_counts`` off, the k-th play).

The search state (:c:type:`Search`), the plays it found (:c:type:`PlaySet`)
and the rows a batch lends (:c:type:`OutputRows`) are declared in
``_search.pxd``. Everything runs without the GIL and trusts its input.
"""
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy, memset

from ._board cimport (
    BAR, Board, CLOSURE_IMMEDIATE, HOME_TOP, MAX_STEPS, OFF, PLACES, RuleSet, STATUS_NO_MEMORY, STONES,
    Scan, count_outside, highest_bit, home_closed, nth_highest, popcount_places, scan_board, scan_masks,
)
from ._shortcuts cimport (
    count_by_keys, count_last_four, count_last_three, count_last_two, count_scanned, two_moves_decided,
)

cdef enum:
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

# --- the search context ------------------------------------------------------


cdef Search* search_new(RuleSet rules, bint fast_counts) noexcept nogil:
    """A search with room for FIRST_LEAVES results; NULL if out of memory.

    ``fast_counts`` False makes ``count_turn`` search everywhere (no
    closed-form counts), so that tests can hold the shortcuts against it.
    """
    cdef Search* s = <Search*> malloc(sizeof(Search))
    if s == NULL:
        return NULL
    memset(s, 0, sizeof(Search))
    s.rules = rules
    s.fast_counts = fast_counts
    s.found.leaves = <Leaf*> malloc(FIRST_LEAVES * sizeof(Leaf))
    s.found.sorted_index = <int32_t*> malloc(FIRST_LEAVES * sizeof(int32_t))
    s.found.slots = <int32_t*> malloc(FIRST_SLOTS * sizeof(int32_t))
    if s.found.leaves == NULL or s.found.sorted_index == NULL or s.found.slots == NULL:
        search_free(s)
        return NULL
    memset(s.found.slots, 0, FIRST_SLOTS * sizeof(int32_t))
    s.found.capacity = FIRST_LEAVES
    s.found.slot_mask = FIRST_SLOTS - 1
    return s


cdef void search_free(Search* s) noexcept nogil:
    if s != NULL:
        free(s.found.leaves)
        free(s.found.sorted_index)
        free(s.found.slots)
        free(s)


cdef Search* slot_search(Search** searches, int slot, RuleSet rules, bint fast_counts) noexcept nogil:
    """The search of the thread of ``slot`` in a job of the pool
    (``searches``: one entry a slot, NULL until the slot's first chunk),
    made now if it has none yet; NULL if out of memory."""
    if searches[slot] == NULL:
        searches[slot] = search_new(rules, fast_counts)
    return searches[slot]


cdef void free_slot_searches(Search** searches, int slots) noexcept nogil:
    """Free the searches ``slot_search`` made, after the job."""
    cdef int slot
    for slot in range(slots):
        search_free(searches[slot])


# --- single moves ------------------------------------------------------------


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
    return s.rules.closure == CLOSURE_IMMEDIATE and home_closed(s.board.me, s.board.opp)


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


cdef inline void _store(Search* s, Leaf* leaf, int nsteps) noexcept nogil:
    memcpy(&leaf.board, &s.board, sizeof(Board))
    leaf.zkey = s.zkey
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


cdef inline void _record_out(Search* s, int nsteps) noexcept nogil:
    """Write the current position and sequence to the next output row the
    batch lent (counting past the room without writing)."""
    cdef int64_t row = s.found.count
    s.found.count += 1
    if row < s.rows.room:
        write_row(&s.rows, row, &s.board, nsteps, s.origin, s.target, s.die, s.hit)


cdef void _record(Search* s, int used, int nsteps) noexcept nogil:
    """A maximal sequence of ``nsteps`` moves that counts as using ``used``
    dice. The must-play rule: only the plays using the most dice count
    (those of a non-double using one die are searched apart, when none
    uses both: _search_one_die)."""
    cdef bint hit
    cdef int k, slot
    cdef Leaf* leaf
    if used < s.least_used or used < s.best_used:
        return
    if used > s.best_used:
        clear_slots(s)
        s.found.count = 0
        s.best_used = used
        s.hit_best = False

    if s.mode == MODE_SHOTS:
        hit = False
        for k in range(nsteps):
            hit = hit or s.hit[k]
        s.hit_best = s.hit_best or hit
        if hit and used == s.ndice:
            s.stop = True       # nothing can rule this hitting play out
        return

    if s.unique:
        if s.mode == MODE_COUNT:
            s.found.count += 1
        elif s.wrote_out:
            _record_out(s, nsteps)
        else:
            leaf = new_leaf(s)
            if leaf != NULL:
                _store(s, leaf, nsteps)
        return

    if out_of_room(s):
        return
    slot = slot_of(s.zkey, s.found.slot_mask)
    while s.found.slots[slot]:
        leaf = &s.found.leaves[s.found.slots[slot] - 1]
        if leaf.zkey == s.zkey and memcmp(&leaf.board, &s.board, sizeof(Board)) == 0:
            if s.mode != MODE_COUNT and _sequence_order(s, nsteps) > leaf.order:
                _store_steps(s, leaf, nsteps)
            return
        slot = (slot + 1) & s.found.slot_mask
    leaf = &s.found.leaves[s.found.count]
    s.found.count += 1
    s.found.slots[slot] = s.found.count
    leaf.slot = slot
    _store(s, leaf, nsteps)


# --- the rule of a move -------------------------------------------------------
#
# Where a stone may move with a die (bar entry first, bear-off) and which die
# a one-move play uses are written here once: the search and the two-move
# walk below take every move's origins from _move_origins, and both apply
# the must-play rule's last clause through _die_of_one_move.


cdef inline uint32_t _move_origins(uint32_t occupied, int bar_stones, uint32_t open_points, bint bearing_off,
                                   int die, int highest) noexcept nogil:
    """The places (bit p: point p; bit BAR: the bar) from which a mover's
    stone may move with ``die`` (docs/rules.md §2), at most ``highest``.
    While a stone is on the bar, the bar alone: it enters on 25 - die if
    that point is open. Otherwise each point of ``occupied`` (the mover's
    points) whose target, ``die`` lower, is open (``open_points``: fewer
    than two opponent stones); and while ``bearing_off`` (the rules bear
    off and every mover stone is home), the point ``die`` itself (an exact
    bear-off) and, if every stone is lower than ``die``, the highest."""
    cdef uint32_t movers = (<uint32_t> 1) << BAR if bar_stones else occupied
    cdef uint32_t origins = movers & (open_points << die)
    cdef int top
    if bearing_off and occupied:
        origins |= occupied & ((<uint32_t> 1) << die)
        top = highest_bit(occupied)
        if top < die:
            origins |= (<uint32_t> 1) << top
    return origins & (((<uint32_t> 2) << highest) - 1)


cdef inline int _die_of_one_move(uint32_t occupied, int bar_stones, uint32_t open_points, bint bearing_off,
                                 int small, int large) noexcept nogil:
    """The must-play rule where no play uses both dice of a roll: one move,
    with the larger die if a stone may move with it, else the smaller."""
    if _move_origins(occupied, bar_stones, open_points, bearing_off, large, BAR):
        return large
    return small


cdef inline bint _bearing_off(const Search* s) noexcept nogil:
    """Whether a stone may bear off: the rules bear off and every mover
    stone is home."""
    return s.rules.bears_off and s.outside == 0


# --- the search --------------------------------------------------------------


cdef void _search(Search* s, int depth, int highest) noexcept nogil:
    """Extend the sequence of ``depth`` moves in every legal way, origins at
    most ``highest``, greatest origin first; record it if it cannot be extended."""
    cdef int die = s.dice[depth]
    cdef uint32_t origins = _move_origins(s.occupied, s.board.me[BAR], s.open_points, _bearing_off(s), die, highest)
    if not origins:
        _record(s, depth, depth)
    elif s.board.me[BAR]:
        _descend(s, depth, BAR, die)        # entering: the bar is the only origin
    elif s.count_keys and depth == 1:
        count_by_keys(s, origins, die)
    elif s.wrote_out and depth + 1 == s.ndice:
        _record_out_each(s, depth, origins, die)
    elif s.wrote_out and depth + 2 == s.ndice and (not s.rules.bears_off or s.outside >= 2):
        _record_out_last_two(s, depth, origins, die)      # no bear-off within the two moves
    elif s.fast_counts and s.unique and s.mode == MODE_COUNT and depth + 4 >= s.ndice:
        if depth + 1 == s.ndice:
            record_many(s, s.ndice, popcount_places(origins))   # the last ply: count, don't play
        elif s.rules.bears_off and s.outside < s.ndice - depth:
            _search_each(s, depth, origins, die)    # a bear-off may come: play on
        elif depth + 2 == s.ndice:
            count_last_two(s, s.occupied, s.multi, die, highest)
        elif depth + 3 == s.ndice:
            count_last_three(s, origins, die)
        else:
            count_last_four(s, origins, die)
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


cdef struct _Earlier:
    uint32_t blots          # the opponent's blots still standing
    uint64_t pairs          # the steps made, packed as write_moves takes them
    uint32_t dice
    uint32_t hits


cdef inline _Earlier _earlier_steps(const Search* s, int depth) noexcept nogil:
    """The ``depth`` steps the search has made, for writing rows after them
    (packed only if the batch wants a step field)."""
    cdef int k
    cdef _Earlier earlier
    earlier.blots = s.blots
    earlier.pairs = earlier.dice = earlier.hits = 0
    for k in range(depth):
        if s.hit[k]:
            earlier.blots &= ~((<uint32_t> 1) << s.target[k])
    for k in range(depth if steps_wanted(&s.rows) else 0):
        earlier.pairs |= (<uint64_t> (<uint8_t> s.origin[k] | (<uint32_t> <uint8_t> s.target[k]) << 8)) << (16 * k)
        earlier.dice |= (<uint32_t> <uint8_t> s.die[k]) << (8 * k)
        earlier.hits |= (<uint32_t> <uint8_t> s.hit[k]) << (8 * k)
    return earlier


cdef inline void _every_die_used(Search* s) noexcept nogil:
    """Before writing a play that uses every die: the first such drops the
    shorter ones written so far (see _record)."""
    if s.ndice > s.best_used:
        s.found.count = 0
        s.best_used = s.ndice


cdef void _record_out_each(Search* s, int depth, uint32_t origins, int die) noexcept nogil:
    """The last move of a double, from each of ``origins`` (greatest first,
    as _search_each takes them), when plays go straight to the batch's rows:
    the rows are written from the board before the move (``write_moves``,
    the steps before it packed), without making and unmaking it (what
    _descend then _record would do)."""
    cdef _Earlier earlier = _earlier_steps(s, depth)
    _every_die_used(s)
    write_moves(s, &s.board, origins, die, earlier.blots, depth, earlier.pairs, earlier.dice, earlier.hits)


cdef void _record_out_last_two(Search* s, int depth, uint32_t origins, int die) noexcept nogil:
    """The last two moves of a double, the first from each of ``origins``
    (greatest first), when plays go straight to the batch's rows and
    neither move can bear off or enter: for each first move, the position
    after it is made once and the rows of every last move written from it
    (``write_moves_after``), without making and unmaking either. A first
    move after which no move is left is a shorter play: the search
    records it (_descend), in the same order as _search_each would."""
    cdef _Earlier earlier = _earlier_steps(s, depth)
    cdef int origin, target
    cdef uint32_t after, last_origins
    while origins:
        origin = highest_bit(origins)
        origins ^= (<uint32_t> 1) << origin
        target = origin - die
        # The mover's points after this move; the last move's origins at
        # most this one (the order of a double's moves, non-increasing).
        after = (s.occupied | ((<uint32_t> 1) << target)) & ~((<uint32_t> (s.board.me[origin] == 1)) << origin)
        last_origins = _move_origins(after, 0, s.open_points, False, die, origin)
        if not last_origins:
            _descend(s, depth, origin, die)
            continue
        _every_die_used(s)
        write_moves_after(s, &s.board, origin, die, earlier.blots, last_origins, die, depth,
                          earlier.pairs, earlier.dice, earlier.hits)


cdef void _descend(Search* s, int depth, int origin, int die) noexcept nogil:
    _make_move(s, depth, origin, die)
    if depth + 1 == s.ndice or (s.rules.win_stops and _mover_has_won(s)):
        _record(s, s.ndice, depth + 1)      # a win counts as using every die
    else:
        _search(s, depth + 1, origin if s.nonincreasing else BAR)
    _unmake_move(s, depth)


# --- the two-move walk's plays ------------------------------------------------


cdef inline void _play_step(Leaf* leaf, int k, int origin, int die) noexcept nogil:
    """Step ``k`` of a leaf's play, applied to its board (target >= 1)."""
    cdef int target = origin - die
    cdef bint hit = apply_step(&leaf.board, origin, target)
    leaf.origin[k] = origin
    leaf.target[k] = target
    leaf.die[k] = die
    leaf.hit[k] = hit


cdef inline void _emit(Search* s, const Board* start, int origin1, int die1,
                       int origin2, int die2) noexcept nogil:
    """Add the play (origin1 with die1[, then origin2 with die2]) as a leaf,
    or straight to the batch's output rows if it lent some."""
    if s.rows.children != NULL:
        if origin2:
            _emit_second_moves(s, start, origin1, die1, (<uint32_t> 1) << origin2, die2)
        else:
            write_moves(s, start, (<uint32_t> 1) << origin1, die1, s.blots, 0, 0, 0, 0)
        return
    cdef Leaf* leaf = new_leaf(s)
    if leaf == NULL:
        return
    memcpy(&leaf.board, start, sizeof(Board))
    _play_step(leaf, 0, origin1, die1)
    leaf.nsteps = 1
    if origin2:
        _play_step(leaf, 1, origin2, die2)
        leaf.nsteps = 2


cdef inline void _emit_second_moves(Search* s, const Board* start, int origin1, int die1,
                                    uint32_t second_origins, int die2) noexcept nogil:
    """_emit every play (origin1 with die1, then one of ``second_origins``
    with die2), greatest second origin first. Into lent rows, the position
    after the first move is made once and the rows are written from it
    (``write_moves``). This is ``write_moves_after`` for step 0, written
    out: calling that general helper here cost 45 instructions an item in
    Ban-sugoroku (callgrind), in the code the compiler made."""
    cdef int origin2
    if not second_origins:
        return
    if s.rows.children == NULL:
        while second_origins:
            origin2 = highest_bit(second_origins)
            second_origins ^= (<uint32_t> 1) << origin2
            _emit(s, start, origin1, die1, origin2, die2)
        return
    cdef int target1 = origin1 - die1
    cdef Board middle
    cdef uint32_t hit1 = (s.blots >> target1) & 1
    memcpy(&middle, start, sizeof(Board))
    patch_step(&middle, origin1, target1, hit1)
    write_moves(s, &middle, second_origins, die2, s.blots & ~((<uint32_t> 1) << target1), 1,
                <uint8_t> origin1 | (<uint32_t> <uint8_t> target1) << 8, <uint8_t> die1, hit1)


# --- the two-move walk -----------------------------------------------------------
#
# A two-move turn's plays (two_moves_decided: no bear-off and no win before
# the second move) are walked once, in legal_plays order, by
# _walk_two_moves, whose visit says what to do with them: list them all
# (_ListPlays: into the search's leaves or a batch's rows) or make play k
# alone (_PickPlay: two_move_play, the game loop's random draw, which counts
# each group of plays by a popcount and makes only the one drawn). The
# visit is a fused type, so each compiles to its own loop. Their number is
# the closed form count_two_moves (_shortcuts.pxd), a different algorithm,
# which the tests hold against this walk (tests/test_games.py draws every
# play k of thousands of rolls and compares it, and the count, with the
# listed plays).

cdef struct _ListPlays:
    Search* s             # every play, to the search (its leaves, or the rows a batch lent)

cdef struct _PickPlay:
    int k                 # play k alone (plays before it in the walk: taken off)
    Board* out            # made here

ctypedef fused _Visit:
    _ListPlays
    _PickPlay


cdef inline bint _open_at(uint32_t open_points, int point) noexcept nogil:
    return point >= 1 and (open_points >> point) & 1


cdef inline bint _routes_merge(uint32_t open_points, uint32_t blots, int origin, int first,
                               int second) noexcept nogil:
    """One stone from ``origin`` moving ``first`` then ``second`` reaches the
    same position by the other route: that route is open and neither
    intermediate point holds a blot."""
    return (_open_at(open_points, origin - second)
            and not (blots >> (origin - first)) & 1
            and not (blots >> (origin - second)) & 1)


cdef inline bint _visit_group(_Visit* visit, const Board* start, int origin1, int die1, uint32_t seconds,
                              int die2) noexcept nogil:
    """The plays ``origin1`` -> ``origin1 - die1``, then a move with
    ``die2`` from each of ``seconds``, greatest first: listed (returns
    False), or play ``k`` made if it is one of them (returns True), else
    their number taken off ``k``."""
    cdef int n, origin2
    if _Visit is _ListPlays:
        _emit_second_moves(visit.s, start, origin1, die1, seconds, die2)
        return False
    else:
        n = popcount_places(seconds)
        if visit.k >= n:
            visit.k -= n
            return False
        memcpy(visit.out, start, sizeof(Board))
        apply_step(visit.out, origin1, origin1 - die1)
        origin2 = nth_highest(seconds, visit.k)
        apply_step(visit.out, origin2, origin2 - die2)
        return True


cdef inline void _visit_singles(_Visit* visit, const Board* start, uint32_t origins, int die) noexcept nogil:
    """The plays of one move with ``die`` from each of ``origins``, greatest
    first: listed, or play ``k`` made."""
    cdef int origin
    if _Visit is _ListPlays:
        while origins:
            origin = highest_bit(origins)
            origins ^= (<uint32_t> 1) << origin
            _emit(visit.s, start, origin, die, 0, 0)
    else:
        origin = nth_highest(origins, visit.k)
        memcpy(visit.out, start, sizeof(Board))
        apply_step(visit.out, origin, origin - die)


cdef inline void _walk_two_moves(_Visit* visit, const Board* start, uint32_t occupied, uint32_t open_points,
                                 uint32_t blots, int small, int large) noexcept nogil:
    """Walk the plays of a two-move turn of ``start`` (dice ``small`` <=
    ``large``; two_moves_decided, so no bear-off: the masks of scan_masks)
    in legal_plays order, doing ``visit`` with each (_visit_group,
    _visit_singles; a play to pick: 0 <= k < count_two_moves).

    Each move's origins are _move_origins' (the bar alone while a stone is
    on it). The first moves go from the greatest origin down, the smaller
    die first (its target is higher: the greater key). A pair of moves of
    two stones is taken once, in its order of the greater key: after the
    smaller die from a place, second origins up to that place; after the
    larger, only below it. One stone moving on through the first move's
    target reaches the same position by both routes unless an
    intermediate point holds a blot: it is taken via the smaller die
    first. With no two-move play, one move (_die_of_one_move)."""
    cdef int bar = start.me[BAR], origin1, target1, die
    cdef int bar_after = bar - 1 if bar else 0      # a first move enters a stone if one is on the bar
    cdef uint32_t firsts_small = _move_origins(occupied, bar, open_points, False, small, BAR)
    cdef uint32_t firsts_large = _move_origins(occupied, bar, open_points, False, large, BAR)
    cdef uint32_t firsts = firsts_small | firsts_large, single, after, seconds
    while firsts:
        origin1 = highest_bit(firsts)
        firsts ^= (<uint32_t> 1) << origin1
        single = (<uint32_t> (start.me[origin1] == 1)) << origin1     # its origin empties
        if (firsts_small >> origin1) & 1:
            target1 = origin1 - small
            after = (occupied | ((<uint32_t> 1) << target1)) & ~single
            seconds = _move_origins(after, bar_after, open_points, False, large, origin1)
            if _visit_group(visit, start, origin1, small, seconds, large):
                return
        if small != large and (firsts_large >> origin1) & 1:
            target1 = origin1 - large
            after = (occupied | ((<uint32_t> 1) << target1)) & ~single
            seconds = _move_origins(after, bar_after, open_points, False, small, origin1 - 1)
            if _routes_merge(open_points, blots, origin1, large, small):
                seconds &= ~((<uint32_t> 1) << target1)     # via the smaller die first
            if _visit_group(visit, start, origin1, large, seconds, small):
                return
    # No two-move play (a pick: k is past every two-move play only when
    # there is none): one move.
    if _Visit is _ListPlays:
        if visit.s.found.count:
            return
    die = _die_of_one_move(occupied, bar, open_points, False, small, large)
    _visit_singles(visit, start, _move_origins(occupied, bar, open_points, False, die, BAR), die)


cdef int _list_two_moves(Search* s, const Board* start, const Scan* scan, int a, int b) noexcept nogil:
    """The plays of a two-move turn of ``start`` (scanned as ``scan``;
    two_moves_decided) as leaves in descending canonical order
    (``s.presorted``) or into the rows a batch lent: their number, or
    STATUS_NO_MEMORY."""
    cdef _ListPlays visit
    visit.s = s
    memcpy(&s.board, start, sizeof(Board))
    scan_masks(scan, &s.occupied, &s.open_points, &s.multi, &s.blots)
    s.found.count = 0
    s.found.failed = False
    s.unique = s.presorted = True
    s.wrote_out = s.rows.children != NULL
    _walk_two_moves(&visit, start, s.occupied, s.open_points, s.blots, a if a < b else b, a if a > b else b)
    if s.found.failed:
        s.found.count = 0
        return STATUS_NO_MEMORY
    if not s.wrote_out:
        _sort_leaves(s)
    return s.found.count


cdef void two_move_play(const Board* start, const Scan* scan, int a, int b, int k, Board* out) noexcept nogil:
    """``out`` = ``start`` after play ``k`` (0 <= k < its count_two_moves
    count) of a two-move turn (two_moves_decided), the plays walked as
    run_turn lists them, counted group by group, and only play ``k`` made."""
    cdef uint32_t occupied, open_points, multi, blots
    cdef _PickPlay pick
    pick.k, pick.out = k, out
    scan_masks(scan, &occupied, &open_points, &multi, &blots)
    _walk_two_moves(&pick, start, occupied, open_points, blots, a if a < b else b, a if a > b else b)


# --- the turn --------------------------------------------------------------------


cdef void _sort_leaves(Search* s) noexcept nogil:
    """``sorted_index`` = leaf indices by descending sequence key (shell sort)."""
    cdef int n = s.found.count, gap, i, j
    cdef int32_t item
    cdef uint64_t key
    for i in range(n):
        s.found.sorted_index[i] = i
    if s.presorted:
        return      # found in descending order already
    gap = 1
    while gap < n // 3:
        gap = 3 * gap + 1
    while gap >= 1:
        for i in range(gap, n):
            item = s.found.sorted_index[i]
            key = s.found.leaves[item].order
            j = i
            while j >= gap and s.found.leaves[s.found.sorted_index[j - gap]].order < key:
                s.found.sorted_index[j] = s.found.sorted_index[j - gap]
                j -= gap
            s.found.sorted_index[j] = item
        gap //= 3


cdef int run_turn(Search* s, const Board* start, int a, int b, int mode) noexcept nogil:
    """run_turn_scanned, scanning ``start`` first."""
    cdef Scan scan
    scan_board(start, &scan)
    return run_turn_scanned(s, start, &scan, a, b, mode)


cdef int run_turn_scanned(Search* s, const Board* start, const Scan* scan, int a, int b, int mode) noexcept nogil:
    """Search the turn of ``start`` (a game still going on) with dice ``a``, ``b``.

    Returns the number of results (MODE_COUNT, MODE_PLAYS: distinct positions;
    MODE_SEQUENCES: distinct legal sequences; MODE_SHOTS: 1 if a legal play
    hits, else 0), or STATUS_NO_MEMORY. The results are ``s.found.leaves`` in
    the order of ``s.found.sorted_index`` (MODE_PLAYS, MODE_SEQUENCES).
    """
    cdef int k
    s.mode = mode
    s.wrote_out = False
    if mode == MODE_PLAYS and (a != b or s.rules.doubles_moves == 2) and two_moves_decided(start, scan, s.rules):
        return _list_two_moves(s, start, scan, a, b)
    memcpy(&s.board, start, sizeof(Board))
    s.zkey = 0
    s.outside = count_outside(start)
    scan_masks(scan, &s.occupied, &s.open_points, &s.multi, &s.blots)
    s.found.count = 0
    s.best_used = 0
    s.stop = s.found.failed = s.hit_best = False
    s.nkeys = 0
    s.count_keys = False
    if a != b:
        s.ndice = s.least_used = 2
        s.nonincreasing = s.presorted = False
        s.unique = mode == MODE_SEQUENCES or mode == MODE_SHOTS
        # Near the bear-off, where the closed form cannot count: the plays
        # by their keys (a few points only: see MAX_PLAY_KEYS).
        s.count_keys = (mode == MODE_COUNT and s.fast_counts and s.rules.bears_off and not s.rules.win_stops
                        and start.me[BAR] == 0 and popcount_places(s.occupied) <= 7)
        s.dice[0] = a
        s.dice[1] = b
        _search(s, 0, BAR)
        if not s.stop:
            s.dice[0] = b
            s.dice[1] = a
            _search(s, 0, BAR)
        if s.best_used == 0 and not s.found.failed:
            _search_one_die(s, a if a < b else b, a if a > b else b)
    else:
        s.ndice = s.rules.doubles_moves
        s.least_used = 1
        # With the win-stop, a sequence can only be reordered if no prefix
        # of the reordering wins: search every order (two moves only).
        s.nonincreasing = not s.rules.win_stops and mode != MODE_SEQUENCES
        s.presorted = s.nonincreasing
        # Found in final order, each once: write to the batch's rows if lent.
        s.wrote_out = s.presorted and mode == MODE_PLAYS and s.rows.children != NULL
        s.unique = s.nonincreasing or mode == MODE_SEQUENCES or mode == MODE_SHOTS
        for k in range(s.ndice):
            s.dice[k] = a
        _search(s, 0, BAR)
    if s.found.failed:
        clear_slots(s)
        s.found.count = 0
        return STATUS_NO_MEMORY
    if mode == MODE_SHOTS:
        return s.hit_best
    clear_slots(s)
    if s.nkeys:         # the plays using both dice, counted by keys
        s.found.count = s.nkeys
    if mode != MODE_COUNT and not s.wrote_out:
        _sort_leaves(s)
    return s.found.count


cdef void _search_one_die(Search* s, int small, int large) noexcept nogil:
    """The plays of a non-double when none uses both dice (nothing found,
    the board back at the start): one move, with the die of
    _die_of_one_move. Each reaches a position of its own, found greatest
    origin first."""
    s.ndice = s.least_used = 1
    s.count_keys = False
    s.unique = s.presorted = True
    s.dice[0] = _die_of_one_move(s.occupied, s.board.me[BAR], s.open_points, _bearing_off(s), small, large)
    _search(s, 0, BAR)


# --- counting ----------------------------------------------------------------


cdef int count_turn(Search* s, const Board* start, int a, int b) noexcept nogil:
    """Distinct plays of ``start`` (a game going on) with dice ``a``, ``b``,
    from the closed forms of ``_shortcuts`` where they apply (and
    ``s.fast_counts``), else by a search; STATUS_NO_MEMORY if out of memory."""
    cdef Scan scan
    scan_board(start, &scan)
    return count_scanned(s, s.rules, s.fast_counts, start, &scan, a, b)

