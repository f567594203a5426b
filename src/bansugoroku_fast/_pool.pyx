# cython: language_level=3
"""The threads that batches run on: one pool per process (``bsf_pool.c``).

A kernel module describes a job (``bsf_job``: items, a chunk size, the
threads wanted, a function that runs a chunk on a given slot) and calls
``run_job``. The calling thread starts on the items at once; the pool
threads it wants join as they wake and take chunks from the same counter;
the call waits only for the threads that joined, each to the end of a
chunk. A job of one chunk runs on the calling thread alone, and so does a
job posted while another caller has the pool.

>>> set_idle_spin(0.0001); idle_spin()
0.0001
"""
import numpy as np

from libc.stdint cimport int16_t, int64_t, uint64_t

from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

cdef extern from "bsf_pool.h":
    int bsf_pool_run(bsf_job* job) noexcept nogil
    void bsf_pool_set_spin(int64_t nanoseconds) noexcept nogil
    int64_t bsf_pool_spin() noexcept nogil
    int bsf_pool_started() noexcept nogil
    uint64_t bsf_pool_shared_jobs() noexcept nogil

#: The most threads a job runs on, the calling thread's included.
MOST_THREADS = BSF_POOL_MOST_THREADS


cdef int run_job(bsf_job* job) noexcept nogil:
    """Run every item of ``job`` (``job.threads`` slots at most); return how
    many threads took part, the caller's included."""
    return bsf_pool_run(job)


def set_idle_spin(double seconds):
    """How long an idle pool thread keeps looking for a new job before it
    sleeps (0.1 ms at import): long enough to bridge the Python between
    two batch calls, so that the second finds it awake; an idle thread
    that spins holds a CPU meanwhile. 0 puts it to sleep at once."""
    if not seconds >= 0:
        raise ValueError(f"the idle spin must be >= 0 seconds, got {seconds!r}")
    bsf_pool_set_spin(<int64_t> (seconds * 1e9 + 0.5))


def idle_spin():
    """How long an idle pool thread spins before it sleeps, in seconds."""
    return bsf_pool_spin() / 1e9


def started_threads():
    """The pool threads this process has started (0 in a forked child
    until it runs a job on more than one thread)."""
    return bsf_pool_started()


def shared_jobs():
    """The jobs (batch calls' passes, games) in which at least one pool
    thread took part, in this process so far."""
    return bsf_pool_shared_jobs()


# --- a job that only records who ran what, for the tests ---------------------------

cdef struct SlotRecord:
    int16_t* slot_of        # the slot that ran item i (-1: none yet; 1000 + slot: ran twice)
    int64_t item_ns         # each item waits this long, so that pool threads have time to join


cdef inline int64_t _now_ns() noexcept nogil:
    cdef timespec now
    clock_gettime(CLOCK_MONOTONIC, &now)
    return now.tv_sec * 1000000000 + now.tv_nsec


cdef void _record_slots(void* task, int slot, int64_t start, int64_t stop) noexcept nogil:
    cdef SlotRecord* record = <SlotRecord*> task
    cdef int64_t i, until
    for i in range(start, stop):
        until = _now_ns() + record.item_ns
        while _now_ns() < until:
            pass
        record.slot_of[i] = slot if record.slot_of[i] == -1 else 1000 + slot


def slots_of_items(int64_t items, int64_t chunk, int threads, double item_seconds=0.0):
    """Run a job of ``items`` items that records which slot ran each (each
    item taking ``item_seconds``): ``(slots, took_part)``, ``slots`` as
    ``int16[items]`` (a value of 1000 or more: an item ran twice)."""
    if items < 0 or chunk < 1 or threads < 1:
        raise ValueError("items must be >= 0, chunk and threads >= 1")
    slots = np.full(items, -1, dtype=np.int16)
    cdef int16_t[::1] slot_of = slots
    cdef SlotRecord record
    cdef bsf_job job
    cdef int took_part
    record.slot_of = &slot_of[0] if items else NULL
    record.item_ns = <int64_t> (item_seconds * 1e9)
    job.run, job.task, job.items, job.chunk, job.threads = _record_slots, &record, items, chunk, threads
    job.followed = False
    with nogil:
        took_part = run_job(&job)
    return slots, took_part
