# No source file includes a header of a higher layer.
# usage: cmake -DROOT=<source tree> -P layers.cmake
#
# The layers, lowest first (see the README's design section):
#   core, yaml            context, errors, the YAML schema reader
#   tech                  node and cell files
#   circuit               gate, wire and device formulas
#   component             banks, crossbar, arbiter and the other structures
#   rf                    register-file designs and primitive tables
#   events, metrics,      costing counted events; metrics, design sweeps and validation
#   validate                (one level: they may use each other)
#   emu                   the functional emulator
#   trace                 trace readers and writers (may use emu)
#   pipeline              the SM model (uses trace, emu, events, metrics)
#   reproduce             the papers' experiments
#   cli                   the gpurf command, on top
# A module is the first directory under src/ (src/pipeline/tech/x.c belongs to
# pipeline); a public header include/gpurf/X.h belongs to the module below.
# A header no rule places fails the check, so a new one gets a layer.
#
# Known exceptions, "file|include", each to be removed by the change that
# fixes it; an exception that no longer occurs fails the check, so the list
# cannot go stale.
set(exceptions "")
if(IGNORE_EXCEPTIONS)
  set(exceptions "")
endif()

if(NOT ROOT)
  message(FATAL_ERROR "layers.cmake: pass -DROOT=<source tree>")
endif()

set(base core yaml)
set(allow_core "")
set(allow_yaml core)
set(allow_tech ${base})
set(allow_circuit ${base} tech)
set(allow_component ${base} tech circuit)
set(allow_rf ${base} tech circuit component)
set(allow_events ${allow_rf} rf metrics validate)
set(allow_metrics ${allow_rf} rf events validate)
set(allow_validate ${allow_rf} rf events metrics)
set(allow_emu ${base})
set(allow_trace ${base} emu)
set(allow_pipeline ${allow_events} events trace emu)
set(allow_reproduce ${allow_pipeline} pipeline)
set(allow_cli ${allow_reproduce} reproduce umbrella)
list(APPEND allow_reproduce umbrella)
set(modules core yaml tech circuit component rf events metrics validate emu trace pipeline
    reproduce cli)

# Module of a public header (file name under include/gpurf/).
function(public_module name out)
  set(m "")
  if(name MATCHES "^(export|error|context)\\.h$")
    set(m core)
  elseif(name MATCHES "^(tech|cell)\\.h$")
    set(m tech)
  elseif(name STREQUAL "circuit.h")
    set(m circuit)
  elseif(name MATCHES "^(bank|component)\\.h$")
    set(m component)
  elseif(name STREQUAL "rf.h")
    set(m rf)
  elseif(name STREQUAL "events.h")
    set(m events)
  elseif(name MATCHES "^(metrics|sweep|rfhier)\.h$")
    set(m metrics)
  elseif(name STREQUAL "validate.h")
    set(m validate)
  elseif(name STREQUAL "emu.h")
    set(m emu)
  elseif(name MATCHES "^(trace|dataflow|release|orf)\.h$")
    set(m trace)
  elseif(name MATCHES "^(pipeline|technique)\\.h$")
    set(m pipeline)
  elseif(name STREQUAL "reproduce.h")
    set(m reproduce)
  elseif(name STREQUAL "gpurf.h")
    set(m umbrella) # includes every layer: for the top ones only
  endif()
  set(${out} "${m}" PARENT_SCOPE)
endfunction()

# Module of an included "dir/file.h", or "" when no rule places it.
function(header_module inc out)
  set(m "")
  if(inc MATCHES "^gpurf/([^/]+)$")
    public_module("${CMAKE_MATCH_1}" m)
  elseif(inc MATCHES "^([a-z_]+)/")
    list(FIND modules "${CMAKE_MATCH_1}" i)
    if(i GREATER -1)
      set(m "${CMAKE_MATCH_1}")
    endif()
  endif()
  set(${out} "${m}" PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE sources RELATIVE "${ROOT}" "${ROOT}/src/*.c" "${ROOT}/src/*.h"
     "${ROOT}/include/gpurf/*.h")
list(SORT sources)
set(errors 0)
set(checked 0)
foreach(rel IN LISTS sources)
  if(rel MATCHES "^src/([^/]+)/")
    set(mod "${CMAKE_MATCH_1}")
  elseif(rel MATCHES "^include/gpurf/([^/]+)$")
    public_module("${CMAKE_MATCH_1}" mod)
  endif()
  list(FIND modules "${mod}" known)
  if(known EQUAL -1 AND NOT mod STREQUAL "umbrella")
    message("${rel}: not in any layer (add it to tests/lint/layers.cmake)")
    math(EXPR errors "${errors} + 1")
    continue()
  endif()
  math(EXPR checked "${checked} + 1")
  file(STRINGS "${ROOT}/${rel}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*$" "\\1" inc "${line}")
    # Includes without a directory are a module's own neighbours (tests,
    # generated files); only "dir/x.h" crosses a module boundary.
    if(NOT inc MATCHES "/")
      continue()
    endif()
    header_module("${inc}" hmod)
    if(hmod STREQUAL "")
      message("${rel}: includes ${inc}, a header in no layer (add it to tests/lint/layers.cmake)")
      math(EXPR errors "${errors} + 1")
    elseif(NOT hmod STREQUAL mod AND NOT mod STREQUAL "umbrella")
      list(FIND allow_${mod} "${hmod}" ok)
      list(FIND exceptions "${rel}|${inc}" exc)
      if(exc GREATER -1)
        list(APPEND seen_exceptions "${rel}|${inc}")
      elseif(ok EQUAL -1)
        message("${rel}: layer ${mod} includes ${inc} of the higher layer ${hmod}")
        math(EXPR errors "${errors} + 1")
      endif()
    endif()
  endforeach()
endforeach()

foreach(e IN LISTS exceptions)
  list(FIND seen_exceptions "${e}" i)
  if(i EQUAL -1)
    message("exception ${e} no longer occurs: remove it from tests/lint/layers.cmake")
    math(EXPR errors "${errors} + 1")
  endif()
endforeach()

if(checked EQUAL 0)
  message(FATAL_ERROR "layers.cmake: no source files under ${ROOT}")
endif()
if(errors GREATER 0)
  message(FATAL_ERROR "${errors} include(s) against the layering")
endif()
list(LENGTH exceptions n_exc)
message("layers: ${checked} files, every include goes to the same or a lower layer "
        "(${n_exc} known exceptions)")
