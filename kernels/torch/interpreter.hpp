#pragma once
// Which Python the torch backend embeds, and what that Python says about itself. The interpreter
// is chosen at run time (--python PATH, else $KBENCH_PYTHON, else python3 on PATH) and asked, in a
// subprocess, where its shared libpython is, where its home and sys.path are and which torch it
// has, without importing torch: this is cheap, and fails gently (no Python, a static-only build).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/support.hpp"

namespace kbench::torch {

// The interpreter to ask, and where that choice came from (for messages).
struct InterpreterChoice {
  std::string program;  // a path, or a bare name looked up on PATH
  std::string source;   // "--python", "KBENCH_PYTHON" or "PATH"
};

// --python when given, else $KBENCH_PYTHON when set and not empty, else python3 on PATH.
InterpreterChoice choose_interpreter(const std::string& python_flag, const char* kbench_python_env);

struct InterpreterInfo {
  std::string executable;  // sys.executable
  int major = 0, minor = 0;
  std::string version;                        // sys.version's first word, e.g. "3.11.2"
  std::string libdir, ldlibrary;              // sysconfig LIBDIR and LDLIBRARY ("libpython3.11.so")
  std::string instsoname;                     // sysconfig INSTSONAME ("libpython3.11.so.1.0"), may be empty
  bool shared = false;                        // Py_ENABLE_SHARED: a libpython.so exists for this build
  std::string base_prefix, base_exec_prefix;  // the home of the standard library
  std::vector<std::string> path;              // sys.path as that interpreter starts (site-packages, venvs)
  std::optional<std::string> torch_version;   // installed torch's version (metadata), nullopt without torch
};

// The probe program run by the interpreter: prints one JSON object (parse_interpreter_report reads it).
std::string_view interpreter_probe_source();

// Parses the probe's output; throws std::runtime_error naming what is missing or malformed.
InterpreterInfo parse_interpreter_report(std::string_view json_text);

// Paths to try, in order, for the shared libpython: LIBDIR/LDLIBRARY, LIBDIR/INSTSONAME, then the
// sonames alone for the dynamic loader's search; each once.
std::vector<std::string> libpython_candidates(const InterpreterInfo& info);

// Whether an installed torch version ("1.13.1", "2.5.1+cu124", "2.6.0a0+git...") has torch.compile (2.0 on).
bool torch_has_compile(std::string_view torch_version);

// "; PYTHONHOME is /x; PYTHONPATH is /y" for those set: what a Python that fails to start most
// often fails by, for messages. Empty when neither is set.
std::string python_environment_note();

// Runs `choice.program` with the probe (read with a bound and a timeout, child_process.hpp); yes with `info` filled, or no with what failed and how to
// point kbench at another interpreter.
Support probe_interpreter(const InterpreterChoice& choice, InterpreterInfo& info);

}  // namespace kbench::torch
