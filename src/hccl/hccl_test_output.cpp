#include "hccl_test_output.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <regex>

#include "core/text_util.hpp"
#include "npu_doctor/text.hpp"

namespace npu_doctor::hccl {
namespace {

using checks::trim;
using Match = std::match_results<std::string_view::const_iterator>;

bool search(std::string_view s, const std::regex& re, Match& m) { return std::regex_search(s.begin(), s.end(), m, re); }

// Open MPI --tag-output / --output-filename prefixes: "[1,0]<stdout>:".
std::string_view strip_mpi_prefix(std::string_view line) {
  static const std::regex re(R"(^\[\d+,\d+\]<std(?:out|err)>:\s?)");
  Match m;
  if (!line.empty() && line.front() == '[' && search(line, re, m)) line.remove_prefix(static_cast<std::size_t>(m.length(0)));
  return line;
}

// Numbers a table row can hold (no overflow in stoull on absurd digits).
bool fits(const Match& m) { return m[1].length() < 20 && m[2].length() < 30 && m[3].length() < 30; }

// A finite double, or nothing: "1e999" is out of range, and std::stod would throw.
std::optional<double> finite_number(const Match& m, std::size_t group) {
  double v = 0;
  const char* first = &*m[group].first;
  const char* last = first + static_cast<std::size_t>(m[group].length());
  const auto [end, ec] = std::from_chars(first, last, v);
  if (ec != std::errc() || end != last || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace

std::optional<double> HcclTestOutput::peak_bandwidth() const {
  if (!peak_row) return std::nullopt;
  return peak_row->alg_bandwidth;
}

namespace {

// The patterns, built once.
struct Patterns {
  const std::regex header{R"(data_size\s*\(\s*bytes\s*\)\s*:?.*(?:aveg?|avg)_time.*alg_bandwidth.*check_result)",
                          std::regex::icase};
  const std::regex sizes{R"(the minbytes is (\d{1,19}), maxbytes is (\d{1,19}), iters is (\d{1,9}), warmup_iters is (\d{1,9}))",
                         std::regex::icase};
  // The numbers are separated by a '|' or by blanks, never by nothing: with the separator
  // optional, a run of digits could be split among the three numbers in cubically many
  // ways, and a line of 100 digits that is no row took seconds (the hccl-test fuzzer).
  const std::regex row{
      R"(^\s*(\d+)(?:\s*\|\s*|\s+)(\d+(?:\.\d+)?)(?:\s*\|\s*|\s+)(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?:\s*\|\s*|\s+)(success|failed|null)\s*$)",
      std::regex::icase};
  const std::regex rank_failed{R"(local rank_id (\d+), check result failed,\s*(\d+))", std::regex::icase};
  const std::regex test_name{
      R"(\b((?:all_reduce|all_gatherv?|alltoallv?c?|broadcast|reduce_scatterv?|reduce|scatter|send_recv|batch_send_recv)_test)\b)"};
  const std::regex error_word{
      R"(\berror\b|\bfailed\b|\bfail\b|MPI_ABORT|Segmentation fault|core dumped|\bEI\d{4}\b|\bEJ\d{4}\b|errNo\[)",
      std::regex::icase};
};

const Patterns& patterns() {
  static const Patterns p;
  return p;
}

}  // namespace

HcclTestOutputParser::HcclTestOutputParser(std::string path) { out_.path = std::move(path); }

void HcclTestOutputParser::add_line(std::string_view raw) {
  const Patterns& p = patterns();
  ++out_.lines;
  const std::size_t number = out_.lines;
  if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
  // Table rows are short; std::regex recurses per character, so a huge line (a binary
  // blob, a file without line ends) could overflow the stack: skip it.
  if (raw.size() > kMaxLineBytes) return;
  const std::string_view line = trim(strip_mpi_prefix(raw));
  if (line.empty()) return;
  Match m;
  const auto keep = [&] { return sanitize_line(utf8_prefix(line, 400)); };
  // Cheap tests before each std::regex: megabytes of unrelated log must not take minutes.
  const std::string low = checks::to_lower(line);
  const auto has = [&](const char* word) { return low.find(word) != std::string::npos; };
  const bool maybe_error = has("err") || has("fail") || has("abort") || has("segmentation") || has("core dumped") ||
                           has("ei") || has("ej");
  std::optional<double> avg_time, bandwidth;
  if (std::isdigit(static_cast<unsigned char>(line.front())) != 0 && search(line, p.row, m) && fits(m) &&
      (avg_time = finite_number(m, 2)) && (bandwidth = finite_number(m, 3))) {
    HcclTestRow r;
    r.data_size = std::stoull(m[1].str());
    r.avg_time_us = *avg_time;
    r.alg_bandwidth = *bandwidth;
    r.check = checks::to_lower(m[4].str()) == "null" ? "NULL" : checks::to_lower(m[4].str());
    r.line = number;
    r.text = keep();
    ++out_.rows_total;
    if (!out_.peak_row || r.alg_bandwidth > out_.peak_row->alg_bandwidth) out_.peak_row = r;
    if (out_.rows.size() < HcclTestOutput::kKeptRows ||
        (r.check == "failed" && out_.rows.size() < 2 * HcclTestOutput::kKeptRows)) {
      out_.rows.push_back(std::move(r));
    }
  } else if (has("rank_id") && search(line, p.rank_failed, m) && m[1].length() < 9 && m[2].length() < 20) {
    // Bounded like the rows: a real run has one line per failing rank and size.
    if (out_.rank_failures.size() < 2 * HcclTestOutput::kKeptRows) {
      out_.rank_failures.push_back({std::stoi(m[1].str()), std::stoull(m[2].str()), number, keep()});
    }
  } else if (has("data_size") && search(line, p.header, m)) {
    out_.header_seen = true;
  } else if (has("minbytes") && search(line, p.sizes, m)) {
    out_.min_bytes = std::stoull(m[1].str());
    out_.max_bytes = std::stoull(m[2].str());
    out_.iters = std::stoi(m[3].str());
    out_.warmup_iters = std::stoi(m[4].str());
  } else if (line.find("No verification is performed") != std::string_view::npos) {
    if (out_.notes.size() < 50) out_.notes.emplace_back(number, keep());
  } else if (maybe_error && search(line, p.error_word, m)) {
    if (out_.errors.size() < 50) out_.errors.emplace_back(number, keep());
  }
  if (out_.test.empty() && line.find("_test") != std::string_view::npos && search(line, p.test_name, m)) {
    out_.test = m[1].str();
  }
}

HcclTestOutput HcclTestOutputParser::finish() && { return std::move(out_); }

HcclTestOutput parse_hccl_test_output(std::string path, std::string_view text) {
  HcclTestOutputParser parser(std::move(path));
  for (std::string_view line : checks::split(text, '\n')) parser.add_line(line);
  return std::move(parser).finish();
}

}  // namespace npu_doctor::hccl
