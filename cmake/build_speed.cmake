# How dagml keeps its build short on a small machine: ccache when it is installed, precompiled
# headers shared across targets, unity builds of the lower layers. None of it changes what is
# compiled, only how often the same headers are parsed; each can be switched off.
#
# Note [Precompiled headers]
# Every translation unit of dagml includes Eigen and fmt through graph/tensor.h and
# graph/error.h, and every test includes GoogleTest and GoogleMock: about 200,000 preprocessed
# lines before the first line of dagml's own code. Parsing them is most of the cost of a small
# source file (an op file: about 2.5 s of its 3 s). They are precompiled once for the library
# targets and once for the test executables (two headers, because the library is compiled
# position-independent and the tests are not, and GCC refuses a precompiled header made with
# other code-generation flags). The other targets of each group reuse the first one's header
# (REUSE_FROM), so the group's compile flags must stay identical: per-target definitions that
# the precompiled headers do not read (such as models' DAGML_SOURCE_DATA_DIR) are fine.
# Only third-party and standard headers are precompiled, never dagml's own: editing a dagml
# header then rebuilds only the files that include it, as without precompiled headers.
# A precompiled header makes its headers visible to every file of the group, so a missing
# #include of <vector> or <Eigen/Cholesky> goes unnoticed; configure with -DDAGML_PCH=OFF to
# check that every file includes what it uses.

option(DAGML_PCH "Precompile the third-party headers (Eigen, fmt, GoogleTest) once per group of targets" ON)

# Note [Unity builds]
# A unity build compiles several .cpp files of a target as one translation unit (CMake's
# UNITY_BUILD, batches of DAGML_UNITY_BATCH_SIZE files in the order of the source list), so the
# headers they share are read once per batch. It is used where the names allow it: in graph/,
# autodiff/ and optim/ no two files give the same name to an internal (anonymous-namespace or
# static) entity, and files added there must keep it so. models/ is compiled file by file: most
# estimator files name their model `kName` in an anonymous namespace, and those would collide in
# one batch. A collision shows as a "redefinition" error naming both files; -DDAGML_UNITY=OFF
# compiles every file alone. Touching one file recompiles its batch (up to 8 small files).
option(DAGML_UNITY "Compile graph, autodiff and optim in unity batches (several .cpp files per compiler run)" ON)
set(DAGML_UNITY_BATCH_SIZE 8 CACHE STRING "Source files per unity batch")
set(DAGML_UNITY_LAYERS graph autodiff optim)

# --- ccache --------------------------------------------------------------------------------------
# Used when installed and no other compiler launcher was chosen. ccache caches compilations that
# use a precompiled header only with these sloppiness settings (ccache manual, "Precompiled
# headers"): the environment variable replaces a sloppiness set in ccache's own configuration.
set(DAGML_CCACHE_SLOPPINESS pch_defines,time_macros,include_file_mtime,include_file_ctime)
option(DAGML_CCACHE "Compile through ccache when it is installed" ON)
if(DAGML_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(DAGML_CCACHE_PROGRAM ccache)
  if(DAGML_CCACHE_PROGRAM)
    set(CMAKE_CXX_COMPILER_LAUNCHER
        ${CMAKE_COMMAND} -E env CCACHE_SLOPPINESS=${DAGML_CCACHE_SLOPPINESS} ${DAGML_CCACHE_PROGRAM})
    message(STATUS "Compiling through ${DAGML_CCACHE_PROGRAM}")
  endif()
elseif(CMAKE_CXX_COMPILER_LAUNCHER MATCHES "(^|/)ccache$" AND DAGML_PCH)
  # A launcher given on the command line (-DCMAKE_CXX_COMPILER_LAUNCHER=ccache): keep it, with
  # the sloppiness the precompiled headers need.
  set(CMAKE_CXX_COMPILER_LAUNCHER
      ${CMAKE_COMMAND} -E env CCACHE_SLOPPINESS=${DAGML_CCACHE_SLOPPINESS} ${CMAKE_CXX_COMPILER_LAUNCHER})
endif()

# The headers precompiled for every library target: what graph/ includes for everyone, the
# Eigen modules the solvers use, and the standard headers most files include.
set(DAGML_PCH_HEADERS
  <Eigen/Dense> <fmt/format.h>
  <algorithm> <cmath> <cstdint> <functional> <limits> <memory> <span> <string> <utility> <vector>)
# The test executables add GoogleTest and GoogleMock.
set(DAGML_TEST_PCH_HEADERS ${DAGML_PCH_HEADERS} <gtest/gtest.h> <gmock/gmock.h>)

# dagml_precompile(TARGET HEADERS <headers...>) makes TARGET precompile HEADERS;
# dagml_precompile(TARGET REUSE_FROM <owner>) makes it reuse OWNER's precompiled header.
function(dagml_precompile target)
  if(NOT DAGML_PCH)
    return()
  endif()
  cmake_parse_arguments(ARG "" "REUSE_FROM" "HEADERS" ${ARGN})
  if(ARG_REUSE_FROM)
    target_precompile_headers(${target} REUSE_FROM ${ARG_REUSE_FROM})
  else()
    target_precompile_headers(${target} PRIVATE ${ARG_HEADERS})
  endif()
endfunction()
