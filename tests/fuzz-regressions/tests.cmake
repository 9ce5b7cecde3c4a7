# Regression tests for what the fuzz harnesses found (docs/hardening.md, "What it found"):
# each feeds the exact input to the same parser. Named FuzzRegression*.
target_sources(npu_doctor_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/json_numbers_test.cpp
                                         ${CMAKE_CURRENT_LIST_DIR}/line_info_test.cpp
                                         ${CMAKE_CURRENT_LIST_DIR}/hccl_test_output_test.cpp
                                         ${CMAKE_CURRENT_LIST_DIR}/probe_record_test.cpp
                                         ${CMAKE_CURRENT_LIST_DIR}/profile_counts_test.cpp)
# The exact inputs the fuzzers found, where a test reads them from a file.
target_compile_definitions(npu_doctor_tests PRIVATE
  NPU_DOCTOR_FUZZ_REGRESSION_FIXTURES="${CMAKE_CURRENT_LIST_DIR}/fixtures")
