# The `tsan` preset (CMakePresets.json, docs/hardening.md): ThreadSanitizer over the core
# library and only the tests that exercise its threads: `diagnose -j` (Diagnoser on several
# threads), the chunk reader's read-ahead thread and the scanner that drives it. The rest
# of the suite runs single-threaded code and is covered by the ASan+UBSan preset.
include(GoogleTest)
find_package(GTest REQUIRED)
enable_testing()
set(tests ${PROJECT_SOURCE_DIR}/tests)
add_executable(npu_doctor_tsan_tests
  ${tests}/support/test_support.cpp
  ${tests}/sanitizers/threaded_scan_test.cpp
  ${tests}/unit/core/chunk_reader_test.cpp
  ${tests}/unit/core/scanner_test.cpp)
set_target_properties(npu_doctor_tsan_tests PROPERTIES UNITY_BUILD OFF)  # as npu_doctor_tests (tests/CMakeLists.txt)
target_include_directories(npu_doctor_tsan_tests PRIVATE ${PROJECT_SOURCE_DIR}/src/core ${PROJECT_SOURCE_DIR}/src ${tests})
target_compile_definitions(npu_doctor_tsan_tests PRIVATE
  NPU_DOCTOR_FIXTURES="${tests}/fixtures"
  NPU_DOCTOR_KB_DIR="${PROJECT_SOURCE_DIR}/kb"
  NPU_DOCTOR_BINARY="/nonexistent/npu-doctor-not-built-under-tsan")
target_link_libraries(npu_doctor_tsan_tests PRIVATE npu_doctor_core npu_doctor_warnings GTest::gtest GTest::gtest_main)
gtest_discover_tests(npu_doctor_tsan_tests DISCOVERY_TIMEOUT 120 PROPERTIES TIMEOUT 600)
