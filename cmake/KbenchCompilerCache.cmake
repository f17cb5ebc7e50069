# ccache shortens rebuilds of the CUDA code on 2-core machines; use it where it is installed.
find_program(KBENCH_CCACHE ccache)
if(KBENCH_CCACHE)
  set(CMAKE_CXX_COMPILER_LAUNCHER ${KBENCH_CCACHE})
  set(CMAKE_CUDA_COMPILER_LAUNCHER ${KBENCH_CCACHE})
endif()
