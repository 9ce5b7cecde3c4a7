// npu-doctor-wordc: trains the word fallback's model, run by the build after the
// knowledge-base compiler. Reads the knowledge-base snapshot (so it retrains whenever
// kb/ changes), the settings (data/classifier/classifier.yaml) and the labelled lines
// (data/classifier/lines.tsv), and writes the model that is embedded into npu-doctor.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "kb_snapshot.hpp"
#include "word_training.hpp"

namespace {

bool read_file(const std::string& path, std::string& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream s;
  s << f.rdbuf();
  out = s.str();
  return static_cast<bool>(f) || f.eof();
}

int fail(const std::string& what) {
  std::cerr << "npu-doctor-wordc: " << what << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: npu-doctor-wordc OUTPUT KB_SNAPSHOT CLASSIFIER.yaml [LINES.tsv...]\n";
    return 2;
  }
  std::string snapshot;
  std::string config_text;
  if (!read_file(argv[2], snapshot)) return fail(std::string("cannot read ") + argv[2]);
  if (!read_file(argv[3], config_text)) return fail(std::string("cannot read ") + argv[3]);
  const auto kb = npu_doctor::read_kb_snapshot_copy(std::move(snapshot));
  if (!kb) return fail(std::string(argv[2]) + " is not a knowledge-base snapshot of this build");
  npu_doctor::WordTrainingConfig config;
  std::string error;
  if (!npu_doctor::parse_word_training_config(config_text, config, error)) return fail(std::string(argv[3]) + ": " + error);

  auto texts = npu_doctor::texts_from_kb(*kb, config);
  std::vector<std::string> problems;
  for (int i = 4; i < argc; ++i) {
    std::string lines;
    if (!read_file(argv[i], lines)) return fail(std::string("cannot read ") + argv[i]);
    auto more = npu_doctor::texts_from_lines_tsv(argv[i], lines, problems);
    texts.insert(texts.end(), more.begin(), more.end());
  }
  for (const auto& p : problems) std::cerr << p << ": error\n";
  if (!problems.empty()) return fail(std::to_string(problems.size()) + " bad labelled line(s)");

  double deviation = 0;
  const auto model = npu_doctor::train_word_model(texts, config, kb->version(), &deviation);
  // The scorer must read the weights as liblinear meant them (float rounding and pruned
  // features aside).
  if (deviation > 1e-3) {
    return fail("the scorer's probabilities differ from liblinear's by " + std::to_string(deviation));
  }
  const std::string out = argv[1];
  const std::string tmp = out + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << npu_doctor::write_word_model(model);
    if (!f) return fail("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), out.c_str()) != 0) return fail("cannot write " + out);
  return 0;
}
