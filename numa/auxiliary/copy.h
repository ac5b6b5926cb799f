/* numa/auxiliary/copy.h -- BLAS's xCOPY on host memory, on the cores of the
 * NUMA pool: y := x for vectors of n elements with any increments.
 *
 * Role: NumPy's linear algebra (numpy.linalg.solve, cholesky, ...) moves
 * each C-ordered operand into column order and the result back through
 * one xCOPY per row with an increment of a whole row (its linearize and
 * delinearize loops).  Each element of such a copy is a TLB miss, and a
 * one-thread copy of an order-20480 matrix takes seconds, more than the
 * factorization on a GPU.  blasx/wheel_copy.c serves the wheels' names
 * (scipy_dcopy_64_ ...) from here.
 *
 * Semantics (reference BLAS): y(i) := x(i) for i = 1..n, where a vector
 * with increment inc >= 0 holds element i at (i - 1) * inc and one with
 * inc < 0 at (n - i) * |inc| (it walks from the end); incx = 0 copies
 * x[0] into every element of y; n <= 0 copies nothing.
 *
 * Invariants: exactly the n elements of y are written, each once, with
 * the value the serial loop gives (elements as opaque bytes: esz 4, 8 or
 * 16, typed moves; other sizes byte by byte); 64-bit index arithmetic;
 * y overlapping x is the caller's error, as in the reference.
 * Threading: any thread; runs of the index range are taken, as they come
 * and each thread's own block first (NumPy's next row finds its lines and
 * TLB entries in the core that copied the last), by up to min(moves / cfg.lapack.copy_par_min, usable cores) threads of
 * the pool when that is 2 or more (a move is an element, or a cache line
 * where both increments are 1; blasx_numa_run_units: a thread kept off its
 * core does not hold the copy up); a busy pool or a call from a pool
 * thread runs it all on the caller.  A strided walk prefetches the lines
 * cfg.lapack.copy_prefetch elements ahead: with NumPy's huge pages a
 * column's lines share a few cache sets, so each row is a line from memory.
 * Failure: none.
 */
#ifndef BLASX_NUMA_COPY_H
#define BLASX_NUMA_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "internal/base/common.h"

/* Returns the number of threads that ran the copy (0: nothing to do). */
BLASX_INTERNAL int blasx_copy(size_t esz, int64_t n, const void *x, int64_t incx, void *y, int64_t incy);

/* Whether blasx_copy would ask the pool for 2 or more threads for such a
 * copy (a copy it runs on one thread is no faster than any other). */
BLASX_INTERNAL int blasx_copy_parallel(size_t esz, int64_t n, int64_t incx, int64_t incy);

#endif
