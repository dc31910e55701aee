/* Building, running and reading out an SM. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "pipeline/core_internal.h"

static const char *const stall_names[GPURF_PIPELINE_STALL_BUILTIN] = {
    "collector_full", "scoreboard", "barrier", "ibuffer_empty", "idle", "technique"};

/* The table's storage banks: the component named "bank", else the first. */
static int bind_energy(gpurf_ctx *ctx, gpurf_pipeline *p, const gpurf_rf_table *t) {
  int rc = gpurf_energy_alloc(ctx, t, &p->energy);
  if (rc != GPURF_OK) return rc;
  int bank = gpurf_rf_table_find(t, GPURF_RF_BANK);
  if (bank < 0) bank = 0;
  const gpurf_rf_component *c = &t->components[bank];
  /* Storage the core cannot count per bank (a compressed register file, or
   * one memory standing for all banks) is counted by the technique that
   * models it, when one decodes the trace for it. */
  int plain = gpurf_energy_event_id(p->energy, c->name, "read", &p->ev_read) == GPURF_OK &&
              gpurf_energy_event_id(p->energy, c->name, "write", &p->ev_write) == GPURF_OK;
  if (p->hk.decode && (!plain || c->instances < p->prm.banks)) {
    p->ev_read = p->ev_write = p->ev_xfer = p->ev_arb = p->ev_cu = -1;
    return GPURF_OK;
  }
  if (c->instances < p->prm.banks)
    return gpurf_fail(ctx, GPURF_EINVAL, "design '%s' has %d %s instances for %d banks", t->design,
                      c->instances, c->name, p->prm.banks);
  if (gpurf_energy_event_id(p->energy, c->name, GPURF_EV_READ, &p->ev_read) != GPURF_OK ||
      gpurf_energy_event_id(p->energy, c->name, GPURF_EV_WRITE, &p->ev_write) != GPURF_OK)
    return gpurf_fail(ctx, GPURF_EINVAL,
                      "component '%s' of design '%s' has no read and write events", c->name,
                      t->design);
  if (gpurf_energy_event_id(p->energy, GPURF_RF_CROSSBAR, GPURF_EV_TRANSFER, &p->ev_xfer) != GPURF_OK)
    p->ev_xfer = -1;
  if (gpurf_energy_event_id(p->energy, GPURF_RF_ARBITER, GPURF_EV_DECISION, &p->ev_arb) != GPURF_OK)
    p->ev_arb = -1;
  if (gpurf_energy_event_id(p->energy, GPURF_RF_COLLECTOR, GPURF_EV_WRITE, &p->ev_cu) != GPURF_OK)
    p->ev_cu = -1;
  return GPURF_OK;
}

int gpurf_pipeline_alloc(gpurf_ctx *ctx, const gpurf_pipeline_params *params,
                         const gpurf_rf_table *table, const gpurf_pipeline_hooks *hooks,
                         gpurf_pipeline **out) {
  if (!ctx || !params || !out) return GPURF_EINVAL;
  *out = NULL;
  int rc = gpurf_pipeline_params_check(ctx, params);
  if (rc != GPURF_OK) return rc;
  int total = 0;
  for (int k = 0; k < GPURF_PIPELINE_CU_COUNT; k++) total += params->collectors[k];
  if (total > PIPE_MAX_CU)
    return gpurf_fail(ctx, GPURF_ERANGE, "more than %d collector units", PIPE_MAX_CU);
  gpurf_pipeline *p = calloc(1, sizeof *p);
  if (!p) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  p->ctx = ctx;
  p->prm = *params;
  const gpurf_pipeline_hooks *b = gpurf_pipeline_baseline_hooks();
  p->hk = *b;
  if (hooks) {
    p->hk.name = hooks->name ? hooks->name : b->name;
    p->hk.state = hooks->state;
    p->hk.attach = hooks->attach;
    if (hooks->select) p->hk.select = hooks->select;
    if (hooks->arbitrate) p->hk.arbitrate = hooks->arbitrate;
    if (hooks->map) p->hk.map = hooks->map;
    if (hooks->writeback) p->hk.writeback = hooks->writeback;
    if (hooks->demote) p->hk.demote = hooks->demote;
    if (hooks->promote) p->hk.promote = hooks->promote;
    p->hk.share = hooks->share;
    p->hk.load = hooks->load;
    p->hk.issue = hooks->issue;
    p->hk.warp_end = hooks->warp_end;
    p->hk.decode = hooks->decode;
    p->hk.gate = hooks->gate;
  }
  p->n_buf = params->max_ctas + 1;
  p->buf = calloc((size_t)p->n_buf, sizeof *p->buf);
  p->cta = calloc((size_t)p->n_buf, sizeof *p->cta);
  p->rec = malloc(sizeof *p->rec);
  if (!p->buf || !p->cta || !p->rec) {
    gpurf_pipeline_free(p);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  }
  for (int k = 0, base = 0; k < GPURF_PIPELINE_CU_COUNT; k++) {
    p->cu_free[k] = params->collectors[k];
    for (int i = base; i < base + params->collectors[k]; i++)
      p->cu_class[k][i >> 6] |= (uint64_t)1 << (i & 63);
    base += params->collectors[k];
  }
  p->n_cu = total;
  for (int k = 0; k < GPURF_PIPELINE_CU_COUNT; k++)
    for (int ops = 0; ops <= GPURF_TRACE_MAX_SRC; ops++) {
      int units = (ops + params->collector_slots - 1) / params->collector_slots;
      units = units < 1 ? 1 : units > params->collectors[k] ? params->collectors[k] : units;
      p->cu_units[k][ops] = (uint8_t)units;
    }
  for (int i = 0; i < total; i++) p->cu_idle[i >> 6] |= (uint64_t)1 << (i & 63);
  for (int i = 0; i < GPURF_PIPELINE_MAX_SCHEDULERS; i++) p->s[i].last = -1;
  p->staged = -1;
  p->res_next = UINT64_MAX;
  p->res_unit = -1;
  p->wake_at = UINT64_MAX;
  for (int u = 0; u < GPURF_PIPELINE_UNIT_COUNT; u++)
    p->head_ready[u] = p->head_seq[u] = UINT64_MAX;
  p->bank_mask = (p->prm.banks & (p->prm.banks - 1)) == 0 ? p->prm.banks - 1 : -1;
  for (int i = 0; i < GPURF_PIPELINE_MAX_WARPS; i++) {
    p->slot_sched[i] = (uint8_t)(i % p->prm.schedulers);
    p->w[i].slot = (uint8_t)i, p->w[i].si = p->slot_sched[i];
  }
  p->st.n_stalls = GPURF_PIPELINE_STALL_BUILTIN;
  for (int i = 0; i < GPURF_PIPELINE_STALL_BUILTIN; i++)
    memcpy(p->st.stall_name[i], stall_names[i], strlen(stall_names[i]) + 1);
  if (table && (rc = bind_energy(ctx, p, table)) != GPURF_OK) {
    gpurf_pipeline_free(p);
    return rc;
  }
  if (p->hk.attach && (rc = p->hk.attach(ctx, p, p->hk.state)) != GPURF_OK) {
    gpurf_pipeline_free(p);
    return rc;
  }
  /* Set once attach is done: until then every hook goes through its call. */
  p->base_map = p->hk.map == b->map;
  p->base_wb = p->hk.writeback == b->writeback;
  p->base_select = p->hk.select == b->select;
  p->base_arb = p->hk.arbitrate == b->arbitrate;
  p->base_bank = p->base_map && p->base_wb;
  p->can_skip = p->base_map && p->base_wb && p->base_select && p->base_arb &&
                p->hk.demote == b->demote && p->hk.promote == b->promote && !p->hk.gate;
  pipe_arb_configure(p);
  /* A technique's map may use any bank the statistics have room for. */
  size_t banks = p->base_map ? (size_t)p->prm.banks : GPURF_PIPELINE_MAX_BANKS;
  /* Twice the reads that can be queued at once (see rq_first), plus a cache
   * line so that the queues' starts do not all fall in one cache set. */
  p->rq_room = (size_t)total * PIPE_MAX_SRC;
  p->rq_stride = 2 * (size_t)p->rq_room + 64 / sizeof(rreq);
  p->rq = calloc(banks * p->rq_stride, sizeof *p->rq);
  if (!p->rq) {
    gpurf_pipeline_free(p);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  }
  for (size_t k = 0; k < banks; k++) p->rq_first[k] = p->rq + k * p->rq_stride;
  *out = p;
  return GPURF_OK;
}

void gpurf_pipeline_free(gpurf_pipeline *p) {
  if (!p) return;
  if (p->buf)
    for (int i = 0; i < p->n_buf; i++)
      free(p->buf[i].code), free(p->buf[i].store), free(p->buf[i].tag), free(p->buf[i].last_use);
  free(p->buf);
  free(p->cta);
  free(p->rec);
  free(p->memo);
  free(p->bmemo_mem);
  pipe_pool_free(p);
  pipe_res_free(p);
  free(p->slot_left);
  free(p->slot_warp);
  free(p->slot_free);
  free(p->rq);
  gpurf_energy_free(p->energy);
  free(p);
}

/* Hands the counts since the last push to the energy engine. */
static void push_energy(gpurf_pipeline *p) {
  if (!p->energy) return;
  for (int b = 0; b < p->prm.banks && p->ev_read >= 0; b++) {
    gpurf_energy_add(p->energy, p->ev_read, b, p->st.bank_reads[b] - p->pushed_reads[b]);
    gpurf_energy_add(p->energy, p->ev_write, b, p->st.bank_writes[b] - p->pushed_writes[b]);
    p->pushed_reads[b] = p->st.bank_reads[b];
    p->pushed_writes[b] = p->st.bank_writes[b];
  }
  const uint64_t crossed = pipe_crossbar(p);
  if (p->ev_xfer >= 0) gpurf_energy_add(p->energy, p->ev_xfer, 0, crossed - p->pushed_xfer);
  if (p->ev_arb >= 0)
    gpurf_energy_add(p->energy, p->ev_arb, 0, p->st.arbiter_decisions - p->pushed_arb);
  /* Every read into a collector crosses the crossbar (see stats_get). */
  if (p->ev_cu >= 0) gpurf_energy_add(p->energy, p->ev_cu, 0, crossed - p->pushed_cu);
  p->pushed_xfer = crossed;
  p->pushed_arb = p->st.arbiter_decisions;
  p->pushed_cu = crossed;
  gpurf_energy_advance(p->energy, p->cycle - p->pushed_cycles);
  p->pushed_cycles = p->cycle;
}

/* Cycles without an issue or a retirement after which the SM is declared
 * stuck (a trace whose barriers cannot all be met). */
static uint64_t stuck_after(const gpurf_pipeline *p) {
  uint64_t m = 100000;
  for (int u = 0; u < GPURF_PIPELINE_UNIT_COUNT; u++) m += 4u * (uint64_t)p->prm.latency[u];
  return m;
}

int gpurf_pipeline_run(gpurf_ctx *ctx, gpurf_pipeline *p, gpurf_trace_reader *r,
                       uint64_t max_cycles) {
  if (!ctx || !p || !r) return GPURF_EINVAL;
  p->ctx = ctx;
  int rc = pipe_feed_open(ctx, p, r);
  uint64_t limit = stuck_after(p), start = p->cycle;
  p->last_progress = p->cycle;
  p->acted = 1;
  while (rc == GPURF_OK) {
    /* Most cycles there is nothing to admit: no call then. */
    if (!pipe_admit_idle(p) && (rc = pipe_feed_admit(ctx, p)) != GPURF_OK) break;
    if (p->n_ctas == 0 && p->staged < 0) break;
    p->feed_due = !pipe_admit_idle(p) || p->n_ctas == 0;
    rc = pipe_run_cycles(ctx, p, limit, start, max_cycles);
  }
  push_energy(p);
  p->reader = NULL;
  return rc;
}

void gpurf_pipeline_reset(gpurf_pipeline *p) {
  if (!p) return;
  int n = p->st.n_stalls;
  char names[GPURF_PIPELINE_MAX_STALLS][24];
  memcpy(names, p->st.stall_name, sizeof names);
  memset(&p->st, 0, sizeof p->st);
  p->st.n_stalls = n;
  memcpy(p->st.stall_name, names, sizeof names);
  memset(p->bank_busy_extra, 0, sizeof p->bank_busy_extra);
  p->reads_uncrossed = 0;
  memset(p->bank_free, 0, sizeof p->bank_free);
  memset(p->share_free, 0, sizeof p->share_free);
  memset(p->pushed_reads, 0, sizeof p->pushed_reads);
  memset(p->pushed_writes, 0, sizeof p->pushed_writes);
  p->pushed_xfer = p->pushed_arb = p->pushed_cu = p->pushed_cycles = 0;
  p->fetch_sum = p->fetch_pen_adj = 0;
  /* Requests still queued are older than any to come by the new clock's
   * ages only by their order: the arbiter compares ages from now on. */
  for (int b = 0; b < GPURF_PIPELINE_MAX_BANKS; b++)
    if (p->rq_n[b] || p->wq_n[b]) p->age_mixed = 1;
  p->seq += p->cycle + 1; /* results dispatched from now on come after */
  p->cycle = 0;
  /* Collectors are looked at again from the new clock, their operands'
   * arrival too. */
  for (int u = 0; u < GPURF_PIPELINE_UNIT_COUNT; u++) {
    p->cu_main[0] |= p->cu_wait[u][0], p->cu_main[1] |= p->cu_wait[u][1];
    p->cu_wait[u][0] = p->cu_wait[u][1] = 0;
    p->n_wait[u] = 0;
  }
  p->wait_units = 0;
  p->wake_at = UINT64_MAX;
  memset(p->stall_since, 0, sizeof p->stall_since);
  p->disp_at = 0;
  pipe_arb_configure(p);
  p->global_free = 0;
  memset(p->unit_free, 0, sizeof p->unit_free);
  memset(p->unit_min, 0, sizeof p->unit_min);
  memset(p->unit_min_at, 0, sizeof p->unit_min_at);
  memset(p->unit_open_at, 0, sizeof p->unit_open_at);
  if (p->energy) gpurf_energy_reset(p->energy);
}

int gpurf_pipeline_stats_get(const gpurf_pipeline *p, gpurf_pipeline_stats *out) {
  if (!p || !out) return GPURF_EINVAL;
  *out = p->st;
  /* Counted where the accesses are made: per bank, and reads into
   * collectors (one crossbar transfer and one collector write each); the
   * totals are sums of these. */
  out->reads = out->writes = 0;
  for (int b = 0; b < GPURF_PIPELINE_MAX_BANKS; b++)
    out->reads += p->st.bank_reads[b], out->writes += p->st.bank_writes[b];
  out->crossbar_transfers = out->collector_accesses = pipe_crossbar(p);
  for (int u = 0; u < GPURF_PIPELINE_UNIT_COUNT; u++)
    out->dispatch_stalls[u] += (uint64_t)p->n_wait[u] * (p->cycle - p->stall_since[u]);
  out->cycles = p->cycle;
  out->banks = p->prm.banks;
  out->ipc = p->cycle ? (double)p->st.warp_instructions / (double)p->cycle : 0.0;
  for (int b = 0; b < p->prm.banks; b++)
    out->bank_utilisation[b] = p->cycle ? (double)pipe_bank_busy(p, b) / (double)p->cycle : 0.0;
  if (p->st.fetch_instructions) {
    out->operand_fetch_cycles = (double)p->fetch_sum / (double)p->st.fetch_instructions;
    out->operand_fetch_penalty =
        (double)pipe_fetch_penalty_sum(p) / (double)p->st.fetch_instructions;
  }
  return GPURF_OK;
}

gpurf_energy *gpurf_pipeline_energy(gpurf_pipeline *p) { return p ? p->energy : NULL; }
const gpurf_pipeline_params *gpurf_pipeline_get_params(const gpurf_pipeline *p) {
  return p ? &p->prm : NULL;
}
uint64_t gpurf_pipeline_cycle(const gpurf_pipeline *p) { return p ? p->cycle : 0; }

int gpurf_pipeline_extend(gpurf_pipeline *p, int read_cycles, int result_cycles) {
  if (!p || read_cycles < 0 || result_cycles < 0 || read_cycles > 64 || result_cycles > 64)
    return GPURF_EINVAL;
  /* (Instructions fetched so far were charged the read cycles before.) */
  p->fetch_pen_adj += p->st.fetch_instructions * (uint64_t)read_cycles;
  p->prm.read_cycles += read_cycles;
  for (int u = 0; u < GPURF_PIPELINE_UNIT_COUNT; u++) p->prm.latency[u] += result_cycles;
  return GPURF_OK;
}

int gpurf_pipeline_last_use(const gpurf_pipeline *p, int wslot, int reg) {
  if (!p || wslot < 0 || wslot >= GPURF_PIPELINE_MAX_WARPS || !p->w[wslot].live ||
      p->w[wslot].pc == 0)
    return -1;
  const warp *w = &p->w[wslot];
  const ctabuf *b = &p->buf[w->cta];
  if (!b->last_use) return -1;
  size_t at = (size_t)w->start + w->pc - 1;
  const cinst *in = w->code[w->pc - 1];
  for (int i = 0; i < in->n_src; i++)
    if (in->src[i] == reg) return b->last_use[at] >> i & 1;
  return -1;
}

int gpurf_pipeline_long_pending(const gpurf_pipeline *p, int wslot, int reg) {
  if (!p || wslot < 0 || wslot >= GPURF_PIPELINE_MAX_WARPS || reg < 0 ||
      reg >= GPURF_TRACE_NUM_REGS)
    return 0;
  return pipe_sb_hit(p->w[wslot].sb_long, reg);
}

int gpurf_pipeline_add_stall(gpurf_ctx *ctx, gpurf_pipeline *p, const char *name, int *id) {
  if (!ctx || !p || !name || !id) return GPURF_EINVAL;
  if (p->st.n_stalls >= GPURF_PIPELINE_MAX_STALLS || strlen(name) >= sizeof p->st.stall_name[0])
    return gpurf_fail(ctx, GPURF_ERANGE, "stall reason '%s': too many reasons or too long a name",
                      name);
  *id = p->st.n_stalls++;
  memcpy(p->st.stall_name[*id], name, strlen(name) + 1);
  return GPURF_OK;
}

void gpurf_pipeline_count_stall(gpurf_pipeline *p, int id, uint64_t n) {
  if (p && id >= 0 && id < p->st.n_stalls) p->st.stalls[id] += n;
}

int gpurf_pipeline_warp_next(const gpurf_pipeline *p, int wslot, int *cta, uint32_t *index) {
  if (!p || wslot < 0 || wslot >= GPURF_PIPELINE_MAX_WARPS) return GPURF_EINVAL;
  const warp *w = &p->w[wslot];
  if (!w->live || w->pc >= w->n) return GPURF_ENOTFOUND;
  *cta = w->cta;
  *index = w->start + w->pc;
  return GPURF_OK;
}

int gpurf_pipeline_inst_get(const gpurf_pipeline *p, int cta, uint32_t index,
                            gpurf_pipeline_buffered_inst *out) {
  if (!p || cta < 0 || cta >= p->n_buf || index >= p->buf[cta].n) return GPURF_EINVAL;
  /* Found through the warp it belongs to: warps may share pointers (ctabuf). */
  const ctabuf *b = &p->buf[cta];
  uint32_t k = 0;
  while (k + 1 < b->n_warps && b->warp_start[k + 1] <= index) k++;
  const cinst *c = b->code[b->code_at[k] + (index - b->warp_start[k])];
  out->n_src = c->n_src;
  out->n_dst = c->n_dst;
  memcpy(out->src, c->src, sizeof out->src);
  memcpy(out->dst, c->dst, sizeof out->dst);
  out->unit = (gpurf_pipeline_unit)c->unit;
  return GPURF_OK;
}

int gpurf_pipeline_cta_shape(const gpurf_pipeline *p, int cta, int *regs_per_thread, int *warps) {
  if (!p || cta < 0 || cta >= p->n_buf) return GPURF_EINVAL;
  *regs_per_thread = (int)p->buf[cta].regs_per_thread;
  *warps = (int)p->buf[cta].n_warps;
  return GPURF_OK;
}

void gpurf_pipeline_energy_sync(gpurf_pipeline *p) {
  if (p) push_energy(p);
}
