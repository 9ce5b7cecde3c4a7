#include "net/server.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <nlohmann/json.hpp>
#include <vector>

#include "net/json_fields.hpp"
#include "net/link_test.hpp"
#include "net/pacer.hpp"
#include "net/protocol.hpp"
#include "npu_doctor/version.hpp"

namespace npu_doctor::net {
namespace {

using json = nlohmann::json;
using std::chrono::milliseconds;


milliseconds requested_ms(const std::string& payload, milliseconds cap) {
  const json j = json::parse(payload, nullptr, false);
  const long long ms = int_field(j, "ms", 0);
  return milliseconds(std::clamp<long long>(ms, 1, cap.count()));
}

}  // namespace

std::unique_ptr<NetServer> NetServer::start(const ServerOptions& options, std::string* error) {
  std::unique_ptr<NetServer> s(new NetServer(options));
  auto l = listen_on(options.bind, options.port, error);
  if (!l) return nullptr;
  s->port_ = l->port;
  s->address_ = l->address;
  s->listener_ = std::move(*l);
  if (s->options_.name.empty()) {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    s->options_.name = host;
  }
  s->acceptor_ = std::thread([p = s.get()] { p->accept_loop(); });
  return s;
}

NetServer::~NetServer() { stop(); }

void NetServer::stop() {
  if (stopping_.exchange(true)) {
    if (acceptor_.joinable()) acceptor_.join();
    return;
  }
  if (acceptor_.joinable()) acceptor_.join();
  std::unique_lock<std::mutex> lock(mu_);
  for (int fd : open_) ::shutdown(fd, SHUT_RDWR);  // wakes every blocked poll in serve()
  idle_.wait(lock, [this] { return active_ == 0; });
}

void NetServer::accept_loop() {
  while (!stopping_.load()) {
    pollfd p{listener_.fd.get(), POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    const int fd = ::accept4(listener_.fd.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) continue;
    std::unique_lock<std::mutex> lock(mu_);
    if (active_ >= options_.max_clients || stopping_.load()) {
      lock.unlock();
      send_frame(fd, FrameType::error, "busy: too many connections", after(milliseconds(200)), nullptr);
      ::close(fd);
      continue;
    }
    ++active_;
    open_.insert(fd);
    lock.unlock();
    std::thread([this, fd] { serve(fd); }).detach();
  }
  listener_.fd.reset();
}

void NetServer::serve(int fd) {
  handle(fd);
  std::lock_guard<std::mutex> lock(mu_);
  open_.erase(fd);
  ::close(fd);
  ++served_;
  --active_;
  idle_.notify_all();
}

void NetServer::handle(int fd) {
  NetError err;
  auto hello = recv_frame(fd, after(options_.idle_timeout), &err);
  if (!hello) return;
  if (hello->type != FrameType::hello) {
    send_frame(fd, FrameType::error, "expected a greeting", after(milliseconds(1000)), nullptr);
    return;
  }
  const json reply = {{"protocol", kProtocol},
                      {"name", options_.name},
                      {"version", kVersion},
                      {"relay", options_.allow_relay},
                      {"max_rate", options_.max_rate}};
  if (!send_frame(fd, FrameType::hello, reply.dump(), after(options_.idle_timeout), &err)) return;

  while (!stopping_.load()) {
    auto f = recv_frame(fd, after(options_.idle_timeout), &err);
    if (!f) return;
    switch (f->type) {
      case FrameType::ping:
        if (!send_frame(fd, FrameType::pong, f->payload, after(options_.idle_timeout), &err)) return;
        break;
      case FrameType::upload: {
        // Count what arrives in a window of the requested length from the first byte.
        const milliseconds window = requested_ms(f->payload, options_.max_stream);
        if (!send_frame(fd, FrameType::ready, "", after(options_.idle_timeout), &err)) return;
        std::vector<char> buf(kStreamChunk);
        Pacer pacer(options_.max_rate);
        std::optional<Clock::time_point> first;
        Deadline end = after(window + std::max(milliseconds(2000), window));  // until the first byte
        uint64_t bytes = 0;
        while (Clock::now() < end && !stopping_.load()) {
          if (!wait_readable(fd, end)) break;
          const ssize_t r = ::recv(fd, buf.data(), buf.size(), 0);
          if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) continue;
          if (r <= 0) return;
          if (!first) {
            first = Clock::now();
            end = *first + window;
          } else {
            bytes += static_cast<uint64_t>(r);
          }
          pacer.account(static_cast<std::size_t>(r), end);
        }
        const auto us = first ? std::chrono::duration_cast<std::chrono::microseconds>(std::min(Clock::now(), end) - *first).count() : 0;
        const json stats = {{"bytes", bytes}, {"us", us}};
        if (!send_frame(fd, FrameType::stats, stats.dump(), after(options_.idle_timeout), &err)) return;
        // Let the client read the stats before the socket goes away: stop writing, drain briefly.
        ::shutdown(fd, SHUT_WR);
        const Deadline drain = after(milliseconds(2000));
        while (wait_readable(fd, drain)) {
          const ssize_t r = ::recv(fd, buf.data(), buf.size(), 0);
          if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) break;
        }
        return;
      }
      case FrameType::download: {
        const milliseconds window = requested_ms(f->payload, options_.max_stream);
        const std::string chunk(kStreamChunk, '\0');
        Pacer pacer(options_.max_rate);
        // The client measures and closes; stop on our own after the window and a grace period.
        const Deadline end = after(window + std::max(milliseconds(2000), window));
        while (Clock::now() < end && !stopping_.load()) {
          pollfd p{fd, POLLOUT, 0};
          const int pr = ::poll(&p, 1, std::min(ms_left(end), 200));
          if (pr <= 0) continue;
          if ((p.revents & (POLLERR | POLLHUP)) != 0) return;
          const ssize_t w = ::send(fd, chunk.data(), chunk.size(), MSG_NOSIGNAL);
          if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) continue;
          if (w <= 0) return;
          pacer.account(static_cast<std::size_t>(w), end);
        }
        return;
      }
      case FrameType::relay: {
        if (!options_.allow_relay) {
          send_frame(fd, FrameType::error, "this server does not relay tests (--no-relay)", after(milliseconds(1000)), nullptr);
          return;
        }
        const json req = json::parse(f->payload, nullptr, false);
        if (string_field(req, "host").empty()) {
          send_frame(fd, FrameType::error, "bad relay request", after(milliseconds(1000)), nullptr);
          return;
        }
        Endpoint target;
        target.host = string_field(req, "host");
        target.port = static_cast<uint16_t>(std::clamp<long long>(int_field(req, "port", 0), 1, 65535));
        LinkTestOptions o;
        o.pings = static_cast<int>(std::clamp<long long>(int_field(req, "pings", 20), 0, 1000));
        o.duration = milliseconds(std::clamp<long long>(int_field(req, "ms", 2000), 0, options_.max_stream.count()));
        o.connect_timeout = milliseconds(std::clamp<long long>(int_field(req, "connect_ms", 3000), 100, 30000));
        o.answer_timeout = milliseconds(std::clamp<long long>(int_field(req, "answer_ms", 3000), 100, 30000));
        o.self_name = options_.name;
        o.max_rate = options_.max_rate;  // this host's limit holds for the streams it starts too
        const LinkResult result = test_link(target, o);
        if (!send_frame(fd, FrameType::result, to_json(result).dump(), after(options_.idle_timeout), &err)) return;
        break;
      }
      default:
        send_frame(fd, FrameType::error, "unexpected request", after(milliseconds(1000)), nullptr);
        return;
    }
  }
}

}  // namespace npu_doctor::net
