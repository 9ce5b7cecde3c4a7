# `npu-doctor --version` (src/build_info/build_info.hpp: the knowledge base, pattern
# engine, compression formats and MPI of this build) and `npu-doctor completion`, which the
# install generates the shell completions and man pages with (cmake/NpuDoctorInstall.cmake).
target_sources(npu_doctor_build_info PRIVATE ${CMAKE_CURRENT_LIST_DIR}/build_info.cpp)
target_sources(npu-doctor PRIVATE ${PROJECT_SOURCE_DIR}/src/cli/cmd_completion.cpp)
