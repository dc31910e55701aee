/* The runtime's host side and the SIMT side's block loop. */
#include "rt.h"

extern char __heap_start[];
extern void rt_simt_start(void);

void *memset(void *d, int c, unsigned n);
void *memcpy(void *d, const void *s, unsigned n);
void *memmove(void *d, const void *s, unsigned n);
void rt_simt_main(void);

/* The compiler may call these for struct copies and loop idioms. */
void *memset(void *d, int c, unsigned n) {
  volatile unsigned char *p = d;
  while (n--) *p++ = (unsigned char)c;
  return d;
}
void *memcpy(void *d, const void *s, unsigned n) {
  volatile unsigned char *p = d;
  const unsigned char *q = s;
  while (n--) *p++ = *q++;
  return d;
}
void *memmove(void *d, const void *s, unsigned n) {
  volatile unsigned char *p = d;
  const unsigned char *q = s;
  if (p < q) {
    while (n--) *p++ = *q++;
  } else {
    while (n--) p[n] = q[n];
  }
  return d;
}

static uint32_t get_u32(uint32_t dflt) {
  if (!rt_csr_read(0x804)) return dflt;
  uint32_t v = 0;
  for (int i = 0; i < 4; i++) {
    uint32_t b;
    __asm__ volatile("csrrw %0, 0x805, zero" : "=r"(b));
    v |= (b & 0xFFu) << (8 * i);
  }
  return v;
}

rt_params rt_get_params(uint32_t default_size) {
  rt_params p;
  p.size = get_u32(0);
  if (!p.size) p.size = default_size;
  p.warps = get_u32(4);
  p.blocks = get_u32(1);
  if (!p.warps) p.warps = 4;
  if (!p.blocks) p.blocks = 1;
  return p;
}

uint32_t rt_block_threads(const rt_params *p) { return p->warps * RT_LANES / p->blocks; }

void rt_puts(const char *s) {
  while (*s) {
    while (!rt_csr_read(0x802)) {
    }
    rt_csr_write(0x803, (uint32_t)(unsigned char)*s++);
  }
}

void rt_put_u32(uint32_t v) {
  char buf[12];
  int i = 11;
  buf[i] = '\0';
  do {
    buf[--i] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  rt_puts(buf + i);
}

static char *heap = __heap_start;

void *rt_alloc(uint32_t bytes) {
  char *p = heap;
  heap += (bytes + 15u) & ~15u;
  return p;
}

int rt_run(const rt_params *p, rt_launch *l) {
  uint32_t threads = l->block_dim.x * l->block_dim.y;
  uint32_t wpb = threads / RT_LANES;
  if (threads % RT_LANES || wpb == 0 || p->warps % wpb) {
    rt_puts("launch: block size does not fit the warps\n");
    return 1;
  }
  uint32_t groups = p->warps / wpb;
  if (l->shared_bytes * groups > RT_SHARED_BYTES) {
    rt_puts("launch: not enough shared local memory\n");
    return 1;
  }
  l->warps = p->warps;
  while (!rt_csr_read(0x820)) {
  }
  rt_csr_write(0x827, wpb & 63u);
  rt_csr_write(0x826, (uint32_t)l);
  __asm__ volatile(".word 0x00050008" ::: "memory"); /* cache-line flush */
  rt_csr_write(0x823, (uint32_t)rt_simt_start);
  while (!rt_csr_read(0x824)) {
  }
  uint32_t r;
  __asm__ volatile("csrrw %0, 0x825, zero" : "=r"(r));
  return r != 0;
}

rt_launch rt_grid_1d(const rt_params *p, rt_kernel_fn k, const void *args, uint32_t n,
                     uint32_t shared_bytes) {
  rt_launch l;
  memset(&l, 0, sizeof l);
  l.block_dim.x = rt_block_threads(p);
  l.block_dim.y = 1;
  l.grid_dim.x = (n + l.block_dim.x - 1) / l.block_dim.x;
  if (!l.grid_dim.x) l.grid_dim.x = 1;
  l.grid_dim.y = 1;
  l.kernel = k;
  l.args = args;
  l.shared_bytes = shared_bytes;
  return l;
}

int rt_report(int ok) {
  rt_puts(ok ? "Self test: PASSED\n" : "Self test: FAILED\n");
  return ok ? 0 : 1;
}

/* SIMT side: each group of warps is one resident block and walks the grid's
 * blocks in turn, converging and synchronising between them. */
void rt_simt_main(void) {
  const rt_launch *l = (const rt_launch *)rt_csr_read(0x831);
  uint32_t hart = rt_csr_read(0xF14);
  uint32_t threads = l->block_dim.x * l->block_dim.y;
  uint32_t wpb = threads / RT_LANES, warp = hart >> 5;
  uint32_t group = warp / wpb, groups = l->warps / wpb;
  uint32_t tid = (warp % wpb) * RT_LANES + (hart & 31u);
  rt_ctx c;
  c.block_dim = l->block_dim;
  c.grid_dim = l->grid_dim;
  c.thread.x = tid % l->block_dim.x;
  c.thread.y = tid / l->block_dim.x;
  c.shared = (void *)(RT_SHARED_BASE + group * l->shared_bytes);
  uint32_t nblocks = l->grid_dim.x * l->grid_dim.y;
  for (uint32_t b = group; b < nblocks; b += groups) {
    c.block.x = b % l->grid_dim.x;
    c.block.y = b / l->grid_dim.x;
    l->kernel(&c, l->args);
    rt_syncthreads();
  }
  rt_converge();
  rt_csr_write(0x830, 3);
  for (;;) {
  }
}
