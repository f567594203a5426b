# cython: language_level=3
"""The sequence of plays a single ``plays`` call returns (see
``_play_records.pyx``): ``_single`` fills its records and count."""

cdef class PlayRecords:
    cdef readonly bytes records     # one record a play (layout: RECORD_OFFSETS)
    cdef Py_ssize_t count
    cdef object _play(self, Py_ssize_t k)
