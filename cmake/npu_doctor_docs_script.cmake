# Run by the build (cmake -P, see NpuDoctorInstall.cmake): writes OUT/completions/ from
# `npu-doctor completion bash|zsh` and OUT/man/ with one page per command listed by
# `npu-doctor completion --commands`, each made by help2man from that command's --help.
# Inputs: NPU_DOCTOR (the binary), HELP2MAN (may be empty), VERSION, OUT.
# The pages and completions are English whatever the builder's locale: npu-doctor's help follows
# LC_ALL, LC_MESSAGES and LANG (docs/ui-words.md).
set(ENV{LC_ALL} C)
file(REMOVE_RECURSE ${OUT}/man ${OUT}/completions ${OUT}/wrappers)
file(MAKE_DIRECTORY ${OUT}/man ${OUT}/completions ${OUT}/wrappers)

foreach(shell bash zsh)
  execute_process(COMMAND ${NPU_DOCTOR} completion ${shell} OUTPUT_VARIABLE script RESULT_VARIABLE rc TIMEOUT 60)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "npu-doctor completion ${shell} failed: ${rc}")
  endif()
  if(shell STREQUAL "bash")
    file(WRITE ${OUT}/completions/npu-doctor "${script}")
  else()
    file(WRITE ${OUT}/completions/_npu-doctor "${script}")
  endif()
endforeach()

if(HELP2MAN)
  execute_process(COMMAND ${NPU_DOCTOR} completion --commands OUTPUT_VARIABLE listing RESULT_VARIABLE rc TIMEOUT 60)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "npu-doctor completion --commands failed: ${rc}")
  endif()
  string(REPLACE ";" "," listing "${listing}")
  string(REPLACE "\n" ";" lines "${listing}")
  foreach(line IN LISTS lines)
    if(line STREQUAL "")
      continue()
    endif()
    string(FIND "${line}" "\t" tab)
    string(SUBSTRING "${line}" 0 ${tab} path)
    math(EXPR from "${tab} + 1")
    string(SUBSTRING "${line}" ${from} -1 description)
    if(path STREQUAL "")
      set(name npu-doctor)
    else()
      string(REPLACE " " "-" name "npu-doctor-${path}")
    endif()
    # help2man names the page after the program it runs: a wrapper per command.
    file(WRITE ${OUT}/wrappers/${name} "#!/bin/sh\nexec '${NPU_DOCTOR}' ${path} \"$@\"\n")
    file(CHMOD ${OUT}/wrappers/${name} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
         WORLD_READ WORLD_EXECUTE)
    execute_process(
      COMMAND ${HELP2MAN} --no-info --no-discard-stderr --version-string=${VERSION} --name=${description}
              --section=1 --source=npu-doctor --output=${OUT}/man/${name}.1 ${OUT}/wrappers/${name}
      RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 60)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "help2man for '${name}' failed: ${err}")
    endif()
  endforeach()
endif()
file(TOUCH ${OUT}/stamp)
