# Tests of `npu-doctor run` and `watch` (docs/run-watch.md): the incremental scan against a
# whole scan, the follower against a real folder (inotify and polling), and the real
# binary with real child processes, a pseudo-terminal, rotation and truncation.
target_sources(npu_doctor_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/live_child.cpp
  ${CMAKE_CURRENT_LIST_DIR}/incremental_scan_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/file_follower_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_cli_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/watch_cli_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/live_bad_input_test.cpp)
target_compile_definitions(npu_doctor_tests PRIVATE NPU_DOCTOR_LIVE_FIXTURES="${CMAKE_CURRENT_LIST_DIR}/fixtures")

# Two ranks under a real mpirun, each wrapped by `run`, writing plogs into one folder.
find_program(NPU_DOCTOR_MPIRUN mpirun)
if(NPU_DOCTOR_MPIRUN)
  add_test(NAME MpiRun.TwoWrappedRanksEachDiagnoseTheirOwnRun
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/mpi_run_test.sh $<TARGET_FILE:npu-doctor> ${NPU_DOCTOR_MPIRUN}
            ${CMAKE_CURRENT_LIST_DIR}/fixtures)
  set_tests_properties(MpiRun.TwoWrappedRanksEachDiagnoseTheirOwnRun PROPERTIES TIMEOUT 300)
endif()
