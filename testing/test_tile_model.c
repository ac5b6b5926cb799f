/* testing/test_tile_model.c -- the tile size model (internal/plan/tile_model.h).
 *
 * The pick is a pure function of the measured machine and the call: these
 * checks feed it a machine shaped like one H200 behind PCIe (kernel rate
 * rising with the tile, 50 GB/s host links) and check the choices the
 * model exists for: large problems take large tiles (kernel rate), small
 * ones smaller tiles (pipeline fill and load balance), the pick has the
 * least estimate and more GPUs never estimate slower, a small heap caps the
 * tile, triangular outputs count half the tasks, and an empty model keeps
 * the compiled tile.  The same function runs on the GPU machine with the
 * rates it measured there (BLASX_VERBOSE=1 prints them).
 */
#include <string.h>
#include "internal/plan/tile_model.h"
#include "testing/harness.h"

static blasx_problem_t gemm(int64_t m, int64_t n, int64_t k) {
    blasx_problem_t p;
    memset(&p, 0, sizeof p);
    p.routine = BLASX_K_GEMM;
    p.o[0] = p.o[1] = 'N';
    p.m = m, p.n = n, p.k = k;
    p.alpha = 1, p.beta = 1;
    return p;
}

int main(void) {
    /* a test machine: rates in flop/s per candidate tile, links in bytes/s */
    blasx_tile_model_t md = {.n = 4, .tile = {512, 1024, 2048, 4096}, .rate = {25e12, 40e12, 50e12, 58e12},
                             .h2d = 50e9, .d2h = 50e9}; /* no tile-shaped link rates: the contiguous ones */
    const double heap = 120e9;
    const int streams = 4;

    blasx_problem_t big = gemm(32768, 32768, 32768), mid = gemm(8192, 8192, 8192), small = gemm(2048, 2048, 2048);
    double e_big, e_mid;
    int64_t tb1 = blasx_tile_model_pick(&md, &big, 8, 1, streams, heap, 1024, &e_big, NULL);
    int64_t tb2 = blasx_tile_model_pick(&md, &big, 8, 2, streams, heap, 1024, NULL, NULL);
    int64_t tm2 = blasx_tile_model_pick(&md, &mid, 8, 2, streams, heap, 1024, &e_mid, NULL);
    int64_t ts2 = blasx_tile_model_pick(&md, &small, 8, 2, streams, heap, 1024, NULL, NULL);
    printf("test_tile_model: DGEMM 32768 -> %lld (1 GPU, est %.3f s), %lld (2 GPUs); 8192 -> %lld (est %.4f s); "
           "2048 -> %lld\n", (long long)tb1, e_big, (long long)tb2, (long long)tm2, e_mid, (long long)ts2);
    CHECK(tb1 == 4096 && tb2 == 4096, "N = 32768 takes the fastest kernel's tile (%lld, %lld)", (long long)tb1,
          (long long)tb2);
    CHECK(ts2 < 4096 && ts2 <= tm2 && tm2 <= tb2, "smaller problems take smaller tiles (%lld <= %lld <= %lld)",
          (long long)ts2, (long long)tm2, (long long)tb2);
    /* the estimate at 32768: compute-bound, 2 N^3 / rate(4096) on one GPU */
    CHECK(e_big >= 2.0 * 32768.0 * 32768.0 * 32768.0 / 58e12 && e_big < 1.05 * 2.0 * 32768.0 * 32768.0 * 32768.0 / 58e12,
          "1-GPU estimate %.3f s is the compute time plus a small pipeline fill", e_big);

    /* the pick is the candidate of least estimate, and more GPUs never make
     * the estimate worse, for every size and GPU count */
    for (int64_t n = 1024; n <= 65536; n *= 2) {
        blasx_problem_t p = gemm(n, n, n / 2);
        double prev = 1e30;
        for (int g = 1; g <= 8; g++) {
            double est;
            int64_t t = blasx_tile_model_pick(&md, &p, 8, g, streams, heap, 1024, &est, NULL);
            int least = 1;
            for (int i = 0; i < md.n; i++)
                least &= est <= blasx_tile_model_estimate(&md, md.rate[i], md.tile[i], &p, 8, g);
            CHECK(least, "N %lld, %d GPUs: tile %lld has the least estimate", (long long)n, g, (long long)t);
            CHECK(est <= prev * (1 + 1e-12), "N %lld: %d GPUs estimate %.4g s after %.4g s", (long long)n, g, est, prev);
            prev = est;
        }
    }

    /* the working set bounds the tile: 3 per stream + 2 of T^2 doubles */
    double small_heap = 2048.0 * 2048 * 8 * (3 * streams + 2);
    int64_t th = blasx_tile_model_pick(&md, &big, 8, 2, streams, small_heap, 1024, NULL, NULL);
    CHECK(th == 2048, "heap for 2048-tiles only: %lld", (long long)th);
    CHECK(blasx_tile_model_pick(&md, &big, 8, 2, streams, 1.0, 777, NULL, NULL) == 777,
          "nothing fits: the compiled tile");

    /* triangular outputs: half the tasks */
    blasx_problem_t rk;
    memset(&rk, 0, sizeof rk);
    rk.routine = BLASX_K_SYRK, rk.o[0] = 'L', rk.o[1] = 'N', rk.n = 4096, rk.k = 4096, rk.beta = 1;
    CHECK(blasx_tile_model_tasks(&rk, 1024) == 10 && blasx_tile_model_tasks(&mid, 1024) == 64,
          "task counts: SYRK 4 x 4 tiles -> 10, GEMM 8 x 8 -> 64");

    /* an empty model keeps the compiled tile */
    blasx_tile_model_t none;
    memset(&none, 0, sizeof none);
    CHECK(blasx_tile_model_pick(&none, &big, 8, 2, streams, heap, 1024, NULL, NULL) == 1024, "no model: compiled tile");
    /* tile-shaped copies slower for small tiles (as measured on the H200:
     * 2-D copies of 8 KiB pieces at about 33 GB/s): the links of T are
     * T's own, estimates grow, and a PCIe-bound call moves to larger tiles */
    {
        blasx_tile_model_t m2 = md;
        const double h[4] = {20e9, 33e9, 49e9, 55e9}, d[4] = {18e9, 25e9, 45e9, 52e9};
        for (int i = 0; i < 4; i++) m2.h2d_t[i] = h[i], m2.d2h_t[i] = d[i];
        double lh, ld;
        blasx_tile_model_links(&m2, 1024, &lh, &ld);
        CHECK(lh == 33e9 && ld == 25e9, "links of 1024-tiles: %.0f / %.0f", lh, ld);
        blasx_tile_model_links(&m2, 8192, &lh, &ld);
        CHECK(lh == 50e9 && ld == 50e9, "a tile without its own rates: the contiguous links (%.0f / %.0f)", lh, ld);
        blasx_tile_model_links(&md, 1024, &lh, &ld);
        CHECK(lh == 50e9 && ld == 50e9, "a model without tile-shaped rates: the contiguous links");
        double e0, e1;
        int64_t t0 = blasx_tile_model_pick(&md, &mid, 8, 1, streams, heap, 1024, &e0, NULL);
        int64_t t1 = blasx_tile_model_pick(&m2, &mid, 8, 1, streams, heap, 1024, &e1, NULL);
        printf("test_tile_model: DGEMM 8192 on 1 GPU: %lld (contiguous links, est %.4f s) -> %lld (tile links, "
               "est %.4f s)\n", (long long)t0, e0, (long long)t1, e1);
        CHECK(t1 > t0, "slow small-tile copies move N = 8192 to larger tiles (%lld -> %lld)", (long long)t0,
              (long long)t1);
        CHECK(blasx_tile_model_estimate(&m2, m2.rate[1], 1024, &mid, 8, 1) >
                  blasx_tile_model_estimate(&md, md.rate[1], 1024, &mid, 8, 1),
              "slower 1024-tile links give a larger 1024 estimate");
    }
    /* GEMM's tall tiles (blasx_tile_model_tall): C and op(A) tiles
     * cfg.tile_model.tall_kib of host column high, clipped to m, never
     * shorter than T; other routines and tile_m == NULL stay square */
    {
        const int64_t kib = blasx_cfg.tile_model.tall_kib;
        int64_t rows_d = kib * 1024 / 8, tm = -1;
        CHECK(blasx_tile_model_tall(&mid, 1024, 8) == (rows_d > 1024 ? (rows_d < 8192 ? rows_d : 8192) : 0),
              "DGEMM 8192, T 1024: tall tiles of min(%lld, 8192) rows", (long long)rows_d);
        CHECK(blasx_tile_model_tall(&mid, 1024, 4) == (kib * 256 > 1024 ? (kib * 256 < 8192 ? kib * 256 : 8192) : 0),
              "SGEMM: twice the rows of DGEMM for the same bytes (clipped to m)");
        CHECK(blasx_tile_model_tall(&small, 4096, 8) == 0, "m = 2048 below T = 4096: square");
        blasx_problem_t rk = mid;
        rk.routine = BLASX_K_SYRK;
        CHECK(blasx_tile_model_tall(&rk, 1024, 8) == 0, "SYRK: square tiles");
        int64_t t = blasx_tile_model_pick(&md, &big, 8, 1, streams, heap, 1024, NULL, &tm);
        CHECK(kib == 0 || tm == blasx_tile_model_tall(&big, t, 8), "DGEMM 32768 picks tile %lld with tile_m %lld",
              (long long)t, (long long)tm);
        blasx_problem_t tall = big;
        tall.tile_m = tm;
        double e_sq, e_tall;
        (void)blasx_tile_model_pick(&md, &big, 8, 1, streams, heap, 1024, &e_sq, NULL);
        e_tall = blasx_tile_model_estimate(&md, md.rate[3], t, &tall, 8, 1);
        CHECK(e_tall > 0 && e_sq > 0, "estimates with and without tall tiles (%.4f / %.4f s)", e_tall, e_sq);
        tm = -1;
        (void)blasx_tile_model_pick(&md, &rk, 8, 1, streams, heap, 1024, NULL, &tm);
        CHECK(tm == 0, "SYRK pick: tile_m 0");
        /* a heap that holds square 4096 working sets but not tall ones: a
         * smaller T whose tall working set fits, or none */
        double sq4096 = 4096.0 * 4096 * 8 * (3.0 * streams + 2);
        tm = -1;
        int64_t th = blasx_tile_model_pick(&md, &big, 8, 1, streams, sq4096, 1024, NULL, &tm);
        double mb = (double)th * (double)(tm ? tm : th) * 8, tb = (double)th * (double)th * 8;
        CHECK((2 * mb + tb) * streams + 2 * mb <= sq4096, "tall working set (tile %lld x %lld) fits the heap",
              (long long)(tm ? tm : th), (long long)th);
    }
    /* output tiles with short host columns (cfg.tile_model.short_piece_*),
     * with the rates measured on an H200 (2026-11-24): DTRMM / DTRSM /
     * DSYRK 16384 move from 2048- to 4096-tiles (measured 0.58 -> 0.76,
     * 0.82 -> 0.87, 0.70 -> 0.70), ZHERK keeps 2048 (32 KiB pieces) */
    {
        blasx_tile_model_t h = {.n = 4, .tile = {512, 1024, 2048, 4096}, .rate = {15.9e12, 51.5e12, 59.4e12, 62.5e12},
                                .h2d = 55.1e9, .d2h = 54.8e9, .h2d_t = {46.6e9, 50.2e9, 53.2e9, 53.4e9},
                                .d2h_t = {49.8e9, 53.4e9, 55.2e9, 54.3e9}};
        blasx_problem_t tr = gemm(16384, 16384, 0), rk = gemm(0, 16384, 16384);
        tr.routine = BLASX_K_TRMM, tr.o[0] = 'L', tr.o[1] = 'U', tr.o[2] = 'N', tr.o[3] = 'N';
        rk.routine = BLASX_K_HERK, rk.o[0] = 'U', rk.o[1] = 'N', rk.complex_elems = 1;
        double e2 = blasx_tile_model_estimate(&h, h.rate[2], 2048, &tr, 8, 1);
        double e4 = blasx_tile_model_estimate(&h, h.rate[3], 4096, &tr, 8, 1);
        int short_on = blasx_cfg.tile_model.short_piece_b > 2048 * 8 && blasx_cfg.tile_model.short_piece_pct < 100;
        CHECK(!short_on || e4 < e2, "DTRMM 16384: 4096-tiles estimated faster than 2048 (%.4f / %.4f s)", e4, e2);
        int64_t t = blasx_tile_model_pick(&h, &tr, 8, 1, streams, heap, 1024, NULL, NULL);
        CHECK(!short_on || t == 4096, "DTRMM 16384 picks 4096 (%lld)", (long long)t);
        t = blasx_tile_model_pick(&h, &rk, 16, 1, streams, heap, 1024, NULL, NULL);
        CHECK(t == 2048, "ZHERK 16384 keeps 2048-tiles: 32 KiB pieces (%lld)", (long long)t);
        int64_t tm = -1;
        t = blasx_tile_model_pick(&h, &mid, 8, 1, streams, heap, 1024, NULL, &tm);
        CHECK(t == 1024 && tm == blasx_tile_model_tall(&mid, 1024, 8), "DGEMM 8192: 1024 with tall tiles of %lld rows",
              (long long)tm);
    }
    return bx_summary("test_tile_model");
}
