# npu-doctor net serve|test (docs/net.md): TCP reachability, latency and throughput
# between nodes over POSIX sockets, the all-pairs matrix, the analysis and the renderers.
target_sources(npu_doctor_net PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/endpoint.cpp
  ${CMAKE_CURRENT_LIST_DIR}/units.cpp
  ${CMAKE_CURRENT_LIST_DIR}/socket.cpp
  ${CMAKE_CURRENT_LIST_DIR}/protocol.cpp
  ${CMAKE_CURRENT_LIST_DIR}/link_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/server.cpp
  ${CMAKE_CURRENT_LIST_DIR}/matrix.cpp
  ${CMAKE_CURRENT_LIST_DIR}/net_analysis.cpp
  ${CMAKE_CURRENT_LIST_DIR}/net_render.cpp)

target_include_directories(npu-doctor PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_sources(npu-doctor PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cmd_net.cpp)
