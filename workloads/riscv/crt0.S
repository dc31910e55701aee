/* Entry points. The host starts at _start with its stack below
 * 0xBFF6FFF8 and reports main's return value through the finish CSR.
 * SIMT threads start at rt_simt_start with sp already set by the core; they
 * raise their nesting level once, as NoCL's entry does, so that the pop and
 * push of each convergence point have a level to drop to. */
  .section .text.start
  .globl _start
_start:
  li sp, 0xBFF6FFF8
.option push
.option norelax
  la gp, __global_pointer$
.option pop
  call main
  csrw 0x801, a0
1:
  j 1b

  .text
  .globl rt_simt_start
rt_simt_start:
.option push
.option norelax
  la gp, __global_pointer$
.option pop
  .word 0x00050009
  call rt_simt_main
2:
  j 2b
