# Tests of `npu-doctor isolate`: the planner with a fake runner (which card, pair or set
# fails), and the command line with a stand-in command that fails on chosen cards.
target_sources(npu_doctor_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/isolation_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/isolate_cli_test.cpp)
target_compile_definitions(npu_doctor_tests PRIVATE
  NPU_DOCTOR_ISOLATE_FIXTURES="${CMAKE_CURRENT_LIST_DIR}/fixtures")
