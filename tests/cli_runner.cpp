#include "cli_runner.h"
#include "cli_env.h"

#include <algorithm>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace lance::testing {

std::string source_path(const std::string& rel) { return std::string(LANCE_CLI_SOURCE_DIR) + "/" + rel; }

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

CliResult run_cli(const std::vector<std::string>& args, const std::string& stdin_text) {
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (pipe(in_pipe) || pipe(out_pipe) || pipe(err_pipe)) throw std::runtime_error("pipe failed");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err_pipe[1], 2);
  for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]})
    posix_spawn_file_actions_addclose(&fa, fd);
  std::vector<std::string> argv_s = {cli_binary()};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid;
  if (posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ) != 0)
    throw std::runtime_error("cannot start lance-cli");
  posix_spawn_file_actions_destroy(&fa);
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  CliResult r;
  size_t written = 0;
  if (stdin_text.empty()) {
    close(in_pipe[1]);
    in_pipe[1] = -1;
  } else {
    fcntl(in_pipe[1], F_SETFL, O_NONBLOCK);
  }
  bool out_open = true, err_open = true;
  char buf[65536];
  while (out_open || err_open) {
    std::vector<pollfd> fds;
    if (out_open) fds.push_back({out_pipe[0], POLLIN, 0});
    if (err_open) fds.push_back({err_pipe[0], POLLIN, 0});
    if (in_pipe[1] >= 0) fds.push_back({in_pipe[1], POLLOUT, 0});
    poll(fds.data(), fds.size(), -1);
    for (auto& p : fds) {
      if (p.fd == in_pipe[1] && (p.revents & (POLLOUT | POLLERR | POLLHUP))) {
        // lance-cli may exit before reading all of its input (a usage error, say): the write
        // then fails with EPIPE, and the SIGPIPE it raises is blocked and dropped here.
        sigset_t pipe_signal, previous;
        sigemptyset(&pipe_signal);
        sigaddset(&pipe_signal, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipe_signal, &previous);
        ssize_t n = write(in_pipe[1], stdin_text.data() + written, stdin_text.size() - written);
        if (n < 0 && errno == EPIPE) {
          const timespec no_wait{0, 0};
          sigtimedwait(&pipe_signal, nullptr, &no_wait);
        }
        pthread_sigmask(SIG_SETMASK, &previous, nullptr);
        if (n > 0) written += static_cast<size_t>(n);
        if (n < 0 || written == stdin_text.size()) {
          close(in_pipe[1]);
          in_pipe[1] = -1;
        }
      } else if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
        ssize_t n = read(p.fd, buf, sizeof buf);
        if (n <= 0) {
          if (p.fd == out_pipe[0])
            out_open = false;
          else
            err_open = false;
        } else {
          (p.fd == out_pipe[0] ? r.out : r.err).append(buf, static_cast<size_t>(n));
        }
      }
    }
  }
  if (in_pipe[1] >= 0) close(in_pipe[1]);
  close(out_pipe[0]);
  close(err_pipe[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return r;
}

bool sanitizer_build() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return true;
#else
  return false;
#endif
#else
  return false;
#endif
}

CliResult run_cli_limited(const std::vector<std::string>& args, const RunLimits& limits) {
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) || pipe2(err_pipe, O_CLOEXEC)) throw std::runtime_error("pipe failed");
  std::vector<std::string> argv_s = {cli_binary()};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_s;
  auto name_of = [](const std::string& e) { return e.substr(0, e.find('=')); };
  for (char** e = environ; *e; ++e) {
    // An entry of limits.env replaces the inherited variable of the same name.
    const std::string entry(*e);
    if (std::none_of(limits.env.begin(), limits.env.end(),
                     [&](const std::string& x) { return name_of(x) == name_of(entry); }))
      env_s.push_back(entry);
  }
  env_s.insert(env_s.end(), limits.env.begin(), limits.env.end());
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {  // child: only async-signal-safe calls from here
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    if (limits.address_space_bytes) {
      rlimit rl{limits.address_space_bytes, limits.address_space_bytes};
      setrlimit(RLIMIT_AS, &rl);
    }
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  CliResult r;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(limits.timeout_ms);
  bool out_open = true, err_open = true;
  char buf[65536];
  while (out_open || err_open) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      kill(pid, SIGKILL);
      r.timed_out = true;
      break;
    }
    std::vector<pollfd> fds;
    if (out_open) fds.push_back({out_pipe[0], POLLIN, 0});
    if (err_open) fds.push_back({err_pipe[0], POLLIN, 0});
    if (poll(fds.data(), fds.size(), static_cast<int>(left.count())) <= 0) continue;
    for (auto& p : fds) {
      if (!(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = read(p.fd, buf, sizeof buf);
      if (n <= 0) {
        (p.fd == out_pipe[0] ? out_open : err_open) = false;
      } else if (p.fd == err_pipe[0]) {
        r.err.append(buf, static_cast<size_t>(n));
      } else if (limits.keep_stdout) {
        r.out.append(buf, static_cast<size_t>(n));
      }
    }
  }
  close(out_pipe[0]);
  close(err_pipe[0]);
  int status = 0;
  if (!r.timed_out) {
    // Output closed; the process should exit right after. Bound that wait too.
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() >= deadline) {
        kill(pid, SIGKILL);
        r.timed_out = true;
        break;
      }
      usleep(1000);
    }
  }
  if (r.timed_out) waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return r;
}

}  // namespace lance::testing
