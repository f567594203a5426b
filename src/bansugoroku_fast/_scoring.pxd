# cython: language_level=3
"""What the policies score a play by (``_scoring.pyx``): the features,
pubeval, a network's choice among the plays of a parent. Called through
``_scoring``'s C API by ``_games.pyx`` (the policies, the best replies);
``Children`` and ``child_at`` are inline, compiled into each module that
cimports them.
"""
from libc.stdint cimport int16_t, int32_t, uint32_t, uint64_t

from ._board cimport Board, RuleSet
from ._net cimport BSF_NET_MAX_HIDDEN, bsf_net

cdef enum:
    SIDE_FEATURES = 14
    FEATURES = 28
    PUBEVAL_INPUTS = 122


# ``count`` positions in ``legal_plays`` order: child k is at
# ``base + stride * (index[k] if index else k)`` (the leaves of a search, or
# the rows of a batch).
cdef struct Children:
    const char* base
    Py_ssize_t stride
    const int32_t* index
    int count


cdef inline const Board* child_at(const Children* children, int k) noexcept nogil:
    cdef Py_ssize_t row = children.index[k] if children.index != NULL else k
    return <const Board*> (children.base + children.stride * row)


# A network's view of a parent, made once for all its children: its first
# layer's sums and, when the network reads them, its features (those
# net_features writes) and what its children's features start from
# (net_child_features).
cdef struct NetParent:
    const Board* board
    float sums[BSF_NET_MAX_HIDDEN]
    int16_t sums16[BSF_NET_MAX_HIDDEN]  # an exact network's instead, in integers (bsf_net_exact_sums)
    int features[FEATURES]
    uint32_t opp_places         # row opp's points and bar (bits)
    uint32_t known              # bit p set where hits[p] is filled
    uint64_t hits[25]           # hits[p]: the rolls on which row opp would hit a blot of row me on point p
    uint32_t opp_blots          # row opp's blots (bits)



cdef void board_features(const Board* board, RuleSet rules, int* out) noexcept nogil
cdef double linear_score(const double* weights, const Board* board, RuleSet rules) noexcept nogil
cdef double pubeval_score(const Board* board, bint race) noexcept nogil
cdef void net_parent(const bsf_net* net, const Board* board, RuleSet rules, NetParent* parent) noexcept nogil
cdef int net_choice_of(const bsf_net* net, NetParent* parent, const Children* children, RuleSet rules,
                       float* best_probabilities) noexcept nogil
cdef void net_children(const bsf_net* net, NetParent* parent, const Children* children, RuleSet rules,
                       float* out) noexcept nogil
cdef int net_choice(const bsf_net* net, const Board* parent, const Children* children,
                    RuleSet rules) noexcept nogil
cdef void net_probabilities(const bsf_net* net, const Board* board, RuleSet rules, float* out) noexcept nogil
