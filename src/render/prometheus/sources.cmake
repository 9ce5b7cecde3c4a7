# `-f prometheus` (docs/prometheus.md): the exposition-format writer and the families every
# report has; each feature renders its own report with them (checks/, memory/, diagnosis/,
# live/).
target_sources(npu_doctor_render PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/prometheus_writer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/prometheus_common.cpp)
