#include "torch/interpreter.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

extern char** environ;

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

// Runs program -c source without a shell; stdout captured, stderr too (for the message). Returns
// the exit status, or -1 with `output` saying why it could not start.
int run_capture(const std::string& program, std::string_view source, std::string& output, std::string& errors) {
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    errors = std::strerror(errno);
    return -1;
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    errors = std::strerror(errno);
    close(out_pipe[0]);
    close(out_pipe[1]);
    return -1;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  const std::string code(source);
  // No -I: the probe must see the sys.path (PYTHONPATH, user site-packages) the embedded interpreter will.
  std::vector<char*> argv{const_cast<char*>(program.c_str()), const_cast<char*>("-c"), const_cast<char*>(code.c_str()),
                          nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (spawned != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    errors = std::strerror(spawned);
    return -1;
  }
  // The probe prints a few kB at most; stderr is read after stdout closes (a Python warning is short).
  char buffer[4096];
  for (const auto& [fd, sink] : {std::pair{out_pipe[0], &output}, std::pair{err_pipe[0], &errors}}) {
    for (;;) {
      const ssize_t n = read(fd, buffer, sizeof buffer);
      if (n > 0) {
        sink->append(buffer, static_cast<std::size_t>(n));
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else {
        break;
      }
    }
    close(fd);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

std::string last_line(const std::string& text) {
  std::string trimmed = text;
  while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == ' ')) trimmed.pop_back();
  const std::size_t newline = trimmed.rfind('\n');
  return newline == std::string::npos ? trimmed : trimmed.substr(newline + 1);
}

}  // namespace

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
  std::string output, errors;
  const int status = run_capture(choice.program, kProbe, output, errors);
  const std::string who = fmt::format("Python '{}' (from {})", choice.program, choice.source);
  if (status < 0) return Support::no(fmt::format("{} cannot be run: {}; {}", who, errors, how_to_choose()));
  if (status != 0)
    return Support::no(fmt::format("{} failed (exit {}): {}; {}", who, status, last_line(errors), how_to_choose()));
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
