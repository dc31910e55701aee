/* The memory map: one flat 4 GiB space of 4 KiB pages allocated when first
 * touched, limited to SIMTight's regions (DRAM from the code base to the
 * host stack, shared local memory), plus 512 KiB of private stack per SIMT
 * thread at and above 0xFFF80000. Accesses elsewhere are faults. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "emu/emu_internal.h"

#define NPAGES (1u << (32 - EMU_PAGE_BITS))
#define NTHREADS (GPURF_EMU_MAX_WARPS * EMU_LANES)

int emu_mem_alloc(gpurf_emu *e) {
  e->pages = calloc(NPAGES, sizeof *e->pages);
  e->priv = calloc((size_t)NTHREADS * EMU_PRIV_PAGES, sizeof *e->priv);
  return e->pages && e->priv ? 0 : -1;
}

void emu_mem_free(gpurf_emu *e) {
  if (e->pages)
    for (uint32_t i = 0; i < NPAGES; i++) free(e->pages[i]);
  if (e->priv)
    for (size_t i = 0; i < (size_t)NTHREADS * EMU_PRIV_PAGES; i++) free(e->priv[i]);
  free(e->pages);
  free(e->priv);
}

static int in_map(uint32_t addr) {
  return (addr >= GPURF_EMU_CODE_BASE && addr < GPURF_EMU_DRAM_END) ||
         (addr >= GPURF_EMU_SHARED_BASE && addr - GPURF_EMU_SHARED_BASE < GPURF_EMU_SHARED_BYTES);
}

uint8_t *emu_page_slow(gpurf_emu *e, uint32_t addr) {
  if (!in_map(addr)) return NULL;
  uint8_t **slot = &e->pages[addr >> EMU_PAGE_BITS];
  *slot = calloc(1, EMU_PAGE_BYTES);
  return *slot; /* NULL when out of memory: reported as a fault */
}

uint8_t *emu_priv_page(gpurf_emu *e, uint32_t thread, uint32_t addr) {
  uint8_t **slot = &e->priv[(size_t)thread * EMU_PRIV_PAGES +
                            ((addr - GPURF_EMU_PRIVATE_BASE) >> EMU_PAGE_BITS)];
  if (!*slot) *slot = calloc(1, EMU_PAGE_BYTES);
  return *slot;
}

int emu_set_fault(gpurf_emu *e, uint32_t pc, const char *fmt, ...) {
  if (e->fault) return EXEC_FAULT; /* the first fault is the one reported */
  e->fault = 1;
  e->fault_pc = pc;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->fault_msg, sizeof e->fault_msg, fmt, ap);
  va_end(ap);
  return EXEC_FAULT;
}

int emu_mem_fault(gpurf_emu *e, uint32_t pc, uint32_t addr, uint32_t size, int is_host) {
  if (addr & (size - 1))
    return emu_set_fault(e, pc, "misaligned %u-byte access at 0x%08x", size, addr);
  if (is_host && addr >= GPURF_EMU_PRIVATE_BASE)
    return emu_set_fault(e, pc, "host access to SIMT stack address 0x%08x", addr);
  if (!in_map(addr) && addr < GPURF_EMU_PRIVATE_BASE)
    return emu_set_fault(e, pc, "access outside the memory map at 0x%08x", addr);
  return emu_set_fault(e, pc, "out of memory at 0x%08x", addr);
}
