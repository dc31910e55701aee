/* The circuit environments of the banks a context evaluates. A node's
 * device at a temperature, with or without long-channel periphery, makes
 * the same environment for every configuration: inverter coefficients,
 * leakage at the temperature, repeater plans and the bus plan between
 * banks. A design-space sweep asks for thousands of banks on a few of
 * them, so the context keeps the last BANK_ENVS made, in its scratch, with
 * the driver-chain memo of the search.
 *
 * An environment is found by its node's address and checked against a
 * copy of everything of the node it was made from (the feature size, the
 * device, the wires and the layout): a node freed and another loaded at
 * its address is not taken for it. The memo is kept from one search to
 * the next while they share an environment, and cleared when they do not:
 * a chain is a function of the environment and of its arguments alone, so
 * what the memo gives does not depend on which searches filled it, and a
 * bank evaluates to the same bits in a fresh context. */
#include <string.h>

#include "component/bank_internal.h"
#include "core/ctx_internal.h"
#include "tech/tech_internal.h"

/* Environments kept: the shipped nodes and those between them, by three
 * devices, fit (gpurf bench bank draws from 11 nodes). */
#define BANK_ENVS 48
/* Marks a scratch that holds the cache (any other content is started
 * afresh; the scratch is zeroed when it is made). */
#define BANK_ENVS_MAGIC 0x67707266656e7631ull

/* What an environment is made from. Compared byte for byte: built in
 * zeroed memory, so that padding compares too. */
typedef struct env_key {
  double feature_size_m, temp_k;
  int kind, long_channel_periphery;
  gpurf_device device;
  gpurf_wires wires;
  gpurf_layout layout;
} env_key;

typedef struct env_entry {
  const gpurf_tech *tech; /* NULL: empty */
  uint64_t last_use, serial;
  env_key key;
  gc_env env; /* its bus plan between banks made; no memo */
} env_entry;

struct bank_envs {
  uint64_t magic, clock, serial;
  uint64_t memo_serial; /* the environment the memo holds chains of; 0: none */
  env_key probe;        /* the key being looked for */
  env_entry entry[BANK_ENVS];
  gc_chain_memo memo;
};

size_t bank_envs_size(void) { return sizeof(bank_envs); }

static void key_fill(env_key *k, const gpurf_bank_spec *s) {
  memset(k, 0, sizeof *k);
  k->feature_size_m = s->tech->feature_size_m;
  k->temp_k = s->temp_k;
  k->kind = (int)s->device;
  k->long_channel_periphery = s->long_channel_periphery;
  k->device = s->tech->device[s->device];
  k->wires = s->tech->wires;
  k->layout = s->tech->layout;
}

int bank_envs_get(gpurf_ctx *ctx, bank_envs *c, const gpurf_bank_spec *s, gc_env *env,
                  gc_chain_memo **memo) {
  if (c->magic != BANK_ENVS_MAGIC) {
    memset(c, 0, offsetof(bank_envs, memo));
    gc_chain_memo_clear(&c->memo);
    c->magic = BANK_ENVS_MAGIC;
  }
  key_fill(&c->probe, s);
  env_entry *e = NULL, *lru = &c->entry[0];
  for (int i = 0; i < BANK_ENVS && !e; i++) {
    env_entry *x = &c->entry[i];
    if (x->tech == s->tech && memcmp(&x->key, &c->probe, sizeof c->probe) == 0) e = x;
    else if (!x->tech || (lru->tech && x->last_use < lru->last_use)) lru = x;
  }
  if (!e) {
    e = lru;
    e->tech = NULL; /* (until it is made) */
    int rc = gc_env_init(ctx, &e->env, s->tech, s->device, s->temp_k, s->long_channel_periphery);
    if (rc != GPURF_OK) return rc;
    bank_layout_plan_buses(&e->env);
    e->key = c->probe;
    e->tech = s->tech;
    e->serial = ++c->serial;
  }
  e->last_use = ++c->clock;
  if (c->memo_serial != e->serial) {
    gc_chain_memo_clear(&c->memo);
    c->memo_serial = e->serial;
  }
  *env = e->env;
  *memo = &c->memo;
  return GPURF_OK;
}
