/* gpurf table: a seed paper's table rebuilt from the models, with the
 * published numbers beside ours where the paper prints them. */
#ifndef GPURF_CLI_TABLE_H
#define GPURF_CLI_TABLE_H

#include "cli/cli.h"

#define ST_MAX_ROWS 160
#define ST_TEXT 64

typedef struct st_row {
  char config[ST_TEXT];
  char metric[ST_TEXT];
  char unit[16];
  double ours;
  int has_published;
  double published;
} st_row;

typedef struct st_table {
  const char *name, *title;
  char source[2048]; /* where the published numbers come from */
  int n;
  st_row rows[ST_MAX_ROWS];
  int overflow;
} st_table;

/* Appends a row; its published number is looked up by (table, config,
 * metric) in table_published.c. st_add_pub gives it explicitly (a number
 * read from a validation set). */
void st_add(st_table *t, const char *config, const char *metric, const char *unit, double ours);
void st_add_pub(st_table *t, const char *config, const char *metric, const char *unit,
                double ours, double published);

/* A published number in table_published.c: 1 and *value when the paper
 * prints it, else 0. */
int st_published(const char *table, const char *config, const char *metric, double *value);
/* The citation of a table's published numbers in table_published.c, or NULL
 * (tables whose numbers come from validation sets cite those). */
const char *st_citation(const char *table);

typedef struct st_builder {
  const char *name, *title;
  int (*build)(gpurf_ctx *ctx, st_table *t); /* CLI_OK, or prints and CLI_FAIL */
} st_builder;

extern const st_builder st_builders[];
extern const int st_builder_count;

#endif
