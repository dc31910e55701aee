/* Machine-readable claims: the pinned CSV columns and JSON. Numbers are
 * printed with enough digits to compare, in a fixed format, so the same
 * results give the same bytes. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "reproduce/repro_internal.h"

static void csv_field(FILE *f, const char *s) {
  if (!s) return;
  if (!strpbrk(s, ",\"\n\r")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static int finish(gpurf_ctx *ctx, FILE *f) {
  if (fflush(f) != 0 || ferror(f))
    return gpurf_fail(ctx, GPURF_EIO, "cannot write: %s", strerror(errno));
  return GPURF_OK;
}

int gpurf_reproduce_write_csv(gpurf_ctx *ctx, const gpurf_reproduce *r, const char *paper,
                              FILE *f) {
  fputs("paper,claim,metric,unit,published,ours,rel_error,direction_ok,workloads\n", f);
  for (size_t i = 0; i < r->n_claims; i++) {
    const gpurf_reproduce_claim *c = &r->claims[i];
    if (paper && strcmp(c->paper, paper)) continue;
    csv_field(f, c->paper);
    fputc(',', f);
    csv_field(f, c->claim);
    fputc(',', f);
    csv_field(f, c->metric);
    fputc(',', f);
    csv_field(f, c->unit);
    fputc(',', f);
    if (c->has_published) fprintf(f, "%.6g", c->published);
    fputc(',', f);
    if (c->status == GPURF_REPRODUCE_COMPUTED)
      fprintf(f, "%.6g", c->ours);
    else
      fputs(c->status == GPURF_REPRODUCE_NOT_MODELLED ? "not modelled" : "no data", f);
    fputc(',', f);
    if (c->status == GPURF_REPRODUCE_COMPUTED && c->has_rel_error) fprintf(f, "%.4f", c->rel_error);
    fputc(',', f);
    if (c->direction_ok >= 0 && c->has_published) fprintf(f, "%d", c->direction_ok);
    fputc(',', f);
    csv_field(f, c->workloads);
    fputc('\n', f);
  }
  return finish(ctx, f);
}

static void json_str(FILE *f, const char *s) {
  if (!s) {
    fputs("null", f);
    return;
  }
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p < 0x20)
      fprintf(f, "\\u%04x", *p);
    else
      fputc(*p, f);
  }
  fputc('"', f);
}

static void json_num(FILE *f, double x) {
  if (isfinite(x))
    fprintf(f, "%.10g", x);
  else
    fputs("null", f);
}

static const char *relation_name(gpurf_reproduce_relation r) {
  switch (r) {
  case GPURF_REPRODUCE_ABOUT: return "about";
  case GPURF_REPRODUCE_BELOW: return "below";
  case GPURF_REPRODUCE_ABOVE: return "above";
  default: return "equal";
  }
}

const char *gpurf_reproduce_status_name(gpurf_reproduce_status s) {
  switch (s) {
  case GPURF_REPRODUCE_COMPUTED: return "computed";
  case GPURF_REPRODUCE_NOT_MODELLED: return "not modelled";
  default: return "no data";
  }
}

static void json_claim(FILE *f, const gpurf_reproduce *r, size_t i) {
  const gpurf_reproduce_claim *c = &r->claims[i];
  fputs("{\"claim\": ", f);
  json_str(f, c->claim);
  fputs(", \"metric\": ", f);
  json_str(f, c->metric);
  fputs(", \"unit\": ", f);
  json_str(f, c->unit);
  fputs(", \"published\": ", f);
  if (c->has_published) json_num(f, c->published); else fputs("null", f);
  fprintf(f, ", \"relation\": \"%s\", \"status\": \"%s\", \"ours\": ", relation_name(c->relation),
          gpurf_reproduce_status_name(c->status));
  if (c->status == GPURF_REPRODUCE_COMPUTED) json_num(f, c->ours); else fputs("null", f);
  fputs(", \"rel_error\": ", f);
  if (c->status == GPURF_REPRODUCE_COMPUTED && c->has_rel_error) json_num(f, c->rel_error);
  else fputs("null", f);
  fputs(", \"direction_ok\": ", f);
  if (c->direction_ok >= 0) fputs(c->direction_ok ? "true" : "false", f); else fputs("null", f);
  fputs(", \"workloads\": ", f);
  json_str(f, c->workloads);
  fputs(", \"source\": ", f);
  json_str(f, c->source);
  fputs(", \"note\": ", f);
  json_str(f, c->note);
  fputs(", \"aggregate\": ", f);
  json_str(f, c->aggregate);
  fputs(", \"per_workload\": [", f);
  int first = 1;
  for (size_t k = i + 1; k < r->n_claims && r->claims[k].per_workload; k++) {
    fprintf(f, "%s{\"workload\": ", first ? "" : ", ");
    json_str(f, r->claims[k].workloads);
    fputs(", \"ours\": ", f);
    json_num(f, r->claims[k].ours);
    fputc('}', f);
    first = 0;
  }
  fputs("]}", f);
}

int gpurf_reproduce_write_json(gpurf_ctx *ctx, const gpurf_reproduce *r, FILE *f) {
  fputs("{\n  \"papers\": [", f);
  for (int p = 0; p < r->n_papers; p++) {
    const repro_paper_plan *pp = &r->papers[p];
    fputs(p ? ",\n    {" : "\n    {", f);
    fputs("\"paper\": ", f);
    json_str(f, pp->def->info.id);
    fputs(", \"title\": ", f);
    json_str(f, pp->def->info.title);
    fputs(", \"citation\": ", f);
    json_str(f, pp->def->info.citation);
    fputs(", \"workload_set\": ", f);
    json_str(f, pp->set);
    fputs(",\n     \"workloads\": [", f);
    for (int w = 0; w < pp->n_workloads; w++) {
      if (w) fputs(", ", f);
      json_str(f, r->workloads[pp->workloads[w]].name);
    }
    fputs("],\n     \"claims\": [", f);
    int first = 1;
    for (size_t i = 0; i < r->n_claims; i++) {
      if (r->claims[i].per_workload || strcmp(r->claims[i].paper, pp->def->info.id)) continue;
      fputs(first ? "\n       " : ",\n       ", f);
      json_claim(f, r, i);
      first = 0;
    }
    fputs("]}", f);
  }
  fputs("\n  ]\n}\n", f);
  return finish(ctx, f);
}
