# Sanitizer and fuzzing instrumentation for the hardening builds (docs/hardening.md).
# Applies to every target defined after this file is included (library, tools, tests, fuzz).
if(NPU_DOCTOR_SANITIZE)
  add_compile_options(-fsanitize=${NPU_DOCTOR_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${NPU_DOCTOR_SANITIZE} -fno-sanitize-recover=all)
  message(STATUS "npu-doctor: sanitizers ${NPU_DOCTOR_SANITIZE}")
endif()
if(NPU_DOCTOR_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "NPU_DOCTOR_FUZZ needs clang (libFuzzer): -DCMAKE_CXX_COMPILER=clang++-14")
  endif()
  # Coverage feedback for libFuzzer in all code; only the harnesses link libFuzzer's main.
  # Ordinary executables (tests, npu-doctor) still link: the sanitizer runtime has default
  # (no-op) coverage callbacks.
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
