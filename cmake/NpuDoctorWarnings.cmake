# One place for compiler warnings. CI builds with NPU_DOCTOR_WERROR=ON.
add_library(npu_doctor_warnings INTERFACE)
target_compile_options(npu_doctor_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
  -Wcast-align -Wunused -Woverloaded-virtual -Wconversion -Wsign-conversion
  -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
if(NPU_DOCTOR_WERROR)
  target_compile_options(npu_doctor_warnings INTERFACE -Werror)
endif()
