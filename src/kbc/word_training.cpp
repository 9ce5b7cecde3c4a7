#include "word_training.hpp"

#include <linear.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>

namespace npu_doctor {
namespace {

void quiet(const char*) {}

template <typename T>
T get(const YAML::Node& n, const char* key, T fallback) {
  return n && n[key] ? n[key].as<T>() : fallback;
}

void add_text(std::vector<TrainingText>& out, const Entry& e, const std::string& text, bool sample) {
  if (!text.empty()) out.push_back({e.category, text, e.family, sample});
}

}  // namespace

bool parse_word_training_config(std::string_view yaml, WordTrainingConfig& out, std::string& error) {
  try {
    const YAML::Node root = YAML::Load(std::string(yaml));
    if (!root.IsMap() || get<std::string>(root, "schema", "") != "npu-doctor/word-classifier/v1") {
      error = "not a npu-doctor/word-classifier/v1 file";
      return false;
    }
    const YAML::Node f = root["features"];
    out.features.hash_bits = get<uint32_t>(f, "hash_bits", out.features.hash_bits);
    if (f && f["char_ngrams"]) {
      out.features.char_min = f["char_ngrams"][0].as<uint32_t>();
      out.features.char_max = f["char_ngrams"][1].as<uint32_t>();
    }
    out.features.word_pairs = get<bool>(f, "word_pairs", out.features.word_pairs);
    const YAML::Node t = root["training"];
    out.c = get<double>(t, "C", out.c);
    out.eps = get<double>(t, "eps", out.eps);
    out.min_count = get<uint32_t>(t, "min_count", out.min_count);
    out.balanced = get<bool>(t, "balanced", out.balanced);
    out.sample_weight = get<uint32_t>(t, "sample_weight", out.sample_weight);
    out.prune_below = get<double>(t, "prune_below", out.prune_below);
    if (t && t["exclude_families"]) out.exclude_families = t["exclude_families"].as<std::vector<std::string>>();
    out.include_catalogue = get<bool>(t, "include_catalogue", out.include_catalogue);
    const YAML::Node th = root["thresholds"];
    out.root_threshold = get<double>(th, "root_cause", out.root_threshold);
    out.report_threshold = get<double>(th, "report", out.report_threshold);
    const YAML::Node cand = root["candidates"];
    if (cand && cand["error_words"]) out.error_words = cand["error_words"].as<std::vector<std::string>>();
    if (cand && cand["negations"]) out.negations = cand["negations"].as<std::vector<std::string>>();
  } catch (const YAML::Exception& e) {
    error = e.what();
    return false;
  }
  const auto& fc = out.features;
  if (fc.hash_bits < 8 || fc.hash_bits > 30 || fc.char_min < 1 || fc.char_max < fc.char_min || fc.char_max > 16) {
    error = "features: hash_bits must be 8..30 and char_ngrams [min, max] within 1..16";
    return false;
  }
  if (!(out.c > 0) || !(out.eps > 0) || out.sample_weight < 1 || out.sample_weight > 16) {
    error = "training: C and eps must be positive, sample_weight 1..16";
    return false;
  }
  auto probability = [](double p) { return p >= 0 && p <= 1; };
  if (!probability(out.root_threshold) || !probability(out.report_threshold) ||
      out.report_threshold > out.root_threshold) {
    error = "thresholds: report <= root_cause, both within [0, 1]";
    return false;
  }
  return true;
}

std::vector<TrainingText> texts_from_kb(const KnowledgeBase& kb, const WordTrainingConfig& config) {
  std::vector<TrainingText> out;
  // Every hand-written entry; the message catalogue's (decoded one by one) only when the
  // configuration asks: its 81,000 generated entries made training take minutes and the
  // model 7x larger, and most of their categories come from a module, not from the words.
  kb.for_each_entry([&](const Entry& e) {
    if (e.origin == Origin::source && !config.include_catalogue) return;
    if (std::find(config.exclude_families.begin(), config.exclude_families.end(), e.family) !=
        config.exclude_families.end()) {
      return;
    }
    for (const auto& s : e.samples_match) add_text(out, e, s, true);
    add_text(out, e, e.name, false);
    add_text(out, e, e.title.en, false);
    add_text(out, e, e.title.zh, false);
    add_text(out, e, e.cause.en, false);
    add_text(out, e, e.cause.zh, false);
    if (e.seed) add_text(out, e, e.seed->cause, false);
  });
  return out;
}

std::vector<TrainingText> texts_from_lines_tsv(std::string_view file_name, std::string_view content,
                                               std::vector<std::string>& problems) {
  std::vector<TrainingText> out;
  std::size_t begin = 0;
  int line_no = 0;
  while (begin < content.size()) {
    std::size_t end = content.find('\n', begin);
    if (end == std::string_view::npos) end = content.size();
    std::string_view row = content.substr(begin, end - begin);
    begin = end + 1;
    ++line_no;
    if (!row.empty() && row.back() == '\r') row.remove_suffix(1);
    if (row.empty() || row.front() == '#') continue;
    const std::size_t t1 = row.find('\t');
    const std::size_t t2 = t1 == std::string_view::npos ? t1 : row.find('\t', t1 + 1);
    auto problem = [&](const std::string& what) {
      problems.push_back(std::string(file_name) + ":" + std::to_string(line_no) + ": " + what);
    };
    if (t2 == std::string_view::npos) {
      problem("expected category<TAB>line<TAB>source");
      continue;
    }
    const auto cat = parse_category(row.substr(0, t1));
    const std::string_view text = row.substr(t1 + 1, t2 - t1 - 1);
    const std::string_view source = row.substr(t2 + 1);
    if (!cat) {
      problem("unknown category '" + std::string(row.substr(0, t1)) + "'");
      continue;
    }
    if (text.empty() || source.empty()) {
      problem("a line and its source are required");
      continue;
    }
    out.push_back({*cat, std::string(text), "lines", true});
  }
  return out;
}

WordModel train_word_model(const std::vector<TrainingText>& texts, const WordTrainingConfig& config,
                           std::string version, double* deviation) {
  if (deviation != nullptr) *deviation = 0;
  WordModel model;
  model.features = config.features;
  model.root_threshold = config.root_threshold;
  model.report_threshold = config.report_threshold;
  model.error_words = config.error_words;
  model.negations = config.negations;
  model.version = std::move(version);

  // The features of every text, then the vocabulary: buckets seen in min_count texts.
  std::vector<std::vector<uint32_t>> feats;
  feats.reserve(texts.size());
  std::map<uint32_t, uint32_t> count;
  for (const auto& t : texts) {
    feats.push_back(feature_buckets(t.text, config.features));
    for (uint32_t b : feats.back()) ++count[b];
  }
  std::vector<uint32_t> vocab;
  for (const auto& [b, n] : count) {
    if (n >= config.min_count) vocab.push_back(b);
  }
  auto index_of = [&](uint32_t b) -> int {
    const auto it = std::lower_bound(vocab.begin(), vocab.end(), b);
    return it != vocab.end() && *it == b ? static_cast<int>(it - vocab.begin()) + 1 : 0;
  };

  // liblinear's problem: each text's known features, each worth 1/sqrt(the number of all
  // its features, known or not: what the scorer can count without the vocabulary), plus
  // the bias.
  const int n = static_cast<int>(vocab.size());
  std::vector<double> y;
  std::vector<std::vector<feature_node>> rows;
  std::vector<std::size_t> text_of_row;
  std::map<int, double> per_class;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    std::vector<feature_node> row;
    for (uint32_t b : feats[i]) {
      if (const int idx = index_of(b)) row.push_back({idx, 1.0});
    }
    if (row.empty()) continue;
    const double v = 1.0 / std::sqrt(static_cast<double>(feats[i].size()));
    for (auto& f : row) f.value = v;
    row.push_back({n + 1, 1.0});  // bias
    row.push_back({-1, 0.0});
    const int label = static_cast<int>(texts[i].category);
    const uint32_t copies = texts[i].sample ? config.sample_weight : 1;
    for (uint32_t k = 0; k < copies; ++k) {
      rows.push_back(row);
      text_of_row.push_back(i);
      y.push_back(label);
      per_class[label] += 1;
    }
  }
  if (per_class.size() < 2) {
    // Nothing to tell apart: a model that always says its one class (or nothing).
    for (const auto& [label, c] : per_class) {
      model.classes.push_back(static_cast<Category>(label));
      model.bias.push_back(0.0f);
    }
    return model;
  }
  std::vector<feature_node*> x;
  x.reserve(rows.size());
  for (auto& r : rows) x.push_back(r.data());

  problem prob{};
  prob.l = static_cast<int>(rows.size());
  prob.n = n + 1;
  prob.y = y.data();
  prob.x = x.data();
  prob.bias = 1.0;

  std::vector<int> weight_label;
  std::vector<double> weight;
  if (config.balanced) {
    for (const auto& [label, c] : per_class) {
      weight_label.push_back(label);
      weight.push_back(static_cast<double>(prob.l) / (static_cast<double>(per_class.size()) * c));
    }
  }
  parameter param{};
  param.solver_type = L2R_LR;
  param.eps = config.eps;
  param.C = config.c;
  param.nr_weight = static_cast<int>(weight.size());
  param.weight_label = weight_label.data();
  param.weight = weight.data();
  param.p = 0.1;
  param.init_sol = nullptr;
  set_print_string_function(&quiet);
  struct ModelDeleter {
    void operator()(struct model* m) const { free_and_destroy_model(&m); }
  };
  std::unique_ptr<struct model, ModelDeleter> trained(train(&prob, &param));

  // liblinear keeps one weight vector for two classes (the second is its negation) and
  // nr_class vectors otherwise, interleaved per feature.
  const int k = trained->nr_class;
  const int nr_w = k == 2 ? 1 : k;
  auto w = [&](int feature, int cls) {
    const auto at = static_cast<std::size_t>(feature) * static_cast<std::size_t>(nr_w) + static_cast<std::size_t>(k == 2 ? 0 : cls);
    const double v = trained->w[at];
    return k == 2 && cls == 1 ? -v : v;
  };
  for (int c = 0; c < k; ++c) {
    model.classes.push_back(static_cast<Category>(trained->label[c]));
    model.bias.push_back(static_cast<float>(w(n, c) * trained->bias));
  }
  for (int f = 0; f < n; ++f) {
    double largest = 0;
    for (int c = 0; c < k; ++c) largest = std::max(largest, std::abs(w(f, c)));
    if (largest <= config.prune_below) continue;
    model.buckets.push_back(vocab[static_cast<std::size_t>(f)]);
    for (int c = 0; c < k; ++c) model.weights.push_back(static_cast<float>(w(f, c)));
  }
  model.index_buckets();
  if (deviation != nullptr) {
    std::vector<double> expected(static_cast<std::size_t>(k));
    for (std::size_t r = 0; r < rows.size(); ++r) {
      predict_probability(trained.get(), rows[r].data(), expected.data());
      const auto got = model.probabilities(texts[text_of_row[r]].text);
      for (std::size_t c = 0; c < expected.size(); ++c) *deviation = std::max(*deviation, std::abs(got[c] - expected[c]));
    }
  }
  return model;
}

}  // namespace npu_doctor
