# One place for compiler warnings. CI builds with NPU_DOCTOR_WERROR=ON.
add_library(npu_doctor_warnings INTERFACE)
target_compile_options(npu_doctor_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
  -Wcast-align -Wunused -Woverloaded-virtual -Wconversion -Wsign-conversion
  -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
if(NPU_DOCTOR_WERROR)
  target_compile_options(npu_doctor_warnings INTERFACE -Werror)
endif()
# GCC 12 at -O3 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(npu_doctor_warnings INTERFACE -Wno-restrict)
endif()
