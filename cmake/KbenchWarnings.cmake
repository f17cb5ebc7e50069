# One place for warning flags so every kbench target is built alike.
function(kbench_set_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall --expt-relaxed-constexpr>)
  # GCC before 13 warns of every member a C++20 designated initializer leaves to its default (GCC bug
  # 96868); option bundles (cuda's KernelChoice) are built that way on purpose.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wno-missing-field-initializers>)
  endif()
endfunction()

if(KBENCH_ENABLE_SANITIZERS)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
