# Tests of `npu-doctor bundle` (docs/bundle.md): redaction rules and the real-world corpus,
# the probe record/replay, log selection, and the real binary on a fixture host (a check
# fixture machine plus planted secrets and stand-in ip/hccn_tool from fixtures/).
target_sources(npu_doctor_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/bundle_test_support.cpp
  ${CMAKE_CURRENT_LIST_DIR}/redaction_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/redaction_forms_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bundle_parts_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bundle_cli_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bundle_replay_cli_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/archive_format_error_test.cpp)
# The test binary links libarchive as npu-doctor does, with the same stand-in helper.
if(NPU_DOCTOR_STATIC_LINKED_archive)
  target_sources(npu_doctor_tests PRIVATE ${PROJECT_SOURCE_DIR}/src/core/archive_format_error.cpp)
  set_source_files_properties(${PROJECT_SOURCE_DIR}/src/core/archive_format_error.cpp
    TARGET_DIRECTORY npu_doctor_tests PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endif()
target_compile_definitions(npu_doctor_tests PRIVATE
  NPU_DOCTOR_BUNDLE_FIXTURES="${CMAKE_CURRENT_LIST_DIR}/fixtures")
