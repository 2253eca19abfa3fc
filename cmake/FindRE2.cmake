# Finds RE2 (Debian: libre2-dev, which ships no CMake package) and defines re2::re2, preferring
# the static library so the amdahl binary needs no libre2.so at run time.
find_path(RE2_INCLUDE_DIR re2/re2.h)
find_library(RE2_LIBRARY NAMES libre2.a re2)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(RE2 REQUIRED_VARS RE2_LIBRARY RE2_INCLUDE_DIR)
if(RE2_FOUND AND NOT TARGET re2::re2)
  find_package(Threads REQUIRED)
  add_library(re2::re2 UNKNOWN IMPORTED)
  set_target_properties(re2::re2 PROPERTIES IMPORTED_LOCATION "${RE2_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${RE2_INCLUDE_DIR}"
                        INTERFACE_LINK_LIBRARIES Threads::Threads)
endif()
mark_as_advanced(RE2_INCLUDE_DIR RE2_LIBRARY)
