/* internal/base/queue.h -- non-blocking FIFO task queue (Michael & Scott, 1996).
 *
 * Role: the global task queue of one call (BLASX Alg. 1, TQ).  Any number of
 * workers enqueue ready tasks and dequeue them concurrently, lock-free.
 * Nodes come from a pool owned by the queue: node 0 is the initial dummy and
 * node t+1 carries task t.  A task is enqueued at most once per call, so a
 * node is never recycled while the queue lives -- which removes the ABA
 * problem of the original algorithm without tagged pointers or hazard
 * pointers.
 * Invariants: 0 <= task < capacity; each task enqueued at most once; links
 * are node indices (0 = null, since the dummy is never linked to).
 */
#ifndef BLASX_INTERNAL_QUEUE_H
#define BLASX_INTERNAL_QUEUE_H

#include <stdlib.h>
#include "internal/base/common.h"

typedef struct {
    _Atomic uint32_t next; /* index of the next node, 0 = none */
    int32_t task;
} blasx_qnode_t;

typedef struct {
    _Alignas(64) _Atomic uint32_t head;
    _Alignas(64) _Atomic uint32_t tail;
    _Alignas(64) blasx_qnode_t *nodes;
    uint32_t capacity; /* tasks */
} blasx_queue_t;

_Static_assert(sizeof(uint32_t) == 4, "node indices are 32-bit");

static inline int blasx_queue_init(blasx_queue_t *q, int64_t capacity) {
    if (capacity < 0 || capacity >= (int64_t)UINT32_MAX) return BLASX_ERR_NOMEM;
    q->nodes = (blasx_qnode_t *)calloc((size_t)capacity + 1, sizeof(blasx_qnode_t));
    if (!q->nodes) return BLASX_ERR_NOMEM;
    q->capacity = (uint32_t)capacity;
    atomic_init(&q->nodes[0].next, 0);
    q->nodes[0].task = -1;
    atomic_init(&q->head, 0);
    atomic_init(&q->tail, 0);
    return 0;
}

static inline void blasx_queue_destroy(blasx_queue_t *q) {
    free(q->nodes);
    q->nodes = NULL;
}

static inline void blasx_queue_enqueue(blasx_queue_t *q, int32_t task) {
    uint32_t node = (uint32_t)task + 1;
    q->nodes[node].task = task;
    atomic_store_explicit(&q->nodes[node].next, 0, memory_order_relaxed);
    for (;;) {
        uint32_t tail = atomic_load_explicit(&q->tail, memory_order_acquire);
        uint32_t next = atomic_load_explicit(&q->nodes[tail].next, memory_order_acquire);
        if (tail != atomic_load_explicit(&q->tail, memory_order_acquire)) continue;
        if (next == 0) {
            /* Link the node after the last one; release publishes its task. */
            if (atomic_compare_exchange_weak_explicit(&q->nodes[tail].next, &next, node,
                                                      memory_order_acq_rel, memory_order_acquire)) {
                atomic_compare_exchange_strong_explicit(&q->tail, &tail, node, memory_order_acq_rel,
                                                        memory_order_relaxed);
                return;
            }
        } else {
            /* Tail is lagging: help the other enqueuer swing it. */
            atomic_compare_exchange_strong_explicit(&q->tail, &tail, next, memory_order_acq_rel,
                                                    memory_order_relaxed);
        }
    }
}

/* Returns a task index, or -1 when the queue is empty. */
static inline int32_t blasx_queue_dequeue(blasx_queue_t *q) {
    for (;;) {
        uint32_t head = atomic_load_explicit(&q->head, memory_order_acquire);
        uint32_t tail = atomic_load_explicit(&q->tail, memory_order_acquire);
        uint32_t next = atomic_load_explicit(&q->nodes[head].next, memory_order_acquire);
        if (head != atomic_load_explicit(&q->head, memory_order_acquire)) continue;
        if (head == tail) {
            if (next == 0) return -1;
            atomic_compare_exchange_strong_explicit(&q->tail, &tail, next, memory_order_acq_rel,
                                                    memory_order_relaxed);
        } else {
            /* Nodes are never recycled, so reading next's task before the CAS
             * is safe even if another thread wins the race. */
            int32_t task = q->nodes[next].task;
            if (atomic_compare_exchange_weak_explicit(&q->head, &head, next, memory_order_acq_rel,
                                                      memory_order_acquire))
                return task;
        }
    }
}

static inline int blasx_queue_empty(blasx_queue_t *q) {
    uint32_t head = atomic_load_explicit(&q->head, memory_order_acquire);
    return atomic_load_explicit(&q->nodes[head].next, memory_order_acquire) == 0;
}

#endif
