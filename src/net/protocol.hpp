#pragma once
// The wire protocol of `net serve` / `net test` (docs/net.md): frames of an 8-byte header
// ('N' 'D', type, 0, payload length as 32-bit big-endian) and a payload of at most 1 MiB,
// JSON for requests and answers. Throughput tests switch the connection to a raw byte
// stream after UPLOAD/READY or DOWNLOAD, and close it when done.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "net/socket.hpp"

namespace npu_doctor::net {

inline constexpr std::string_view kProtocol = "npu-doctor-net/1";
inline constexpr std::size_t kMaxPayload = 1u << 20;
inline constexpr std::size_t kHeaderSize = 8;
// The raw throughput streams are written and read in pieces of this size.
inline constexpr std::size_t kStreamChunk = 256u << 10;

enum class FrameType : uint8_t {
  hello = 1,     // both ways: {"protocol", "name", "version", ...}
  ping = 2,      // client: any payload, echoed
  pong = 3,      // server: the ping's payload
  upload = 4,    // client: {"ms": N}; then READY, raw bytes from the client, STATS
  ready = 5,     // server: ready for the upload stream
  stats = 6,     // server: {"bytes": B, "us": T} received in the upload window
  download = 7,  // client: {"ms": N}; then raw bytes from the server until it closes
  relay = 8,     // client: {"host", "port", "pings", "ms", ...}: test that server from here
  result = 9,    // server: the relayed link's result (JSON, see link_test.hpp)
  error = 10,    // either: a text saying why; the connection is closed after it
};

struct Frame {
  FrameType type = FrameType::error;
  std::string payload;
};

bool send_frame(int fd, FrameType type, std::string_view payload, Deadline deadline, NetError* error);

// nullopt on timeout, closed connection, or a header that is not this protocol
// (kind == protocol: "not an npu-doctor server").
std::optional<Frame> recv_frame(int fd, Deadline deadline, NetError* error);

}  // namespace npu_doctor::net
