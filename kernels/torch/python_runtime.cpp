#include "torch/python_runtime.hpp"

#include <dlfcn.h>

#include <memory>
#include <mutex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "torch/child_process.hpp"

namespace kbench::torch {

namespace {

// The one runtime of the process: created by start(), never destroyed (the interpreter stays up
// until exit, and objects released late, at static destruction, must still find the table).
PythonRuntime* g_runtime = nullptr;
std::mutex g_start_mutex;

// A Python string literal holding `text` exactly: JSON's string syntax is a subset of Python's.
std::string python_literal(const std::string& text) { return nlohmann::json(text).dump(); }

}  // namespace

const PythonRuntime* running_python() { return g_runtime; }

void PyRef::reset() {
  if (p_ && g_runtime) g_runtime->api().Py_DecRef(p_);
  p_ = nullptr;
}

PythonRuntime& PythonRuntime::start(const InterpreterInfo& interpreter) {
  const std::lock_guard lock(g_start_mutex);
  if (g_runtime) {
    if (g_runtime->interpreter_.executable != interpreter.executable)
      throw PythonError(fmt::format("Python {} is already embedded in this process; it cannot also embed {}",
                                    g_runtime->interpreter_.executable, interpreter.executable));
    return *g_runtime;
  }
  start_in_a_child(interpreter);
  auto runtime = std::unique_ptr<PythonRuntime>(new PythonRuntime(interpreter));
  runtime->load_library();
  runtime->initialize();
  g_runtime = runtime.release();
  return *g_runtime;
}

// Starting CPython is irreversible and may end the process: a runtime whose standard library is not
// where its home says (PYTHONHOME elsewhere, a moved install) aborts in Py_InitializeEx with "Fatal
// Python error", taking every other backend's results with it. So a throwaway child starts it
// first, exactly as this process will; only when the child's start succeeds does this process start.
void PythonRuntime::start_in_a_child(const InterpreterInfo& interpreter) {
  const ChildLimits limits;
  const ChildOutcome trial = run_forked(
      [&] {
        auto* runtime = new PythonRuntime(interpreter);  // never freed: the child ends with _exit
        runtime->load_library();
        runtime->initialize();
        return 0;
      },
      limits);
  if (trial.started && !trial.timed_out && trial.signal == 0 && trial.exit_code == 0) return;
  throw PythonError(fmt::format("Python {} ({}) cannot start embedded in kbench: {} ({}){}", interpreter.version,
                                interpreter.executable, python_failure_summary(trial.err),
                                describe_outcome(trial, limits), python_environment_note()));
}

PythonRuntime::PythonRuntime(InterpreterInfo interpreter) : interpreter_(std::move(interpreter)) {}

void PythonRuntime::load_library() {
  std::string tried;
  for (const std::string& candidate : libpython_candidates(interpreter_)) {
    // RTLD_GLOBAL: extension modules (torch._C, numpy) are not linked against libpython and find
    // CPython's symbols in the global scope, as they do in the python executable.
    library_ = dlopen(candidate.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (library_) {
      library_path_ = candidate;
      break;
    }
    const char* why = dlerror();
    tried += fmt::format("{}{} ({})", tried.empty() ? "" : "; ", candidate, why ? why : "unknown error");
  }
  if (!library_)
    throw PythonError(
        fmt::format("cannot load the shared libpython of {} (Python {}): {}; install it (Debian: "
                    "libpython{}.{}) or choose another Python with --python or KBENCH_PYTHON",
                    interpreter_.executable, interpreter_.version, tried.empty() ? "it names no shared library" : tried,
                    interpreter_.major, interpreter_.minor));

  std::string missing;
  const auto bind = [&](auto& slot, const char* name, bool required) {
    void* symbol = dlsym(library_, name);
    if (!symbol && required) missing += (missing.empty() ? "" : ", ") + std::string(name);
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(symbol);
  };
#define KBENCH_BIND(name) bind(api_.name, #name, true)
  bind(api_.Py_SetPythonHome, "Py_SetPythonHome", false);
  bind(api_.Py_SetProgramName, "Py_SetProgramName", false);
  KBENCH_BIND(Py_DecodeLocale);
  KBENCH_BIND(Py_InitializeEx);
  KBENCH_BIND(Py_IsInitialized);
  KBENCH_BIND(PyEval_SaveThread);
  KBENCH_BIND(PyGILState_Ensure);
  KBENCH_BIND(PyGILState_Release);
  KBENCH_BIND(Py_CompileString);
  KBENCH_BIND(PyEval_EvalCode);
  KBENCH_BIND(PyImport_ImportModule);
  KBENCH_BIND(PyDict_New);
  KBENCH_BIND(PyDict_SetItemString);
  KBENCH_BIND(PyDict_GetItemString);
  KBENCH_BIND(PyObject_GetAttrString);
  KBENCH_BIND(PyObject_CallObject);
  KBENCH_BIND(PyObject_Str);
  KBENCH_BIND(PyTuple_New);
  KBENCH_BIND(PyTuple_SetItem);
  KBENCH_BIND(PyLong_FromLongLong);
  KBENCH_BIND(PyLong_FromVoidPtr);
  KBENCH_BIND(PyUnicode_FromString);
  KBENCH_BIND(PyUnicode_AsUTF8String);
  KBENCH_BIND(PyBytes_AsString);
  KBENCH_BIND(PyCapsule_New);
  KBENCH_BIND(PyCapsule_IsValid);
  KBENCH_BIND(PyCapsule_GetPointer);
  KBENCH_BIND(Py_IncRef);
  KBENCH_BIND(Py_DecRef);
  KBENCH_BIND(PyErr_Occurred);
  KBENCH_BIND(PyErr_Fetch);
  KBENCH_BIND(PyErr_NormalizeException);
  KBENCH_BIND(PyErr_Clear);
#undef KBENCH_BIND
  if (!missing.empty())
    throw PythonError(fmt::format("{} lacks CPython stable-ABI functions kbench needs: {}", library_path_, missing));
}

void PythonRuntime::initialize() {
  if (api_.Py_IsInitialized()) throw PythonError("a Python interpreter is already running in this process");
  // Start as the chosen executable would: its standard library from its base prefix (a venv's
  // base), so the embedded interpreter never looks for one beside kbench. Py_InitializeEx aborts
  // the process when it finds no standard library, so the home comes from the interpreter itself.
  // The strings must outlive the interpreter: they are never freed.
  const std::string home = interpreter_.base_prefix == interpreter_.base_exec_prefix
                               ? interpreter_.base_prefix
                               : interpreter_.base_prefix + ":" + interpreter_.base_exec_prefix;
  if (api_.Py_SetProgramName) api_.Py_SetProgramName(api_.Py_DecodeLocale(interpreter_.executable.c_str(), nullptr));
  if (api_.Py_SetPythonHome && !home.empty()) api_.Py_SetPythonHome(api_.Py_DecodeLocale(home.c_str(), nullptr));
  api_.Py_InitializeEx(0);  // 0: no signal handlers; kbench keeps its own SIGINT handling
  if (!api_.Py_IsInitialized()) throw PythonError(fmt::format("{} did not start", library_path_));

  // sys.path exactly as the interpreter reported it (its site-packages, a venv's, PYTHONPATH), and
  // sys.executable the interpreter rather than kbench: torch.compile starts worker processes with it.
  std::string path_list;
  for (const std::string& entry : interpreter_.path) path_list += python_literal(entry) + ", ";
  const std::string setup = fmt::format(
      "import sys\nsys.path[:] = [{}]\nsys.executable = {}\nif not getattr(sys, 'argv', None):\n    sys.argv = [{}]\n",
      path_list, python_literal(interpreter_.executable), python_literal(interpreter_.executable));
  { PyRef ns = exec_module(setup, "<kbench-setup>"); }
  (void)api_.PyEval_SaveThread();  // from here on, every entry takes the GIL (Gil)
}

void PythonRuntime::throw_error(const std::string& context) const {
  PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
  api_.PyErr_Fetch(&type, &value, &traceback);
  if (!type) throw PythonError(context + ": failed without a Python exception");
  api_.PyErr_NormalizeException(&type, &value, &traceback);
  PyRef type_ref(type), value_ref(value), traceback_ref(traceback);
  const auto text_of = [&](PyObject* object) -> std::string {
    if (!object) return {};
    PyRef str(api_.PyObject_Str(object));
    PyRef bytes(str ? api_.PyUnicode_AsUTF8String(str.get()) : nullptr);
    const char* chars = bytes ? api_.PyBytes_AsString(bytes.get()) : nullptr;
    if (!chars) {
      api_.PyErr_Clear();
      return "(unprintable)";
    }
    return chars;
  };
  PyRef name(api_.PyObject_GetAttrString(type, "__name__"));
  if (!name) api_.PyErr_Clear();
  const std::string type_name = name ? text_of(name.get()) : std::string("Exception");
  const std::string message = text_of(value);
  throw PythonError(fmt::format("{}: {}{}{}", context, type_name, message.empty() ? "" : ": ", message), type_name,
                    message);
}

PyRef PythonRuntime::check(PyObject* result, const std::string& context) const {
  if (!result) throw_error(context);
  return PyRef(result);
}

std::string PythonRuntime::text(PyObject* str, const std::string& context) const {
  PyRef bytes = check(api_.PyUnicode_AsUTF8String(str), context);
  const char* chars = api_.PyBytes_AsString(bytes.get());
  if (!chars) throw_error(context);
  return chars;
}

PyRef PythonRuntime::exec_module(const std::string& source, const std::string& filename) const {
  PyRef code = check(api_.Py_CompileString(source.c_str(), filename.c_str(), kPyFileInput), "compiling " + filename);
  PyRef ns = check(api_.PyDict_New(), "creating a namespace");
  // Without __builtins__ the module body could not import; the builtins module is the standard value.
  PyRef builtins = check(api_.PyImport_ImportModule("builtins"), "importing builtins");
  if (api_.PyDict_SetItemString(ns.get(), "__builtins__", builtins.get()) != 0) throw_error("setting __builtins__");
  PyRef result = check(api_.PyEval_EvalCode(code.get(), ns.get(), ns.get()), "running " + filename);
  return ns;
}

PyRef PythonRuntime::call(PyObject* callable, std::initializer_list<PyObject*> args, const std::string& context) const {
  PyRef tuple = check(api_.PyTuple_New(static_cast<std::ptrdiff_t>(args.size())), "building arguments");
  std::ptrdiff_t i = 0;
  for (PyObject* arg : args) {
    api_.Py_IncRef(arg);  // PyTuple_SetItem steals it
    if (api_.PyTuple_SetItem(tuple.get(), i++, arg) != 0) throw_error("building arguments");
  }
  return check(api_.PyObject_CallObject(callable, tuple.get()), context);
}

PyRef PythonRuntime::call_method(PyObject* object, const char* name, std::initializer_list<PyObject*> args) const {
  PyRef method = check(api_.PyObject_GetAttrString(object, name), fmt::format("looking up {}", name));
  return call(method.get(), args, name);
}

PyRef PythonRuntime::call_in(PyObject* namespace_dict, const char* name, std::initializer_list<PyObject*> args) const {
  PyObject* function = api_.PyDict_GetItemString(namespace_dict, name);  // borrowed
  if (!function) throw PythonError(fmt::format("kbench's torch helper defines no '{}'", name));
  return call(function, args, name);
}

}  // namespace kbench::torch
