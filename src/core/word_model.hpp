#pragma once
// The word fallback's model: a linear classifier over hashed word features, one weight
// vector per category (logistic regression, one against the rest, trained at build time
// by npu-doctor-wordc with liblinear). Written as bytes and embedded in the binary, so
// scoring needs no liblinear and no training: features, a dot product per category and
// the same normalisation liblinear's predict_probability uses.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "npu_doctor/vocabulary.hpp"
#include "word_features.hpp"

namespace npu_doctor {

struct WordModel {
  WordFeatureConfig features;
  // A fallback finding below this probability is a warning and never the root cause
  // (data/classifier/classifier.yaml says how it was calibrated).
  double root_threshold = 1.0;
  // Below this the line is not reported at all.
  double report_threshold = 1.0;
  // Lines of unknown level are candidates when one of these words is on them
  // ("failed", "error"...), lower-case, whole words.
  std::vector<std::string> error_words;
  // An error word does not count when one of these is among the two words before it or is
  // the word after it: "0 errors", "no device errors", "failures: 0".
  std::vector<std::string> negations;
  std::string version;            // the knowledge-base version it was trained from
  std::vector<Category> classes;  // the order of weights and biases
  std::vector<float> bias;        // per class
  std::vector<uint32_t> buckets;  // the features the model knows, sorted
  std::vector<float> weights;     // buckets.size() x classes.size(), row by row
  // The rows scoring reads: `buckets` and `weights`, or the model's bytes in place when
  // read_word_model was told they outlive the model (the one embedded in the binary).
  std::span<const uint32_t> bucket_rows() const { return in_place_ ? mapped_buckets_ : std::span<const uint32_t>(buckets); }
  std::span<const float> weight_rows() const { return in_place_ ? mapped_weights_ : std::span<const float>(weights); }

  // Probabilities of each class for `text`, in the order of `classes`. Empty when the
  // model has no classes.
  std::vector<double> probabilities(std::string_view text) const;

  // Builds the lookup table that finds a bucket's row in a few steps (read_word_model and
  // the trainer call it; without it rows are found by binary search).
  void index_buckets();

 private:
  // For the top kIndexBits bits of a bucket, the first row whose bucket has them (rows are
  // sorted by bucket): a feature is found in one of ~buckets/4096 rows, not log2(buckets).
  static constexpr uint32_t kIndexBits = 12;
  std::vector<uint32_t> first_row_;
  const float* row_of(uint32_t bucket) const;
  bool in_place_ = false;
  std::span<const uint32_t> mapped_buckets_;
  std::span<const float> mapped_weights_;
  friend std::optional<WordModel> read_word_model(std::string_view, bool);
};

struct WordPrediction {
  Category category = Category::other;
  double probability = 0;
};

// The most probable class (the first of equals).
WordPrediction best_prediction(const WordModel& model, std::string_view text);

std::string write_word_model(const WordModel& model);
// nullopt when `data` is not a well-formed model of this format. `data_outlives_model`: the
// rows are read in place (when the host is little-endian and they are aligned) instead of
// copied, 1.8 MB of start-up for the embedded model.
std::optional<WordModel> read_word_model(std::string_view data, bool data_outlives_model = false);

}  // namespace npu_doctor
