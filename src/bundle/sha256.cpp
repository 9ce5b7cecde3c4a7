#include "bundle/sha256.hpp"

namespace npu_doctor::bundle {

Sha256::Sha256() { sha256_init(&ctx_); }

void Sha256::update(std::string_view data) {
  sha256_update(&ctx_, data.size(), reinterpret_cast<const std::uint8_t*>(data.data()));
}

std::array<std::uint8_t, 32> Sha256::finish() {
  std::array<std::uint8_t, 32> digest{};
  sha256_digest(&ctx_, digest.size(), digest.data());
  return digest;
}

std::array<std::uint8_t, 32> sha256(std::string_view data) {
  Sha256 s;
  s.update(data);
  return s.finish();
}

std::string to_hex(const std::array<std::uint8_t, 32>& digest) {
  static const char* const kHex = "0123456789abcdef";
  std::string out;
  for (auto b : digest) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

std::string sha256_hex(std::string_view data) { return to_hex(sha256(data)); }

}  // namespace npu_doctor::bundle
