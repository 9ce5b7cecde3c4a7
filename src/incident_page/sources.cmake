# The incident report (`-f html`, `--html FILE` on diagnose, cluster and merge;
# docs/html-report.md): the page shell, verdict, cluster timeline, evidence, and the
# analyses attached to it (memory chart, profile charts, the environment check).
target_sources(npu_doctor_incident_page PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/html_renderer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/html_verdict.cpp
  ${CMAKE_CURRENT_LIST_DIR}/html_evidence.cpp
  ${CMAKE_CURRENT_LIST_DIR}/html_timeline.cpp
  ${CMAKE_CURRENT_LIST_DIR}/html_attachments.cpp
  ${CMAKE_CURRENT_LIST_DIR}/html_attachment_loader.cpp)
