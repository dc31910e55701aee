# Installation: library, headers, the gpurf command, data files, a CMake
# package (find_package(gpurf) -> gpurf::gpurf) and a pkg-config file.
include(CMakePackageConfigHelpers)

install(TARGETS gpurf EXPORT gpurfTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS gpurf_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/gpurf DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(dir tech models validation)
  if(EXISTS ${PROJECT_SOURCE_DIR}/${dir})
    install(DIRECTORY ${dir} DESTINATION ${GPURF_INSTALL_DATADIR})
  endif()
endforeach()
# The RV32 kernels, when the cross compiler built them (gpurf trace record
# --kernel looks in DATADIR/riscv).
if(GPURF_RISCV_FOUND)
  foreach(k ${GPURF_RISCV_KERNELS})
    install(FILES ${GPURF_RISCV_KERNEL_DIR}/${k}.elf DESTINATION ${GPURF_INSTALL_DATADIR}/riscv)
    install(FILES ${GPURF_RISCV_KERNEL_DIR}/rv32e/${k}.elf
      DESTINATION ${GPURF_INSTALL_DATADIR}/riscv/rv32e)
  endforeach()
endif()

install(EXPORT gpurfTargets NAMESPACE gpurf::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gpurf)
configure_package_config_file(cmake/gpurfConfig.cmake.in
  ${PROJECT_BINARY_DIR}/gpurfConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gpurf
  PATH_VARS GPURF_INSTALL_DATADIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gpurfConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gpurfConfig.cmake
              ${PROJECT_BINARY_DIR}/gpurfConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gpurf)

# A static library drags its dependencies into every link; a shared one
# keeps them private.
if(BUILD_SHARED_LIBS)
  set(GPURF_PC_REQUIRES "Requires.private: yaml-0.1 gsl")
  set(GPURF_PC_LIBS "Libs: -L\${libdir} -lgpurf")
  set(GPURF_PC_LIBS_PRIVATE "Libs.private: -lm -pthread")
else()
  set(GPURF_PC_REQUIRES "Requires: yaml-0.1 gsl")
  set(GPURF_PC_LIBS "Libs: -L\${libdir} -lgpurf -lm -pthread")
  set(GPURF_PC_LIBS_PRIVATE "")
endif()
# The .pc file locates the prefix from its own directory, so an installed
# tree can be moved (or installed with cmake --install --prefix).
file(RELATIVE_PATH GPURF_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
configure_file(cmake/gpurf.pc.in ${PROJECT_BINARY_DIR}/gpurf.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/gpurf.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
