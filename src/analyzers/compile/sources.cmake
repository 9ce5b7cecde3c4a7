# `npu-doctor atc`: ATC model-conversion failure triage.
target_sources(npu_doctor_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/atc_command.cpp
  ${CMAKE_CURRENT_LIST_DIR}/atc_operators.cpp
  ${CMAKE_CURRENT_LIST_DIR}/atc_outputs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/atc_analyzer.cpp
  ${PROJECT_SOURCE_DIR}/src/render/atc_text.cpp
  ${PROJECT_SOURCE_DIR}/src/render/atc_json.cpp)
target_sources(npu-doctor PRIVATE ${PROJECT_SOURCE_DIR}/src/cli/cmd_atc.cpp)
