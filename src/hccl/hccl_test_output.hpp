#pragma once
// Output of the HCCL Test binaries (all_reduce_test, all_gather_test ... run under
// mpirun): the "the minbytes is ..." line, the result table
//   data_size(Bytes): | aveg_time(us): | alg_bandwidth(GB/s): | check_result:
//   8192              | 764.55         | 0.00998              | success
// (older builds print "avg_time" and no '|'), the per-rank failure lines
// "local rank_id 3, check result failed, 8192 | ... | failed", and Open MPI's
// "[1,0]<stdout>:" prefixes. Pure: lines in, rows out.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npu_doctor::hccl {

struct HcclTestRow {
  uint64_t data_size = 0;       // bytes per NPU
  double avg_time_us = 0;
  double alg_bandwidth = 0;     // GB/s (algorithm bandwidth: data size / time)
  std::string check;            // "success", "failed", "NULL" (verification off)
  std::size_t line = 0;
  std::string text;
};

struct HcclTestRankFailure {
  int rank = -1;
  uint64_t data_size = 0;
  std::size_t line = 0;
  std::string text;
};

struct HcclTestOutput {
  std::string path;
  std::string test;             // "all_reduce_test" when the command line is in the output
  std::optional<uint64_t> min_bytes, max_bytes;
  std::optional<int> iters, warmup_iters;
  bool header_seen = false;
  // The result rows kept: the first kKeptRows, then only failed ones (up to as many
  // again). A real run prints a few dozen rows; a concatenation of millions must not hold
  // them all. `rows_total` counts every row, `peak_row` is the fastest of them all.
  static constexpr std::size_t kKeptRows = 2048;
  std::vector<HcclTestRow> rows;
  std::size_t rows_total = 0;
  std::optional<HcclTestRow> peak_row;
  std::vector<HcclTestRankFailure> rank_failures;
  std::vector<std::pair<std::size_t, std::string>> notes;   // "Warning: ... No verification is performed."
  std::vector<std::pair<std::size_t, std::string>> errors;  // lines reporting an error (init failures, MPI aborts)
  std::size_t lines = 0;

  bool looks_like_hccl_test() const { return header_seen || min_bytes || !rows.empty() || !rank_failures.empty(); }
  // The highest algorithm bandwidth of the table (GB/s), nullopt without rows.
  std::optional<double> peak_bandwidth() const;
};

// Reads the output one line at a time (without its '\n'), so a file of any size is parsed
// in bounded memory: everything kept is capped (rows, rank failures, notes, errors).
class HcclTestOutputParser {
 public:
  // Longer lines are skipped: table rows are short, and std::regex recurses per character.
  static constexpr std::size_t kMaxLineBytes = 4096;

  explicit HcclTestOutputParser(std::string path);
  void add_line(std::string_view line);
  HcclTestOutput finish() &&;

 private:
  HcclTestOutput out_;
};

// The whole text at once (tests, fuzzers).
HcclTestOutput parse_hccl_test_output(std::string path, std::string_view text);

}  // namespace npu_doctor::hccl
