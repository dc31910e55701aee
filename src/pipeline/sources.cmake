list(APPEND GPURF_LIB_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/params.c
  ${CMAKE_CURRENT_LIST_DIR}/feed.c
  ${CMAKE_CURRENT_LIST_DIR}/sched.c
  ${CMAKE_CURRENT_LIST_DIR}/core.c
  ${CMAKE_CURRENT_LIST_DIR}/results.c
  ${CMAKE_CURRENT_LIST_DIR}/baseline.c
  ${CMAKE_CURRENT_LIST_DIR}/techapi.c
  ${CMAKE_CURRENT_LIST_DIR}/tech/stealing.c
  ${CMAKE_CURRENT_LIST_DIR}/technique.c
  ${CMAKE_CURRENT_LIST_DIR}/tech/warrf.c
  ${CMAKE_CURRENT_LIST_DIR}/tech/rename.c
  ${CMAKE_CURRENT_LIST_DIR}/tech/rename_pool.c
  ${CMAKE_CURRENT_LIST_DIR}/tech/spill.c
  ${CMAKE_CURRENT_LIST_DIR}/api.c
  ${CMAKE_CURRENT_LIST_DIR}/jobs.c)
