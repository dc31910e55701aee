list(APPEND GPURF_LIB_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/tech_schema.c
  ${CMAKE_CURRENT_LIST_DIR}/tech_load.c
  ${CMAKE_CURRENT_LIST_DIR}/tech_interp.c
  ${CMAKE_CURRENT_LIST_DIR}/tech_temp.c
  ${CMAKE_CURRENT_LIST_DIR}/tech_access.c
  ${CMAKE_CURRENT_LIST_DIR}/cell_load.c)
