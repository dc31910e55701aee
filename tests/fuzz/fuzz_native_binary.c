/* Native binary traces: the magic bytes of version 2 (whose records are
 * version 1's and repeats) are supplied so inputs reach the parser; a whole
 * trace file of either version, as ctest replays the shipped ones, keeps
 * its own. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const int whole =
      size >= 8 && (memcmp(data, "GPURFTB1", 8) == 0 || memcmp(data, "GPURFTB2", 8) == 0);
  const char *magic = whole ? NULL : "GPURFTB2";
  fuzz_read(".gtraceb", magic, data, size);
  /* The reader decodes a record without bounds checks while 8 KiB or more
   * of data follow it (src/trace/native_binary.c); inputs are shorter. The
   * input repeated past that margin reaches that decoder too. */
  enum { MARGIN = 3 * 8192 };
  if (size == 0 || size > MARGIN) return 0;
  size_t copies = MARGIN / size + 1;
  uint8_t *rep = malloc(copies * size);
  if (!rep) return 0;
  for (size_t i = 0; i < copies; i++) memcpy(rep + i * size, data, size);
  fuzz_read(".gtraceb", magic, rep, copies * size);
  free(rep);
  return 0;
}
