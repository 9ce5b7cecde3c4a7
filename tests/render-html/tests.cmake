# The incident report (--html, --attach; docs/html-report.md): the page through the real
# binary, and the same page in a real headless browser (Debian's chromium) with a
# screenshot of the cluster timeline; the browser test is skipped without chromium.
target_sources(npu_doctor_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/html_report_test.cpp)
target_compile_definitions(npu_doctor_tests PRIVATE NPU_DOCTOR_CLUSTER_GEN="${PROJECT_SOURCE_DIR}/tests/cluster/gen_cluster.py")

find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  foreach(case DomShowsTheRootCauseWithoutConsoleErrors ScreenshotShowsTheCulpritRow MemoryChartIsDrawn)
    add_test(NAME HtmlReportBrowser.${case}
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/html_browser_test.py $<TARGET_FILE:npu-doctor>
              ${PROJECT_SOURCE_DIR}/tests/cluster/gen_cluster.py ${case})
    set_tests_properties(HtmlReportBrowser.${case} PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
  endforeach()
endif()
