/*
 * compare_table: the comparison of SPEC §14 as a table on stdout, within
 * 80 columns (docs/compare.md, "The table").
 */
#ifndef CSIM_COMPARE_TABLE_H
#define CSIM_COMPARE_TABLE_H

#include <stdint.h>
#include <stdio.h>

#include "model/compare.h"

/* Room for a change as the table prints it ("+14.3 %", "new", "-"). */
#define CSIM_COMPARE_CELL 32

void csim_compare_table_print(const struct csim_compare *c, FILE *f);

/* A relative change (csim_view_change_bp's ten-thousandths) as "+14.3 %". */
void csim_compare_format_change(char *dst, struct csim_compare_pair p);

/* now - base as "+185", "-3", "0"; "-" when a side lacks it. */
void csim_compare_format_delta(char *dst, struct csim_compare_pair p);

#endif
