/*
 * compare_json: compare.json, the comparison of SPEC §14 as a documented,
 * versioned document (docs/compare.md, "compare.json").
 */
#ifndef CSIM_COMPARE_JSON_H
#define CSIM_COMPARE_JSON_H

#include "model/compare.h"
#include "write/out_file.h"

#define CSIM_COMPARE_SCHEMA 1

void csim_compare_json_write(const struct csim_compare *c, struct csim_out *o);

#endif
