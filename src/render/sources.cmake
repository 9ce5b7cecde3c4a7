# The incident report (`--html FILE` on diagnose, cluster and merge; docs/html-report.md):
# the page's sections, the cluster timeline, what can be attached (memory, profile, check),
# and the chart pieces it shares with the mem and profile pages.
target_include_directories(npu_doctor_objects PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_sources(npu_doctor_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/html_verdict.cpp
  ${CMAKE_CURRENT_LIST_DIR}/html_evidence.cpp
  ${CMAKE_CURRENT_LIST_DIR}/html_timeline.cpp
  ${CMAKE_CURRENT_LIST_DIR}/html_attachments.cpp
  ${CMAKE_CURRENT_LIST_DIR}/html_attachment_loader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mem_chart.cpp
  ${CMAKE_CURRENT_LIST_DIR}/svg_bar_chart.cpp)
