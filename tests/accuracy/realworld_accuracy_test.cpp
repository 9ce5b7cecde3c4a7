// Top-1 root-cause accuracy on the labelled real-world logs (tests/fixtures/realworld-dev,
// copied from the shared development corpus). Scored like ../shared/tools/accuracy.py:
// high- and medium-confidence cases, root_cause.category against the `layer` column.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "npu_doctor/diagnosis.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

constexpr double kRequiredAccuracy = 0.85;

struct Case {
  std::string name, layer, confidence;
};

std::vector<Case> load_index(const std::string& dir) {
  std::ifstream in(dir + "/index.tsv");
  std::vector<Case> cases;
  std::string line;
  std::getline(in, line);  // header: case source_url layer category summary confidence notes
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, '\t');) cols.push_back(c);
    if (cols.size() >= 6) cases.push_back({cols[0], cols[2], cols[5]});
  }
  return cases;
}

TEST(RealWorldAccuracy, RootCauseCategoryOnHighAndMediumConfidenceCases) {
  const std::string dir = testing::fixtures_dir() + "/realworld-dev";
  const auto cases = load_index(dir);
  ASSERT_GE(cases.size(), 30u);
  std::vector<KbProblem> problems;
  Diagnoser diagnoser(testing::builtin_kb(), problems);
  int scored = 0, correct = 0;
  std::string misses;
  for (const auto& c : cases) {
    if (c.confidence != "high" && c.confidence != "medium") continue;
    DiagnoseOptions o;
    o.paths = {dir + "/" + c.name + ".log"};
    const auto report = diagnoser.run(o);
    const Finding* root = report.root_finding();
    const std::string got = root ? std::string(to_string(root->entry->category)) : "none";
    ++scored;
    if (got == c.layer) ++correct;
    else misses += "  " + c.name + ": want " + c.layer + ", got " + got + (root ? " (" + root->entry->id + ")" : "") + "\n";
  }
  const double accuracy = static_cast<double>(correct) / scored;
  std::cout << "real-world top-1 accuracy: " << correct << "/" << scored << " = " << accuracy * 100 << "%\n" << misses;
  EXPECT_GE(accuracy, kRequiredAccuracy) << misses;
}

}  // namespace
}  // namespace npu_doctor
