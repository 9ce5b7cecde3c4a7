// The matcher image: the second stage's index and the first stage's list of patterns
// outside the gate, computed once by npu-doctor-kbc for the built-in knowledge base and read
// in place at start-up (docs/scanning.md, "Start-up"). Computing them took about half of a
// short run's time: sorting and hashing some 350,000 keys and reading every catalogue record.
#include "kb_matcher.hpp"
#include "fnv1a.hpp"
#include "npu_doctor/catalogue.hpp"
#include "snapshot_io.hpp"

namespace npu_doctor {
namespace {

constexpr std::string_view kImageMagic = "NPUDMIX1";

// A change anywhere in the hand-written patterns changes it: each string with its length,
// each number as 8 little-endian bytes.
class Fingerprint {
 public:
  void add(std::string_view bytes) {
    add_number(bytes.size());
    hash_ = fnv1a(hash_, bytes);
  }
  void add_number(uint64_t v) {
    char le[8];
    for (std::size_t i = 0; i < 8; ++i) le[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
    hash_ = fnv1a(hash_, std::string_view(le, sizeof le));
  }
  uint64_t value() const { return hash_; }

 private:
  uint64_t hash_ = kFnv1aBasis;
};

}  // namespace

uint64_t KbMatcher::fingerprint(const std::vector<std::vector<std::string_view>>& own_keys) const {
  Fingerprint f;
  f.add_number(refs_.size());
  f.add_number(catalogue_size_);
  for (std::size_t i = 0; i < refs_.size(); ++i) {
    const PatternRef& r = refs_[i];
    f.add(r.regex);
    f.add_number((r.ignore_case ? 1u : 0u) | (r.gated ? 2u : 0u) | (r.extractor != nullptr ? 4u : 0u));
    f.add_number(static_cast<uint64_t>(r.level));
    f.add_number(own_keys[i].size());
    for (std::string_view k : own_keys[i]) f.add(k);
  }
  return f.value();
}

std::string KbMatcher::write_image() const {
  snapshot_io::Writer w;
  w.bytes(kImageMagic);
  w.i64(static_cast<int64_t>(fingerprint_));
  std::vector<uint32_t> ungated;
  for (std::size_t i = 0; i < catalogue_size_; ++i) {
    if (!kb_.catalogue()->gated(i)) ungated.push_back(static_cast<uint32_t>(i));
  }
  w.u32(static_cast<uint32_t>(ungated.size()));
  for (uint32_t i : ungated) w.u32(i);
  w.u32(static_cast<uint32_t>(unindexed_ungated_.size()));
  for (std::size_t i : unindexed_ungated_) w.u32(static_cast<uint32_t>(i));
  w.align_next_str();
  w.str(index_.write_image());
  return w.take();
}

std::optional<KbMatcher::Image> KbMatcher::read_image(std::string_view bytes) {
  snapshot_io::Reader r(bytes);
  if (bytes.empty() || r.bytes(kImageMagic.size()) != kImageMagic) return std::nullopt;
  Image image;
  image.fingerprint = static_cast<uint64_t>(r.i64());
  image.ungated_catalogue.resize(r.count());
  for (auto& i : image.ungated_catalogue) i = r.u32();
  image.unindexed_ungated.resize(r.count());
  for (auto& i : image.unindexed_ungated) i = r.u32();
  r.skip_alignment();
  image.index = r.view();
  if (!r.ok() || !r.at_end()) return std::nullopt;
  return image;
}

}  // namespace npu_doctor
