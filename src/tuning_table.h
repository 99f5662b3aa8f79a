/* Tuning table lookup: fills profile->tuning and profile->tuning_entry. */
#ifndef CLIPT_TUNING_TABLE_H
#define CLIPT_TUNING_TABLE_H

#include "device.h"

/* Starts from values derived from the device's queries, then applies the
 * most specific matching table entry (device type, vendor, device name). */
void clipt_tuning_select(clipt_device_profile *p);

#endif
