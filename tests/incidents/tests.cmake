target_sources(npu_doctor_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/incident_split_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/member_list_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/incidents_cli_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/causal_relations_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/command_line_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/readme_and_layout_test.cpp)
