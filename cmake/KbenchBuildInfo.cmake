# Build facts every result document carries (`build` in the JSON, a line in the reports): the git
# commit the binaries were built from (with "-dirty" for uncommitted changes), build type, compiler,
# CUDA toolkit and architectures, and whether the build is portable. The commit is read at build
# time, not configure time, by cmake/build_info_generate.cmake, which rewrites the generated source
# only when its text changes: a new commit recompiles one file.
set(KBENCH_BUILD_INFO_CPP ${CMAKE_BINARY_DIR}/generated/build_info.cpp)

set(_kbench_build_facts "${CMAKE_BUILD_TYPE}")
if(NOT _kbench_build_facts)
  set(_kbench_build_facts "no build type")
endif()
string(APPEND _kbench_build_facts " · ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
if(KBENCH_HAVE_CUDA)
  string(APPEND _kbench_build_facts " · CUDA ${CMAKE_CUDA_COMPILER_VERSION} sm_${CMAKE_CUDA_ARCHITECTURES}")
  if(NOT KBENCH_HAVE_CUDNN)
    string(APPEND _kbench_build_facts " without cuDNN")
  endif()
else()
  string(APPEND _kbench_build_facts " · no CUDA")
endif()
if(KBENCH_PORTABLE)
  string(APPEND _kbench_build_facts " · portable")
endif()
if(KBENCH_ENABLE_SANITIZERS)
  string(APPEND _kbench_build_facts " · sanitizers")
endif()

find_package(Git QUIET)
add_custom_target(kbench_build_info
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${KBENCH_BUILD_INFO_CPP}
          "-DFACTS=${_kbench_build_facts}" -DGIT=${GIT_EXECUTABLE}
          -P ${PROJECT_SOURCE_DIR}/cmake/build_info_generate.cmake
  BYPRODUCTS ${KBENCH_BUILD_INFO_CPP}
  COMMENT "kbench build info"
  VERBATIM)
