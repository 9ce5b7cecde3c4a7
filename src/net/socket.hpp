#pragma once
// TCP with POSIX sockets where every operation has a deadline: non-blocking sockets,
// poll() for the time left, no SIGPIPE. Nothing here can wait past its deadline.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "net/endpoint.hpp"

namespace npu_doctor::net {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;

inline Deadline after(std::chrono::milliseconds d) { return Clock::now() + d; }
// Milliseconds left until `d` (0 when past), capped for poll().
int ms_left(Deadline d);

enum class NetErrorKind { refused, timeout, unreachable, unresolved, closed, io, protocol };

struct NetError {
  NetErrorKind kind = NetErrorKind::io;
  std::string message;  // "connection refused", "timed out after 3 s" ...
};

// An owned file descriptor.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(Fd&& o) noexcept : fd_(o.release()) {}
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      reset();
      fd_ = o.release();
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int release() {
    const int f = fd_;
    fd_ = -1;
    return f;
  }
  void reset();

 private:
  int fd_ = -1;
};

struct Connection {
  Fd fd;
  std::string address;  // the numeric address connected to
};

// Resolves `to` and connects to its addresses in turn until one answers or the deadline
// passes. The socket is non-blocking with TCP_NODELAY.
std::optional<Connection> connect_to(const Endpoint& to, Deadline deadline, NetError* error);

// Writes all of `data` / reads exactly `size` bytes before the deadline.
bool send_all(int fd, const void* data, std::size_t size, Deadline deadline, NetError* error);
bool recv_exact(int fd, void* data, std::size_t size, Deadline deadline, NetError* error);

// Waits until `fd` is readable (true) or the deadline passes (false).
bool wait_readable(int fd, Deadline deadline);

struct Listener {
  Fd fd;
  uint16_t port = 0;
  std::string address;  // what it is bound to, e.g. "0.0.0.0", "::"
};

// Listens on `bind` ("" = every address, IPv6 and IPv4 when the host has IPv6) and
// `port` (0 = a free one).
std::optional<Listener> listen_on(const std::string& bind, uint16_t port, std::string* error);

void set_nonblocking(int fd);

}  // namespace npu_doctor::net
