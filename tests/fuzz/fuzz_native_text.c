/* Native text traces: the magic line is supplied so inputs reach the parser
 * (a whole trace file, as ctest replays the shipped ones, keeps its own). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char magic[] = "gpurf-trace 1\n";
  int whole = size >= sizeof magic - 1 && memcmp(data, magic, sizeof magic - 1) == 0;
  fuzz_read(".gtrace", whole ? NULL : magic, data, size);
  return 0;
}
