# Finds isa-l (Intel's storage acceleration library, Debian: libisal-dev) through its pkg-config
# file and defines ISAL::isal; amdahl inflates gzip input with its igzip (bench/gzip.sh).
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(PC_ISAL QUIET libisal)
endif()
find_path(ISAL_INCLUDE_DIR isa-l/igzip_lib.h HINTS ${PC_ISAL_INCLUDE_DIRS})
find_library(ISAL_LIBRARY NAMES isal HINTS ${PC_ISAL_LIBRARY_DIRS})
set(ISAL_VERSION ${PC_ISAL_VERSION})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(ISAL REQUIRED_VARS ISAL_LIBRARY ISAL_INCLUDE_DIR VERSION_VAR ISAL_VERSION)
if(ISAL_FOUND AND NOT TARGET ISAL::isal)
  add_library(ISAL::isal UNKNOWN IMPORTED)
  set_target_properties(ISAL::isal PROPERTIES IMPORTED_LOCATION "${ISAL_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${ISAL_INCLUDE_DIR}")
endif()
mark_as_advanced(ISAL_INCLUDE_DIR ISAL_LIBRARY)
