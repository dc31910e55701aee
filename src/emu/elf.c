/* ELF32 little-endian RISC-V executables: PT_LOAD segments copied into
 * memory, the part of each beyond its file size zeroed (.bss). Everything
 * is checked against the file's size before it is read. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_internal.h"

static uint32_t u32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint32_t u16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }

#define ELF_MAX_BYTES (64u << 20)

static int bad(gpurf_ctx *ctx, const char *path, const char *what) {
  return gpurf_fail_at(ctx, GPURF_EPARSE, path, 0, 0, NULL, "%s", what);
}

static int read_file(gpurf_ctx *ctx, const char *path, uint8_t **buf, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return gpurf_fail_at(ctx, GPURF_EIO, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
  uint8_t *b = malloc(ELF_MAX_BYTES);
  if (!b) {
    fclose(f);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  }
  size_t n = fread(b, 1, ELF_MAX_BYTES, f);
  int err = ferror(f), more = !err && fgetc(f) != EOF;
  fclose(f);
  if (err || more) {
    free(b);
    return gpurf_fail_at(ctx, GPURF_EIO, path, 0, 0, NULL,
                         err ? "read failed" : "larger than 64 MiB: not a kernel executable");
  }
  *buf = b;
  *len = n;
  return GPURF_OK;
}

static int load(gpurf_ctx *ctx, gpurf_emu *e, const char *path, const uint8_t *b, size_t n) {
  if (n < 52 || memcmp(b, "\177ELF", 4) != 0) return bad(ctx, path, "not an ELF file");
  if (b[4] != 1) return bad(ctx, path, "not a 32-bit ELF (RV32 expected)");
  if (b[5] != 1) return bad(ctx, path, "not little-endian");
  if (u16(b + 16) != 2) return bad(ctx, path, "not an executable (ET_EXEC)");
  if (u16(b + 18) != 243) return bad(ctx, path, "not a RISC-V ELF");
  uint32_t entry = u32(b + 24), phoff = u32(b + 28);
  uint32_t phentsize = u16(b + 42), phnum = u16(b + 44);
  if (entry != GPURF_EMU_ENTRY)
    return gpurf_fail_at(ctx, GPURF_EPARSE, path, 0, 0, NULL,
                         "entry 0x%08x: SIMTight programs start at 0x%08x", entry, GPURF_EMU_ENTRY);
  if (phentsize < 32 || phoff > n || (uint64_t)phnum * phentsize > n - phoff)
    return bad(ctx, path, "program headers outside the file");
  int loaded = 0;
  for (uint32_t i = 0; i < phnum; i++) {
    const uint8_t *ph = b + phoff + (size_t)i * phentsize;
    if (u32(ph) != 1) continue; /* PT_LOAD only */
    uint32_t off = u32(ph + 4), vaddr = u32(ph + 8), filesz = u32(ph + 16), memsz = u32(ph + 20);
    if (filesz > memsz || off > n || filesz > n - off)
      return gpurf_fail_at(ctx, GPURF_EPARSE, path, 0, 0, NULL,
                           "segment %u: file bytes outside the file", i);
    if ((uint64_t)vaddr + memsz > 0x100000000ull)
      return gpurf_fail_at(ctx, GPURF_EPARSE, path, 0, 0, NULL,
                           "segment %u: beyond 4 GiB", i);
    for (uint32_t k = 0; k < memsz; k++) {
      uint32_t a = vaddr + k;
      uint8_t *p = emu_mem(e, 0, a, 1, 1);
      if (!p)
        return gpurf_fail_at(ctx, GPURF_EPARSE, path, 0, 0, NULL,
                             "segment %u: address 0x%08x outside the memory map", i, a);
      *p = k < filesz ? b[off + k] : 0;
      uint32_t co = a - GPURF_EMU_CODE_BASE;
      if (co < EMU_CODE_BYTES) e->code[co >> 2].op = OP_UNDECODED;
    }
    loaded++;
  }
  if (!loaded) return bad(ctx, path, "no loadable segment");
  return GPURF_OK;
}

int gpurf_emu_load_elf(gpurf_ctx *ctx, gpurf_emu *e, const char *path) {
  uint8_t *b = NULL;
  size_t n = 0;
  int rc = read_file(ctx, path, &b, &n);
  if (rc) return rc;
  rc = load(ctx, e, path, b, n);
  free(b);
  if (rc == GPURF_OK) gpurf_strlcpy(e->file, path, sizeof e->file);
  return rc;
}
