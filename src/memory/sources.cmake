# npu-doctor mem (docs/mem.md): memory samples, leak and fragmentation analysis, npu-smi
# polling, and the mem report renderers (text, JSON, the page, its chart, Prometheus). The
# OOM classifier is diagnosis's (diagnose classifies OOM lines too); byte sizes are core's.
target_sources(npu_doctor_memory PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/oom_classifier.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mem_chart.cpp
  ${CMAKE_CURRENT_LIST_DIR}/prometheus_mem.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mem_sample.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sample_set.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sample_reader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/robust_stats.cpp
  ${CMAKE_CURRENT_LIST_DIR}/leak_detector.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mem_analysis.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mem_verdict_words.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sparkline.cpp
  ${CMAKE_CURRENT_LIST_DIR}/npu_smi_watch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mem_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mem_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mem_html.cpp)
target_sources(npu-doctor PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cmd_mem.cpp)
target_include_directories(npu-doctor PRIVATE ${PROJECT_SOURCE_DIR}/src)
