# Tests of `npu-doctor check`: pure parsers, the compatibility table, each step on the
# fixture machines (fixtures/<machine>/root, stand-in tools in fixtures/<machine>/bin),
# the renderers and the command line.
target_sources(npu_doctor_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/check_test_support.cpp
  ${CMAKE_CURRENT_LIST_DIR}/version_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/version_files_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/system_files_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/python_packages_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compatibility_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identity_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/machines_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/steps_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/check_kb_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/check_render_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/check_cli_test.cpp)
target_compile_definitions(npu_doctor_tests PRIVATE
  NPU_DOCTOR_CHECK_FIXTURES="${CMAKE_CURRENT_LIST_DIR}/fixtures"
  NPU_DOCTOR_COMPATIBILITY_YAML="${PROJECT_SOURCE_DIR}/data/compatibility.yaml")
