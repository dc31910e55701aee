/* The command table of gpurf: every command with its one-line summary, its
 * handler and its options with their help. Dispatch, option parsing,
 * `gpurf help`, every `--help` and the README check are made from it, so a
 * command or option added here is added everywhere (cf. Lua's luaL_Reg). */
#include "cli/cli.h"

static const char *const fmt_tj[] = {"text", "json", NULL};
static const char *const fmt_tcj[] = {"text", "csv", "json", NULL};
static const char *const fmt_tcjm[] = {"text", "csv", "json", "md", NULL};
static const char *const trace_forms[] = {"text", "binary", NULL};
static const char *const bench_cells[] = {"sram", "stt", "dff", "latch", NULL};
static const char *const peripheries[] = {"long-channel", "nominal", NULL};
static const char *const port_places[] = {"point", "edge", NULL};
static const char *const spaces[] = {"own", "cacti", NULL};
static const char *const reconv_rules[] = {"markers", "min-pc", NULL};

#define END {NULL, NULL, 0, NULL, NULL, NULL}
#define FORMAT(list) {"--format", NULL, 0, list, "output format (default text)", NULL}
#define TECH(flags)                                                                          \
  {"--tech", "NODE", flags, NULL,                                                            \
   "technology node: 22, 22nm, a node between two files, or a node YAML", NULL}
#define DEVICE(what) {"--device", "hp|lstp|lop", 0, NULL, what, NULL}
#define TEMP {"--temp-k", "T", 0, NULL, "temperature for leakage, in kelvin (default 360)", NULL}
#define SEED(what) {"--seed", "S", 0, NULL, what, NULL}
#define OPT(name, arg, what) {name, arg, 0, NULL, what, NULL}
#define ACTIVITY(what) {"--activity", "A", 0, NULL, what, NULL}
#define RF_AREA                                                                              \
  {"--rf-area-mm2", "A", 0, NULL, "area of the register file the overhead is a share of", NULL}

static const cli_option o_tech_list[] = {FORMAT(fmt_tj), END};
static const cli_option o_tech_show[] = {
    DEVICE("show one ITRS device flavour (default: all three)"), TEMP, FORMAT(fmt_tj), END};
static const cli_option o_cell_show[] = {
    {"--tech", "NODE", 0, NULL,
     "also the cell's footprint at that node, multi-port growth included", NULL},
    FORMAT(fmt_tj), END};

static const cli_option o_bank[] = {
    TECH(CLI_REQUIRED),
    DEVICE("ITRS device flavour (default hp)"),
    {"--cell", "sram|FILE", CLI_REQUIRED, NULL,
     "sram: the shipped 6T cell for 1rw, 8T for 1r1w, the multi-port "
     "cell (grown per extra port) otherwise; dff or latch: a flip-flop "
     "or latch array, one per bank (default ports 1r1w; read and write "
     "ports only); else a cell name (stt-40f2-cal-vol) or a cell YAML, "
     "whose ports an SRAM bank takes when --ports is not given", NULL},
    OPT("--bytes", "N", "capacity of all banks together, in bytes (a whole number of words)"),
    OPT("--entries", "E", "capacity of all banks together, in words of BITS bits"),
    {"--width", "BITS", CLI_REQUIRED, NULL, "bits of a word", NULL},
    OPT("--ports", "1rw|1r1w|NrMw", "ports of each bank: counts of rw, r and w ports"),
    OPT("--banks", "N", "identical banks sharing the capacity (default 1)"),
    {"--split-write", NULL, 0, NULL,
     "STT-RAM: two halves with separate read and write address paths, "
     "so a read of one half may overlap a write of the other", NULL},
    OPT("--opt", "ed2|edp|delay|energy|area|leakage|ed2-read",
        "objective of the organisation search (default ed2)"),
    {"--space", NULL, 0, spaces,
     "SRAM: organisations searched: own (default: any split and mux, one row of "
     "sub-arrays open) or cacti (CACTI 7's: mats of 2 x 2 sub-arrays all open, a mux of "
     "2 or more, the bank built as CACTI builds it; docs/models.md)", NULL},
    TEMP,
    OPT("--clock-ghz", "F", "also report read and write latency in clock cycles"),
    {"--periphery", NULL, 0, peripheries,
     "long-channel (default, as CACTI) or nominal (minimum-length "
     "periphery devices, as NVSim): periphery leakage only", NULL},
    {"--port", NULL, 0, port_places,
     "point (default): data enter and leave at the middle of the bank's "
     "bottom edge; edge: each bit below its own column, as a bank "
     "feeding a bit-sliced crossbar", NULL},
    OPT("--gate-groups", "G",
        "SRAM: power-gate each bank's sub-arrays in G groups of "
        "consecutive words (a power of two up to 64), one sleep transistor "
        "each; reports the gated leakage and wake-up cost"),
    {"--band", NULL, 0, NULL,
     "SRAM and STT-RAM: beside each figure, the band its reference classes span: CACTI "
     "class (this model), NVSim class (nominal periphery, no write/output drivers, a "
     "one-mat data path for free) and, for SRAM, memory-compiler class (scaled from a "
     "published compiled bank; energy and area only); JSON adds <metric>_band: [low, high]",
     NULL},
    {"--batch", "FILE", CLI_INSTEAD, NULL,
     "evaluates every row of FILE ('-': standard input) in one process: a tab-separated "
     "table whose header names options without their dashes (tech, cell, ports, bytes, "
     "entries, width, banks, opt, device, temp-k, clock-ghz, periphery, port, gate-groups, "
     "split-write 0|1); an empty cell leaves the option out, options on the command line "
     "apply to every row; '#' lines are comments. Prints CSV (one row per configuration, "
     "with its line and an error column) or JSON lines (--format json); a bad row gives an "
     "error row and the command exits 1 after the others", NULL},
    FORMAT(fmt_tcj), END};

static const cli_option o_validate[] = {
    {"--set", "NAME|FILE", 0, NULL, "one reference set, by name or path (default: all)", NULL},
    {"--check", NULL, 0, NULL, "exit with status 1 when a gated set leaves its tolerance", NULL},
    FORMAT(fmt_tcj), END};

static const cli_option o_bench_bank[] = {
    {"--cell", NULL, 0, bench_cells,
     "sram (default): ports 1rw, 1r1w, 3r1w "
     "stt: the four stt-40f2-* cells, 1rw, half with split write; "
     "current sensing only at 22-45 nm, where its converter is known "
     "dff, latch: flop arrays of 1 to 256 entries per bank, ports 1r1w, "
     "2r1w, 3r1w, 3r2w", NULL},
    OPT("--n", "N", "configurations (default 10000)"),
    SEED("seed of the configurations (default 1)"), FORMAT(fmt_tj), END};
static const cli_option o_bench_events[] = {
    OPT("--n", "N", "events (default 200000000)"), SEED("seed of the event stream (default 1)"),
    FORMAT(fmt_tj), END};
static const cli_option o_bench_sim[] = {
    {"--workload", "NAME", 0, NULL,
     "synthetic preset (default compute: 524288 warp instructions)", NULL},
    SEED("seed of the preset (default 1)"),
    OPT("--trace", "PATH", "a trace to simulate instead of the preset"),
    {"--values", NULL, 0, NULL,
     "write the preset's per-lane register values into its trace (default: without, as "
     "the pipeline reads it)", NULL},
    OPT("--n", "RUNS", "runs; the best is reported (default 10)"), FORMAT(fmt_tj), END};

static const cli_option o_bench_reproduce[] = {
    OPT("--workloads", "SET", "as for gpurf reproduce (default: each paper's)"),
    OPT("--jobs", "N", "threads (default 2)"), FORMAT(fmt_tj), END};

static const cli_option o_trace_stats[] = {FORMAT(fmt_tj), END};
static const cli_option o_trace_convert[] = {
    {"--to", NULL, 0, trace_forms, "native form written (default: binary for OUT.gtraceb)", NULL},
    END};
static const cli_option o_trace_gen[] = {
    {"--workload", "NAME", 0, NULL, "synthetic preset (see --list)", NULL},
    SEED("seed: the same seed gives the same trace"),
    {"--output", "OUT", 0, NULL, "trace file to write (binary if it ends in .gtraceb)", "-o"},
    OPT("--ctas", "C", "CTAs (default: the preset's)"),
    OPT("--warps", "W", "warps per CTA (default: the preset's)"),
    OPT("--insts", "N", "warp instructions per warp (default: the preset's)"),
    {"--no-values", NULL, 0, NULL, "records without per-lane register values", NULL},
    {"--to", NULL, 0, trace_forms, "native form written (default: by OUT's ending)", NULL},
    {"--list", NULL, 0, NULL, "show the presets and the published figures they match", NULL},
    FORMAT(fmt_tj), END};
/* The emulator's options, shared by trace record and bench emu. */
#define EMU_OPTIONS(warps)                                                                  \
  OPT("--warps", "W", "warps of the SIMT core, 1..64 (default " warps ")"),               \
  OPT("--blocks", "B", "resident thread blocks; threads per block = 32 W / B (default 1)"), \
  OPT("--size", "N", "problem size (default: the kernel's own)"),                          \
  {"--reconv", NULL, 0, reconv_rules, "reconvergence rule (default markers, SIMTight's)",  \
   NULL},                                                                                  \
  OPT("--step-limit", "N", "give up after N warp instructions (default 2^32)")
static const cli_option o_trace_record[] = {
    OPT("--kernel", "NAME", "a kernel of the suite (workloads/riscv; docs/workloads.md)"),
    OPT("--elf", "FILE", "an ELF built for SIMTight's memory map"),
    {"--output", "OUT", 0, NULL, "trace file: OUT ending in .gtrace is native text, else binary",
     "-o"},
    EMU_OPTIONS("4"), {"--format", NULL, 0, fmt_tj, "summary format (default text)", NULL}, END};
static const cli_option o_bench_emu[] = {
    OPT("--kernel", "NAME", "a kernel of the suite (default matmul)"), EMU_OPTIONS("8"),
    OPT("--n", "RUNS", "runs; the best is reported (default 3)"), FORMAT(fmt_tj), END};
static const cli_option o_trace_dataflow[] = {
    OPT("--kernel", "K", "kernel index, from 0 (default 0)"), FORMAT(fmt_tj), END};

static const cli_option o_energy[] = {
    OPT("--instructions", "N",
        "instructions executed over the counted cycles (else the file's "
        "'instructions' line, if any)"),
    OPT("--cycles", "N",
        "cycles the counts cover, for an AccelWattch report without gpu_sim_cycle lines"),
    OPT("--sim-log", "FILE",
        "the simulator's standard output for an AccelWattch report (its gpu_sim_cycle lines "
        "give the cycles)"),
    FORMAT(fmt_tcj), END};
static const cli_option o_rf[] = {FORMAT(fmt_tcj), END};
static const cli_option o_sweep[] = {
    {"--set", "KEY=V1,V2,...", CLI_REPEAT, NULL,
     "an axis: a key of the design and its values; KEY+KEY=V:V,V:V "
     "moves keys together (the first --set varies slowest)", NULL},
    {"--plot", "FILE.png|FILE.svg", 0, NULL,
     "draw normalised area, delay, energy per read and leakage with "
     "their breakdowns (needs gnuplot)", NULL},
    OPT("--base", "N", "the point the plot is normalised to (default 1)"),
    OPT("--jobs", "N", "points on N threads (output identical for any N)"),
    OPT("--shard", "I/N",
        "evaluates the points p (from 0) with p mod N = I and writes their exact results for "
        "'gpurf sweep merge'"),
    OPT("--out", "FILE|DIR",
        "with --shard: the results file, or DIR/shard-I-of-N.results for a directory (an "
        "existing one or a name ending in '/'); default standard output"),
    FORMAT(fmt_tcj), END};
static const cli_option o_sweep_merge[] = {
    {"--plot", "FILE.png|FILE.svg", 0, NULL, "as for gpurf sweep", NULL},
    OPT("--base", "N", "the point the plot is normalised to (default 1)"), FORMAT(fmt_tcj), END};
static const cli_option o_sim[] = {
    {"--trace", "PATH", CLI_REPEAT, NULL,
     "an Accel-Sim kernel-N.traceg, kernelslist.g or directory, or a native trace", NULL},
    {"--workload", "NAME", CLI_REPEAT, NULL, "a synthetic preset (gpurf trace gen --list)", NULL},
    SEED("seed of the synthetic presets (default 1)"),
    {"--set", "KEY=VALUE", CLI_REPEAT, NULL, "an SM parameter, e.g. policy=lrr (keys below)", NULL},
    OPT("--technique", "NAME",
        "a register-file technique on the pipeline's hooks ('list' names them)"),
    {"--technique-set", "KEY=VALUE", CLI_REPEAT, NULL, "an option of the technique", NULL},
    OPT("--jobs", "N", "traces simulated at once, on N threads (the same output for any N)"),
    FORMAT(fmt_tcj), END};
static const cli_option o_table[] = {
    {"--list", NULL, 0, NULL, "the tables there are", NULL},
    {"--format", NULL, 0, fmt_tcjm, "output format (default text; md: a Markdown table)", NULL},
    END};

static const cli_option o_xbar[] = {
    {"--inputs", "N", CLI_REQUIRED, NULL, "input ports", NULL},
    {"--outputs", "M", CLI_REQUIRED, NULL, "output ports", NULL},
    {"--width", "BITS", CLI_REQUIRED, NULL, "bits of a port", NULL},
    TECH(CLI_REQUIRED),
    DEVICE("ITRS device flavour (default hp)"),
    OPT("--style", "matrix|mux",
        "matrix (default): bit-sliced, one N x M slice of tri-state "
        "crosspoints per bit, slices in a square array, wires to the four "
        "edges; mux: per output, a tree of 2:1 multiplexers per bit"),
    ACTIVITY("energy per data wire per transfer is A x C Vdd^2 (default 0.25: "
             "a static bus with random data)"),
    OPT("--wire", "local|semi-global|global", "metal of the data wires (default semi-global)"),
    TEMP, FORMAT(fmt_tcj), END};
static const cli_option o_arbiter[] = {
    {"--banks", "N", CLI_REQUIRED, NULL, "banks granted", NULL},
    {"--requesters", "R", CLI_REQUIRED, NULL, "requesters in each class", NULL},
    {"--classes", "K", CLI_REQUIRED, NULL, "request classes, 2 to 5 (see above)", NULL},
    TECH(CLI_REQUIRED),
    DEVICE("ITRS device flavour (default hp)"),
    OPT("--registers", "N",
        "warp registers in the register file (default 1024): sizes the "
        "write-stealing status table"),
    ACTIVITY("energy per logic node per decision is A x C Vdd^2 (default 0.25)"),
    RF_AREA,
    OPT("--rf-bytes", "N", "or: an SRAM register file of N bytes in --banks banks"),
    OPT("--rf-width", "BITS", "with --rf-bytes: bits of a bank's word (default 1024)"),
    TEMP, FORMAT(fmt_tcj), END};

#define COMPONENT_ENV TECH(CLI_REQUIRED), DEVICE("ITRS device flavour (default hp)"), TEMP
static const cli_option o_rename[] = {
    COMPONENT_ENV,
    OPT("--warps", "N", "warps (default 48)"),
    OPT("--regs", "N", "architected registers per thread (default 63)"),
    OPT("--phys-regs", "N", "physical registers (default 1024)"),
    OPT("--banks", "N", "banks of the physical registers (default 4)"),
    OPT("--budget-bytes", "B",
        "table budget: only the registers that fit are renamed (the rest "
        "are exempted and mapped directly)"),
    OPT("--flag-entries", "N", "release flag cache entries (default 10)"),
    OPT("--flag-bits", "N", "release flags per entry (default 54)"),
    OPT("--flag-tag-bits", "N", "tag bits of a flag cache entry (default 0)"),
    FORMAT(fmt_tcj), END};
static const cli_option o_wpool[] = {
    COMPONENT_ENV,
    OPT("--entries", "N", "pool entries (default 60)"),
    OPT("--warps", "N", "warps (default 48)"),
    OPT("--regs", "N", "registers per thread (default 63)"),
    OPT("--lanes", "N", "lanes of a pool entry (default 32)"),
    OPT("--word-bits", "N", "bits per lane (default 32)"),
    OPT("--ports", "1rw|1r1w|NrMw", "ports of the pool array (default 1rw)"),
    RF_AREA,
    OPT("--rf-bytes", "N",
        "or: N bytes of 1rw SRAM banks of one warp register each word, on the same node"),
    OPT("--rf-banks", "N", "with --rf-bytes: banks (default 16)"),
    FORMAT(fmt_tcj), END};
static const cli_option o_crf[] = {
    COMPONENT_ENV,
    OPT("--warps", "N", "warps (default 64)"),
    OPT("--lanes", "N", "lanes (default 32)"),
    OPT("--regs", "N", "architectural registers per thread (default 32)"),
    OPT("--word-bits", "N", "bits per lane (default 32)"),
    OPT("--vrf-regs", "V", "VRF slots; without it, the uncompressed baseline"),
    OPT("--base-bits", "N", "bits of the base field (default 32)"),
    OPT("--stride-bits", "N", "bits of the stride field (default 2)"),
    OPT("--srf-copies", "N", "copies of the SRF (default 2)"),
    {"--separate-pointer", NULL, 0, NULL,
     "give the VRF pointer a field of its own instead of sharing the base field", NULL},
    FORMAT(fmt_tcj), END};
static const cli_option o_rfc_tags[] = {
    COMPONENT_ENV,
    OPT("--warps", "N", "active warps (default 8)"),
    OPT("--entries", "N", "RFC entries per thread (default 6)"),
    OPT("--regs", "N", "registers per thread (default 63)"),
    OPT("--lookups", "N", "operands checked per instruction (default 4)"),
    FORMAT(fmt_tcj), END};

static const cli_option o_reproduce[] = {
    OPT("--workloads", "SET",
        "default (each paper's), shipped, synthetic, riscv, suite (the RV32 kernels run on the "
        "emulator), suite-rv32e, a directory of traces, or sets joined with '+'"),
    OPT("--jobs", "N", "simulations on N threads (output identical for any N)"),
    OPT("--out", "DIR",
        "writes DIR/index.html, results.json, PAPER.csv and the figures (SVG); with --shard, "
        "DIR/shard-I-of-N.results"),
    OPT("--shard", "I/N",
        "runs the jobs j with j mod N = I and writes their results (to --out DIR, else "
        "standard output) for 'gpurf reproduce merge'"),
    {"--quiet", NULL, 0, NULL, "no progress line on a terminal", NULL},
    {"--list", NULL, 0, NULL, "the papers, their citations and default workloads", NULL},
    {"--format", NULL, 0, fmt_tcjm, "output format (default text; md: Markdown tables)", NULL},
    END};
static const cli_option o_reproduce_merge[] = {
    OPT("--out", "DIR", "writes the report of the whole run, as a run without --shard does"),
    {"--format", NULL, 0, fmt_tcjm, "output format (default text; md: Markdown tables)", NULL},
    END};

#define COMPONENT_ABOUT "Energies are per event; area and leakage cover the whole component. "

const cli_group cli_groups[] = {
    {"tech", "subcommand", "technology nodes"},
    {"cell", "subcommand", "memory cells"},
    {"component", "component", "the extra storage of published register-file techniques"},
    {"trace", "subcommand", "warp-instruction traces"},
    {"bench", "benchmark", "how fast the models run"},
    {NULL, NULL, NULL}};

const cli_command cli_commands[] = {
    {"tech list", NULL, 0, "list the technology node files", NULL, cmd_tech_list, o_tech_list,
     NULL, NULL},
    {"tech show", "NODE", 1,
     "a node's device and wire parameters with derived checks (FO4 delay, wire RC)",
     "NODE is a node name (22, 22nm, 28nm) or a path to a node YAML file.\n"
     "A node between two shipped files is interpolated (monotone Steffen spline\n"
     "over the feature size); one outside them is an error.\n",
     cmd_tech_show, o_tech_show, NULL,
     "which node? e.g. 'gpurf tech show 40nm'"},
    {"cell show", "NAME|FILE", 1, "print a memory-cell file (tech/cells/NAME.yaml or a path)", NULL,
     cmd_cell_show, o_cell_show, NULL,
     "which cell? e.g. 'gpurf cell show sram-6t'"},
    {"bank", NULL, 0,
     "SRAM, STT-RAM and flop-array banks: area, timing, energy, leakage and the organisation "
     "chosen",
     "Evaluates N identical banks of words and prints the organisation the\n"
     "search chose with its area, timing, energy and leakage. Give exactly one\n"
     "of --bytes and --entries. Energies and times are per access of one bank\n"
     "(one word); area and leakage cover all banks. --batch evaluates a table of\n"
     "configurations, one per row, instead of one given by the options.\n",
     cmd_bank, o_bank, NULL, NULL},
    {"xbar", NULL, 0, "operand crossbar, bit-sliced matrix or mux trees",
     "Evaluates a crossbar of N input and M output ports of BITS bits. Energy\n"
     "is one transfer of one BITS-bit word from one input to one output; delay\n"
     "is the farthest bit's path from input port to output port.\n",
     cmd_xbar, o_xbar, NULL, NULL},
    {"arbiter", NULL, 0, "bank arbiter with the bank-stealing classes",
     "Evaluates the arbiter granting N banks to R requesters in each of K\n"
     "request classes (2..5), highest priority first:\n"
     "  2  normal write > normal read (conventional)\n"
     "  3  normal write > normal read > stealing read\n"
     "  4  forced write > normal read > normal write > stealing write\n"
     "  5  forced write > normal read > stealing read > normal write > stealing write\n"
     "with round-robin selection inside a class. Area counts gates (no routing);\n"
     "energy is one arbitration cycle of all banks; delays also in FO4.\n"
     "The overhead of K classes over the 2-class arbiter is reported; with\n"
     "--rf-area-mm2 or --rf-bytes also as a share of the register file.\n",
     cmd_arbiter, o_arbiter, NULL, NULL},
    {"component rename", NULL, 0,
     "Jeon et al.'s register renaming table, availability vectors, release flag cache",
     COMPONENT_ABOUT, cmd_component_rename, o_rename, NULL, NULL},
    {"component wpool", NULL, 0, "WarRF's write pool, indicator CAM and pool array",
     "With --rf-area-mm2 or --rf-bytes, also the pool's share of the register\nfile. "
     COMPONENT_ABOUT, cmd_component_wpool, o_wpool, NULL, NULL},
    {"component crf", NULL, 0, "SIMTight's compressed register file (SRF, VRF, free-slot stack)",
     COMPONENT_ABOUT, cmd_component_crf, o_crf, NULL, NULL},
    {"component rfc-tags", NULL, 0,
     "Gebhart et al.'s register file cache tags and operand comparators",
     "A flip-flop row of tags per active warp and the comparators that check\n"
     "an instruction's operands against it. " COMPONENT_ABOUT,
     cmd_component_rfc_tags, o_rfc_tags, NULL, NULL},
    {"rf", "MODEL", 1,
     "primitive table of a register-file design: energy per event, leakage, area, timing",
     "Prints the primitive table of a register-file design: energy per event of\n"
     "every component, leakage and area per instance and in total, and access\n"
     "times in ns and in cycles of the design's clock. MODEL is a design name\n"
     "(models/NAME.yaml in the data directory) or a path to a design file.\n",
     cmd_rf, o_rf, NULL,
     "which design? e.g. 'gpurf rf warrf-sram'"},
    {"sweep", "MODEL", 1,
     "a design over the product of key values: area, leakage, read path, energy",
     "Evaluates a register-file design at every combination of the values given\n"
     "and prints, per point, the area by role (cell arrays, bank periphery,\n"
     "crossbar, arbiter, extra structures), leakage, the operand read path\n"
     "(arbiter + slowest storage access + crossbar) in ns and cycles, its energy\n"
     "per read, and the energy of every event of every component.\n"
     "\n"
     "KEY is a dotted path into the design file: tech, device, temp_k, clock_hz,\n"
     "sm.warps, banks[0].count, banks[0].entries, banks[0].width_bits,\n"
     "banks[0].ports, banks[0].cell, crossbar.inputs, crossbar.outputs,\n"
     "arbiter.banks, arbiter.classes, extras[0].vrf_regs, ...\n"
     "\n"
     "Keys that must move together are joined by '+' and their values by ':'; they\n"
     "form one axis and change in lockstep. The bank count at fixed capacity:\n"
     "  --set 'banks[0].count+banks[0].entries+crossbar.inputs+arbiter.banks=\n"
     "         8:128:8:8,16:64:16:16,32:32:32:32'\n",
     cmd_sweep, o_sweep, NULL,
     "which design? e.g. 'gpurf sweep jing-128k-16bk-straight --set "
     "clock_hz=7e8,1e9'"},
    {"sweep merge", "PARTS...", CLI_MAX_POS, "the output of a sweep from its shards' results",
     "Joins the results files the shards of one sweep wrote (gpurf sweep ...\n"
     "--shard I/N) and prints what the unsharded sweep prints. Files of\n"
     "different sweeps, and a set of files that misses a point, are refused.\n",
     cmd_sweep_merge, o_sweep_merge, NULL, "merge needs the results files of the shards"},
    {"table", "NAME", 1, "a seed paper's table, ours beside the published numbers",
     "Rebuilds a table of a seed paper from the designs in models/ and the\n"
     "component models, and prints ours beside the published number where the\n"
     "paper prints one: columns config, metric, unit, ours, published, rel_error\n"
     "((ours - published) / published). Published and rel_error are empty where\n"
     "the paper gives no number (an image, or a table withheld as a blind test).\n"
     "\n"
     "Tables: jing-t3, jing-f3, gebhart-t4, gebhart-t5, warrf-t2, jeon-t2,\n"
     "simtight-f8.\n",
     cmd_table, o_table, NULL, NULL},
    {"validate", NULL, 0, "compare the bank model with the reference sets in validation/",
     "Evaluates the bank model on every row of the reference sets in\n"
     "DATA_DIR/validation/*.tsv (or one set, by name or path) and prints ours,\n"
     "the reference and the relative error (ours - ref) / ref per metric, then\n"
     "per set and metric the median |error|, the worst row and whether the\n"
     "set's stated tolerance holds. Sets without a tolerance are reported only.\n"
     "Beside every reference number of an SRAM or STT-RAM row stands the band\n"
     "our reference classes span for that bank (as `gpurf bank --band`: CACTI\n"
     "class = ours, NVSim class, compiler class for SRAM) and whether the\n"
     "reference lies inside it; a table counts, per set and metric, the\n"
     "references inside (flip-flop arrays have no band). JSON gives\n"
     "<metric>_band: [low, high] per row and in_band per comparison; CSV adds\n"
     "band_low, band_high, in_band, band_rows and band_inside.\n"
     "Sets named *-pipeline.tsv hold another simulator's counts on the shipped\n"
     "traces: the pipeline runs each trace and prints ours beside the peer's\n"
     "(reported, never gated; docs/pipeline-peer.md).\n"
     "validation/README.md describes the file format.\n",
     cmd_validate, o_validate, NULL, NULL},
    {"energy", "MODEL|TABLE COUNTS|RUN_DIR", 2,
     "cost counted register-file events (a counters file or an AccelWattch report)",
     "Costs the events of COUNTS with the per-event energies, leakage and\n"
     "gating costs of MODEL (a design: models/NAME.yaml or a path, costed by the\n"
     "models) or TABLE (a primitive table file, docs/table-format.md) and\n"
     "prints dynamic energy per component and event, leakage energy per\n"
     "component, totals, average power and, given instructions, energy per\n"
     "instruction, instructions per joule and the energy-delay product.\n"
     "COUNTS is a gpurf-counters file or an AccelWattch power report\n"
     "(docs/counters-format.md); for the latter the output says which events\n"
     "each of REG_RD, REG_WR and NON_REG_OPs became, and AccelWattch's own\n"
     "register-file power (gpu_avg_RFP, weighted by each kernel's cycles)\n"
     "beside ours, with the ratio. RUN_DIR is an Accel-Sim run directory: its\n"
     "accelwattch_power_report.log is read, and the kernels' cycles are taken\n"
     "from the simulator's output (the one file there, or beside a report,\n"
     "with gpu_sim_cycle lines).\n",
     cmd_energy, o_energy, NULL,
     "needs TABLE and COUNTS"},
    {"sim", "[MODEL]", 1,
     "traces through the register-file pipeline of an SM: cycles, IPC, conflicts, energy",
     "Runs warp-instruction traces (--trace, --workload; at least one) through\n"
     "one SM's register-file pipeline (schedulers, scoreboard, operand\n"
     "collectors, bank arbiter, crossbar, execution units, result bus) and\n"
     "prints cycles, IPC, bank conflicts (inter-read, inter-write,\n"
     "intra-instruction), bank utilisation, operand fetch latency, stalls and the\n"
     "energy of every component of the design. MODEL is a design name or file\n"
     "(default fermi-baseline: a GTX480-like SM). Several traces print one row\n"
     "each and a geometric mean. --technique runs a register-file technique on\n"
     "the pipeline's hooks with its options set by --technique-set, and prints\n"
     "what it counted.\n",
     cmd_sim, o_sim, cmd_sim_help_tail, NULL},
    {"reproduce", "PAPER|all", 1,
     "each seed paper's claims, published beside ours, with a report; shards and merge",
     "Runs a paper's experiment (its designs on a workload set, through the\n"
     "models and the register-file pipeline) and prints its published claims,\n"
     "each beside ours: published, ours, relative error and whether ours has\n"
     "the paper's direction. A claim whose mechanism is not built says 'not\n"
     "modelled'. PAPER is jing, gebhart, warrf, simtight or jeon (or several,\n"
     "comma-separated), or all.\n",
     cmd_reproduce, o_reproduce, NULL, NULL},
    {"reproduce merge", "PARTS...", CLI_MAX_POS, "the claims and report of a run from its shards",
     "Merges the results files the shards of one run wrote (gpurf reproduce\n"
     "--shard I/N) into the claims and report of the whole run: the same bytes\n"
     "as the run without shards. A missing shard is refused.\n",
     cmd_reproduce_merge, o_reproduce_merge, NULL,
     "merge needs the results files of the shards"},
    {"trace stats", "PATH", 1, "instruction mix, operands, value usage and lifetimes of a trace",
     "PATH is an Accel-Sim kernel-N.traceg, a kernelslist.g or a directory\n"
     "holding one, or a native trace (text or binary, told apart by content).\n"
     "Prints the instruction mix, operands, value usage and lifetimes\n"
     "(Gebhart), the live-register fraction over warp progress (Jeon), and\n"
     "uniform and affine vectors when the trace carries values (Collange, and\n"
     "SIMTight's compression rule for writes).\n",
     cmd_trace_stats, o_trace_stats, NULL,
     "which trace? e.g. 'gpurf trace stats kernel-1.traceg'"},
    {"trace convert", "IN OUT", 2, "write an Accel-Sim or native trace as a native one",
     "Writes IN (as for 'gpurf trace stats') as a native trace; OUT ending in\n"
     ".gtraceb, or --to binary, gives the binary form, anything else the text\n"
     "form. OUT is replaced only when the whole conversion succeeded.\n",
     cmd_trace_convert, o_trace_convert, NULL,
     "needs IN and OUT, e.g. 'gpurf trace convert DIR out.gtraceb'"},
    {"trace gen", NULL, 0, "write a synthetic workload as a native trace",
     "Writes a synthetic workload: needs --workload, --seed and -o (or --list).\n"
     "The same seed gives the same trace.\n",
     cmd_trace_gen, o_trace_gen, NULL, NULL},
    {"trace dataflow", "PATH", 1,
     "a kernel's static program: blocks, last uses, reconvergence, loops, strands",
     "Rebuilds the static program of one kernel from the trace: basic blocks,\n"
     "last uses (release flags), reconvergence points, loop-carried registers\n"
     "and strands.\n",
     cmd_trace_dataflow, o_trace_dataflow, NULL,
     "which trace?"},
    {"trace record", NULL, 0, "run an RV32 program on the SIMT emulator and record its trace",
     "Runs an RV32IMA program on the SIMT emulator (SIMTight's interface: a\n"
     "scalar host launches kernels on W warps x 32 lanes) and records every SIMT\n"
     "warp instruction with its lanes' destination values and last-use hints.\n"
     "Give --kernel or --elf, and -o.\n"
     "\n"
     "The program receives size, warps and blocks as three 32-bit words on its\n"
     "UART (SIMTight's own apps read only the first byte, non-zero for their\n"
     "small size: give them --size 1). A failed self-check, an illegal\n"
     "instruction, a bad access or the step limit ends the run with one error\n"
     "line and no output file.\n",
     cmd_trace_record, o_trace_record, NULL, NULL},
    {"bench bank", NULL, 0, "time the bank model on N varied configurations",
     "Evaluates N bank configurations with gpurf_bank_eval and prints\n"
     "configurations per second. The configurations vary node (22 to 90 nm,\n"
     "interpolated nodes included), device, capacity (64 B to 512 KB), width\n"
     "(8 to 1024 bits, not only powers of two) and banks (1 to 32), by --cell;\n"
     "the same seed gives the same configurations. Nodes and cells are loaded\n"
     "before the clock starts: the rate is the model's. Also prints the median\n"
     "time of one evaluation, and the rate of bank --batch on the same\n"
     "configurations written as a table (read, evaluated and printed as CSV in\n"
     "this process, nodes and cells loaded as the rows name them).\n",
     cmd_bench_bank, o_bench_bank, NULL, NULL},
    {"bench events", NULL, 0, "time the event energy engine (adds per second)",
     "Counts N events with gpurf_energy_add on an engine of 16 banks, a crossbar\n"
     "and 8 collectors, ids and instances drawn from a seeded stream, and prints\n"
     "adds per second; then times gpurf_energy_report_get.\n",
     cmd_bench_events, o_bench_events, NULL, NULL},
    {"bench sim", NULL, 0, "time the register-file pipeline (warp instructions per second)",
     "Writes a synthetic preset as a binary trace in the temporary directory\n"
     "(without per-lane values unless --values: the pipeline does not read them), or\n"
     "takes the trace PATH, simulates it on the fermi-baseline SM and prints warp\n"
     "instructions per second on one core, reading included, best of RUNS; also\n"
     "the time to read the trace alone and the pipeline's rate without it.\n",
     cmd_bench_sim, o_bench_sim, NULL, NULL},
    {"bench reproduce", "[PAPER|all]", 1, "time one gpurf reproduce run (jobs per second)",
     "Times one 'gpurf reproduce' run (default: all papers on their own\n"
     "workloads, 2 threads) and prints its seconds and jobs per second.\n",
     cmd_bench_reproduce, o_bench_reproduce, NULL, NULL},
    {"bench emu", NULL, 0, "time the SIMT emulator on a suite kernel, with and without a trace",
     "Runs a kernel of the RV32 suite on the SIMT emulator (the clock runs during\n"
     "SIMT launches only, not the host's own work) without a trace and again\n"
     "writing a binary trace, best of RUNS, and prints SIMT thread instructions\n"
     "per second and warp instructions per second, by the wall clock and per\n"
     "CPU second of the thread.\n",
     cmd_bench_emu, o_bench_emu, NULL, NULL},
    {NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL}};
