#include "net/endpoint.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "core/text_util.hpp"

namespace npu_doctor::net {
namespace {

bool valid_host(std::string_view h) {
  if (h.empty() || h.size() > 253) return false;
  return std::all_of(h.begin(), h.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' || c == ':' || c == '%';
  });
}

}  // namespace

std::string Endpoint::text() const {
  const std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return h + ":" + std::to_string(port);
}

std::optional<Endpoint> parse_endpoint(std::string_view s, uint16_t default_port, std::string* error) {
  auto fail = [&](std::string why) -> std::optional<Endpoint> {
    if (error != nullptr) *error = "'" + std::string(s) + "': " + why;
    return std::nullopt;
  };
  s = checks::trim(s);
  Endpoint e;
  e.port = default_port;
  std::string_view port_text;
  if (s.starts_with("[")) {
    const auto close = s.find(']');
    if (close == std::string_view::npos) return fail("missing ']' after an IPv6 address");
    e.host = std::string(s.substr(1, close - 1));
    const std::string_view rest = s.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return fail("expected ':PORT' after ']'");
      port_text = rest.substr(1);
    }
  } else if (std::count(s.begin(), s.end(), ':') == 1) {
    const auto colon = s.find(':');
    e.host = std::string(s.substr(0, colon));
    port_text = s.substr(colon + 1);
  } else {
    e.host = std::string(s);  // a name, an IPv4 address, or a bare IPv6 address
  }
  if (!valid_host(e.host)) return fail("not a host name or address");
  if (s.find('[') == std::string_view::npos && std::count(s.begin(), s.end(), ':') == 1 && port_text.empty()) {
    return fail("no port after ':'");
  }
  if (!port_text.empty()) {
    unsigned v = 0;
    auto [p, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), v);
    if (ec != std::errc() || p != port_text.data() + port_text.size() || v == 0 || v > 65535) {
      return fail("the port must be a number from 1 to 65535");
    }
    e.port = static_cast<uint16_t>(v);
  }
  return e;
}

std::optional<std::vector<HostFileEntry>> parse_hostfile(std::string_view text, uint16_t default_port,
                                                         std::string* error) {
  std::vector<HostFileEntry> out;
  std::size_t number = 0;
  for (std::string_view line : checks::split(text, '\n')) {
    ++number;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    line = checks::trim(line);
    if (line.empty()) continue;
    const std::string_view first = line.substr(0, line.find_first_of(" \t"));
    std::string why;
    auto e = parse_endpoint(first, default_port, &why);
    if (!e) {
      if (error != nullptr) *error = "line " + std::to_string(number) + ": " + why;
      return std::nullopt;
    }
    for (const auto& prev : out) {
      if (prev.endpoint == *e) {
        if (error != nullptr) {
          *error = "line " + std::to_string(number) + ": " + e->text() + " is already on line " + std::to_string(prev.line);
        }
        return std::nullopt;
      }
    }
    out.push_back({*e, number});
  }
  return out;
}

}  // namespace npu_doctor::net
