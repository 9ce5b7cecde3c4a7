# Tests of `npu-doctor net`: parsing (endpoints, host files, units), the protocol, client
# and server on loopback (several servers on different ports in one test, silent and
# foreign servers, rate-limited servers), the all-pairs matrix, the analysis, and the
# command line - also across network namespaces when the test may create them.
target_sources(npu_doctor_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/net_test_support.cpp
  ${CMAKE_CURRENT_LIST_DIR}/net_parse_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/net_analysis_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/net_loopback_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/net_cli_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/net_netns_test.cpp)
