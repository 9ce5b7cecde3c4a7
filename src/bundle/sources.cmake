# npu-doctor bundle (docs/bundle.md): redaction (rules in data/redaction.yaml), the probe
# record/replay behind `check --root BUNDLE`, the archive, log selection, report.md and
# the collector; the redaction rules and report templates are embedded at build time.
target_sources(npu_doctor_bundle PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/sha256.cpp
  ${CMAKE_CURRENT_LIST_DIR}/redaction.cpp
  ${CMAKE_CURRENT_LIST_DIR}/staged_member.cpp
  ${CMAKE_CURRENT_LIST_DIR}/probe_record.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bundle_archive.cpp
  ${CMAKE_CURRENT_LIST_DIR}/log_selection.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_md.cpp
  ${CMAKE_CURRENT_LIST_DIR}/collector.cpp)
embed_files(EMBEDDED_BUNDLE_DATA_SRC embedded_bundle_data
  ${PROJECT_SOURCE_DIR}/data/redaction.yaml
  ${PROJECT_SOURCE_DIR}/data/bundle-report.en.md
  ${PROJECT_SOURCE_DIR}/data/bundle-report.zh.md)
target_sources(npu_doctor_bundle PRIVATE ${EMBEDDED_BUNDLE_DATA_SRC})
target_link_libraries(npu_doctor_bundle PUBLIC PkgConfig::NETTLE)

target_include_directories(npu-doctor PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_sources(npu-doctor PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cmd_bundle.cpp)
