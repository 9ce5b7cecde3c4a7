# Tests of `npu-doctor hccl`: the pure parsers and checks on fixture text (fixtures/),
# and the command line with stand-in hccn_tool / npu-smi scripts first on PATH.
target_sources(npu_doctor_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/hccl_test_support.cpp
  ${CMAKE_CURRENT_LIST_DIR}/env_file_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/env_check_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_positions_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ranktable_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hccn_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hccn_live_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hccl_test_output_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hccl_kb_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hccl_cli_test.cpp)
target_compile_definitions(npu_doctor_tests PRIVATE
  NPU_DOCTOR_HCCL_FIXTURES="${CMAKE_CURRENT_LIST_DIR}/fixtures")
