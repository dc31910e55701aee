/* Runs a fuzz target over files named on the command line, without
 * libFuzzer: the seed corpus and every input a fuzzer once broke stay in the
 * ordinary test run (and under the sanitizers in `make sanitize`). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    if (!f) {
      fprintf(stderr, "%s: cannot open\n", argv[i]);
      return 1;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
      n += got;
      if (n < cap) continue;
      uint8_t *more = realloc(buf, cap *= 2);
      if (!more) free(buf);
      buf = more;
    }
    fclose(f);
    if (!buf) {
      fprintf(stderr, "%s: out of memory\n", argv[i]);
      return 1;
    }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
  }
  printf("%d inputs\n", argc - 1);
  return 0;
}
