#pragma once
// `kbench import kernelbench`: KernelBench problem files read by Python itself, in a child process
// (kernelbench_reader.py, embedded in the binary). Each file's Model is built from get_init_inputs() and
// its forward applied to get_inputs(), with torch.nn.functional's convolutions replaced by a recorder;
// either in torch, every tensor on the meta device (shapes only: nothing is allocated or computed), or,
// without torch, against kbench's stand-in for torch (kernelbench_stub_torch.py), which models the
// convolution layers and tensor factories and refuses anything else by name. What the recorder saw becomes
// the workloads (import/traced_import.hpp).
//
// A file is code: it runs in the child, each for at most a timeout (SIGALRM, then kbench kills the
// child), the stub's run with its address space bounded; a file that raises, exits or hangs is an
// ImportError naming it (and the line, where Python has one), never a crash or hang of kbench.
#include <string>
#include <vector>

#include "import/import_error.hpp"
#include "torch/interpreter.hpp"

namespace kbench::torch {

enum class KernelBenchReader {
  automatic,  // torch where the Python imports it, else the stub
  torch,
  stub,
};

struct KernelBenchReadOptions {
  KernelBenchReader reader = KernelBenchReader::automatic;
  InterpreterChoice python{"python3", "PATH"};
  int timeout_seconds = 60;  // the longest one file may run
  int start_seconds = 120;   // for Python to start and import torch: kbench kills the child at this plus
                             // timeout_seconds + 5 per file, should a file ignore or outlast the alarm
};

struct KernelBenchFile {
  std::string path;
  std::string name;  // the workload's name (an attribute is appended when the model makes several calls)
};

struct KernelBenchReading {
  // Non-empty when no file could be read at all: no Python 3 to run, --reader torch without torch. Says
  // what to install or point kbench at.
  std::string unavailable;
  std::string runner;    // "torch 2.5.1", "kbench's torch stub"
  std::string python;    // "3.11.2 (/usr/bin/python3)"
  std::string no_torch;  // automatic without torch: why not
  // One per file, in order; fewer when Python stopped (exited, crashed, was killed) while it ran a file:
  // that file's outcome, an error saying so, is the last.
  std::vector<import::ImportOutcome> outcomes;
};

KernelBenchReading read_kernelbench_files(const std::vector<KernelBenchFile>& files,
                                          const KernelBenchReadOptions& options);

}  // namespace kbench::torch
