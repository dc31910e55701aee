list(APPEND GPURF_LIB_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/engine.c
  ${CMAKE_CURRENT_LIST_DIR}/report.c
  ${CMAKE_CURRENT_LIST_DIR}/report_access.c
  ${CMAKE_CURRENT_LIST_DIR}/counts.c
  ${CMAKE_CURRENT_LIST_DIR}/counts_native.c
  ${CMAKE_CURRENT_LIST_DIR}/counts_accelwattch.c
  ${CMAKE_CURRENT_LIST_DIR}/accelwattch_run.c)
