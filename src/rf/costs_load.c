/* A register file's costs from either kind of file a user may hold: a design
 * (costed by the models) or a primitive table (costs given directly). */
#include <stdlib.h>
#include <string.h>

#include "gpurf/rf.h"
#include "rf/table_doc.h"
#include "yaml/yaml_schema.h"

static int from_design(gpurf_ctx *ctx, const char *name_or_path, gpurf_rf_table *out) {
  gpurf_rf_design *d = calloc(1, sizeof *d);
  if (!d) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  int rc = gpurf_rf_design_load(ctx, name_or_path, d);
  if (rc == GPURF_OK) rc = gpurf_rf_design_table(ctx, d, out);
  free(d);
  return rc;
}

int gpurf_rf_costs_load(gpurf_ctx *ctx, const char *name_or_path, gpurf_rf_table *out) {
  if (!ctx || !name_or_path || !out) return GPURF_EINVAL;
  int is_stdin = strcmp(name_or_path, "-") == 0;
  if (!is_stdin && !strchr(name_or_path, '/') && !strstr(name_or_path, ".yaml"))
    return from_design(ctx, name_or_path, out);
  ys_doc *doc = NULL;
  int rc = ys_open(ctx, name_or_path, &doc);
  if (rc != GPURF_OK) return rc;
  /* A table is decoded from the document read here: the file is read once. */
  int is_table = ys_top_has(doc, "table");
  if (is_table) rc = rf_table_from_doc(ctx, doc, out);
  ys_close(doc);
  if (is_table) return rc;
  if (is_stdin)
    return gpurf_fail_at(ctx, GPURF_EUNSUPPORTED, "<stdin>", 0, 0, NULL,
                         "a design is read from its file, not from standard input "
                         "(a primitive table can be)");
  return from_design(ctx, name_or_path, out);
}
