/* Levenshtein distance between two short names: the measure behind every
 * "did you mean" hint, for YAML keys here and for command-line options in a
 * front end. */
#include <string.h>

#include "gpurf/error.h"

#define NAME_MAX_LEN 63

size_t gpurf_edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  /* Longer names are never close enough to be worth a hint. */
  if (la > NAME_MAX_LEN || lb > NAME_MAX_LEN) return (size_t)-1;
  size_t row[NAME_MAX_LEN + 1];
  for (size_t j = 0; j <= lb; j++) row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      size_t best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}
