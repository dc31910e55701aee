/* The bank arbiter of a banked register file, after Fig. 10 of Jing et al.'s
 * bank-stealing paper, counted gate by gate:
 *   (1) every requester of every class decodes its bank id into per-bank
 *       request lines (a predecoded decoder and a valid AND per bank);
 *   (2) per bank and class, a round-robin arbiter picks one requester: a
 *       mask from a thermometer pointer, two parallel-prefix find-first trees
 *       (masked and unmasked requests), grant ANDs and a 2:1 select, plus an
 *       OR tree telling whether the class requests the bank at all;
 *   (3) with write stealing, per bank a round-robin search over the vacant
 *       banks, and a status table per bank (two valid bits, the free
 *       register id, the destination register id: 19 bits per bank in the
 *       paper's 8-bank, 1024-register RF);
 *   (4) per bank, each class is granted when no higher class requests (an OR
 *       tree of the higher classes' request lines and an AND), the read
 *       classes are ORed into the read enable and the write classes into the
 *       write enable, and each grant is returned to its requester.
 * Area is gate footprints (no routing); energy is every node switching with
 * the activity factor plus the flip-flop clocks; delay follows the read
 * path (decode, selection, priority, enable), the critical one. */
#include <math.h>
#include <string.h>

#include "component/comp_internal.h"
#include "core/ctx_internal.h"

static const char *const class_names[GPURF_ARBITER_CLASS_COUNT] = {
    "forced_write", "normal_read", "stealing_read", "normal_write", "stealing_write"};
static const char *const part_names[GPURF_ARBITER_PART_COUNT] = {"decode", "select", "steal_check",
                                                             "priority", "state"};

#define ARB_MAX_BANKS 1024
#define ARB_MAX_REQUESTERS 1024
/* Each internal gate drives about two others (prefix trees fan out). */
#define ARB_FANOUT 2.0

const char *gpurf_arbiter_class_name(gpurf_arbiter_class c) {
  return (unsigned)c < GPURF_ARBITER_CLASS_COUNT ? class_names[c] : "?";
}

const char *gpurf_arbiter_part_name(gpurf_arbiter_part p) {
  return (unsigned)p < GPURF_ARBITER_PART_COUNT ? part_names[p] : "?";
}

int gpurf_arbiter_classes(int k, gpurf_arbiter_class out[GPURF_ARBITER_MAX_CLASSES]) {
  static const gpurf_arbiter_class orders[4][GPURF_ARBITER_MAX_CLASSES] = {
      {GPURF_ARBITER_NORMAL_WRITE, GPURF_ARBITER_NORMAL_READ},
      {GPURF_ARBITER_NORMAL_WRITE, GPURF_ARBITER_NORMAL_READ, GPURF_ARBITER_STEALING_READ},
      {GPURF_ARBITER_FORCED_WRITE, GPURF_ARBITER_NORMAL_READ, GPURF_ARBITER_NORMAL_WRITE,
       GPURF_ARBITER_STEALING_WRITE},
      {GPURF_ARBITER_FORCED_WRITE, GPURF_ARBITER_NORMAL_READ, GPURF_ARBITER_STEALING_READ,
       GPURF_ARBITER_NORMAL_WRITE, GPURF_ARBITER_STEALING_WRITE}};
  if (k < GPURF_ARBITER_MIN_CLASSES || k > GPURF_ARBITER_MAX_CLASSES) return GPURF_EINVAL;
  memcpy(out, orders[k - GPURF_ARBITER_MIN_CLASSES], sizeof orders[0]);
  return GPURF_OK;
}

void gpurf_arbiter_spec_init(gpurf_arbiter_spec *s) {
  memset(s, 0, sizeof *s);
  s->device = GPURF_DEVICE_HP;
  s->classes = GPURF_ARBITER_MAX_CLASSES;
  s->rf_registers = 1024;
  s->activity = 0.25;
  s->temp_k = GPURF_DEFAULT_TEMP_K;
}

static int is_read(gpurf_arbiter_class c) {
  return c == GPURF_ARBITER_NORMAL_READ || c == GPURF_ARBITER_STEALING_READ;
}

/* Round-robin choice of one of n requests; levels on its path. */
static int rr_add(logic_sum *s, logic_sum *state, const gc_env *e, const logic_gate *g, int n) {
  if (n <= 1) return 0;
  int lv = logic_tree_levels(n);
  double prefix = 0.5 * n * lv; /* Sklansky prefix OR */
  logic_add_gates(s, g, 2.0 * prefix + 2.0 * n + n + (double)logic_tree_gates(n), ARB_FANOUT);
  /* The final masked/unmasked choice: an AND-OR per requester. */
  logic_add_gates(s, g, 2.0 * n, 1.0);
  logic_add_flops(state, e, n);
  return 1 + lv + 1 + 2;
}

typedef struct arb_eval {
  logic_sum part[GPURF_ARBITER_PART_COUNT];
  int read_levels, write_levels;
} arb_eval;

static void count(const gpurf_arbiter_spec *s, const gc_env *e, const logic_gate *g,
                  const gpurf_arbiter_class *cls, arb_eval *o) {
  const int b = s->banks, r = s->requesters, k = s->classes;
  memset(o, 0, sizeof *o);
  int n_read = 0, n_write = 0, steal_write = 0;
  for (int i = 0; i < k; i++) {
    if (is_read(cls[i])) n_read++;
    else n_write++;
    if (cls[i] == GPURF_ARBITER_STEALING_WRITE) steal_write = 1;
  }
  /* (1) Decoding: every requester of every class, into b lines each gated by valid. */
  double dec_gates = (double)r * k * ((double)logic_decoder_gates(b) + b);
  logic_add_gates(&o->part[GPURF_ARBITER_PART_DECODE], g, dec_gates, 1.0);
  int dec_levels = (b > 1 ? logic_decoder_levels(b) : 0) + 1;

  /* (2) Selection inside each class at each bank. */
  logic_sum one_rr = {0}, one_rr_state = {0};
  int sel_levels = rr_add(&one_rr, &one_rr_state, e, g, r);
  logic_sum_add(&o->part[GPURF_ARBITER_PART_SELECT], &one_rr, (double)b * k);
  logic_sum_add(&o->part[GPURF_ARBITER_PART_STATE], &one_rr_state, (double)b * k);

  /* (3) Vacant-bank search and status table for stealing writes. */
  int steal_levels = 0;
  if (steal_write) {
    logic_sum v = {0}, vs = {0};
    steal_levels = rr_add(&v, &vs, e, g, b) + 1;
    logic_add_gates(&v, g, b, 1.0);
    logic_sum_add(&o->part[GPURF_ARBITER_PART_STEAL_CHECK], &v, b);
    logic_sum_add(&o->part[GPURF_ARBITER_PART_STATE], &vs, b);
    long long regs_per_bank = s->rf_registers / b > 0 ? s->rf_registers / b : 1;
    double bits = 2.0 + comp_bits_for(regs_per_bank) + comp_bits_for(s->rf_registers);
    logic_add_flops(&o->part[GPURF_ARBITER_PART_STATE], e, bits * b);
  }

  /* (4) Priority among classes, enables, grant return. */
  double prio = 0.0;
  for (int p = 1; p < k; p++) prio += p; /* OR of p higher requests, then an AND */
  prio += (n_read > 1 ? n_read - 1 : 0) + (n_write > 1 ? n_write - 1 : 0);
  if (r > 1) prio += (double)r * k;
  logic_add_gates(&o->part[GPURF_ARBITER_PART_PRIORITY], g, prio * b, 1.0);

  /* The read enable: the granted read class (gated by no higher request,
   * whose OR settles in parallel) merged with the other read classes. */
  o->read_levels = dec_levels + sel_levels + 1 + logic_tree_levels(n_read);
  int w_sel = sel_levels > steal_levels ? sel_levels : steal_levels;
  int w = dec_levels + w_sel + 1 + logic_tree_levels(n_write);
  /* A write below a read class waits for the read request to settle. */
  int write_under_read = 0;
  for (int i = 0; i < k; i++)
    if (is_read(cls[i]))
      for (int j = i + 1; j < k; j++) write_under_read |= !is_read(cls[j]);
  if (write_under_read && o->read_levels + 1 > w) w = o->read_levels + 1;
  o->write_levels = w;
}

int gpurf_arbiter_eval(gpurf_ctx *ctx, const gpurf_arbiter_spec *s, gpurf_arbiter_cost *cost) {
  if (!ctx || !s || !cost) return GPURF_EINVAL;
  int rc = comp_check_env(ctx, "arbiter", s->tech, s->device, s->temp_k);
  if (rc != GPURF_OK) return rc;
  if (s->banks < 1 || s->banks > ARB_MAX_BANKS)
    return gpurf_fail(ctx, GPURF_EINVAL, "arbiter: %d banks is outside 1..%d", s->banks,
                      ARB_MAX_BANKS);
  if (s->requesters < 1 || s->requesters > ARB_MAX_REQUESTERS)
    return gpurf_fail(ctx, GPURF_EINVAL, "arbiter: %d requesters is outside 1..%d",
                      s->requesters, ARB_MAX_REQUESTERS);
  gpurf_arbiter_class cls[GPURF_ARBITER_MAX_CLASSES];
  if (gpurf_arbiter_classes(s->classes, cls) != GPURF_OK)
    return gpurf_fail(ctx, GPURF_EINVAL, "arbiter: %d request classes is outside %d..%d",
                      s->classes, GPURF_ARBITER_MIN_CLASSES, GPURF_ARBITER_MAX_CLASSES);
  if (s->rf_registers < s->banks)
    return gpurf_fail(ctx, GPURF_EINVAL, "arbiter: %d registers cannot fill %d banks",
                      s->rf_registers, s->banks);
  if (!(s->activity > 0.0 && s->activity <= 1.0))
    return gpurf_fail(ctx, GPURF_EINVAL, "arbiter: activity %g is outside (0, 1]", s->activity);
  gc_env e;
  if ((rc = gc_env_init(ctx, &e, s->tech, s->device, s->temp_k, 1)) != GPURF_OK) return rc;
  logic_gate g = logic_nand2(&e);
  arb_eval o;
  count(s, &e, &g, cls, &o);

  gpurf_arbiter_cost c;
  memset(&c, 0, sizeof c);
  gpurf_component_cost *b = &c.base;
  b->kind = "arbiter";
  const double v2 = e.vdd_v * e.vdd_v;
  double decision_j = 0.0;
  for (int p = 0; p < GPURF_ARBITER_PART_COUNT; p++) {
    const logic_sum *l = &o.part[p];
    comp_cost_part(b, gpurf_arbiter_part_name((gpurf_arbiter_part)p), l->area_m2);
    c.energy_part_j[p] = (s->activity * l->cap_f + l->clock_cap_f) * v2;
    c.leakage_part_w[p] = l->leak_w;
    b->area_m2 += l->area_m2;
    decision_j += c.energy_part_j[p];
    b->leakage_sub_w += l->leak_w;
    b->leakage_gate_w += l->gate_leak_w;
    c.gates += l->gates;
    c.flops += l->flops;
  }
  /* The enables drive a bank's control inputs: a driver of four minimum inverters. */
  double c_enable = gc_inv_input_c(&e, 4.0 * e.w_min_m);
  double read_path_s = logic_path_s(&e, &g, o.read_levels, ARB_FANOUT, c_enable);
  b->access_time_s = read_path_s;
  comp_cost_event(b, GPURF_EV_DECISION, decision_j, read_path_s);
  c.write_path_s = logic_path_s(&e, &g, o.write_levels, ARB_FANOUT, c_enable);
  c.fo4_delay_s = e.fo4_s;
  c.read_path_fo4 = read_path_s / e.fo4_s;
  for (int i = 0; i < s->classes; i++) {
    c.class_order[i] = cls[i];
    if (cls[i] == GPURF_ARBITER_STEALING_WRITE) {
      long long regs_per_bank = s->rf_registers / s->banks;
      c.status_bits = (long long)s->banks *
                      (2 + comp_bits_for(regs_per_bank) + comp_bits_for(s->rf_registers));
    }
  }
  c.class_count = s->classes;
  *cost = c;
  return GPURF_OK;
}

/* The read-stealing 2:1 multiplexer in the warp scheduler (Fig. 7, m1/m2):
 * its select arrives late, so the path is the select inverter driving the
 * transmission gates, then the selected gate driving the next stage. */
static double scheduler_mux_s(const gc_env *e, const logic_gate *g) {
  gc_mux2 m = gc_mux2_min(e);
  double t_inv = gpurf_circuit_horowitz_s(
      0.0, gc_inv_r(e, e->w_min_m) * (gc_inv_drain_c(e, e->w_min_m) + m.c_sel_f), 0.5, 0.5);
  double t_tg = gpurf_circuit_horowitz_s(t_inv / 0.5, m.r_ohm * (m.c_out_f + g->c_in_f + g->c_wire_f),
                                         0.5, 0.5);
  return t_inv + t_tg;
}

int gpurf_arbiter_overhead_eval(gpurf_ctx *ctx, const gpurf_arbiter_spec *spec, double rf_area_m2,
                                gpurf_arbiter_overhead *out) {
  if (!ctx || !spec || !out) return GPURF_EINVAL;
  if (!(rf_area_m2 >= 0.0) || !isfinite(rf_area_m2))
    return gpurf_fail(ctx, GPURF_EINVAL, "arbiter: register-file area must be 0 or positive");
  gpurf_arbiter_cost with, base;
  int rc = gpurf_arbiter_eval(ctx, spec, &with);
  if (rc != GPURF_OK) return rc;
  gpurf_arbiter_spec b = *spec;
  b.classes = GPURF_ARBITER_MIN_CLASSES;
  if ((rc = gpurf_arbiter_eval(ctx, &b, &base)) != GPURF_OK) return rc;
  gc_env e;
  if ((rc = gc_env_init(ctx, &e, spec->tech, spec->device, spec->temp_k, 1)) != GPURF_OK) return rc;
  logic_gate g = logic_nand2(&e);
  memset(out, 0, sizeof *out);
  out->extra_area_m2 = with.base.area_m2 - base.base.area_m2;
  out->area_share = rf_area_m2 > 0.0 ? out->extra_area_m2 / rf_area_m2 : 0.0;
  out->extra_read_path_fo4 = with.read_path_fo4 - base.read_path_fo4;
  out->extra_energy_j = with.base.events[0].energy_j - base.base.events[0].energy_j;
  int read_stealing = 0;
  for (int i = 0; i < with.class_count; i++)
    read_stealing |= with.class_order[i] == GPURF_ARBITER_STEALING_READ;
  out->scheduler_mux_fo4 = read_stealing ? scheduler_mux_s(&e, &g) / e.fo4_s : 0.0;
  return GPURF_OK;
}
