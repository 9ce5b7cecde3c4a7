# `npu-doctor profile`: msprof / torch_npu profiler / msprof-analyze CSV analysis.
target_sources(npu_doctor_profile PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/csv_reader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profile_columns.cpp
  ${CMAKE_CURRENT_LIST_DIR}/op_rows.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tables_readers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cluster_communication.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profile_inputs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profile_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profile_findings.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profile_analyzer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profile_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profile_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profile_html.cpp)
target_sources(npu-doctor PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cmd_profile.cpp)
