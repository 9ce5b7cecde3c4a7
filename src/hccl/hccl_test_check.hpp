#pragma once
// `hccl test-output`: results of the HCCL Test binaries. Flags failed result checks
// (wrong data over some link), runs that produced no result table, and bandwidth far
// below what is expected: the figure given with --expect-bandwidth, or, with several
// outputs of the same test, the median of their peaks (one slow node stands out).
#include <optional>
#include <string>
#include <vector>

#include "env_check.hpp"
#include "hccl_test_output.hpp"
#include "npu_doctor/finding.hpp"
#include "npu_doctor/knowledge_base.hpp"

namespace npu_doctor::hccl {

struct HcclTestOptions {
  std::optional<double> expect_bandwidth;  // GB/s (algorithm bandwidth at the largest sizes)
  double min_ratio = 0.5;                  // "far below": under this fraction of the expected figure
};

struct HcclTestExpectation {
  std::string test;                        // the test these outputs ran ("" when unknown)
  std::optional<double> expected;          // GB/s
  std::string source;                      // "given" or "median" (of the peaks of several outputs)
};

struct HcclTestReport {
  std::string kb_version;
  HcclTestOptions options;
  std::vector<HcclTestOutput> outputs;
  std::vector<InputProblem> unreadable;
  std::vector<HcclTestExpectation> expectations;
  std::vector<Finding> findings;
};

HcclTestReport check_hccl_test(std::vector<HcclTestOutput> outputs, const HcclTestOptions& options,
                               const KnowledgeBase& kb);

}  // namespace npu_doctor::hccl
