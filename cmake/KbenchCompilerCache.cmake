# ccache shortens rebuilds of the CUDA code on 2-core machines; use it where it is installed.
# CCACHE_BASEDIR makes the paths it hashes relative to the source tree, so a fresh clone elsewhere (CI's)
# hits what a build of the same commit cached; under -g the debug prefix map keeps the build directory
# out of the hash too (ccache's hash_dir).
find_program(KBENCH_CCACHE ccache)
if(KBENCH_CCACHE)
  set(kbench_ccache_launcher ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${CMAKE_SOURCE_DIR} ${KBENCH_CCACHE})
  set(CMAKE_CXX_COMPILER_LAUNCHER ${kbench_ccache_launcher})
  set(CMAKE_CUDA_COMPILER_LAUNCHER ${kbench_ccache_launcher})
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fdebug-prefix-map=${CMAKE_SOURCE_DIR}=.>)
endif()
