/* Compiler spilling to fit a smaller register file, the baseline GPU-shrink
 * is compared with (Jeon et al. Sec. 9.2: kernels recompiled to use half
 * the registers). Modelled at the uses: with rf_regs registers for the
 * warps resident at the kernel's start, each thread keeps
 * rf_regs / threads of its registers; a read of one above that limit is a
 * fill from local memory (the warp waits a global-memory latency and the
 * value is written into the register file), a write of one is a spill
 * store. Each fill or spill moves one 128-byte warp register. */
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "pipeline/tech/technique_internal.h"

#define SP_WARP_REG_BYTES 128

typedef struct sp_state {
  long long rf_regs; /* option: 32-bit registers the kernel is compiled for; 0: the SM's */
  int limit;         /* registers per thread kept; -1 until the first issue */
  gpurf_pipeline_params prm;
  uint64_t fill_until[GPURF_PIPELINE_MAX_WARPS];
  int filled_cta[GPURF_PIPELINE_MAX_WARPS];
  uint32_t filled_index[GPURF_PIPELINE_MAX_WARPS];
  uint64_t fills, spills, writes_dropped;
} sp_state;

static int sp_create(gpurf_ctx *ctx, void **out) {
  sp_state *s = calloc(1, sizeof *s);
  if (!s) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  s->limit = -1;
  *out = s;
  return GPURF_OK;
}

static int sp_set(gpurf_ctx *ctx, void *state, const char *key, const char *value) {
  sp_state *s = state;
  if (strcmp(key, "rf_regs"))
    return gpurf_fail_at(ctx, GPURF_ENOTFOUND, NULL, 0, 0, key,
                         "spill has no option '%s' (rf_regs)", key);
  char *end;
  long long v = strtoll(value, &end, 10);
  if (!*value || *end || v < 0 || v > (1LL << 30))
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, key,
                         "rf_regs must be an integer in 0..%lld", 1LL << 30);
  s->rf_regs = v;
  return GPURF_OK;
}

static int sp_attach(gpurf_ctx *ctx, gpurf_pipeline *p, void *state) {
  (void)ctx;
  sp_state *s = state;
  s->prm = *gpurf_pipeline_get_params(p);
  if (!s->rf_regs) s->rf_regs = s->prm.registers;
  for (int w = 0; w < GPURF_PIPELINE_MAX_WARPS; w++) s->filled_cta[w] = -1;
  return GPURF_OK;
}

/* The compiler's limit, from the warps resident when the kernel starts. */
static void set_limit(sp_state *s, gpurf_pipeline *p) {
  if (s->limit >= 0) return;
  int warps = 0, c;
  uint32_t i;
  for (int w = 0; w < GPURF_PIPELINE_MAX_WARPS; w++)
    warps += gpurf_pipeline_warp_next(p, w, &c, &i) == GPURF_OK;
  long long per = warps ? s->rf_regs / ((long long)warps * s->prm.warp_size) : 255;
  s->limit = per > 255 ? 255 : (int)per;
}

/* 1 when w may issue; a read of a spilled register starts its fill. */
static int may_issue(sp_state *s, gpurf_pipeline *p, int w, uint64_t now) {
  int cta;
  uint32_t index;
  if (w < 0 || gpurf_pipeline_warp_next(p, w, &cta, &index) != GPURF_OK) return 0;
  if (s->fill_until[w] > now) return 0;
  if (s->filled_cta[w] == cta && s->filled_index[w] == index) return 1;
  gpurf_pipeline_buffered_inst in;
  if (gpurf_pipeline_inst_get(p, cta, index, &in) != GPURF_OK) return 0;
  int n = 0;
  for (int k = 0; k < in.n_src; k++)
    if (in.src[k] >= s->limit) {
      n++;
      if (gpurf_pipeline_force_write(p, w, in.src[k]) != GPURF_OK) s->writes_dropped++;
    }
  if (n == 0) return 1;
  s->fills += (uint64_t)n;
  s->fill_until[w] = now + (uint64_t)s->prm.latency[GPURF_PIPELINE_UNIT_GLOBAL];
  s->filled_cta[w] = cta, s->filled_index[w] = index;
  return 0;
}

static int sp_select(void *state, gpurf_pipeline *p, const gpurf_pipeline_select *sel) {
  sp_state *s = state;
  uint64_t now = gpurf_pipeline_cycle(p);
  set_limit(s, p);
  if (sel->candidate >= 0 && may_issue(s, p, sel->candidate, now)) return sel->candidate;
  if (sel->lookahead >= 0 && may_issue(s, p, sel->lookahead, now)) return sel->lookahead;
  for (int w = sel->scheduler; w < GPURF_PIPELINE_MAX_WARPS; w += s->prm.schedulers)
    if (w != sel->candidate && w != sel->lookahead && gpurf_pipeline_can_issue(p, w) &&
        may_issue(s, p, w, now))
      return w;
  return -1;
}

static void sp_issue(void *state, gpurf_pipeline *p, int w, int cta, uint32_t index) {
  sp_state *s = state;
  gpurf_pipeline_buffered_inst in;
  if (gpurf_pipeline_inst_get(p, cta, index, &in) != GPURF_OK) return;
  for (int k = 0; k < in.n_dst; k++) s->spills += in.dst[k] >= s->limit;
  s->filled_cta[w] = -1;
}

static void sp_hooks(void *state, gpurf_pipeline_hooks *out) {
  (void)state;
  memset(out, 0, sizeof *out);
  out->attach = sp_attach;
  out->select = sp_select;
  out->issue = sp_issue;
}

static void sp_counters(const void *state, gpurf_technique_counters *out) {
  const sp_state *s = state;
  gpurf_technique_counter_add(out, "regs_per_thread_kept", s->limit);
  gpurf_technique_counter_add(out, "fills", (double)s->fills);
  gpurf_technique_counter_add(out, "spills", (double)s->spills);
  gpurf_technique_counter_add(out, "spill_fill_bytes",
                              (double)(s->fills + s->spills) * SP_WARP_REG_BYTES);
  gpurf_technique_counter_add(out, "fill_writes_dropped", (double)s->writes_dropped);
}

static void sp_destroy(void *state) { free(state); }

const gpurf_technique_def gpurf_technique_spill = {
    "spill",
    "compiler spilling to fit a smaller register file (Jeon et al.'s baseline): fills at the "
    "reads and spills at the writes of the registers over the limit",
    sp_create,
    sp_set,
    sp_hooks,
    sp_counters,
    sp_destroy};
