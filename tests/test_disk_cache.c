/* The on-disk program cache (CLIPT_CACHE_DIR): a cold build writes one entry
 * per program, a new context loads them all without rewriting them, and an
 * entry that is corrupt, truncated, foreign (another key) or refused by the
 * runtime is rebuilt; an unwritable directory or no directory at all
 * changes nothing but the speed.  Every transposition is checked bit-exact.
 * The proof of a load is the context's counters and the entries' unchanged
 * inode, mtime and bytes, not timing. */
#define _POSIX_C_SOURCE 200809L
#include "support.h"
#include "internal.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#define MAX_ENTRIES 16
#define HEADER_BYTES 36 /* magic 8, key length 4, binary length 8, checksum 16 */

/* A scratch cache directory for the whole program. */
static char cache_dir[256];

typedef struct entry {
    char path[512];
    struct stat st;
    unsigned char *bytes;
    size_t size;
} entry;

typedef struct counts {
    size_t programs, hits, rejects, stores;
} counts;

/* ---- files -------------------------------------------------------------------- */

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *bytes;
    long len;
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    len = ftell(f);
    assert_true(len >= 0);
    rewind(f);
    bytes = malloc((size_t)len + 1);
    assert_non_null(bytes);
    assert_int_equal(fread(bytes, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *size = (size_t)len;
    return bytes;
}

static void write_file(const char *path, const unsigned char *bytes, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

/* Every file in dir, sorted by name; fails on more than MAX_ENTRIES. */
static size_t list_entries(const char *dir, entry *e)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    size_t n = 0;
    assert_non_null(d);
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        assert_true(n < MAX_ENTRIES);
        snprintf(e[n].path, sizeof e[n].path, "%s/%s", dir, de->d_name);
        assert_int_equal(stat(e[n].path, &e[n].st), 0);
        e[n].bytes = read_file(e[n].path, &e[n].size);
        n++;
    }
    closedir(d);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (strcmp(e[i].path, e[j].path) > 0) {
                entry t = e[i];
                e[i] = e[j];
                e[j] = t;
            }
    return n;
}

static void free_entries(entry *e, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(e[i].bytes);
}

static void empty_cache_dir(void)
{
    entry e[MAX_ENTRIES];
    size_t n = list_entries(cache_dir, e);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(unlink(e[i].path), 0);
    free_entries(e, n);
}

/* ---- transpositions ------------------------------------------------------------ */

/* A new context (so a cold program cache) runs a 3.1 plan, whose stages
 * need more than one program, and an automatic one; both bit-exact.
 * Returns the context's counters. */
static counts transpose_in_new_context(test_env *env)
{
    test_env fresh = *env;
    clipt_plan_options o;
    counts k;
    size_t bad = 1;
    assert_status(clipt_context_create(env->cl.context, env->cl.device, &fresh.ctx),
                  CLIPT_SUCCESS);
    clipt_plan_options_init(&o);
    o.sequence = CLIPT_SEQUENCE_3_1;
    o.tile_m = 24;
    o.tile_n = 16;
    assert_status(test_run_transpose(&fresh, 360, 240, 4, 0, &o, &bad, NULL, 0),
                  CLIPT_SUCCESS);
    assert_int_equal(bad, 0);
    bad = 1;
    assert_status(test_run_transpose(&fresh, 97, 89, 8, 0, NULL, &bad, NULL, 0),
                  CLIPT_SUCCESS);
    assert_int_equal(bad, 0);
    k.programs = clipt_cache_count(&fresh.ctx->cache);
    k.hits = fresh.ctx->cache.disk_hits;
    k.rejects = fresh.ctx->cache.disk_rejects;
    k.stores = fresh.ctx->cache.disk_stores;
    clipt_context_release(fresh.ctx);
    return k;
}

static void expect_counts(counts got, size_t hits, size_t rejects, size_t stores,
                          const char *when)
{
    if (got.hits != hits || got.rejects != rejects || got.stores != stores)
        fail_msg("%s: %zu programs, %zu loaded, %zu rejected, %zu stored; expected "
                 "%zu, %zu, %zu", when, got.programs, got.hits, got.rejects, got.stores,
                 hits, rejects, stores);
}

/* A cold run that fills the emptied cache: one entry per program. */
static size_t fill_cache(test_env *env, entry *e)
{
    counts cold;
    size_t n;
    empty_cache_dir();
    cold = transpose_in_new_context(env);
    assert_true(cold.programs >= 2);
    expect_counts(cold, 0, 0, cold.programs, "cold build");
    n = list_entries(cache_dir, e);
    assert_int_equal(n, cold.programs); /* and no temporary file left */
    return n;
}

/* After damaging entries, a new context rebuilds exactly the damaged ones
 * and rewrites them valid: the one after that loads everything. */
static void expect_rebuilt(test_env *env, size_t programs, size_t damaged, const char *what)
{
    counts k = transpose_in_new_context(env);
    expect_counts(k, programs - damaged, damaged, damaged, what);
    k = transpose_in_new_context(env);
    expect_counts(k, programs, 0, 0, "after the rebuild");
}

/* ---- tests ------------------------------------------------------------------------ */

static void test_cold_build_then_load(void **state)
{
    entry before[MAX_ENTRIES], after[MAX_ENTRIES];
    size_t n = fill_cache(TEST_ENV(state), before);
    counts warm = transpose_in_new_context(TEST_ENV(state));
    expect_counts(warm, n, 0, 0, "second context");
    assert_int_equal(list_entries(cache_dir, after), n);
    for (size_t i = 0; i < n; i++) {
        /* loaded, not rewritten: same file, same time, same bytes */
        assert_string_equal(before[i].path, after[i].path);
        assert_true(before[i].st.st_ino == after[i].st.st_ino);
        assert_true(before[i].st.st_mtim.tv_sec == after[i].st.st_mtim.tv_sec &&
                    before[i].st.st_mtim.tv_nsec == after[i].st.st_mtim.tv_nsec);
        assert_true(before[i].size == after[i].size &&
                    memcmp(before[i].bytes, after[i].bytes, before[i].size) == 0);
        assert_memory_equal(before[i].bytes, "CLIPTPB1", 8);
    }
    free_entries(before, n);
    free_entries(after, n);
}

/* One byte flipped in turn in the binary, the checksum, the key and the
 * magic of the first entry. */
static void test_corrupt_entry_rebuilt(void **state)
{
    entry e[MAX_ENTRIES];
    size_t n = fill_cache(TEST_ENV(state), e);
    const size_t at[] = {e[0].size - 1, e[0].size / 2, 20, HEADER_BYTES + 3, 2};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        unsigned char *bytes = malloc(e[0].size);
        assert_non_null(bytes);
        memcpy(bytes, e[0].bytes, e[0].size);
        bytes[at[i]] ^= 0x5a;
        write_file(e[0].path, bytes, e[0].size);
        free(bytes);
        expect_rebuilt(TEST_ENV(state), n, 1, "a flipped byte");
    }
    free_entries(e, n);
}

static void test_truncated_entries_rebuilt(void **state)
{
    entry e[MAX_ENTRIES];
    size_t n = fill_cache(TEST_ENV(state), e);
    /* the header alone, half of it, nothing, all but the last byte */
    write_file(e[0].path, e[0].bytes, HEADER_BYTES);
    write_file(e[1].path, e[1].bytes, HEADER_BYTES / 2);
    write_file(e[n - 1].path, e[n - 1].bytes, 0);
    expect_rebuilt(TEST_ENV(state), n, n > 2 ? 3 : 2, "truncated entries");
    write_file(e[0].path, e[0].bytes, e[0].size - 1);
    expect_rebuilt(TEST_ENV(state), n, 1, "one byte short");
    free_entries(e, n);
}

/* A valid entry of another key, under this key's name. */
static void test_foreign_entry_rebuilt(void **state)
{
    entry e[MAX_ENTRIES];
    size_t n = fill_cache(TEST_ENV(state), e);
    write_file(e[1].path, e[0].bytes, e[0].size);
    expect_rebuilt(TEST_ENV(state), n, 1, "a foreign entry");
    free_entries(e, n);
}

/* Key and checksum right, the binary garbage: the runtime refuses it, and
 * clipt builds from source instead of failing. */
static void test_refused_binary_rebuilt(void **state)
{
    entry e[MAX_ENTRIES];
    size_t n = fill_cache(TEST_ENV(state), e);
    const size_t key_len = (size_t)e[0].bytes[8] | (size_t)e[0].bytes[9] << 8 |
                           (size_t)e[0].bytes[10] << 16 | (size_t)e[0].bytes[11] << 24;
    unsigned char *bytes = malloc(e[0].size);
    unsigned char *binary = bytes + HEADER_BYTES + key_len;
    const size_t len = e[0].size - HEADER_BYTES - key_len;
    XXH128_canonical_t sum;
    assert_non_null(bytes);
    memcpy(bytes, e[0].bytes, e[0].size);
    for (size_t i = 0; i < len; i++)
        binary[i] = (unsigned char)(i * 7 + 1);
    XXH128_canonicalFromHash(&sum, XXH3_128bits(binary, len));
    memcpy(bytes + 20, sum.digest, 16);
    write_file(e[0].path, bytes, e[0].size);
    free(bytes);
    expect_rebuilt(TEST_ENV(state), n, 1, "a binary the runtime refuses");
    free_entries(e, n);
}

/* A path through a regular file can be neither created nor written (root
 * included): builds go on from source. */
static void test_unwritable_dir(void **state)
{
    char blocker[300], dir[320];
    counts k;
    snprintf(blocker, sizeof blocker, "%s.file", cache_dir);
    snprintf(dir, sizeof dir, "%s/cache", blocker);
    write_file(blocker, (const unsigned char *)"x", 1);
    assert_int_equal(setenv("CLIPT_CACHE_DIR", dir, 1), 0);
    k = transpose_in_new_context(TEST_ENV(state));
    expect_counts(k, 0, 0, 0, "an unwritable cache directory");
    assert_int_equal(setenv("CLIPT_CACHE_DIR", cache_dir, 1), 0);
    assert_int_equal(unlink(blocker), 0);
}

/* Unset (or empty): off, nothing read or written. */
static void test_off_without_variable(void **state)
{
    entry e[MAX_ENTRIES];
    counts k;
    empty_cache_dir();
    assert_int_equal(setenv("CLIPT_CACHE_DIR", "", 1), 0);
    k = transpose_in_new_context(TEST_ENV(state));
    expect_counts(k, 0, 0, 0, "CLIPT_CACHE_DIR empty");
    assert_int_equal(unsetenv("CLIPT_CACHE_DIR"), 0);
    k = transpose_in_new_context(TEST_ENV(state));
    expect_counts(k, 0, 0, 0, "CLIPT_CACHE_DIR unset");
    assert_int_equal(list_entries(cache_dir, e), 0);
    assert_int_equal(setenv("CLIPT_CACHE_DIR", cache_dir, 1), 0);
}

static int group_open(void **state)
{
    char tmpl[] = "/tmp/clipt_disk_cache_XXXXXX";
    if (!mkdtemp(tmpl))
        return -1;
    snprintf(cache_dir, sizeof cache_dir, "%s", tmpl);
    if (setenv("CLIPT_CACHE_DIR", cache_dir, 1) != 0)
        return -1;
    return test_group_open(state);
}

static int group_close(void **state)
{
    empty_cache_dir();
    rmdir(cache_dir);
    return test_group_close(state);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cold_build_then_load),
        cmocka_unit_test(test_corrupt_entry_rebuilt),
        cmocka_unit_test(test_truncated_entries_rebuilt),
        cmocka_unit_test(test_foreign_entry_rebuilt),
        cmocka_unit_test(test_refused_binary_rebuilt),
        cmocka_unit_test(test_unwritable_dir),
        cmocka_unit_test(test_off_without_variable),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, group_open, group_close);
}
