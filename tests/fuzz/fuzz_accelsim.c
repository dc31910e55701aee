/* Accel-Sim kernel traces, and kernelslist.g when the input starts like one. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_read(".traceg", NULL, data, size);
  return 0;
}
