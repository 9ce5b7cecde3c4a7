# Every dependency is a Debian 12 package (see README "Set up"); nothing is downloaded.
find_package(PkgConfig REQUIRED)
pkg_check_modules(HS REQUIRED IMPORTED_TARGET libhs)            # vectorscan (or hyperscan)
pkg_check_modules(PCRE2 REQUIRED IMPORTED_TARGET libpcre2-8)    # captures on matched lines
pkg_check_modules(NETTLE REQUIRED IMPORTED_TARGET nettle)        # SHA-256 (bundle manifests); libarchive links it anyway
find_package(LibArchive REQUIRED)                               # gzip/zstd/xz/bzip2 + tar in place
find_package(yaml-cpp REQUIRED)                                 # knowledge-base files
find_package(nlohmann_json 3.10 REQUIRED)                       # JSON output contract
find_package(CLI11 REQUIRED)                                    # command line
find_package(fmt 9 REQUIRED)                                    # UI words' placeholders (data/ui.yaml)
find_package(Threads REQUIRED)
# liblinear (liblinear-dev) trains the word fallback's model at build time (npu-doctor-wordc);
# npu-doctor itself only scores the embedded model and never links it.
find_path(LIBLINEAR_INCLUDE_DIR linear.h PATH_SUFFIXES liblinear REQUIRED)
find_library(LIBLINEAR_LIBRARY NAMES linear REQUIRED)
add_library(npu_doctor::linear INTERFACE IMPORTED)
target_include_directories(npu_doctor::linear INTERFACE ${LIBLINEAR_INCLUDE_DIR})
target_link_libraries(npu_doctor::linear INTERFACE ${LIBLINEAR_LIBRARY})

# fmt header-only: Debian ships no static libfmt, and header-only keeps the binary from
# loading one more shared library at start-up (and the .deb from depending on it).
add_library(npu_doctor::fmt INTERFACE IMPORTED)
target_link_libraries(npu_doctor::fmt INTERFACE fmt::fmt-header-only)

if(NOT TARGET yaml-cpp::yaml-cpp)
  add_library(yaml-cpp::yaml-cpp INTERFACE IMPORTED)
  target_link_libraries(yaml-cpp::yaml-cpp INTERFACE yaml-cpp)
endif()

# Start-up time: `npu-doctor explain` must answer in well under 20 ms, and loading twenty
# shared libraries (libarchive alone drags in libxml2 and ICU, which we never use) costs
# more than the knowledge base does. So the libraries Debian also ships as static archives
# are linked into the binary; only the object files we call are taken (libarchive's XAR
# reader, the one user of libxml2, is not). Their own dependencies stay shared.
option(NPU_DOCTOR_STATIC_DEPS "Link Hyperscan, PCRE2, libarchive, yaml-cpp and libstdc++ statically when their .a files exist" ON)

# npu_doctor_link_static(<target> <fallback target> <archive name> [shared deps...])
# defines <target>: the static archive (plus its shared deps) or else the fallback.
function(npu_doctor_link_static target fallback archive)
  add_library(${target} INTERFACE IMPORTED GLOBAL)
  set(lib "")
  if(NPU_DOCTOR_STATIC_DEPS)
    find_library(NPU_DOCTOR_STATIC_${archive} NAMES lib${archive}.a)
    set(lib "${NPU_DOCTOR_STATIC_${archive}}")
  endif()
  set(deps "")
  foreach(dep IN LISTS ARGN)
    find_library(NPU_DOCTOR_DEP_${dep} NAMES ${dep} lib${dep}.so.1 lib${dep}.so.8 lib${dep}.so.5)
    if(NOT NPU_DOCTOR_DEP_${dep})
      set(lib "")  # a dependency is missing: use the shared library, which knows its own
    endif()
    list(APPEND deps "${NPU_DOCTOR_DEP_${dep}}")
  endforeach()
  if(lib)
    # Include directories still come from the package's own target.
    get_target_property(inc ${fallback} INTERFACE_INCLUDE_DIRECTORIES)
    if(inc)
      target_include_directories(${target} INTERFACE ${inc})
    endif()
    target_link_libraries(${target} INTERFACE "${lib}" ${deps})
    message(STATUS "npu-doctor: ${archive} linked statically (${lib})")
    set(NPU_DOCTOR_STATIC_LINKED_${archive} TRUE PARENT_SCOPE)
  else()
    target_link_libraries(${target} INTERFACE ${fallback})
  endif()
endfunction()

npu_doctor_link_static(npu_doctor::hs PkgConfig::HS hs m)
npu_doctor_link_static(npu_doctor::pcre2 PkgConfig::PCRE2 pcre2-8)
# xml2: only libarchive's writers need it (the tests write archives); --as-needed below keeps
# it out of the reader-only binary.
npu_doctor_link_static(npu_doctor::archive LibArchive::LibArchive archive nettle lzma zstd lz4 bz2 z xml2)
npu_doctor_link_static(npu_doctor::yaml yaml-cpp::yaml-cpp yaml-cpp)

# Executables take libstdc++ and libgcc in as well (two more libraries not to load).
add_library(npu_doctor_static_runtime INTERFACE)
if(NPU_DOCTOR_STATIC_DEPS AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_link_options(npu_doctor_static_runtime INTERFACE -static-libstdc++ -static-libgcc LINKER:--as-needed)
endif()
