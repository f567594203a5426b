# cython: language_level=3
"""The depth-first search of one turn: every legal play of a roll.

The rules are those of docs/rules.md as ``bansugoroku_fast.oracle`` reads them;
the search computes the same results another way, fast:

* A turn is searched depth first on one :c:type:`Board` that is changed and
  restored in place (``_make_move`` / ``_unmake_move``), with the bit masks
  of the mover's stones kept up to date move by move, so that the origins
  of the next move are one mask expression (``_origins``), not a scan.
* Each resulting position is identified by an additive Zobrist key kept up
  to date move by move, and confirmed by comparing the 52 bytes of the
  board, so two different positions are never merged (``_record``).
* Doubles without the Ban-sugoroku win-stop (backgammon) are searched with
  non-increasing origins: every multiset of same-die moves is visited once,
  in its greatest order, and distinct multisets give distinct positions, so
  no look-up and no sort is needed at all; with rows lent by a batch, those
  plays are written straight to the rows: the last move from the board
  before it (``_record_out_each``), and where no bear-off can come, the
  last two from the position after the first of them, made once per first
  move (``_record_out_last_two``).
* A backgammon non-double near the bear-off being counted (where the
  closed form cannot count) has only its first move made: each last move
  is added as the exact key of the position it reaches, deduped in a small
  array (``_count_by_keys``), with no board hashed or compared.
* Whole rolls that need no search at all go to ``_shortcuts``: in
  ``run_turn`` (MODE_PLAYS), every non-double and every Ban-sugoroku double
  where no bear-off and no win can come before the second move; in
  ``count_turn``, the same rolls counted from bit masks; and inside the
  search of a backgammon double being counted, its last two, three or four
  moves (once no stone is on the bar and no bear-off can come).

The search state (:c:type:`Search`), the plays it found (:c:type:`PlaySet`)
and the rows a batch lends (:c:type:`OutputRows`) are declared in
``_search.pxd``. Everything runs without the GIL and trusts its input.
"""
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy, memset

from ._board cimport (
    BAR, Board, CLOSURE_IMMEDIATE, HOME_TOP, MAX_STEPS, OFF, PLACES, RuleSet, STATUS_NO_MEMORY, STONES,
    Scan, count_outside, highest_bit, home_closed, popcount_places, scan_board, scan_masks,
)
from ._shortcuts cimport count_last_four, count_last_three, count_last_two, count_scanned, plays_two_moves

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


cdef inline void _clear_slots(Search* s) noexcept nogil:
    """Empty the hash table by clearing only the slots the leaves use."""
    cdef int i
    if not s.unique:
        for i in range(s.found.count):
            s.found.slots[s.found.leaves[i].slot] = 0


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


cdef inline void _record_out(Search* s, int nsteps) noexcept nogil:
    """Write the current position and sequence to the next output row the
    batch lent (counting past the room without writing)."""
    cdef int64_t row = s.found.count
    s.found.count += 1
    if row < s.rows.room:
        write_row(&s.rows, row, &s.board, nsteps, s.origin, s.target, s.die, s.hit)


cdef void _record(Search* s, int used, int nsteps) noexcept nogil:
    """A maximal sequence of ``nsteps`` moves that counts as using ``used`` dice."""
    cdef bint large, hit
    cdef int k, slot
    cdef Leaf* leaf
    if used == 0 or used < s.best_used:
        return
    if used > s.best_used:      # the must-play rule: only the most dice count
        _clear_slots(s)
        s.found.count = 0
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
            s.found.count += 1
        elif s.wrote_out:
            _record_out(s, nsteps)
        else:
            leaf = new_leaf(s)
            if leaf != NULL:
                _store(s, leaf, nsteps, large)
        return

    if out_of_room(s):
        return
    slot = slot_of(s.zkey, s.found.slot_mask)
    while s.found.slots[slot]:
        leaf = &s.found.leaves[s.found.slots[slot] - 1]
        if leaf.zkey == s.zkey and memcmp(&leaf.board, &s.board, sizeof(Board)) == 0:
            leaf.large = leaf.large or large
            if s.mode != MODE_COUNT and _sequence_order(s, nsteps) > leaf.order:
                _store_steps(s, leaf, nsteps)
            return
        slot = (slot + 1) & s.found.slot_mask
    leaf = &s.found.leaves[s.found.count]
    s.found.count += 1
    s.found.slots[slot] = s.found.count
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
    elif s.count_keys and depth == 1:
        _count_by_keys(s, origins, die)
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


cdef enum:
    NO_PLACE = 31       # an absent member of a _place_pair


cdef inline uint64_t _place_pair(int first, int second) noexcept nogil:
    """The multiset of places {first, second} (NO_PLACE: absent) as 10 bits."""
    if first > second:
        first, second = second, first
    return <uint64_t> first | (<uint64_t> second) << 5


cdef inline uint64_t _play_key(int origin1, int target1, int origin2, int target2, uint32_t hit_points) noexcept nogil:
    """Which position the two moves origin1 -> target1, origin2 -> target2
    (OFF: borne off) reach, hitting on ``hit_points``, from the position
    they start from: the places that gain a mover stone and those that
    lose one, a stone moved on through a place counted once (the moves go
    down, so only target1 == origin2 or target2 == origin1 can cancel),
    and the points hit. Equal keys, equal positions; different keys,
    different positions."""
    cdef int gain1 = target1, gain2 = target2, loss1 = origin1, loss2 = origin2
    if target1 == origin2:
        gain1 = loss2 = NO_PLACE
    elif target2 == origin1:
        gain2 = loss1 = NO_PLACE
    return _place_pair(gain1, gain2) | _place_pair(loss1, loss2) << 10 | (<uint64_t> hit_points) << 20


cdef void _count_by_keys(Search* s, uint32_t origins, int die) noexcept nogil:
    """The last move of a non-double counted by keys (``s.count_keys``):
    the plays of the first move made and a last move from each of
    ``origins``, added by their keys (_play_key), each distinct one once,
    without making the last move."""
    cdef int origin, target, k
    cdef uint32_t hit_points
    cdef uint64_t key
    if s.ndice > s.best_used:      # the first play using both dice (see _record)
        _clear_slots(s)
        s.found.count = 0
        s.best_used = s.ndice
    while origins:
        origin = highest_bit(origins)
        origins ^= (<uint32_t> 1) << origin
        target = origin - die if origin > die else OFF
        hit_points = (<uint32_t> s.hit[0]) << s.target[0]
        if target != OFF and s.board.opp[BAR - target] == 1:
            hit_points |= (<uint32_t> 1) << target
        key = _play_key(s.origin[0], s.target[0], origin, target, hit_points)
        for k in range(s.nkeys):
            if s.play_keys[k] == key:
                break
        else:
            if s.nkeys == MAX_PLAY_KEYS:        # cannot happen (see MAX_PLAY_KEYS)
                s.found.failed = True
                return
            s.play_keys[s.nkeys] = key
            s.nkeys += 1


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
    cdef uint32_t after, last_origins, reach = s.open_points << die
    while origins:
        origin = highest_bit(origins)
        origins ^= (<uint32_t> 1) << origin
        target = origin - die
        # The mover's points after this move; the last move's origins at
        # most this one (the order of a double's moves, non-increasing).
        after = (s.occupied | ((<uint32_t> 1) << target)) & ~((<uint32_t> (s.board.me[origin] == 1)) << origin)
        last_origins = after & reach & (((<uint32_t> 2) << origin) - 1)
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
    cdef int k, kept
    s.mode = mode
    s.wrote_out = False
    if mode == MODE_PLAYS and (a != b or s.rules.doubles_moves == 2):
        kept = plays_two_moves(s, start, scan, a, b)
        if kept >= 0:
            if not s.wrote_out:
                _sort_leaves(s)
            return kept
    memcpy(&s.board, start, sizeof(Board))
    s.zkey = 0
    s.outside = count_outside(start)
    scan_masks(scan, &s.occupied, &s.open_points, &s.multi, &s.blots)
    s.found.count = 0
    s.best_used = 0
    s.any_large = s.stop = s.found.failed = False
    s.hit_best = s.hit_large = s.hit_small = False
    s.nkeys = 0
    s.count_keys = False
    if a != b:
        s.ndice = 2
        s.larger = a if a > b else b
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
    else:
        s.ndice = s.rules.doubles_moves
        s.larger = 0
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
        _clear_slots(s)
        s.found.count = 0
        return STATUS_NO_MEMORY
    if mode == MODE_SHOTS:
        if s.best_used == 0:
            return 0
        if s.larger != 0 and s.best_used == 1:
            return s.hit_large if s.any_large else s.hit_small
        return s.hit_best
    _clear_slots(s)
    if s.nkeys:         # the plays using both dice, counted by keys
        s.found.count = s.nkeys
    if s.larger != 0 and s.best_used == 1 and s.any_large:
        # One die only, and the larger one can be played: it must be.
        kept = 0
        for k in range(s.found.count):
            if s.found.leaves[k].large:
                if kept != k:
                    s.found.leaves[kept] = s.found.leaves[k]
                kept += 1
        s.found.count = kept
    if mode != MODE_COUNT and not s.wrote_out:
        _sort_leaves(s)
    return s.found.count


# --- counting ----------------------------------------------------------------


cdef int count_turn(Search* s, const Board* start, int a, int b) noexcept nogil:
    """Distinct plays of ``start`` (a game going on) with dice ``a``, ``b``,
    from the closed forms of ``_shortcuts`` where they apply (and
    ``s.fast_counts``), else by a search; STATUS_NO_MEMORY if out of memory."""
    cdef Scan scan
    scan_board(start, &scan)
    return count_scanned(s, s.rules, s.fast_counts, start, &scan, a, b)

