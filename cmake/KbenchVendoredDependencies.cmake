# The same targets find_package would give, made from a directory laid out by scripts/vendor-deps.sh:
# KBENCH_DEPS_DIR/include (CLI11, fmt, nlohmann, doctest, yaml-cpp headers), lib/libyaml-cpp.a, and
# cmake/doctest.cmake (for doctest_discover_tests). fmt is used header-only.
set(_deps_include ${KBENCH_DEPS_DIR}/include)
foreach(header CLI/CLI.hpp fmt/format.h nlohmann/json.hpp doctest/doctest.h yaml-cpp/yaml.h)
  if(NOT EXISTS ${_deps_include}/${header})
    message(FATAL_ERROR "KBENCH_DEPS_DIR=${KBENCH_DEPS_DIR}: ${header} is missing; run scripts/vendor-deps.sh")
  endif()
endforeach()

add_library(CLI11::CLI11 INTERFACE IMPORTED)
set_target_properties(CLI11::CLI11 PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${_deps_include})
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${_deps_include})
add_library(doctest::doctest INTERFACE IMPORTED)
set_target_properties(doctest::doctest PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${_deps_include})
foreach(fmt_target fmt::fmt fmt::fmt-header-only)
  add_library(${fmt_target} INTERFACE IMPORTED)
  set_target_properties(${fmt_target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${_deps_include}
                                                 INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY=1)
endforeach()
add_library(yaml-cpp STATIC IMPORTED)
set_target_properties(yaml-cpp PROPERTIES IMPORTED_LOCATION ${KBENCH_DEPS_DIR}/lib/libyaml-cpp.a
                                          INTERFACE_INCLUDE_DIRECTORIES ${_deps_include})
set(KBENCH_YAML_STATIC ${KBENCH_DEPS_DIR}/lib/libyaml-cpp.a CACHE FILEPATH "" FORCE)
list(APPEND CMAKE_MODULE_PATH ${KBENCH_DEPS_DIR}/cmake)
