#pragma once
// Helpers for the net tests: `npu-doctor net serve` as a child process (optionally inside
// a network namespace), servers that misbehave (accept and stay silent, answer with
// something else), and a small network of namespaces joined by a bridge.
#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "net/socket.hpp"

namespace npu_doctor::net::testing {

// `[ip netns exec NS] npu-doctor net serve ARGS...`; waits for its "listening" line.
class ServeProcess {
 public:
  explicit ServeProcess(std::vector<std::string> args, const std::string& netns = "");
  ~ServeProcess();
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;
  bool ready() const { return port_ != 0; }
  uint16_t port() const { return port_; }
  const std::string& first_line() const { return line_; }
  // SIGTERM, then the rest of its output and its exit status (-1 when it had to be killed).
  int stop(std::string* rest = nullptr);

 private:
  pid_t pid_ = -1;
  int out_ = -1;
  uint16_t port_ = 0;
  std::string line_;
};

// Accepts connections and never sends a byte (holds them open until destroyed).
class SilentServer {
 public:
  SilentServer();
  ~SilentServer();
  uint16_t port() const { return port_; }

 private:
  Fd listener_;
  uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::vector<int> held_;
  std::thread thread_;
};

// Answers every connection with an HTTP error and closes it.
class ForeignServer {
 public:
  ForeignServer();
  ~ForeignServer();
  uint16_t port() const { return port_; }

 private:
  Fd listener_;
  uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// Namespaces ns0..ns(n-1) with addresses 10.<x>.0.1.. on a bridge that also carries
// 10.<x>.0.254 in this namespace. Skipped (reason()) when this process may not create them.
class NamespaceNet {
 public:
  explicit NamespaceNet(int hosts);
  ~NamespaceNet();
  NamespaceNet(const NamespaceNet&) = delete;
  NamespaceNet& operator=(const NamespaceNet&) = delete;
  bool ok() const { return reason_.empty(); }
  const std::string& reason() const { return reason_; }
  std::string ns(int i) const;
  std::string ip(int i) const;
  // Limits host i's link in both directions (tc tbf), e.g. "20mbit".
  bool limit(int i, const std::string& rate);
  // Makes host `from` unable to route to host `to`.
  bool cut(int from, int to);

 private:
  bool sh(const std::vector<std::string>& argv);
  std::string prefix_;
  std::string subnet_;
  std::string reason_;
  std::vector<std::string> created_ns_;
  bool bridge_ = false;
};

}  // namespace npu_doctor::net::testing
