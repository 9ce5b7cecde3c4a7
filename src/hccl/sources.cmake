# npu-doctor hccl env|ranktable|hccn|test-output (docs/hccl.md): pure parsers and checks of
# a distributed job's configuration, their renderers, and the subcommand. findings_text and input_file are shared with src/net and src/isolate.
target_sources(npu_doctor_hccl PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/input_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/findings_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/env_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hccl_vars.cpp
  ${CMAKE_CURRENT_LIST_DIR}/env_check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_positions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ranktable.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hccn_output.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hccn_check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hccn_live.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hccl_test_output.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hccl_test_check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hccl_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hccl_text.cpp)

target_include_directories(npu-doctor PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_sources(npu-doctor PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cmd_hccl.cpp)
