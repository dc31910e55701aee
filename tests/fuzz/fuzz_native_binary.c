/* Native binary traces: the magic bytes are supplied so inputs reach the parser. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_read(".gtraceb", "GPURFTB1", data, size);
  return 0;
}
