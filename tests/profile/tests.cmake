# `npu-doctor profile`: CSV reader, analysis on fixture trees, renderers and the CLI.
target_sources(npu_doctor_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/csv_reader_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profile_analyzer_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profile_cli_test.cpp)
