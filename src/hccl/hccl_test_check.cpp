#include "hccl_test_check.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "env_check.hpp"
#include "core/finding_set.hpp"
#include "npu_doctor/kb_ids.hpp"

namespace npu_doctor::hccl {
namespace {

std::string gbps(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.5g GB/s", v);
  return buf;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

HcclTestReport check_hccl_test(std::vector<HcclTestOutput> outputs, const HcclTestOptions& options,
                               const KnowledgeBase& kb) {
  FindingSet set(kb);
  HcclTestReport r;
  r.kb_version = kb.version();
  r.options = options;
  for (const auto& o : outputs) {
    std::set<long long> failed_ranks;
    for (const auto& f : o.rank_failures) failed_ranks.insert(f.rank);
    std::vector<long long> ranks(failed_ranks.begin(), failed_ranks.end());
    for (const auto& row : o.rows) {
      if (row.check != "failed") continue;
      std::vector<std::pair<std::string, std::string>> caps = {{"test", o.test}, {"data_size", std::to_string(row.data_size)}};
      if (!ranks.empty()) caps.emplace_back("ranks", format_ranges(ranks));
      set.add(kb_id::net::hccl_test_check_failed, evidence_at(o.path, row.line, row.text, std::move(caps)));
    }
    for (const auto& f : o.rank_failures) {
      set.add(kb_id::net::hccl_test_check_failed,
              evidence_at(o.path, f.line, f.text,
                          {{"test", o.test}, {"rank", std::to_string(f.rank)}, {"data_size", std::to_string(f.data_size)}}));
    }
    if (o.rows.empty() && o.looks_like_hccl_test()) {
      if (o.errors.empty()) {
        set.add(kb_id::net::hccl_test_no_result, evidence_at(o.path, 0, "no result rows", {{"test", o.test}}));
      }
      for (std::size_t i = 0; i < o.errors.size() && i < 5; ++i) {
        set.add(kb_id::net::hccl_test_no_result, evidence_at(o.path, o.errors[i].first, o.errors[i].second, {{"test", o.test}}));
      }
    }
  }
  // Expected bandwidth per test: given, or the median of the peaks of several outputs.
  std::map<std::string, std::vector<std::size_t>> by_test;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].peak_bandwidth()) by_test[outputs[i].test].push_back(i);
  }
  for (const auto& [test, idx] : by_test) {
    HcclTestExpectation e;
    e.test = test;
    if (options.expect_bandwidth) {
      e.expected = options.expect_bandwidth;
      e.source = "given";
    } else if (idx.size() >= 2) {
      std::vector<double> peaks;
      for (std::size_t i : idx) peaks.push_back(*outputs[i].peak_bandwidth());
      e.expected = median(peaks);
      e.source = "median";
    }
    if (e.expected) {
      for (std::size_t i : idx) {
        const auto& o = outputs[i];
        const double peak = *o.peak_bandwidth();
        if (peak >= options.min_ratio * *e.expected) continue;
        const auto& best = o.peak_row;
        set.add(kb_id::net::hccl_test_low_bandwidth,
                evidence_at(o.path, best->line, best->text,
                            {{"test", o.test},
                             {"peak", gbps(peak)},
                             {"expected", gbps(*e.expected)},
                             {"expected_from", e.source == "given" ? "--expect-bandwidth" : "median of the outputs"},
                             {"ratio", std::to_string(static_cast<int>(peak / *e.expected * 100 + 0.5)) + "%"}}));
      }
    }
    r.expectations.push_back(std::move(e));
  }
  r.outputs = std::move(outputs);
  r.findings = set.take_worst_first();
  return r;
}

}  // namespace npu_doctor::hccl
