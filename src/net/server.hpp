#pragma once
// `npu-doctor net serve`: answers greetings and pings, takes and sends byte streams for
// throughput tests, and, when asked, tests its own link to another server (so a tester
// can measure every pair of a host list). One thread per connection, a cap on
// connections, an idle deadline on every read, and stop() that ends them all at once.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "net/socket.hpp"

namespace npu_doctor::net {

struct ServerOptions {
  std::string bind;                              // "" = every address
  uint16_t port = kDefaultPort;                  // 0 = a free port
  double max_rate = 0;                           // bytes per second each stream may use; 0 = unlimited
  bool allow_relay = true;                       // test links to other servers on request
  std::size_t max_clients = 32;
  std::chrono::milliseconds idle_timeout{30000}; // a connection silent this long is closed
  std::chrono::milliseconds max_stream{60000};   // longest throughput stream served
  std::string name;                              // sent in greetings (default: the host name)
};

class NetServer {
 public:
  // Binds and starts accepting; nullptr with `error` when the address or port is unusable.
  static std::unique_ptr<NetServer> start(const ServerOptions& options, std::string* error);
  ~NetServer();
  NetServer(const NetServer&) = delete;
  NetServer& operator=(const NetServer&) = delete;

  uint16_t port() const { return port_; }
  const std::string& address() const { return address_; }
  std::size_t connections_served() const { return served_.load(); }

  // Stops accepting, closes every connection and waits for their threads. Idempotent.
  void stop();

 private:
  explicit NetServer(ServerOptions options) : options_(std::move(options)) {}
  void accept_loop();
  void serve(int fd);
  void handle(int fd);

  ServerOptions options_;
  Listener listener_;
  uint16_t port_ = 0;
  std::string address_;
  std::thread acceptor_;
  std::atomic<bool> stopping_{false};
  std::atomic<std::size_t> served_{0};
  std::mutex mu_;
  std::condition_variable idle_;
  std::set<int> open_;  // connection fds being served
  std::size_t active_ = 0;
};

}  // namespace npu_doctor::net
