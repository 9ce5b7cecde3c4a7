# Tests of `npu-doctor bundle` (docs/bundle.md): redaction rules and the real-world corpus,
# the probe record/replay, log selection, and the real binary on a fixture host (a check
# fixture machine plus planted secrets and stand-in ip/hccn_tool from fixtures/).
target_sources(npu_doctor_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/bundle_test_support.cpp
  ${CMAKE_CURRENT_LIST_DIR}/redaction_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/redaction_forms_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bundle_parts_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bundle_cli_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bundle_replay_cli_test.cpp)
target_compile_definitions(npu_doctor_tests PRIVATE
  NPU_DOCTOR_BUNDLE_FIXTURES="${CMAKE_CURRENT_LIST_DIR}/fixtures")
