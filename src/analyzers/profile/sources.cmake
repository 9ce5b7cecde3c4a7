# `npu-doctor profile`: msprof / torch_npu profiler / msprof-analyze CSV analysis.
target_sources(npu_doctor_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/csv_reader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profile_columns.cpp
  ${CMAKE_CURRENT_LIST_DIR}/op_rows.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tables_readers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cluster_communication.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profile_inputs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profile_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profile_findings.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profile_analyzer.cpp
  ${PROJECT_SOURCE_DIR}/src/render/profile_text.cpp
  ${PROJECT_SOURCE_DIR}/src/render/profile_json.cpp
  ${PROJECT_SOURCE_DIR}/src/render/profile_html.cpp)
target_sources(npu-doctor PRIVATE ${PROJECT_SOURCE_DIR}/src/cli/cmd_profile.cpp)
