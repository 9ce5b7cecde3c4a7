#include "hccn_output.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>

#include "core/text_util.hpp"
#include "npu_doctor/text.hpp"

namespace npu_doctor::hccl {
namespace {

using checks::trim;

std::string lower(std::string_view s) { return checks::to_lower(s); }

// "... hccn_tool -i 3 -link -g" (with a prompt, a path, sudo ...): the device id.
std::optional<int> command_device(std::string_view line) {
  const auto p = line.find("hccn_tool");
  if (p == std::string_view::npos) return std::nullopt;
  static const std::regex re(R"(\s-i\s+(\d{1,4})\b)");
  std::match_results<std::string_view::const_iterator> m;
  const std::string_view rest = line.substr(p);
  if (!std::regex_search(rest.begin(), rest.end(), m, re)) return std::nullopt;
  return std::stoi(m[1].str());
}

// "[device 0]current time : ..." / "[devid 2]    Tue Jun ... LINK DOWN": the id and the rest.
std::optional<std::pair<int, std::string_view>> device_prefix(std::string_view line) {
  // Cheap tests before each std::regex: a tool printing megabytes must not take minutes.
  const std::string_view t = trim(line);
  if (t.empty() || t.front() != '[') return std::nullopt;
  static const std::regex re(R"(^\s*\[(?:device|devid|dev)\s*(\d{1,4})\]\s*)", std::regex::icase);
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_search(line.begin(), line.end(), m, re)) return std::nullopt;
  return std::make_pair(std::stoi(m[1].str()), line.substr(static_cast<std::size_t>(m.length(0))));
}

// The value after "key:" when the line starts with `key` (case-insensitive).
std::optional<std::string> value_after(std::string_view line, std::string_view key) {
  const std::string t = lower(trim(line));
  if (!t.starts_with(key)) return std::nullopt;
  std::string_view rest = trim(line);
  rest.remove_prefix(key.size());
  rest = trim(rest);
  if (rest.empty() || (rest.front() != ':' && rest.front() != '=')) return std::nullopt;
  rest.remove_prefix(1);
  return std::string(trim(rest));
}

constexpr std::size_t kMaxLineBytes = 4096;

class Parser {
 public:
  Parser(std::string source, std::optional<int> device) : current_(device) { out_.source = std::move(source); }

  HccnCapture run(std::string_view text) {
    std::size_t number = 0;
    for (std::string_view raw : checks::split(text, '\n')) {
      ++number;
      if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
      line(raw, number);
    }
    std::sort(out_.devices.begin(), out_.devices.end(), [](const HccnDevice& a, const HccnDevice& b) { return a.id < b.id; });
    return std::move(out_);
  }

 private:
  HccnDevice& device(int id, bool from_order) {
    for (auto& d : out_.devices) {
      if (d.id == id) return d;
    }
    out_.devices.push_back({});
    out_.devices.back().id = id;
    out_.devices.back().id_from_order = from_order;
    return out_.devices.back();
  }

  // The device an answer of kind `kind` belongs to: the last command's, else the n-th of its kind.
  HccnDevice& target(const std::string& kind) {
    if (current_) return device(*current_, false);
    return device(order_[kind]++, true);
  }

  void line(std::string_view raw, std::size_t number) {
    const std::string_view t = trim(raw);
    // hccn_tool answers in short lines; std::regex recurses per character and overflows
    // the stack on a long one (a binary blob, a file without line ends), so skip those.
    if (t.empty() || t.size() > kMaxLineBytes) return;
    if (auto id = command_device(t)) {
      current_ = *id;
      return;
    }
    std::optional<int> prefixed;
    std::string_view body = t;
    if (auto p = device_prefix(t)) {
      prefixed = p->first;
      body = trim(p->second);
    }
    const HccnLine at{out_.source, number, sanitize_line(utf8_prefix(t, 400))};
    auto pick = [&](const std::string& kind) -> HccnDevice& {
      if (prefixed) return device(*prefixed, false);
      return target(kind);
    };
    if (auto v = value_after(body, "link status")) {
      HccnDevice& d = pick("link");
      d.link = *v;
      d.link_at = at;
    } else if (auto h = value_after(body, "net health status")) {
      HccnDevice& d = pick("health");
      d.health = *h;
      d.health_at = at;
    } else if (auto ip = value_after(body, "ipaddr")) {
      HccnDevice& d = pick("ip");
      d.ip = *ip;
      d.ip_at = at;
    } else if (auto mask = value_after(body, "netmask")) {
      HccnDevice& d = current_ || prefixed ? pick("netmask") : device(std::max(0, order_["ip"] - 1), true);
      d.netmask = *mask;
    } else if (lower(body).find("no ip was preset") != std::string::npos ||
               lower(body).starts_with("get ipconf failed")) {
      HccnDevice& d = pick("ip");
      d.ip_not_set = true;
      d.ip_at = at;
    } else if (auto tls = tls_switch(body)) {
      HccnDevice& d = pick("tls");
      d.tls_switch = *tls;
      d.tls_at = at;
    } else if (auto count = value_after(body, "link up count")) {
      HccnDevice& d = pick("link_stat");
      d.link_up_count = checks::to_integer(*count);
    } else if (auto ev = link_event(body)) {
      HccnDevice& d = prefixed ? device(*prefixed, false) : (current_ ? device(*current_, false) : device(std::max(0, order_["link_stat"] - 1), true));
      ev->where = at;
      d.link_events.push_back(std::move(*ev));
    } else if (lower(body).find("current time") != std::string::npos || lower(body).find("link change records") != std::string::npos) {
      // -link_stat headers: nothing to keep.
    } else if (is_failure(body) && (current_ || prefixed)) {
      device(prefixed ? *prefixed : *current_, false).errors.push_back(at);
    } else {
      return;
    }
    ++out_.recognised_lines;
  }

  static std::optional<int> tls_switch(std::string_view body) {
    if (lower(body).find("tls") == std::string::npos) return std::nullopt;
    static const std::regex re(R"(tls\s+switch\s*[\[\(]\s*(\d)\s*[\]\)])", std::regex::icase);
    std::match_results<std::string_view::const_iterator> m;
    if (!std::regex_search(body.begin(), body.end(), m, re)) return std::nullopt;
    return m[1].str()[0] - '0';
  }

  static std::optional<HccnLinkEvent> link_event(std::string_view body) {
    if (lower(body).find("link") == std::string::npos) return std::nullopt;
    static const std::regex re(R"(^(.*?)\s*LINK\s+(UP|DOWN)\s*$)", std::regex::icase);
    std::match_results<std::string_view::const_iterator> m;
    if (!std::regex_search(body.begin(), body.end(), m, re)) return std::nullopt;
    HccnLinkEvent e;
    e.time = std::string(trim(m[1].str()));
    e.up = lower(m[2].str()) == "up";
    return e;
  }

  static bool is_failure(std::string_view body) {
    const std::string l = lower(body);
    return l.find("failed") != std::string::npos || l.find("error") != std::string::npos ||
           l.find("not support") != std::string::npos || l.find("invalid") != std::string::npos;
  }

  HccnCapture out_;
  std::optional<int> current_;
  std::map<std::string, int> order_;
};

}  // namespace

HccnCapture parse_hccn_output(std::string source, std::string_view text, std::optional<int> device) {
  return Parser(std::move(source), device).run(text);
}

std::vector<HccnDevice> merge_devices(const std::vector<HccnCapture>& captures) {
  std::map<int, HccnDevice> by_id;
  for (const auto& c : captures) {
    for (const auto& d : c.devices) {
      auto [it, fresh] = by_id.emplace(d.id, d);
      if (fresh) continue;
      HccnDevice& m = it->second;
      if (d.link) {
        m.link = d.link;
        m.link_at = d.link_at;
      }
      if (d.health) {
        m.health = d.health;
        m.health_at = d.health_at;
      }
      if (d.ip || d.ip_not_set) {
        m.ip = d.ip;
        m.ip_not_set = d.ip_not_set;
        m.ip_at = d.ip_at;
      }
      if (d.netmask) m.netmask = d.netmask;
      if (d.tls_switch) {
        m.tls_switch = d.tls_switch;
        m.tls_at = d.tls_at;
      }
      if (d.link_up_count) m.link_up_count = d.link_up_count;
      m.link_events.insert(m.link_events.end(), d.link_events.begin(), d.link_events.end());
      m.errors.insert(m.errors.end(), d.errors.begin(), d.errors.end());
      m.id_from_order = m.id_from_order && d.id_from_order;
    }
  }
  std::vector<HccnDevice> out;
  for (auto& [id, d] : by_id) out.push_back(std::move(d));
  return out;
}

const std::vector<HccnQuery>& hccn_queries() {
  static const std::vector<HccnQuery> q = {
      {"-link", "link status"}, {"-net_health", "network health"}, {"-ip", "IP address"},
      {"-tls", "TLS switch"},   {"-link_stat", "link changes"}};
  return q;
}

std::string_view classify_health(std::string_view status) {
  const std::string s = lower(trim(status));
  if (s == "success" || s == "0" || s == "healthy" || s == "ok") return "ok";
  if (s == "init" || s == "6") return "init";
  static const char* const kFaults[] = {"fault",       "socket fail", "socket failed", "receive timeout", "unreachable",
                                        "time exceeded", "thread error", "detect ip set", "1", "2", "3", "4", "5", "7", "8"};
  for (const char* f : kFaults) {
    if (s == f) return "fault";
  }
  return "unknown";
}

}  // namespace npu_doctor::hccl
