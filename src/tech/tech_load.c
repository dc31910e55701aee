/* Loading node files by path or by name, and listing the shipped nodes. */
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tech/tech_internal.h"

static const char *const device_names[GPURF_DEVICE_COUNT] = {"hp", "lstp", "lop"};
static const char *const wire_names[GPURF_WIRE_COUNT] = {"local", "semi_global", "global"};

const char *gpurf_device_kind_name(gpurf_device_kind kind) {
  return (unsigned)kind < GPURF_DEVICE_COUNT ? device_names[kind] : "?";
}

const char *gpurf_wire_kind_name(gpurf_wire_kind kind) {
  return (unsigned)kind < GPURF_WIRE_COUNT ? wire_names[kind] : "?";
}

int gpurf_wire_kind_parse(const char *name, gpurf_wire_kind *out) {
  if (name && strcmp(name, "semi-global") == 0) name = "semi_global";
  for (int k = 0; k < GPURF_WIRE_COUNT; k++) {
    if (name && strcmp(name, wire_names[k]) == 0) {
      *out = (gpurf_wire_kind)k;
      return GPURF_OK;
    }
  }
  return GPURF_EINVAL;
}

int gpurf_device_kind_parse(const char *name, gpurf_device_kind *out) {
  for (int k = 0; k < GPURF_DEVICE_COUNT; k++) {
    if (name && strcmp(name, device_names[k]) == 0) {
      *out = (gpurf_device_kind)k;
      return GPURF_OK;
    }
  }
  return GPURF_EINVAL;
}

int gpurf_tech_load_file(gpurf_ctx *ctx, const char *path, gpurf_tech *out) {
  if (!ctx || !path || !out) return GPURF_EINVAL;
  ys_doc *doc = NULL;
  int rc = ys_open(ctx, path, &doc);
  if (rc != GPURF_OK) return rc;
  gpurf_tech t;
  memset(&t, 0, sizeof t);
  rc = ys_decode(doc, gpurf_tech_schema, &t);
  if (rc == GPURF_OK) rc = gpurf_tech_check(doc, &t);
  ys_close(doc);
  if (rc != GPURF_OK) return rc;
  gpurf_strlcpy(t.path, path, sizeof t.path);
  *out = t;
  return GPURF_OK;
}

int gpurf_tech_parse_node_name(const char *name, double *feature_size_m) {
  char *end = NULL;
  if (!name || !isdigit((unsigned char)name[0])) return 0;
  /* Decimal only: strtod alone would read "0x16" as 22 and "1e1" as 10. */
  size_t digits = strspn(name, "0123456789.");
  if (name[digits] != '\0' && name[digits] != ' ' && name[digits] != 'n') return 0;
  double nm = strtod(name, &end);
  if (end != name + digits) return 0;
  while (*end == ' ') end++;
  if (strcmp(end, "nm") != 0 && *end != '\0') return 0;
  if (!(nm > 0.0) || !isfinite(nm)) return 0;
  *feature_size_m = nm * 1e-9;
  return 1;
}

static int looks_like_path(const char *s) {
  size_t n = strlen(s);
  return strcmp(s, "-") == 0 || strchr(s, '/') != NULL || (n > 5 && strcmp(s + n - 5, ".yaml") == 0) ||
         (n > 4 && strcmp(s + n - 4, ".yml") == 0);
}

static int cmp_entry(const void *a, const void *b) {
  const gpurf_tech_entry *x = a, *y = b;
  if (x->feature_size_m != y->feature_size_m)
    return x->feature_size_m < y->feature_size_m ? -1 : 1;
  return strcmp(x->name, y->name);
}

/* Node files are named <size>nm.yaml; other YAML files in tech/ are ignored. */
static int is_node_file_name(const char *f, double *size_m) {
  size_t n = strlen(f);
  if (n < 8 || strcmp(f + n - 5, ".yaml") != 0) return 0;
  char stem[64];
  if (n - 5 >= sizeof stem) return 0;
  memcpy(stem, f, n - 5);
  stem[n - 5] = '\0';
  size_t sl = strlen(stem);
  if (sl < 3 || strcmp(stem + sl - 2, "nm") != 0) return 0;
  return gpurf_tech_parse_node_name(stem, size_m);
}

static int scan_node_dir(gpurf_ctx *ctx, gpurf_tech_entry **out, size_t *count) {
  *out = NULL;
  *count = 0;
  const char *data = gpurf_ctx_data_dir(ctx);
  if (!data[0])
    return gpurf_fail(ctx, GPURF_ENOTFOUND,
                      "no data directory set: cannot find tech/ (set GPURF_DATA_DIR)");
  char dir[GPURF_TECH_PATH_MAX];
  if (snprintf(dir, sizeof dir, "%s/tech", data) >= (int)sizeof dir)
    return gpurf_fail(ctx, GPURF_EINVAL, "data directory path too long");
  DIR *dp = opendir(dir);
  if (!dp) return gpurf_fail_at(ctx, GPURF_ENOTFOUND, dir, 0, 0, NULL, "cannot open directory");
  size_t cap = 0, n = 0;
  gpurf_tech_entry *list = NULL;
  int rc = GPURF_OK;
  struct dirent *de;
  while ((de = readdir(dp)) != NULL) {
    double size_m;
    if (!is_node_file_name(de->d_name, &size_m)) continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 16;
      gpurf_tech_entry *nl = realloc(list, cap * sizeof *nl);
      if (!nl) {
        rc = gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
        break;
      }
      list = nl;
    }
    gpurf_tech_entry *e = &list[n++];
    memset(e, 0, sizeof *e);
    if (snprintf(e->path, sizeof e->path, "%s/%s", dir, de->d_name) >= (int)sizeof e->path ||
        snprintf(e->name, sizeof e->name, "%.*s", (int)(strlen(de->d_name) - 5),
                 de->d_name) >= (int)sizeof e->name) {
      n--; /* a name this long is not a node file gpurf wrote */
      continue;
    }
    e->feature_size_m = size_m;
  }
  closedir(dp);
  if (rc != GPURF_OK) {
    free(list);
    return rc;
  }
  /* readdir order differs between file systems; sort for stable output. */
  if (n > 1) qsort(list, n, sizeof *list, cmp_entry);
  *out = list;
  *count = n;
  return GPURF_OK;
}

int gpurf_tech_list(gpurf_ctx *ctx, gpurf_tech_entry *entries, size_t max,
                    size_t *count) {
  if (!ctx || !count) return GPURF_EINVAL;
  gpurf_tech_entry *list;
  size_t n;
  int rc = scan_node_dir(ctx, &list, &n);
  if (rc != GPURF_OK) return rc;
  for (size_t i = 0; i < n && i < max; i++) entries[i] = list[i];
  *count = n;
  free(list);
  return GPURF_OK;
}

/* Loads every shipped node, checks that each file says the size its name
 * says, and builds the requested size between its neighbours. */
static int load_between(gpurf_ctx *ctx, const gpurf_tech_entry *list, size_t n,
                        double size_m, const char *asked, gpurf_tech *out) {
  gpurf_tech *nodes = calloc(n, sizeof *nodes);
  if (!nodes) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  int rc = GPURF_OK;
  for (size_t i = 0; i < n && rc == GPURF_OK; i++)
    rc = gpurf_tech_load_file(ctx, list[i].path, &nodes[i]);
  if (rc == GPURF_OK) rc = gpurf_tech_interpolate(ctx, nodes, n, size_m, out);
  if (rc == GPURF_OK) snprintf(out->name, sizeof out->name, "%s", asked);
  free(nodes);
  return rc;
}

int gpurf_tech_load(gpurf_ctx *ctx, const char *node_or_path, gpurf_tech *out) {
  if (!ctx || !node_or_path || !out) return GPURF_EINVAL;
  if (looks_like_path(node_or_path)) return gpurf_tech_load_file(ctx, node_or_path, out);
  double size_m;
  if (!gpurf_tech_parse_node_name(node_or_path, &size_m))
    return gpurf_fail(ctx, GPURF_EINVAL,
                      "'%s' is neither a node (e.g. 22, 22nm) nor a path to a .yaml file",
                      node_or_path);
  gpurf_tech_entry *list;
  size_t n;
  int rc = scan_node_dir(ctx, &list, &n);
  if (rc != GPURF_OK) return rc;
  if (n == 0) {
    free(list);
    return gpurf_fail(ctx, GPURF_ENOTFOUND, "no node files in %s/tech",
                      gpurf_ctx_data_dir(ctx));
  }
  for (size_t i = 0; i < n; i++) {
    if (fabs(list[i].feature_size_m - size_m) < 1e-12) {
      rc = gpurf_tech_load_file(ctx, list[i].path, out);
      free(list);
      return rc;
    }
  }
  double lo = list[0].feature_size_m, hi = list[n - 1].feature_size_m;
  if (n < 2 || size_m < lo || size_m > hi) {
    rc = gpurf_fail(ctx, GPURF_EUNSUPPORTED,
                    "no technology data for %g nm: the node files cover %g-%g nm and "
                    "gpurf does not extrapolate",
                    size_m * 1e9, lo * 1e9, hi * 1e9);
    free(list);
    return rc;
  }
  char asked[GPURF_TECH_NAME_MAX];
  snprintf(asked, sizeof asked, "%gnm", size_m * 1e9);
  rc = load_between(ctx, list, n, size_m, asked, out);
  free(list);
  return rc;
}
