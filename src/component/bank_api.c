/* The bank front end: spec defaults, names, input checks, and dispatch to
 * the cell-specific model. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "component/bank_internal.h"
#include "core/ctx_internal.h"

static const char *const opt_names[GPURF_BANK_OPT_COUNT] = {"ed2", "edp", "delay", "energy", "area",
                                                       "leakage", "ed2-read"};
static const char *const part_names[GPURF_BANK_PART_COUNT] = {
    "cells", "decoder", "wordline", "bitline", "sense_amp", "write_driver", "output_driver",
    "routing", "interbank", "sleep"};

/* Largest bank the model accepts: 1 Gbit; far beyond any register file. */
#define MAX_BANK_BITS (1LL << 30)
#define MAX_WIDTH_BITS 65536
#define MAX_BANKS 1024
#define MAX_PORTS 16

/* The index of name in a table of n names, or -1 (also for NULL). */
static int name_index(const char *const *names, int n, const char *name) {
  for (int i = 0; name && i < n; i++)
    if (strcmp(name, names[i]) == 0) return i;
  return -1;
}

int gpurf_bank_opt_parse(const char *name, gpurf_bank_opt *out) {
  int i = name_index(opt_names, GPURF_BANK_OPT_COUNT, name);
  if (i < 0) return GPURF_EINVAL;
  *out = (gpurf_bank_opt)i;
  return GPURF_OK;
}

const char *gpurf_bank_opt_name(gpurf_bank_opt opt) {
  return (unsigned)opt < GPURF_BANK_OPT_COUNT ? opt_names[opt] : "?";
}

static const char *const space_names[GPURF_BANK_SPACE_COUNT] = {"own", "cacti"};

int gpurf_bank_space_parse(const char *name, gpurf_bank_space *out) {
  int i = name_index(space_names, GPURF_BANK_SPACE_COUNT, name);
  if (i < 0) return GPURF_EINVAL;
  *out = (gpurf_bank_space)i;
  return GPURF_OK;
}

const char *gpurf_bank_space_name(gpurf_bank_space space) {
  return (unsigned)space < GPURF_BANK_SPACE_COUNT ? space_names[space] : "?";
}

static const char *const overlap_names[GPURF_BANK_OVERLAP_COUNT] = {"none", "ports",
                                                               "read_during_write_other_half"};

const char *gpurf_bank_overlap_name(gpurf_bank_overlap overlap) {
  return (unsigned)overlap < GPURF_BANK_OVERLAP_COUNT ? overlap_names[overlap] : "?";
}

const char *gpurf_bank_part_name(gpurf_bank_part part) {
  return (unsigned)part < GPURF_BANK_PART_COUNT ? part_names[part] : "?";
}

int gpurf_ports_parse(const char *text, gpurf_ports *out) {
  gpurf_ports p = {0, 0, 0};
  const char *s = text;
  if (!s || !*s) return GPURF_EINVAL;
  while (*s) {
    if (!isdigit((unsigned char)*s)) return GPURF_EINVAL;
    char *end;
    long n = strtol(s, &end, 10);
    if (n < 1 || n > MAX_PORTS) return GPURF_EINVAL;
    s = end;
    if (strncmp(s, "rw", 2) == 0) {
      if (p.rw) return GPURF_EINVAL;
      p.rw = (int)n;
      s += 2;
    } else if (*s == 'r') {
      if (p.read) return GPURF_EINVAL;
      p.read = (int)n;
      s++;
    } else if (*s == 'w') {
      if (p.write) return GPURF_EINVAL;
      p.write = (int)n;
      s++;
    } else {
      return GPURF_EINVAL;
    }
  }
  if (p.rw == 0 && (p.read == 0 || p.write == 0)) return GPURF_EINVAL;
  if (p.rw + p.read + p.write > MAX_PORTS) return GPURF_EINVAL;
  *out = p;
  return GPURF_OK;
}

void gpurf_ports_format(const gpurf_ports *p, char *buf, size_t size) {
  char tmp[64] = "";
  size_t n = 0;
  if (p->rw) n += (size_t)snprintf(tmp + n, sizeof tmp - n, "%drw", p->rw);
  if (p->read) n += (size_t)snprintf(tmp + n, sizeof tmp - n, "%dr", p->read);
  if (p->write) n += (size_t)snprintf(tmp + n, sizeof tmp - n, "%dw", p->write);
  snprintf(buf, size, "%s", tmp);
}

void gpurf_bank_spec_init(gpurf_bank_spec *s) {
  memset(s, 0, sizeof *s);
  s->device = GPURF_DEVICE_HP;
  s->ports.rw = 1;
  s->banks = 1;
  s->opt = GPURF_BANK_OPT_ED2;
  s->temp_k = GPURF_DEFAULT_TEMP_K;
  /* A precharged (return-to-zero) data path charges every data wire once per
   * access, which is also CACTI's convention; static buses carrying random
   * data toggle a quarter of that. */
  s->data_activity = 1.0;
  s->long_channel_periphery = 1;
}

/* Port mixes and options each storage kind can build. */
static int check_cell_ports(gpurf_ctx *ctx, const gpurf_bank_spec *s) {
  const gpurf_ports *p = &s->ports;
  const gpurf_cell_kind kind = s->cell->kind;
  if (s->split_write && kind != GPURF_CELL_STT_MTJ)
    return gpurf_fail(ctx, GPURF_EINVAL,
                      "bank: split write is an STT-RAM option (its writes outlast a read); "
                      "%s banks read and write in one array access", gpurf_cell_kind_name(kind));
  if (kind == GPURF_CELL_STT_MTJ && !(p->rw == 1 && p->read == 0 && p->write == 0))
    return gpurf_fail(ctx, GPURF_EINVAL,
                      "bank: a 1T1MTJ cell has one access device, so one read/write port "
                      "(1rw); a read during a write needs split_write instead");
  if ((kind == GPURF_CELL_DFF || kind == GPURF_CELL_LATCH) && p->rw > 0)
    return gpurf_fail(ctx, GPURF_EINVAL,
                      "bank: a %s array has separate data in and out: give read and write "
                      "ports (such as 1r1w or 3r1w), not read/write ports",
                      gpurf_cell_kind_name(kind));
  if (s->space == GPURF_BANK_SPACE_CACTI && kind != GPURF_CELL_SRAM)
    return gpurf_fail(ctx, GPURF_EINVAL,
                      "bank: the cacti space is CACTI's SRAM organisation; a %s bank takes "
                      "the own space", gpurf_cell_kind_name(kind));
  if (s->space == GPURF_BANK_SPACE_CACTI && s->gate_groups != 0)
    return gpurf_fail(ctx, GPURF_EINVAL,
                      "bank: the cacti space opens whole mats, which power gating groups do "
                      "not divide; use the own space");
  if (s->gate_groups != 0) {
    int g = s->gate_groups;
    if (g < 0 || g > 64 || (g & (g - 1)) != 0)
      return gpurf_fail(ctx, GPURF_EINVAL,
                        "bank: gate_groups %d is not a power of two from 1 to 64 (0: no gating)", g);
    if (kind != GPURF_CELL_SRAM)
      return gpurf_fail(ctx, GPURF_EINVAL,
                        "bank: power gating groups SRAM sub-arrays; a %s bank has none to gate",
                        gpurf_cell_kind_name(kind));
    if (s->entries / s->banks < g)
      return gpurf_fail(ctx, GPURF_EINVAL,
                        "bank: %lld words per bank cannot form %d gate groups",
                        s->entries / s->banks, g);
  }
  if (s->split_write && s->entries / s->banks < 2)
    return gpurf_fail(ctx, GPURF_EINVAL,
                      "bank: split write needs at least two words per bank, one per half");
  return GPURF_OK;
}

static int check_spec(gpurf_ctx *ctx, const gpurf_bank_spec *s) {
  if (!s->tech) return gpurf_fail(ctx, GPURF_EINVAL, "bank: no technology given");
  if (!s->cell) return gpurf_fail(ctx, GPURF_EINVAL, "bank: no cell given");
  if ((unsigned)s->device >= GPURF_DEVICE_COUNT)
    return gpurf_fail(ctx, GPURF_EINVAL, "bank: unknown device flavour");
  if (s->width_bits < 1 || s->width_bits > MAX_WIDTH_BITS)
    return gpurf_fail(ctx, GPURF_EINVAL, "bank: width %d bits is outside 1..%d", s->width_bits,
                      MAX_WIDTH_BITS);
  if (s->banks < 1 || s->banks > MAX_BANKS)
    return gpurf_fail(ctx, GPURF_EINVAL, "bank: %d banks is outside 1..%d", s->banks, MAX_BANKS);
  if (s->entries < 1)
    return gpurf_fail(ctx, GPURF_EINVAL, "bank: capacity must be at least one word of %d bits",
                      s->width_bits);
  if (s->entries < s->banks)
    return gpurf_fail(ctx, GPURF_EINVAL,
                      "bank: %lld words cannot fill %d banks (width above capacity?)",
                      s->entries, s->banks);
  if (s->entries % s->banks != 0)
    return gpurf_fail(ctx, GPURF_EINVAL, "bank: %lld words do not split evenly over %d banks",
                      s->entries, s->banks);
  if ((s->entries / s->banks) > MAX_BANK_BITS / s->width_bits)
    return gpurf_fail(ctx, GPURF_EINVAL, "bank: more than %lld bits per bank", MAX_BANK_BITS);
  const gpurf_ports *p = &s->ports;
  if (p->rw < 0 || p->read < 0 || p->write < 0 || p->rw + p->read + p->write < 1 ||
      p->rw + p->read + p->write > MAX_PORTS || (p->rw == 0 && (p->read == 0 || p->write == 0)))
    return gpurf_fail(ctx, GPURF_EINVAL,
                      "bank: ports need a read/write port or both a read and a write port");
  if (!(s->opt >= 0 && s->opt < GPURF_BANK_OPT_COUNT))
    return gpurf_fail(ctx, GPURF_EINVAL, "bank: unknown optimisation target");
  if (!(s->space >= 0 && s->space < GPURF_BANK_SPACE_COUNT))
    return gpurf_fail(ctx, GPURF_EINVAL, "bank: unknown organisation space");
  if (!(s->clock_hz >= 0.0) || !isfinite(s->clock_hz))
    return gpurf_fail(ctx, GPURF_EINVAL, "bank: clock must be a positive frequency");
  if (!(s->data_activity >= 0.0 && s->data_activity <= 2.0))
    return gpurf_fail(ctx, GPURF_EINVAL, "bank: data activity %g is outside 0..2",
                      s->data_activity);
  return check_cell_ports(ctx, s);
}

int bank_in_init(gpurf_ctx *ctx, const gpurf_bank_spec *s, bank_in *in) {
  gc_env env;
  int rc = gc_env_init(ctx, &env, s->tech, s->device, s->temp_k, s->long_channel_periphery);
  if (rc != GPURF_OK) return rc;
  return bank_in_init_env(ctx, s, &env, in);
}

int bank_in_init_env(gpurf_ctx *ctx, const gpurf_bank_spec *s, const gc_env *env, bank_in *in) {
  memset(in, 0, sizeof *in);
  in->spec = s;
  in->env = *env;
  in->env.memo = NULL;
  /* The cell's core grows for every port of the bank beyond the first. */
  gpurf_cell grown = *s->cell;
  if (grown.kind == GPURF_CELL_SRAM) {
    grown.u.sram.rw_ports = s->ports.rw;
    grown.u.sram.read_ports = s->ports.read;
    grown.u.sram.write_ports = s->ports.write;
  }
  gpurf_cell_dims d;
  int rc = gpurf_circuit_cell_dims(ctx, s->tech, &grown, &d);
  if (rc != GPURF_OK) return rc;
  in->cell_w_m = d.width_m;
  in->cell_h_m = d.height_m;
  in->read_paths = s->ports.rw + s->ports.read;
  in->write_paths = s->ports.rw + s->ports.write;
  in->wordline_ports = s->ports.rw + s->ports.read + s->ports.write;
  in->entries_per_bank = s->entries / s->banks;
  in->whole_mats = s->space == GPURF_BANK_SPACE_CACTI;
  in->address_bits =
      in->entries_per_bank > 1 ? (int)ceil(log2((double)in->entries_per_bank)) : 0;
  /* What every candidate organisation shares, once. */
  if (s->cell->kind == GPURF_CELL_SRAM) sram_subarray_prepare(in);
  else if (s->cell->kind == GPURF_CELL_STT_MTJ) subarray_prepare(in);
  bank_layout_prepare(in);
  return GPURF_OK;
}

int gpurf_bank_eval(gpurf_ctx *ctx, const gpurf_bank_spec *spec, gpurf_bank_cost *cost) {
  if (!ctx || !spec || !cost) return GPURF_EINVAL;
  int rc = check_spec(ctx, spec);
  if (rc != GPURF_OK) return rc;
  /* The environment and the memo of driver chains (which the search sizes
   * for many candidates) come from the context's scratch (bank_env.c);
   * when it is lent already or cannot be had, the environment is made here
   * and the memo is the search's own: without memory for it the search
   * runs all the same, only slower. */
  bank_envs *envs = gpurf_ctx_scratch_take(ctx, bank_envs_size());
  gc_env env;
  gc_chain_memo *memo = NULL;
  if (envs)
    rc = bank_envs_get(ctx, envs, spec, &env, &memo);
  else
    rc = gc_env_init(ctx, &env, spec->tech, spec->device, spec->temp_k,
                     spec->long_channel_periphery);
  bank_in in;
  if (rc == GPURF_OK) rc = bank_in_init_env(ctx, spec, &env, &in);
  if (rc != GPURF_OK) {
    if (envs) gpurf_ctx_scratch_give(ctx);
    return rc;
  }
  in.env.memo = envs ? memo : gc_chain_memo_alloc();
  gpurf_bank_cost best;
  memset(&best, 0, sizeof best);
  switch (spec->cell->kind) {
  case GPURF_CELL_SRAM:
    in.subarray_eval = sram_subarray_eval;
    /* Each gate group is whole rows of sub-arrays along the bitline. */
    if (spec->gate_groups > 0) in.min_ndbl = spec->gate_groups;
    rc = sram_bank_search(ctx, &in, &best);
    break;
  case GPURF_CELL_STT_MTJ:
    in.subarray_eval = stt_subarray_eval;
    if ((rc = stt_check_node(ctx, &in)) != GPURF_OK) break;
    if (spec->split_write) {
      /* The halves lie along the bitlines, sharing the sense amplifiers
       * between them: at least one sub-array on each side. */
      in.min_ndbl = 2;
      in.bank_extra = stt_split_extra;
    }
    rc = sram_bank_search(ctx, &in, &best);
    break;
  case GPURF_CELL_DFF:
  case GPURF_CELL_LATCH:
    rc = ff_array_eval(ctx, &in, &best);
    break;
  default:
    rc = gpurf_fail(ctx, GPURF_EINVAL, "bank: unknown cell kind %d", (int)spec->cell->kind);
  }
  if (envs) gpurf_ctx_scratch_give(ctx);
  else gc_chain_memo_free(in.env.memo);
  if (rc != GPURF_OK) return rc;
  const gpurf_ports *p = &spec->ports;
  best.overlap = spec->split_write                                   ? GPURF_BANK_OVERLAP_SPLIT
                 : p->rw + p->read + p->write > 1 ? GPURF_BANK_OVERLAP_PORTS
                                                                     : GPURF_BANK_OVERLAP_NONE;
  if (spec->clock_hz > 0.0) {
    double period = 1.0 / spec->clock_hz;
    best.read_cycles = (int)ceil(best.access_time_s / period - 1e-9);
    best.write_cycles = (int)ceil(best.write_latency_s / period - 1e-9);
    if (best.read_cycles < 1) best.read_cycles = 1;
    if (best.write_cycles < 1) best.write_cycles = 1;
    if (best.gate_groups > 0) best.wake_cycles = (int)ceil(best.wake_latency_s / period - 1e-9);
  }
  *cost = best;
  return GPURF_OK;
}
