#include "net/link_test.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "net/json_fields.hpp"
#include "net/pacer.hpp"
#include "net/protocol.hpp"
#include "net/socket.hpp"
#include "npu_doctor/version.hpp"

namespace npu_doctor::net {
namespace {

using json = nlohmann::json;
using std::chrono::milliseconds;


milliseconds grace(const LinkTestOptions& o) { return std::max(milliseconds(2000), o.duration); }

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

LinkStatus status_of(NetErrorKind k) {
  switch (k) {
    case NetErrorKind::refused: return LinkStatus::refused;
    case NetErrorKind::timeout: return LinkStatus::timeout;
    case NetErrorKind::unreachable: return LinkStatus::unreachable;
    case NetErrorKind::unresolved: return LinkStatus::unresolved;
    default: return LinkStatus::failed;
  }
}

std::string seconds_text(milliseconds d) {
  const double s = static_cast<double>(d.count()) / 1000.0;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g s", s);
  return buf;
}

// A connection that has exchanged greetings with an npu-doctor server.
struct Session {
  Connection conn;
  std::string peer_name;
};

// Connects and greets. On failure fills status and error of `r` and returns nullopt.
std::optional<Session> open_session(const Endpoint& to, const LinkTestOptions& o, LinkResult& r, double* connect_ms) {
  NetError err;
  const auto t0 = Clock::now();
  auto conn = connect_to(to, after(o.connect_timeout), &err);
  if (!conn) {
    r.status = status_of(err.kind);
    r.error = err.kind == NetErrorKind::timeout ? "no answer to the connection request within " + seconds_text(o.connect_timeout)
                                                 : err.message;
    return std::nullopt;
  }
  if (connect_ms != nullptr) *connect_ms = ms_since(t0);
  const json hello = {{"protocol", kProtocol}, {"name", o.self_name}, {"version", kVersion}};
  if (!send_frame(conn->fd.get(), FrameType::hello, hello.dump(), after(o.answer_timeout), &err)) {
    r.status = err.kind == NetErrorKind::closed ? LinkStatus::not_npu_doctor : LinkStatus::failed;
    r.error = err.kind == NetErrorKind::closed ? "the connection was accepted and closed without an answer"
                                               : "sending the greeting failed: " + err.message;
    return std::nullopt;
  }
  auto answer = recv_frame(conn->fd.get(), after(o.answer_timeout), &err);
  if (!answer) {
    if (err.kind == NetErrorKind::timeout) {
      r.status = LinkStatus::no_answer;
      r.error = "the connection was accepted but nothing answered within " + seconds_text(o.answer_timeout);
    } else if (err.kind == NetErrorKind::closed) {
      r.status = LinkStatus::not_npu_doctor;
      r.error = "the connection was accepted and closed without an answer";
    } else {
      r.status = LinkStatus::not_npu_doctor;
      r.error = err.message;
    }
    return std::nullopt;
  }
  if (answer->type == FrameType::error) {
    r.status = LinkStatus::failed;
    r.error = "the server refused: " + answer->payload;
    return std::nullopt;
  }
  const json j = json::parse(answer->payload, nullptr, false);
  if (answer->type != FrameType::hello || !j.is_object() || string_field(j, "protocol") != kProtocol) {
    r.status = LinkStatus::not_npu_doctor;
    r.error = "the answer is not an npu-doctor greeting";
    return std::nullopt;
  }
  r.address = conn->address;
  return Session{std::move(*conn), string_field(j, "name")};
}

RttStats run_pings(int fd, const LinkTestOptions& o) {
  std::vector<double> samples;
  int sent = 0;
  for (int i = 0; i < o.pings; ++i) {
    char payload[8];
    std::memcpy(payload, &i, sizeof i);
    std::memset(payload + sizeof i, 0, sizeof payload - sizeof i);
    const auto t0 = Clock::now();
    NetError err;
    ++sent;
    if (!send_frame(fd, FrameType::ping, std::string_view(payload, sizeof payload), after(o.answer_timeout), &err)) break;
    auto pong = recv_frame(fd, after(o.answer_timeout), &err);
    if (!pong || pong->type != FrameType::pong || pong->payload != std::string_view(payload, sizeof payload)) break;
    samples.push_back(ms_since(t0));
  }
  // After a missed answer the stream is out of step: the rest count as unanswered.
  return rtt_stats(std::move(samples), static_cast<std::size_t>(o.pings));
}

Throughput measure_send(const Endpoint& to, const LinkTestOptions& o) {
  Throughput t;
  LinkResult scratch;
  auto s = open_session(to, o, scratch, nullptr);
  if (!s) {
    t.error = "send test: " + scratch.error;
    return t;
  }
  const int fd = s->conn.fd.get();
  NetError err;
  const json req = {{"ms", o.duration.count()}};
  if (!send_frame(fd, FrameType::upload, req.dump(), after(o.answer_timeout), &err)) {
    t.error = "send test: " + err.message;
    return t;
  }
  auto ready = recv_frame(fd, after(o.answer_timeout), &err);
  if (!ready || ready->type != FrameType::ready) {
    t.error = "send test: the server did not get ready (" + (ready ? ready->payload : err.message) + ")";
    return t;
  }
  // Stream until the server reports what it received in its window.
  const std::string chunk(kStreamChunk, '\0');
  const Deadline deadline = after(o.duration + grace(o) + o.answer_timeout);
  Pacer pacer(o.max_rate);
  bool peer_closed = false;
  while (Clock::now() < deadline) {
    pollfd p{fd, static_cast<short>(POLLIN | (peer_closed ? 0 : POLLOUT)), 0};
    const int pr = ::poll(&p, 1, std::min(ms_left(deadline), 200));
    if (pr < 0 && errno != EINTR) break;
    if (pr <= 0) continue;
    if ((p.revents & POLLIN) != 0) {
      auto stats = recv_frame(fd, after(o.answer_timeout), &err);
      if (stats && stats->type == FrameType::stats) {
        const json j = json::parse(stats->payload, nullptr, false);
        if (j.is_object()) {
          t.bytes = uint_field(j, "bytes", 0);
          t.seconds = static_cast<double>(uint_field(j, "us", 0)) / 1e6;
          t.measured = t.seconds > 0;
          t.bits_per_second = t.measured ? static_cast<double>(t.bytes) * 8 / t.seconds : 0;
          if (!t.measured) t.error = "send test: no data reached the server";
        }
      } else {
        t.error = "send test: " + (stats ? "unexpected answer" : err.message);
      }
      return t;
    }
    if ((p.revents & POLLOUT) != 0) {
      const ssize_t w = ::send(fd, chunk.data(), chunk.size(), MSG_NOSIGNAL);
      if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) peer_closed = true;
      if (w > 0) pacer.account(static_cast<std::size_t>(w), deadline);
    }
    if ((p.revents & (POLLERR | POLLHUP)) != 0 && (p.revents & POLLIN) == 0) break;
  }
  t.error = "send test: the server did not report within " + seconds_text(o.duration + grace(o) + o.answer_timeout);
  return t;
}

Throughput measure_receive(const Endpoint& to, const LinkTestOptions& o) {
  Throughput t;
  LinkResult scratch;
  auto s = open_session(to, o, scratch, nullptr);
  if (!s) {
    t.error = "receive test: " + scratch.error;
    return t;
  }
  const int fd = s->conn.fd.get();
  NetError err;
  const json req = {{"ms", o.duration.count()}};
  if (!send_frame(fd, FrameType::download, req.dump(), after(o.answer_timeout), &err)) {
    t.error = "receive test: " + err.message;
    return t;
  }
  std::vector<char> buf(kStreamChunk);
  Pacer pacer(o.max_rate);
  std::optional<Clock::time_point> first;
  Deadline window_end = after(o.answer_timeout);  // until the first byte: the answer timeout
  for (;;) {
    if (!wait_readable(fd, window_end)) break;
    const ssize_t r = ::recv(fd, buf.data(), buf.size(), 0);
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) continue;
    if (r <= 0) break;  // the server closed (its own cap) or reset
    if (!first) {
      first = Clock::now();
      window_end = *first + o.duration;
      continue;  // the first read only starts the clock
    }
    t.bytes += static_cast<uint64_t>(r);
    pacer.account(static_cast<std::size_t>(r), window_end);
    if (Clock::now() >= window_end) break;
  }
  if (!first) {
    t.error = "receive test: no data from the server within " + seconds_text(o.answer_timeout);
    return t;
  }
  t.seconds = std::chrono::duration<double>(std::min(Clock::now(), window_end) - *first).count();
  t.measured = t.seconds > 0 && t.bytes > 0;
  if (t.measured) t.bits_per_second = static_cast<double>(t.bytes) * 8 / t.seconds;
  else t.error = "receive test: the stream stopped at once";
  return t;
}

json throughput_json(const Throughput& t) {
  return {{"measured", t.measured}, {"bytes", t.bytes}, {"seconds", t.seconds}, {"bits_per_second", t.bits_per_second},
          {"error", t.error.empty() ? json(nullptr) : json(t.error)}};
}

Throughput throughput_from(const json& j) {
  Throughput t;
  if (!j.is_object()) return t;
  t.measured = bool_field(j, "measured", false);
  t.bytes = uint_field(j, "bytes", 0);
  t.seconds = number_field(j, "seconds", 0.0);
  t.bits_per_second = number_field(j, "bits_per_second", 0.0);
  if (j.contains("error") && j["error"].is_string()) t.error = j["error"].get<std::string>();
  return t;
}

}  // namespace

std::string_view to_string(LinkStatus s) {
  switch (s) {
    case LinkStatus::ok: return "ok";
    case LinkStatus::refused: return "refused";
    case LinkStatus::timeout: return "timeout";
    case LinkStatus::unreachable: return "unreachable";
    case LinkStatus::unresolved: return "unresolved";
    case LinkStatus::no_answer: return "no_answer";
    case LinkStatus::not_npu_doctor: return "not_npu_doctor";
    case LinkStatus::failed: return "failed";
    case LinkStatus::not_tested: return "not_tested";
  }
  return "failed";
}

std::optional<LinkStatus> parse_link_status(std::string_view s) {
  for (auto v : {LinkStatus::ok, LinkStatus::refused, LinkStatus::timeout, LinkStatus::unreachable, LinkStatus::unresolved,
                 LinkStatus::no_answer, LinkStatus::not_npu_doctor, LinkStatus::failed, LinkStatus::not_tested}) {
    if (to_string(v) == s) return v;
  }
  return std::nullopt;
}

RttStats rtt_stats(std::vector<double> samples, std::size_t sent) {
  RttStats s;
  s.sent = sent;
  s.answered = samples.size();
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  auto pct = [&](double p) {
    const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(samples.size())));
    return samples[std::clamp<std::size_t>(rank, 1, samples.size()) - 1];
  };
  s.min_ms = samples.front();
  s.max_ms = samples.back();
  s.p50_ms = pct(50);
  s.p90_ms = pct(90);
  s.p99_ms = pct(99);
  double sum = 0;
  for (double v : samples) sum += v;
  s.mean_ms = sum / static_cast<double>(samples.size());
  return s;
}

std::chrono::milliseconds worst_case(const LinkTestOptions& o) {
  const milliseconds session = o.connect_timeout + 2 * o.answer_timeout;
  milliseconds total = session + o.answer_timeout * std::max(0, o.pings);
  if (o.duration.count() > 0) total += 2 * (session + o.duration + grace(o) + o.answer_timeout);
  return total;
}

LinkResult test_link(const Endpoint& to, const LinkTestOptions& o) {
  LinkResult r;
  r.to = to.text();
  double connect_ms = -1;
  auto s = open_session(to, o, r, &connect_ms);
  r.connect_ms = connect_ms;
  if (!s) return r;
  r.peer_name = s->peer_name;
  r.status = LinkStatus::ok;
  if (o.pings > 0) r.rtt = run_pings(s->conn.fd.get(), o);
  s->conn.fd.reset();
  if (o.duration.count() > 0) {
    r.send = measure_send(to, o);
    r.receive = measure_receive(to, o);
    for (const Throughput* t : {&r.send, &r.receive}) {
      if (!t->measured && r.error.empty()) {
        r.status = LinkStatus::failed;
        r.error = t->error;
      }
    }
  }
  return r;
}

LinkResult relay_test(const Endpoint& via, const Endpoint& target, const LinkTestOptions& o) {
  LinkResult r;
  r.from = via.text();
  r.to = target.text();
  LinkResult control;
  auto s = open_session(via, o, control, nullptr);
  if (!s) {
    r.status = LinkStatus::not_tested;
    r.error = "could not ask " + via.text() + " to test it: " + control.error;
    return r;
  }
  const json req = {{"host", target.host},
                    {"port", target.port},
                    {"pings", o.pings},
                    {"ms", o.duration.count()},
                    {"connect_ms", o.connect_timeout.count()},
                    {"answer_ms", o.answer_timeout.count()}};
  NetError err;
  if (!send_frame(s->conn.fd.get(), FrameType::relay, req.dump(), after(o.answer_timeout), &err)) {
    r.status = LinkStatus::not_tested;
    r.error = "could not ask " + via.text() + " to test it: " + err.message;
    return r;
  }
  auto answer = recv_frame(s->conn.fd.get(), after(worst_case(o) + o.answer_timeout), &err);
  if (!answer || answer->type != FrameType::result) {
    r.status = LinkStatus::not_tested;
    r.error = via.text() + " did not report: " + (answer ? answer->payload : err.message);
    return r;
  }
  const json j = json::parse(answer->payload, nullptr, false);
  auto parsed = link_from_json(j);
  if (!parsed) {
    r.status = LinkStatus::not_tested;
    r.error = via.text() + " sent an unreadable result";
    return r;
  }
  parsed->from = via.text();
  parsed->to = target.text();
  return *parsed;
}

json to_json(const LinkResult& r) {
  json j = {{"from", r.from.empty() ? json(nullptr) : json(r.from)},
            {"to", r.to},
            {"address", r.address.empty() ? json(nullptr) : json(r.address)},
            {"peer_name", r.peer_name.empty() ? json(nullptr) : json(r.peer_name)},
            {"status", to_string(r.status)},
            {"error", r.error.empty() ? json(nullptr) : json(r.error)},
            {"connect_ms", r.connect_ms >= 0 ? json(r.connect_ms) : json(nullptr)}};
  if (r.rtt) {
    j["rtt"] = {{"sent", r.rtt->sent},     {"answered", r.rtt->answered}, {"min_ms", r.rtt->min_ms},
                {"p50_ms", r.rtt->p50_ms}, {"p90_ms", r.rtt->p90_ms},     {"p99_ms", r.rtt->p99_ms},
                {"max_ms", r.rtt->max_ms}, {"mean_ms", r.rtt->mean_ms}};
  } else {
    j["rtt"] = nullptr;
  }
  j["send"] = throughput_json(r.send);
  j["receive"] = throughput_json(r.receive);
  return j;
}

std::optional<LinkResult> link_from_json(const json& j) {
  if (!j.is_object() || !j.contains("status") || !j["status"].is_string()) return std::nullopt;
  const auto status = parse_link_status(j["status"].get<std::string>());
  if (!status) return std::nullopt;
  auto str = [&](const char* k) { return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : std::string(); };
  LinkResult r;
  r.status = *status;
  r.from = str("from");
  r.to = str("to");
  r.address = str("address");
  r.peer_name = str("peer_name");
  r.error = str("error");
  r.connect_ms = j.contains("connect_ms") && j["connect_ms"].is_number() ? j["connect_ms"].get<double>() : -1;
  if (j.contains("rtt") && j["rtt"].is_object()) {
    const json& t = j["rtt"];
    RttStats s;
    s.sent = static_cast<std::size_t>(uint_field(t, "sent", 0));
    s.answered = static_cast<std::size_t>(uint_field(t, "answered", 0));
    s.min_ms = number_field(t, "min_ms", 0.0);
    s.p50_ms = number_field(t, "p50_ms", 0.0);
    s.p90_ms = number_field(t, "p90_ms", 0.0);
    s.p99_ms = number_field(t, "p99_ms", 0.0);
    s.max_ms = number_field(t, "max_ms", 0.0);
    s.mean_ms = number_field(t, "mean_ms", 0.0);
    r.rtt = s;
  }
  if (j.contains("send")) r.send = throughput_from(j["send"]);
  if (j.contains("receive")) r.receive = throughput_from(j["receive"]);
  return r;
}

}  // namespace npu_doctor::net
