// npu-doctor-word-eval: measures the word fallback honestly (docs/accuracy.md, "The word
// fallback"). Not part of ctest: each measure trains the model many times (a minute or more).
//
//   npu-doctor-word-eval lofo CLASSIFIER.yaml LINES.tsv
//       Leave one family out: for each knowledge-base family (and the labelled lines as one
//       more), train without it and classify its sample lines. Top-1 per category and
//       overall, and how often the fallback would report (a named category at or above the
//       root-cause threshold) and how often it is then right.
//   npu-doctor-word-eval dev CLASSIFIER.yaml LINES.tsv CORPUS_DIR
//       The dev corpus with the entries taught from each case held back: for each case the
//       entries whose references name the case's report or whose sample lines occur in its
//       log are removed from both matching and training; the tool then diagnoses the case
//       with that knowledge base and a model trained on it. Also what the fallback alone
//       says (no entries at all: the first confident line).
//   npu-doctor-word-eval lines [--all] FILE...
//       Every line the fallback would read in FILEs (candidates that no built-in entry claims)
//       with the embedded model's best category and probability: what the thresholds are
//       calibrated on (healthy logs must stay below the root-cause threshold).
#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "kb_matcher.hpp"
#include "diagnosis/diagnosis.hpp"
#include "npu_doctor/embedded_files.hpp"
#include "npu_doctor/line_info.hpp"
#include "diagnosis/root_cause.hpp"
#include "word_fallback.hpp"
#include "word_training.hpp"

namespace nd = npu_doctor;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    std::cerr << "cannot read " << path << "\n";
    std::exit(2);
  }
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

struct Tally {
  int n = 0, top1 = 0, reported = 0, reported_right = 0;
  void add(bool right, bool report) {
    ++n;
    top1 += right;
    reported += report;
    reported_right += report && right;
  }
};

std::string pct(int a, int b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%d/%d = %.0f%%", a, b, b == 0 ? 0.0 : 100.0 * a / b);
  return buf;
}

int lofo(const nd::KnowledgeBase& kb, const nd::WordTrainingConfig& config, const std::vector<nd::TrainingText>& lines) {
  auto texts = nd::texts_from_kb(kb, config);
  texts.insert(texts.end(), lines.begin(), lines.end());
  std::set<std::string> families;
  for (const auto& t : texts) {
    if (t.sample) families.insert(t.family);
  }
  std::map<nd::Category, Tally> per_category;
  std::map<std::string, Tally> per_family;
  Tally all;
  std::map<int, Tally> sweep;  // threshold in % -> reported / right
  for (const auto& family : families) {
    std::vector<nd::TrainingText> train;
    std::vector<const nd::TrainingText*> test;
    for (const auto& t : texts) {
      if (t.family != family) train.push_back(t);
      else if (t.sample) test.push_back(&t);
    }
    const nd::WordModel model = nd::train_word_model(train, config, "lofo");
    for (const auto* t : test) {
      const auto best = nd::best_prediction(model, t->text);
      const bool right = best.category == t->category;
      const bool report = best.category != nd::Category::other && best.probability >= model.root_threshold;
      per_category[t->category].add(right, report);
      per_family[family].add(right, report);
      all.add(right, report);
      for (int th = 30; th <= 90; th += 5) {
        sweep[th].add(right, best.category != nd::Category::other && best.probability >= th / 100.0);
      }
    }
    std::cerr << "." << std::flush;
  }
  std::cerr << "\n";
  auto row = [](const std::string& name, const Tally& t) {
    std::cout << "| " << name << " | " << t.n << " | " << pct(t.top1, t.n) << " | " << pct(t.reported, t.n) << " | "
              << pct(t.reported_right, t.reported) << " |\n";
  };
  std::cout << "| category | lines | top-1 | reported (p >= " << config.root_threshold << ", not other) | right when reported |\n"
            << "|---|---|---|---|---|\n";
  for (const auto& [c, t] : per_category) row(std::string(nd::to_string(c)), t);
  row("**all**", all);
  std::cout << "\n| family held out | lines | top-1 | reported | right when reported |\n|---|---|---|---|---|\n";
  for (const auto& [f, t] : per_family) row(f, t);
  std::cout << "\n| threshold | reported | right when reported |\n|---|---|---|\n";
  for (const auto& [th, t] : sweep) {
    std::cout << "| " << th / 100.0 << " | " << pct(t.reported, t.n) << " | " << pct(t.reported_right, t.reported) << " |\n";
  }
  return 0;
}

struct Case {
  std::string name, url, layer, confidence;
};

std::vector<Case> read_index(const std::string& dir) {
  std::vector<Case> out;
  std::istringstream in(read_file(dir + "/index.tsv"));
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    std::size_t b = 0;
    for (std::size_t t; (t = line.find('\t', b)) != std::string::npos; b = t + 1) cols.push_back(line.substr(b, t - b));
    cols.push_back(line.substr(b));
    if (cols.size() >= 6) out.push_back({cols[0], cols[1], cols[2], cols[5]});
  }
  return out;
}

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

// The entries taught from a case: their references name its report, or one of their sample
// lines (trimmed, 20 characters or more) occurs in its log.
bool taught_from(const nd::Entry& e, const Case& c, const std::string& log) {
  for (const auto& r : e.references) {
    if (r.rfind(c.url, 0) == 0) return true;
  }
  for (const auto& s : e.samples_match) {
    const std::string t = trim(s);
    if (t.size() >= 20 && log.find(t) != std::string::npos) return true;
  }
  return false;
}

// Every candidate line's best named category and probability, in order (`other` left out).
std::vector<nd::WordPrediction> guesses(const nd::WordFallback& words, const std::string& log, bool strong_only = false) {
  std::vector<nd::WordPrediction> out;
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    const auto level = nd::find_level(line);
    if (!words.is_candidate(line, level)) continue;
    if (strong_only && level != nd::LineLevel::error && !nd::is_exception_line(line)) continue;
    const auto best = words.predict(line);
    if (best.category != nd::Category::other) out.push_back(best);
  }
  return out;
}

// The fallback alone at threshold t: the category of the first line at or above it.
std::string first_at(const std::vector<nd::WordPrediction>& g, double t) {
  for (const auto& p : g) {
    if (p.probability >= t) return std::string(nd::to_string(p.category));
  }
  return "none";
}

int dev(const nd::KnowledgeBase& kb, const nd::WordTrainingConfig& config, const std::vector<nd::TrainingText>& lines,
        const std::string& dir) {
  const auto cases = read_index(dir);
  int n = 0, whole = 0, held = 0, held_by_words = 0, held_words_right = 0, alone = 0, alone_reported = 0;
  int alone_reported_right = 0;  // a healthy case the fallback leaves alone is right, but not reported
  int variant = 0, variant_by_words = 0;
  std::map<int, std::array<int, 3>> sweep;  // threshold in % -> right, reported, right when reported (high+medium)
  std::map<int, std::array<int, 3>> sweep_strong;  // the same with ERROR-level and exception lines only
  std::cout << "| case | layer | conf | held back | with all entries | held back: root (basis) | fallback alone |\n"
            << "|---|---|---|---|---|---|---|\n";
  std::vector<nd::KbProblem> problems;
  nd::Diagnoser full(kb, problems);
  for (const auto& c : cases) {
    const std::string path = dir + "/" + c.name + ".log";
    const std::string log = read_file(path);
    std::vector<nd::Entry> kept;
    int removed = 0;
    kb.for_each_entry([&](const nd::Entry& e) {
      if (taught_from(e, c, log)) ++removed;
      else kept.push_back(e);
    });
    std::vector<nd::TrainingText> train_lines;
    for (const auto& l : lines) {
      if (log.find(l.text) == std::string::npos) train_lines.push_back(l);
    }
    nd::KnowledgeBase reduced(std::move(kept), kb.extractors(), kb.version() + "-held", kb.sources());
    reduced.set_gate(kb.gate());
    auto texts = nd::texts_from_kb(reduced, config);
    texts.insert(texts.end(), train_lines.begin(), train_lines.end());
    const std::string model = nd::write_word_model(nd::train_word_model(texts, config, reduced.version()));

    nd::DiagnoseOptions opts;
    opts.paths = {path};
    opts.jobs = 1;
    const auto with_all = full.run(opts);
    nd::Diagnoser diag(reduced, problems, "", model);
    const auto report = diag.run(opts);
    auto category = [](const nd::DiagnosisReport& r) {
      const nd::Finding* f = r.root_finding();
      return f ? std::string(nd::to_string(f->entry->category)) : std::string("none");
    };
    const auto words = nd::WordFallback::create(reduced, model);
    const auto g = words ? guesses(*words, log) : std::vector<nd::WordPrediction>{};
    const auto gs = words ? guesses(*words, log, true) : std::vector<nd::WordPrediction>{};
    const std::string alone_says = words ? first_at(g, words->model().root_threshold) : "none";
    const std::string got = category(report);
    const bool by_words = report.root && report.root->basis == nd::RootCauseDecision::Basis::words;
    // A variant of the rule, measured only: entries that found nothing but generic wrappers
    // would not block a confident guess (the earliest).
    std::string variant_says = got;
    bool variant_words = by_words;
    const bool only_wrappers = std::all_of(report.findings.begin(), report.findings.end(), [](const nd::Finding& f) {
      return f.words || nd::effective_severity(f) < nd::Severity::error || f.entry->role == nd::Role::wrapper ||
             f.entry->role == nd::Role::hint;
    });
    if (only_wrappers && !by_words) {
      const nd::Finding* first = nullptr;
      for (const auto& f : report.findings) {
        if (f.words && f.words->confident() && (first == nullptr || nd::occurs_before(f, *first))) first = &f;
      }
      if (first != nullptr) {
        variant_says = std::string(nd::to_string(first->entry->category));
        variant_words = true;
      }
    }
    std::cout << "| " << c.name << " | " << c.layer << " | " << c.confidence << " | " << removed << " | "
              << category(with_all) << " | " << got << " (" << (report.root_finding() ? report.root_finding()->entry->id : "")
              << ") | " << alone_says << " |\n";
    if (c.confidence != "high" && c.confidence != "medium") continue;
    ++n;
    whole += category(with_all) == c.layer;
    held += got == c.layer;
    held_by_words += by_words;
    held_words_right += by_words && got == c.layer;
    variant += variant_says == c.layer;
    variant_by_words += variant_words;
    alone += alone_says == c.layer;
    alone_reported += alone_says != "none";
    alone_reported_right += alone_says != "none" && alone_says == c.layer;
    for (int t = 30; t <= 90; t += 5) {
      const std::string says = first_at(g, t / 100.0);
      sweep[t][0] += says == c.layer;
      sweep[t][1] += says != "none";
      sweep[t][2] += says != "none" && says == c.layer;
      const std::string strong = first_at(gs, t / 100.0);
      sweep_strong[t][0] += strong == c.layer;
      sweep_strong[t][1] += strong != "none";
      sweep_strong[t][2] += strong != "none" && strong == c.layer;
    }
  }
  std::cout << "\nHigh and medium cases: " << n << "\n"
            << "- with every entry: " << pct(whole, n) << "\n"
            << "- entries taught from the case held back (whole tool): " << pct(held, n) << "\n"
            << "- of which decided by the word fallback: " << held_by_words << ", right " << held_words_right << "\n"
            << "- variant (measured only): wrappers do not block a confident guess: " << pct(variant, n)
            << ", decided by the fallback " << variant_by_words << "\n"
            << "- the fallback alone (no entries; first confident line): " << pct(alone, n) << ", reported on "
            << alone_reported << ", right when reported " << pct(alone_reported_right, alone_reported) << "\n"
            << "\nThe fallback alone by threshold (high and medium cases): (and reading only ERROR-level and exception lines):\n\n"
            << "| threshold | right | reported | right when reported | strong lines: right | reported | right when reported |\n"
            << "|---|---|---|---|---|---|---|\n";
  for (const auto& [t, rr] : sweep) {
    const auto& s = sweep_strong[t];
    std::cout << "| " << t / 100.0 << " | " << pct(rr[0], n) << " | " << rr[1] << " | " << pct(rr[2], rr[1]) << " | "
              << pct(s[0], n) << " | " << s[1] << " | " << pct(s[2], s[1]) << " |\n";
  }
  return 0;
}

}  // namespace

int lines_mode(const nd::KnowledgeBase& kb, int argc, char** argv) {
  std::vector<nd::KbProblem> problems;
  const auto matcher = nd::KbMatcher::build(kb, problems);
  const auto files = nd::embedded_word_model();
  const auto words = files.empty() ? nullptr : nd::WordFallback::create(kb, files.front().content);
  if (!words) {
    std::cerr << "no embedded word model\n";
    return 2;
  }
  std::cout << "p\tcategory\tconfident\tplace\tline\n";
  const bool all = argc > 2 && std::string(argv[2]) == "--all";  // claimed lines too
  for (int i = all ? 3 : 2; i < argc; ++i) {
    std::istringstream in(read_file(argv[i]));
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!words->is_candidate(line, nd::find_level(line))) continue;
      if (!all && !nd::WordFallback::unclaimed(matcher->match_line(line))) continue;
      const auto best = words->predict(line);
      char p[16];
      std::snprintf(p, sizeof p, "%.3f", best.probability);
      std::cout << p << "\t" << nd::to_string(best.category) << "\t"
                << (best.category != nd::Category::other && best.probability >= words->model().root_threshold ? "yes" : "no")
                << "\t" << argv[i] << ":" << n << "\t" << line.substr(0, 160) << "\n";
    }
  }
  return 0;
}

constexpr const char* kUsage =
    "usage: npu-doctor-word-eval lofo CLASSIFIER.yaml LINES.tsv\n"
    "       npu-doctor-word-eval dev CLASSIFIER.yaml LINES.tsv CORPUS_DIR\n"
    "       npu-doctor-word-eval lines [--all] FILE...\n";

constexpr const char* kHelp =
    "Measures the word fallback (docs/accuracy.md, \"The word fallback\").\n"
    "  lofo   leave one knowledge-base family out: train without it, classify its sample lines\n"
    "  dev    diagnose each case of CORPUS_DIR with the entries taught from it held back\n"
    "  lines  each line of FILEs the fallback would read, with the embedded model's best\n"
    "         category and probability (--all: lines an entry claims too)\n"
    "CLASSIFIER.yaml and LINES.tsv are data/classifier/classifier.yaml and lines.tsv.\n"
    "Exit status: 0 done, 2 bad usage or unreadable input.\n";

int main(int argc, char** argv) {
  if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    std::cout << kUsage << kHelp;
    return 0;
  }
  if (argc >= 3 && std::string(argv[1]) == "lines") {
    std::vector<nd::KbProblem> kb_problems;
    const nd::KnowledgeBase kb = nd::load_knowledge_base(nd::KbLoadOptions{}, kb_problems);
    return lines_mode(kb, argc, argv);
  }
  if (argc < 4 || (std::string(argv[1]) == "dev" && argc < 5)) {
    std::cerr << kUsage << "(--help for more)\n";
    return 2;
  }
  nd::WordTrainingConfig config;
  std::string error;
  if (!nd::parse_word_training_config(read_file(argv[2]), config, error)) {
    std::cerr << argv[2] << ": " << error << "\n";
    return 2;
  }
  std::vector<std::string> problems;
  const auto lines = nd::texts_from_lines_tsv(argv[3], read_file(argv[3]), problems);
  for (const auto& p : problems) std::cerr << p << "\n";
  std::vector<nd::KbProblem> kb_problems;
  const nd::KnowledgeBase kb = nd::load_knowledge_base(nd::KbLoadOptions{}, kb_problems);
  const std::string mode = argv[1];
  if (mode == "lofo") return lofo(kb, config, lines);
  if (mode == "dev") return dev(kb, config, lines, argv[4]);
  std::cerr << "unknown mode " << mode << "\n";
  return 2;
}
