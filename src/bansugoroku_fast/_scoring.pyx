# cython: language_level=3
"""What the kernels' policies score a play by: the features, Tesauro's
pubeval and a network's 0-ply equity (``_games.pyx`` chooses a play with
them, ``_env.pyx`` through it).

Everything here is specified by ``bansugoroku_fast.oracle`` (the features,
the scores and the tie rule) and must compute exactly what it computes:
integers for the features, float64 sums in index order for the scores (this
module is compiled with ``-ffp-contract=off``, so no fused multiply-add
changes a rounding), the first greatest score wins. The functions the other
modules call are declared in ``_scoring.pxd``; they trust their arguments
(valid boards, the Python layer checks them).
"""
from libc.stdint cimport int16_t, int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc

from ._board cimport (
    BAR, OFF, POINT_BITS, STONES, Board, RuleSet, home_closed, lowest_bit, popcount, row_eq, row_gt, checked_rules,
)
from ._net cimport (
    BSF_NET_MAX_HIDDEN, Model, bsf_net, bsf_net_children_sums, bsf_net_equity, bsf_net_exact_sums, bsf_net_finish,
    bsf_net_forward_range, bsf_net_scratch, bsf_net_sums, handed_over, is_race, model_of, net_for, table_row,
)
from ._pool cimport bsf_job, job_threads, run_job
from ._queries cimport outcome_of

from bansugoroku_fast.scoring import (
    FEATURE_NAMES, PUBEVAL_CONTACT_WEIGHTS, PUBEVAL_RACE_WEIGHTS, PUBEVAL_WIN_SCORE,
)

assert len(FEATURE_NAMES) == FEATURES

cdef double PUBEVAL_RACE[PUBEVAL_INPUTS]
cdef double PUBEVAL_CONTACT[PUBEVAL_INPUTS]
cdef double PUBEVAL_WIN = PUBEVAL_WIN_SCORE
for _i in range(PUBEVAL_INPUTS):
    PUBEVAL_RACE[_i] = PUBEVAL_RACE_WEIGHTS[_i]
    PUBEVAL_CONTACT[_i] = PUBEVAL_CONTACT_WEIGHTS[_i]

# HITTING[m][d]: bit r set if the ordered roll r = 6 * (a - 1) + (b - 1)
# carries a stone d pips (1..24), blocks ignored, when a double moves m
# times (m = 2 or 4).
cdef uint64_t HITTING[5][25]


cdef void _init_hitting() noexcept nogil:
    cdef int moves, a, b, k, roll
    for moves in range(2, 5, 2):
        for a in range(1, 7):
            for b in range(1, 7):
                roll = 6 * (a - 1) + b - 1
                if a == b:
                    for k in range(1, moves + 1):
                        HITTING[moves][a * k] |= 1ULL << roll
                else:
                    HITTING[moves][a] |= 1ULL << roll
                    HITTING[moves][b] |= 1ULL << roll
                    HITTING[moves][a + b] |= 1ULL << roll


_init_hitting()


# --- features -----------------------------------------------------------------


cdef inline int _exposure(uint32_t blots, uint32_t other_places, int doubles_moves) noexcept nogil:
    """Rolls of 36 on which ``other`` could hit a blot, blocks ignored: a
    stone on its place q (bit q, 25 = bar) reaches our point p (bit p) after
    q + p - 25 pips."""
    cdef uint32_t distances = 0
    cdef int point
    while blots:
        point = lowest_bit(blots)
        blots &= blots - 1
        distances |= other_places >> (25 - point)
    return _count_rolls(_hitting_rolls(distances, doubles_moves))


cdef inline uint64_t _hitting_rolls(uint32_t distances, int doubles_moves) noexcept nogil:
    """The rolls (bits of HITTING) that carry a stone one of the
    ``distances`` (bit d: d pips; bit 0 ignored), blocks ignored."""
    cdef uint64_t rolls = 0
    distances &= ~1u
    while distances:
        rolls |= HITTING[doubles_moves][lowest_bit(distances)]
        distances &= distances - 1
    return rolls


cdef inline int _count_rolls(uint64_t rolls) noexcept nogil:
    return popcount(<uint32_t> rolls) + popcount(<uint32_t> (rolls >> 32))


cdef enum:
    HOME_BITS = 0x7E            # points 1..6
    BACK_BITS = 0x3F << 19      # points 19..24


cdef inline int _longest_run(uint32_t bits) noexcept nogil:
    """The longest run of consecutive set bits."""
    cdef int length = 0
    while bits:                 # each round shortens every run by one
        bits &= bits << 1
        length += 1
    return length


cdef void side_features(const signed char* own, const signed char* other, RuleSet rules,
                        int won, int* out) noexcept nogil:
    """The SIDE_FEATURES integers of ``own`` against ``other`` (``won``: the
    value of ``own``'s win, 0 if none), in the oracle's order
    (``oracle.features.side_features`` defines each). Counts of points come
    from bit masks of the row (bit p = point p)."""
    cdef uint32_t blots = row_eq(own, 1) & POINT_BITS
    cdef uint32_t made = row_gt(own, 1) & POINT_BITS
    cdef uint32_t heavy = row_gt(own, 3) & POINT_BITS
    cdef uint32_t other_places = row_gt(other, 0) & (POINT_BITS | (1u << BAR))
    cdef int p, pips = 0, stacking = 0
    for p in range(1, 26):
        pips += p * own[p]
    while heavy:
        p = lowest_bit(heavy)
        heavy &= heavy - 1
        stacking += own[p] - 3
    out[0] = pips
    out[1] = own[OFF]
    out[2] = own[BAR]
    out[3] = own[1] + own[2] + own[3] + own[4] + own[5] + own[6]
    out[4] = own[19] + own[20] + own[21] + own[22] + own[23] + own[24] + own[BAR]
    out[5] = popcount(blots)
    out[6] = popcount(made)
    out[7] = popcount(made & HOME_BITS)
    out[8] = _longest_run(made)
    out[9] = popcount(made & BACK_BITS)
    out[10] = _exposure(blots, other_places, rules.doubles_moves)
    out[11] = stacking
    out[12] = home_closed(own, other)
    out[13] = won


cdef void board_features(const Board* board, RuleSet rules, int* out) noexcept nogil:
    """Row me's features, then row opp's (the board must be valid)."""
    cdef int winner, value
    outcome_of(board, rules, &winner, &value)
    side_features(board.me, board.opp, rules, value if winner == 0 else 0, out)
    side_features(board.opp, board.me, rules, value if winner == 1 else 0, out + SIDE_FEATURES)


cdef enum:
    PRIME = 8                   # their places in side_features' order
    EXPOSURE = 10
    CLOSURE = 12
    WON = 13


cdef inline void side_net_features(const signed char* own, const signed char* other, RuleSet rules, int won,
                                   int* out) noexcept nogil:
    """The NET_SIDE_FEATURES of ``own`` against ``other`` at their places
    in ``side_features``' order (the same values)."""
    out[PRIME] = _longest_run(row_gt(own, 1) & POINT_BITS)
    out[EXPOSURE] = _exposure(row_eq(own, 1) & POINT_BITS, row_gt(other, 0) & (POINT_BITS | (1u << BAR)),
                              rules.doubles_moves)
    out[CLOSURE] = home_closed(own, other)
    out[WON] = won


cdef void net_features(const Board* board, RuleSet rules, int* out) noexcept nogil:
    """The NET_SIDE_FEATURES of row me, then of row opp, at their places
    in ``board_features``' order; the other places are left as they are
    (the board must be valid)."""
    cdef int winner, value
    outcome_of(board, rules, &winner, &value)
    side_net_features(board.me, board.opp, rules, value if winner == 0 else 0, out)
    side_net_features(board.opp, board.me, rules, value if winner == 1 else 0, out + SIDE_FEATURES)


cdef double linear_score(const double* weights, const Board* board, RuleSet rules) noexcept nogil:
    """``0.0 + w[0] * f[0] + w[1] * f[1] + ...`` in index order."""
    cdef int values[FEATURES]
    cdef int i
    cdef double score = 0.0
    board_features(board, rules, values)
    for i in range(FEATURES):
        score += weights[i] * <double> values[i]
    return score


# --- pubeval ----------------------------------------------------------------------


cdef double pubeval_score(const Board* board, bint race) noexcept nogil:
    """Tesauro's pubeval of a position seen by the side that just moved; the
    inputs that are zero add nothing and are skipped, the others are added in
    the oracle's index order."""
    cdef const double* w = &PUBEVAL_CONTACT[0]
    cdef double score = 0.0
    cdef int block, point, n, first
    if board.me[OFF] == STONES:
        return PUBEVAL_WIN
    if race:
        w = &PUBEVAL_RACE[0]
    for block in range(24):
        point = 24 - block
        n = board.me[point] if board.me[point] else -board.opp[BAR - point]
        first = 5 * block
        if n == -1:
            score += w[first]
        elif n == 1:
            score += w[first + 1]
        elif n >= 2:
            score += w[first + 2]
            if n == 3:
                score += w[first + 3]
            elif n >= 4:
                score += w[first + 4] * ((n - 3) / 2.0)
    if board.opp[BAR]:
        score += w[120] * (board.opp[BAR] / 2.0)
    if board.me[OFF]:
        score += w[121] * (board.me[OFF] / 15.0)
    return score


# --- a network's choice ---------------------------------------------------------------



cdef void net_parent(const bsf_net* net, const Board* board, RuleSet rules, NetParent* parent) noexcept nogil:
    parent.board = board
    if net.features:
        net_features(board, rules, parent.features)
        parent.opp_places = row_gt(board.opp, 0) & (POINT_BITS | (1u << BAR))
        parent.opp_blots = row_eq(board.opp, 1) & POINT_BITS
        parent.known = 0
    if net.exact:           # in integers
        bsf_net_exact_sums(net, board.me, <const int32_t*> parent.features if net.features else NULL, parent.sums16)
    else:
        bsf_net_sums(net, board.me, <const int32_t*> parent.features if net.features else NULL, parent.sums)


cdef void net_child_features(NetParent* parent, const Board* child, RuleSet rules, int* out) noexcept nogil:
    """``net_features`` of a play of ``parent`` (the same values), from
    what the parent's children share: a play hits only blots, so row opp's
    made points (and prime) are the parent's in every child, and in a child
    that hit nothing (row opp's places are the parent's) row opp is the
    parent's: its blots are the parent's, and the rolls hitting each of row
    me's blots are the parent's ``hits`` (filled at the first child that
    needs one)."""
    cdef int winner, value, point
    cdef uint32_t blots = row_eq(child.me, 1) & POINT_BITS
    cdef uint32_t opp_places = row_gt(child.opp, 0) & (POINT_BITS | (1u << BAR))
    cdef uint32_t opp_blots
    cdef uint64_t rolls = 0
    if rules.backgammon and child.me[OFF] < STONES and child.opp[OFF] < STONES:
        winner, value = -1, 0       # outcome_of's answer: backgammon's one finish is 15 borne off
    else:
        outcome_of(child, rules, &winner, &value)
    out[PRIME] = _longest_run(row_gt(child.me, 1) & POINT_BITS)
    if opp_places == parent.opp_places:     # row opp as in the parent
        while blots:
            point = lowest_bit(blots)
            blots &= blots - 1
            if not (parent.known >> point) & 1:
                parent.hits[point] = _hitting_rolls(opp_places >> (25 - point), rules.doubles_moves)
                parent.known |= 1u << point
            rolls |= parent.hits[point]
        out[EXPOSURE] = _count_rolls(rolls)
        opp_blots = parent.opp_blots
    else:
        out[EXPOSURE] = _exposure(blots, opp_places, rules.doubles_moves)
        opp_blots = row_eq(child.opp, 1) & POINT_BITS
    out[SIDE_FEATURES + PRIME] = parent.features[SIDE_FEATURES + PRIME]
    out[CLOSURE] = home_closed(child.me, child.opp)
    out[WON] = value if winner == 0 else 0
    out[SIDE_FEATURES + EXPOSURE] = _exposure(opp_blots, row_gt(child.me, 0) & (POINT_BITS | (1u << BAR)),
                                              rules.doubles_moves)
    out[SIDE_FEATURES + CLOSURE] = home_closed(child.opp, child.me)
    out[SIDE_FEATURES + WON] = value if winner == 1 else 0


cdef void outcome_probabilities(int winner, int value, float* out) noexcept nogil:
    """``out[5]``: a finished game's five probabilities for row 0 (the
    oracle's ``evaluate``: a win worth ``value`` fills the slots up to it)."""
    out[0], out[1], out[2] = winner == 0, winner == 0 and value >= 2, winner == 0 and value >= 3
    out[3], out[4] = winner == 1 and value >= 2, winner == 1 and value >= 3


cdef enum:
    NET_CHUNK = 64              # children a pass of bsf_net_finish takes (a multiple of eight)
    SCORE_CHUNK = 256           # positions score_batch's threads take at a time: tens of microseconds
    CHILDREN_CHUNK = 16         # parents children_batch's threads take at a time (some 20 plays each)


cdef struct ChunkScores:
    # NET_CHUNK children of one parent scored together (_score_chunk)
    float scratch[2 * BSF_NET_MAX_HIDDEN]
    float exact[5 * NET_CHUNK]          # from the tables or the race network, where handed[i]
    bint handed[NET_CHUNK]
    float sums[5 * NET_CHUNK]           # output k of the chunk's child i at k * NET_CHUNK + i: probabilities
    double equities[NET_CHUNK]
    int winners[NET_CHUNK]              # -1 for a game going on
    int values[NET_CHUNK]
    const signed char* scored[NET_CHUNK]    # each child's board, NULL where it is finished or handed over
    int features[NET_CHUNK * FEATURES]


cdef inline void _score_chunk(const bsf_net* net, NetParent* parent, const Children* children, int start, int count,
                              RuleSet rules, bint handing, ChunkScores* chunk) noexcept nogil:
    """Children ``start .. start + count - 1`` (at most NET_CHUNK) of
    ``parent``: each one's outcome, its figures from the tables or the
    race network where ``handing`` and they score it (``handed_over``),
    else the network's output sums
    (``bsf_net_children_sums``, from the parent's) made probabilities and
    equities together (``bsf_net_finish``)."""
    cdef const int* parent_values = <const int*> parent.features if net.features else NULL
    cdef const Board* child
    cdef int i, winner, value
    for i in range(count):
        child = child_at(children, start + i)
        if net.features:        # the features hold each side's win ("won")
            net_child_features(parent, child, rules, chunk.features + i * FEATURES)
            winner = 0 if chunk.features[i * FEATURES + WON] else (
                1 if chunk.features[i * FEATURES + SIDE_FEATURES + WON] else -1)
            value = chunk.features[i * FEATURES + WON] + chunk.features[i * FEATURES + SIDE_FEATURES + WON]
        elif outcome_of(child, rules, &winner, &value) < 0:
            winner = -1
        chunk.winners[i], chunk.values[i] = winner, value
        chunk.handed[i] = handing and winner < 0 and handed_over(
            net, child, <const int32_t*> chunk.features + i * FEATURES if net.features else NULL,
            chunk.exact + 5 * i, chunk.scratch)
        chunk.scored[i] = child.me if winner < 0 and not chunk.handed[i] else NULL    # scored by the layers
    bsf_net_children_sums(net, parent.board.me, <const int32_t*> parent_values, parent.sums, parent.sums16,
                          chunk.scored, <const int32_t*> chunk.features if net.features else NULL, FEATURES, count,
                          chunk.scratch, chunk.sums, NET_CHUNK)
    bsf_net_finish(chunk.sums, NET_CHUNK, count, chunk.equities)


cdef inline double _chunk_score(const ChunkScores* chunk, int i) noexcept nogil:
    """Child ``i``'s equity: its outcome's signed value, the tables' or
    the race network's, or the network's."""
    if chunk.handed[i]:
        return bsf_net_equity(chunk.exact + 5 * i)
    if chunk.winners[i] < 0:
        return chunk.equities[i]
    return chunk.values[i] if chunk.winners[i] == 0 else -chunk.values[i]


cdef inline void _chunk_probabilities(const ChunkScores* chunk, int i, float* out) noexcept nogil:
    """Child ``i``'s five probabilities into ``out``."""
    cdef int k
    if chunk.winners[i] >= 0:
        outcome_probabilities(chunk.winners[i], chunk.values[i], out)
    elif chunk.handed[i]:
        for k in range(5):
            out[k] = chunk.exact[5 * i + k]
    else:
        for k in range(5):
            out[k] = chunk.sums[k * NET_CHUNK + i]


cdef inline bint _handing(const bsf_net* net, const Board* parent) noexcept nogil:
    """Whether some child of ``parent`` may be handed over (``handed_over``):
    the side that does not move stands on the tables' points, or there is
    a race network (a play cannot make contact where there was none, but
    can break it)."""
    return net.race != NULL or table_row(net, parent.opp)


cdef int net_choice_of(const bsf_net* net, NetParent* parent, const Children* children, RuleSet rules,
                       float* best_probabilities) noexcept nogil:
    """The index of the child of greatest 0-ply equity by ``net`` (the
    first on a tie), a finished child worth its outcome's signed value:
    what ``_net.net_best_child`` chooses, each child's first layer made
    from its parent's sums. The children go NET_CHUNK at a time: the output
    sums of each (``bsf_net_children_sums``), then their probabilities and
    equities together (``bsf_net_finish``). The chosen child's five
    probabilities go to ``best_probabilities`` (NULL: not wanted). With
    the tables (``Model.use_tables``), a child they cover is scored from
    them, not the layers; none is when the side that does not move stands
    outside them (one test of the parent). With a race network
    (``Model.use_race``), so is a child without contact."""
    cdef ChunkScores chunk
    cdef bint handing = _handing(net, parent.board)
    cdef int start = 0, count, i, best = 0
    cdef double score, best_score = 0.0
    while start < children.count:
        count = min(<int> NET_CHUNK, children.count - start)
        _score_chunk(net, parent, children, start, count, rules, handing, &chunk)
        for i in range(count):
            score = _chunk_score(&chunk, i)
            if start + i == 0 or score > best_score:
                best, best_score = start + i, score
                if best_probabilities != NULL:
                    _chunk_probabilities(&chunk, i, best_probabilities)
        start += count
    return best


cdef void net_children(const bsf_net* net, NetParent* parent, const Children* children, RuleSet rules,
                       float* out) noexcept nogil:
    """Each child's five probabilities by ``net`` into ``out[5 * k ..]``,
    as ``net_choice_of`` scores them (from the parent's sums; a finished
    child's outcome; the tables' or the race network's figures where they
    score it)."""
    cdef ChunkScores chunk
    cdef bint handing = _handing(net, parent.board)
    cdef int start = 0, count, i
    while start < children.count:
        count = min(<int> NET_CHUNK, children.count - start)
        _score_chunk(net, parent, children, start, count, rules, handing, &chunk)
        for i in range(count):
            _chunk_probabilities(&chunk, i, out + 5 * (start + i))
        start += count


cdef int net_choice(const bsf_net* net, const Board* parent, const Children* children,
                    RuleSet rules) noexcept nogil:
    """``net_choice_of`` for a parent seen once."""
    cdef NetParent prepared
    net = net_for(net, parent)
    net_parent(net, parent, rules, &prepared)
    return net_choice_of(net, &prepared, children, rules, NULL)


cdef void net_probabilities(const bsf_net* net, const Board* board, RuleSet rules, float* out) noexcept nogil:
    """``out[5]``: the network's five probabilities for row 0 of a game
    going on, computed from scratch (what ``NetEvaluator.score_valid``
    gives: from the tables or the race network where they score it)."""
    cdef float scratch[2 * BSF_NET_MAX_HIDDEN]
    _score(net, board, rules, out, scratch)


cdef inline void _score(const bsf_net* net, const Board* board, RuleSet rules, float* out,
                        float* scratch, bint outcomes=False) noexcept nogil:
    """``net_probabilities`` with ``bsf_net_scratch(net)`` floats of
    scratch. The layers run in ``bsf_net_forward_range``, the entry point
    compiled for AVX2 too (the inline ``bsf_net_forward`` compiled here
    would be this module's baseline build, more than twice as slow). With
    ``outcomes``, a finished game's five are its outcome's."""
    cdef int values[FEATURES]
    cdef int winner, value
    if outcomes and outcome_of(board, rules, &winner, &value) >= 0 and winner >= 0:
        outcome_probabilities(winner, value, out)
        return
    if net.features:
        net_features(board, rules, values)
    if handed_over(net, board, <const int32_t*> values if net.features else NULL, out, scratch):
        return
    bsf_net_forward_range(net, board.me, sizeof(Board), <const int32_t*> values if net.features else NULL, 0, 1,
                          out, scratch)


# --- many positions at once ---------------------------------------------------------

cdef struct ScoreTask:
    const bsf_net* net
    const Board* boards
    RuleSet rules
    float* out
    float* scratch          # scratch_size floats per slot
    int64_t scratch_size
    bint outcomes


cdef void _score_items(void* task, int slot, int64_t start, int64_t stop) noexcept nogil:
    cdef ScoreTask* t = <ScoreTask*> task
    cdef int64_t i
    for i in range(start, stop):
        _score(t.net, t.boards + i, t.rules, t.out + 5 * i, t.scratch + slot * t.scratch_size, t.outcomes)


cdef int _check_scoring(Model model, float[:, ::1] out, int64_t rows) except -1:
    """A batch entry point's Model made with its arrays, and ``out`` ``rows`` x 5."""
    if model.net.out_bias == NULL:
        raise ValueError("a Model made without its arrays (Model.__new__) cannot score")
    if out.shape[0] != rows or out.shape[1] != 5:
        raise ValueError(f"out must be {rows} x 5, got {out.shape[0]} x {out.shape[1]}")
    return 0


def score_batch(Model model, const signed char[:, :, ::1] positions, int code, float[:, ::1] out,
                int threads=1, bint outcomes=False):
    """``net_probabilities`` of each position (valid, a game going on or
    finished, under the rules of ``code``) into ``out``, without the GIL,
    on ``threads`` threads of the pool (each position computed alone: the
    same results on any thread count); with ``outcomes``, a finished
    game's are its outcome's (``evaluate``'s figures). The features are
    computed here, a position at a time while its board is in the cache,
    rather than in a pass of their own; a position the tables cover is not
    run through the layers."""
    cdef int64_t n = positions.shape[0]
    cdef ScoreTask task
    cdef bsf_job job
    task.rules = checked_rules(code)
    _check_scoring(model, out, n)
    if n == 0:
        return
    task.net = model_of(model)
    task.boards = <const Board*> &positions[0, 0, 0]
    task.out = &out[0, 0]
    task.scratch_size = bsf_net_scratch(task.net)
    task.outcomes = outcomes
    job.threads = job_threads(threads)
    task.scratch = <float*> malloc(sizeof(float) * task.scratch_size * job.threads)
    if task.scratch == NULL:
        raise MemoryError()
    job.run, job.task, job.items, job.chunk, job.followed = _score_items, &task, n, SCORE_CHUNK, False
    with nogil:
        run_job(&job)
    free(task.scratch)


cdef struct ChildrenTask:
    const bsf_net* net
    const Board* parents
    const int64_t* offsets
    const signed char* children
    RuleSet rules
    float* out


cdef void _children_items(void* task, int slot, int64_t start, int64_t stop) noexcept nogil:
    cdef ChildrenTask* t = <ChildrenTask*> task
    cdef const bsf_net* net
    cdef NetParent parent
    cdef Children children
    cdef int64_t item
    for item in range(start, stop):
        children.count = <int> (t.offsets[item + 1] - t.offsets[item])
        if children.count == 0:
            continue
        children.base = <const char*> (t.children + sizeof(Board) * t.offsets[item])
        children.stride, children.index = sizeof(Board), NULL
        net = net_for(t.net, t.parents + item)
        net_parent(net, t.parents + item, t.rules, &parent)
        net_children(net, &parent, &children, t.rules, t.out + 5 * t.offsets[item])


def children_batch(Model model, const signed char[:, :, ::1] parents, const int64_t[::1] offsets,
                   const signed char[:, :, ::1] children, int code, float[:, ::1] out, int threads=1):
    """The five probabilities of each child into ``out``, children
    ``offsets[i]:offsets[i + 1]`` being plays of parent ``i`` (each seen by
    its mover, row 0), scored as the game kernels score a parent's plays
    (``net_children``: from the parent's first layer sums, about six rows a
    child where a pass from scratch adds some forty; only float32 rounding
    differs from ``score_batch``), finished children by their outcome, on
    ``threads`` threads of the pool (the same results on any count)."""
    cdef int64_t n = parents.shape[0], m = children.shape[0], i
    cdef ChildrenTask task
    cdef bsf_job job
    task.rules = checked_rules(code)
    _check_scoring(model, out, m)
    if offsets.shape[0] != n + 1 or offsets[0] != 0 or offsets[n] != m:
        raise ValueError(f"offsets must run from 0 to the {m} children in {n + 1} values")
    for i in range(n):
        if offsets[i + 1] < offsets[i] or offsets[i + 1] - offsets[i] > 2 ** 31 - 1:
            raise ValueError(f"offsets[{i + 1}] - offsets[{i}] must be 0 to 2**31 - 1 children")
    if m == 0:
        return
    task.net = model_of(model)
    task.parents = <const Board*> &parents[0, 0, 0]
    task.offsets = &offsets[0]
    task.children = &children[0, 0, 0]
    task.out = &out[0, 0]
    job.threads = job_threads(threads)
    job.run, job.task, job.items, job.chunk, job.followed = _children_items, &task, n, CHILDREN_CHUNK, False
    with nogil:
        run_job(&job)
