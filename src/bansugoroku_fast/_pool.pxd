# cython: language_level=3
"""The threads that batches run on (``bsf_pool.h``, ``bsf_pool.c``): the
job a kernel module hands over, and ``run_job``, which the kernel modules
cimport so that one pool serves the whole process."""
from libc.stdint cimport int64_t

cdef extern from "bsf_pool.h":
    # Run items start .. stop - 1 of the task on the thread of ``slot``
    # (0: the calling thread).
    ctypedef void (*bsf_runner)(void* task, int slot, int64_t start, int64_t stop) noexcept nogil
    ctypedef struct bsf_job:
        bsf_runner run
        void* task
        int64_t items
        int64_t chunk
        int threads         # slots wanted (the caller's included); on return, the slots that could
        int followed        # another job follows at once: pool threads stay awake longer for it
        int joined          # pool threads that ran chunks of it
    enum:
        BSF_POOL_MOST_THREADS

cdef int run_job(bsf_job* job) noexcept nogil


cdef inline int job_threads(int wanted) noexcept nogil:
    """``wanted`` threads as a job can have them (1 .. BSF_POOL_MOST_THREADS):
    what arrays of one entry a slot are sized by."""
    return 1 if wanted < 1 else (BSF_POOL_MOST_THREADS if wanted > BSF_POOL_MOST_THREADS else wanted)
