target_sources(npu_doctor_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/cluster_analysis_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rank_attribution_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cluster_generator_test.cpp)
target_compile_definitions(npu_doctor_tests PRIVATE NPU_DOCTOR_CLUSTER_GEN="${CMAKE_CURRENT_LIST_DIR}/gen_cluster.py")
