#include "net/socket.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace npu_doctor::net {
namespace {

NetError error_from_errno(int e) {
  switch (e) {
    case ECONNREFUSED: return {NetErrorKind::refused, "connection refused"};
    case ETIMEDOUT: return {NetErrorKind::timeout, "timed out"};
    case EHOSTUNREACH:
    case ENETUNREACH:
    case EHOSTDOWN:
    case ENETDOWN: return {NetErrorKind::unreachable, std::strerror(e)};
    case EPIPE:
    case ECONNRESET: return {NetErrorKind::closed, "connection closed by the other end"};
    default: return {NetErrorKind::io, std::strerror(e)};
  }
}

std::string numeric_address(const sockaddr* sa, socklen_t len) {
  char host[NI_MAXHOST] = {};
  if (::getnameinfo(sa, len, host, sizeof host, nullptr, 0, NI_NUMERICHOST) != 0) return {};
  return host;
}

void set_error(NetError* out, NetError e) {
  if (out != nullptr) *out = std::move(e);
}

}  // namespace

int ms_left(Deadline d) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(d - Clock::now()).count();
  if (left <= 0) return 0;
  return static_cast<int>(std::min<long long>(left, 1000000));
}

void Fd::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void set_nonblocking(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

bool wait_readable(int fd, Deadline deadline) {
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    const int r = ::poll(&p, 1, ms_left(deadline));
    if (r > 0) return true;
    if (r == 0) return false;
    if (errno != EINTR) return false;
  }
}

std::optional<Connection> connect_to(const Endpoint& to, Deadline deadline, NetError* error) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  const std::string port = std::to_string(to.port);
  // getaddrinfo has no timeout; names come from the user's command line or host file
  // and /etc/hosts or DNS answer in milliseconds on a cluster.
  const int gai = ::getaddrinfo(to.host.c_str(), port.c_str(), &hints, &res);
  if (gai != 0) {
    set_error(error, {NetErrorKind::unresolved, std::string("cannot resolve the name: ") + ::gai_strerror(gai)});
    return std::nullopt;
  }
  NetError last{NetErrorKind::unreachable, "no address"};
  for (addrinfo* ai = res; ai != nullptr; ai = ai->ai_next) {
    Fd fd(::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol));
    if (!fd.valid()) {
      last = error_from_errno(errno);
      continue;
    }
    set_nonblocking(fd.get());
    const int one = 1;
    ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    int rc = ::connect(fd.get(), ai->ai_addr, ai->ai_addrlen);
    if (rc != 0 && errno != EINPROGRESS) {
      last = error_from_errno(errno);
      continue;
    }
    if (rc != 0) {
      pollfd p{fd.get(), POLLOUT, 0};
      int pr = 0;
      do {
        pr = ::poll(&p, 1, ms_left(deadline));
      } while (pr < 0 && errno == EINTR);
      if (pr == 0) {
        last = {NetErrorKind::timeout, "no answer to the connection request (timed out)"};
        break;  // the deadline is spent: no time for other addresses
      }
      int soerr = 0;
      socklen_t len = sizeof soerr;
      ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &soerr, &len);
      if (pr < 0 || soerr != 0) {
        last = error_from_errno(pr < 0 ? errno : soerr);
        continue;
      }
    }
    Connection c{std::move(fd), numeric_address(ai->ai_addr, ai->ai_addrlen)};
    ::freeaddrinfo(res);
    return c;
  }
  ::freeaddrinfo(res);
  set_error(error, last);
  return std::nullopt;
}

bool send_all(int fd, const void* data, std::size_t size, Deadline deadline, NetError* error) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t w = ::send(fd, p, size, MSG_NOSIGNAL);
    if (w > 0) {
      p += w;
      size -= static_cast<std::size_t>(w);
      continue;
    }
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd pf{fd, POLLOUT, 0};
      const int r = ::poll(&pf, 1, ms_left(deadline));
      if (r == 0) {
        set_error(error, {NetErrorKind::timeout, "timed out while sending"});
        return false;
      }
      continue;
    }
    set_error(error, error_from_errno(errno));
    return false;
  }
  return true;
}

bool recv_exact(int fd, void* data, std::size_t size, Deadline deadline, NetError* error) {
  char* p = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t r = ::recv(fd, p, size, 0);
    if (r > 0) {
      p += r;
      size -= static_cast<std::size_t>(r);
      continue;
    }
    if (r == 0) {
      set_error(error, {NetErrorKind::closed, "connection closed by the other end"});
      return false;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      if (!wait_readable(fd, deadline)) {
        set_error(error, {NetErrorKind::timeout, "no answer in time"});
        return false;
      }
      continue;
    }
    set_error(error, error_from_errno(errno));
    return false;
  }
  return true;
}

std::optional<Listener> listen_on(const std::string& bind, uint16_t port, std::string* error) {
  auto try_bind = [&](const sockaddr* sa, socklen_t len, int family, bool dual) -> std::optional<Listener> {
    Fd fd(::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd.valid()) {
      if (error != nullptr) *error = std::strerror(errno);
      return std::nullopt;
    }
    const int one = 1;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (dual) {
      const int zero = 0;
      ::setsockopt(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
    }
    if (::bind(fd.get(), sa, len) != 0 || ::listen(fd.get(), 128) != 0) {
      if (error != nullptr) *error = std::strerror(errno);
      return std::nullopt;
    }
    set_nonblocking(fd.get());
    sockaddr_storage actual{};
    socklen_t alen = sizeof actual;
    ::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&actual), &alen);
    Listener l;
    l.port = ntohs(actual.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&actual)->sin6_port
                                                : reinterpret_cast<sockaddr_in*>(&actual)->sin_port);
    l.address = numeric_address(reinterpret_cast<sockaddr*>(&actual), alen);
    l.fd = std::move(fd);
    return l;
  };
  if (bind.empty()) {
    sockaddr_in6 a6{};
    a6.sin6_family = AF_INET6;
    a6.sin6_addr = in6addr_any;
    a6.sin6_port = htons(port);
    if (auto l = try_bind(reinterpret_cast<sockaddr*>(&a6), sizeof a6, AF_INET6, true)) return l;
    sockaddr_in a4{};
    a4.sin_family = AF_INET;
    a4.sin_addr.s_addr = htonl(INADDR_ANY);
    a4.sin_port = htons(port);
    return try_bind(reinterpret_cast<sockaddr*>(&a4), sizeof a4, AF_INET, false);
  }
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* res = nullptr;
  const std::string p = std::to_string(port);
  if (const int gai = ::getaddrinfo(bind.c_str(), p.c_str(), &hints, &res); gai != 0) {
    if (error != nullptr) *error = std::string("cannot resolve ") + bind + ": " + ::gai_strerror(gai);
    return std::nullopt;
  }
  std::optional<Listener> out;
  for (addrinfo* ai = res; ai != nullptr && !out; ai = ai->ai_next) {
    out = try_bind(ai->ai_addr, ai->ai_addrlen, ai->ai_family, false);
  }
  ::freeaddrinfo(res);
  return out;
}

}  // namespace npu_doctor::net
