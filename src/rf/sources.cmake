list(APPEND GPURF_LIB_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/table.c
  ${CMAKE_CURRENT_LIST_DIR}/table_load.c
  ${CMAKE_CURRENT_LIST_DIR}/design_check.c
  ${CMAKE_CURRENT_LIST_DIR}/design_enum.c
  ${CMAKE_CURRENT_LIST_DIR}/design_load.c
  ${CMAKE_CURRENT_LIST_DIR}/design_set.c
  ${CMAKE_CURRENT_LIST_DIR}/design_table.c
  ${CMAKE_CURRENT_LIST_DIR}/costs_load.c)
