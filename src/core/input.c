/* Input files by name, where "-" is standard input. Readers open their input
 * once and sniff it from the bytes they read, so a pipe (or /dev/stdin)
 * works as well as a file. */
#include <string.h>

#include "core/ctx_internal.h"

int gpurf_input_is_stdin(const char *path) { return path && strcmp(path, "-") == 0; }

const char *gpurf_input_name(const char *path) {
  return gpurf_input_is_stdin(path) ? "<stdin>" : path;
}

FILE *gpurf_input_open(const char *path) {
  return gpurf_input_is_stdin(path) ? stdin : fopen(path, "rb");
}

void gpurf_input_close(FILE *f) {
  if (f && f != stdin) fclose(f);
}
