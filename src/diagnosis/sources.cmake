# `npu-doctor diagnose` (docs/cli.md, docs/root-cause.md, docs/incidents.md): the diagnoser
# over the engine's scan, the incident split, cross-rank analysis, root-cause choice and
# causal relations, the OOM classifier, and the diagnosis renderers (text, JSON, Markdown,
# Prometheus).
target_sources(npu_doctor_diagnosis PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/diagnoser.cpp
  ${CMAKE_CURRENT_LIST_DIR}/incident_split.cpp
  ${CMAKE_CURRENT_LIST_DIR}/member_list.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rank_attribution.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cluster.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cluster_reason.cpp
  ${CMAKE_CURRENT_LIST_DIR}/root_cause.cpp
  ${CMAKE_CURRENT_LIST_DIR}/context_meaning.cpp
  ${CMAKE_CURRENT_LIST_DIR}/expected_errors.cpp
  ${CMAKE_CURRENT_LIST_DIR}/causal_relations.cpp
  ${CMAKE_CURRENT_LIST_DIR}/memory_log_findings.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/root_cause_reason.cpp
  ${CMAKE_CURRENT_LIST_DIR}/text_renderer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/incident_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/incidents_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_renderer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/markdown_renderer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/prometheus_diagnosis.cpp)
target_sources(npu-doctor PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cmd_diagnose.cpp)
