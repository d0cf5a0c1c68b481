# Runs `mpirun … -np NP mpi_distributed throw` and passes when the job ends (within the timeout)
# with a non-zero exit code and the message naming rank 1.
# cmake -DMPIEXEC=… -DNP=… -DPROGRAM=… -P expect_rank_failure.cmake
execute_process(
  COMMAND ${MPIEXEC} --oversubscribe --mca btl self,vader -np ${NP} ${PROGRAM} throw
  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
message(STATUS "exit: ${code}\n${out}${err}")
if(code STREQUAL "0")
  message(FATAL_ERROR "expected a non-zero exit code after rank 1 failed, found 0")
endif()
if(code MATCHES "timeout")
  message(FATAL_ERROR "the job did not end within 60 s after rank 1 failed")
endif()
if(NOT "${out}${err}" MATCHES "rank 1 failed: deliberate failure")
  message(FATAL_ERROR "expected the message 'rank 1 failed: deliberate failure'")
endif()
