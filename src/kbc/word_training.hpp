#pragma once
// Training the word fallback's model (build time only; links liblinear). The texts are
// the knowledge base's own (every entry's sample lines, name, title and cause in en and
// zh, labelled with the entry's category) plus the labelled lines of
// data/classifier/lines.tsv; the settings come from data/classifier/classifier.yaml.
// Same inputs, same model bytes.
#include <string>
#include <string_view>
#include <vector>

#include "npu_doctor/knowledge_base.hpp"
#include "word_model.hpp"

namespace npu_doctor {

struct TrainingText {
  Category category = Category::other;
  std::string text;
  std::string family;  // the knowledge-base family it came from ("lines" for lines.tsv)
  bool sample = false; // a log line (a sample or a labelled line), not prose
};

struct WordTrainingConfig {
  WordFeatureConfig features;
  double c = 1.0;             // liblinear's C (inverse regularisation)
  double eps = 0.01;          // liblinear's stopping tolerance
  uint32_t min_count = 2;     // a feature must occur in this many texts to be kept
  bool balanced = true;       // weight classes by 1 / their number of texts
  uint32_t sample_weight = 2; // log lines count this many times (prose once)
  double prune_below = 0.0;   // features whose weights are all smaller are dropped
  std::vector<std::string> exclude_families;  // not trained on (the fallback's own entries)
  bool include_catalogue = false;             // the message catalogue's generated entries too
  double root_threshold = 1.0;
  double report_threshold = 1.0;
  std::vector<std::string> error_words;
  std::vector<std::string> negations;
};

// Reads classifier.yaml; on a problem returns false and says why in `error`.
bool parse_word_training_config(std::string_view yaml, WordTrainingConfig& out, std::string& error);

// The labelled texts of a knowledge base.
std::vector<TrainingText> texts_from_kb(const KnowledgeBase& kb, const WordTrainingConfig& config);

// The labelled lines of lines.tsv: `category<TAB>line<TAB>source`, `#` comments. A bad row
// is reported as "<file>:<line>: ..." in `problems` and left out.
std::vector<TrainingText> texts_from_lines_tsv(std::string_view file_name, std::string_view content,
                                               std::vector<std::string>& problems);

// Trains the model (liblinear, L2-regularised logistic regression, one against the rest).
// `deviation`, when given, receives the largest difference between the probabilities the
// model gives (WordModel::probabilities) and liblinear's predict_probability over the
// training texts: the check that the scorer reads the weights as liblinear meant them.
WordModel train_word_model(const std::vector<TrainingText>& texts, const WordTrainingConfig& config,
                           std::string version, double* deviation = nullptr);

}  // namespace npu_doctor
