/* numa/topology.h -- what the CPU side of the node looks like.
 *
 * Role: counts online cores and NUMA nodes for sizing the worker pool and,
 * later, for placing threads and packed buffers.  Uses libnuma when blasx
 * is built with -DBLASX_HAVE_NUMA and numa_available() >= 0; otherwise the
 * node is one NUMA domain.
 * Invariants: every count returned is >= 1.
 */
#ifndef BLASX_NUMA_TOPOLOGY_H
#define BLASX_NUMA_TOPOLOGY_H

#include <unistd.h>
#ifdef BLASX_HAVE_NUMA
#include <numa.h>
#endif

static inline int blasx_topo_cpu_count(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (int)n;
}

static inline int blasx_topo_numa_nodes(void) {
#ifdef BLASX_HAVE_NUMA
    if (numa_available() >= 0) {
        int n = numa_max_node() + 1;
        return n < 1 ? 1 : n;
    }
#endif
    return 1;
}

#endif
