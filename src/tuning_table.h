/* Tuning table lookup: fills profile->tuning and profile->tuning_entry. */
#ifndef CLIPT_TUNING_TABLE_H
#define CLIPT_TUNING_TABLE_H

#include "device.h"

/* Starts from values derived from the device's queries, then applies the
 * most specific matching table entry (device type, vendor, device name). */
void clipt_tuning_select(clipt_device_profile *p);

/* Makes *p claim a GPU named `name` by `vendor` with `local_mem` bytes of
 * local memory and warps of 32, and selects its tuning again: for tests
 * and tools that choose plans as for another device (the H100's entry
 * needs "NVIDIA H100 80GB HBM3" by "NVIDIA Corporation"; any NVIDIA name
 * gets the vendor level's values, the H100's). */
void clipt_profile_as_gpu(clipt_device_profile *p, const char *name, const char *vendor,
                          cl_ulong local_mem);

#endif
