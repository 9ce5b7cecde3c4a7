# Golden outputs (tests/golden/README.md): every command and format run by the real binary on
# fixtures, normalised and compared byte for byte with tests/golden/<command>/<case>/; every
# JSON written is validated against docs/schemas. One test per command folder (Golden.<command>),
# GoldenRunner.FailsAChangedOutputWithADiff and GoldenSchemas.RejectBrokenDocuments.
# NPU_DOCTOR_GOLDEN_UPDATE=1 (or scripts/update-goldens.sh) rewrites the expected files.
# Needs Python 3 with jsonschema (Debian's python3-jsonschema, scripts/install-deps.sh).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  file(GLOB NPU_DOCTOR_GOLDEN_CMDS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*/*/cmd)
  set(NPU_DOCTOR_GOLDEN_COMMANDS "")
  foreach(cmd ${NPU_DOCTOR_GOLDEN_CMDS})
    get_filename_component(case_dir ${cmd} DIRECTORY)
    get_filename_component(command_dir ${case_dir} DIRECTORY)
    get_filename_component(command ${command_dir} NAME)
    list(APPEND NPU_DOCTOR_GOLDEN_COMMANDS ${command})
  endforeach()
  list(REMOVE_DUPLICATES NPU_DOCTOR_GOLDEN_COMMANDS)
  # The renderer goldens (golden/render/) render saved node summaries with a knowledge base of
  # fixed words, not the shipped one: kb/cluster.yaml (the entries merge raises by id; only
  # raised ones show) and fixtures/kb/renderer.yaml (the entries the summaries name).
  set(NPU_DOCTOR_RENDERER_KB ${CMAKE_CURRENT_BINARY_DIR}/golden-renderer.snapshot)
  add_custom_command(OUTPUT ${NPU_DOCTOR_RENDERER_KB}
    COMMAND npu-doctor-kbc ${NPU_DOCTOR_RENDERER_KB} ${PROJECT_SOURCE_DIR}/kb/cluster.yaml
            ${CMAKE_CURRENT_LIST_DIR}/fixtures/kb/renderer.yaml
    DEPENDS npu-doctor-kbc ${PROJECT_SOURCE_DIR}/kb/cluster.yaml ${CMAKE_CURRENT_LIST_DIR}/fixtures/kb/renderer.yaml
    COMMENT "Compiling the renderer goldens' knowledge base"
    VERBATIM)
  add_custom_target(npu_doctor_golden_renderer_kb ALL DEPENDS ${NPU_DOCTOR_RENDERER_KB})
  # One golden test: the cases of tests/golden/<command> under `name`, with `extra_env`
  # ("VAR=value;...") on top of what every case gets. The cases share one cache of compiled
  # pattern databases (a fresh one costs ~0.25 s a case).
  function(npu_doctor_golden_test name command extra_env)
    add_test(NAME ${name}
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/run_golden.py $<TARGET_FILE:npu-doctor>
              ${PROJECT_SOURCE_DIR} ${PROJECT_VERSION} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/${command})
    set_tests_properties(${name} PROPERTIES TIMEOUT 120
      ENVIRONMENT "${extra_env}NPU_DOCTOR_GOLDEN_CACHE_DIR=${CMAKE_CURRENT_BINARY_DIR}/golden-cache;NPU_DOCTOR_GOLDEN_RENDERER_KB=${NPU_DOCTOR_RENDERER_KB}")
  endfunction()
  foreach(command ${NPU_DOCTOR_GOLDEN_COMMANDS})
    npu_doctor_golden_test(Golden.${command} ${command} "")
  endforeach()
  # The same cases with every input's record in the input store's temporary file
  # (NPU_DOCTOR_INPUT_MEMORY=0, src/core/record_spool.cpp): reports must not change when
  # inputs spill, as they do past ~7,000 inputs.
  foreach(command atc bundle cluster diagnose isolate merge render run watch)
    npu_doctor_golden_test(GoldenSpilled.${command} ${command} "NPU_DOCTOR_INPUT_MEMORY=0;")
  endforeach()
  add_test(NAME GoldenRunner.FailsAChangedOutputWithADiff
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/runner_selftest.py $<TARGET_FILE:npu-doctor>
            ${PROJECT_SOURCE_DIR} ${PROJECT_VERSION})
  set_tests_properties(GoldenRunner.FailsAChangedOutputWithADiff PROPERTIES TIMEOUT 60
    ENVIRONMENT "NPU_DOCTOR_GOLDEN_CACHE_DIR=${CMAKE_CURRENT_BINARY_DIR}/golden-cache")
  add_test(NAME GoldenSchemas.RejectBrokenDocuments
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/schema_selftest.py ${PROJECT_SOURCE_DIR})
  set_tests_properties(GoldenSchemas.RejectBrokenDocuments PROPERTIES TIMEOUT 60)
else()
  message(WARNING "No Python 3 interpreter: the golden tests (tests/golden) are not registered")
endif()
