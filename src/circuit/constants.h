/* Numbers of circuit theory and sizing conventions shared by the circuit and
 * component models, each named once with where it comes from. The values are
 * the ones the models were written and validated with (two-digit rounding
 * included): changing one changes every golden output. */
#ifndef GPURF_CIRCUIT_CONSTANTS_H
#define GPURF_CIRCUIT_CONSTANTS_H

/* 50% point of a lumped RC stage driven by a step: t = ln 2 x R C, written
 * 0.69 as in the Elmore-delay estimates of the textbooks (Rabaey,
 * Chandrakasan, Nikolic, "Digital Integrated Circuits", 2nd ed.; Bakoglu,
 * "Circuits, Interconnections, and Packaging for VLSI", 1990). */
#define GC_LN2_RC 0.69

/* ln 2 to double precision, for the Horowitz ramp model at half swing where
 * the model needs the exact logarithm (log(0.5) = -ln 2). */
#define GC_LN2_EXACT 0.69314718055994531

/* 50% point of a distributed RC line driven by a step: t = 0.38 R C
 * (T. Sakurai, "Approximation of wiring delay in MOSFET LSI", IEEE JSSC 18(4),
 * 1983). The optimal repeater spacing (blocks.c) uses twice it, 0.76. */
#define GC_SAKURAI_DISTRIBUTED_RC 0.38

/* An RC node driven by a step covers 90% of its swing (precharge,
 * discharge) in t = ln 10 x R C, written 2.3 (1 - e^(-t/RC) = 0.9). */
#define GC_LN10_RC 2.3

/* The inverter at the far end of a port wire, in minimum NMOS widths: the
 * load a port's consumer presents at a bank, crossbar or flip-flop array
 * edge, and the drive of the source that starts a repeated port wire. A
 * sizing convention of this project (no published figure), shared by every
 * bank, crossbar and array so that their port costs compare. */
#define GC_PORT_LOAD_MIN 8.0

/* Repeated wires: the energy-saving repeater plan may be this much slower
 * than Bakoglu's delay optimum (CACTI's Global_30 wire type). */
#define GC_REPEATER_DELAY_SLACK 1.3

/* Short-circuit current of a repeater while its input slews, per metre of
 * NMOS width, across nodes (K. Banerjee, A. Mehrotra, "A power-optimal
 * repeater insertion methodology for global interconnects in nanometer
 * designs", IEEE TED 49(11), 2002; the figure CACTI's wire model uses), and
 * the slew time in stage time constants: ln 3 (10% to 90% of a swing takes
 * about ln 9 RC; half of it overlaps the opposite device). */
#define GC_SHORT_CIRCUIT_A_PER_M 65.0
#define GC_LN3 1.0986

/* FO4 delay: an inverter driving four copies of itself (the usual
 * definition; Sutherland, Sproull, Harris, "Logical Effort", 1999). */
#define GC_FO4_FANOUT 4.0

/* Gate capacitance counts the fringe term three times: CACTI 7.0
 * basic_circuit.cc gate_C ((C_g_ideal + C_overlap + 3 C_fringe) W) and
 * NVSim formula.cpp CalculateGateCap do, on the same per-node fringe data. */
#define GC_GATE_FRINGE_SIDES 3.0

/* A memory compiler's bank, the seed of the compiler reference class
 * (gpurf_bank_band_eval): Gebhart et al., "A Hierarchical Thread Scheduler
 * and Register File for Energy-Efficient Throughput Processors", ACM TOCS
 * 30(2), 2012, Table V and Section 6.3: a 4 KB bank of 128-bit words, one
 * read and one write port, compiled in a 40 nm process; 8 pJ per read,
 * 11 pJ per write, 38000 um^2 (validation/gebhart-table5.tsv). */
#define GC_COMPILER_SEED_NODE "40nm"
#define GC_COMPILER_SEED_BYTES 4096
#define GC_COMPILER_SEED_WIDTH_BITS 128
#define GC_COMPILER_SEED_READ_J 8.0e-12
#define GC_COMPILER_SEED_WRITE_J 11.0e-12
#define GC_COMPILER_SEED_AREA_M2 38000.0e-12

#endif
