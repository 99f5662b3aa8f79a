/* clipt bench's plan factory (see bench.h): worker threads create the plans
 * of a list of options ahead while the caller times them in order. */
#include "bench.h"
#include "timing.h"

#include <pthread.h>
#include <string.h>

struct plan_factory {
    clipt_context cx;
    size_t rows, cols, elem;
    const clipt_plan_options *opts;
    size_t count;
    plan_slot *slots;
    size_t next, taken, window;
    int stop;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    pthread_t ids[BENCH_MAX_THREADS];
    unsigned threads;
};

/* Creates slot i's plan; called without the lock, stores under it. */
static void factory_create(plan_factory *f, size_t i)
{
    clipt_plan plan = NULL;
    const double t0 = util_now_seconds();
    const clipt_status st = clipt_plan_create(f->cx, f->rows, f->cols, f->elem, &f->opts[i],
                                              &plan);
    pthread_mutex_lock(&f->lock);
    f->slots[i].plan = plan;
    f->slots[i].st = st;
    f->slots[i].create_s = util_now_seconds() - t0;
    f->slots[i].ready = 1;
    pthread_cond_broadcast(&f->cond);
    pthread_mutex_unlock(&f->lock);
}

static void *factory_worker(void *arg)
{
    plan_factory *f = arg;
    pthread_mutex_lock(&f->lock);
    for (;;) {
        size_t i;
        while (!f->stop && f->next < f->count && f->next >= f->taken + f->window)
            pthread_cond_wait(&f->cond, &f->lock);
        if (f->stop || f->next >= f->count)
            break;
        i = f->next++;
        f->slots[i].claimed = 1;
        pthread_mutex_unlock(&f->lock);
        factory_create(f, i);
        pthread_mutex_lock(&f->lock);
    }
    pthread_mutex_unlock(&f->lock);
    return NULL;
}

plan_factory *plan_factory_start(clipt_context cx, size_t rows, size_t cols, size_t elem,
                                 const clipt_plan_options *opts, size_t count,
                                 unsigned threads, const char **what)
{
    plan_factory *f = calloc(1, sizeof *f);
    *what = "host memory for brute-force plans";
    if (!f || !(f->slots = calloc(count ? count : 1, sizeof *f->slots))) {
        free(f);
        return NULL;
    }
    f->cx = cx;
    f->rows = rows;
    f->cols = cols;
    f->elem = elem;
    f->opts = opts;
    f->count = count;
    f->window = threads;
    *what = "pthread_mutex_init";
    if (pthread_mutex_init(&f->lock, NULL) != 0)
        goto fail;
    *what = "pthread_cond_init";
    if (pthread_cond_init(&f->cond, NULL) != 0) {
        pthread_mutex_destroy(&f->lock);
        goto fail;
    }
    /* threads that cannot start leave their work to plan_factory_take */
    while (f->threads < threads && f->threads < BENCH_MAX_THREADS &&
           pthread_create(&f->ids[f->threads], NULL, factory_worker, f) == 0)
        f->threads++;
    return f;
fail:
    free(f->slots);
    free(f);
    return NULL;
}

plan_slot plan_factory_take(plan_factory *f, size_t i)
{
    plan_slot s;
    pthread_mutex_lock(&f->lock);
    if (!f->slots[i].claimed && f->next == i) {
        f->next++;
        f->slots[i].claimed = 1;
        pthread_mutex_unlock(&f->lock);
        factory_create(f, i);
        pthread_mutex_lock(&f->lock);
    }
    while (!f->slots[i].ready)
        pthread_cond_wait(&f->cond, &f->lock);
    s = f->slots[i];
    f->slots[i].plan = NULL;
    f->taken = i + 1;
    pthread_cond_broadcast(&f->cond);
    pthread_mutex_unlock(&f->lock);
    return s;
}

void plan_factory_stop(plan_factory *f)
{
    pthread_mutex_lock(&f->lock);
    f->stop = 1;
    pthread_cond_broadcast(&f->cond);
    pthread_mutex_unlock(&f->lock);
    for (unsigned t = 0; t < f->threads; t++)
        pthread_join(f->ids[t], NULL);
    for (size_t i = 0; i < f->count; i++)
        clipt_plan_release(f->slots[i].plan);
    pthread_cond_destroy(&f->cond);
    pthread_mutex_destroy(&f->lock);
    free(f->slots);
    free(f);
}
