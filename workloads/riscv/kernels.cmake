# The RV32 kernel suite, compiled with the cross compiler SIMTight itself
# uses (Debian's gcc-riscv64-unknown-elf) when it is installed. The ELFs go
# to ${GPURF_RISCV_KERNEL_DIR}; the CLI (--kernel NAME) and the tests find
# them there.
set(GPURF_RISCV_KERNELS
  vecadd histogram reduce scan transpose matvec matmul bitonic spmv stencil gcd sad
  bfs kmeans nbody scan_carry)
set(GPURF_RISCV_KERNEL_DIR "${CMAKE_BINARY_DIR}/workloads/riscv")
set(GPURF_RISCV_FOUND OFF)

find_program(GPURF_RISCV_CC riscv64-unknown-elf-gcc)
if(GPURF_RISCV_CC)
  set(GPURF_RISCV_FOUND ON)
  message(STATUS "RISC-V kernels: compiled with ${GPURF_RISCV_CC}")
  set(rv_dir "${CMAKE_CURRENT_LIST_DIR}")
  # SIMTight's flags, plus simple block reordering: the default algorithm
  # copies small blocks into their predecessors, and a copied pop leaves the
  # lanes of a warp at two different PCs where they were meant to meet.
  set(rv_flags -march=rv32ima_zicsr -mabi=ilp32 -O2 -ffreestanding -nostdlib -static
    -mcmodel=medany -fno-builtin -fvisibility=hidden -ffunction-sections -ffp-contract=off
    -freorder-blocks-algorithm=simple -Wall -Wextra -Werror -T ${rv_dir}/link.ld)
  set(rv_outputs)
  foreach(k ${GPURF_RISCV_KERNELS})
    set(out "${GPURF_RISCV_KERNEL_DIR}/${k}.elf")
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${GPURF_RISCV_KERNEL_DIR}
      COMMAND ${GPURF_RISCV_CC} ${rv_flags} ${rv_dir}/crt0.S ${rv_dir}/rt.c
              ${rv_dir}/kernels/${k}.c -o ${out}
      DEPENDS ${rv_dir}/crt0.S ${rv_dir}/rt.c ${rv_dir}/rt.h ${rv_dir}/link.ld
              ${rv_dir}/kernels/${k}.c
      COMMENT "RV32 kernel ${k}"
      VERBATIM)
    list(APPEND rv_outputs ${out})
    # The same kernel for RV32E (16 registers; SIMTight's Sec. IV comparison):
    # the compiler spills what no longer fits.
    set(out_e "${GPURF_RISCV_KERNEL_DIR}/rv32e/${k}.elf")
    set(rv_flags_e ${rv_flags})
    list(TRANSFORM rv_flags_e REPLACE "^-march=rv32ima_zicsr$" "-march=rv32ema_zicsr")
    list(TRANSFORM rv_flags_e REPLACE "^-mabi=ilp32$" "-mabi=ilp32e")
    add_custom_command(OUTPUT ${out_e}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${GPURF_RISCV_KERNEL_DIR}/rv32e
      COMMAND ${GPURF_RISCV_CC} ${rv_flags_e} ${rv_dir}/crt0.S ${rv_dir}/rt.c
              ${rv_dir}/kernels/${k}.c -o ${out_e}
      DEPENDS ${rv_dir}/crt0.S ${rv_dir}/rt.c ${rv_dir}/rt.h ${rv_dir}/link.ld
              ${rv_dir}/kernels/${k}.c
      COMMENT "RV32E kernel ${k}"
      VERBATIM)
    list(APPEND rv_outputs ${out_e})
  endforeach()
  add_custom_target(riscv_kernels ALL DEPENDS ${rv_outputs})
else()
  message(STATUS "RISC-V kernels: riscv64-unknown-elf-gcc NOT FOUND - the kernel suite "
    "(workloads/riscv) is not built; tests use the traces in tests/data/riscv. "
    "Install gcc-riscv64-unknown-elf (tools/install-deps.sh) to build it.")
endif()
