# npu-doctor cluster and merge (docs/cluster-run.md): node summaries, their merge, and how
# they travel. The plain binary is a single node (and execs npu-doctor-mpi under mpirun);
# npu-doctor-mpi, built when Open MPI is installed, gathers the summaries over MPI.
target_sources(npu_doctor_fleet PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/node_summary_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/node_merge.cpp
  ${CMAKE_CURRENT_LIST_DIR}/node_scan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/node_environment.cpp)
target_include_directories(npu-doctor PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_sources(npu-doctor PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/local_transport.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cmd_cluster.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cmd_merge.cpp)

set(NPU_DOCTOR_MPI "AUTO" CACHE STRING "Build npu-doctor-mpi: AUTO (when Open MPI is found), ON, OFF")
if(NOT NPU_DOCTOR_MPI STREQUAL "OFF")
  if(NPU_DOCTOR_MPI STREQUAL "ON")
    find_package(MPI REQUIRED COMPONENTS C)
  else()
    find_package(MPI QUIET COMPONENTS C)
  endif()
  if(MPI_C_FOUND)
    add_executable(npu-doctor-mpi
      ${PROJECT_SOURCE_DIR}/src/cli/mpi_main.cpp
      ${PROJECT_SOURCE_DIR}/src/cli/common.cpp
      ${PROJECT_SOURCE_DIR}/src/cli/duration_option.cpp
      ${PROJECT_SOURCE_DIR}/src/cli/expected_option.cpp
      ${PROJECT_SOURCE_DIR}/src/cli/diagnosis_output.cpp
      ${PROJECT_SOURCE_DIR}/src/incident_page/html_attachment_loader.cpp
      ${CMAKE_CURRENT_LIST_DIR}/cmd_cluster.cpp
      ${CMAKE_CURRENT_LIST_DIR}/mpi_transport.cpp)
    target_include_directories(npu-doctor-mpi PRIVATE ${PROJECT_SOURCE_DIR}/src)
    # The C API only: without these, mpi.h pulls in the deprecated C++ bindings.
    target_compile_definitions(npu-doctor-mpi PRIVATE OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)
    target_link_libraries(npu-doctor-mpi PRIVATE npu_doctor_core npu_doctor_warnings npu_doctor_static_runtime CLI11::CLI11 MPI::MPI_C)
    install(TARGETS npu-doctor-mpi RUNTIME DESTINATION bin)
    message(STATUS "npu-doctor-mpi: built with MPI ${MPI_C_VERSION}")
  else()
    message(STATUS "npu-doctor-mpi: not built (no MPI found; apt-get install libopenmpi-dev)")
  endif()
endif()
