/* Numbers of circuit theory and sizing conventions shared by the circuit and
 * component models, each named once with where it comes from. The values are
 * the ones the models were written and validated with (two-digit rounding
 * included): changing one changes every golden output. */
#ifndef GPURF_CIRCUIT_CONSTANTS_H
#define GPURF_CIRCUIT_CONSTANTS_H

/* 50% point of a lumped RC stage driven by a step: t = ln 2 x R C, written
 * 0.69 as in Elmore-delay practice (Rabaey, Chandrakasan, Nikolic, "Digital
 * Integrated Circuits", 2nd ed., Sec. 4.4; Bakoglu, "Circuits,
 * Interconnections, and Packaging for VLSI", 1990, Ch. 5). */
#define GC_LN2_RC 0.69

/* ln 2 to double precision, for the Horowitz ramp model at half swing where
 * the model needs the exact logarithm (log(0.5) = -ln 2). */
#define GC_LN2_EXACT 0.69314718055994531

/* 50% point of a distributed RC line driven by a step: t = 0.38 R C
 * (T. Sakurai, "Approximation of wiring delay in MOSFET LSI", IEEE JSSC 18(4),
 * 1983). Bakoglu's repeater spacing uses twice this coefficient (0.76). */
#define GC_SAKURAI_DISTRIBUTED_RC 0.38

/* 90% settling of an RC node (precharge, discharge): t = ln 10 x R C, written
 * 2.3 (Rabaey et al., Sec. 4.4: the 10%-90% definitions). */
#define GC_LN10_RC 2.3

/* Load the consumer of a port presents at a bank, crossbar or array edge, and
 * the size of the repeater that drives a port wire: an inverter this many
 * times the minimum NMOS width. A project sizing convention shared by every
 * bank, crossbar and flip-flop array so that their port costs compare
 * (CACTI sizes its output drivers in the same range). */
#define GC_PORT_LOAD_MIN 8.0

/* Repeated wires: the energy-saving repeater plan may be this much slower
 * than Bakoglu's delay optimum (CACTI's Global_30 wire type). */
#define GC_REPEATER_DELAY_SLACK 1.3

/* FO4 delay: an inverter of width 4 F driving four copies of itself (the
 * usual FO4 definition, e.g. Harris and Sutherland, "Logical effort of
 * carry propagate adders", 2003). */
#define GC_FO4_FANOUT 4.0

#endif
