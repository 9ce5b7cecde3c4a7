# npu-doctor mem: samples, leak and fragmentation analysis, OOM classification, watch,
# renderers (text, JSON, HTML in a headless browser), the Python helper.
target_sources(npu_doctor_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/synthetic_series.cpp
  ${CMAKE_CURRENT_LIST_DIR}/byte_size_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mem_verdict_words_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mem_sample_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sample_set_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/leak_detector_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/oom_classifier_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mem_analysis_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/npu_smi_watch_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mem_render_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mem_cli_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mem_watch_cli_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mem_html_browser_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/python_helper_test.cpp)
target_compile_definitions(npu_doctor_tests PRIVATE
  NPU_DOCTOR_MEM_FIXTURES="${CMAKE_CURRENT_LIST_DIR}/fixtures"
  NPU_DOCTOR_PYTHON_DIR="${PROJECT_SOURCE_DIR}/python")
