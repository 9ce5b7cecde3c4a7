# `cpack` (or `cmake --build build --target package`): a Debian package of what
# `cmake --install` lays out, under /usr, binaries stripped, its Depends computed by
# dpkg-shlibdeps from the libraries the binaries link (dpkg-dev), for this machine's
# architecture. See docs/install.md.
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "npu-doctor")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "npu-doctor")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_CONTACT "npu-doctor maintainers <npu-doctor@localhost>" CACHE STRING "Maintainer of the .deb")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # npu-doctor_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION "utils")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "openmpi-bin")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "${PROJECT_DESCRIPTION}
 npu-doctor reads the logs of a failed Huawei Ascend NPU job (files, plog
 directories, archives) and names the root cause with its evidence and
 remedies; it also checks the driver/CANN/PyTorch environment, device memory,
 HCCL configuration, the network between nodes and whole clusters.")
find_program(NPU_DOCTOR_DPKG dpkg)
if(NPU_DOCTOR_DPKG)
  execute_process(COMMAND ${NPU_DOCTOR_DPKG} --print-architecture OUTPUT_VARIABLE NPU_DOCTOR_DEB_ARCH
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE "${NPU_DOCTOR_DEB_ARCH}")
endif()
include(CPack)
