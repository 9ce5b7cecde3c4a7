# `npu-doctor atc`: ATC model-conversion failure triage.
target_sources(npu_doctor_compile PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/atc_command.cpp
  ${CMAKE_CURRENT_LIST_DIR}/atc_operators.cpp
  ${CMAKE_CURRENT_LIST_DIR}/atc_outputs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/atc_analyzer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/atc_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/atc_json.cpp)
target_sources(npu-doctor PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cmd_atc.cpp)
