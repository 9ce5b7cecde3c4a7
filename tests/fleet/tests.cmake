target_sources(npu_doctor_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/node_summary_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cluster_cli_test.cpp)

# The real thing: four MPI ranks on this machine, each with its own node's logs.
find_program(NPU_DOCTOR_MPIRUN mpirun)
if(TARGET npu-doctor-mpi AND NPU_DOCTOR_MPIRUN)
  add_test(NAME MpiCluster.FourRanksNameTheCulpritAndSurviveAHungNode
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/mpi_cluster_test.sh $<TARGET_FILE:npu-doctor> ${NPU_DOCTOR_MPIRUN}
            ${PROJECT_SOURCE_DIR}/tests/cluster/gen_cluster.py)
  set_tests_properties(MpiCluster.FourRanksNameTheCulpritAndSurviveAHungNode PROPERTIES TIMEOUT 300)
  add_dependencies(npu_doctor_tests npu-doctor-mpi)
endif()
