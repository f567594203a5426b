# cython: language_level=3
"""The plays of one position as a lazy sequence: :class:`PlayRecords`
holds one byte record per play (what ``_single.plays`` writes, layout
``RECORD_OFFSETS``) and makes a play object, of the class that
``set_play_class`` names, only when a play is read, writing the record
and its index straight into the object's slots.

Compiled once: every build of ``_single`` fills this one class, so that
``api.Plays`` (its subclass) is the same whichever build runs.
"""
cimport cython
from types import MemberDescriptorType
from cpython.number cimport PyIndex_Check, PyNumber_AsSsize_t
from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF, Py_XDECREF

from ._board cimport Board, RECORD_BOARD, RECORD_BYTES, RECORD_NSTEPS, RECORD_STEP_BYTES, RECORD_STEPS

cdef extern from "Python.h":
    object PyType_GenericAlloc(PyTypeObject* type, Py_ssize_t nitems)
    Py_ssize_t Py_REFCNT(PyObject* obj)
    # A __slots__ entry: its descriptor's member (CPython's descrobject.h
    # and structmember.h; stable since Python 2.2).
    ctypedef struct PyMemberDef:
        int type
        Py_ssize_t offset
        int flags
    ctypedef struct PyMemberDescrObject:
        PyMemberDef* d_member

cdef extern from "structmember.h":
    enum:
        T_OBJECT_EX     # the type of a __slots__ member
        READONLY

#: Byte offsets in the record of a play that ``plays`` returns: the board
#: (``board_bytes`` long), the number of steps, then per step ``step_bytes``
#: bytes (origin, target, die, hit) from ``steps`` on.
RECORD_OFFSETS = {
    "board": RECORD_BOARD, "board_bytes": sizeof(Board), "nsteps": RECORD_NSTEPS,
    "steps": RECORD_STEPS, "step_bytes": RECORD_STEP_BYTES, "bytes": RECORD_BYTES,
}


# What PlayRecords makes its plays of (``set_play_class``): the class,
# where its slots ``_records`` and ``_index`` are in its objects, and where
# its slots filled with None are (MOST_NONE_SLOTS at most).
cdef enum:
    MOST_NONE_SLOTS = 8
cdef type _play_class = None
cdef Py_ssize_t _records_offset = 0, _index_offset = 0
cdef Py_ssize_t _none_offsets[MOST_NONE_SLOTS]
cdef int _none_slots = 0

# The plays last made, a strong reference each, taken in turn: one that
# nothing else holds any more (its reference count 1, ours) is made again
# in place instead of freed and allocated anew, which costs about four
# times as much. A loop over the plays holds the play it reached while it
# asks for the next, so the play made POOL_SIZE plays earlier is the one
# free again; a play the caller keeps is never touched (it is replaced in
# the pool). The trick CPython plays with the tuples of ``zip`` and
# ``dict.items``: a play object without ``__weakref__`` or ``__dict__`` is
# seen by nothing but its references.
cdef enum:
    POOL_SIZE = 4
cdef PyObject* _pool[POOL_SIZE]
cdef int _pool_turn = 0


cdef Py_ssize_t _slot_offset(type cls, str name, bint own) except -1:
    """Where the ``__slots__`` entry ``name`` of ``cls`` (holding any
    object; ``own``: of ``cls`` itself, not of a base) is in its objects."""
    descriptor = next((klass.__dict__[name] for klass in cls.__mro__ if name in klass.__dict__), None)
    if type(descriptor) is not MemberDescriptorType or (own and descriptor.__objclass__ is not cls):
        raise TypeError(f"{cls.__name__} must have {'its own' if own else 'a'} slot {name!r}")
    cdef PyMemberDef* member = (<PyMemberDescrObject*> descriptor).d_member
    if member.type != T_OBJECT_EX or member.flags & READONLY:
        raise TypeError(f"{cls.__name__}.{name} must be a writable object slot")
    return member.offset


def set_play_class(type play_class, tuple none_slots=()):
    """Make the plays of every ``PlayRecords`` ``play_class`` objects: each
    allocated as ``object.__new__`` would, without ``__init__`` (which
    would cost more than the search), its slot ``_records`` the records of
    its sequence and ``_index`` its index there, and each slot named in
    ``none_slots`` (its own or a base's) None: a value decoded on first
    read is then told apart from one not yet decoded by a test for None,
    where an empty slot would raise AttributeError (300 ns to catch).
    Called once, by ``api``."""
    global _play_class, _records_offset, _index_offset, _none_slots
    cdef Py_ssize_t records_offset = _slot_offset(play_class, "_records", True)
    cdef Py_ssize_t index_offset = _slot_offset(play_class, "_index", True)
    cdef Py_ssize_t none_offsets[MOST_NONE_SLOTS]
    cdef int k
    if len(none_slots) > MOST_NONE_SLOTS:
        raise ValueError(f"at most {MOST_NONE_SLOTS} slots filled with None, got {len(none_slots)}")
    for k, name in enumerate(none_slots):
        none_offsets[k] = _slot_offset(play_class, name, False)
        if none_offsets[k] in (records_offset, index_offset):
            raise ValueError(f"slot {name!r} is _records or _index")
    _empty_pool()
    _play_class, _records_offset, _index_offset = play_class, records_offset, index_offset
    for k in range(len(none_slots)):
        _none_offsets[k] = none_offsets[k]
    _none_slots = len(none_slots)


cdef inline void _set_slot(object obj, Py_ssize_t offset, object value) noexcept:
    """Fill the empty object slot at ``offset`` of ``obj`` (new reference)."""
    Py_INCREF(value)
    (<PyObject**> (<char*> <PyObject*> obj + offset))[0] = <PyObject*> value


cdef inline PyObject* _swap_slot(object obj, Py_ssize_t offset, object value) noexcept:
    """Put ``value`` (new reference) in the slot at ``offset`` of ``obj``;
    the reference it held, for the caller to release."""
    cdef PyObject** slot = <PyObject**> (<char*> <PyObject*> obj + offset)
    cdef PyObject* held = slot[0]
    Py_INCREF(value)
    slot[0] = <PyObject*> value
    return held


cdef void _empty_pool() noexcept:
    """Let go of the pooled plays (the play class changes)."""
    cdef int k
    cdef PyObject* held
    for k in range(POOL_SIZE):
        held, _pool[k] = _pool[k], NULL
        Py_XDECREF(held)


cdef object _new_play(bytes records, Py_ssize_t index):
    """A play object of ``_play_class`` for record ``index`` of
    ``records``, its decoded slots None: the pooled one whose turn it is if
    nothing else holds it, else a new one that takes its place."""
    global _pool_turn
    cdef int slot
    cdef PyObject* pooled = _pool[_pool_turn]
    cdef PyObject* released[2 + MOST_NONE_SLOTS]
    _pool_turn = (_pool_turn + 1) % POOL_SIZE
    if pooled != NULL and Py_REFCNT(pooled) == 1:
        play = <object> pooled
        # the old values are released last, once the play is whole: releasing
        # one may run code that makes plays (a finalizer), which must find it taken
        released[0] = _swap_slot(play, _records_offset, records)
        released[1] = _swap_slot(play, _index_offset, index)
        for slot in range(_none_slots):
            released[2 + slot] = _swap_slot(play, _none_offsets[slot], None)
        for slot in range(2 + _none_slots):
            Py_XDECREF(released[slot])
        return play
    play = PyType_GenericAlloc(<PyTypeObject*> _play_class, 0)
    _set_slot(play, _records_offset, records)
    _set_slot(play, _index_offset, index)
    for slot in range(_none_slots):
        _set_slot(play, _none_offsets[slot], None)
    Py_INCREF(play)
    _pool[(_pool_turn + POOL_SIZE - 1) % POOL_SIZE] = <PyObject*> play
    Py_XDECREF(pooled)
    return play


cdef class PlayRecords:
    """The plays of one ``plays`` call: their records (layout
    ``RECORD_OFFSETS``), one play object (``set_play_class``) made per play
    only when it is read. Immutable: the records are its own, so that no
    later call changes them. Indexing (negative too; a slice gives a list),
    ``len``, iteration and equality behave as on a list of the plays."""

    def __len__(self):
        return self.count

    cdef object _play(self, Py_ssize_t k):
        if _play_class is None:
            raise TypeError("no play class: call set_play_class first")
        return _new_play(self.records, k)

    def __getitem__(self, index):
        cdef Py_ssize_t k
        if isinstance(index, slice):
            return [self._play(k) for k in range(*index.indices(self.count))]
        if not PyIndex_Check(index):
            raise TypeError(f"play indices must be integers or slices, not {type(index).__name__}")
        k = PyNumber_AsSsize_t(index, IndexError)
        if k < 0:
            k += self.count
        if not 0 <= k < self.count:
            raise IndexError("play index out of range")
        return self._play(k)

    def __iter__(self):
        return _PlayIterator(self)

    def __eq__(self, other):
        if isinstance(other, PlayRecords):
            return (<PlayRecords> other).records == self.records or list(other) == list(self)
        if isinstance(other, list):
            return other == list(self)
        return NotImplemented

    __hash__ = None     # equal to a list of its plays, and as unhashable

    def __repr__(self):
        return repr(list(self))

    def __reduce__(self):
        return list, (list(self),)


@cython.auto_pickle(False)
cdef class _PlayIterator:
    """Iterates a PlayRecords, making each play as it is reached."""

    cdef PlayRecords plays
    cdef Py_ssize_t next_index

    def __cinit__(self, PlayRecords plays):
        self.plays = plays

    def __iter__(self):
        return self

    def __next__(self):
        if self.next_index >= self.plays.count:
            raise StopIteration
        self.next_index += 1
        return self.plays._play(self.next_index - 1)
