# The layering the build enforces (cmake/NpuDoctorFeatures.cmake, ARCHITECTURE.md "Which
# folder may include which"): each feature compiles with an include root that holds only
# the folders it may use. Checked here with the compiler on one-line files and the real
# include roots of this build: what a feature may use compiles, what it may not is "No such
# file" (GCC) or "file not found" (Clang): the message, not just a failure, so a broken
# command line cannot pass.
set(NPU_DOCTOR_LAYER_FLAGS -std=c++20 -fsyntax-only -I${PROJECT_SOURCE_DIR}/include -I${PROJECT_BINARY_DIR}/generated
    -I${PROJECT_SOURCE_DIR}/src/core)
function(npu_doctor_layering_test name layer source)
  add_test(NAME Layering.${name}
           COMMAND ${CMAKE_CXX_COMPILER} ${NPU_DOCTOR_LAYER_FLAGS} -I${PROJECT_BINARY_DIR}/layers/${layer}
                   ${CMAKE_CURRENT_LIST_DIR}/${source})
  set_tests_properties(Layering.${name} PROPERTIES ${ARGN})
endfunction()
# Allowed: diagnosis uses memory directly and render through it.
npu_doctor_layering_test(AFeatureCompilesWithWhatItMayUse diagnosis diagnosis_uses_memory.cpp
                         LABELS layering)
# Forbidden: memory sits below the diagnosis; core below every feature.
npu_doctor_layering_test(MemoryMayNotIncludeTheDiagnosis memory memory_uses_diagnosis.cpp
                         PASS_REGULAR_EXPRESSION "diagnosis/diagnosis\\.hpp.*(No such file|file not found)")
npu_doctor_layering_test(TheEngineMayNotIncludeAFeature core core_uses_render.cpp
                         PASS_REGULAR_EXPRESSION "render/json_stream\\.hpp.*(No such file|file not found)")
npu_doctor_layering_test(ASiblingFeatureIsNotVisible checks checks_uses_hccl.cpp
                         PASS_REGULAR_EXPRESSION "hccl/ranktable\\.hpp.*(No such file|file not found)")
# The unity build (scripts/test.sh) compiles eight files as one unit, so a file that forgets an
# include builds there and breaks a plain build; scripts/test.sh therefore runs
# scripts/check-includes.py after the build. Its own test: a two-file unity build where the
# second file leans on the first's <vector> must be caught, naming that file.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME Layering.CheckIncludesCatchesAFileThatLeansOnItsUnityNeighbour
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/unity-neighbour/check_includes_test.py
                 ${CMAKE_CXX_COMPILER})
set_tests_properties(Layering.CheckIncludesCatchesAFileThatLeansOnItsUnityNeighbour
                     PROPERTIES LABELS layering)
