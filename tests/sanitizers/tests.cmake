# Tests of the threaded scanner; also built alone under ThreadSanitizer (tsan.cmake).
target_sources(npu_doctor_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/threaded_scan_test.cpp)
