list(APPEND GPURF_LIB_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/plan.c
  ${CMAKE_CURRENT_LIST_DIR}/run.c
  ${CMAKE_CURRENT_LIST_DIR}/suite.c
  ${CMAKE_CURRENT_LIST_DIR}/claims.c
  ${CMAKE_CURRENT_LIST_DIR}/output.c
  ${CMAKE_CURRENT_LIST_DIR}/report.c
  ${CMAKE_CURRENT_LIST_DIR}/paper_jing.c
  ${CMAKE_CURRENT_LIST_DIR}/paper_gebhart.c
  ${CMAKE_CURRENT_LIST_DIR}/paper_gebhart_energy.c
  ${CMAKE_CURRENT_LIST_DIR}/paper_gebhart_orf.c
  ${CMAKE_CURRENT_LIST_DIR}/paper_warrf.c
  ${CMAKE_CURRENT_LIST_DIR}/paper_simtight.c
  ${CMAKE_CURRENT_LIST_DIR}/paper_jeon.c
  ${CMAKE_CURRENT_LIST_DIR}/peer.c)
