# cython: language_level=3
"""Networks' forward passes in the kernels (``bsf_net.h``, ``_net.pyx``).

What a game kernel needs to play by a network (a ``"net"`` policy) or to
score children: a :c:type:`bsf_net` (built in Python by
``bansugoroku_fast/evaluate/_native.py`` as a ``_net.Model``, whose
``model_of`` gives the pointer, valid while the Model lives), scratch of
``bsf_net_scratch(net)`` floats per thread, and

* ``bsf_net_forward(net, board, features, out, scratch)``: one position's
  five consistent probabilities (row 0 has just moved), header-inline;
* ``net_best_child``: the index of the best of ``n`` children by equity,
  finished children scored exactly from their outcome (ties: the first);
  child ``i`` is the Board ``stride * i`` bytes after ``children``
  (``sizeof(Board)`` for an array of boards, ``sizeof(Leaf)`` to read a
  search's leaves in place, whose Board comes first).

A game kernel choosing among the children of one position scores them
from the position's first layer's sums (``bsf_net_sums``, once a roll):
``bsf_net_children_sums`` gives each child's output sums (a child differs
from its parent in a few places: see ``bsf_net.h``), ``bsf_net_finish``
their probabilities and equities, many children at once; networks with
hidden layers of at most ``BSF_NET_MAX_HIDDEN`` units, whose scratch fits
on the stack.

With the endgame tables (``Model.use_tables``), a position both of whose
sides stand on the tables' points is scored from them, not the layers:
``table_probabilities(net, board, out)`` says whether it is and fills
``out``; ``table_row`` is the cheap test of one row that lets a caller
skip it when the side that does not move is outside the tables. With a
race network (``Model.use_race``), a position without contact
(``is_race``) that the tables do not cover is scored by it:
``handed_over(net, board, features, out, scratch)`` says whether the
tables or the race network score a position, and fills ``out``; the
plays of a race are all races, so a caller scoring them takes
``net_for(net, parent)``, the race network itself, whose children's sums
come from the parent's as the network's do.

``features`` are the 28 integer ``features()`` of each position when the
network reads them (``net.features == 28``), else NULL; only those of
``net.feature_mask`` are read (``_games.net_features`` writes them).
"""
from libc.stdint cimport int16_t, int32_t, int64_t, uint64_t

from ._board cimport Board, RuleSet
from ._tables cimport RaceTables

cdef extern from "bsf_net.h":
    ctypedef struct bsf_net:
        int hidden1
        int hidden2
        int relu
        int features
        uint64_t feature_mask
        const float* point_rows
        const float* threshold_rows
        const float* excess_rows
        const float* bar_rows
        const float* off_rows
        const float* feature_rows
        const float* bias1
        const float* weights2
        const float* bias2
        const float* out_weights
        const float* out_bias
        int exact
        const int16_t* rows16
        const int16_t* out16
        const int16_t* point16
        const int16_t* bias16
        const int16_t* place16
        const void* race_tables
        const void* race
    int64_t bsf_net_scratch(const bsf_net* net) noexcept nogil
    void bsf_net_forward(const bsf_net* net, const signed char* board, const int32_t* features,
                         float* out, float* scratch) noexcept nogil
    void bsf_net_forward_range(const bsf_net* net, const signed char* boards, int64_t stride,
                               const int32_t* features, int64_t start, int64_t stop, float* out,
                               float* scratch) noexcept nogil
    double bsf_net_equity(const float* probabilities) noexcept nogil
    enum: BSF_NET_MAX_HIDDEN
    void bsf_net_sums(const bsf_net* net, const signed char* board, const int32_t* features,
                      float* sums) noexcept nogil
    void bsf_net_prepare(bsf_net* net) noexcept nogil
    int64_t bsf_net_places_size(const bsf_net* net) noexcept nogil
    void bsf_net_fill_places(bsf_net* net, int16_t* place16) noexcept nogil
    void bsf_net_exact_sums(const bsf_net* net, const signed char* board, const int32_t* features,
                            int16_t* sums16) noexcept nogil
    void bsf_net_children_sums(const bsf_net* net, const signed char* parent, const int32_t* parent_features,
                               const float* parent_sums, const int16_t* parent_sums16,
                               const signed char* const* children, const int32_t* children_features,
                               int64_t features_stride, int n, float* scratch, float* sums,
                               int64_t stride) noexcept nogil
    void bsf_net_finish(float* sums, int64_t stride, int n, double* equities) noexcept nogil

cdef class Model:
    cdef bsf_net net
    cdef RaceTables tables       # what net.race_tables points to, once use_tables has filled it
    cdef readonly dict arrays    # the numpy arrays the pointers point into
    cdef readonly Model race     # what net.race points into, once use_race has set it

cdef const bsf_net* model_of(Model model) noexcept
cdef bint table_probabilities(const bsf_net* net, const Board* board, float* out) noexcept nogil
cdef bint table_row(const bsf_net* net, const signed char* row) noexcept nogil
cdef bint handed_over(const bsf_net* net, const Board* board, const int32_t* features, float* out,
                      float* scratch) noexcept nogil


cdef inline bint is_race(const Board* board) noexcept nogil:
    """No contact: the rearmost stones have passed each other."""
    cdef int mover_back = 25, opponent_back = 25
    while mover_back > 0 and board.me[mover_back] == 0:
        mover_back -= 1
    while opponent_back > 0 and board.opp[opponent_back] == 0:
        opponent_back -= 1
    return mover_back + opponent_back <= 25


cdef inline const bsf_net* net_for(const bsf_net* net, const Board* parent) noexcept nogil:
    """The network that scores the plays of ``parent``: its race network
    (which answers from the same tables) where it has one and ``parent``
    is a race, as then every play is; else ``net`` itself."""
    if net.race != NULL and is_race(parent):
        return <const bsf_net*> net.race
    return net
cdef int64_t net_best_child(const bsf_net* net, const Board* children, int64_t stride, int64_t n, RuleSet rules,
                            const int32_t* features, float* scratch) noexcept nogil
