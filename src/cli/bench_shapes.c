/* clipt bench's shapes: the papers' random sets (splitmix64: one seed, one
 * list on every machine) or the lines of a file. */
#include "bench.h"
#include "random.h"

#include <errno.h>
#include <string.h>

#define DEFAULT_RANDOM_COUNT 100

typedef struct range {
    size_t lo, hi;
} range;

static int shapes_push(shape_list *l, size_t rows, size_t cols)
{
    if (!bench_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v))
        return 0;
    l->v[l->n].rows = rows;
    l->v[l->n].cols = cols;
    l->n++;
    return 1;
}

static size_t draw(uint64_t *state, range r)
{
    return util_rand_range(state, r.lo, r.hi);
}

static range clamp_range(size_t lo, size_t hi, size_t max_dim)
{
    range r = {lo, hi};
    if (max_dim && r.hi > max_dim) {
        const size_t half = max_dim / 2 + max_dim % 2;
        r.hi = max_dim;
        r.lo = r.lo < half ? r.lo : half;
    }
    return r;
}

static int random_shapes(const bench_args *a, shape_list *l)
{
    const size_t count = a->count ? a->count : DEFAULT_RANDOM_COUNT;
    const range side = clamp_range(1000, a->elem >= 8 ? 15000 : 20000, a->max_dim);
    const range lng = clamp_range(10000, 10000000, a->max_dim);
    const range shrt = clamp_range(2, 32, a->max_dim);
    uint64_t state = a->seed;
    for (size_t k = 0; k < count; k++) {
        size_t rows, cols;
        if (a->set == SET_GENERAL) {
            rows = draw(&state, side);
            cols = draw(&state, side);
        } else {
            const size_t l_side = draw(&state, lng), s_side = draw(&state, shrt);
            rows = k % 2 ? s_side : l_side;  /* even: AoS->SoA, odd: SoA->AoS */
            cols = k % 2 ? l_side : s_side;
        }
        if (!shapes_push(l, rows, cols))
            return 0;
    }
    return 1;
}

/* One line of a --shapes file; blank and comment-only lines add nothing. */
static int parse_shape_line(const cli_command *cmd, char *line, const bench_args *a,
                            size_t lineno, shape_list *l)
{
    size_t rows = 0, cols = 0;
    int used = 0;
    line[strcspn(line, "#\r\n")] = '\0';
    if (line[strspn(line, " \t")] == '\0')
        return CLI_EXIT_OK;
    if (strchr(line, '-') || sscanf(line, "%zu %zu %n", &rows, &cols, &used) != 2 ||
        line[used] != '\0' || rows == 0 || cols == 0)
        return cli_usage_error(cmd, "%s:%zu: expected \"rows cols\", two "
                               "positive whole numbers", a->shapes_file, lineno);
    if (rows > SIZE_MAX / cols || rows * cols > SIZE_MAX / a->elem)
        return cli_usage_error(cmd, "%s:%zu: %zu x %zu does not fit in memory",
                               a->shapes_file, lineno, rows, cols);
    if (!shapes_push(l, rows, cols)) {
        fprintf(stderr, "clipt bench: out of host memory for the shape list\n");
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

static int read_shapes_file(const cli_command *cmd, const bench_args *a, shape_list *l)
{
    char line[512];
    size_t lineno = 0;
    int status = CLI_EXIT_OK;
    FILE *f = fopen(a->shapes_file, "r");
    if (!f)
        return cli_usage_error(cmd, "cannot open '%s': %s", a->shapes_file,
                               strerror(errno));
    while (status == CLI_EXIT_OK && (!a->count || l->n < a->count) &&
           fgets(line, sizeof line, f))
        status = parse_shape_line(cmd, line, a, ++lineno, l);
    if (status == CLI_EXIT_OK && ferror(f))
        status = cli_usage_error(cmd, "cannot read '%s'", a->shapes_file);
    fclose(f);
    if (status == CLI_EXIT_OK && l->n == 0)
        status = cli_usage_error(cmd, "'%s' lists no shapes", a->shapes_file);
    return status;
}

int bench_make_shapes(const cli_command *cmd, const bench_args *a, shape_list *l)
{
    if (a->shapes_file)
        return read_shapes_file(cmd, a, l);
    if (random_shapes(a, l))
        return CLI_EXIT_OK;
    fprintf(stderr, "clipt bench: out of host memory for the shape list\n");
    return CLI_EXIT_FAILURE;
}
