/* Storage banks: N identical banks of words, each word `width_bits` wide,
 * built from a memory cell, organised into sub-arrays by a search that
 * minimises the chosen objective. All quantities SI. */
#ifndef GPURF_BANK_H
#define GPURF_BANK_H

#include <stddef.h>

#include "gpurf/cell.h"
#include "gpurf/context.h"
#include "gpurf/export.h"
#include "gpurf/tech.h"

GPURF_BEGIN_DECLS

/* Objective of the organisation search. */
typedef enum gpurf_bank_opt {
  GPURF_BANK_OPT_ED2 = 0, /* energy (mean of a read and a write) x delay^2 (default) */
  GPURF_BANK_OPT_EDP,     /* energy x delay */
  GPURF_BANK_OPT_DELAY,
  GPURF_BANK_OPT_ENERGY,
  GPURF_BANK_OPT_AREA,
  GPURF_BANK_OPT_LEAKAGE,
  GPURF_BANK_OPT_ED2_READ, /* read energy x delay^2: CACTI's own ED^2 rule, which weighs a
                              read's energy only (its cacti_interface.cc find_optimal_uca) */
  GPURF_BANK_OPT_COUNT
} gpurf_bank_opt;

GPURF_API int gpurf_bank_opt_parse(const char *name, gpurf_bank_opt *out);
GPURF_API const char *gpurf_bank_opt_name(gpurf_bank_opt opt);

/* Organisations the search may pick (SRAM and STT-RAM banks). */
typedef enum gpurf_bank_space {
  GPURF_BANK_SPACE_OWN = 0, /* any split and mux; an access opens one row of sub-arrays
                               (default) */
  GPURF_BANK_SPACE_CACTI,   /* CACTI 7's own rules: mats of 2 x 2 sub-arrays, at least
                               one, every mat along the word opening all four of its
                               sub-arrays, and a word within one row of sub-arrays
                               (Nspd >= 1), so that each sub-array muxes at least 2:1;
                               ndwl and ndbl are then CACTI's Ndwl and Ndbl */
  GPURF_BANK_SPACE_COUNT
} gpurf_bank_space;

/* "own", "cacti". */
GPURF_API int gpurf_bank_space_parse(const char *name, gpurf_bank_space *out);
GPURF_API const char *gpurf_bank_space_name(gpurf_bank_space space);

/* Port mix of a bank: read/write, read-only and write-only ports. */
typedef struct gpurf_ports {
  int rw;
  int read;
  int write;
} gpurf_ports;

/* Parses "1rw", "1r1w", "3r1w", "2rw1r": counts followed by rw, r or w. */
GPURF_API int gpurf_ports_parse(const char *text, gpurf_ports *out);
/* Writes the canonical form ("1r1w") into buf. */
GPURF_API void gpurf_ports_format(const gpurf_ports *ports, char *buf, size_t size);

/* Parts of a bank that costs are broken down into. */
typedef enum gpurf_bank_part {
  GPURF_BANK_PART_CELLS = 0,     /* storage cells */
  GPURF_BANK_PART_DECODER,       /* predecoders and row decoders */
  GPURF_BANK_PART_WORDLINE,      /* wordline drivers and wordline wires */
  GPURF_BANK_PART_BITLINE,       /* bitlines, precharge and column multiplexers */
  GPURF_BANK_PART_SENSE_AMP,     /* sense amplifiers */
  GPURF_BANK_PART_WRITE_DRIVER,  /* write drivers */
  GPURF_BANK_PART_OUTPUT_DRIVER, /* sub-array output drivers */
  GPURF_BANK_PART_ROUTING,       /* H-tree from sub-arrays to the bank edge */
  GPURF_BANK_PART_INTERBANK,     /* wiring between banks and to the port */
  GPURF_BANK_PART_SLEEP,         /* power-gating sleep transistors (with gate_groups) */
  GPURF_BANK_PART_COUNT
} gpurf_bank_part;

GPURF_API const char *gpurf_bank_part_name(gpurf_bank_part part);

/* Which accesses of one bank may proceed at the same time. */
typedef enum gpurf_bank_overlap {
  GPURF_BANK_OVERLAP_NONE = 0,  /* one access at a time: a write holds the whole bank */
  GPURF_BANK_OVERLAP_PORTS,     /* accesses on different ports proceed together */
  GPURF_BANK_OVERLAP_SPLIT,     /* a read of one half during a write of the other half
                              (split sub-array write, STT-RAM only) */
  GPURF_BANK_OVERLAP_COUNT
} gpurf_bank_overlap;

/* "none", "ports", "read_during_write_other_half". */
GPURF_API const char *gpurf_bank_overlap_name(gpurf_bank_overlap overlap);

typedef struct gpurf_bank_spec {
  const gpurf_tech *tech;
  gpurf_device_kind device; /* device flavour of cells and periphery */
  const gpurf_cell *cell;   /* storage cell; its core grows for extra ports */
  long long entries;        /* words in all banks together */
  int width_bits;           /* bits per word; one access moves one word */
  gpurf_ports ports;
  int banks;                /* identical banks sharing the entries evenly */
  gpurf_bank_opt opt;
  gpurf_bank_space space;   /* organisations searched; GPURF_BANK_SPACE_OWN by default */
  double temp_k;
  double clock_hz;          /* 0: no clock; else cycles are reported */
  double data_activity;     /* E = data_activity x C Vdd^2 per data wire per access */
  int long_channel_periphery; /* periphery drawn with long-channel devices, which
                                 leak the node's long_channel_leakage_factor times
                                 less (cells keep minimum length) */
  int split_write;          /* STT-RAM: split each bank into two halves along the
                               bitlines, with separate read and write address paths,
                               so a read of one half may proceed during a write of
                               the other (WarRF's split bank write); 0 by default */
  int port_along_edge;      /* 1: data enter and leave along the bank's bottom edge,
                               each bit below its column, as a register-file bank
                               feeding a bit-sliced crossbar; 0 (default): at one
                               port in the middle of that edge, as CACTI */
  int gate_groups;          /* SRAM sub-array power gating (Jeon et al.): each bank's
                               sub-arrays form this many groups of consecutive words,
                               each behind one NMOS sleep transistor that cuts its
                               supply (contents are lost); a power of two up to 64,
                               0 (default) for none */
} gpurf_bank_spec;

/* Defaults: 1 bank, ports 1rw, objective ed2, 360 K, no clock, device hp,
 * data activity 1, long-channel periphery (both as CACTI's defaults), no
 * split write.
 * tech, cell, entries and width must be set. */
GPURF_API void gpurf_bank_spec_init(gpurf_bank_spec *spec);

/* The organisation the search chose. Sub-arrays hold rows x cols cells; a
 * bank is ndbl sub-arrays along the bitlines by ndwl along the wordlines. */
typedef struct gpurf_bank_org {
  int rows;            /* physical rows per sub-array */
  int cols;            /* physical columns per sub-array */
  int col_mux;         /* words side by side in a row; 1 of col_mux is selected */
  int ndwl;            /* sub-arrays along the wordline */
  int ndbl;            /* sub-arrays along the bitline */
  long long entries_per_bank;
  long long padding_bits; /* cells built beyond the capacity of one bank */
} gpurf_bank_org;

typedef struct gpurf_bank_cost {
  double area_m2;         /* all banks and the wiring between them */
  double access_time_s;   /* read: address in to data out, one bank */
  double cycle_time_s;    /* minimum time between accesses of one bank. Sub-array banks
                             (SRAM, STT-RAM): the slowest pipelined stage of a read (the
                             decoder, the sub-array from row gate to restore, each
                             route), as CACTI's random cycle, so that
                             access + restore >= cycle >= every stage. Flip-flop and
                             latch arrays: the longer of a read and a write */
  double restore_time_s;  /* after a read has been sensed, the time before the sub-array
                             can open its next row (wordline fall, precharge enable,
                             bitline restore); 0 for flip-flop and latch arrays */
  double write_latency_s; /* address and data in to the cell written */
  double read_energy_j;   /* one read of width_bits from one bank, with routing */
  double write_energy_j;  /* one write of width_bits into one bank, with routing */
  double leakage_sub_w;   /* all banks */
  double leakage_gate_w;  /* all banks */
  int read_cycles;        /* with a clock: cycles per read, else 0 */
  int write_cycles;       /* with a clock: cycles per write, else 0 */
  double area_part_m2[GPURF_BANK_PART_COUNT];
  double read_part_j[GPURF_BANK_PART_COUNT];
  double write_part_j[GPURF_BANK_PART_COUNT];
  double delay_part_s[GPURF_BANK_PART_COUNT]; /* contribution to the read access time */
  double leakage_part_w[GPURF_BANK_PART_COUNT];
  gpurf_bank_org org;
  long long candidates; /* organisations evaluated by the search */
  long long rejected;   /* of those, organisations that cannot work (an STT-RAM read
                           margin or headroom that fails) */
  gpurf_bank_overlap overlap; /* which accesses of one bank may overlap */
  /* With gate_groups: one group of one bank. Gated, a group leaks
   * gated_leakage_fraction of its share (bank leakage / gate_groups: the
   * bank's routing stays powered); waking it costs wake_energy_j and
   * wake_latency_s (wake_cycles with a clock). */
  int gate_groups;
  double gated_leakage_fraction;
  double wake_energy_j;
  double wake_latency_s;
  int wake_cycles;
  /* The wiring between banks (already in the totals above): its repeaters'
   * gate leakage, and the leakage of the repeaters along one path from the
   * port to a bank, every wire of it (what CACTI 7 prints as the wiring's
   * leakage beside one bank's). 0 for one bank. */
  double interbank_leakage_gate_w;
  double interbank_path_leakage_sub_w;
  double interbank_path_leakage_gate_w;
} gpurf_bank_cost;

/* Evaluates a bank, searching its organisation. SRAM and STT-RAM cells build
 * sub-arrays; flip-flop and latch cells build one flop array per bank (an
 * entry per row, a read mux tree per read port). Fails with GPURF_EINVAL for
 * sizes and port mixes that make no sense (zero, width above capacity, a
 * read/write port on a flip-flop, several ports on a 1T1MTJ cell, a split
 * write on anything but STT-RAM) and with GPURF_EUNSUPPORTED when no
 * organisation can work (an STT-RAM read margin below the cell's minimum). */
GPURF_API int gpurf_bank_eval(gpurf_ctx *ctx, const gpurf_bank_spec *spec, gpurf_bank_cost *cost);

/* The band of references beside a bank's figures. The references gpurf is
 * validated against disagree with each other by more than any tolerance
 * (for a 22 nm 8 KB bank of 1024-bit words CACTI 7 reads at 22.6 pJ, NVSim at
 * 2.76 pJ), so a figure comes with the spread of the reference classes:
 *   CACTI class     gpurf's own model (CACTI-class periphery), as evaluated;
 *   NVSim class     the same bank with nominal (minimum-length) periphery
 *                   devices and without what NVSim leaves out: write and
 *                   output drivers, and the data path of a bank of one mat
 *                   (at most 2 x 2 sub-arrays);
 *   compiler class  gpurf's figures scaled by the ratio of a published
 *                   memory compiler's bank to gpurf's model of the same bank
 *                   (Gebhart et al. 2012, Table V: 4 KB, 128-bit, 1R1W at
 *                   40 nm); it gives read and write energy and area only,
 *                   and only for SRAM (no compiled STT-RAM bank is published).
 * SRAM and STT-RAM banks (for STT-RAM the CACTI class is gpurf's own model
 * of the bank, whose periphery is CACTI-class); flip-flop and latch arrays
 * have no band: neither CACTI nor NVSim models them. */
typedef enum gpurf_bank_metric {
  GPURF_BANK_METRIC_ACCESS_TIME,
  GPURF_BANK_METRIC_CYCLE_TIME,
  GPURF_BANK_METRIC_WRITE_LATENCY,
  GPURF_BANK_METRIC_READ_ENERGY,
  GPURF_BANK_METRIC_WRITE_ENERGY,
  GPURF_BANK_METRIC_AREA,
  GPURF_BANK_METRIC_LEAKAGE,
  GPURF_BANK_METRIC_COUNT
} gpurf_bank_metric;

typedef enum gpurf_bank_ref_class {
  GPURF_BANK_REF_CACTI,
  GPURF_BANK_REF_NVSIM,
  GPURF_BANK_REF_COMPILER,
  GPURF_BANK_REF_COUNT
} gpurf_bank_ref_class;

typedef struct gpurf_bank_band {
  /* SI units (s, J, m^2, W); NAN where a class gives no figure. */
  double value[GPURF_BANK_REF_COUNT][GPURF_BANK_METRIC_COUNT];
  double low[GPURF_BANK_METRIC_COUNT], high[GPURF_BANK_METRIC_COUNT];
  /* Of each class's leakage, the wiring between banks (subthreshold and gate;
   * 0 for one bank; NAN where the class gives no leakage), the whole tree and
   * its repeaters along one path: with them a caller can state leakage as
   * CACTI does, one bank plus the wiring counted along one path,
   * (leakage - tree) / banks + path. */
  double interbank_leakage_w[GPURF_BANK_REF_COUNT];
  double interbank_path_leakage_w[GPURF_BANK_REF_COUNT];
} gpurf_bank_band;

/* "access_time", "cycle_time", ...; "cacti", "nvsim", "compiler". */
GPURF_API const char *gpurf_bank_metric_name(gpurf_bank_metric m);
GPURF_API const char *gpurf_bank_ref_class_name(gpurf_bank_ref_class c);

/* Fills the band for spec, whose own evaluation (gpurf_bank_eval) is ours.
 * Fails with GPURF_EUNSUPPORTED for flip-flop and latch cells. */
GPURF_API int gpurf_bank_band_eval(gpurf_ctx *ctx, const gpurf_bank_spec *spec,
                                   const gpurf_bank_cost *ours, gpurf_bank_band *band);

GPURF_END_DECLS

#endif
