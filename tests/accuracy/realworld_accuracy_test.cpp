// Top-1 root-cause accuracy on the labelled real-world logs: tests/fixtures/realworld-dev
// (copied from the shared development corpus) and the blind batches once they were scored
// and studied (docs/accuracy.md). Scored like ../shared/tools/accuracy.py: high- and
// medium-confidence cases, root_cause.category against the `layer` column. The floors keep
// what was taught from being lost; they are no measure of logs nobody has seen.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <sstream>

#include "diagnosis/diagnosis.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

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

struct Corpus {
  const char* dir;       // under tests/fixtures
  double required;       // top-1 floor
  std::size_t min_cases; // the index must hold at least this many rows
};

class RealWorldAccuracy : public ::testing::TestWithParam<Corpus> {};

TEST_P(RealWorldAccuracy, RootCauseCategoryOnHighAndMediumConfidenceCases) {
  const std::string dir = testing::fixtures_dir() + "/" + GetParam().dir;
  const auto cases = load_index(dir);
  ASSERT_GE(cases.size(), GetParam().min_cases);
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
  std::cout << GetParam().dir << " top-1 accuracy: " << correct << "/" << scored << " = " << accuracy * 100 << "%\n" << misses;
  EXPECT_GE(accuracy, GetParam().required) << misses;
}

INSTANTIATE_TEST_SUITE_P(Corpora, RealWorldAccuracy,
                         // Each floor is one case below the figure after study (docs/accuracy.md).
                         ::testing::Values(Corpus{"realworld-dev", 0.89, 30}, Corpus{"realworld-blind/batch-1", 0.87, 40},
                                           Corpus{"realworld-blind/batch-2", 0.75, 40},
                                           Corpus{"realworld-blind/batch-3", 0.95, 39},
                                           Corpus{"realworld-blind/batch-4", 0.95, 40},
                                           Corpus{"realworld-blind/batch-5", 0.89, 40},
                                           Corpus{"realworld-blind/batch-6", 0.91, 40},
                                           Corpus{"realworld-blind/batch-7", 0.79, 40},
                                           Corpus{"realworld-blind/batch-8", 0.66, 40},
                                           Corpus{"realworld-blind/batch-9", 0.75, 40},
                                           Corpus{"realworld-blind/batch-10", 0.73, 40},
                                           Corpus{"realworld-blind/batch-11", 0.70, 40},
                                           Corpus{"realworld-blind/batch-12", 0.68, 34},
                                           Corpus{"realworld-blind/batch-13", 0.78, 40},
                                           Corpus{"realworld-blind/batch-14", 0.78, 40},
                                           Corpus{"realworld-blind/batch-15", 0.80, 33},
                                           Corpus{"realworld-blind/batch-16", 0.61, 23},
                                           Corpus{"realworld-blind/batch-17", 0.82, 26},
                                           Corpus{"realworld-blind/batch-18", 0.83, 7},
                                           Corpus{"realworld-blind/batch-19", 0.86, 20},
                                           Corpus{"realworld-blind/batch-20", 0.91, 14},
                                           Corpus{"realworld-blind/batch-21", 0.72, 18},
                                           Corpus{"realworld-blind/batch-22", 0.76, 32},
                                           Corpus{"realworld-blind/batch-23", 0.73, 19},
                                           Corpus{"realworld-blind/batch-24", 0.59, 36},
                                           Corpus{"realworld-blind/batch-25", 0.71, 20},
                                           Corpus{"realworld-blind/batch-26", 0.9, 11},
                                           Corpus{"realworld-blind/batch-27", 0.91, 27},
                                           Corpus{"realworld-blind/batch-28", 0.7, 40},
                                           Corpus{"realworld-blind/batch-29", 0.4, 39},
                                           Corpus{"realworld-blind/batch-30", 0.58, 30},
                                           Corpus{"realworld-blind/batch-31", 0.66, 40},
                                           Corpus{"realworld-blind/batch-32", 0.72, 40},
                                           Corpus{"realworld-blind/batch-33", 1.0, 9},
                                           Corpus{"realworld-blind/batch-34", 0.83, 61},
                                           Corpus{"realworld-blind/batch-35", 0.72, 34},
                                           Corpus{"realworld-blind/batch-36", 0.77, 35},
                                           Corpus{"realworld-blind/batch-37", 0.85, 36},
                                           Corpus{"realworld-blind/batch-38", 0.73, 31},
                                           Corpus{"realworld-blind/batch-39", 0.72, 24},
                                           Corpus{"realworld-blind/batch-40", 0.57, 26},
                                           Corpus{"realworld-blind/batch-41", 0.78, 24},
                                           Corpus{"realworld-blind/batch-42", 0.75, 33},
                                           Corpus{"realworld-blind/batch-43", 0.58, 20},
                                           Corpus{"realworld-blind/batch-44", 0.84, 36},
                                           Corpus{"realworld-blind/batch-45", 0.94, 39},
                                           Corpus{"realworld-blind/batch-46", 0.76, 35},
                                           Corpus{"realworld-blind/batch-47", 0.5, 5},
                                           Corpus{"realworld-blind/batch-48", 0.63, 40},
                                           Corpus{"realworld-blind/batch-49", 0.48, 31},
                                           Corpus{"realworld-blind/batch-50", 0.56, 27},
                                           Corpus{"realworld-blind/batch-51", 0.69, 39},
                                           Corpus{"realworld-blind/batch-52", 0.63, 39},
                                           Corpus{"realworld-blind/batch-53", 0.61, 37},
                                           Corpus{"realworld-blind/batch-54", 0.72, 42},
                                           Corpus{"realworld-blind/batch-55", 0.54, 42},
                                           Corpus{"realworld-blind/batch-56", 0.68, 29},
                                           Corpus{"realworld-blind/batch-57", 0.77, 11},
                                           Corpus{"realworld-blind/batch-58", 0.8, 21},
                                           Corpus{"realworld-blind/batch-59", 0.52, 19},
                                           Corpus{"realworld-blind/batch-60", 0.82, 41},
                                           Corpus{"realworld-blind/batch-61", 0.64, 43},
                                           Corpus{"realworld-blind/batch-62", 0.43, 36},
                                           Corpus{"realworld-blind/batch-63", 0.51, 41},
                                           Corpus{"realworld-blind/batch-64", 0.77, 38},
                                           Corpus{"realworld-blind/batch-65", 0.64, 37},
                                           Corpus{"realworld-blind/batch-66", 0.90, 11},
                                           Corpus{"realworld-blind/batch-67", 0.58, 43},
                                           Corpus{"realworld-blind/batch-68", 0.50, 32},
                                           Corpus{"realworld-blind/batch-69", 0.70, 32},
                                           Corpus{"realworld-blind/batch-70", 0.57, 40},
                                           Corpus{"realworld-blind/batch-71", 0.69, 35},
                                           Corpus{"realworld-blind/batch-72", 0.80, 31},
                                           Corpus{"realworld-blind/batch-73", 0.70, 19},
                                           Corpus{"realworld-blind/batch-74", 0.70, 15},
                                           Corpus{"realworld-blind/batch-75", 0.58, 30},
                                           Corpus{"realworld-blind/batch-76", 0.53, 31},
                                           Corpus{"realworld-blind/batch-77", 0.60, 21},
                                           Corpus{"realworld-blind/batch-78", 0.60, 24},
                                           Corpus{"realworld-blind/batch-79", 0.43, 18},
                                           Corpus{"realworld-blind/batch-80", 0.80, 36},
                                           Corpus{"realworld-blind/batch-81", 0.76, 28},
                                           Corpus{"realworld-blind/batch-82", 0.72, 40},
                                           Corpus{"realworld-blind/batch-83", 0.77, 19},
                                           Corpus{"realworld-blind/batch-84", 0.50, 15},
                                           Corpus{"realworld-blind/batch-85", 0.60, 5},
                                           Corpus{"realworld-blind/batch-86", 0.77, 14},
                                           Corpus{"realworld-blind/batch-87", 0.53, 20},
                                           Corpus{"realworld-blind/batch-88", 0.71, 15},
                                           Corpus{"realworld-blind/batch-89", 0.85, 20},
                                           Corpus{"realworld-blind/batch-90", 0.64, 20},
                                           Corpus{"realworld-blind/batch-91", 0.69, 13},
                                           Corpus{"realworld-blind/batch-92", 0.87, 23},
                                           Corpus{"realworld-blind/batch-93", 0.64, 31},
                                           Corpus{"realworld-blind/batch-94", 0.83, 11},
                                           Corpus{"realworld-blind/batch-95", 0.48, 26},
                                           Corpus{"realworld-blind/batch-96", 0.99, 3},
                                           Corpus{"realworld-blind/batch-97", 0.60, 38},
                                           Corpus{"realworld-blind/batch-98", 0.66, 29},
                                           Corpus{"realworld-blind/batch-99", 0.74, 39},
                                           Corpus{"realworld-blind/batch-100", 0.65, 29},
                                           Corpus{"realworld-blind/batch-101", 0.72, 36},
                                           Corpus{"realworld-blind/batch-102", 0.44, 26},
                                           Corpus{"realworld-blind/batch-103", 0.71, 32},
                                           Corpus{"realworld-blind/batch-104", 0.73, 19},
                                           Corpus{"realworld-blind/batch-105", 0.44, 40},
                                           Corpus{"realworld-blind/batch-106", 0.64, 23},
                                           Corpus{"realworld-blind/batch-107", 0.44, 29},
                                           Corpus{"realworld-blind/batch-108", 0.72, 15},
                                           Corpus{"realworld-blind/batch-109", 0.48, 25},
                                           Corpus{"realworld-blind/batch-110", 0.65, 20},
                                           Corpus{"realworld-blind/batch-111", 0.63, 11},
                                           Corpus{"realworld-blind/batch-112", 0.64, 14},
                                           Corpus{"realworld-blind/batch-113", 0.34, 26},
                                           Corpus{"realworld-blind/batch-114", 0.29, 20},
                                           Corpus{"realworld-blind/batch-115", 0.79, 10},
                                           Corpus{"realworld-blind/batch-116", 0.79, 30},
                                           Corpus{"realworld-blind/batch-117", 0.33, 11},
                                           Corpus{"realworld-blind/batch-118", 0.33, 6},
                                           Corpus{"realworld-blind/batch-119", 0.35, 15}),
                         [](const ::testing::TestParamInfo<Corpus>& p) {
                           std::string n = p.param.dir;
                           for (auto& ch : n) ch = std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
                           return n;
                         });

}  // namespace
}  // namespace npu_doctor
