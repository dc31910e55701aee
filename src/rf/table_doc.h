/* A primitive table decoded from a YAML document already read, so that a
 * caller which had to look inside the file first reads it only once (a pipe
 * cannot be read twice). */
#ifndef GPURF_RF_TABLE_DOC_H
#define GPURF_RF_TABLE_DOC_H

#include "gpurf/rf.h"
#include "yaml/yaml_schema.h"

int rf_table_from_doc(gpurf_ctx *ctx, ys_doc *doc, gpurf_rf_table *out);

#endif
