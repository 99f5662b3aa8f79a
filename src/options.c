/* Plan options: initialisation, tuning by name, checks (see options.h). */
#include "options.h"
#include "internal.h"
#include "tuning.h"

#include <string.h>

void clipt_plan_options_init(clipt_plan_options *o)
{
    if (o)
        memset(o, 0, sizeof *o);
}

clipt_status clipt_plan_options_set_tuning(clipt_plan_options *o,
                                           const char *name, unsigned value)
{
    if (!o || !name)
        return CLIPT_ERROR_NULL_ARGUMENT;
#define SET_IF_NAMED(f)                                                        \
    if (strcmp(name, #f) == 0) {                                               \
        o->f = value;                                                          \
        return CLIPT_SUCCESS;                                                  \
    }
    CLIPT_TUNING_FIELDS(SET_IF_NAMED)
#undef SET_IF_NAMED
    return CLIPT_ERROR_INVALID_OPTION;
}

static int valid_elem_size(size_t e)
{
    return e == 1 || e == 2 || e == 4 || e == 8 || e == 16;
}

static int is_pow2(unsigned x) { return x && !(x & (x - 1)); }

clipt_status clipt_check_options(const clipt_plan_options *o,
                                 const clipt_device_profile *profile)
{
    switch (o->sequence) {
    case CLIPT_SEQUENCE_AUTO: case CLIPT_SEQUENCE_1: case CLIPT_SEQUENCE_2_1:
    case CLIPT_SEQUENCE_2_2: case CLIPT_SEQUENCE_3_1: case CLIPT_SEQUENCE_3_2:
    case CLIPT_SEQUENCE_4_1: case CLIPT_SEQUENCE_4_2: case CLIPT_SEQUENCE_4_3:
        break;
    default:
        return CLIPT_ERROR_INVALID_OPTION;
    }
    if (o->algorithm != CLIPT_ALGORITHM_AUTO && o->algorithm != CLIPT_ALGORITHM_TPDS &&
        o->algorithm != CLIPT_ALGORITHM_C2R && o->algorithm != CLIPT_ALGORITHM_R2C)
        return CLIPT_ERROR_INVALID_OPTION;
    if (o->padding != CLIPT_PADDING_AUTO && o->padding != CLIPT_PADDING_NONE &&
        o->padding != CLIPT_PADDING_SCRATCH && o->padding != CLIPT_PADDING_OFF)
        return CLIPT_ERROR_INVALID_OPTION;
    if (o->tile_rule != CLIPT_TILE_RULE_AUTO && o->tile_rule != CLIPT_TILE_RULE_ALG5 &&
        o->tile_rule != CLIPT_TILE_RULE_ALG2 && o->tile_rule != CLIPT_TILE_RULE_ALG1)
        return CLIPT_ERROR_INVALID_OPTION;
    if (o->pttwac_spread && (!is_pow2(o->pttwac_spread) || o->pttwac_spread > 32))
        return CLIPT_ERROR_INVALID_OPTION;
    if (o->pttwac_pad > 32)
        return CLIPT_ERROR_INVALID_OPTION;
    if (o->simd_100 && (!is_pow2(o->simd_100) || o->simd_100 > profile->max_wg_size))
        return CLIPT_ERROR_INVALID_OPTION;
    if (o->wg_010 > profile->max_wg_size || o->wg_100 > profile->max_wg_size)
        return CLIPT_ERROR_INVALID_OPTION;
    if (o->wg_100 && o->simd_100 && o->wg_100 % o->simd_100)
        return CLIPT_ERROR_INVALID_OPTION;
    if (o->min_super > 1u << 20 || o->skinny_super > 1u << 20 ||
        o->tile_elems_010 > 1u << 24)
        return CLIPT_ERROR_INVALID_OPTION;
    if (o->groups_per_cu_100 > 1024 || o->groups_per_cu_010 > 1024 ||
        o->walk_unroll > 32 || o->walk_item_bytes > 256 || o->align_bytes > 4096 ||
        o->kernel_style > CLIPT_KERNEL_STYLE_LOOPS)
        return CLIPT_ERROR_INVALID_OPTION;
    if (o->wide_bytes && (!is_pow2(o->wide_bytes) || o->wide_bytes > 16))
        return CLIPT_ERROR_INVALID_OPTION;
    if (o->model_tiles_eff > 4000 || o->model_move_eff > 4000 || o->model_pad_eff > 4000 ||
        o->model_unpad_eff > 4000 || o->model_slow_eff > 4000 || o->model_c2r_eff > 4000 ||
        o->model_tiles_elem > 1u << 20 ||
        o->model_tiles_small > 1u << 20 ||
        o->model_move_sector + o->model_move_step > 1000 || o->model_rows_elem > 1u << 20 ||
        o->model_copy_gbs > 1u << 24 || o->model_launch_ns > 1u << 30 ||
        o->model_wait_ps > 1u << 30 || o->model_run_bytes > 1u << 16)
        return CLIPT_ERROR_INVALID_OPTION;
    for (size_t i = 0; i < sizeof o->reserved / sizeof o->reserved[0]; i++)
        if (o->reserved[i])
            return CLIPT_ERROR_INVALID_OPTION;
    return CLIPT_SUCCESS;
}

clipt_status clipt_check_shape(size_t rows, size_t cols, size_t elem, size_t *bytes)
{
    size_t count;
    if (!valid_elem_size(elem))
        return CLIPT_ERROR_INVALID_ELEM_SIZE;
    if (rows == 0 || cols == 0)
        return CLIPT_ERROR_INVALID_SHAPE;
    if (!clipt_mul_ok(rows, cols, &count) || !clipt_mul_ok(count, elem, bytes))
        return CLIPT_ERROR_SHAPE_OVERFLOW;
    return CLIPT_SUCCESS;
}

clipt_tuning clipt_options_tuning(const clipt_plan_options *o, const clipt_tuning *device)
{
    clipt_tuning t = *device;
    const clipt_tuning overrides = clipt_tuning_of_options(o);
    clipt_tuning_apply(&t, &overrides);
    return t;
}
