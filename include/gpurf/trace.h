/* Warp-instruction traces: a streaming reader over Accel-Sim SASS traces,
 * the native text and binary formats and the synthetic workloads; a writer
 * for the native formats; and trace statistics.
 *
 * A reader holds one record at a time, so memory does not grow with the
 * length of a trace. Records of one warp are contiguous in every format. */
#ifndef GPURF_TRACE_H
#define GPURF_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "gpurf/context.h"
#include "gpurf/emu.h"
#include "gpurf/export.h"

GPURF_BEGIN_DECLS

#define GPURF_TRACE_WARP_SIZE 32
#define GPURF_TRACE_MAX_DST 4     /* destination register operands */
#define GPURF_TRACE_MAX_SRC 8     /* source register operands */
#define GPURF_TRACE_MAX_DST_REGS 16 /* 32-bit registers over all destinations */
#define GPURF_TRACE_REG_ZERO 255  /* RZ: reads as zero, writes vanish; no RF access */
#define GPURF_TRACE_NUM_REGS 255  /* R0..R254 */
#define GPURF_TRACE_OPCODE_MAX 48
#define GPURF_TRACE_NAME_MAX 4096

/* Binary version of traces recorded from RV32IMA programs by gpurf's SIMT
 * emulator (include/gpurf/emu.h); not an SM version. Their opcodes are
 * RISC-V mnemonics (docs/trace-format.md). */
#define GPURF_TRACE_ARCH_RV32 3200

/* gpurf_trace_next() returns this (a positive value) when no record is left. */
#define GPURF_TRACE_END 1

typedef enum gpurf_trace_class {
  GPURF_TRACE_CLASS_FP = 0,        /* FP32/FP16/FP64 ALU and FMA, tensor ops */
  GPURF_TRACE_CLASS_INT = 1,       /* integer, logic, moves, compares */
  GPURF_TRACE_CLASS_SFU = 2,       /* transcendental and conversion unit */
  GPURF_TRACE_CLASS_LD_GLOBAL = 3, /* global, local, generic, texture loads and atomics */
  GPURF_TRACE_CLASS_ST_GLOBAL = 4, /* global, local, generic stores and reductions */
  GPURF_TRACE_CLASS_LD_SHARED = 5,
  GPURF_TRACE_CLASS_ST_SHARED = 6,
  GPURF_TRACE_CLASS_BRANCH = 7,    /* branches, calls, returns, exit, reconvergence */
  GPURF_TRACE_CLASS_BARRIER = 8,   /* CTA barriers and memory fences */
  GPURF_TRACE_CLASS_OTHER = 9,     /* everything else, and opcodes not in the table */
  GPURF_TRACE_CLASS_COUNT = 10
} gpurf_trace_class;

/* Latency classes, after Gebhart et al. (ACM TOCS 2012, Sec. 3 and Table I):
 * fixed short pipeline latencies; bounded medium ones (SFU, shared memory,
 * FP64, special registers); long, unpredictable ones (global/local memory and
 * texture), which end a strand when a dependent instruction follows. */
typedef enum gpurf_trace_latency {
  GPURF_TRACE_LAT_SHORT = 0,
  GPURF_TRACE_LAT_MEDIUM = 1,
  GPURF_TRACE_LAT_LONG = 2,
  GPURF_TRACE_LAT_COUNT = 3
} gpurf_trace_latency;

typedef enum gpurf_trace_mem {
  GPURF_TRACE_MEM_NONE = 0,
  GPURF_TRACE_MEM_GLOBAL = 1,
  GPURF_TRACE_MEM_LOCAL = 2,
  GPURF_TRACE_MEM_SHARED = 3,
  GPURF_TRACE_MEM_CONSTANT = 4,
  GPURF_TRACE_MEM_TEXTURE = 5, /* texture and surface */
  GPURF_TRACE_MEM_GENERIC = 6,
  GPURF_TRACE_MEM_COUNT = 7
} gpurf_trace_mem;

typedef enum gpurf_trace_format {
  GPURF_TRACE_FORMAT_ACCELSIM = 0,
  GPURF_TRACE_FORMAT_TEXT = 1,   /* native text, docs/trace-format.md */
  GPURF_TRACE_FORMAT_BINARY = 2, /* native binary, docs/trace-format.md */
  GPURF_TRACE_FORMAT_SYNTHETIC = 3
} gpurf_trace_format;

/* A register operand: base register and the number of consecutive 32-bit
 * registers it spans (1, 2 for a pair, 4 for a quad). reg is
 * GPURF_TRACE_REG_ZERO for RZ, which touches no register. */
typedef struct gpurf_trace_operand {
  uint8_t reg;
  uint8_t width;
} gpurf_trace_operand;

/* gpurf_trace_inst.flags */
#define GPURF_TRACE_HAS_ADDR 0x01u   /* addr[] holds per-lane addresses */
#define GPURF_TRACE_HAS_VALUES 0x02u /* values[] holds per-lane destination values */
#define GPURF_TRACE_HAS_LINE 0x04u   /* line holds the source line (lineinfo) */
#define GPURF_TRACE_HAS_IMM 0x08u    /* imm holds the tracer's immediate */
#define GPURF_TRACE_HAS_HINTS 0x10u  /* last_use / strand_end are compiler hints */
#define GPURF_TRACE_HAS_RECONV 0x20u /* reconv_pc is a branch's reconvergence point */

/* One warp instruction. */
typedef struct gpurf_trace_inst {
  uint32_t kernel;   /* index of the kernel in the trace, from 0 */
  uint32_t cta[3];   /* CTA (thread block) coordinates */
  uint32_t warp;     /* warp index within the CTA */
  uint64_t pc;
  uint32_t mask;     /* lanes that execute: active and predicate true */
  char opcode[GPURF_TRACE_OPCODE_MAX];
  gpurf_trace_class op_class;
  gpurf_trace_latency latency;
  gpurf_trace_mem mem;   /* NONE unless the instruction accesses memory */
  uint8_t mem_width;     /* bytes per lane; 0 when mem is NONE */
  uint8_t n_dst;
  uint8_t n_src;
  uint8_t n_dst_regs;    /* 32-bit destination registers (RZ excluded) */
  gpurf_trace_operand dst[GPURF_TRACE_MAX_DST];
  gpurf_trace_operand src[GPURF_TRACE_MAX_SRC];
  uint32_t flags;
  uint32_t line;
  int64_t imm;
  uint8_t last_use;      /* hint: bit i set when src[i] is the last use of its registers */
  uint8_t strand_end;    /* hint: the instruction ends a strand */
  uint64_t reconv_pc;
  uint64_t addr[GPURF_TRACE_WARP_SIZE]; /* inactive lanes are 0 */
  /* Per-lane values of each destination register, destinations in operand
   * order and the registers of a pair or quad consecutive; RZ has no entry. */
  uint32_t values[GPURF_TRACE_MAX_DST_REGS][GPURF_TRACE_WARP_SIZE];
} gpurf_trace_inst;

/* Launch and compile information of one kernel. Zero means unknown. */
typedef struct gpurf_trace_kernel {
  char name[GPURF_TRACE_NAME_MAX];
  uint32_t id;
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t shmem_bytes;
  uint32_t nregs;          /* registers per thread */
  /* An Accel-Sim header's -nregs found implausible (above 255, or below the
   * registers the kernel uses): nregs is then 0 from the record that showed
   * it on, and readers of the trace infer the count from the registers used;
   * UINT64_MAX when the header's value is negative or beyond 64 bits; 0 when
   * the header's count stands. */
  uint64_t nregs_header;
  uint32_t binary_version; /* SM version the code was compiled for, e.g. 61, 70, 86 */
  uint32_t tracer_version; /* Accel-Sim tracer version; 0 for other sources */
  uint32_t lineinfo;       /* 1 when records carry source lines */
  uint64_t shmem_base;
  uint64_t local_base;
  uint64_t stream_id;
  char nvbit_version[32];
} gpurf_trace_kernel;

GPURF_API const char *gpurf_trace_class_name(gpurf_trace_class c);
GPURF_API const char *gpurf_trace_latency_name(gpurf_trace_latency l);
GPURF_API const char *gpurf_trace_mem_name(gpurf_trace_mem m);
GPURF_API const char *gpurf_trace_format_name(gpurf_trace_format f);

/* Classifies a SASS opcode ("LDG.E.128") for an SM version (61, 70, 75, 80,
 * 86; other versions use the nearest older table). Returns 1 when the opcode
 * is in the table, 0 when it was classed OTHER for want of an entry. */
GPURF_API int gpurf_trace_classify(const char *opcode, uint32_t binary_version,
                                   gpurf_trace_class *op_class,
                                   gpurf_trace_latency *latency, gpurf_trace_mem *mem);

/* Sets dst/src widths from the opcode: .64/.128 and U.128 data of memory
 * operations, 64-bit addresses (.E, and every global access from sm_70),
 * FP64 arithmetic, .WIDE multiply-adds and 64-bit conversion types. Widths of
 * tensor-core operands are not inferred (left at 1). Also sets mem_width
 * from the opcode when it names a size. */
GPURF_API void gpurf_trace_infer_widths(gpurf_trace_inst *inst, uint32_t binary_version);

/* ---- reading ---- */

typedef struct gpurf_trace_reader gpurf_trace_reader;

/* Opens PATH: an Accel-Sim kernel-N.traceg, a kernelslist.g, a directory
 * holding kernelslist.g, or a native text or binary trace (told apart by
 * content). Compressed files are refused with a message saying so. */
GPURF_API int gpurf_trace_reader_alloc(gpurf_ctx *ctx, const char *path,
                                       gpurf_trace_reader **out);
GPURF_API void gpurf_trace_reader_free(gpurf_trace_reader *r);

/* Reads the next record into *inst: GPURF_OK, GPURF_TRACE_END when the trace
 * is over, or a negative status with FILE:LINE in the context's error.
 * The record is not cleared first (it is large): a reader writes what the
 * record defines, and the rest keeps unspecified contents, such as an
 * earlier record's. Defined are the fields up to reconv_pc, except dst[i]
 * for i >= n_dst and src[i] for i >= n_src; addr[] when flags has
 * GPURF_TRACE_HAS_ADDR; values[k] for k < n_dst_regs, at the lanes of mask,
 * when flags has GPURF_TRACE_HAS_VALUES. */
GPURF_API int gpurf_trace_next(gpurf_ctx *ctx, gpurf_trace_reader *r, gpurf_trace_inst *inst);

/* The kernel of the last record read (of the first kernel before any). */
GPURF_API const gpurf_trace_kernel *gpurf_trace_reader_kernel(const gpurf_trace_reader *r);
GPURF_API gpurf_trace_format gpurf_trace_reader_format(const gpurf_trace_reader *r);

/* Fields a caller will not look at (GPURF_TRACE_HAS_ADDR and/or
 * GPURF_TRACE_HAS_VALUES): a reader may then pass over them without
 * decoding, and records come with those flags cleared. A timing model needs
 * neither; it saves most of the decoding of a binary trace with values. */
GPURF_API void gpurf_trace_reader_omit(gpurf_trace_reader *r, uint32_t fields);

/* ---- reading in brief, for timing models ----
 *
 * A timing model reads little of a record: where it runs, its lanes, and
 * what does not change from one warp to the next at the same pc (opcode,
 * class, latency, memory kind and width, register operands). Read in brief,
 * a record is its mask and a shape, a number naming those fixed fields, and
 * records come many at a time: a binary trace is then read without
 * decoding the fields of a record seen before, and a model can keep what it
 * derives from a shape instead of deriving it again per record. */

/* Where the records of one call run. */
typedef struct gpurf_trace_where {
  uint32_t kernel; /* index of the kernel in the trace, from 0 */
  uint32_t cta[3];
  uint32_t warp;
} gpurf_trace_where;

/* A record in brief. shape is below gpurf_trace_reader_shapes(); two
 * records with the same shape and stamp have the same pc, opcode,
 * op_class, latency, mem, mem_width, n_dst, n_src, n_dst_regs, dst[] and
 * src[]. A shape takes other fields over time, each time with a new stamp
 * (never 0); one read's records may name different shapes with the same
 * fields. */
typedef struct gpurf_trace_brief {
  uint64_t stamp;
  uint32_t mask;
  uint32_t shape;
} gpurf_trace_brief;

/* Reads up to cap records, all of one warp, into out: *n of them (at least
 * one) and their position in *where with GPURF_OK; GPURF_TRACE_END (*n 0)
 * when the trace is over; or a negative status with the message
 * gpurf_trace_next() gives for the same defect, after every record before
 * it has come in an earlier call. The records are those gpurf_trace_next()
 * gives, in the same order; calls of both may be mixed. Addresses, values,
 * lines, immediates and hints are not read. */
GPURF_API int gpurf_trace_next_briefs(gpurf_ctx *ctx, gpurf_trace_reader *r,
                                      gpurf_trace_brief *out, size_t cap, size_t *n,
                                      gpurf_trace_where *where);

/* The number of shapes a reader names (a bound on gpurf_trace_brief.shape). */
GPURF_API uint32_t gpurf_trace_reader_shapes(const gpurf_trace_reader *r);

/* Fills the fields of a shape named by the last gpurf_trace_next_briefs()
 * call (those listed at gpurf_trace_brief) into *out, leaving the others;
 * GPURF_EINVAL for a shape out of range. Good until the next read. */
GPURF_API int gpurf_trace_reader_shape(const gpurf_trace_reader *r, uint32_t shape,
                                       gpurf_trace_inst *out);

/* Host-to-device copies listed in an Accel-Sim kernelslist.g so far. */
GPURF_API void gpurf_trace_reader_memcpy(const gpurf_trace_reader *r, uint64_t *count,
                                         uint64_t *bytes);

/* ---- writing the native formats ---- */

typedef struct gpurf_trace_writer gpurf_trace_writer;

/* Writes to a temporary file beside PATH; gpurf_trace_writer_commit()
 * renames it to PATH, and freeing an uncommitted writer removes it, so a
 * failed conversion never leaves a partial file. fmt is TEXT or BINARY. */
GPURF_API int gpurf_trace_writer_alloc(gpurf_ctx *ctx, const char *path, gpurf_trace_format fmt,
                                       gpurf_trace_writer **out);
/* Appends a record; the kernel is written when it changes. */
GPURF_API int gpurf_trace_write(gpurf_ctx *ctx, gpurf_trace_writer *w,
                                const gpurf_trace_kernel *kernel, const gpurf_trace_inst *inst);
GPURF_API int gpurf_trace_writer_commit(gpurf_ctx *ctx, gpurf_trace_writer *w);
/* The temporary file the writer fills until commit ("" after commit): a
 * program that handles signals can remove it if interrupted. */
GPURF_API const char *gpurf_trace_writer_tmp_path(const gpurf_trace_writer *w);
GPURF_API void gpurf_trace_writer_free(gpurf_trace_writer *w);

/* Records every SIMT warp instruction the emulator runs into w (host
 * instructions are not recorded): per-lane destination values and
 * addresses, last-use and strand-end hints; name labels the kernels. Each
 * launch is one kernel of the trace and each block of warps one CTA, its
 * warps written contiguously. Free the recorder (it detaches itself) before
 * the emulator; the writer stays the caller's. */
typedef struct gpurf_trace_recorder gpurf_trace_recorder;
GPURF_API int gpurf_trace_recorder_alloc(gpurf_ctx *ctx, gpurf_emu *emu, gpurf_trace_writer *w,
                                         const char *name, gpurf_trace_recorder **out);
GPURF_API void gpurf_trace_recorder_free(gpurf_trace_recorder *r);

/* Reads IN and writes it to OUT in fmt. */
GPURF_API int gpurf_trace_convert(gpurf_ctx *ctx, const char *in, const char *out,
                                  gpurf_trace_format fmt);

/* ---- statistics ---- */

#define GPURF_TRACE_READS_BINS 8    /* values read 0, 1, ..., 6, 7+ times */
#define GPURF_TRACE_LIFETIME_BINS 8 /* 1, 2, 3, 4-7, 8-15, 16-31, 32-63, 64+ */
#define GPURF_TRACE_LIVE_BINS 32

typedef struct gpurf_trace_stats {
  uint64_t kernels;
  uint64_t warp_instructions;
  uint64_t thread_instructions; /* sum of active lanes */
  uint64_t ctas;
  uint64_t warps;
  uint32_t registers_per_thread; /* largest over the kernels */
  /* 1 when registers_per_thread is the highest register used + 1, because a
   * kernel had no count or an implausible one; 0 when a header gave it. */
  int registers_per_thread_inferred;

  uint64_t class_count[GPURF_TRACE_CLASS_COUNT];
  uint64_t latency_count[GPURF_TRACE_LAT_COUNT];
  uint64_t mem_count[GPURF_TRACE_MEM_COUNT];
  uint64_t unknown_opcodes;     /* instructions whose opcode is not in the table */
  uint64_t partial_mask;        /* instructions with fewer than 32 lanes */
  uint64_t divergent_branches;  /* branches whose taken lanes are a proper subset */

  uint64_t src_operands;        /* register source operands, RZ excluded */
  uint64_t src_regs;            /* 32-bit register reads */
  uint64_t dst_operands;
  uint64_t dst_regs;            /* 32-bit register writes */
  uint64_t rz_reads;            /* RZ source operands (no register-file access) */

  /* Value usage (Gebhart Fig. 2/3): every 32-bit register write is a value;
   * reads counted per source operand until it is overwritten or the warp ends. */
  uint64_t values;
  uint64_t reads_hist[GPURF_TRACE_READS_BINS];
  uint64_t lifetime_once_hist[GPURF_TRACE_LIFETIME_BINS]; /* values read once */
  uint64_t reads_of_undefined;  /* reads of registers never written in the warp */

  /* Live registers over warp progress (Jeon Fig. 1): a register is live from
   * the write of a value to its last read. live_bin_width instructions per bin. */
  double live_fraction_mean;
  double live_fraction[GPURF_TRACE_LIVE_BINS];
  uint64_t live_bin_width;
  uint32_t live_bins_used;

  /* Uniform/affine vectors (Collange et al.), over active lanes, for records
   * that carry values; reads are classed by the last value written. */
  uint64_t writes_classified, writes_uniform, writes_affine;
  uint64_t reads_classified, reads_uniform, reads_affine;

  /* Register writes as SIMTight's compressed register file would store
   * them (of writes_classified): only full-warp writes compress; uniform:
   * every lane equals lane 0; affine (uniform included): for a stride s in
   * {1, 2, 4}, lane i's value mod 32 s is i s and its quotient by 32 s is
   * lane 0's. writes_partial: writes by fewer than 32 lanes. */
  uint64_t writes_simtight_uniform, writes_simtight_affine, writes_partial;
} gpurf_trace_stats;

typedef struct gpurf_trace_stats_acc gpurf_trace_stats_acc;

GPURF_API int gpurf_trace_stats_alloc(gpurf_ctx *ctx, gpurf_trace_stats_acc **out);
GPURF_API void gpurf_trace_stats_free(gpurf_trace_stats_acc *acc);
GPURF_API int gpurf_trace_stats_add(gpurf_ctx *ctx, gpurf_trace_stats_acc *acc,
                                    const gpurf_trace_kernel *kernel,
                                    const gpurf_trace_inst *inst);
/* Closes the open warp and fills *out; the accumulator can keep going. */
GPURF_API int gpurf_trace_stats_finish(gpurf_ctx *ctx, gpurf_trace_stats_acc *acc,
                                       gpurf_trace_stats *out);

/* Reads every record of PATH (or of an open reader) into *out. */
GPURF_API int gpurf_trace_stats_file(gpurf_ctx *ctx, const char *path, gpurf_trace_stats *out);
GPURF_API int gpurf_trace_stats_reader(gpurf_ctx *ctx, gpurf_trace_reader *r,
                                       gpurf_trace_stats *out);

/* Fractions derived from the counters (0 when the denominator is 0). */
GPURF_API double gpurf_trace_stats_fraction(uint64_t num, uint64_t den);

/* ---- synthetic workloads ---- */

typedef struct gpurf_trace_gen_params {
  const char *workload; /* preset name, see gpurf_trace_gen_presets() */
  uint64_t seed;
  uint32_t ctas;        /* 0: the preset's */
  uint32_t warps;       /* warps per CTA; 0: the preset's */
  uint32_t insts;       /* warp instructions per warp; 0: the preset's */
  int values;           /* 1: records carry per-lane values; -1: preset's */
} gpurf_trace_gen_params;

typedef struct gpurf_trace_preset_info {
  const char *name;
  const char *summary;
  const char *fitted_to; /* the published figure or table */
} gpurf_trace_preset_info;

/* The presets, terminated by an entry with name NULL. */
GPURF_API const gpurf_trace_preset_info *gpurf_trace_gen_presets(void);

/* A reader whose records come from a seeded generator: the same parameters
 * give the same trace on every machine. */
GPURF_API int gpurf_trace_gen_alloc(gpurf_ctx *ctx, const gpurf_trace_gen_params *p,
                                    gpurf_trace_reader **out);

GPURF_END_DECLS

#endif
