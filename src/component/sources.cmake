list(APPEND GPURF_LIB_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/bank_api.c
  ${CMAKE_CURRENT_LIST_DIR}/bank_env.c
  ${CMAKE_CURRENT_LIST_DIR}/bank_layout.c
  ${CMAKE_CURRENT_LIST_DIR}/bank_band.c
  ${CMAKE_CURRENT_LIST_DIR}/power_gating.c
  ${CMAKE_CURRENT_LIST_DIR}/sram_subarray.c
  ${CMAKE_CURRENT_LIST_DIR}/sram_bank.c
  ${CMAKE_CURRENT_LIST_DIR}/stt_subarray.c
  ${CMAKE_CURRENT_LIST_DIR}/stt_split.c
  ${CMAKE_CURRENT_LIST_DIR}/ff_array.c
  ${CMAKE_CURRENT_LIST_DIR}/comp_common.c
  ${CMAKE_CURRENT_LIST_DIR}/cost.c
  ${CMAKE_CURRENT_LIST_DIR}/xbar.c
  ${CMAKE_CURRENT_LIST_DIR}/arbiter.c
  ${CMAKE_CURRENT_LIST_DIR}/rename.c
  ${CMAKE_CURRENT_LIST_DIR}/wpool.c
  ${CMAKE_CURRENT_LIST_DIR}/rfc_tags.c
  ${CMAKE_CURRENT_LIST_DIR}/crf.c)

# Organisation agreement with CACTI 7 (not run by ctest): build with
# `cmake --build B --target cacti_shapes`, run B/src/cacti_shapes SOURCE_DIR.
add_executable(cacti_shapes EXCLUDE_FROM_ALL ${PROJECT_SOURCE_DIR}/tools/cacti_shapes.c)
target_include_directories(cacti_shapes PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(cacti_shapes PRIVATE gpurf gpurf_warnings m)
