# One object library per feature folder of src/, with the layering the build enforces
# (ARCHITECTURE.md, "Which folder may include which").
#
#   npu_doctor_feature(NAME [DEPENDS FEATURE...])
#
# declares npu_doctor_NAME for src/NAME/ (its sources.cmake adds the sources). It links the
# engine (npu_doctor_objects, src/core) and the features it DEPENDS on, declared before it,
# so the graph has no cycle. Its include path holds the engine's folder and a directory of
# links to exactly the folders it may use: its own, core, and what it depends on directly
# or through them. `src/` itself is not on it, so an include the layering forbids
# ("memory/..." in diagnosis) is a compile error, not a review comment. The engine's own
# root holds src/core alone (src/CMakeLists.txt).

# Gives `target` the include root build/layers/LAYER/: links to the src/ FOLDERS and nothing
# else, made afresh at each configuration.
function(npu_doctor_include_root target layer)
  set(root ${PROJECT_BINARY_DIR}/layers/${layer})
  file(REMOVE_RECURSE ${root})
  file(MAKE_DIRECTORY ${root})
  foreach(folder IN LISTS ARGN)
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/src/${folder} ${root}/${folder} SYMBOLIC)
  endforeach()
  target_include_directories(${target} PRIVATE ${root})
endfunction()

function(npu_doctor_feature name)
  cmake_parse_arguments(PARSE_ARGV 1 F "" "" "DEPENDS")
  set(closure core ${name})
  foreach(dep IN LISTS F_DEPENDS)
    get_property(declared GLOBAL PROPERTY NPU_DOCTOR_FEATURE_CLOSURE_${dep} SET)
    if(NOT declared)
      message(FATAL_ERROR "feature ${name} depends on ${dep}, which is not declared before it")
    endif()
    get_property(dep_closure GLOBAL PROPERTY NPU_DOCTOR_FEATURE_CLOSURE_${dep})
    list(APPEND closure ${dep_closure})
  endforeach()
  list(REMOVE_DUPLICATES closure)
  set_property(GLOBAL PROPERTY NPU_DOCTOR_FEATURE_CLOSURE_${name} ${closure})
  set_property(GLOBAL APPEND PROPERTY NPU_DOCTOR_FEATURES ${name})

  add_library(npu_doctor_${name} OBJECT)
  npu_doctor_include_root(npu_doctor_${name} ${name} ${closure})
  target_include_directories(npu_doctor_${name} PRIVATE ${PROJECT_SOURCE_DIR}/src/core)
  target_link_libraries(npu_doctor_${name}
    PUBLIC npu_doctor_objects
    PRIVATE npu_doctor_warnings nlohmann_json::nlohmann_json)
  foreach(dep IN LISTS F_DEPENDS)
    target_link_libraries(npu_doctor_${name} PUBLIC npu_doctor_${dep})
  endforeach()
  add_dependencies(npu_doctor_${name} npu_doctor_kb_ids npu_doctor_ui_words)
endfunction()
