/* internal/plan/taskgraph.c -- dependency inference from read/write sets. */
#include "internal/plan/taskgraph.h"

typedef struct {
    int32_t task, next;
} blasx_reader_t;

typedef struct {
    int32_t *writer;  /* last task that wrote the tile, -1 none */
    int32_t *readers; /* head of the list of tasks that read it since, -1 none */
    blasx_reader_t *rd;
    int64_t nrd, cap_rd;
    int32_t *edge; /* pairs (pred, succ) */
    int64_t nedge, cap_edge;
    int64_t base[BLASX_OPND_COUNT + 1];
} blasx_infer_t;

static int add_edge(blasx_infer_t *s, int32_t pred, int32_t succ) {
    if (pred < 0 || pred == succ) return 0;
    int st = blasx_grow((void **)&s->edge, &s->cap_edge, 2 * (s->nedge + 1), sizeof(int32_t));
    if (st) return st;
    s->edge[2 * s->nedge] = pred;
    s->edge[2 * s->nedge + 1] = succ;
    s->nedge++;
    return 0;
}

static int64_t tile_slot(const blasx_graph_t *g, const blasx_infer_t *s, blasx_tile_t t) {
    return s->base[t.opnd] + (int64_t)t.ti + (int64_t)t.tj * g->grid_rows[t.opnd];
}

static int note_read(const blasx_graph_t *g, blasx_infer_t *s, blasx_tile_t t, int32_t task) {
    if (t.opnd < 0) return 0;
    int64_t k = tile_slot(g, s, t);
    BLASX_TRY(add_edge(s, s->writer[k], task));
    int32_t head = s->readers[k];
    if (head >= 0 && s->rd[head].task == task) return 0; /* already listed */
    BLASX_TRY(blasx_grow((void **)&s->rd, &s->cap_rd, s->nrd + 1, sizeof(blasx_reader_t)));
    s->rd[s->nrd].task = task;
    s->rd[s->nrd].next = head;
    s->readers[k] = (int32_t)s->nrd++;
    return 0;
}

static int note_write(const blasx_graph_t *g, blasx_infer_t *s, blasx_tile_t t, int32_t task) {
    int64_t k = tile_slot(g, s, t);
    BLASX_TRY(add_edge(s, s->writer[k], task));
    for (int32_t r = s->readers[k]; r >= 0; r = s->rd[r].next) BLASX_TRY(add_edge(s, s->rd[r].task, task));
    s->readers[k] = -1;
    s->writer[k] = task;
    return 0;
}

static int infer(blasx_graph_t *g, blasx_infer_t *s) {
    int64_t slots = 0;
    for (int o = 0; o < BLASX_OPND_COUNT; o++) {
        s->base[o] = slots;
        slots += g->grid_rows[o] * g->grid_cols[o];
    }
    s->base[BLASX_OPND_COUNT] = slots;
    s->writer = (int32_t *)malloc((size_t)(slots ? slots : 1) * sizeof(int32_t));
    s->readers = (int32_t *)malloc((size_t)(slots ? slots : 1) * sizeof(int32_t));
    if (!s->writer || !s->readers) return BLASX_ERR_NOMEM;
    memset(s->writer, 0xff, (size_t)slots * sizeof(int32_t));
    memset(s->readers, 0xff, (size_t)slots * sizeof(int32_t));

    for (int64_t t = 0; t < g->ntasks; t++) {
        const blasx_task_t *tk = &g->tasks[t];
        for (int64_t i = 0; i < tk->nsteps; i++) {
            const blasx_step_t *st = &g->steps[tk->step0 + i];
            /* The output tile is read and written by the task itself only. */
            if (!blasx_tile_eq(st->a, tk->out)) BLASX_TRY(note_read(g, s, st->a, (int32_t)t));
            if (!blasx_tile_eq(st->b, tk->out)) BLASX_TRY(note_read(g, s, st->b, (int32_t)t));
        }
        BLASX_TRY(note_write(g, s, tk->out, (int32_t)t));
    }

    /* Successor lists in CSR order of the predecessor. */
    for (int64_t t = 0; t < g->ntasks; t++) g->tasks[t].nsucc = g->tasks[t].npred = 0;
    for (int64_t e = 0; e < s->nedge; e++) {
        g->tasks[s->edge[2 * e]].nsucc++;
        g->tasks[s->edge[2 * e + 1]].npred++;
    }
    g->succ = (int32_t *)malloc((size_t)(s->nedge ? s->nedge : 1) * sizeof(int32_t));
    if (!g->succ) return BLASX_ERR_NOMEM;
    int64_t off = 0;
    for (int64_t t = 0; t < g->ntasks; t++) {
        g->tasks[t].succ0 = off;
        off += g->tasks[t].nsucc;
        g->tasks[t].nsucc = 0;
    }
    for (int64_t e = 0; e < s->nedge; e++) {
        blasx_task_t *p = &g->tasks[s->edge[2 * e]];
        g->succ[p->succ0 + p->nsucc++] = s->edge[2 * e + 1];
    }
    g->nedges = s->nedge;
    return 0;
}

int blasx_graph_infer_deps(blasx_graph_t *g) {
    if (g->status) return g->status;
    if (g->ntasks >= INT32_MAX) return BLASX_ERR_NOMEM;
    blasx_infer_t s;
    memset(&s, 0, sizeof s);
    int st = infer(g, &s);
    free(s.writer);
    free(s.readers);
    free(s.rd);
    free(s.edge);
    return st;
}
