# embed_files(<target-var> <name> FILES...): generates a C++ source defining
#   std::span<const npu_doctor::EmbeddedFile> npu_doctor::<name>()
# with the bytes of every file, so data (the knowledge base) ships inside the binary.
function(embed_files out_var name)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${name}.cpp)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DNAME=${name} "-DFILES=${ARGN}"
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_files_script.cmake
    DEPENDS ${ARGN} ${PROJECT_SOURCE_DIR}/cmake/embed_files_script.cmake
    COMMENT "Embedding ${name}"
    VERBATIM)
  set(${out_var} ${out} PARENT_SCOPE)
endfunction()
