# `npu-doctor explain` (docs/cli.md): the knowledge-base search (codes, ids, names, a pasted
# line read as the scanner reads it) and its text and JSON.
target_sources(npu_doctor_explain PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/explain_query.cpp
  ${CMAKE_CURRENT_LIST_DIR}/explain.cpp)
target_sources(npu-doctor PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cmd_explain.cpp)
