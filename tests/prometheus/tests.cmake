# `-f prometheus`: the writer, a strict exposition-format parser, every command's output
# read back by it (and by `promtool check metrics` when Prometheus is installed).
target_sources(npu_doctor_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/exposition_parser.cpp
  ${CMAKE_CURRENT_LIST_DIR}/prometheus_test.cpp)
target_compile_definitions(npu_doctor_tests PRIVATE NPU_DOCTOR_EXAMPLES_DIR="${PROJECT_SOURCE_DIR}/examples")
