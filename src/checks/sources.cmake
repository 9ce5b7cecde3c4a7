# npu-doctor check: the environment doctor (docs/check.md). Library code, the embedded
# compatibility table (data/compatibility.yaml), the renderers and the subcommand.
target_sources(npu_doctor_checks PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/prometheus_check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/version.cpp
  ${CMAKE_CURRENT_LIST_DIR}/version_files.cpp
  ${CMAKE_CURRENT_LIST_DIR}/proc_files.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cpu_list.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identity.cpp
  ${CMAKE_CURRENT_LIST_DIR}/visible_devices.cpp
  ${CMAKE_CURRENT_LIST_DIR}/python_packages.cpp
  ${CMAKE_CURRENT_LIST_DIR}/probe_glob.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compatibility.cpp
  ${CMAKE_CURRENT_LIST_DIR}/check_report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/check_context.cpp
  ${CMAKE_CURRENT_LIST_DIR}/toolkit.cpp
  ${CMAKE_CURRENT_LIST_DIR}/python_env.cpp
  ${CMAKE_CURRENT_LIST_DIR}/driver_step.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cann_step.cpp
  ${CMAKE_CURRENT_LIST_DIR}/devices_step.cpp
  ${CMAKE_CURRENT_LIST_DIR}/numa_step.cpp
  ${CMAKE_CURRENT_LIST_DIR}/check_runner.cpp
  ${CMAKE_CURRENT_LIST_DIR}/check_ui_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/check_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/check_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/check_markdown.cpp)
# In the objects (not only the final library): the check code that uses it is there too,
# and npu-doctor-kbc links the objects.
embed_files(EMBEDDED_CHECK_DATA_SRC embedded_check_data ${PROJECT_SOURCE_DIR}/data/compatibility.yaml)
target_sources(npu_doctor_checks PRIVATE ${EMBEDDED_CHECK_DATA_SRC})

target_include_directories(npu-doctor PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_sources(npu-doctor PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cmd_check.cpp)
