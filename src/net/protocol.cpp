#include "net/protocol.hpp"

namespace npu_doctor::net {

bool send_frame(int fd, FrameType type, std::string_view payload, Deadline deadline, NetError* error) {
  if (payload.size() > kMaxPayload) {
    if (error != nullptr) *error = {NetErrorKind::protocol, "frame too large"};
    return false;
  }
  const auto n = static_cast<uint32_t>(payload.size());
  const unsigned char header[kHeaderSize] = {'N',
                                             'D',
                                             static_cast<unsigned char>(type),
                                             0,
                                             static_cast<unsigned char>(n >> 24),
                                             static_cast<unsigned char>(n >> 16),
                                             static_cast<unsigned char>(n >> 8),
                                             static_cast<unsigned char>(n)};
  std::string buf(reinterpret_cast<const char*>(header), kHeaderSize);
  buf.append(payload);
  return send_all(fd, buf.data(), buf.size(), deadline, error);
}

std::optional<Frame> recv_frame(int fd, Deadline deadline, NetError* error) {
  unsigned char header[kHeaderSize];
  if (!recv_exact(fd, header, kHeaderSize, deadline, error)) return std::nullopt;
  const uint32_t n = (static_cast<uint32_t>(header[4]) << 24) | (static_cast<uint32_t>(header[5]) << 16) |
                     (static_cast<uint32_t>(header[6]) << 8) | static_cast<uint32_t>(header[7]);
  if (header[0] != 'N' || header[1] != 'D' || header[2] < 1 || header[2] > 10 || n > kMaxPayload) {
    if (error != nullptr) *error = {NetErrorKind::protocol, "the answer is not the npu-doctor protocol"};
    return std::nullopt;
  }
  Frame f;
  f.type = static_cast<FrameType>(header[2]);
  f.payload.resize(n);
  if (n > 0 && !recv_exact(fd, f.payload.data(), n, deadline, error)) return std::nullopt;
  return f;
}

}  // namespace npu_doctor::net
