/* numa/topology.h -- what the CPU side of the node looks like.
 *
 * Role: counts online cores and NUMA nodes for sizing the worker pool, and
 * gives the hybrid GEMM (numa/hybrid_gemm.h) its placement facts: the cores
 * this process may use in node order, the node of a core, node distances
 * and, per node, the other nodes nearest first.  Uses libnuma when blasx is
 * built with -DBLASX_HAVE_NUMA and numa_available() >= 0; otherwise the
 * node is one NUMA domain (node 0, every distance equal).
 * Invariants: every count returned is >= 1; node ids are in
 * [0, blasx_topo_numa_nodes()); no function allocates or fails.
 */
#ifndef BLASX_NUMA_TOPOLOGY_H
#define BLASX_NUMA_TOPOLOGY_H

#include <sched.h>
#include <unistd.h>
#ifdef BLASX_HAVE_NUMA
#include <numa.h>
#endif

static inline int blasx_topo_cpu_count(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (int)n;
}

/* libnuma is usable in this process (linked in and the kernel has NUMA). */
static inline int blasx_topo_have_numa(void) {
#ifdef BLASX_HAVE_NUMA
    return numa_available() >= 0;
#else
    return 0;
#endif
}

static inline int blasx_topo_numa_nodes(void) {
#ifdef BLASX_HAVE_NUMA
    if (blasx_topo_have_numa()) {
        int n = numa_max_node() + 1;
        return n < 1 ? 1 : n;
    }
#endif
    return 1;
}

/* Node of a core; 0 when unknown. */
static inline int blasx_topo_cpu_node(int cpu) {
#ifdef BLASX_HAVE_NUMA
    if (blasx_topo_have_numa()) {
        int n = numa_node_of_cpu(cpu);
        return n < 0 || n >= blasx_topo_numa_nodes() ? 0 : n;
    }
#endif
    (void)cpu;
    return 0;
}

/* Relative distance of two nodes (10 = local, as the ACPI SLIT); 10 for
 * a node to itself and 20 between distinct nodes when unknown. */
static inline int blasx_topo_distance(int a, int b) {
#ifdef BLASX_HAVE_NUMA
    if (blasx_topo_have_numa()) {
        int d = numa_distance(a, b);
        if (d > 0) return d;
    }
#endif
    return a == b ? 10 : 20;
}

/* The cores this process may run on (its affinity mask, else every online
 * core), sorted by node then core id: thread t of a pool pinned to
 * out[t % n] fills node 0 first, then node 1, ...  Returns n (>= 1) and
 * writes at most max entries. */
static inline int blasx_topo_cores_in_node_order(int *out, int max) {
    cpu_set_t set;
    int n = 0;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) == 0) {
        const int c = blasx_topo_cpu_count();
        for (int i = 0; i < c && i < CPU_SETSIZE; i++) CPU_SET(i, &set);
    }
    const int nodes = blasx_topo_numa_nodes();
    for (int node = 0; node < nodes && n < max; node++)
        for (int c = 0; c < CPU_SETSIZE && n < max; c++)
            if (CPU_ISSET(c, &set) && blasx_topo_cpu_node(c) == node) out[n++] = c;
    if (n == 0) out[n++] = 0; /* cannot happen with a sane mask; keeps the >= 1 invariant */
    return n;
}

/* Writes the nodes ordered by distance from `from` (itself first, ties by
 * id) into out[0 .. blasx_topo_numa_nodes()); returns the count. */
static inline int blasx_topo_nodes_by_distance(int from, int *out) {
    const int nodes = blasx_topo_numa_nodes();
    for (int i = 0; i < nodes; i++) out[i] = i;
    for (int i = 1; i < nodes; i++) { /* insertion sort: node counts are tiny */
        const int x = out[i], dx = x == from ? -1 : blasx_topo_distance(from, x);
        int j = i - 1;
        while (j >= 0) {
            const int y = out[j], dy = y == from ? -1 : blasx_topo_distance(from, y);
            if (dy < dx || (dy == dx && y < x)) break;
            out[j + 1] = y;
            j--;
        }
        out[j + 1] = x;
    }
    return nodes;
}

/* Node of the core the caller runs on now (a hint: threads may migrate). */
static inline int blasx_topo_current_node(void) {
    const int cpu = sched_getcpu();
    return cpu < 0 ? 0 : blasx_topo_cpu_node(cpu);
}

#endif
