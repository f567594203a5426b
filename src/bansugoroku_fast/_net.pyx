# cython: language_level=3
"""Networks' forward passes: positions in, five probabilities out.

The loops are C in ``bsf_net.h`` (why they are fast is written there); this
module holds a network's prepared arrays (:class:`Model`) and
``net_best_child``, the function a game kernel calls to choose among
children (declared in ``_net.pxd``). Scoring a batch of positions, their
features included, is ``_scoring.score_batch``.

The Python layer (``bansugoroku_fast/evaluators/_native.py``) checks and
prepares every argument; the loops here trust them.
"""
cimport cython
from libc.stdint cimport int16_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc

import numpy as np

from ._board cimport Board, RuleSet, rules_from_code
from ._queries cimport outcome_of
from ._tables cimport RaceTables, race_figures, row_rank

cdef enum:
    CHILD_CHUNK = 64    # children net_best_child scores in one batch loop

#: The order of the prepared arrays a Model takes.
ARRAYS = ("point_rows", "threshold_rows", "excess_rows", "bar_rows", "off_rows", "feature_rows", "bias1",
          "weights2", "bias2", "out_weights", "out_bias")
#: The first layer's rows a child's sums add, in the order of their one array.
ROWS = ("threshold_rows", "excess_rows", "bar_rows", "off_rows", "feature_rows")
#: An exact network's int16 arrays (``bsf_net.exact``): the rows of :data:`ROWS`, then the output
#: weights, the thresholds' rows summed (``point_rows``) and the bias.
EXACT_ARRAYS = ("threshold16", "excess16", "bar16", "off16", "feature16", "out16", "point16", "bias16")


#: The boundary each array's data starts on: a cache line, so that the
#: kernels' vector loads of a row (whose length is a multiple of 16
#: units) never straddle two lines. NumPy's allocator gives only 16 bytes;
#: the shipped network's model built at offsets 0 and 48 played 8,255 and
#: 7,898 games a second in one process.
ALIGNMENT = 64


def _aligned(array, dtype):
    """A C-contiguous copy of ``array`` as ``dtype`` whose data starts on
    an ALIGNMENT-byte boundary (one zero for an empty array: a non-empty
    buffer behind every pointer, even an unused one).

    >>> int(_aligned(np.arange(3), np.int16).ctypes.data % ALIGNMENT)
    0
    """
    values = np.asarray(array, dtype=dtype)
    if values.size == 0:
        values = np.zeros(1, dtype=dtype)
    buffer = np.empty(values.nbytes + ALIGNMENT, dtype=np.uint8)
    start = -buffer.ctypes.data % ALIGNMENT
    out = buffer[start:start + values.nbytes].view(dtype).reshape(values.shape)
    out[...] = values
    return out


cdef const float* _floats(object array):
    cdef const float[::1] view = array.reshape(-1)
    return &view[0] if view.shape[0] else NULL


cdef const int16_t* _int16s(object array):
    cdef const int16_t[::1] view = array.reshape(-1)
    return &view[0]


@cython.auto_pickle(False)    # pointers into its own arrays: no pickling
cdef class Model:
    """A network's arrays as the kernels read them (see ``bsf_net.h``):
    ``arrays`` maps each name of :data:`ARRAYS` to a C-contiguous float32
    array (kept alive here); ``feature_mask``: bit ``f`` set where feature
    ``f``'s row is read (the others are folded into the board's rows);
    ``exact``: whether ``arrays`` also holds the int16 arrays of
    :data:`EXACT_ARRAYS` (an exact network, as ``bsf_net.h`` defines it).
    The arrays of :data:`ROWS` go into one array, and an exact network's
    int16 rows into another of the same layout; an exact network of one
    block of units, on a CPU with the vector paths, also gets its place
    table, ``place16`` (``bsf_net_fill_places``)."""

    def __init__(self, dict arrays, int hidden1, int hidden2, bint relu, int features, uint64_t feature_mask,
                 bint exact=False):
        self.arrays = {name: _aligned(arrays[name], np.float32) for name in ARRAYS}
        self.net.hidden1 = hidden1
        self.net.hidden2 = hidden2
        self.net.relu = relu
        self.net.features = features
        self.net.feature_mask = feature_mask if features else 0
        self.net.point_rows = _floats(self.arrays["point_rows"])
        cdef list sizes = np.cumsum([0, *(self.arrays[name].size for name in ROWS)]).tolist()
        self.arrays["rows"] = _aligned(np.concatenate([self.arrays[name].reshape(-1) for name in ROWS]), np.float32)
        cdef const float* rows = _floats(self.arrays["rows"])
        self.net.threshold_rows = rows + <Py_ssize_t> sizes[0]
        self.net.excess_rows = rows + <Py_ssize_t> sizes[1]
        self.net.bar_rows = rows + <Py_ssize_t> sizes[2]
        self.net.off_rows = rows + <Py_ssize_t> sizes[3]
        self.net.feature_rows = rows + <Py_ssize_t> sizes[4]
        self.net.bias1 = _floats(self.arrays["bias1"])
        self.net.weights2 = _floats(self.arrays["weights2"])
        self.net.bias2 = _floats(self.arrays["bias2"])
        self.net.out_weights = _floats(self.arrays["out_weights"])
        self.net.out_bias = _floats(self.arrays["out_bias"])
        if exact:    # the int16 rows at the float rows' indices (an empty array's one zero included)
            exact_rows = [_aligned(arrays[name], np.int16).reshape(-1) for name in EXACT_ARRAYS[:5]]
            self.arrays["rows16"] = _aligned(np.concatenate(exact_rows), np.int16)
            for name in EXACT_ARRAYS[5:]:
                self.arrays[name] = _aligned(arrays[name], np.int16)
            self.net.rows16 = _int16s(self.arrays["rows16"])
            self.net.out16 = _int16s(self.arrays["out16"])
            self.net.point16 = _int16s(self.arrays["point16"])
            self.net.bias16 = _int16s(self.arrays["bias16"])
        self.net.exact = exact
        bsf_net_prepare(&self.net)
        cdef int64_t places = bsf_net_places_size(&self.net)
        if places:
            self.arrays["place16"] = _aligned(np.zeros(places, dtype=np.int16), np.int16)
            bsf_net_fill_places(&self.net, <int16_t*> _int16s(self.arrays["place16"]))

    def use_tables(self, const double[:, ::1] finish, const double[::1] finish_mean, const double[:, ::1] first,
                   const double[:, ::1] win, bint bears_off, bint gammons):
        """Score from the endgame tables (``_tables.race_lookup``'s
        arguments, kept alive here) every position both of whose sides
        they cover, in every kernel that reads this Model."""
        self.arrays["race_tables"] = (finish, finish_mean, first, win)
        self.tables.finish = &finish[0, 0]
        self.tables.finish_mean = &finish_mean[0]
        self.tables.first = &first[0, 0] if (gammons and first.shape[0] > 0) else NULL
        self.tables.win = &win[0, 0] if win.shape[0] > 0 else NULL
        self.tables.turns = <int> finish.shape[1]
        self.tables.bears_off = bears_off
        self.net.race_tables = &self.tables

    def use_race(self, Model race):
        """Score every position without contact that the tables do not
        cover by ``race`` (a network of the same features, kept alive
        here, answering from the same tables), in every kernel that reads
        this Model."""
        if race.net.features != self.net.features or race.net.race != NULL:
            raise ValueError("a race network reads the same features as its network and has no race network")
        self.race = race
        self.net.race = &race.net

    @property
    def race_used(self):
        return self.net.race != NULL

    @property
    def tables_used(self):
        return self.net.race_tables != NULL

    @property
    def features(self):
        return self.net.features

    @property
    def exact(self):
        return bool(self.net.exact)


cdef int _check(Model model) except -1:
    if model.net.out_bias == NULL:
        raise ValueError("a Model made without its arrays (Model.__new__) cannot score")
    return 0


cdef const bsf_net* model_of(Model model) noexcept:
    return &model.net


cdef bint table_row(const bsf_net* net, const signed char* row) noexcept nogil:
    """Whether the tables of ``net`` (if any) cover this row, a side that
    has not finished."""
    cdef const RaceTables* tables = <const RaceTables*> net.race_tables
    return tables != NULL and row_rank(row, tables.bears_off) >= 0


cdef bint table_probabilities(const bsf_net* net, const Board* board, float* out) noexcept nogil:
    """Whether the tables of ``net`` cover both sides of ``board`` (row
    ``me`` has just moved, ``opp`` rolls next: a race, as no two sides on
    the tables' points touch); if so ``out[5]`` gets row ``me``'s five
    probabilities from them (the roller's figures turned round: no triple
    wins in a table race)."""
    cdef const RaceTables* tables = <const RaceTables*> net.race_tables
    cdef double figures[5]
    if tables == NULL or race_figures(tables, board.opp, board.me, figures) < 0:
        return False
    out[0] = _probability(1.0 - figures[0])     # a sure loss may sum to 1 + 2**-52: never below 0
    out[1] = _probability(figures[2])
    out[2] = 0.0
    out[3] = _probability(figures[1])
    out[4] = 0.0
    return True


cdef bint handed_over(const bsf_net* net, const Board* board, const int32_t* features, float* out,
                      float* scratch) noexcept nogil:
    """Whether ``board`` (a game going on, row ``me`` has just moved) is
    scored elsewhere than by the layers of ``net``: by its tables where
    they cover both sides (``table_probabilities``), else by its race
    network where the position has no contact; if so ``out[5]`` gets the
    five probabilities. ``features`` are the board's (NULL when the
    networks read none), ``scratch`` holds ``bsf_net_scratch(net)`` floats."""
    if table_probabilities(net, board, out):
        return True
    if net.race == NULL or not is_race(board):
        return False
    bsf_net_forward_range(<const bsf_net*> net.race, board.me, sizeof(Board), features, 0, 1, out, scratch)
    return True


cdef inline float _probability(double value) noexcept nogil:
    """``value`` as a float32 in [0, 1] (a sum of rounded figures can
    stray past either end by a unit in the last place)."""
    return <float> (0.0 if value < 0.0 else (1.0 if value > 1.0 else value))


cdef int64_t net_best_child(const bsf_net* net, const Board* children, int64_t stride, int64_t n, RuleSet rules,
                            const int32_t* features, float* scratch) noexcept nogil:
    """The index of the child with the greatest equity (ties: the first;
    -1 when n is 0); child i is the Board ``stride * i`` bytes after
    ``children``. A finished child is worth its outcome's signed value.
    The children are scored CHILD_CHUNK at a time by the batch loop (its
    AVX2 clone where the CPU has AVX2), then checked one by one; a child
    the tables or the race network score (``handed_over``) is worth its
    equity from them; when every child is a race, the race network scores
    them all in its batch loop."""
    cdef int64_t i, start, count, best = -1
    cdef int winner, value
    cdef double score, best_score = 0
    cdef float p[CHILD_CHUNK * 5]
    cdef const signed char* base = <const signed char*> children
    cdef const Board* child
    if net.race != NULL:    # children all races: the race network scores them in its batch loop
        i = 0
        while i < n and is_race(<const Board*> (base + stride * i)):
            i += 1
        if i == n:
            net = <const bsf_net*> net.race
    start = 0
    while start < n:
        count = n - start if n - start < CHILD_CHUNK else CHILD_CHUNK
        bsf_net_forward_range(net, base + stride * start, stride,
                              features + net.features * start if features != NULL else NULL, 0, count, p, scratch)
        for i in range(count):
            child = <const Board*> (base + stride * (start + i))
            if outcome_of(child, rules, &winner, &value) >= 0 and winner >= 0:
                score = value if winner == 0 else -value
            else:       # p[5 i ..] untouched where not handed over
                handed_over(net, child, features + net.features * (start + i) if features != NULL else NULL,
                            &p[5 * i], scratch)
                score = bsf_net_equity(&p[5 * i])
            if best < 0 or score > best_score:
                best, best_score = start + i, score
        start += count
    return best


def best_children(Model model, const signed char[:, ::1] children, const int64_t[::1] offsets, int code,
                  const int32_t[:, ::1] features, int64_t[::1] out):
    """``net_best_child`` of each segment ``offsets[i]:offsets[i + 1]`` of
    ``children`` into ``out`` (-1 for an empty one): the hook a game kernel
    calls, exposed for its tests. Each row of ``children`` holds a board in
    its first 52 bytes (``int8[M, 2, 26]`` reshaped to ``[M, 52]``; wider
    rows as a search's leaves are)."""
    cdef RuleSet rules = rules_from_code(code)
    cdef int64_t i, first, count, items = offsets.shape[0] - 1, stride = children.shape[1]
    cdef const int32_t* feature_data = NULL
    cdef float* scratch
    _check(model)
    if stride < sizeof(Board):
        raise ValueError(f"rows of {stride} bytes cannot hold a board ({sizeof(Board)} bytes)")
    if model.net.features and children.shape[0]:
        feature_data = &features[0, 0]
    scratch = <float*> malloc(sizeof(float) * bsf_net_scratch(&model.net))
    if scratch == NULL:
        raise MemoryError()
    with nogil:
        for i in range(items):
            first, count = offsets[i], offsets[i + 1] - offsets[i]
            out[i] = -1
            if count:
                out[i] = net_best_child(&model.net, <const Board*> &children[first, 0], stride, count, rules,
                                        feature_data + model.net.features * first if feature_data != NULL else NULL,
                                        scratch)
    free(scratch)
