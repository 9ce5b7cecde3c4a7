#pragma once
// SHA-256 for the bundle manifest's checksums and the pseudonyms of --anonymize: a thin
// wrapper over GNU Nettle, which libarchive already links.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <nettle/sha2.h>

namespace npu_doctor::bundle {

class Sha256 {
 public:
  Sha256();
  void update(std::string_view data);
  std::array<std::uint8_t, 32> finish();

 private:
  sha256_ctx ctx_{};
};

std::array<std::uint8_t, 32> sha256(std::string_view data);
std::string sha256_hex(std::string_view data);
std::string to_hex(const std::array<std::uint8_t, 32>& digest);

}  // namespace npu_doctor::bundle
