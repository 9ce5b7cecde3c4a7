#include "net/net_test_support.hpp"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <regex>

#include "npu_doctor/probe.hpp"

extern char** environ;

namespace npu_doctor::net::testing {

ServeProcess::ServeProcess(std::vector<std::string> args, const std::string& netns) {
  std::vector<std::string> argv;
  if (!netns.empty()) argv = {"/usr/sbin/ip", "netns", "exec", netns};
  argv.push_back(NPU_DOCTOR_BINARY);
  argv.push_back("net");
  argv.push_back("serve");
  argv.insert(argv.end(), args.begin(), args.end());
  int pipefd[2];
  if (::pipe(pipefd) != 0) return;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
  posix_spawn_file_actions_addclose(&fa, pipefd[0]);
  posix_spawn_file_actions_addclose(&fa, pipefd[1]);
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  const int rc = posix_spawn(&pid_, cargv[0], &fa, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(pipefd[1]);
  if (rc != 0) {
    ::close(pipefd[0]);
    pid_ = -1;
    return;
  }
  out_ = pipefd[0];
  // The first line says where it listens.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (line_.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
    pollfd p{out_, POLLIN, 0};
    if (::poll(&p, 1, 200) <= 0) continue;
    char c;
    if (::read(out_, &c, 1) != 1) break;
    line_ += c;
  }
  static const std::regex re(R"(listening on \S+ port (\d+))");
  std::smatch m;
  if (std::regex_search(line_, m, re)) port_ = static_cast<uint16_t>(std::stoi(m[1].str()));
}

int ServeProcess::stop(std::string* rest) {
  if (pid_ < 0) return -1;
  ::kill(pid_, SIGTERM);
  int status = 0;
  int result = -1;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (;;) {
    const pid_t w = ::waitpid(pid_, &status, WNOHANG);
    if (w == pid_) {
      result = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      break;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      break;
    }
    ::usleep(20000);
  }
  if (rest != nullptr) {
    char buf[4096];
    for (ssize_t r; (r = ::read(out_, buf, sizeof buf)) > 0;) rest->append(buf, static_cast<std::size_t>(r));
  }
  ::close(out_);
  pid_ = -1;
  return result;
}

ServeProcess::~ServeProcess() { stop(); }

namespace {

Fd listen_loopback(uint16_t& port) {
  std::string error;
  auto l = listen_on("127.0.0.1", 0, &error);
  if (!l) return Fd();
  port = l->port;
  return std::move(l->fd);
}

}  // namespace

SilentServer::SilentServer() {
  listener_ = listen_loopback(port_);
  thread_ = std::thread([this] {
    while (!stop_) {
      pollfd p{listener_.get(), POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const int fd = ::accept(listener_.get(), nullptr, nullptr);
      if (fd >= 0) held_.push_back(fd);
    }
  });
}

SilentServer::~SilentServer() {
  stop_ = true;
  thread_.join();
  for (int fd : held_) ::close(fd);
}

ForeignServer::ForeignServer() {
  listener_ = listen_loopback(port_);
  thread_ = std::thread([this] {
    while (!stop_) {
      pollfd p{listener_.get(), POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const int fd = ::accept(listener_.get(), nullptr, nullptr);
      if (fd < 0) continue;
      const char reply[] = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n";
      (void)::send(fd, reply, sizeof reply - 1, MSG_NOSIGNAL);
      ::close(fd);
    }
  });
}

ForeignServer::~ForeignServer() {
  stop_ = true;
  thread_.join();
}

NamespaceNet::NamespaceNet(int hosts) {
  if (::geteuid() != 0) {
    reason_ = "creating network namespaces needs root";
    return;
  }
  if (::access("/usr/sbin/ip", X_OK) != 0) {
    reason_ = "iproute2 (/usr/sbin/ip) is not installed";
    return;
  }
  const int id = static_cast<int>(::getpid() % 200) + 20;
  prefix_ = "npd" + std::to_string(::getpid() % 100000);
  subnet_ = "10." + std::to_string(id) + ".77.";
  if (!sh({"ip", "link", "add", prefix_ + "br", "type", "bridge"})) {
    reason_ = "cannot create a bridge here (no CAP_NET_ADMIN, or a container without it)";
    return;
  }
  bridge_ = true;
  bool ok = sh({"ip", "link", "set", prefix_ + "br", "up"}) &&
            sh({"ip", "addr", "add", subnet_ + "254/24", "dev", prefix_ + "br"});
  for (int i = 0; ok && i < hosts; ++i) {
    const std::string n = ns(i), h = prefix_ + "h" + std::to_string(i), v = prefix_ + "n" + std::to_string(i);
    ok = sh({"ip", "netns", "add", n});
    if (ok) created_ns_.push_back(n);
    ok = ok && sh({"ip", "link", "add", h, "type", "veth", "peer", "name", v}) &&
         sh({"ip", "link", "set", v, "netns", n}) && sh({"ip", "link", "set", h, "master", prefix_ + "br"}) &&
         sh({"ip", "link", "set", h, "up"}) && sh({"ip", "netns", "exec", n, "ip", "addr", "add", ip(i) + "/24", "dev", v}) &&
         sh({"ip", "netns", "exec", n, "ip", "link", "set", v, "up"}) &&
         sh({"ip", "netns", "exec", n, "ip", "link", "set", "lo", "up"});
  }
  if (!ok) reason_ = "setting up namespaces, veth pairs and the bridge failed";
}

NamespaceNet::~NamespaceNet() {
  for (const auto& n : created_ns_) sh({"ip", "netns", "del", n});  // takes its veth pair along
  if (bridge_) sh({"ip", "link", "del", prefix_ + "br"});
}

std::string NamespaceNet::ns(int i) const { return prefix_ + "ns" + std::to_string(i); }
std::string NamespaceNet::ip(int i) const { return subnet_ + std::to_string(i + 1); }

bool NamespaceNet::limit(int i, const std::string& rate) {
  const std::string h = prefix_ + "h" + std::to_string(i), v = prefix_ + "n" + std::to_string(i);
  return sh({"tc", "qdisc", "add", "dev", h, "root", "tbf", "rate", rate, "burst", "32kbit", "latency", "400ms"}) &&
         sh({"ip", "netns", "exec", ns(i), "tc", "qdisc", "add", "dev", v, "root", "tbf", "rate", rate, "burst", "32kbit",
             "latency", "400ms"});
}

bool NamespaceNet::cut(int from, int to) {
  return sh({"ip", "netns", "exec", ns(from), "ip", "route", "add", "unreachable", ip(to) + "/32"});
}

bool NamespaceNet::sh(const std::vector<std::string>& argv) {
  CommandOptions o;
  o.timeout = std::chrono::seconds(10);
  const CommandResult r = run_command(argv, o);
  return r.ok();
}

}  // namespace npu_doctor::net::testing
