/* A context's plan cache (see plan_cache.h). */
#include "plan_cache.h"
#include "options.h"
#include "plan.h"

#include <string.h>

clipt_status clipt_plan_cache_init(clipt_plan_cache *pc, size_t budget_bytes)
{
    memset(pc, 0, sizeof *pc);
    pc->budget_bytes = budget_bytes;
    return pthread_mutex_init(&pc->lock, NULL) ? CLIPT_ERROR_OUT_OF_HOST_MEMORY
                                               : CLIPT_SUCCESS;
}

void clipt_plan_cache_destroy(clipt_plan_cache *pc)
{
    clipt_plan_cache_clear(pc);
    pthread_mutex_destroy(&pc->lock);
}

clipt_plan_key clipt_plan_key_of(size_t rows, size_t cols, size_t elem,
                                 const clipt_plan_options *o, const clipt_tuning *device)
{
    clipt_plan_key k;
    memset(&k, 0, sizeof k); /* padding bytes too: keys are compared whole */
    k.rows = rows;
    k.cols = cols;
    k.elem = elem;
    k.sequence = o->sequence;
    k.tile_m = o->tile_m;
    k.tile_n = o->tile_n;
    k.padding = o->padding;
    k.tile_rule = o->tile_rule;
    k.algorithm = o->algorithm;
    k.tuning = clipt_options_tuning(o, device);
    return k;
}

/* Keys are made by clipt_plan_key_of only, padding zeroed: memcmp is exact. */
static clipt_plan_cache_entry *find_entry(clipt_plan_cache *pc, const clipt_plan_key *key)
{
    for (unsigned i = 0; i < CLIPT_PLAN_CACHE_ENTRIES; i++)
        if (pc->entry[i].plan && memcmp(&pc->entry[i].key, key, sizeof *key) == 0)
            return &pc->entry[i];
    return NULL;
}

clipt_plan clipt_plan_cache_find(clipt_plan_cache *pc, const clipt_plan_key *key)
{
    clipt_plan p = NULL;
    clipt_plan_cache_entry *e;
    pthread_mutex_lock(&pc->lock);
    if ((e = find_entry(pc, key)) != NULL) {
        p = e->plan;
        clipt_plan_retain(p);
        e->used = ++pc->clock;
        pc->hits++;
    } else {
        pc->misses++;
    }
    pthread_mutex_unlock(&pc->lock);
    return p;
}

static size_t cached_bytes(const clipt_plan_cache *pc)
{
    size_t sum = 0;
    for (unsigned i = 0; i < CLIPT_PLAN_CACHE_ENTRIES; i++)
        if (pc->entry[i].plan)
            sum += pc->entry[i].device_bytes;
    return sum;
}

/* The slot a new plan of `bytes` goes to: the least recently used plans
 * leave (into out[], released by the caller after the lock) until there is
 * a free slot and room in the budget. */
static clipt_plan_cache_entry *make_room(clipt_plan_cache *pc, size_t bytes,
                                         clipt_plan out[CLIPT_PLAN_CACHE_ENTRIES],
                                         unsigned *num_out)
{
    for (;;) {
        clipt_plan_cache_entry *free_slot = NULL, *oldest = NULL;
        for (unsigned i = 0; i < CLIPT_PLAN_CACHE_ENTRIES; i++) {
            clipt_plan_cache_entry *e = &pc->entry[i];
            if (!e->plan)
                free_slot = free_slot ? free_slot : e;
            else if (!oldest || e->used < oldest->used)
                oldest = e;
        }
        if (free_slot && cached_bytes(pc) + bytes <= pc->budget_bytes)
            return free_slot;
        if (!oldest)
            return NULL; /* empty and still too large: not cached */
        out[(*num_out)++] = oldest->plan;
        oldest->plan = NULL;
    }
}

clipt_plan clipt_plan_cache_offer(clipt_plan_cache *pc, const clipt_plan_key *key,
                                  clipt_plan p, size_t device_bytes,
                                  void (*release)(clipt_plan), int *cached)
{
    clipt_plan evicted[CLIPT_PLAN_CACHE_ENTRIES], result = p;
    unsigned num_evicted = 0;
    clipt_plan_cache_entry *e;
    *cached = 0;
    pthread_mutex_lock(&pc->lock);
    pc->release = release;
    if ((e = find_entry(pc, key)) != NULL) {
        result = e->plan; /* another thread was first */
        clipt_plan_retain(result);
        e->used = ++pc->clock;
    } else if (device_bytes <= pc->budget_bytes &&
               (e = make_room(pc, device_bytes, evicted, &num_evicted)) != NULL) {
        e->key = *key;
        e->plan = p;
        e->device_bytes = device_bytes;
        e->used = ++pc->clock;
        clipt_plan_retain(p);
        *cached = 1;
    }
    pthread_mutex_unlock(&pc->lock);
    for (unsigned i = 0; i < num_evicted; i++)
        release(evicted[i]);
    return result;
}

void clipt_plan_cache_forget(clipt_plan_cache *pc, clipt_plan p)
{
    clipt_plan gone = NULL;
    void (*release)(clipt_plan);
    pthread_mutex_lock(&pc->lock);
    for (unsigned i = 0; i < CLIPT_PLAN_CACHE_ENTRIES; i++)
        if (p && pc->entry[i].plan == p) {
            gone = p;
            pc->entry[i].plan = NULL;
        }
    release = pc->release;
    pthread_mutex_unlock(&pc->lock);
    if (gone)
        release(gone);
}

size_t clipt_plan_cache_clear(clipt_plan_cache *pc)
{
    clipt_plan gone[CLIPT_PLAN_CACHE_ENTRIES];
    size_t n = 0;
    void (*release)(clipt_plan);
    pthread_mutex_lock(&pc->lock);
    for (unsigned i = 0; i < CLIPT_PLAN_CACHE_ENTRIES; i++)
        if (pc->entry[i].plan) {
            gone[n++] = pc->entry[i].plan;
            pc->entry[i].plan = NULL;
        }
    release = pc->release;
    pthread_mutex_unlock(&pc->lock);
    /* after the lock: a plan's release may take a while (runtime calls) */
    for (size_t i = 0; i < n; i++)
        release(gone[i]);
    return n;
}

size_t clipt_plan_cache_count(clipt_plan_cache *pc)
{
    size_t n = 0;
    pthread_mutex_lock(&pc->lock);
    for (unsigned i = 0; i < CLIPT_PLAN_CACHE_ENTRIES; i++)
        n += pc->entry[i].plan != NULL;
    pthread_mutex_unlock(&pc->lock);
    return n;
}
