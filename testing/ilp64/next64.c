/* testing/ilp64/next64.c -- a stand-in for "the program's own LAPACK" of the
 * 64_-suffixed convention: the 24 names spotrf_64_ ... zgesv_64_, each
 * recording its name (next64_called) and setting INFO to NEXT64_INFO.
 * Loaded after libblasx.so (testing/ilp64/names64.c links it after), so
 * that blasx's BLASX_LAPACK=0 forwarding (dlsym RTLD_NEXT of the suffixed
 * name) finds it. */
#include <stddef.h>
#include <stdint.h>

#define NEXT64_INFO 4242
const char *next64_called;

#define MARK(name, info) (next64_called = #name, *(info) = NEXT64_INFO)
#define NEXT64(p)                                                                                               \
    void p##potrf_64_(const char *u, const int64_t *n, void *A, const int64_t *lda, int64_t *info, size_t l) {   \
        (void)u, (void)n, (void)A, (void)lda, (void)l;                                                           \
        MARK(p##potrf_64_, info);                                                                                \
    }                                                                                                            \
    void p##potrs_64_(const char *u, const int64_t *n, const int64_t *r, const void *A, const int64_t *lda,      \
                      void *B, const int64_t *ldb, int64_t *info, size_t l) {                                    \
        (void)u, (void)n, (void)r, (void)A, (void)lda, (void)B, (void)ldb, (void)l;                              \
        MARK(p##potrs_64_, info);                                                                                \
    }                                                                                                            \
    void p##posv_64_(const char *u, const int64_t *n, const int64_t *r, void *A, const int64_t *lda, void *B,    \
                     const int64_t *ldb, int64_t *info, size_t l) {                                              \
        (void)u, (void)n, (void)r, (void)A, (void)lda, (void)B, (void)ldb, (void)l;                              \
        MARK(p##posv_64_, info);                                                                                 \
    }                                                                                                            \
    void p##getrf_64_(const int64_t *m, const int64_t *n, void *A, const int64_t *lda, int64_t *ipiv,           \
                      int64_t *info) {                                                                           \
        (void)m, (void)n, (void)A, (void)lda, (void)ipiv;                                                        \
        MARK(p##getrf_64_, info);                                                                                \
    }                                                                                                            \
    void p##getrs_64_(const char *t, const int64_t *n, const int64_t *r, const void *A, const int64_t *lda,      \
                      const int64_t *ipiv, void *B, const int64_t *ldb, int64_t *info, size_t l) {               \
        (void)t, (void)n, (void)r, (void)A, (void)lda, (void)ipiv, (void)B, (void)ldb, (void)l;                  \
        MARK(p##getrs_64_, info);                                                                                \
    }                                                                                                            \
    void p##gesv_64_(const int64_t *n, const int64_t *r, void *A, const int64_t *lda, int64_t *ipiv, void *B,    \
                     const int64_t *ldb, int64_t *info) {                                                        \
        (void)n, (void)r, (void)A, (void)lda, (void)ipiv, (void)B, (void)ldb;                                    \
        MARK(p##gesv_64_, info);                                                                                 \
    }
NEXT64(s)
NEXT64(d)
NEXT64(c)
NEXT64(z)
