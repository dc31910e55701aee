/* Private layout of the event engine, shared by the engine, its report and
 * the counter-file readers. */
#ifndef GPURF_EVENTS_INTERNAL_H
#define GPURF_EVENTS_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "core/ctx_internal.h"
#include "gpurf/events.h"

#define EV_MAX_IDS (GPURF_RF_MAX_COMPONENTS * GPURF_RF_MAX_EVENTS)
/* gated_since of a powered sub-array. */
#define EV_AWAKE UINT64_MAX

/* Where the counts of one event id live: counts[base + instance] for
 * instance < instances. Kept small and together: the add path reads one. */
typedef struct ev_slot {
  uint32_t base;
  uint32_t instances;
} ev_slot;

struct gpurf_energy {
  ev_slot slot[EV_MAX_IDS];
  uint64_t *counts;
  uint32_t n_ids;
  uint64_t cycles;
  size_t n_counts;
  /* id of (component c, event 0); ids of c's events follow in order. */
  uint32_t first_id[GPURF_RF_MAX_COMPONENTS];
  /* Sub-arrays of component c: index sub_base[c] + instance * subarrays + s. */
  size_t sub_base[GPURF_RF_MAX_COMPONENTS];
  size_t n_sub;
  uint64_t *gated_since;  /* cycle the sub-array was gated, or EV_AWAKE */
  uint64_t *gated_cycles; /* closed gated intervals */
  uint64_t *wakeups;
  gpurf_rf_table table;
};

typedef struct ev_component_report {
  char name[GPURF_RF_NAME_MAX];
  char kind[GPURF_RF_NAME_MAX];
  int instances;
  int subarrays; /* per instance; 0: cannot be gated */
  int n_events;
  char event_name[GPURF_RF_MAX_EVENTS][GPURF_RF_NAME_MAX];
  uint64_t event_count[GPURF_RF_MAX_EVENTS];  /* summed over instances */
  double event_energy_j[GPURF_RF_MAX_EVENTS]; /* count x energy per event */
  uint64_t gated_subarray_cycles;             /* summed over sub-arrays */
  uint64_t wakeups;
  double wake_energy_j;   /* wakeups x wake_energy_j */
  double wake_time_s;     /* wakeups x wake_latency_s */
  double leakage_saved_j; /* by gating, against all sub-arrays powered */
  double dynamic_energy_j; /* events + wake-ups */
  double leakage_energy_j; /* all instances, gating accounted for */
  double total_energy_j;
} ev_component_report;

/* Read through the accessors of gpurf/events.h only, so fields may change. */
struct gpurf_energy_report {
  char design[GPURF_RF_NAME_MAX];
  double clock_hz;
  uint64_t cycles;
  double seconds;
  uint64_t instructions; /* as given; 0 = unknown */
  int n_components;
  ev_component_report components[GPURF_RF_MAX_COMPONENTS];
  double dynamic_energy_j; /* includes wake-up energy */
  double wake_energy_j;
  double leakage_energy_j;
  double total_energy_j;
  double average_power_w; /* total / seconds; 0 for zero cycles */
  double dynamic_power_w;
  double leakage_power_w;
  double edp_j_s;
  double ipc;
  double energy_per_instruction_j;
  double instructions_per_j;
};

/* Index of a sub-array, or -1 when out of range or not gateable. */
long ev_sub_index(const gpurf_energy *e, int component, int instance, int subarray);

/* Cycles sub-array i has been gated, up to the engine's present. */
uint64_t ev_gated_cycles(const gpurf_energy *e, size_t i);

/* Adds src into dst. cycles_add: dst advances by src's cycles (a counters
 * file loaded into an engine), else dst's cycles become the larger. */
void ev_accumulate(gpurf_energy *dst, const gpurf_energy *src, int cycles_add);

/* ---- Counter-file readers (counts.c) ---- */

/* A counters file read line by line. */
typedef struct ev_lines {
  FILE *f;
  const char *path;
  char *buf;
  size_t cap;
  long line_no;
  /* The bytes sniffed at open, handed out before the rest of the stream:
   * the file is opened once, so a pipe reads as well as a file. */
  unsigned char head[8];
  size_t head_len, head_pos;
  int replay; /* the next call returns the last line again */
} ev_lines;

int ev_lines_open(gpurf_ctx *ctx, ev_lines *l, const char *path);
void ev_lines_close(ev_lines *l);
/* Next line without its end-of-line characters into *line (1 = got one,
 * 0 = end of file, < 0 = error). Rejects NUL bytes and over-long lines. */
int ev_lines_next(gpurf_ctx *ctx, ev_lines *l, char **line);
/* Makes the next ev_lines_next return the line just read once more. */
void ev_lines_unread(ev_lines *l);

/* Parses a whole decimal number (no sign, no spaces) of at most 20 digits
 * into a uint64; 0 on success. */
int ev_parse_u64(const char *s, size_t n, uint64_t *out);

int ev_read_native(gpurf_ctx *ctx, ev_lines *l, gpurf_energy *e, gpurf_counts_info *info);
int ev_read_accelwattch(gpurf_ctx *ctx, ev_lines *l, gpurf_energy *e, gpurf_counts_info *info);

#endif
