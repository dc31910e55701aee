list(APPEND GPURF_LIB_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/params.c
  ${CMAKE_CURRENT_LIST_DIR}/feed.c
  ${CMAKE_CURRENT_LIST_DIR}/codepool.c
  ${CMAKE_CURRENT_LIST_DIR}/sched.c
  ${CMAKE_CURRENT_LIST_DIR}/sched_hooked.c
  ${CMAKE_CURRENT_LIST_DIR}/issue.c
  ${CMAKE_CURRENT_LIST_DIR}/core.c
  ${CMAKE_CURRENT_LIST_DIR}/arbiter.c
  ${CMAKE_CURRENT_LIST_DIR}/idle.c
  ${CMAKE_CURRENT_LIST_DIR}/results.c
  ${CMAKE_CURRENT_LIST_DIR}/baseline.c
  ${CMAKE_CURRENT_LIST_DIR}/techapi.c
  ${CMAKE_CURRENT_LIST_DIR}/tech/stealing.c
  ${CMAKE_CURRENT_LIST_DIR}/technique.c
  ${CMAKE_CURRENT_LIST_DIR}/tech/warrf.c
  ${CMAKE_CURRENT_LIST_DIR}/tech/rename.c
  ${CMAKE_CURRENT_LIST_DIR}/tech/rename_pool.c
  ${CMAKE_CURRENT_LIST_DIR}/tech/spill.c
  ${CMAKE_CURRENT_LIST_DIR}/tech/compress_model.c
  ${CMAKE_CURRENT_LIST_DIR}/tech/compress_decode.c
  ${CMAKE_CURRENT_LIST_DIR}/tech/compress.c
  ${CMAKE_CURRENT_LIST_DIR}/api.c
  ${CMAKE_CURRENT_LIST_DIR}/jobs.c
  ${CMAKE_CURRENT_LIST_DIR}/tech/rfc.c)
# The cycle loop's files at -O3 (no change to floating-point semantics).
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
set_source_files_properties(
  ${CMAKE_CURRENT_LIST_DIR}/feed.c ${CMAKE_CURRENT_LIST_DIR}/codepool.c
  ${CMAKE_CURRENT_LIST_DIR}/sched.c
  ${CMAKE_CURRENT_LIST_DIR}/sched_hooked.c ${CMAKE_CURRENT_LIST_DIR}/issue.c
  ${CMAKE_CURRENT_LIST_DIR}/core.c ${CMAKE_CURRENT_LIST_DIR}/arbiter.c
  ${CMAKE_CURRENT_LIST_DIR}/results.c
  ${CMAKE_CURRENT_LIST_DIR}/api.c
  PROPERTIES COMPILE_OPTIONS "-O3")
endif()
