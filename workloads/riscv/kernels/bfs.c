/* Breadth-first search, one launch per level: each thread expands one
 * vertex of the frontier and claims unvisited neighbours with an atomic
 * swap; the next frontier is appended with an atomic add. */
#include "../rt.h"

#define DEG 6

typedef struct args {
  const uint32_t *adj; /* DEG neighbours per vertex */
  const uint32_t *frontier;
  uint32_t *next, *next_len, *visited, *level;
  uint32_t len, depth;
} args;

static void kernel(const rt_ctx *c, const void *p) {
  const args *a = p;
  uint32_t i = c->block.x * c->block_dim.x + c->thread.x;
  converge {
    if (i < a->len) {
      uint32_t v = a->frontier[i];
      for (uint32_t k = 0; k < DEG; k++) {
        uint32_t u = a->adj[v * DEG + k];
        if (rt_atomic_swap(&a->visited[u], 1) == 0) {
          a->level[u] = a->depth + 1;
          a->next[rt_atomic_add(a->next_len, 1)] = u;
        }
      }
    }
  }
}

int main(void) {
  rt_params p = rt_get_params(2000);
  uint32_t n = p.size, seed = 37;
  uint32_t *adj = rt_alloc(4 * DEG * n), *fa = rt_alloc(4 * n), *fb = rt_alloc(4 * n);
  uint32_t *visited = rt_alloc(4 * n), *level = rt_alloc(4 * n), *ref = rt_alloc(4 * n);
  uint32_t *queue = rt_alloc(4 * n), *next_len = rt_alloc(4);
  /* a ring (connected) plus random edges */
  for (uint32_t v = 0; v < n; v++) {
    adj[v * DEG] = (v + 1) % n;
    for (uint32_t k = 1; k < DEG; k++) adj[v * DEG + k] = rt_rand(&seed) % n;
    visited[v] = 0;
    level[v] = ref[v] = 0xFFFFFFFFu;
  }
  visited[0] = 1;
  level[0] = 0;
  fa[0] = 0;
  args a = {adj, fa, fb, next_len, visited, level, 1, 0};
  int ok = 1;
  while (a.len && ok) {
    *next_len = 0;
    rt_launch l = rt_grid_1d(&p, kernel, &a, a.len, 0);
    ok = rt_run(&p, &l) == 0;
    uint32_t *t = (uint32_t *)a.frontier;
    a.frontier = a.next;
    a.next = t;
    a.len = *next_len;
    a.depth++;
  }
  /* reference: a queue-based search on the host */
  uint32_t head = 0, tail = 0;
  ref[0] = 0;
  queue[tail++] = 0;
  while (head < tail) {
    uint32_t v = queue[head++];
    for (uint32_t k = 0; k < DEG; k++) {
      uint32_t u = adj[v * DEG + k];
      if (ref[u] == 0xFFFFFFFFu) ref[u] = ref[v] + 1, queue[tail++] = u;
    }
  }
  for (uint32_t v = 0; v < n && ok; v++) ok = level[v] == ref[v];
  return rt_report(ok);
}
