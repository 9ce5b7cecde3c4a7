#pragma once
// FNV-1a, 64 bits: a cheap hash of bytes, for identities that must change when any byte
// does (the knowledge base's version, the matcher image's fingerprint) and the word model's
// feature buckets (before their finaliser). Not for anything an attacker chooses.
#include <cstdint>
#include <string_view>

namespace npu_doctor {

constexpr uint64_t kFnv1aBasis = 0xcbf29ce484222325ull;

inline uint64_t fnv1a(uint64_t h, std::string_view bytes) {
  for (char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace npu_doctor
