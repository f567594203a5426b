# cython: language_level=3
"""Structural validation of positions in the interchange layout.

``first_invalid`` scans a batch ``int8[N, 2, 26]`` without the GIL and reports
the first invalid item, so that the Python layer can say exactly what is wrong
before any kernel, which trusts its input, sees the batch.
"""
cimport cython

# The fast verdict, shared with the kernels, and the board constants
from ._board cimport BAR, PLACES, STONES, looks_valid

cdef enum:
    POINTS = 24

# Problem codes; bansugoroku_fast.position turns them into messages.
cpdef enum Problem:
    OK = 0
    NEGATIVE_COUNT = 1
    ROW_SUM = 2
    SHARED_POINT = 3


@cython.boundscheck(False)
@cython.wraparound(False)
cdef inline int _check_one(const signed char* rows, int* where, int* value) noexcept nogil:
    """0 if ``rows`` (2 x 26, row-major) is a valid position, else a problem
    code and its place."""
    cdef int side, index, total, point
    cdef const signed char* row
    for side in range(2):
        row = rows + side * PLACES
        total = 0
        for index in range(PLACES):
            if row[index] < 0:
                where[0] = side * PLACES + index
                value[0] = row[index]
                return NEGATIVE_COUNT
            total += row[index]
        if total != STONES:
            where[0] = side
            value[0] = total
            return ROW_SUM
    for point in range(1, POINTS + 1):
        if rows[point] > 0 and rows[PLACES + BAR - point] > 0:
            where[0] = point
            value[0] = 0
            return SHARED_POINT
    return OK


@cython.boundscheck(False)
@cython.wraparound(False)
def first_invalid(const signed char[:, :, ::1] positions):
    """``(item, code, where, value)`` of the first invalid position, or ``None``.

    ``where`` is ``row * 26 + index`` for a negative count, the row for a bad
    sum (``value`` then holds the sum), the point (row 0 numbering) held by
    both sides.
    """
    cdef Py_ssize_t item, count = positions.shape[0]
    cdef int code = OK, where = 0, value = 0
    cdef const signed char* data
    if positions.shape[1] != 2 or positions.shape[2] != PLACES:
        raise ValueError("positions must have shape (N, 2, 26)")
    if count == 0:
        return None
    data = &positions[0, 0, 0]
    with nogil:
        for item in range(count):
            if not looks_valid(data + item * 2 * PLACES):
                code = _check_one(data + item * 2 * PLACES, &where, &value)
                break
    if code == OK:
        return None
    return item, code, where, value


def key_problem(bytes key):
    """``(code, where, value)`` if the 52 bytes ``key`` (one position's
    ``int8[2, 26]`` array, row-major) are not a valid position, else ``None``.

    The check of one position given as bytes: no buffer to acquire, so it
    costs a fraction of :func:`first_invalid` on a one-item batch.
    """
    cdef int where = 0, value = 0, code
    if len(key) != 2 * PLACES:
        raise ValueError("a position key has 52 bytes")
    code = _check_one(<const signed char*> <const char*> key, &where, &value)
    if code == OK:
        return None
    return code, where, value
