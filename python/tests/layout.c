/* Prints, as JSON, what the ctypes declarations of python/clipt/_lib.py and
 * the enum tables of python/clipt/_plan.py must agree with: the size of
 * each structure and the offset of each field, and the enum values, as this
 * compiler sees include/clipt.h.  tests/test_layout.py compares. */
#define CL_TARGET_OPENCL_VERSION 120
#include <clipt.h>

#include <stddef.h>
#include <stdio.h>

#define FIELD(type, name) printf("%s\"%s\": %zu", first ? "" : ", ", #name, offsetof(type, name)), first = 0
#define VALUE(name) printf("%s\"%s\": %d", first ? "" : ", ", #name, (int)(name)), first = 0

int main(void)
{
    int first = 1;
    printf("{\"clipt_plan_options\": {\"size\": %zu, \"fields\": {", sizeof(clipt_plan_options));
    FIELD(clipt_plan_options, sequence);
    FIELD(clipt_plan_options, tile_m);
    FIELD(clipt_plan_options, tile_n);
    FIELD(clipt_plan_options, padding);
    FIELD(clipt_plan_options, tile_rule);
    FIELD(clipt_plan_options, min_super);
    FIELD(clipt_plan_options, algorithm);
    first = 1;
    printf("}},\n \"clipt_plan_info\": {\"size\": %zu, \"fields\": {", sizeof(clipt_plan_info));
    FIELD(clipt_plan_info, rows);
    FIELD(clipt_plan_info, cols);
    FIELD(clipt_plan_info, elem_size);
    FIELD(clipt_plan_info, sequence);
    FIELD(clipt_plan_info, sequence_forced);
    FIELD(clipt_plan_info, tile_m);
    FIELD(clipt_plan_info, tile_n);
    FIELD(clipt_plan_info, tile_reason);
    FIELD(clipt_plan_info, padded_rows);
    FIELD(clipt_plan_info, padded_cols);
    FIELD(clipt_plan_info, buffer_bytes);
    FIELD(clipt_plan_info, scratch_bytes);
    FIELD(clipt_plan_info, num_stages);
    FIELD(clipt_plan_info, tuning_entry);
    FIELD(clipt_plan_info, predicted_seconds);
    FIELD(clipt_plan_info, algorithm);
    first = 1;
    printf("}},\n \"clipt_stage_info\": {\"size\": %zu, \"fields\": {", sizeof(clipt_stage_info));
    FIELD(clipt_stage_info, op);
    FIELD(clipt_stage_info, family);
    FIELD(clipt_stage_info, label);
    FIELD(clipt_stage_info, kernels);
    FIELD(clipt_stage_info, instances);
    FIELD(clipt_stage_info, a);
    FIELD(clipt_stage_info, b);
    FIELD(clipt_stage_info, s);
    FIELD(clipt_stage_info, pitch_from);
    FIELD(clipt_stage_info, pitch_to);
    FIELD(clipt_stage_info, super_transposed);
    FIELD(clipt_stage_info, global_size);
    FIELD(clipt_stage_info, local_size);
    FIELD(clipt_stage_info, local_bytes);
    FIELD(clipt_stage_info, scratch_bytes);
    FIELD(clipt_stage_info, table_bytes);
    FIELD(clipt_stage_info, build_options);
    first = 1;
    printf("}},\n \"sequences\": {");
    VALUE(CLIPT_SEQUENCE_AUTO);
    VALUE(CLIPT_SEQUENCE_1);
    VALUE(CLIPT_SEQUENCE_2_1);
    VALUE(CLIPT_SEQUENCE_2_2);
    VALUE(CLIPT_SEQUENCE_3_1);
    VALUE(CLIPT_SEQUENCE_3_2);
    VALUE(CLIPT_SEQUENCE_4_1);
    VALUE(CLIPT_SEQUENCE_4_2);
    VALUE(CLIPT_SEQUENCE_4_3);
    first = 1;
    printf("},\n \"tile_rules\": {");
    VALUE(CLIPT_TILE_RULE_AUTO);
    VALUE(CLIPT_TILE_RULE_ALG5);
    VALUE(CLIPT_TILE_RULE_ALG2);
    VALUE(CLIPT_TILE_RULE_ALG1);
    first = 1;
    printf("},\n \"paddings\": {");
    VALUE(CLIPT_PADDING_AUTO);
    VALUE(CLIPT_PADDING_NONE);
    VALUE(CLIPT_PADDING_SCRATCH);
    VALUE(CLIPT_PADDING_OFF);
    first = 1;
    printf("},\n \"algorithms\": {");
    VALUE(CLIPT_ALGORITHM_AUTO);
    VALUE(CLIPT_ALGORITHM_TPDS);
    VALUE(CLIPT_ALGORITHM_C2R);
    VALUE(CLIPT_ALGORITHM_R2C);
    first = 1;
    printf("},\n \"stage_ops\": {");
    VALUE(CLIPT_OP_TRANSPOSE_TILES);
    VALUE(CLIPT_OP_MOVE_SUPER);
    VALUE(CLIPT_OP_PAD);
    VALUE(CLIPT_OP_UNPAD);
    VALUE(CLIPT_OP_ROTATE_COLUMNS);
    VALUE(CLIPT_OP_SHUFFLE_ROWS);
    VALUE(CLIPT_OP_SHUFFLE_COLUMNS);
    VALUE(CLIPT_OP_UNSHUFFLE_COLUMNS);
    VALUE(CLIPT_OP_UNSHUFFLE_ROWS);
    VALUE(CLIPT_OP_UNROTATE_COLUMNS);
    first = 1;
    printf("},\n \"kernel_families\": {");
    VALUE(CLIPT_FAMILY_TILE_LOCAL);
    VALUE(CLIPT_FAMILY_TILE_CYCLES);
    VALUE(CLIPT_FAMILY_SUPER_LOCAL);
    VALUE(CLIPT_FAMILY_SUPER_SLICES);
    VALUE(CLIPT_FAMILY_SUPER_SEGMENTS);
    VALUE(CLIPT_FAMILY_ROWS);
    VALUE(CLIPT_FAMILY_C2R);
    first = 1;
    printf("},\n \"constants\": {");
    VALUE(CLIPT_ERROR_TRUNCATED);
    VALUE(CLIPT_ERROR_KERNEL_NOT_FOUND);
    VALUE(CLIPT_ERROR_KERNEL_BUILD);
    VALUE(CLIPT_HOST_MAX_QUEUES);
    printf("}}\n");
    return 0;
}
