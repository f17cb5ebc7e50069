// kbench: benchmarks convolution kernels (ours, cuDNN, a CPU reference) against the roofline floor.
#include <iostream>
#include <variant>

#include "frontend.hpp"
#include "interrupt.hpp"

int main(int argc, char** argv) {
  kbench::cli::install_interrupt_handlers();  // first: a signal at any later moment is exit 130
  const auto frontend = kbench::cli::make_frontend();
  const auto parsed = kbench::cli::parse_command_line(*frontend, argc, argv, std::cout, std::cerr);
  if (const int* code = std::get_if<int>(&parsed)) return *code;
  return kbench::cli::run_command(*std::get<const kbench::cli::Command*>(parsed), std::cerr);
}
