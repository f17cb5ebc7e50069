#include "torch/interpreter.hpp"

#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "torch/child_process.hpp"

namespace kbench::torch {

namespace {

constexpr std::string_view kProbe = R"PY(
import json, sys, sysconfig
info = {
    "executable": sys.executable,
    "version": sys.version.split()[0],
    "major": sys.version_info[0],
    "minor": sys.version_info[1],
    "libdir": sysconfig.get_config_var("LIBDIR") or "",
    "ldlibrary": sysconfig.get_config_var("LDLIBRARY") or "",
    "instsoname": sysconfig.get_config_var("INSTSONAME") or "",
    "shared": bool(sysconfig.get_config_var("Py_ENABLE_SHARED")),
    "base_prefix": sys.base_prefix,
    "base_exec_prefix": sys.base_exec_prefix,
    "path": [p for p in sys.path if p],
    "torch": None,
}
try:
    import importlib.util, importlib.metadata
    if importlib.util.find_spec("torch") is not None:
        try:
            info["torch"] = importlib.metadata.version("torch")
        except Exception:
            info["torch"] = "unknown"
except Exception:
    pass
print(json.dumps(info))
)PY";

std::string how_to_choose() { return "point kbench at a Python with torch with --python PATH or KBENCH_PYTHON=PATH"; }

}  // namespace

std::string python_environment_note() {
  std::string note;
  for (const char* name : {"PYTHONHOME", "PYTHONPATH"})
    if (const char* value = std::getenv(name); value && *value) note += fmt::format("; {} is {}", name, value);
  return note;
}

InterpreterChoice choose_interpreter(const std::string& python_flag, const char* kbench_python_env) {
  if (!python_flag.empty()) return {python_flag, "--python"};
  if (kbench_python_env && *kbench_python_env) return {kbench_python_env, "KBENCH_PYTHON"};
  return {"python3", "PATH"};
}

std::string_view interpreter_probe_source() { return kProbe; }

InterpreterInfo parse_interpreter_report(std::string_view json_text) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("the interpreter's report is not JSON ({})", e.what()));
  }
  if (!doc.is_object()) throw std::runtime_error("the interpreter's report is not a JSON object");
  InterpreterInfo info;
  const auto text = [&](const char* key, std::string& into) {
    if (!doc.contains(key) || !doc[key].is_string())
      throw std::runtime_error(fmt::format("the interpreter's report lacks the string '{}'", key));
    into = doc[key].get<std::string>();
  };
  const auto number = [&](const char* key, int& into) {
    if (!doc.contains(key) || !doc[key].is_number_integer())
      throw std::runtime_error(fmt::format("the interpreter's report lacks the integer '{}'", key));
    into = doc[key].get<int>();
  };
  text("executable", info.executable);
  text("version", info.version);
  number("major", info.major);
  number("minor", info.minor);
  text("libdir", info.libdir);
  text("ldlibrary", info.ldlibrary);
  text("instsoname", info.instsoname);
  text("base_prefix", info.base_prefix);
  text("base_exec_prefix", info.base_exec_prefix);
  if (!doc.contains("shared") || !doc["shared"].is_boolean())
    throw std::runtime_error("the interpreter's report lacks the boolean 'shared'");
  info.shared = doc["shared"].get<bool>();
  if (!doc.contains("path") || !doc["path"].is_array())
    throw std::runtime_error("the interpreter's report lacks the list 'path'");
  for (const auto& entry : doc["path"])
    if (entry.is_string()) info.path.push_back(entry.get<std::string>());
  if (doc.contains("torch") && doc["torch"].is_string()) info.torch_version = doc["torch"].get<std::string>();
  return info;
}

std::vector<std::string> libpython_candidates(const InterpreterInfo& info) {
  std::vector<std::string> out;
  const auto add = [&](std::string path) {
    if (path.empty() || path.ends_with(".a")) return;  // a static archive cannot be dlopen'ed
    for (const auto& seen : out)
      if (seen == path) return;
    out.push_back(std::move(path));
  };
  // A file name ending in '/' is no file: LDLIBRARY or INSTSONAME empty.
  if (!info.libdir.empty()) {
    if (!info.ldlibrary.empty()) add(info.libdir + "/" + info.ldlibrary);
    if (!info.instsoname.empty()) add(info.libdir + "/" + info.instsoname);
  }
  add(info.instsoname);
  add(info.ldlibrary);
  return out;
}

bool torch_has_compile(std::string_view version) {
  int major = 0;
  std::size_t i = 0;
  if (version.empty() || version[0] < '0' || version[0] > '9') return false;
  while (i < version.size() && version[i] >= '0' && version[i] <= '9') major = major * 10 + (version[i++] - '0');
  return major >= 2;
}

Support probe_interpreter(const InterpreterChoice& choice, InterpreterInfo& info) {
  const ChildLimits limits;
  // No -I: the probe must see the sys.path (PYTHONPATH, user site-packages) the embedded interpreter will.
  const ChildOutcome probe = run_program({choice.program, "-c", std::string(kProbe)}, limits);
  const std::string who = fmt::format("Python '{}' (from {})", choice.program, choice.source);
  if (!probe.started)
    return Support::no(fmt::format("{} cannot be run: {}; {}", who, probe.start_error, how_to_choose()));
  if (probe.exit_code != 0 || probe.timed_out || probe.stdout_overflow)
    return Support::no(fmt::format("{} failed ({}): {}{}; {}", who, describe_outcome(probe, limits),
                                   python_failure_summary(probe.err), python_environment_note(), how_to_choose()));
  const std::string& output = probe.out;
  try {
    info = parse_interpreter_report(output);
  } catch (const std::exception& e) {
    return Support::no(fmt::format("{}: {}; {}", who, e.what(), how_to_choose()));
  }
  if (info.major < 3 || (info.major == 3 && info.minor < 8))
    return Support::no(fmt::format("{} is Python {}; the torch backend needs 3.8 or later", who, info.version));
  if (!info.torch_version)
    return Support::no(
        fmt::format("{} ({}, Python {}) has no torch installed (pip install torch, or Debian's "
                    "python3-torch); {}",
                    who, info.executable, info.version, how_to_choose()));
  if (!info.shared && libpython_candidates(info).empty())
    return Support::no(
        fmt::format("{} ({}) was built without a shared libpython (Py_ENABLE_SHARED=0), which "
                    "kbench embeds; install its shared library (Debian: libpython{}.{}) or {}",
                    who, info.executable, info.major, info.minor, how_to_choose()));
  return Support::yes();
}

}  // namespace kbench::torch
