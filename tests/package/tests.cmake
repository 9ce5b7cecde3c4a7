# Installation and packaging: --version, the site knowledge-base directory, the installed
# layout (cmake --install), the completions in bash and zsh, the .deb (cpack, dpkg -x).
target_sources(npu_doctor_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/version_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/site_kb_test.cpp)
target_compile_definitions(npu_doctor_tests PRIVATE NPU_DOCTOR_EXPECTED_SYSTEM_KB_DIR="${NPU_DOCTOR_SYSTEM_KB_DIR}")

add_test(NAME InstallLayout COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/install_test.sh ${PROJECT_BINARY_DIR} ${NPU_DOCTOR_SYSTEM_KB_DIR})
add_test(NAME InstallCompletionBash
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/completion_test.sh bash ${NPU_DOCTOR_GENERATED_DOCS}/completions)
add_test(NAME InstallCompletionZsh
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/completion_test.sh zsh ${NPU_DOCTOR_GENERATED_DOCS}/completions)
add_test(NAME PackageDeb COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/package_test.sh ${PROJECT_BINARY_DIR} ${PROJECT_VERSION})
set_tests_properties(InstallLayout InstallCompletionBash InstallCompletionZsh PackageDeb PROPERTIES
  TIMEOUT 600 SKIP_RETURN_CODE 77)
# cpack and cmake --install both read the build tree, and cpack rewrites the generated
# completions the completion tests source: none of them at the same time as another (the
# completion tests failed beside PackageDeb under ctest -j2 on a loaded machine).
set_tests_properties(InstallLayout InstallCompletionBash InstallCompletionZsh PackageDeb PROPERTIES
  RESOURCE_LOCK npu_doctor_install)

# Only where the build links libarchive and libstdc++ into the binary (NpuDoctorDeps.cmake).
if(NPU_DOCTOR_STATIC_LINKED_archive AND NPU_DOCTOR_STATIC_DEPS AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  add_test(NAME StartupLibraries COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/startup_libraries_test.sh $<TARGET_FILE:npu-doctor>)
endif()
