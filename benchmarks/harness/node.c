/* benchmarks/harness/node.c -- the node: the measured links (host<->GPU
 * per GPU and all at once, GPU<->GPU) that the bound uses (N), and the
 * wait for quiet copy engines before each measurement (quiet()). */
#include "harness.h"

#ifdef BLASX_HAVE_CUDA

/* ---- CUDA error handling: report, never abort ------------------------------ */

int cu_fail(cudaError_t e, const char *what, int line, char *err, size_t len) {
    (void)cudaGetLastError(); /* clear a non-sticky error */
    snprintf(err, len, "%s: %s (line %d)", what, cudaGetErrorString(e), line);
    fprintf(stderr, "bench_harness: CUDA error: %s\n", err);
    return -1;
}

/* ---- the node: devices and links ------------------------------------------- */

node_t N; /* devices and links */

typedef struct {
    int dev, peer; /* peer >= 0: a peer copy from device peer */
    cudaStream_t s;
    void *dst;
    const void *src;
    size_t bytes;
    enum cudaMemcpyKind kind;
} xfer_t;

/* Best wall time of the copies issued together (one untimed round first);
 * -1 on an error. */
static double time_xfers(const xfer_t *x, int nx, int reps) {
    double best = INFINITY;
    for (int r = 0; r <= reps; r++) {
        double t0 = now();
        for (int i = 0; i < nx; i++) {
            cudaError_t e = cudaSetDevice(x[i].dev);
            if (e == cudaSuccess)
                e = x[i].peer >= 0 ? cudaMemcpyPeerAsync(x[i].dst, x[i].dev, x[i].src, x[i].peer, x[i].bytes, x[i].s)
                                   : cudaMemcpyAsync(x[i].dst, x[i].src, x[i].bytes, x[i].kind, x[i].s);
            if (e != cudaSuccess) {
                fprintf(stderr, "bench_harness: copy failed: %s\n", cudaGetErrorString(e));
                (void)cudaGetLastError();
                return -1;
            }
        }
        for (int i = 0; i < nx; i++)
            if (cudaStreamSynchronize(x[i].s) != cudaSuccess) {
                (void)cudaGetLastError();
                return -1;
            }
        double t = now() - t0;
        if (r > 0 && t < best) best = t;
    }
    return best;
}

static double gbps(double bytes, double t) { return t > 0 ? bytes / t * 1e-9 : 0; }

/* Measures the links of GPUs 0..nuse-1 into N. */
int measure_links(int nuse, char *err, size_t errlen) {
    int rc = 0;
    size_t bytes = O.bw_mib << 20;
    void *h[MAXG] = {0}, *d[MAXG] = {0};
    cudaStream_t s[MAXG][2] = {{0}};
    int enabled[MAXG][MAXG] = {{0}};
    xfer_t x[2 * MAXG];
    for (int i = 0; i < nuse; i++) {
        CK(cudaSetDevice(i));
        CK(cudaMallocHost(&h[i], 2 * bytes));
        CK(cudaMalloc(&d[i], 2 * bytes));
        memset(h[i], 1, 2 * bytes);
        CK(cudaMemset(d[i], 0, 2 * bytes));
        CK(cudaStreamCreateWithFlags(&s[i][0], cudaStreamNonBlocking));
        CK(cudaStreamCreateWithFlags(&s[i][1], cudaStreamNonBlocking));
    }
    for (int i = 0; i < nuse; i++) {
        x[0] = (xfer_t){i, -1, s[i][0], d[i], h[i], bytes, cudaMemcpyHostToDevice};
        x[1] = (xfer_t){i, -1, s[i][1], (char *)h[i] + bytes, (char *)d[i] + bytes, bytes, cudaMemcpyDeviceToHost};
        N.h2d1[i] = gbps((double)bytes, time_xfers(&x[0], 1, 3));
        N.d2h1[i] = gbps((double)bytes, time_xfers(&x[1], 1, 3));
        N.bid1[i] = gbps(2.0 * (double)bytes, time_xfers(x, 2, 3));
    }
    N.h2dn[1] = N.h2d1[0], N.d2hn[1] = N.d2h1[0];
    for (int g = 2; g <= nuse; g++) {
        for (int i = 0; i < g; i++) x[i] = (xfer_t){i, -1, s[i][0], d[i], h[i], bytes, cudaMemcpyHostToDevice};
        N.h2dn[g] = gbps((double)g * (double)bytes, time_xfers(x, g, 3));
        for (int i = 0; i < g; i++) x[i] = (xfer_t){i, -1, s[i][0], h[i], d[i], bytes, cudaMemcpyDeviceToHost};
        N.d2hn[g] = gbps((double)g * (double)bytes, time_xfers(x, g, 3));
    }
    /* Peers: enable what is possible (undone below, so that blasx and
     * cuBLAS-XT find the state of a fresh process). */
    for (int i = 0; i < nuse; i++)
        for (int j = 0; j < nuse; j++) {
            if (i == j || !N.access[i][j]) continue;
            CK(cudaSetDevice(i));
            cudaError_t e = cudaDeviceEnablePeerAccess(j, 0);
            if (e == cudaSuccess) enabled[i][j] = 1;
            else if (e == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError();
            else CK(e);
        }
    for (int i = 0; i < nuse; i++)
        for (int j = 0; j < nuse; j++) {
            if (i == j) continue;
            /* src j -> dst i, on the destination's stream */
            x[0] = (xfer_t){i, j, s[i][0], d[i], d[j], bytes, cudaMemcpyDefault};
            N.p2p[j][i] = gbps((double)bytes, time_xfers(x, 1, 3));
            if (j > i) {
                x[1] = (xfer_t){j, i, s[j][1], (char *)d[j] + bytes, (char *)d[i] + bytes, bytes, cudaMemcpyDefault};
                N.p2pbi[j][i] = N.p2pbi[i][j] = gbps(2.0 * (double)bytes, time_xfers(x, 2, 3));
            }
        }
out:
    for (int i = 0; i < nuse; i++)
        for (int j = 0; j < nuse; j++)
            if (enabled[i][j]) cudaSetDevice(i), cudaDeviceDisablePeerAccess(j);
    for (int i = 0; i < nuse; i++) {
        cudaSetDevice(i);
        for (int k = 0; k < 2; k++)
            if (s[i][k]) cudaStreamDestroy(s[i][k]);
        if (d[i]) cudaFree(d[i]);
        if (h[i]) cudaFreeHost(h[i]);
    }
    return rc;
}

/* ---- quiet copy engines ----------------------------------------------------------- */

/* The driver scrubs device memory just freed with the copy engines: on the
 * H200, pinned copies ran ~1.1 ms instead of ~60 us (a 256^3 DGEMM's) for
 * about a second after blasx's 125 GB heap or a large buffer was freed.
 * So every measurement first waits (at most 5 s) until a burst of short
 * copies on each GPU runs within 2.5x its time at start-up (a lone copy
 * after an idle spell is slower for other reasons: clocks, link power
 * states). */
#define SETTLE_BYTES (1 << 20)
#define SETTLE_BURST 4
static struct {
    void *h;
    void *d[MAXG];
    cudaStream_t s[MAXG];
    double base[MAXG];
    int n;
} Q;

static double quiet_copy(int i) {
    double t0 = now();
    int ok = cudaSetDevice(i) == cudaSuccess;
    for (int b = 0; ok && b < SETTLE_BURST; b++)
        ok = cudaMemcpyAsync(Q.d[i], Q.h, SETTLE_BYTES, cudaMemcpyHostToDevice, Q.s[i]) == cudaSuccess;
    if (!ok || cudaStreamSynchronize(Q.s[i]) != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    return now() - t0;
}

void quiet_init(int n) {
    if (cudaMallocHost(&Q.h, SETTLE_BYTES) != cudaSuccess) return;
    memset(Q.h, 0, SETTLE_BYTES);
    for (int i = 0; i < n; i++) {
        if (cudaSetDevice(i) != cudaSuccess || cudaMalloc(&Q.d[i], SETTLE_BYTES) != cudaSuccess ||
            cudaStreamCreateWithFlags(&Q.s[i], cudaStreamNonBlocking) != cudaSuccess)
            break;
        Q.base[i] = INFINITY;
        for (int r = 0; r < 5; r++) Q.base[i] = fmin(Q.base[i], quiet_copy(i));
        Q.n = i + 1;
    }
    (void)cudaGetLastError();
}

void quiet(void) {
    for (int i = 0; i < Q.n; i++) {
        double t0 = now(), t;
        while ((t = quiet_copy(i)) > 2.5 * Q.base[i] && now() - t0 < 5) {
            struct timespec ts = {0, 20000000};
            nanosleep(&ts, NULL);
        }
        if (now() - t0 > 0.05) printf("   (waited %.2f s for GPU %d's copy engines to quieten)\n", now() - t0, i);
    }
}

#endif /* BLASX_HAVE_CUDA */
