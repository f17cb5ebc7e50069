#include "torch/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

extern char** environ;

namespace kbench::torch {

namespace {

using Clock = std::chrono::steady_clock;

struct Pipe {
  int read = -1, write = -1;
  bool open() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return false;
    read = fds[0];
    write = fds[1];
    return true;
  }
  void close_read() {
    if (read >= 0) ::close(read);
    read = -1;
  }
  void close_write() {
    if (write >= 0) ::close(write);
    write = -1;
  }
};

// Reads both pipes until the child closes them, then reaps it; kills it at the timeout or when
// stdout overflows.
void collect(pid_t pid, Pipe& out, Pipe& err, const ChildLimits& limits, ChildOutcome& outcome) {
  out.close_write();
  err.close_write();
  const Clock::time_point deadline = Clock::now() + limits.timeout;
  bool killed = false;
  const auto kill_child = [&] {
    if (!killed) ::kill(pid, SIGKILL);
    killed = true;
  };
  char buffer[65536];
  while (out.read >= 0 || err.read >= 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      outcome.timed_out = true;
      kill_child();
      break;
    }
    pollfd fds[2] = {{out.read, POLLIN, 0}, {err.read, POLLIN, 0}};  // a negative fd is skipped
    const int ready = ::poll(fds, 2, static_cast<int>(std::min<long long>(left, 1000)));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].revents == 0) continue;
      Pipe& pipe = i == 0 ? out : err;
      const ssize_t n = ::read(pipe.read, buffer, sizeof buffer);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) {
        pipe.close_read();
        continue;
      }
      std::string& sink = i == 0 ? outcome.out : outcome.err;
      sink.append(buffer, static_cast<std::size_t>(n));
      if (i == 0 && sink.size() > limits.max_stdout) {
        outcome.stdout_overflow = true;
        kill_child();
        out.close_read();
        err.close_read();
      }
      if (i == 1 && sink.size() > 2 * limits.max_stderr) sink.erase(0, sink.size() - limits.max_stderr);
    }
  }
  out.close_read();
  err.close_read();
  if (outcome.err.size() > limits.max_stderr) outcome.err.erase(0, outcome.err.size() - limits.max_stderr);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
}

bool open_pipes(Pipe& out, Pipe& err, ChildOutcome& outcome) {
  if (out.open() && err.open()) return true;
  outcome.start_error = std::strerror(errno);
  out.close_read();
  out.close_write();
  return false;
}

}  // namespace

ChildOutcome run_program(const std::vector<std::string>& argv, const ChildLimits& limits) {
  ChildOutcome outcome;
  Pipe out, err;
  if (!open_pipes(out, err, outcome)) return outcome;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out.write, 1);
  posix_spawn_file_actions_adddup2(&actions, err.write, 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int s : {SIGPIPE, SIGINT, SIGTERM}) sigaddset(&defaults, s);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    outcome.start_error = std::strerror(spawned);
    out.close_write();
    err.close_write();
    out.close_read();
    err.close_read();
    return outcome;
  }
  outcome.started = true;
  collect(pid, out, err, limits, outcome);
  return outcome;
}

ChildOutcome run_forked(const std::function<int()>& body, const ChildLimits& limits) {
  ChildOutcome outcome;
  Pipe out, err;
  if (!open_pipes(out, err, outcome)) return outcome;
  const pid_t pid = ::fork();
  if (pid < 0) {
    outcome.start_error = std::strerror(errno);
    out.close_write();
    err.close_write();
    out.close_read();
    err.close_read();
    return outcome;
  }
  if (pid == 0) {
    ::dup2(out.write, 1);
    ::dup2(err.write, 2);
    for (int s : {SIGPIPE, SIGINT, SIGTERM}) ::signal(s, SIG_DFL);  // not kbench's handlers: this is a probe
    int code = 1;
    try {
      code = body();
    } catch (const std::exception& e) {
      const std::string text = std::string(e.what()) + "\n";
      (void)!::write(2, text.data(), text.size());
    } catch (...) {
    }
    ::_exit(code);
  }
  outcome.started = true;
  collect(pid, out, err, limits, outcome);
  return outcome;
}

std::string python_failure_summary(const std::string& stderr_text) {
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < stderr_text.size();) {
    std::size_t end = stderr_text.find('\n', at);
    if (end == std::string::npos) end = stderr_text.size();
    std::string line = stderr_text.substr(at, end - at);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) lines.push_back(std::move(line));
    at = end + 1;
  }
  const auto is_exception = [](const std::string& line) {
    const std::size_t colon = line.find(": ");
    if (colon == std::string::npos || line[0] == ' ') return false;
    const std::string name = line.substr(0, colon);
    return name.find(' ') == std::string::npos &&
           (name.ends_with("Error") || name.ends_with("Exception") || name.ends_with("Exit"));
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!lines[i].starts_with("Fatal Python error:")) continue;
    for (std::size_t j = i + 1; j < lines.size(); ++j)
      if (is_exception(lines[j])) return fmt::format("{} ({})", lines[i], lines[j]);
    return lines[i];
  }
  // A traceback's frames are indented; its last unindented line is the exception.
  for (std::size_t i = lines.size(); i-- > 0;) {
    const std::string& line = lines[i];
    if (line[0] == ' ' || line[0] == '\t' || line.starts_with("Traceback ") || line.starts_with("Current thread ") ||
        line.starts_with("Thread 0x") || line == "<no Python frame>")
      continue;
    return line;
  }
  return "it printed nothing on stderr";
}

std::string describe_outcome(const ChildOutcome& outcome, const ChildLimits& limits) {
  if (!outcome.started) return fmt::format("could not be started: {}", outcome.start_error);
  if (outcome.timed_out)
    return fmt::format("gave no answer within {:g} s and was killed",
                       std::chrono::duration<double>(limits.timeout).count());
  if (outcome.stdout_overflow) return fmt::format("printed over {} bytes on stdout and was killed", limits.max_stdout);
  if (outcome.signal != 0) {
    const char* name = ::strsignal(outcome.signal);
    return fmt::format("was killed by signal {} ({})", outcome.signal, name ? name : "unknown");
  }
  return fmt::format("exit {}", outcome.exit_code);
}

}  // namespace kbench::torch
