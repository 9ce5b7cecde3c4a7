# npu-doctor run and watch (docs/run-watch.md): incremental scanning of streams that are
# still being written, following growing logs (inotify, polling), the wrapped job
# (pseudo-terminals, signals, hangs) and the incidents watch reports.
target_sources(npu_doctor_live PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/prometheus_watch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/incremental_scan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/file_follower.cpp
  ${CMAKE_CURRENT_LIST_DIR}/live_sources.cpp
  ${CMAKE_CURRENT_LIST_DIR}/signal_pipe.cpp
  ${CMAKE_CURRENT_LIST_DIR}/job_process.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plog_locations.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_findings.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/job_run.cpp
  ${CMAKE_CURRENT_LIST_DIR}/incidents.cpp
  ${CMAKE_CURRENT_LIST_DIR}/incident_output.cpp
  ${CMAKE_CURRENT_LIST_DIR}/watcher.cpp)

target_include_directories(npu-doctor PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_sources(npu-doctor PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cmd_run.cpp ${CMAKE_CURRENT_LIST_DIR}/cmd_watch.cpp)
