/* The trace-driven register-file pipeline: one SM (Fermi-like by default)
 * runs a warp-instruction trace cycle by cycle through schedulers, a
 * scoreboard, operand collectors, a bank arbiter, a crossbar, execution
 * units and a result bus, and counts every register-file event into an
 * energy engine (events.h) built from a design's primitive table.
 *
 * Memory: CTAs are read from the trace as they are admitted, each into a
 * compact per-warp buffer (32 bytes per instruction) that is reused, so
 * memory grows with the largest CTA, not with the number of CTAs. */
#ifndef GPURF_PIPELINE_H
#define GPURF_PIPELINE_H

#include <stdint.h>

#include "gpurf/context.h"
#include "gpurf/events.h"
#include "gpurf/export.h"
#include "gpurf/rf.h"
#include "gpurf/trace.h"

GPURF_BEGIN_DECLS

#define GPURF_PIPELINE_MAX_BANKS 64
#define GPURF_PIPELINE_MAX_WARPS 64
#define GPURF_PIPELINE_MAX_SCHEDULERS 8
#define GPURF_PIPELINE_MAX_COLLECTORS 32 /* per class */
#define GPURF_PIPELINE_MAX_STALLS 16

typedef enum gpurf_pipeline_policy {
  GPURF_PIPELINE_LRR = 0,      /* loose round robin */
  GPURF_PIPELINE_GTO = 1,      /* greedy then oldest */
  GPURF_PIPELINE_TWO_LEVEL = 2 /* active set + pending warps (Gebhart et al.) */
} gpurf_pipeline_policy;

/* Register-to-bank mapping. */
typedef enum gpurf_pipeline_bankmap {
  GPURF_PIPELINE_MAP_REG_PLUS_WARP = 0, /* (reg + warp) mod banks, as GPGPU-Sim */
  GPURF_PIPELINE_MAP_REG = 1            /* reg mod banks: every warp alike */
} gpurf_pipeline_bankmap;

/* Collector classes, one pool of units each. */
typedef enum gpurf_pipeline_cu_class {
  GPURF_PIPELINE_CU_SP = 0, /* ALU instructions */
  GPURF_PIPELINE_CU_SFU = 1,
  GPURF_PIPELINE_CU_MEM = 2, /* shared and global memory */
  GPURF_PIPELINE_CU_COUNT = 3
} gpurf_pipeline_cu_class;

/* Execution units. */
typedef enum gpurf_pipeline_unit {
  GPURF_PIPELINE_UNIT_ALU = 0,
  GPURF_PIPELINE_UNIT_SFU = 1,
  GPURF_PIPELINE_UNIT_SHARED = 2,
  GPURF_PIPELINE_UNIT_GLOBAL = 3,
  GPURF_PIPELINE_UNIT_COUNT = 4
} gpurf_pipeline_unit;

/* SM parameters. gpurf_pipeline_params_init() sets the GTX480 values of
 * GPGPU-Sim's tested configuration (configs/tested-cfgs/SM2_GTX480/
 * gpgpusim.config); each default's source is beside it in params.c. */
typedef struct gpurf_pipeline_params {
  double clock_hz;
  int max_warps; /* resident warps */
  int max_ctas;  /* resident CTAs */
  int max_threads;
  long long registers; /* 32-bit registers */
  long long shared_bytes;
  int warp_size;
  int schedulers;
  gpurf_pipeline_policy policy;
  int active_warps;  /* two-level: active set per scheduler */
  int ibuffer_depth; /* instructions per warp's instruction buffer */
  int banks;
  gpurf_pipeline_bankmap bank_map;
  int collectors[GPURF_PIPELINE_CU_COUNT];
  int collector_slots;   /* source operands per collector unit */
  int read_cycles;       /* bank read + crossbar transfer to a collector */
  int bank_read_cycles;  /* cycles a read keeps its bank busy */
  int bank_write_cycles; /* cycles a write keeps its bank busy (slow STT-RAM writes) */
  int units[GPURF_PIPELINE_UNIT_COUNT];    /* pipelines of each kind */
  int latency[GPURF_PIPELINE_UNIT_COUNT];  /* cycles from dispatch to result */
  int interval[GPURF_PIPELINE_UNIT_COUNT]; /* cycles between dispatches to one pipeline */
  double global_bytes_per_cycle;           /* global memory bandwidth cap */
  int result_bus_width;                    /* results entering writeback per cycle */
  int reads_first; /* 1: reads win a bank over writes (default writes first) */
  /* Instructions of one warp in the pipeline at once, issue to retirement
   * (0: no limit but the scoreboard; 1: a barrel processor's rule). */
  int warp_in_flight;
  /* Issue passes of a scheduler per cycle (default 1): with more, a
   * technique's gate() hook decides which pass (issue port) takes what. */
  int issue_width;
} gpurf_pipeline_params;

GPURF_API void gpurf_pipeline_params_init(gpurf_pipeline_params *p);

/* Sets the parameters of a named core ("gtx480": the defaults; "simtight":
 * SIMTight's SM, one barrel scheduler, one instruction per warp in flight,
 * no operand collectors to wait for); GPURF_ENOTFOUND for another name. */
GPURF_API int gpurf_pipeline_params_core(gpurf_pipeline_params *p, const char *name);

/* Sets one parameter by name ("schedulers", "policy", "collectors_sp",
 * "latency_alu", "global_bytes_per_cycle", ...; gpurf_pipeline_param_names
 * lists them). GPURF_ENOTFOUND for an unknown key, GPURF_EINVAL (message
 * set) for a bad value. */
GPURF_API int gpurf_pipeline_params_set(gpurf_ctx *ctx, gpurf_pipeline_params *p, const char *key,
                                        const char *value);
/* The keys gpurf_pipeline_params_set accepts, NULL-terminated. */
GPURF_API const char *const *gpurf_pipeline_param_names(void);
/* Checks ranges and consistency; GPURF_ERANGE with the key named. */
GPURF_API int gpurf_pipeline_params_check(gpurf_ctx *ctx, const gpurf_pipeline_params *p);
/* Takes the SM sizes and clock a design states (warps, registers, banks of
 * its first bank group, clock) and the optional sm keys core (a named core,
 * applied first), schedulers, policy and collectors_sp/sfu/mem. */
GPURF_API void gpurf_pipeline_params_from_design(gpurf_pipeline_params *p,
                                                 const gpurf_rf_design *d);

/* Takes the bank timing of a primitive table (its component "bank", else
 * its first): access and write times in cycles of the table's clock, at
 * least one; the read latency grows to the bank's read time if shorter. */
GPURF_API void gpurf_pipeline_params_from_table(gpurf_pipeline_params *p, const gpurf_rf_table *t);

/* Issue stalls: a scheduler cycle without an issue is charged to one reason,
 * the first in this order that held back some warp. Techniques may add
 * reasons after GPURF_PIPELINE_STALL_BUILTIN. */
typedef enum gpurf_pipeline_stall {
  GPURF_PIPELINE_STALL_COLLECTOR = 0, /* a warp was ready but its collector class was full */
  GPURF_PIPELINE_STALL_SCOREBOARD,    /* waiting for a register being written */
  GPURF_PIPELINE_STALL_BARRIER,       /* waiting at a CTA barrier */
  GPURF_PIPELINE_STALL_IBUFFER,       /* instruction buffer empty */
  GPURF_PIPELINE_STALL_IDLE,          /* no warp to schedule */
  GPURF_PIPELINE_STALL_HOOK,          /* a technique's selection declined to issue */
  GPURF_PIPELINE_STALL_BUILTIN
} gpurf_pipeline_stall;

typedef struct gpurf_pipeline_stats {
  uint64_t cycles;
  uint64_t warp_instructions; /* retired */
  uint64_t issued;
  uint64_t ctas;
  uint64_t warps;
  double ipc; /* warp instructions per cycle */
  int banks;
  uint64_t bank_reads[GPURF_PIPELINE_MAX_BANKS];
  uint64_t bank_writes[GPURF_PIPELINE_MAX_BANKS];
  double bank_utilisation[GPURF_PIPELINE_MAX_BANKS]; /* busy cycles / cycles */
  uint64_t reads; /* register reads from banks (distinct sources per instruction) */
  uint64_t writes;
  /* A read request that loses its bank for a cycle is one conflict, classed
   * by the winner: another collector's read, a write, or a read of the same
   * instruction. */
  uint64_t conflicts_inter_read;
  uint64_t conflicts_inter_write;
  uint64_t conflicts_intra;
  uint64_t crossbar_transfers;
  uint64_t arbiter_decisions;   /* cycles in which the arbiter granted something */
  uint64_t collector_accesses;  /* operand writes into collector slots */
  uint64_t fetch_instructions;  /* instructions whose operands were fetched */
  double operand_fetch_cycles;  /* mean, issue to all operands collected */
  double operand_fetch_penalty; /* mean excess over the conflict-free case */
  uint64_t dispatch_stalls[GPURF_PIPELINE_UNIT_COUNT]; /* ready collectors, unit busy */
  int n_stalls;
  char stall_name[GPURF_PIPELINE_MAX_STALLS][24];
  uint64_t stalls[GPURF_PIPELINE_MAX_STALLS];
  uint64_t max_buffered; /* most instructions held in CTA buffers at once */
} gpurf_pipeline_stats;

/* ---- Technique hooks ----
 *
 * A technique fills a gpurf_pipeline_hooks; the core calls it at five
 * points and the baseline itself is such a table (gpurf_pipeline_baseline
 * _hooks), so every run goes through the hooks. A NULL member falls back to
 * the baseline's. `state` is the technique's own object. attach() runs once
 * when the pipeline is built: there a technique resolves its energy events
 * (gpurf_energy_event_id on gpurf_pipeline_energy) and adds stall reasons
 * (gpurf_pipeline_add_stall); it counts them with gpurf_energy_add and
 * gpurf_pipeline_count_stall.
 *
 * What the seed mechanisms need from it:
 * - Bank stealing (Jing et al.): select() sees the policy's pick and the
 *   look-ahead candidate (the warp it would pick next) to prefetch the
 *   candidate's operands into idle banks; arbitrate() adds request classes
 *   (stolen reads, stolen writes) with their priorities.
 * - Register-file caches and operand register files (Gebhart et al.):
 *   map() serves a read from the cache (returns GPURF_PIPELINE_NO_BANK and
 *   counts its own event); writeback() defers a result into the cache
 *   (GPURF_PIPELINE_WB_DEFER) and writes it back when evicted with
 *   gpurf_pipeline_force_write(); demote()/promote() drive the two-level
 *   scheduler whose active set owns the cache.
 * - WarRF for STT-RAM (Wang and Xie), technique "warrf": share() lets a
 *   read of the other sub-array go beside a slow write (split-bank write);
 *   writeback() puts results in the write pool (WB_DEFER) and forces the
 *   LRU entry's write-back (gpurf_pipeline_force_write) when it is full;
 *   map() serves pooled reads; demote() moves a warp's entries to the LRU
 *   end.
 * - Register renaming and sub-array gating (Jeon et al.): map() renames
 *   (warp, reg) to a physical register and bank; releases at last use come
 *   from the trace's hints; gating uses gpurf_energy_gate.
 * - Compressed register storage (SIMTight): decode() classifies each write
 *   from the trace's lane values; map() and writeback() serve uniform and
 *   affine values from a scalar file (NO_BANK, WB_DEFER); gate() spills,
 *   fills (replays) and sends predicted-scalar instructions to a second
 *   issue pass with a shorter latency. */
#define GPURF_PIPELINE_NO_BANK (-1)

typedef enum gpurf_pipeline_wb {
  GPURF_PIPELINE_WB_BANK = 0, /* write the register to its bank through the arbiter */
  GPURF_PIPELINE_WB_DEFER = 1 /* the technique holds the value; no bank write now */
} gpurf_pipeline_wb;

/* A request for one bank in one cycle. */
typedef struct gpurf_pipeline_req {
  int is_write;
  int request_class; /* 0 write, 1 read; techniques may use more */
  int warp;          /* warp slot */
  int reg;
  int collector; /* global collector index for reads, -1 for writes */
  uint64_t age;  /* cycle the request was made */
} gpurf_pipeline_req;

/* What warp selection sees. */
typedef struct gpurf_pipeline_select {
  int scheduler;
  int candidate; /* the policy's pick (warp slot), -1 if none is ready */
  int lookahead; /* the next ready warp the policy would pick, -1 if none */
  uint64_t cycle;
} gpurf_pipeline_select;

typedef struct gpurf_pipeline gpurf_pipeline;

/* An instruction as gate() sees it: the technique's decode() tag and the
 * registers the pipeline reads and writes (32-bit, pairs expanded). */
typedef struct gpurf_pipeline_gate_inst {
  uint64_t tag;
  int unit; /* gpurf_pipeline_unit */
  int n_src, n_dst;
  const uint8_t *src, *dst;
  /* gate() may set it (0 when called): cycles added to (negative: taken
   * from) the unit's latency for this instruction, as when it goes down a
   * shorter pipeline; its result still comes at least a cycle after dispatch. */
  int latency_adjust;
} gpurf_pipeline_gate_inst;

/* gate() results; a positive value replays: the issue slot is used, the
 * instruction does not execute, and the warp tries it again after that
 * many cycles (a register being spilled or fetched back). */
#define GPURF_PIPELINE_ISSUE_GO 0
#define GPURF_PIPELINE_ISSUE_SKIP (-1) /* not this warp in this pass */

typedef struct gpurf_pipeline_hooks {
  const char *name;
  void *state;
  int (*attach)(gpurf_ctx *ctx, gpurf_pipeline *p, void *state);
  /* Returns the warp slot to issue from (the candidate, another ready
   * warp, or -1 to issue nothing this cycle). */
  int (*select)(void *state, gpurf_pipeline *p, const gpurf_pipeline_select *s);
  /* Index of the request of reqs[0..n) to grant on bank `bank`. */
  int (*arbitrate)(void *state, gpurf_pipeline *p, int bank, const gpurf_pipeline_req *reqs, int n);
  /* Bank holding register reg of warp slot `warp` (global warp id gwarp),
   * or GPURF_PIPELINE_NO_BANK when the technique serves the access (a read
   * then arrives as a conflict-free bank read would: read_cycles after the
   * arbitration that follows its issue). */
  int (*map)(void *state, gpurf_pipeline *p, int warp, uint32_t gwarp, int reg, int is_write);
  /* Where a result register goes. */
  gpurf_pipeline_wb (*writeback)(void *state, gpurf_pipeline *p, int warp, int reg);
  /* Two-level scheduling: 1 to move an active warp blocked on `reg` to the
   * pending set; promote() picks which of n pending warps enters (index).
   * A warp reaching a barrier always leaves: demote() is then called with
   * reg -1 as a notice and its answer is ignored. */
  int (*demote)(void *state, gpurf_pipeline *p, int warp, int reg, int long_latency);
  int (*promote)(void *state, gpurf_pipeline *p, int scheduler, const int *pending, int n);
  /* Partial occupancy of a bank: while the multi-cycle write `held` holds
   * `bank`, 1 when the queued read `req` may use the bank beside it (a read
   * of the other sub-array during a split-bank write). At most one such read
   * per bank and cycle, chosen among the allowed ones as arbitrate() would
   * choose; it must end no later than the write. NULL: a bank being written
   * serves nothing else. */
  int (*share)(void *state, gpurf_pipeline *p, int bank, const gpurf_pipeline_req *held,
               const gpurf_pipeline_req *req);
  /* Notices, NULL when not wanted (register lifetimes, renaming):
   * load() sees each record as a CTA is read into buffer `cta` (0 ..
   * max_ctas), at position `index` of that buffer; issue() follows the
   * issue of the instruction at `index` of buffer `cta` by warp slot
   * `warp`; warp_end() follows a warp's last retirement. */
  void (*load)(void *state, gpurf_pipeline *p, int cta, uint32_t index,
               const gpurf_trace_inst *rec);
  void (*issue)(void *state, gpurf_pipeline *p, int warp, int cta, uint32_t index);
  void (*warp_end)(void *state, gpurf_pipeline *p, int warp, int cta);
  /* Optional (NULL: none). decode() sees every trace record as its CTA is
   * buffered (values and addresses included) and returns a tag kept with
   * the instruction. gate() is asked before a ready warp issues, in pass
   * 0..issue_width-1 of the cycle, and returns GO, SKIP or replay cycles;
   * with it, warps are scanned in the policy's order until one issues. */
  int (*decode)(void *state, gpurf_pipeline *p, const gpurf_trace_inst *rec, uint64_t *tag);
  int (*gate)(void *state, gpurf_pipeline *p, int warp, uint32_t gwarp,
              gpurf_pipeline_gate_inst *in, int pass);
} gpurf_pipeline_hooks;

/* The baseline's hooks: the policy's pick, writes first then the oldest
 * read, the parameter's bank map, every result to its bank, two-level
 * demotion on long-latency dependences with round-robin promotion. */
GPURF_API const gpurf_pipeline_hooks *gpurf_pipeline_baseline_hooks(void);

/* ---- Running ---- */

/* Builds an SM. table may be NULL (no energy); hooks NULL means baseline.
 * The table's first component named "bank" receives reads and writes per
 * bank instance; "crossbar"/transfer, "arbiter"/decision and
 * "collector"/write are counted when present. */
GPURF_API int gpurf_pipeline_alloc(gpurf_ctx *ctx, const gpurf_pipeline_params *params,
                                   const gpurf_rf_table *table, const gpurf_pipeline_hooks *hooks,
                                   gpurf_pipeline **out);
GPURF_API void gpurf_pipeline_free(gpurf_pipeline *p);

/* Runs a whole trace; the reader is left at its end, told to omit
 * addresses and values (gpurf_trace_reader_omit), which timing never reads. Statistics accumulate
 * over calls until gpurf_pipeline_reset. max_cycles = 0: no limit. */
GPURF_API int gpurf_pipeline_run(gpurf_ctx *ctx, gpurf_pipeline *p, gpurf_trace_reader *r,
                                 uint64_t max_cycles);
GPURF_API void gpurf_pipeline_reset(gpurf_pipeline *p);

GPURF_API int gpurf_pipeline_stats_get(const gpurf_pipeline *p, gpurf_pipeline_stats *out);
/* The pipeline's energy engine; NULL when built without a table. */
GPURF_API gpurf_energy *gpurf_pipeline_energy(gpurf_pipeline *p);
GPURF_API const gpurf_pipeline_params *gpurf_pipeline_get_params(const gpurf_pipeline *p);

/* ---- Many runs at once ----
 *
 * Independent simulations of one design, each on its own SM: traces or
 * synthetic workloads, with the baseline or a technique by name
 * (technique.h), on a pool of threads. */
#define GPURF_PIPELINE_JOB_MAX_COUNTERS 32

typedef struct gpurf_pipeline_job {
  /* in: a trace path, or NULL and a synthetic workload in gen */
  const char *trace;
  gpurf_trace_gen_params gen;
  /* in: a technique's name (NULL: none) and its options, "KEY=VALUE" */
  const char *technique;
  const char *const *technique_sets;
  int n_technique_sets;
  /* out: status GPURF_OK, or the failing call's status and its error; a job
   * after the first failed one (in input order) may be left unrun */
  int status;
  gpurf_error error;
  gpurf_pipeline_stats stats;
  /* The energy report when a table was given, else NULL: the runner
   * allocates it, the caller frees it (gpurf_energy_report_free). */
  gpurf_energy_report *report;
  /* What the technique counted (gpurf_technique_counter_*). */
  int n_counters;
  char counter_name[GPURF_PIPELINE_JOB_MAX_COUNTERS][48];
  double counter[GPURF_PIPELINE_JOB_MAX_COUNTERS];
} gpurf_pipeline_job;

/* Called as each job ends (serialised: never two at once): its index, how
 * many have ended, of n. */
typedef void (*gpurf_pipeline_progress)(void *arg, int index, int done, int n);

/* Runs jobs[0..n) on `threads` threads, the calling one included (1: all in
 * the calling thread). Each job's results are its own, so they are the same
 * for any number of threads. GPURF_OK when every job succeeded; otherwise the
 * status of the first failed job in input order, its error copied to ctx.
 * Every job's report that is not NULL afterwards is the caller's to free.
 * progress may be NULL. */
GPURF_API int gpurf_pipeline_run_jobs(gpurf_ctx *ctx, const gpurf_pipeline_params *params,
                                      const gpurf_rf_table *table, gpurf_pipeline_job *jobs, int n,
                                      int threads, gpurf_pipeline_progress progress,
                                      void *progress_arg);

/* For techniques. */
GPURF_API int gpurf_pipeline_add_stall(gpurf_ctx *ctx, gpurf_pipeline *p, const char *name,
                                       int *id);
GPURF_API void gpurf_pipeline_count_stall(gpurf_pipeline *p, int id, uint64_t n);
/* Queues a bank write of (warp, reg) now (a deferred value leaving). */
GPURF_API int gpurf_pipeline_force_write(gpurf_pipeline *p, int warp, int reg);
/* The same to a bank the technique names (a value moving between banks).
 * GPURF_ERANGE when the bank's write queue is full. */
GPURF_API int gpurf_pipeline_force_write_bank(gpurf_pipeline *p, int warp, int reg, int bank);
GPURF_API uint64_t gpurf_pipeline_cycle(const gpurf_pipeline *p);
/* Adds pipeline stages (from attach()): read_cycles on the operand read
 * path, result_cycles between execution and writeback of every unit. */
GPURF_API int gpurf_pipeline_extend(gpurf_pipeline *p, int read_cycles, int result_cycles);
/* In map() of a read at issue: 1 when this read of reg is the warp's last
 * (the trace's last-use hint where the record has one, else no later read
 * of reg by the warp before it is written again), 0 when not, -1 outside
 * an issue or for a pipeline without techniques' hints (baseline map). */
GPURF_API int gpurf_pipeline_last_use(const gpurf_pipeline *p, int wslot, int reg);
/* 1 while reg of the warp awaits a long-latency result; in writeback()
 * that is whether the result being written is a long-latency one. */
GPURF_API int gpurf_pipeline_long_pending(const gpurf_pipeline *p, int wslot, int reg);

/* A warp's next instruction as the pipeline holds it (registers of pairs
 * expanded, repeated sources once). */
#define GPURF_PIPELINE_INST_MAX_SRC 16
#define GPURF_PIPELINE_INST_MAX_DST 8
typedef struct gpurf_pipeline_inst {
  uint32_t gwarp; /* global warp number of the slot's warp */
  int n_src, n_dst;
  int src[GPURF_PIPELINE_INST_MAX_SRC];
  int dst[GPURF_PIPELINE_INST_MAX_DST];
  int collector_class; /* gpurf_pipeline_cu_class */
  int collector_units; /* units of the class it takes */
} gpurf_pipeline_inst;

/* GPURF_ENOTFOUND when the slot holds no live warp or it has issued all. */
GPURF_API int gpurf_pipeline_next_inst(const gpurf_pipeline *p, int warp, gpurf_pipeline_inst *out);
/* Global warp number of a slot's warp; GPURF_ENOTFOUND when none is live. */
GPURF_API int gpurf_pipeline_warp_id(const gpurf_pipeline *p, int warp, uint32_t *gwarp);
GPURF_API int gpurf_pipeline_collectors_free(const gpurf_pipeline *p, int cu_class);

/* A bank as the next arbitration will find it: requests queued and the
 * cycle from which it is free (it was granted in cycle c: c + 1). */
typedef struct gpurf_pipeline_bank_state {
  int reads, writes;
  uint64_t free_at;
} gpurf_pipeline_bank_state;
GPURF_API int gpurf_pipeline_bank_get(const gpurf_pipeline *p, int bank,
                                      gpurf_pipeline_bank_state *out);
/* An access of the technique's own to a bank idle in this cycle (reading or
 * writing a register it keeps elsewhere): counted as a bank read or write
 * (and so charged by the energy engine) and keeping the bank busy.
 * GPURF_ERANGE when the bank is busy. */
GPURF_API int gpurf_pipeline_bank_access(gpurf_pipeline *p, int bank, int is_write);
/* From select(): issues the next instruction of another ready warp of the
 * same scheduler now, besides the warp select() returns (a read-ahead).
 * GPURF_ERANGE when the warp cannot issue. */
GPURF_API int gpurf_pipeline_issue_extra(gpurf_pipeline *p, int warp);

/* An instruction in a CTA buffer as the pipeline holds it: registers of
 * pairs and quads expanded, RZ dropped, each register once (the view of
 * load() and issue(); gpurf_pipeline_next_inst gives a warp's next one
 * with its collector needs). */
typedef struct gpurf_pipeline_buffered_inst {
  int n_src, n_dst;
  uint8_t src[16];
  uint8_t dst[8];
  gpurf_pipeline_unit unit;
} gpurf_pipeline_buffered_inst;

/* The next instruction of live warp slot `warp`: its CTA buffer and
 * position there (as load() and issue() name them). GPURF_ENOTFOUND when
 * the warp is not live or has issued everything. */
GPURF_API int gpurf_pipeline_warp_next(const gpurf_pipeline *p, int warp, int *cta,
                                       uint32_t *index);
/* The instruction at `index` of CTA buffer `cta`; GPURF_EINVAL out of range. */
GPURF_API int gpurf_pipeline_inst_get(const gpurf_pipeline *p, int cta, uint32_t index,
                                      gpurf_pipeline_buffered_inst *out);
/* 1 when live warp slot `warp` could issue its next instruction now
 * (scoreboard, barrier, instruction buffer, collector units), for a
 * select() that looks past the candidate and the look-ahead warp. */
GPURF_API int gpurf_pipeline_can_issue(gpurf_pipeline *p, int warp);
/* Hands the events counted so far to the energy engine and brings its
 * clock to the present cycle, so that gpurf_energy_gate() from a hook
 * opens and closes intervals at the right cycle. */
GPURF_API void gpurf_pipeline_energy_sync(gpurf_pipeline *p);
/* Registers per thread and warps of the CTA in buffer `cta`. */
GPURF_API int gpurf_pipeline_cta_shape(const gpurf_pipeline *p, int cta, int *regs_per_thread,
                                       int *warps);

GPURF_END_DECLS

#endif
