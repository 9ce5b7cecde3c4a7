# npu-doctor mem (docs/mem.md): memory samples, leak and fragmentation analysis, OOM
# classification, npu-smi polling, and the mem report renderers. byte_size.cpp and
# oom_classifier.cpp are listed in src/CMakeLists.txt: diagnose classifies OOM lines too.
target_sources(npu_doctor_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/mem_sample.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sample_set.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sample_reader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/robust_stats.cpp
  ${CMAKE_CURRENT_LIST_DIR}/leak_detector.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mem_analysis.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mem_verdict_words.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sparkline.cpp
  ${CMAKE_CURRENT_LIST_DIR}/npu_smi_watch.cpp
  ${PROJECT_SOURCE_DIR}/src/render/mem_text.cpp
  ${PROJECT_SOURCE_DIR}/src/render/mem_json.cpp
  ${PROJECT_SOURCE_DIR}/src/render/mem_html.cpp)
# The mem sources include each other as "analyzers/memory/..." and "render/...".
target_include_directories(npu_doctor_objects PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_sources(npu-doctor PRIVATE ${PROJECT_SOURCE_DIR}/src/cli/cmd_mem.cpp)
target_include_directories(npu-doctor PRIVATE ${PROJECT_SOURCE_DIR}/src)
