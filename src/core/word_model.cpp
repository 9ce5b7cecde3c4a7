#include "word_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace npu_doctor {
namespace {

// "NPUDWM" + format version. Integers and floats are written little-endian whatever the
// host, so a model built on one machine reads on another.
constexpr std::string_view kModelMagic = "NPUDWM3\n";
constexpr uint32_t kMaxClasses = 64;
constexpr uint32_t kMaxWords = 1024;

class ModelWriter {
 public:
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) out_ += static_cast<char>((v >> (8 * i)) & 0xFF);
  }
  void f32(float v) { u32(std::bit_cast<uint32_t>(v)); }
  void str(std::string_view s) {
    u32(static_cast<uint32_t>(s.size()));
    out_ += s;
  }
  // A count of zeros, then the zeros, so that what follows starts 4-byte aligned (read in place).
  void align4() {
    const std::size_t pad = (4 - (out_.size() + 4) % 4) % 4;
    u32(static_cast<uint32_t>(pad));
    out_.append(pad, '\0');
  }
  std::string take() { return std::move(out_); }
  std::string out_;
};

class ModelReader {
 public:
  explicit ModelReader(std::string_view d) : d_(d) {}
  bool ok() const { return ok_; }
  bool done() const { return ok_ && pos_ == d_.size(); }
  uint32_t u32() {
    if (!need(4)) return 0;
    uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<unsigned char>(d_[pos_ + i])) << (8 * i);
    pos_ += 4;
    return v;
  }
  float f32() { return std::bit_cast<float>(u32()); }
  std::string str() {
    const uint32_t n = u32();
    if (!need(n)) return {};
    std::string s(d_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  void skip_alignment() {
    const uint32_t pad = u32();
    if (pad >= 4 || !need(pad)) ok_ = false;
    else pos_ += pad;
  }
  // `n` 4-byte values in place, or an empty span when they are not aligned for T (then the
  // caller copies them with array()).
  template <typename T>
  std::span<const T> view(std::size_t n) {
    static_assert(sizeof(T) == 4);
    if (std::endian::native != std::endian::little || !room_for(n, 4)) return {};
    const void* at = d_.data() + pos_;
    if (reinterpret_cast<std::uintptr_t>(at) % alignof(T) != 0) return {};
    pos_ += n * 4;
    return std::span<const T>(static_cast<const T*>(at), n);
  }
  bool expect(std::string_view s) {
    if (!need(s.size()) || d_.substr(pos_, s.size()) != s) return ok_ = false;
    pos_ += s.size();
    return true;
  }
  // Room for `count` items of `size` bytes, checked without overflow.
  bool room_for(uint64_t count, uint64_t size) {
    if (ok_ && size != 0 && count > (d_.size() - pos_) / size) ok_ = false;
    return ok_;
  }
  // `out.size()` little-endian 4-byte values (uint32_t or float) at once: a plain copy on a
  // little-endian host (x86-64, aarch64), so start-up does not pay for a megabyte of model.
  template <typename T>
  void array(std::vector<T>& out) {
    static_assert(sizeof(T) == 4);
    if (!room_for(out.size(), 4)) return;
    if constexpr (std::endian::native == std::endian::little) {
      if (!out.empty()) std::memcpy(out.data(), d_.data() + pos_, out.size() * 4);
      pos_ += out.size() * 4;
    } else {
      for (auto& x : out) x = std::bit_cast<T>(u32());
    }
  }

 private:
  bool need(std::size_t n) {
    if (!ok_ || n > d_.size() - pos_) ok_ = false;
    return ok_;
  }
  std::string_view d_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

bool finite_probability(double p) { return std::isfinite(p) && p >= 0 && p <= 1; }

}  // namespace

void WordModel::index_buckets() {
  first_row_.clear();
  const uint32_t bits = std::min(kIndexBits, features.hash_bits);
  const uint32_t shift = features.hash_bits - bits;
  first_row_.assign((std::size_t{1} << bits) + 1, 0);
  std::size_t row = 0;
  for (std::size_t top = 0; top + 1 < first_row_.size(); ++top) {
    first_row_[top] = static_cast<uint32_t>(row);
    while (row < bucket_rows().size() && (bucket_rows()[row] >> shift) == top) ++row;
  }
  first_row_.back() = static_cast<uint32_t>(bucket_rows().size());
}

const float* WordModel::row_of(uint32_t bucket) const {
  const std::span<const uint32_t> rows = bucket_rows();
  auto from = rows.begin();
  auto to = rows.end();
  if (!first_row_.empty()) {
    const uint32_t bits = std::min(kIndexBits, features.hash_bits);
    const std::size_t top = bucket >> (features.hash_bits - bits);
    if (top + 1 >= first_row_.size()) return nullptr;
    from = rows.begin() + first_row_[top];
    to = rows.begin() + first_row_[top + 1];
  }
  const auto it = std::lower_bound(from, to, bucket);
  if (it == to || *it != bucket) return nullptr;
  return weight_rows().data() + static_cast<std::size_t>(it - rows.begin()) * classes.size();
}

std::vector<double> WordModel::probabilities(std::string_view text) const {
  const std::size_t k = classes.size();
  std::vector<double> dec(k, 0.0);
  if (k == 0) return dec;
  const std::vector<uint32_t> feats = feature_buckets(text, features);
  for (uint32_t b : feats) {
    const float* row = row_of(b);
    if (row == nullptr) continue;
    for (std::size_t c = 0; c < k; ++c) dec[c] += static_cast<double>(row[c]);
  }
  // Training gave each feature of a text 1/sqrt(its number of features), known or not.
  const double scale = feats.empty() ? 0.0 : 1.0 / std::sqrt(static_cast<double>(feats.size()));
  double sum = 0;
  for (std::size_t c = 0; c < k; ++c) {
    dec[c] = 1.0 / (1.0 + std::exp(-(dec[c] * scale + static_cast<double>(bias[c]))));
    sum += dec[c];
  }
  // liblinear's one-against-the-rest normalisation.
  for (double& p : dec) p /= sum;
  return dec;
}

WordPrediction best_prediction(const WordModel& model, std::string_view text) {
  const auto p = model.probabilities(text);
  WordPrediction best;
  for (std::size_t c = 0; c < p.size(); ++c) {
    if (c == 0 || p[c] > best.probability) best = {model.classes[c], p[c]};
  }
  return best;
}

std::string write_word_model(const WordModel& m) {
  ModelWriter w;
  w.out_ += kModelMagic;
  w.u32(m.features.hash_bits);
  w.u32(m.features.char_min);
  w.u32(m.features.char_max);
  w.u32(m.features.word_pairs ? 1 : 0);
  w.f32(static_cast<float>(m.root_threshold));
  w.f32(static_cast<float>(m.report_threshold));
  w.str(m.version);
  w.u32(static_cast<uint32_t>(m.error_words.size()));
  for (const auto& s : m.error_words) w.str(s);
  w.u32(static_cast<uint32_t>(m.negations.size()));
  for (const auto& s : m.negations) w.str(s);
  w.u32(static_cast<uint32_t>(m.classes.size()));
  for (std::size_t c = 0; c < m.classes.size(); ++c) {
    w.str(to_string(m.classes[c]));
    w.f32(c < m.bias.size() ? m.bias[c] : 0.0f);
  }
  w.u32(static_cast<uint32_t>(m.bucket_rows().size()));
  w.align4();
  for (uint32_t b : m.bucket_rows()) w.u32(b);
  for (float x : m.weight_rows()) w.f32(x);
  return w.take();
}

std::optional<WordModel> read_word_model(std::string_view data, bool data_outlives_model) {
  ModelReader r(data);
  if (!r.expect(kModelMagic)) return std::nullopt;
  WordModel m;
  m.features.hash_bits = r.u32();
  m.features.char_min = r.u32();
  m.features.char_max = r.u32();
  m.features.word_pairs = r.u32() != 0;
  if (m.features.hash_bits < 8 || m.features.hash_bits > 32 || m.features.char_min < 1 ||
      m.features.char_max < m.features.char_min || m.features.char_max > 16) {
    return std::nullopt;
  }
  m.root_threshold = static_cast<double>(r.f32());
  m.report_threshold = static_cast<double>(r.f32());
  if (!finite_probability(m.root_threshold) || !finite_probability(m.report_threshold)) return std::nullopt;
  m.version = r.str();
  const uint32_t words = r.u32();
  if (words > kMaxWords) return std::nullopt;
  for (uint32_t i = 0; i < words && r.ok(); ++i) m.error_words.push_back(r.str());
  const uint32_t negations = r.u32();
  if (negations > kMaxWords) return std::nullopt;
  for (uint32_t i = 0; i < negations && r.ok(); ++i) m.negations.push_back(r.str());
  const uint32_t classes = r.u32();
  if (classes > kMaxClasses) return std::nullopt;
  for (uint32_t c = 0; c < classes && r.ok(); ++c) {
    const auto cat = parse_category(r.str());
    const float b = r.f32();
    if (!cat || !std::isfinite(b)) return std::nullopt;
    m.classes.push_back(*cat);
    m.bias.push_back(b);
  }
  const uint32_t rows = r.u32();
  r.skip_alignment();
  if (!r.room_for(rows, 4 + 4ull * classes)) return std::nullopt;
  const std::size_t cells = static_cast<std::size_t>(rows) * classes;
  if (data_outlives_model) {
    m.mapped_buckets_ = r.view<uint32_t>(rows);
    if (m.mapped_buckets_.size() == rows) m.mapped_weights_ = r.view<float>(cells);
    m.in_place_ = m.mapped_buckets_.size() == rows && m.mapped_weights_.size() == cells;
  }
  if (!m.in_place_) {
    m.buckets.resize(rows);
    r.array(m.buckets);
    m.weights.resize(cells);
    r.array(m.weights);
  }
  const auto weights = m.weight_rows();
  const auto buckets = m.bucket_rows();
  if (!std::all_of(weights.begin(), weights.end(), [](float x) { return std::isfinite(x); })) return std::nullopt;
  if (!r.done() || !std::is_sorted(buckets.begin(), buckets.end()) ||
      std::adjacent_find(buckets.begin(), buckets.end()) != buckets.end() ||
      (!buckets.empty() && m.features.hash_bits < 32 && buckets.back() >> m.features.hash_bits != 0)) {
    return std::nullopt;
  }
  m.index_buckets();
  return m;
}

}  // namespace npu_doctor
