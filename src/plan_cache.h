/* A context's cache of plans for the one-shot calls (clipt_transpose,
 * clipt_transpose_host): a few plans, each under the key of everything a
 * plan depends on, least recently used dropped first.
 *
 * Plans depend on contexts (plan.c uses context.c), and a context frees its
 * cache when it goes: so this module knows plans only as handles with a
 * reference count (plan.h's inline retain) and releases them through the
 * function the inserting module hands it, and context.c depends on it, not
 * on plan.c.  A cached plan holds no reference to its context (the cache is
 * the context's, so the context would never go); whoever uses a cached plan
 * holds one instead.  Thread-safe. */
#ifndef CLIPT_PLAN_CACHE_H
#define CLIPT_PLAN_CACHE_H

#include "tuning.h"

#include <pthread.h>
#include <stdint.h>

/* Plans a context keeps at most (clipt.h). */
#define CLIPT_PLAN_CACHE_ENTRIES CLIPT_PLAN_CACHE_SIZE

/* What a plan depends on besides its context: the shape and the options
 * once normalised (the tuning fields as the plan runs them, whether an
 * option or the device's entry gave them). */
typedef struct clipt_plan_key {
    size_t rows, cols, elem;
    clipt_sequence sequence;
    size_t tile_m, tile_n;
    clipt_padding padding;
    clipt_tile_rule tile_rule;
    clipt_algorithm algorithm;
    clipt_tuning tuning;
} clipt_plan_key;

typedef struct clipt_plan_cache_entry {
    clipt_plan_key key;
    clipt_plan plan;          /* NULL: a free slot */
    size_t device_bytes;      /* its scratch and tables */
    uint64_t used;            /* the cache's clock at its last use */
} clipt_plan_cache_entry;

typedef struct clipt_plan_cache {
    pthread_mutex_t lock;
    clipt_plan_cache_entry entry[CLIPT_PLAN_CACHE_ENTRIES];
    uint64_t clock;
    size_t budget_bytes;      /* device memory the cached plans may hold */
    void (*release)(clipt_plan); /* how to release a plan (plan.c's) */
    size_t hits, misses;      /* lookups, counted for tests */
} clipt_plan_cache;

/* budget_bytes: device memory (scratch and tables) all cached plans
 * together may hold.  CLIPT_ERROR_OUT_OF_HOST_MEMORY when the lock cannot
 * be made. */
clipt_status clipt_plan_cache_init(clipt_plan_cache *pc, size_t budget_bytes);

/* Releases every cached plan and the lock. */
void clipt_plan_cache_destroy(clipt_plan_cache *pc);

/* The key of a rows x cols plan of elem-byte elements with options `o`
 * (checked) on a device whose tuning entry is `device`. */
clipt_plan_key clipt_plan_key_of(size_t rows, size_t cols, size_t elem,
                                 const clipt_plan_options *o, const clipt_tuning *device);

/* The cached plan of `key` with a new reference for the caller, or NULL. */
clipt_plan clipt_plan_cache_find(clipt_plan_cache *pc, const clipt_plan_key *key);

/* Offers plan p (the caller keeps its own reference) for `key`: cached
 * with a reference of the cache's own unless it alone exceeds the budget;
 * least recently used plans make room.  When another thread cached a plan
 * for the key meanwhile, that one is kept and returned with a reference
 * for the caller (who then releases p); otherwise returns p.  *cached
 * tells whether p went in. */
clipt_plan clipt_plan_cache_offer(clipt_plan_cache *pc, const clipt_plan_key *key,
                                  clipt_plan p, size_t device_bytes,
                                  void (*release)(clipt_plan), int *cached);

/* Drops p from the cache if it is there (after a runtime failure), so that
 * the next call makes a new plan. */
void clipt_plan_cache_forget(clipt_plan_cache *pc, clipt_plan p);

/* Drops every plan; returns how many were dropped. */
size_t clipt_plan_cache_clear(clipt_plan_cache *pc);

/* Plans cached now (for tests). */
size_t clipt_plan_cache_count(clipt_plan_cache *pc);

#endif
