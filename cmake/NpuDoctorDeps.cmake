# Every dependency is a Debian 12 package (see README "Set up"); nothing is downloaded.
find_package(PkgConfig REQUIRED)
pkg_check_modules(HS REQUIRED IMPORTED_TARGET libhs)            # vectorscan (or hyperscan)
pkg_check_modules(PCRE2 REQUIRED IMPORTED_TARGET libpcre2-8)    # captures on matched lines
find_package(LibArchive REQUIRED)                               # gzip/zstd/xz/bzip2 + tar in place
find_package(yaml-cpp REQUIRED)                                 # knowledge-base files
find_package(nlohmann_json 3.10 REQUIRED)                       # JSON output contract
find_package(CLI11 REQUIRED)                                    # command line
find_package(Threads REQUIRED)

if(NOT TARGET yaml-cpp::yaml-cpp)
  add_library(yaml-cpp::yaml-cpp INTERFACE IMPORTED)
  target_link_libraries(yaml-cpp::yaml-cpp INTERFACE yaml-cpp)
endif()
