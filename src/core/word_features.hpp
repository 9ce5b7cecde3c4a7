#pragma once
// The features the word fallback reads from a line (docs/root-cause.md, "The word
// fallback"): words, word pairs and character n-grams of words, hashed into 2^bits
// buckets. Shared by the build-time trainer and the runtime scorer, so both see exactly
// the same features.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace npu_doctor {

struct WordFeatureConfig {
  uint32_t hash_bits = 20;  // buckets = 2^hash_bits
  uint32_t char_min = 3;    // character n-grams of each word (with < > marking its ends)
  uint32_t char_max = 5;
  bool word_pairs = true;   // adjacent word pairs
};

// The words of `text`, lower-cased: ASCII letter runs split at camel-case humps
// ("HcclCommInitRootInfo" -> hccl comm init root info) and at digits, underscores and
// punctuation; a compound that was split is kept whole as well ("runtimeerror"). Digits
// are dropped (numbers, addresses and dates say nothing about the layer), as are
// one-letter words. Each CJK character is a word of its own.
std::vector<std::string> split_words(std::string_view text);

// The hashed buckets of every feature of `text`, sorted, without repeats.
std::vector<uint32_t> feature_buckets(std::string_view text, const WordFeatureConfig& config);

// The stable 64-bit hash behind the buckets (FNV-1a, then a mixing step): the same on
// every platform and compiler, so a model trained on one machine scores on another.
uint64_t feature_hash(std::string_view feature);

}  // namespace npu_doctor
