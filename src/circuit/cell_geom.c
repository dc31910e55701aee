/* Storage-cell footprints from F-unit cell files. */
#include <math.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "gpurf/circuit.h"
#include "tech/tech_internal.h"

int gpurf_circuit_cell_dims(gpurf_ctx *ctx, const gpurf_tech *tech, const gpurf_cell *cell,
                            gpurf_cell_dims *out) {
  if (!ctx || !tech || !cell || !out) return GPURF_EINVAL;
  const double f = tech->feature_size_m;
  double area_f2, aspect;
  switch (cell->kind) {
  case GPURF_CELL_SRAM:
    area_f2 = cell->u.sram.area_f2;
    aspect = cell->u.sram.aspect_ratio;
    break;
  case GPURF_CELL_DFF:
  case GPURF_CELL_LATCH:
    area_f2 = cell->u.ff.area_f2;
    aspect = cell->u.ff.aspect_ratio;
    break;
  case GPURF_CELL_STT_MTJ:
    area_f2 = cell->u.stt.area_f2;
    aspect = cell->u.stt.aspect_ratio;
    break;
  default:
    return gpurf_fail(ctx, GPURF_EINVAL, "unknown cell kind %d", (int)cell->kind);
  }
  gpurf_cell_dims d;
  memset(&d, 0, sizeof d);
  d.height_m = sqrt(area_f2 * aspect) * f;
  d.width_m = sqrt(area_f2 / aspect) * f;
  if (cell->kind == GPURF_CELL_SRAM) {
    const gpurf_cell_sram *s = &cell->u.sram;
    d.extra_ports = s->rw_ports + s->read_ports + s->write_ports - 1;
    double grow = s->port_growth_pitches * tech->wires.layer[GPURF_WIRE_LOCAL].pitch_m *
                  d.extra_ports;
    d.height_m += grow;
    d.width_m += grow;
  }
  d.area_m2 = d.width_m * d.height_m;
  *out = d;
  return GPURF_OK;
}
