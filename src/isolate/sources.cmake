# npu-doctor isolate (docs/isolate.md): the single-card isolation planner, the runner that
# starts the user's command per card set with a timeout, findings and renderers.
target_sources(npu_doctor_isolate PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/isolation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device_list.cpp
  ${CMAKE_CURRENT_LIST_DIR}/command_runner.cpp
  ${CMAKE_CURRENT_LIST_DIR}/isolate_report.cpp)

target_include_directories(npu-doctor PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_sources(npu-doctor PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cmd_isolate.cpp)
