# Issue 9: the bad-input matrix, misbehaving stand-in tools and signals, all against the
# real binary under a wall-clock limit (BadInput*, Signal*). Inputs are made at test time.
target_sources(npu_doctor_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/bounded_run.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bad_inputs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bad_input_matrix_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bad_tool_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/signal_test.cpp)
