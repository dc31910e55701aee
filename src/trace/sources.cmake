list(APPEND GPURF_LIB_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/text_util.c
  ${CMAKE_CURRENT_LIST_DIR}/opcode.c
  ${CMAKE_CURRENT_LIST_DIR}/opcode_rv.c
  ${CMAKE_CURRENT_LIST_DIR}/accelsim.c
  ${CMAKE_CURRENT_LIST_DIR}/native_text.c
  ${CMAKE_CURRENT_LIST_DIR}/native_binary.c
  ${CMAKE_CURRENT_LIST_DIR}/native_binary_brief.c
  ${CMAKE_CURRENT_LIST_DIR}/native_binary_write.c
  ${CMAKE_CURRENT_LIST_DIR}/native_binary_repeat.c
  ${CMAKE_CURRENT_LIST_DIR}/shape.c
  ${CMAKE_CURRENT_LIST_DIR}/reader.c
  ${CMAKE_CURRENT_LIST_DIR}/writer.c
  ${CMAKE_CURRENT_LIST_DIR}/stats.c
  ${CMAKE_CURRENT_LIST_DIR}/dataflow.c
  ${CMAKE_CURRENT_LIST_DIR}/dataflow_graph.c
  ${CMAKE_CURRENT_LIST_DIR}/dataflow_analyze.c
  ${CMAKE_CURRENT_LIST_DIR}/dataflow_defuse.c
  ${CMAKE_CURRENT_LIST_DIR}/release.c
  ${CMAKE_CURRENT_LIST_DIR}/orf_alloc.c
  ${CMAKE_CURRENT_LIST_DIR}/synth.c
  ${CMAKE_CURRENT_LIST_DIR}/emu_record.c)

# Reading-speed benchmark (not run by ctest): build with `cmake --build B
# --target bench_trace`, run B/src/bench_trace.
add_executable(bench_trace EXCLUDE_FROM_ALL ${PROJECT_SOURCE_DIR}/tools/bench_trace.c)
target_compile_definitions(bench_trace PRIVATE GPURF_BENCH_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
target_link_libraries(bench_trace PRIVATE gpurf gpurf_warnings m)
