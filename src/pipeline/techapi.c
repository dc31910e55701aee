/* What a technique may look at and do besides its hooks: a warp's next
 * instruction, collectors and banks as the arbiter will find them, and
 * accesses of its own to idle banks. Read-only views of the SM, except
 * gpurf_pipeline_bank_access. */
#include "pipeline/pipe_internal.h"

int gpurf_pipeline_next_inst(const gpurf_pipeline *p, int slot, gpurf_pipeline_inst *out) {
  if (!p || !out || slot < 0 || slot >= GPURF_PIPELINE_MAX_WARPS) return GPURF_EINVAL;
  const warp *w = &p->w[slot];
  if (!w->live || w->pc >= w->n) return GPURF_ENOTFOUND;
  const cinst *in = w->code[w->pc];
  out->gwarp = w->gid;
  out->n_src = in->n_src;
  out->n_dst = in->n_dst;
  for (int i = 0; i < in->n_src; i++) out->src[i] = in->src[i];
  for (int i = 0; i < in->n_dst; i++) out->dst[i] = in->dst[i];
  out->collector_class = in->cu;
  out->collector_units = in->n_cu;
  return GPURF_OK;
}

int gpurf_pipeline_warp_id(const gpurf_pipeline *p, int slot, uint32_t *gwarp) {
  if (!p || !gwarp || slot < 0 || slot >= GPURF_PIPELINE_MAX_WARPS) return GPURF_EINVAL;
  if (!p->w[slot].live) return GPURF_ENOTFOUND;
  *gwarp = p->w[slot].gid;
  return GPURF_OK;
}

int gpurf_pipeline_collectors_free(const gpurf_pipeline *p, int cu_class) {
  if (!p || cu_class < 0 || cu_class >= GPURF_PIPELINE_CU_COUNT) return 0;
  return p->cu_free[cu_class];
}

int gpurf_pipeline_bank_get(const gpurf_pipeline *p, int bank, gpurf_pipeline_bank_state *out) {
  if (!p || !out || bank < 0 || bank >= p->prm.banks) return GPURF_EINVAL;
  out->reads = p->rq_n[bank];
  out->writes = p->wq_n[bank];
  out->free_at = p->bank_free[bank];
  return GPURF_OK;
}

/* Accounted as the arbiter accounts a grant: the bank's read or write
 * counter (so the energy engine charges it), its busy cycles and the
 * holder that requests waiting on it lose to. */
int gpurf_pipeline_bank_access(gpurf_pipeline *p, int bank, int is_write) {
  if (!p || bank < 0 || bank >= p->prm.banks) return GPURF_EINVAL;
  if (p->bank_free[bank] > p->cycle) return GPURF_ERANGE;
  int busy = is_write ? p->prm.bank_write_cycles : p->prm.bank_read_cycles;
  p->bank_busy_extra[bank] += (uint64_t)busy - 1;
  p->bank_free[bank] = p->cycle + (uint64_t)busy;
  p->holder_write[bank] = is_write != 0;
  p->holder_cu[bank] = -1;
  if (is_write)
    p->st.bank_writes[bank]++;
  else
    p->st.bank_reads[bank]++, p->reads_uncrossed++;
  return GPURF_OK;
}
