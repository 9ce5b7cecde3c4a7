# `-f prometheus` (docs/prometheus.md): the exposition-format writer and one renderer per
# report kind (diagnosis, check, mem).
target_include_directories(npu_doctor_objects PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_sources(npu_doctor_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/prometheus_writer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/prometheus_common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/prometheus_diagnosis.cpp
  ${CMAKE_CURRENT_LIST_DIR}/prometheus_check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/prometheus_mem.cpp
  ${CMAKE_CURRENT_LIST_DIR}/prometheus_watch.cpp)
