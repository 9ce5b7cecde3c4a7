# `npu-doctor atc`: command-line parsing, operator extraction, the analysis on fixture logs, the CLI.
target_sources(npu_doctor_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/atc_parts_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/atc_analyzer_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/atc_cli_test.cpp)
