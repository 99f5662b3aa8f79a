/* Bad input, case by case.  Every row of the bad-input catalogue in
 * docs/errors.md is one test here (named in its last column): it asserts
 * the documented status and that nothing the caller can see changed (the
 * buffer byte for byte, output handles NULL, text buffers as they were).
 * test_catalogue_documented checks that the documentation lists exactly
 * these rows.  Then: exact boundaries, kernel loading, status strings and
 * text buffers. */
#define _POSIX_C_SOURCE 200809L
#include "errors.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void run_row(void **state)
{
    const bad_input *row = *state;
    row->run(row);
}

/* The catalogue's markdown row, as docs/errors.md must hold it. */
static void format_row(const bad_input *row, char *out, size_t len)
{
    snprintf(out, len, "| %s | `%s` | `%s` | `%s` |", row->what, row->call, row->want_name,
             row->test);
}

#define CATALOGUE_BEGIN "<!-- bad-input catalogue: begin -->"
#define CATALOGUE_END "<!-- bad-input catalogue: end -->"

/* docs/errors.md lists exactly the rows above, in order, between its
 * catalogue markers (after the table's two header lines).  On a
 * difference, the expected table is printed. */
static void test_catalogue_documented(void **state)
{
    char path[1024], line[1024], want[1024];
    size_t row = 0, table_line = 0, bad = 0;
    int inside = 0;
    FILE *f;
    (void)state;
    snprintf(path, sizeof path, "%s/docs/errors.md", CLIPT_SOURCE_DIR);
    f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (strcmp(line, CATALOGUE_BEGIN) == 0) {
            inside = 1;
            continue;
        }
        if (strcmp(line, CATALOGUE_END) == 0)
            break;
        if (!inside || line[0] != '|' || table_line++ < 2)
            continue;
        if (row < catalogue_rows)
            format_row(&catalogue[row], want, sizeof want);
        if (row >= catalogue_rows || strcmp(line, want) != 0) {
            print_message("docs/errors.md catalogue row %zu: \"%s\"\n", row + 1, line);
            bad++;
        }
        row++;
    }
    fclose(f);
    if (bad || row != catalogue_rows) {
        print_message("expected rows:\n");
        for (size_t i = 0; i < catalogue_rows; i++) {
            format_row(&catalogue[i], want, sizeof want);
            print_message("%s\n", want);
        }
        fail_msg("%s: %zu rows differ; it has %zu rows, the tests %zu", path, bad, row,
                 catalogue_rows);
    }
}

/* The limits are exact: the plan's size from the offset is enough. */
static void test_enqueue_boundaries(void **state)
{
    static const size_t offsets[] = {0, SLACK};
    (void)state;
    for (size_t i = 0; i < COUNT(offsets); i++) {
        const size_t total = offsets[i] + W->main.bytes;
        unsigned char *host, *want = malloc(total);
        cl_mem buf = test_pattern_buffer(&W->main.env, CL_MEM_READ_WRITE, total, i, &host);
        cl_event done;
        assert_non_null(want);
        memcpy(want, host, total);
        test_reference_transpose(host + offsets[i], want + offsets[i], ROWS, COLS, ELEM);
        assert_status(clipt_enqueue(W->main.plan, W->main.env.cl.queue, buf, offsets[i], 1,
                                    &W->done_event, &done), CLIPT_SUCCESS);
        assert_status(clWaitForEvents(1, &done), CL_SUCCESS);
        test_expect_buffer(&W->main.env, buf, want, total, "exact-size buffer");
        clReleaseEvent(done);
        clReleaseMemObject(buf);
        free(host);
        free(want);
    }
}

/* ---- kernel loading ------------------------------------------------------------------ */

/* CLIPT_KERNEL_PATH is searched first; a file missing everywhere is
 * KERNEL_NOT_FOUND with the directories tried. */
static void test_loader_not_found(void **state)
{
    char dir[512], searched[8192], found[4096], *text = NULL;
    (void)state;
    make_kernel_dir(dir, sizeof dir, NULL, NULL);
    assert_int_equal(setenv("CLIPT_KERNEL_PATH", dir, 1), 0);
    assert_status(clipt_loader_read("clipt_no_such_kernel.cl", &text, found, sizeof found,
                                    searched, sizeof searched),
                  CLIPT_ERROR_KERNEL_NOT_FOUND);
    if (!strstr(searched, dir) || !strstr(searched, "clipt_no_such_kernel.cl"))
        fail_msg("the searched paths do not name %s: %s", dir, searched);
    /* the build tree is searched next: an empty directory breaks nothing */
    assert_status(clipt_loader_read("transpose010.cl", &text, found, sizeof found, searched,
                                    sizeof searched),
                  CLIPT_SUCCESS);
    assert_non_null(strstr(text, "__kernel"));
    free(text);
    unsetenv("CLIPT_KERNEL_PATH");
    remove_kernel_dir(dir, NULL);
}

/* Through a context: the failure's detail names the file and directory. */
static void test_loader_detail(void **state)
{
    char dir[512], detail[8192];
    cl_kernel k = NULL;
    clipt_context c;
    clipt_plan p;
    (void)state;
    make_kernel_dir(dir, sizeof dir, "clipt_broken.cl", "__kernel void k(void) { oops }\n");
    assert_int_equal(setenv("CLIPT_KERNEL_PATH", dir, 1), 0);
    assert_status(clipt_context_create(W->main.env.cl.context, W->main.env.cl.device, &c),
                  CLIPT_SUCCESS);
    assert_status(clipt_context_error_detail(c, detail, sizeof detail), CLIPT_SUCCESS);
    assert_string_equal(detail, "");
    assert_status(clipt_loader_kernel(c, "clipt_no_such_kernel.cl", "", "k", &k),
                  CLIPT_ERROR_KERNEL_NOT_FOUND);
    assert_status(clipt_context_error_detail(c, detail, sizeof detail), CLIPT_SUCCESS);
    if (!strstr(detail, dir) || !strstr(detail, "clipt_no_such_kernel.cl"))
        fail_msg("detail does not name the file and %s: %s", dir, detail);
    assert_status(clipt_loader_kernel(c, "clipt_broken.cl", "", "k", &k),
                  CLIPT_ERROR_KERNEL_BUILD);
    assert_status(clipt_context_error_detail(c, detail, sizeof detail), CLIPT_SUCCESS);
    if (!strstr(detail, "clipt_broken.cl"))
        fail_msg("detail does not name the broken file: %s", detail);
    /* kernels not in the directory still come from the build tree */
    assert_status(clipt_plan_create(c, 30, 40, 4, NULL, &p), CLIPT_SUCCESS);
    clipt_plan_release(p);
    clipt_context_release(c);
    unsetenv("CLIPT_KERNEL_PATH");
    remove_kernel_dir(dir, "clipt_broken.cl");
}

/* ---- status strings ------------------------------------------------------------------ */

typedef struct named_code {
    clipt_status code;
    const char *name;
} named_code;

#define NAMED(code) {code, #code}
#define NAMED_CLIPT(name, value, text) {name, #name},
static const named_code known_codes[] = {
    NAMED(CLIPT_SUCCESS),
    CLIPT_ERROR_TABLE(NAMED_CLIPT)
    NAMED(CL_DEVICE_NOT_FOUND), NAMED(CL_DEVICE_NOT_AVAILABLE),
    NAMED(CL_COMPILER_NOT_AVAILABLE), NAMED(CL_MEM_OBJECT_ALLOCATION_FAILURE),
    NAMED(CL_OUT_OF_RESOURCES), NAMED(CL_OUT_OF_HOST_MEMORY),
    NAMED(CL_PROFILING_INFO_NOT_AVAILABLE), NAMED(CL_MEM_COPY_OVERLAP),
    NAMED(CL_IMAGE_FORMAT_MISMATCH), NAMED(CL_IMAGE_FORMAT_NOT_SUPPORTED),
    NAMED(CL_BUILD_PROGRAM_FAILURE), NAMED(CL_MAP_FAILURE),
    NAMED(CL_MISALIGNED_SUB_BUFFER_OFFSET),
    NAMED(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
    NAMED(CL_COMPILE_PROGRAM_FAILURE), NAMED(CL_LINKER_NOT_AVAILABLE),
    NAMED(CL_LINK_PROGRAM_FAILURE), NAMED(CL_DEVICE_PARTITION_FAILED),
    NAMED(CL_KERNEL_ARG_INFO_NOT_AVAILABLE), NAMED(CL_INVALID_VALUE),
    NAMED(CL_INVALID_DEVICE_TYPE), NAMED(CL_INVALID_PLATFORM), NAMED(CL_INVALID_DEVICE),
    NAMED(CL_INVALID_CONTEXT), NAMED(CL_INVALID_QUEUE_PROPERTIES),
    NAMED(CL_INVALID_COMMAND_QUEUE), NAMED(CL_INVALID_HOST_PTR),
    NAMED(CL_INVALID_MEM_OBJECT), NAMED(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR),
    NAMED(CL_INVALID_IMAGE_SIZE), NAMED(CL_INVALID_SAMPLER), NAMED(CL_INVALID_BINARY),
    NAMED(CL_INVALID_BUILD_OPTIONS), NAMED(CL_INVALID_PROGRAM),
    NAMED(CL_INVALID_PROGRAM_EXECUTABLE), NAMED(CL_INVALID_KERNEL_NAME),
    NAMED(CL_INVALID_KERNEL_DEFINITION), NAMED(CL_INVALID_KERNEL),
    NAMED(CL_INVALID_ARG_INDEX), NAMED(CL_INVALID_ARG_VALUE), NAMED(CL_INVALID_ARG_SIZE),
    NAMED(CL_INVALID_KERNEL_ARGS), NAMED(CL_INVALID_WORK_DIMENSION),
    NAMED(CL_INVALID_WORK_GROUP_SIZE), NAMED(CL_INVALID_WORK_ITEM_SIZE),
    NAMED(CL_INVALID_GLOBAL_OFFSET), NAMED(CL_INVALID_EVENT_WAIT_LIST),
    NAMED(CL_INVALID_EVENT), NAMED(CL_INVALID_OPERATION), NAMED(CL_INVALID_GL_OBJECT),
    NAMED(CL_INVALID_BUFFER_SIZE), NAMED(CL_INVALID_MIP_LEVEL),
    NAMED(CL_INVALID_GLOBAL_WORK_SIZE), NAMED(CL_INVALID_PROPERTY),
    NAMED(CL_INVALID_IMAGE_DESCRIPTOR), NAMED(CL_INVALID_COMPILER_OPTIONS),
    NAMED(CL_INVALID_LINKER_OPTIONS), NAMED(CL_INVALID_DEVICE_PARTITION_COUNT)};

/* Each known code has its own string, which names it; anything else gets
 * the one "unknown" string, never NULL. */
static void test_status_strings(void **state)
{
    static const clipt_status unknown[] = {12345, 1, -20, -29, -69, -999, -1098, -1099,
                                           -1100, INT_MIN, INT_MAX};
    const char *other = clipt_status_string(12345);
    (void)state;
    assert_non_null(other);
    for (size_t i = 0; i < COUNT(known_codes); i++) {
        const char *s = clipt_status_string(known_codes[i].code);
        if (!s || !strstr(s, known_codes[i].name) || s == other)
            fail_msg("clipt_status_string(%d) = \"%s\", should name %s",
                     known_codes[i].code, s ? s : "(null)", known_codes[i].name);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(s, clipt_status_string(known_codes[j].code));
    }
    for (size_t i = 0; i < COUNT(unknown); i++)
        assert_string_equal(clipt_status_string(unknown[i]), other);
    for (int code = -1200; code <= 0; code++)
        assert_non_null(clipt_status_string(code));
}

/* ---- text buffers ---------------------------------------------------------------- */

typedef clipt_status (*text_fn)(void *obj, char *buf, size_t len);
static clipt_status plan_text(void *p, char *buf, size_t len)
{
    return clipt_plan_describe(p, buf, len);
}
static clipt_status context_text(void *c, char *buf, size_t len)
{
    return clipt_context_describe(c, buf, len);
}
static clipt_status detail_text(void *c, char *buf, size_t len)
{
    return clipt_context_error_detail(c, buf, len);
}

/* A buffer one byte short cuts the text, still terminated; len 0 or a NULL
 * buffer are refused. */
static void check_text_rules(text_fn fn, void *obj, const char *what)
{
    char full[8192], cut[8192];
    size_t n;
    assert_status(fn(obj, full, sizeof full), CLIPT_SUCCESS);
    n = strlen(full);
    if (n < 2)
        fail_msg("%s: text too short to test: \"%s\"", what, full);
    assert_status(fn(obj, cut, n + 1), CLIPT_SUCCESS);
    assert_string_equal(cut, full);
    for (size_t len = n; len >= 1; len = len > 8 ? len / 2 : len - 1) {
        memset(cut, 'x', sizeof cut);
        assert_status(fn(obj, cut, len), CLIPT_ERROR_TRUNCATED);
        assert_int_equal(strlen(cut), len - 1);
        assert_memory_equal(cut, full, len - 1);
    }
    assert_status(fn(obj, cut, 0), CLIPT_ERROR_NULL_ARGUMENT);
    assert_status(fn(obj, NULL, 16), CLIPT_ERROR_NULL_ARGUMENT);
}

static void test_text_buffers(void **state)
{
    cl_kernel k;
    clipt_context c;
    char buf[4];
    (void)state;
    assert_status(clipt_context_create(W->main.env.cl.context, W->main.env.cl.device, &c),
                  CLIPT_SUCCESS);
    /* nothing failed yet: the detail is empty, which fits any buffer */
    assert_status(clipt_context_error_detail(c, buf, 1), CLIPT_SUCCESS);
    assert_string_equal(buf, "");
    assert_status(clipt_loader_kernel(c, "clipt_no_such_kernel.cl", "", "k", &k),
                  CLIPT_ERROR_KERNEL_NOT_FOUND);
    check_text_rules(detail_text, c, "clipt_context_error_detail");
    check_text_rules(context_text, c, "clipt_context_describe");
    check_text_rules(plan_text, W->main.plan, "clipt_plan_describe");
    clipt_context_release(c);
}

/* Calls that take NULL without a status: sizes are 0, the tuning entry
 * and a name past the last tuning field NULL, releases do nothing. */
static void test_null_tolerated(void **state)
{
    (void)state;
    assert_int_equal(clipt_plan_buffer_size(NULL), 0);
    assert_int_equal(clipt_plan_scratch_size(NULL), 0);
    assert_null(clipt_context_tuning_entry(NULL));
    assert_null(clipt_tuning_name(clipt_tuning_count()));
    clipt_context_release(NULL);
    clipt_plan_release(NULL);
    clipt_plan_options_init(NULL);
}

int main(void)
{
    static const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_catalogue_documented),
        cmocka_unit_test(test_enqueue_boundaries),
        cmocka_unit_test(test_null_tolerated),
        cmocka_unit_test(test_loader_not_found),
        cmocka_unit_test(test_loader_detail),
        cmocka_unit_test(test_status_strings),
        cmocka_unit_test(test_text_buffers),
    };
    const size_t count = COUNT(fixed) + catalogue_rows;
    struct CMUnitTest *tests = malloc(count * sizeof *tests);
    int failed;
    if (!tests)
        return 1;
    for (size_t i = 0; i < COUNT(fixed); i++)
        tests[i] = fixed[i];
    /* one test per catalogue row, named as the docs name it */
    for (size_t i = 0; i < catalogue_rows; i++) {
        const struct CMUnitTest row = {catalogue[i].test, run_row, NULL, NULL, &catalogue[i]};
        tests[COUNT(fixed) + i] = row;
    }
    test_apply_filter();
    failed = _cmocka_run_group_tests("test_errors", tests, count, world_open, world_close);
    free(tests);
    return failed;
}
