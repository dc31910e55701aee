/* Memory-cell files (tech/cells/NAME.yaml): SRAM, flip-flop/latch and STT-RAM
 * cells described in units of the feature size F, so one file serves all nodes. */
#ifndef GPURF_CELL_H
#define GPURF_CELL_H

#include "gpurf/context.h"
#include "gpurf/export.h"
#include "gpurf/tech.h"

GPURF_BEGIN_DECLS

typedef enum gpurf_cell_kind {
  GPURF_CELL_SRAM = 0,
  GPURF_CELL_DFF = 1,
  GPURF_CELL_LATCH = 2,
  GPURF_CELL_STT_MTJ = 3
} gpurf_cell_kind;

typedef enum gpurf_stt_read_mode {
  GPURF_STT_READ_VOLTAGE = 0, /* drive read_current_a, sense the voltage */
  GPURF_STT_READ_CURRENT = 1  /* apply read_voltage_v, sense the current */
} gpurf_stt_read_mode;

typedef struct gpurf_cell_sram {
  double area_f2;      /* area of the single-port core cell */
  double aspect_ratio; /* height / width */
  double w_access_f;
  double w_pulldown_f;
  double w_pullup_f;
  int rw_ports;
  int read_ports;
  int write_ports;
  double port_growth_pitches; /* local wire pitches added per extra port, both directions */
  double w_read_access_f;     /* decoupled read stack; 0 when absent */
  double w_read_pulldown_f;
} gpurf_cell_sram;

/* Flip-flop or latch storage element. */
typedef struct gpurf_cell_ff {
  double area_f2;
  double aspect_ratio;
  double clock_gate_width_f;
  double data_gate_width_f;
  double internal_switched_width_f;
  double leak_width_f;
  int has_clock_internal;        /* 1 when clock_internal_width_f was given */
  double clock_internal_width_f; /* gate+drain width switched inside the cell by a clock
                                    edge that captures nothing, in F; 0 when not given */
  int has_data_internal;         /* 1 when data_internal_width_f was given */
  double data_internal_width_f;  /* gate+drain width switched inside a cell that is not
                                    written by one toggle of its D input (a flip-flop's
                                    master latch is transparent while its gated clock is
                                    held low), in F; 0 when not given */
} gpurf_cell_ff;

typedef struct gpurf_cell_stt {
  double area_f2;
  double aspect_ratio;
  double r_on_ohm;
  double r_off_ohm;
  gpurf_stt_read_mode read_mode;
  double read_current_a;  /* 0 when not given */
  double read_voltage_v;  /* 0 when not given */
  double min_sense_voltage_v;
  double read_power_w;
  double set_current_a;
  double set_pulse_s;
  double reset_current_a;
  double reset_pulse_s;
  int has_set_energy;
  double set_energy_j;
  int has_reset_energy;
  double reset_energy_j;
  double access_width_f;
  double access_drop_v;
} gpurf_cell_stt;

typedef struct gpurf_cell {
  gpurf_cell_kind kind;
  char name[GPURF_TECH_NAME_MAX];
  char source[GPURF_TECH_SOURCE_MAX]; /* empty when the file cites none */
  char path[GPURF_TECH_PATH_MAX];
  union {
    gpurf_cell_sram sram;
    gpurf_cell_ff ff;
    gpurf_cell_stt stt;
  } u;
} gpurf_cell;

GPURF_API const char *gpurf_cell_kind_name(gpurf_cell_kind kind);

/* Loads a cell file. */
GPURF_API int gpurf_cell_load_file(gpurf_ctx *ctx, const char *path,
                                   gpurf_cell *out);

/* Loads a cell by name ("sram-6t") from DATA_DIR/tech/cells/, or by path. */
GPURF_API int gpurf_cell_load(gpurf_ctx *ctx, const char *name_or_path,
                              gpurf_cell *out);

GPURF_END_DECLS

#endif
