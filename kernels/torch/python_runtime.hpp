#pragma once
// CPython embedded through its stable ABI alone, loaded at run time: libpython is dlopen'ed and
// every function kbench calls is looked up by dlsym into a table, so no Python header or library
// is needed to build, and one kbench binary runs with whatever Python 3 the machine has (3.11 from
// Debian here, 3.12 with a CUDA torch on the GPU host). docs/torch-backend.md gives the reasons.
//
// The interpreter is started once per process and never finalised (torch does not survive
// Py_Finalize). After start-up no thread holds the GIL: every entry into Python takes it with a
// Gil guard, so the runner may call in from any thread.
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>

#include "torch/interpreter.hpp"

namespace kbench::torch {

// Opaque: only pointers to it cross the ABI.
struct PyObject;

// A Python exception (or a failure to start Python), with Python's own text: type and message.
class PythonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  PythonError(const std::string& what, std::string exception_type, std::string message)
      : std::runtime_error(what), exception_type_(std::move(exception_type)), message_(std::move(message)) {}
  // The Python exception's class name ("ValueError") and its text; empty when the error did not come
  // from Python.
  const std::string& exception_type() const { return exception_type_; }
  const std::string& message() const { return message_; }

 private:
  std::string exception_type_;
  std::string message_;
};

// CPython's stable-ABI functions kbench uses, by dlsym. Names as in CPython's documentation.
struct PythonApi {
  // start-up
  void (*Py_SetPythonHome)(const wchar_t*) = nullptr;   // deprecated in 3.11, still exported; optional
  void (*Py_SetProgramName)(const wchar_t*) = nullptr;  // idem; optional
  wchar_t* (*Py_DecodeLocale)(const char*, std::size_t*) = nullptr;
  void (*Py_InitializeEx)(int) = nullptr;
  int (*Py_IsInitialized)() = nullptr;
  void* (*PyEval_SaveThread)() = nullptr;
  int (*PyGILState_Ensure)() = nullptr;  // PyGILState_STATE is an int-sized enum
  void (*PyGILState_Release)(int) = nullptr;
  // code and modules
  PyObject* (*Py_CompileString)(const char*, const char*, int) = nullptr;
  PyObject* (*PyEval_EvalCode)(PyObject*, PyObject*, PyObject*) = nullptr;
  PyObject* (*PyImport_ImportModule)(const char*) = nullptr;
  PyObject* (*PyDict_New)() = nullptr;
  int (*PyDict_SetItemString)(PyObject*, const char*, PyObject*) = nullptr;
  PyObject* (*PyDict_GetItemString)(PyObject*, const char*) = nullptr;  // borrowed
  // objects
  PyObject* (*PyObject_GetAttrString)(PyObject*, const char*) = nullptr;
  PyObject* (*PyObject_CallObject)(PyObject*, PyObject*) = nullptr;
  PyObject* (*PyObject_Str)(PyObject*) = nullptr;
  PyObject* (*PyTuple_New)(std::ptrdiff_t) = nullptr;
  int (*PyTuple_SetItem)(PyObject*, std::ptrdiff_t, PyObject*) = nullptr;  // steals the item
  PyObject* (*PyLong_FromLongLong)(long long) = nullptr;
  PyObject* (*PyLong_FromVoidPtr)(void*) = nullptr;
  PyObject* (*PyUnicode_FromString)(const char*) = nullptr;
  PyObject* (*PyUnicode_AsUTF8String)(PyObject*) = nullptr;
  char* (*PyBytes_AsString)(PyObject*) = nullptr;
  PyObject* (*PyCapsule_New)(void*, const char*, void (*)(PyObject*)) = nullptr;
  int (*PyCapsule_IsValid)(PyObject*, const char*) = nullptr;
  void* (*PyCapsule_GetPointer)(PyObject*, const char*) = nullptr;
  void (*Py_IncRef)(PyObject*) = nullptr;
  void (*Py_DecRef)(PyObject*) = nullptr;
  // errors
  PyObject* (*PyErr_Occurred)() = nullptr;  // borrowed
  void (*PyErr_Fetch)(PyObject**, PyObject**, PyObject**) = nullptr;
  void (*PyErr_NormalizeException)(PyObject**, PyObject**, PyObject**) = nullptr;
  void (*PyErr_Clear)() = nullptr;
};

// CPython's start symbols for Py_CompileString (Include/compile.h; part of the stable ABI).
inline constexpr int kPyFileInput = 257;
inline constexpr int kPyEvalInput = 258;

// An owned reference, released (under the GIL, which its user holds) when it goes.
class PyRef {
 public:
  PyRef() = default;
  explicit PyRef(PyObject* owned) : p_(owned) {}
  ~PyRef() { reset(); }
  PyRef(const PyRef&) = delete;
  PyRef& operator=(const PyRef&) = delete;
  PyRef(PyRef&& other) noexcept : p_(std::exchange(other.p_, nullptr)) {}
  PyRef& operator=(PyRef&& other) noexcept {
    if (this != &other) {
      reset();
      p_ = std::exchange(other.p_, nullptr);
    }
    return *this;
  }
  PyObject* get() const { return p_; }
  PyObject* release() { return std::exchange(p_, nullptr); }
  explicit operator bool() const { return p_ != nullptr; }
  void reset();

 private:
  PyObject* p_ = nullptr;
};

// The embedded interpreter: loaded and started by start(), once per process.
class PythonRuntime {
 public:
  // Loads `interpreter`'s libpython (RTLD_GLOBAL: extension modules such as torch._C resolve
  // CPython's symbols from it), starts it as that interpreter would start (home, sys.path,
  // sys.executable), and releases the GIL. A second call returns the running one, or throws
  // PythonError when it was started for another interpreter. Throws PythonError with the reason
  // (no library at any candidate path, a missing symbol) when it cannot.
  static PythonRuntime& start(const InterpreterInfo& interpreter);

  const PythonApi& api() const { return api_; }
  const InterpreterInfo& interpreter() const { return interpreter_; }

  // The pending Python exception as a PythonError ("context: Type: message"), the error cleared.
  // Call with the GIL held, after a call returned NULL.
  [[noreturn]] void throw_error(const std::string& context) const;
  // `result` when non-null, else throw_error(context).
  PyRef check(PyObject* result, const std::string& context) const;

  // A Python str as UTF-8; throws PythonError "context: ..." for anything else.
  std::string text(PyObject* str, const std::string& context) const;
  // Runs `source` as a module body in a fresh namespace and returns that namespace (a dict).
  PyRef exec_module(const std::string& source, const std::string& filename) const;
  // callable(*args); throws PythonError "context: Type: message".
  PyRef call(PyObject* callable, std::initializer_list<PyObject*> args, const std::string& context) const;
  // object.name(*args).
  PyRef call_method(PyObject* object, const char* name, std::initializer_list<PyObject*> args = {}) const;
  // namespace_dict[name](*args), for the functions of a module run by exec_module.
  PyRef call_in(PyObject* namespace_dict, const char* name, std::initializer_list<PyObject*> args) const;

 private:
  explicit PythonRuntime(InterpreterInfo interpreter);
  static void start_in_a_child(const InterpreterInfo& interpreter);
  void load_library();
  void initialize();

  InterpreterInfo interpreter_;
  void* library_ = nullptr;
  std::string library_path_;
  PythonApi api_;
};

// Holds the GIL for its lifetime (PyGILState_Ensure / Release).
class Gil {
 public:
  explicit Gil(const PythonRuntime& runtime) : api_(runtime.api()), state_(api_.PyGILState_Ensure()) {}
  ~Gil() { api_.PyGILState_Release(state_); }
  Gil(const Gil&) = delete;
  Gil& operator=(const Gil&) = delete;

 private:
  const PythonApi& api_;
  int state_;
};

// The started runtime, or nullptr before start(): for PyRef::reset and capsule destructors, which
// run where no runtime reference is at hand.
const PythonRuntime* running_python();

}  // namespace kbench::torch
