/* Native text traces: the magic line is supplied so inputs reach the parser. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_read(".gtrace", "gpurf-trace 1\n", data, size);
  return 0;
}
