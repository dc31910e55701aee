/* The SM's state, shared by the pipeline's files. */
#ifndef GPURF_PIPE_INTERNAL_H
#define GPURF_PIPE_INTERNAL_H

#include <stdint.h>

#include "gpurf/pipeline.h"

#define PIPE_MAX_SRC 16 /* distinct source registers of one instruction */
#define PIPE_MAX_DST 8
#define PIPE_WQ_CAP 16 /* writes queued per bank; a full queue holds the result bus */
#define PIPE_MAX_CU (GPURF_PIPELINE_CU_COUNT * GPURF_PIPELINE_MAX_COLLECTORS)
#define PIPE_RQ_CAP (PIPE_MAX_CU * PIPE_MAX_SRC)
#define PIPE_ARR_RING 64 /* cycles of operand arrivals kept by cycle (core.c) */

#if defined(__GNUC__)
#define PIPE_NOINLINE __attribute__((noinline))
#else
#define PIPE_NOINLINE
#endif

#define CI_BARRIER 0x01u /* a CTA barrier */
#define CI_LONG 0x02u    /* long-latency result (global memory) */
#define CI_LOW_REGS 0x04u /* every register it reads or writes is below 64 */

/* An instruction as the pipeline needs it: 40 bytes. */
typedef struct cinst {
  /* Its registers, sources and destinations, as bits modulo 64: a
   * register awaiting a write has its bit in the scoreboard's words ORed
   * together, so when the AND of the two is empty none of them waits. */
  uint64_t regs;
  uint8_t unit, cu, n_src, n_dst;
  uint8_t n_cu; /* collector units it takes: one per collector_slots source operands */
  uint8_t flags;
  uint16_t bytes; /* global memory traffic */
  uint8_t src[PIPE_MAX_SRC];
  uint8_t dst[PIPE_MAX_DST];
} cinst;

/* A record's compact form is a function of its class, latency and register
 * operands (and, for a barrier, its opcode); the warps of a kernel run the
 * same code, so the form last made at a pc is kept for the next warp there.
 * Slots by pc (instructions 8 bytes apart fill them in turn). */
#define PIPE_MEMO_BITS 14
typedef struct cmemo {
  uint64_t pc;
  uint8_t valid, cls, lat, n_src, n_dst, max_reg;
  gpurf_trace_operand src[GPURF_TRACE_MAX_SRC], dst[GPURF_TRACE_MAX_DST];
  cinst c; /* bytes not kept: it depends on the record's mask */
} cmemo;

/* Read in brief (codepool.c), the compact forms of each of the reader's shapes,
 * one cache line each (a record reads its shape's and no other): the stamp
 * of the shape they were made from (0: none), the bytes per active lane of
 * its global traffic (0: not global memory), its highest register. The
 * forms live in the pool (pool_chunk) and CTAs point at them; a global
 * memory instruction's traffic depends on its lanes, so it has a form per
 * lane count, the last few used kept here (lanes[i] of c[i]). */
#define PIPE_LANE_FORMS 5
typedef struct bmemo {
  uint64_t stamp;
  const cinst *c[PIPE_LANE_FORMS]; /* c[0] only unless global memory */
  uint8_t lanes[PIPE_LANE_FORMS];
  uint8_t n_forms, lane_bytes, max_reg;
  uint8_t pad_[64 - sizeof(uint64_t) - PIPE_LANE_FORMS * (sizeof(cinst *) + 1) - 3];
} bmemo;
_Static_assert(sizeof(bmemo) == 64, "a shape's compact forms are one cache line");
/* What a record reads of its shape's memo, four to a cache line: the stamp
 * and bmemo.c[0], its bit 0 set when the form depends on the lanes (global
 * memory: bmemo is looked at, unless bit 1 tells that c[0] is the form of
 * a full warp and the record's mask is full). Kept by codepool.c beside bmemo, so that the
 * records of a kernel of many instructions stream a quarter of the bytes
 * through the cache. */
typedef struct bhot {
  uint64_t stamp;
  uintptr_t form;
} bhot;

/* Compact forms made from shapes read in brief, shared by every CTA whose
 * code points at them and never changed or moved while one does (codepool.c).
 * Made in generations: when one has PIPE_POOL_GEN forms (or a new reader
 * starts), the memo forgets them all and a new generation begins; chunks of
 * generations no buffered CTA spans are then given back. */
#define PIPE_POOL_CHUNK 4096u
#define PIPE_POOL_GEN (8u * PIPE_POOL_CHUNK)
typedef struct pool_chunk {
  struct pool_chunk *next;
  uint32_t gen, n;
  cinst c[PIPE_POOL_CHUNK];
} pool_chunk;

/* Records read in brief at a time (feed.c). */
#define PIPE_BATCH 256

/* A CTA's instructions, warp after warp: a pointer to each one's compact
 * form, in the pool when read in brief (8 bytes a record, where a copy of
 * the form would be 40), else in store, the CTA's own. Read in brief, a
 * warp whose forms are those of the warp before (its first ones, as many
 * as it has) takes that warp's pointers and stores none: a kernel's warps
 * mostly run the same code. */
typedef struct ctabuf {
  const cinst **code;
  uint32_t n_code;                            /* pointers in code */
  uint32_t code_at[GPURF_PIPELINE_MAX_WARPS]; /* each warp's first in code */
  cinst *store; /* records read whole: code[i] is &store[i] */
  /* Beside code, only for techniques with a map hook: bit i set when
   * src[i] is the last read of that register by its warp (the trace's
   * hint where the record has one, else the warp's own later accesses). */
  uint32_t *last_use; /* bit 31: the trace's hint */
  uint32_t n, cap, cap_store, cap_hint; /* n records; room for cap pointers */
  /* The pool generations code points into: gen_lo .. gen_hi, none when
   * gen_lo > gen_hi; gen_hi is UINT32_MAX while the CTA is read. */
  uint32_t gen_lo, gen_hi;
  uint32_t n_warps;
  uint32_t warp_start[GPURF_PIPELINE_MAX_WARPS + 1];
  uint32_t kernel;
  uint32_t regs_per_thread, threads, shmem;
  int used;     /* resident or staged */
  uint64_t *tag; /* decode() tags beside code, when the hook is set */
} ctabuf;

typedef struct warp {
  /* The fields the scheduler scans every cycle come first (one cache line).
   * why: why the warp cannot issue, while nothing it depends on has changed
   * (scoreboard, buffer, barrier); -1 unknown. Collector shortage is never
   * kept: it changes with other warps. */
  int why, why_reg;
  /* Collector class and units of the instruction at pc, kept while why is
   * "scoreboard passed": the scheduler's scan then reads no code. */
  uint8_t next_cu, next_ncu;
  uint8_t slot, si; /* its own index and its scheduler's, fixed */
  uint64_t age;
  int live; /* resident and not finished */
  int cta;  /* index of its ctabuf */
  const cinst *const *code; /* its records' compact forms: within its ctabuf's code */
  uint32_t n, pc, ib; /* pc: next to issue; ib: fetched, not issued */
  uint32_t in_flight;
  uint32_t gid; /* global warp number, for hooks */
  int at_barrier;
  uint64_t sb[4];      /* registers awaiting a write */
  uint64_t sb_long[4]; /* of which from long-latency instructions */
  const uint64_t *tag; /* decode() tags of code[], or NULL */
  uint64_t hold_until; /* a replayed instruction waits until this cycle */
  uint32_t start; /* its first record's index in its ctabuf (as hooks name records) */
} warp;

typedef struct cu {
  /* What read grants and dispatch touch first: the rest is set at issue. */
  uint64_t ready; /* ready and unit: all dispatch reads of a collector that waits */
  uint64_t issue;
  const cinst *in;
  int unit; /* of its instruction */
  int warp;
  int pending; /* reads not yet granted */
  int n_reads;
  int lat_adj; /* the gate() hook's latency adjustment, 0 without one */
  int n_extra; /* further units held by a wide instruction */
  int16_t extra[PIPE_MAX_SRC];
  /* To 128 bytes: a collector's address is then its index shifted, which
   * the cycle loop computes at every grant and dispatch. */
  uint8_t pad_to_128[128 - 80];
} cu;
_Static_assert(sizeof(cu) == 128, "a collector is 128 bytes");

/* A queued operand read, four bytes: its age is its collector's issue cycle
 * (pipe_rq_age), as reads are queued only when their instruction issues and
 * the collector is held until every read is granted. */
typedef struct rreq {
  int16_t cu;
  uint8_t reg, warp;
} rreq;

typedef struct wreq {
  uint8_t reg, warp;
  int32_t slot; /* retirement slot */
  uint64_t age;
} wreq;

typedef struct result {
  uint64_t ready, seq;
  int warp;
  const cinst *in;
} result;

/* A ring of one unit's results in execution, oldest first (results.c). */
typedef struct rfifo {
  result *r;
  size_t head, n, cap; /* cap: 0 or a power of two */
} rfifo;

typedef struct sched {
  int n, list[GPURF_PIPELINE_MAX_WARPS]; /* warp slots by age */
  int last;                              /* last issued warp, -1 */
  int n_active, active[GPURF_PIPELINE_MAX_WARPS];
  int n_pending, pending[GPURF_PIPELINE_MAX_WARPS];
  int pending_at; /* two-level's pending queue starts at pending + pending_at */
  uint64_t members; /* its warp slots (the verdicts' sets are warp_sets) */
  /* GTO on the baseline's path (sched.c): the bit of the warp issued last
   * (last), 0 when none, for a test of it against the ready set. */
  uint64_t last_bit;
  /* Two-level (sched.c): the active set as a bitmask beside its list, and
   * where in the list the warp issued last was (checked before use). */
  uint64_t active_mask;
  int last_at;
  /* The warps' ages grow with their slots (sched.c): the oldest of a set of
   * them is then its lowest bit. */
  int age_by_slot;
} sched;

/* The warps' verdicts (warp.why) as sets of slots, for all schedulers at
 * once: a scheduler's are these ANDed with its members, so the schedulers
 * of one cycle share one look at them (sched.c). */
typedef struct warp_sets {
  /* Warps whose stall reason is known until something of theirs changes,
   * and the warps holding each reason: the scan skips them. */
  uint64_t closed;
  uint64_t members; /* the live warps: every scheduler's members */
  /* Warps past the scoreboard (why == WHY_SB_PASSED) by the collector
   * class of their next instruction, and those of them that need more than
   * one unit: whether they can issue is a test of the free count alone, so
   * the scan takes them a class at a time. */
  uint64_t passed[GPURF_PIPELINE_CU_COUNT], wide;
  uint64_t held_by[GPURF_PIPELINE_STALL_BUILTIN];
  /* Two-level: the active warps whose held reason has been looked at
   * (valid while the reason is: the scheduler clears the bit when it
   * records one), and of them those it demotes (leaves; a bit counts only
   * beside its stay bit). */
  uint64_t stay, leaves;
} warp_sets;

typedef struct cta_state {
  int live_warps, arrived;
  int first_warp_slot[GPURF_PIPELINE_MAX_WARPS];
} cta_state;

/* The counters a quiet cycle adds to (idle.c): stall reasons and the
 * conflicts of requests waiting on a busy bank. (Dispatch stalls are
 * counted by the cycle already: see stall_since.) */
/* One cycle's issue, all schedulers (sched.c). */
typedef void pipe_issue_fn(gpurf_pipeline *p);

typedef struct pipe_quiet {
  uint64_t stalls[GPURF_PIPELINE_MAX_STALLS];
  uint64_t inter_read, inter_write, intra;
} pipe_quiet;

struct gpurf_pipeline {
  gpurf_ctx *ctx;
  gpurf_pipeline_params prm;
  gpurf_pipeline_hooks hk;
  /* Hook points left at the baseline: the core does their work inline,
   * without the indirect call and the request table they would need. */
  int base_map, base_wb, base_select, base_arb;
  int base_bank; /* base_map and base_wb: a result's bank is pipe_base_bank */
  /* Every hook is the baseline's: a cycle in which nothing moved repeats
   * until the next event, and runs of such cycles are skipped. acted: the
   * cycle moved something (a result, a grant, a dispatch, an issue, a fetch,
   * a warp between the two-level sets). */
  int can_skip, acted;
  /* banks - 1 when banks is a power of two (the bank is then a mask, not a
   * division), else -1; and the scheduler of each warp slot. */
  int bank_mask;
  /* Collector units an instruction of each class takes for 0 ..
   * GPURF_TRACE_MAX_SRC source operands (compaction reads it). */
  uint8_t cu_units[GPURF_PIPELINE_CU_COUNT][GPURF_TRACE_MAX_SRC + 1];
  uint8_t slot_sched[GPURF_PIPELINE_MAX_WARPS];
  gpurf_energy *energy;
  int ev_read, ev_write, ev_xfer, ev_arb, ev_cu;
  uint64_t pushed_reads[GPURF_PIPELINE_MAX_BANKS], pushed_writes[GPURF_PIPELINE_MAX_BANKS];
  uint64_t pushed_xfer, pushed_arb, pushed_cu, pushed_cycles;

  uint64_t cycle;
  /* seq: cycles the clock ran before it was last set back; a result's seq
   * is its dispatch cycle from there and its collector (see dispatch). */
  uint64_t seq, next_age, last_progress;
  /* resources */
  int n_ctas, n_warps, threads;
  long long regs, shmem;
  uint32_t kernel_now;
  int have_kernel;
  /* trace feed */
  gpurf_trace_reader *reader;
  gpurf_trace_inst *rec; /* record read ahead */
  int rec_valid, trace_done;
  uint32_t rec_kernel, rec_cta[3];
  cmemo *memo; /* 1 << PIPE_MEMO_BITS compacted records (feed.c); NULL until needed */
  /* Without a technique that sees records, the trace is read in brief: a
   * batch of one warp's records (bat_where), bat_i the next to load;
   * rec_valid while one is left. */
  int brief, memo_stamped; /* memo_stamped: a stamp in memo (clear before the next reader) */
  uint32_t bat_n, bat_i;
  gpurf_trace_where bat_where;
  gpurf_trace_brief bat[PIPE_BATCH];
  int staged; /* ctabuf index of the next CTA, -1 */
  int freed;  /* a CTA left since the staged one last failed to fit */
  int n_buf;
  ctabuf *buf;
  cta_state *cta;
  uint32_t next_gwarp;
  uint64_t buffered;
  /* Feeding (feed.c). cta_room: the pointers of the CTA loaded last, the
   * room a buffer takes before it is filled (growing it on the way copies).
   * feed_due: the cycle loop is to return to the feed, as it is when
   * pipe_admit_idle() no longer holds or no CTA is resident: one flag to
   * test a cycle. Set before the cycles run (gpurf_pipeline_run) and when
   * a CTA leaves (pipe_cta_warp_done), the only change in between. */
  uint32_t cta_room;
  int feed_due;
  bmemo *bmemo; /* 1 << PIPE_MEMO_BITS, on a 64-byte boundary (in bmemo_mem); NULL until needed */
  bhot *bhot;   /* as many, after them */
  void *bmemo_mem;
  /* The forms bmemo points at (codepool.c): chunks newest first, the current
   * generation and its forms, and chunks given back for reuse. */
  pool_chunk *pool, *pool_spare;
  uint32_t pool_gen, pool_gen_n;

  warp w[GPURF_PIPELINE_MAX_WARPS];
  sched s[GPURF_PIPELINE_MAX_SCHEDULERS];
  uint64_t want_fetch; /* warps whose instruction buffer has room */
  int n_cu;
  cu c[PIPE_MAX_CU];
  int cu_free[GPURF_PIPELINE_CU_COUNT];
  uint64_t cu_idle[2];                            /* collector units not taken, by index */
  uint64_t cu_class[GPURF_PIPELINE_CU_COUNT][2]; /* the units of each class */
  uint64_t bank_req;   /* banks with a queued request */
  /* Main collector units whose reads have all been granted, until their
   * operands arrive (then they wait in cu_wait for their unit); with plain
   * arbitration only those issued without reads (the others are in arr). */
  uint64_t cu_main[2];
  /* No collector of cu_main has its operands before this cycle: all wait
   * for operands in flight, and dispatch has none to move to cu_wait. */
  uint64_t disp_at;
  int rq_n[GPURF_PIPELINE_MAX_BANKS];
  /* Read queues, rq_stride entries per bank: room for every read of every
   * collector, plus a cache line so that the queues' heads do not all fall
   * in one cache set. */
  rreq *rq;
  size_t rq_stride;
  int wq_n[GPURF_PIPELINE_MAX_BANKS];
  wreq wq[GPURF_PIPELINE_MAX_BANKS][PIPE_WQ_CAP];
  uint64_t unit_free[GPURF_PIPELINE_UNIT_COUNT][16];
  /* Earliest unit_free of each unit's pipelines: a collector waiting on a
   * busy unit is turned away without scanning them. */
  uint64_t unit_min[GPURF_PIPELINE_UNIT_COUNT];
  /* A pipeline whose unit_free is unit_min: pipelines of a kind are alike,
   * so a collector takes this one whenever any is free. */
  int unit_min_at[GPURF_PIPELINE_UNIT_COUNT];
  double global_free;
  /* results in execution, per unit in (ready, seq) order */
  rfifo res[GPURF_PIPELINE_UNIT_COUNT];
  /* Earliest ready of the heads (UINT64_MAX when none): most cycles no
   * result is due, and writeback sees it from this alone. */
  uint64_t res_next;
  int res_unit; /* the unit whose head is the first result, -1 when none */
  /* (ready, seq) of each unit's head, UINT64_MAX for an empty unit: the
   * merge compares these without going to the rings. */
  uint64_t head_ready[GPURF_PIPELINE_UNIT_COUNT], head_seq[GPURF_PIPELINE_UNIT_COUNT];
  /* retirement slots: writes still to do per instruction */
  int32_t *slot_left, *slot_warp;
  int32_t *slot_free;
  size_t n_slot, slot_cap, n_slot_free;

  /* The counters; crossbar transfers, busy cycles and the operand fetch
   * penalty are derived from them where they are read (pipe_crossbar,
   * pipe_bank_busy, pipe_fetch_penalty_sum), which spares the cycle loop
   * adding them up as it goes. */
  gpurf_pipeline_stats st;
  /* A bank's busy cycles beyond one per access counted in st.bank_reads
   * and st.bank_writes (the baseline's accesses take one cycle each): a
   * slow access adds its other cycles, a read granted beside a held write,
   * which takes none of its own, -1 (modulo 2^64). */
  uint64_t bank_busy_extra[GPURF_PIPELINE_MAX_BANKS];
  /* Reads a technique made itself (gpurf_pipeline_bank_access), which do
   * not cross to a collector. */
  uint64_t reads_uncrossed;
  /* Multi-cycle bank accesses (slow STT-RAM writes): the bank is taken
   * until bank_free; a write completes at the end of its access. */
  uint64_t bank_free[GPURF_PIPELINE_MAX_BANKS];
  int holder_write[GPURF_PIPELINE_MAX_BANKS], holder_cu[GPURF_PIPELINE_MAX_BANKS];
  uint64_t wpend_mask;
  wreq wpend[GPURF_PIPELINE_MAX_BANKS];
  /* A read granted beside a held write (the share hook) is in its bank
   * until share_free. */
  uint64_t share_free[GPURF_PIPELINE_MAX_BANKS];
  /* Operand fetch cycles of the collectors with reads, and those beyond a
   * conflict-free fetch: whole cycles, summed as integers (exact, as the
   * doubles they are read out as would be). */
  uint64_t fetch_sum;
  /* The penalty's sum is fetch_sum less 1 + read_cycles per instruction;
   * read_cycles grown by gpurf_pipeline_extend adds back what the
   * instructions before it were not charged. */
  uint64_t fetch_pen_adj;

  /* ---- The cycle loop's own bookkeeping (core.c, arbiter.c) ---- */
  /* Read queue b's first entry, within its stride of rq: granting the
   * oldest read advances it instead of moving the others. When it is more
   * than rq_room past the start, the entries move back to the start (the
   * stride has room for twice the reads that can be queued at once). */
  rreq *rq_first[GPURF_PIPELINE_MAX_BANKS];
  size_t rq_room;
  /* Write queue b is a ring of PIPE_WQ_CAP entries from wq_head[b]. */
  uint8_t wq_head[GPURF_PIPELINE_MAX_BANKS];
  /* Queued requests are oldest first: requests join at the back with the
   * current cycle. Only gpurf_pipeline_reset, setting the clock back with
   * requests queued, breaks it; the arbiter then looks at every age. */
  int age_mixed;
  /* Collectors of cu_main whose operands have arrived, by unit, waiting for
   * a free pipeline; wait_units: the units with any, n_wait: how many. */
  uint64_t cu_wait[GPURF_PIPELINE_UNIT_COUNT][2];
  int n_wait[GPURF_PIPELINE_UNIT_COUNT];
  unsigned wait_units;
  /* The first unit_open_at of the units with waiting collectors: before it
   * dispatch has none to look at. */
  uint64_t wake_at;
  /* Each cycle, a unit's waiting collectors left after dispatch stall: from
   * stall_since[u] on, n_wait[u] a cycle, not yet in st.dispatch_stalls.
   * They are added when the wait set changes, and read out beside it. */
  uint64_t stall_since[GPURF_PIPELINE_UNIT_COUNT];
  /* The first cycle in which unit u can take an instruction: unit_min, and
   * for global memory not before global_free either. */
  uint64_t unit_open_at[GPURF_PIPELINE_UNIT_COUNT];
  /* The ready of the last result a unit took: one not before it goes last. */
  uint64_t res_last[GPURF_PIPELINE_UNIT_COUNT];
  /* Arbitration is the baseline's over banks busy one cycle per access,
   * queues oldest first and no reads beside writes: the arbiter's plain
   * loop. wb_direct: besides, no hook learns of a warp's end, so a result
   * whose bank has nothing queued is written at once (see writeback). */
  int arb_plain, wb_direct;
  /* A warp finished this cycle (pipe_cta_warp_done): only then can the run
   * loop's reason to stop (a CTA to admit, or none left) have changed. */
  int warp_finished;
  /* The first cycle at which the run loop looks again at whether to stop:
   * no earlier than the stuck limit from the progress last seen (progress
   * only moves it later) and max_cycles; 0 once a warp finished. */
  uint64_t check_at;
  /* Warp slots below the one fetched last: fetch goes on from the next. */
  uint64_t fetch_done;
  pipe_quiet quiet; /* the counters before a quiet cycle (idle.c) */
  /* ---- Operand arrivals by cycle (core.c, arbiter.c, idle.c) ---- */
  /* With plain arbitration a collector's operands arrive read_cycles after
   * its last grant, so the collectors whose operands arrive in cycle t are
   * kept in arr[t % PIPE_ARR_RING] rather than in cu_main: admission takes
   * that cycle's set without looking at their ready. */
  uint64_t arr[PIPE_ARR_RING][2];

  /* ---- Issue (sched.c) ---- */
  /* The schedulers' path for this pipeline's hooks and policy, chosen at
   * its first cycle (NULL until then). */
  pipe_issue_fn *issue_fn;
  warp_sets ws; /* the warps' verdicts as sets (pipe_why keeps them) */
};

/* warp.why when the next instruction has passed the scoreboard: until the
 * warp issues, only the collectors can hold it back. */
#define WHY_SB_PASSED 100

/* Records why a warp cannot issue (-1: not known, or only collectors). */
static inline void pipe_why(gpurf_pipeline *p, warp *w, int v) {
  int slot = w->slot;
  warp_sets *s = &p->ws;
  if (w->why == WHY_SB_PASSED) {
    s->passed[w->next_cu] &= ~((uint64_t)1 << slot);
    s->wide &= ~((uint64_t)1 << slot);
  } else if (w->why >= 0 && w->why < GPURF_PIPELINE_STALL_BUILTIN) {
    s->held_by[w->why] &= ~((uint64_t)1 << slot);
    s->closed &= ~((uint64_t)1 << slot);
  }
  if (v >= 0 && v < GPURF_PIPELINE_STALL_BUILTIN) {
    s->held_by[v] |= (uint64_t)1 << slot;
    s->closed |= (uint64_t)1 << slot;
  }
  w->why = v;
}

/* Register reads that crossed to a collector: every read counted in a
 * bank but a technique's own. */
static inline uint64_t pipe_crossbar(const gpurf_pipeline *p) {
  uint64_t n = 0;
  for (int b = 0; b < GPURF_PIPELINE_MAX_BANKS; b++) n += p->st.bank_reads[b];
  return n - p->reads_uncrossed;
}

/* Bank b's busy cycles. */
static inline uint64_t pipe_bank_busy(const gpurf_pipeline *p, int b) {
  return p->st.bank_reads[b] + p->st.bank_writes[b] + p->bank_busy_extra[b];
}

/* The sum over the instructions with reads of the cycles their operand
 * fetch took beyond a conflict-free one (1 + read_cycles), as an integer. */
static inline int64_t pipe_fetch_penalty_sum(const gpurf_pipeline *p) {
  const uint64_t n = p->st.fetch_instructions;
  return (int64_t)(p->fetch_sum - n * (1 + (uint64_t)p->prm.read_cycles) + p->fetch_pen_adj);
}

/* A queued read's age: the cycle its instruction issued. */
static inline uint64_t pipe_rq_age(const gpurf_pipeline *p, const rreq *q) {
  return p->c[q->cu].issue;
}

/* Bank b's queued reads, oldest first: rq_n[b] entries from here. */
static inline rreq *pipe_rq(const gpurf_pipeline *p, int bank) {
  return p->rq_first[bank];
}

/* The baseline's bank of a register, as base_map in baseline.c (both
 * operands are >= 0; a mask when banks is a power of two). */
static inline int pipe_base_bank(const gpurf_pipeline *p, int wslot, int reg) {
  int x = p->prm.bank_map == GPURF_PIPELINE_MAP_REG ? reg : reg + wslot;
  return p->bank_mask >= 0 ? x & p->bank_mask : x % p->prm.banks;
}

/* The bank of a register, through the map hook. */
static inline int pipe_map(gpurf_pipeline *p, int wslot, uint32_t gwarp, int reg, int is_write) {
  if (p->base_map) return pipe_base_bank(p, wslot, reg);
  return p->hk.map(p->hk.state, p, wslot, gwarp, reg, is_write);
}

/* results.c */
/* A result that does not simply go last in its unit's ring (dispatch in
 * core.c puts the others there itself). */
int pipe_res_push_slow(gpurf_ctx *ctx, gpurf_pipeline *p, int unit, const result *r);
void pipe_res_free(gpurf_pipeline *p);
/* Finds the unit whose head is the first result, and its ready (inline:
 * writeback does it for every result). */
static inline void pipe_res_first(gpurf_pipeline *p) {
  int best = -1;
  uint64_t ready = UINT64_MAX, seq = UINT64_MAX;
  /* An empty unit's (UINT64_MAX, UINT64_MAX) never wins. */
  for (int u = 0; u < GPURF_PIPELINE_UNIT_COUNT; u++) {
    uint64_t r = p->head_ready[u];
    if (r < ready || (r == ready && p->head_seq[u] < seq)) ready = r, seq = p->head_seq[u], best = u;
  }
  p->res_unit = best;
  p->res_next = ready;
}
static inline void pipe_res_pop(gpurf_pipeline *p, int unit) {
  rfifo *f = &p->res[unit];
  f->head = (f->head + 1) & (f->cap - 1);
  if (--f->n) {
    p->head_ready[unit] = f->r[f->head].ready, p->head_seq[unit] = f->r[f->head].seq;
  } else {
    p->head_ready[unit] = p->head_seq[unit] = UINT64_MAX;
  }
  pipe_res_first(p);
}

/* feed.c */
int pipe_feed_admit(gpurf_ctx *ctx, gpurf_pipeline *p);
int pipe_feed_open(gpurf_ctx *ctx, gpurf_pipeline *p, gpurf_trace_reader *r);
void pipe_cta_warp_done(gpurf_pipeline *p, int slot);
int pipe_compact(gpurf_ctx *ctx, const gpurf_pipeline *p, const gpurf_trace_inst *t, cinst *c,
                 uint32_t *max_reg);
int pipe_buf_reserve(gpurf_ctx *ctx, const gpurf_pipeline *p, ctabuf *b, uint32_t need);
static inline uint32_t pipe_popcount32(uint32_t m) {
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  return (((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}
/* codepool.c */
/* A warp read in brief while its forms are those of the warp before: that
 * one's pointers from at, len of them, done matched so far. */
typedef struct pipe_brief_run {
  int match;
  uint32_t at, len, done;
} pipe_brief_run;
/* The batch's records left, the current warp's, into b (see ctabuf). */
int pipe_briefs_code(gpurf_ctx *ctx, gpurf_pipeline *p, ctabuf *b, pipe_brief_run *run,
                     int want_max, uint32_t *mr);
int pipe_pool_shape(gpurf_ctx *ctx, gpurf_pipeline *p, const gpurf_trace_brief *br, bmemo *e);
int pipe_pool_lanes(gpurf_ctx *ctx, gpurf_pipeline *p, bmemo *e, uint32_t lanes,
                    const cinst **out);
void pipe_pool_new_gen(gpurf_pipeline *p);
void pipe_pool_free(gpurf_pipeline *p);
/* sched.c */
void pipe_sched_add(gpurf_pipeline *p, int slot);
void pipe_sched_remove(gpurf_pipeline *p, int slot);
void pipe_issue(gpurf_pipeline *p);
/* core.c */
int pipe_run_cycles(gpurf_ctx *ctx, gpurf_pipeline *p, uint64_t limit, uint64_t start,
                    uint64_t max_cycles);
int pipe_sb_hit(const uint64_t *sb, int reg);

#endif
