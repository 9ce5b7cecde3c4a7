# What every feature's renderers share: text wrapping (CJK-aware), the JSON writer and a
# finding as JSON, SVG bar charts; the Prometheus writer is in prometheus/.
target_sources(npu_doctor_render PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/text_layout.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_stream.cpp
  ${CMAKE_CURRENT_LIST_DIR}/finding_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/finding_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/svg_bar_chart.cpp)
