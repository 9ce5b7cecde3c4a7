#pragma once
// Where an `npu-doctor net serve` listens: "host", "host:port", "[ipv6]:port", and the
// host files of `net test --matrix` (one host per line; MPI hostfiles' "slots=8" ignored).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npu_doctor::net {

inline constexpr uint16_t kDefaultPort = 46300;

struct Endpoint {
  std::string host;
  uint16_t port = kDefaultPort;
  std::string text() const;  // "node-1:46300", "[fe80::1]:46300"
  bool operator==(const Endpoint&) const = default;
};

// nullopt (with `error`) when `s` is not HOST[:PORT].
std::optional<Endpoint> parse_endpoint(std::string_view s, uint16_t default_port, std::string* error = nullptr);

struct HostFileEntry {
  Endpoint endpoint;
  std::size_t line = 0;
};

// One host per line: "HOST[:PORT] [anything else]", '#' comments and blank lines skipped.
// nullopt (with "line N: ..." in `error`) on a malformed line or a host listed twice.
std::optional<std::vector<HostFileEntry>> parse_hostfile(std::string_view text, uint16_t default_port,
                                                         std::string* error = nullptr);

}  // namespace npu_doctor::net
