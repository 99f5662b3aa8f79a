/* clipt bench's shapes: the papers' random sets (splitmix64: one seed, one
 * list on every machine), the random tensor set (util/tensor_set.c, shared
 * with tuning/permute_bench.c), --permute's cases, or the lines of a file.
 * Every shape is an axis permutation; a matrix is the 2-D special case. */
#include "bench.h"
#include "random.h"
#include "tensor_set.h"

#include <errno.h>
#include <string.h>

#define DEFAULT_RANDOM_COUNT 100

typedef struct range {
    size_t lo, hi;
} range;

/* The shape of permutation p; a 2-D transposition keeps its sides. */
static shape shape_of(const plan_text_permutation *p)
{
    shape sh;
    memset(&sh, 0, sizeof sh);
    sh.nd = *p;
    sh.count = 1;
    for (unsigned i = 0; i < p->ndim; i++)
        sh.count *= p->dims[i]; /* text was checked by case_problem */
    if (p->ndim == 2 && p->perm[0] == 1 && p->perm[1] == 0) {
        sh.rows = p->dims[0];
        sh.cols = p->dims[1];
    }
    return sh;
}

static int push_shape(shape_list *l, const shape *sh)
{
    if (!bench_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v))
        return 0;
    l->v[l->n++] = *sh;
    return 1;
}

static int shapes_push(shape_list *l, size_t rows, size_t cols)
{
    const plan_text_permutation p = {2, {rows, cols}, {1, 0}};
    const shape sh = shape_of(&p);
    return push_shape(l, &sh);
}

void bench_shape_name(const shape *sh, char *buf, size_t len)
{
    if (sh->rows)
        snprintf(buf, len, "%zu x %zu", sh->rows, sh->cols);
    else
        plan_text_format_permutation(&sh->nd, buf, len);
}

void bench_print_shapes(const shape_list *l)
{
    char name[256];
    for (size_t i = 0; i < l->n; i++) {
        if (l->v[i].rows)
            printf("%zu %zu\n", l->v[i].rows, l->v[i].cols);
        else {
            plan_text_format_permutation(&l->v[i].nd, name, sizeof name);
            printf("%s\n", name);
        }
    }
}

clipt_status bench_plan_create(const bench *b, const shape *sh, const clipt_plan_options *o,
                               clipt_plan *out)
{
    return clipt_plan_create_permute(b->s.cx, sh->nd.ndim, sh->nd.dims, sh->nd.perm,
                                     b->a->elem, o, out);
}

/* Why DIMS:AXES text (parsed already) is no case to measure: an axis
 * repeated, or more bytes than memory holds; NULL when it is one. */
static const char *case_problem(const plan_text_permutation *p, size_t elem)
{
    unsigned seen = 0;
    size_t count = 1;
    for (unsigned i = 0; i < p->ndim; i++) {
        if (seen & (1u << p->perm[i]))
            return "an axis appears twice (AXES must be a permutation of 0..ndim-1)";
        seen |= 1u << p->perm[i];
        if (count > SIZE_MAX / p->dims[i])
            return "the array does not fit in memory";
        count *= p->dims[i];
    }
    return count > SIZE_MAX / elem ? "the array does not fit in memory" : NULL;
}

const char *bench_parse_permute(const char *text, void *shape_list_target)
{
    shape_list *l = shape_list_target;
    const char *at = text + strspn(text, " \t;");
    if (*at == '\0')
        return "DIMS:AXES, e.g. 64x256x56x56:0,2,3,1 (several: separated by blanks or ';')";
    while (*at) {
        char item[512];
        plan_text_permutation p;
        shape sh;
        const size_t len = strcspn(at, " \t;");
        if (len >= sizeof item)
            return "DIMS:AXES of at most 511 characters";
        memcpy(item, at, len);
        item[len] = '\0';
        if (!plan_text_parse_permutation(item, &p))
            return "DIMS:AXES, e.g. 64x256x56x56:0,2,3,1 (1 to 8 dimensions, an axis each)";
        sh = shape_of(&p); /* checked by permute_shapes, once --elem is known */
        if (!push_shape(l, &sh))
            return "a list that fits in host memory";
        at += len;
        at += strspn(at, " \t;");
    }
    return NULL;
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

static int tensor_shapes(const bench_args *a, shape_list *l)
{
    const size_t count = a->count ? a->count : DEFAULT_RANDOM_COUNT;
    plan_text_permutation *p = calloc(count, sizeof *p);
    int ok = p != NULL;
    if (p)
        tensor_set_make(a->seed, count, a->elem, a->max_bytes, p);
    for (size_t k = 0; ok && k < count; k++) {
        const shape sh = shape_of(&p[k]);
        ok = push_shape(l, &sh);
    }
    free(p);
    return ok;
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

/* A DIMS:AXES line of a --shapes file (as --list writes them). */
static int parse_permutation_line(const cli_command *cmd, char *line, const bench_args *a,
                                  size_t lineno, shape_list *l)
{
    const char *problem;
    plan_text_permutation p;
    shape sh;
    line += strspn(line, " \t");
    line[strcspn(line, " \t")] = '\0';
    if (!plan_text_parse_permutation(line, &p))
        return cli_usage_error(cmd, "%s:%zu: expected DIMS:AXES, e.g. 64x256x56x56:0,2,3,1",
                               a->shapes_file, lineno);
    if ((problem = case_problem(&p, a->elem)))
        return cli_usage_error(cmd, "%s:%zu: %s: %s", a->shapes_file, lineno, line, problem);
    sh = shape_of(&p);
    if (!push_shape(l, &sh)) {
        fprintf(stderr, "clipt bench: out of host memory for the shape list\n");
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

/* One line of a --shapes file, "rows cols" or DIMS:AXES; blank and
 * comment-only lines add nothing. */
static int parse_shape_line(const cli_command *cmd, char *line, const bench_args *a,
                            size_t lineno, shape_list *l)
{
    size_t rows = 0, cols = 0;
    int used = 0;
    line[strcspn(line, "#\r\n")] = '\0';
    if (line[strspn(line, " \t")] == '\0')
        return CLI_EXIT_OK;
    if (strchr(line, ':'))
        return parse_permutation_line(cmd, line, a, lineno, l);
    if (strchr(line, '-') || sscanf(line, "%zu %zu %n", &rows, &cols, &used) != 2 ||
        line[used] != '\0' || rows == 0 || cols == 0)
        return cli_usage_error(cmd, "%s:%zu: expected \"rows cols\", two "
                               "positive whole numbers, or DIMS:AXES", a->shapes_file, lineno);
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

/* --permute's cases (parsed and checked but for their bytes), the first
 * --count of them. */
static int permute_shapes(const cli_command *cmd, const bench_args *a, shape_list *l)
{
    char name[256];
    for (size_t i = 0; i < a->permute.n && (!a->count || i < a->count); i++) {
        const char *problem = case_problem(&a->permute.v[i].nd, a->elem);
        if (problem) {
            plan_text_format_permutation(&a->permute.v[i].nd, name, sizeof name);
            return cli_usage_error(cmd, "--permute %s: %s", name, problem);
        }
        if (!push_shape(l, &a->permute.v[i])) {
            fprintf(stderr, "clipt bench: out of host memory for the shape list\n");
            return CLI_EXIT_FAILURE;
        }
    }
    return CLI_EXIT_OK;
}

int bench_make_shapes(const cli_command *cmd, const bench_args *a, shape_list *l)
{
    if (a->shapes_file)
        return read_shapes_file(cmd, a, l);
    if (a->permute.n)
        return permute_shapes(cmd, a, l);
    if (a->set == SET_TENSOR ? tensor_shapes(a, l) : random_shapes(a, l))
        return CLI_EXIT_OK;
    fprintf(stderr, "clipt bench: out of host memory for the shape list\n");
    return CLI_EXIT_FAILURE;
}
