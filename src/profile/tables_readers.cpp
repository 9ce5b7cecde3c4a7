// The aggregated tables: op_statistic_*.csv (per operator type), step_trace_time.csv
// (torch_npu, per step), cluster_step_trace_time.csv (msprof-analyze, per rank and step)
// and api_statistic*.csv (host API time, for operator compilation).
#include <algorithm>
#include <cctype>
#include <limits>

#include "csv_reader.hpp"
#include "profile_accumulator.hpp"

namespace npu_doctor::profile_detail {
namespace {

// Common ending of every reader: counts and the status of a file cut short.
void finish(const CsvReader& csv, uint64_t rows, ColumnIssues& issues, ProfileInput& input) {
  issues.flush();
  input.rows = rows;
  input.report.lines = csv.record_line();
  input.report.bytes = csv.bytes_read();
  if (!csv.error().empty()) {
    input.report.status = InputStatus::partial;
    input.report.note = csv.error();
  } else if (csv.truncated()) {
    input.report.status = InputStatus::partial;
    input.report.note = "the file ends inside a quoted field (truncated)";
  } else if (rows == 0 && input.report.note.empty()) {
    input.report.note = "no data rows";
  }
}

bool read_header(CsvReader& csv, std::vector<std::string_view>& f, ProfileInput& input) {
  if (csv.next(f)) return true;
  input.report.status = csv.error().empty() ? InputStatus::skipped : InputStatus::error;
  input.report.note = csv.error().empty() ? "empty file (no header)" : csv.error();
  return false;
}

// Adds a Count cell to a running count. The cell is a finite, non-negative double, but a
// corrupt table can hold 1e33: converting that to an integer is undefined, so it saturates.
void add_count(uint64_t& total, double n) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  const uint64_t add = n >= 18446744073709551615.0 ? kMax : static_cast<uint64_t>(n);
  total = add > kMax - total ? kMax : total + add;
}

void unusable(ProfileInput& input, ColumnIssues& issues, const std::string& what) {
  issues.flush();
  input.report.status = InputStatus::error;
  input.report.note = "not usable: no " + what + " column in the header";
}

// A numeric cell of a row; bad cells are recorded, empty ones read as 0.
double number(const std::vector<std::string_view>& f, int col, const char* name, uint64_t line,
              ColumnIssues& issues, bool& ok) {
  if (col < 0 || static_cast<std::size_t>(col) >= f.size()) return 0;
  double v = 0;
  if (parse_number(f[static_cast<std::size_t>(col)], v)) return v;
  if (!is_empty_cell(f[static_cast<std::size_t>(col)])) {
    issues.bad(name, line, f[static_cast<std::size_t>(col)]);
    ok = false;
  }
  return 0;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

void read_op_statistic(ByteStream& in, const std::string& path, Accumulator& acc, ProfileInput& input) {
  CsvReader csv(in);
  ColumnIssues issues(path, acc.column_problems);
  std::vector<std::string_view> f;
  if (!read_header(csv, f, input)) return;
  const CsvColumns cols(f);
  const int type = cols.find({"OP Type", "Op Type", "Type"});
  const int core = cols.find({"Core Type", "Task Type", "Accelerator Core"});
  const int count = cols.find({"Count", "Calls"});
  const int total = cols.find({"Total Time(us)", "Total Time"});
  const int avg = cols.find({"Avg Time(us)", "Avg Time"});
  const int mn = cols.find({"Min Time(us)", "Min Time"});
  const int mx = cols.find({"Max Time(us)", "Max Time"});
  if (type < 0) issues.missing("OP Type");
  if (total < 0 && (avg < 0 || count < 0)) issues.missing("Total Time(us)");
  if (type < 0 || (total < 0 && (avg < 0 || count < 0))) return unusable(input, issues, "'OP Type' or 'Total Time(us)'");
  if (count < 0) issues.missing("Count");
  if (core < 0) issues.missing("Core Type");
  OpTable& t = acc.tables["op_statistic"];
  ++t.files;
  uint64_t rows = 0;
  while (csv.next(f)) {
    const uint64_t line = csv.record_line();
    if (f.size() <= static_cast<std::size_t>(std::max({type, total, count}))) {
      issues.short_row(line, f.size(), cols.size());
      continue;
    }
    bool ok = true;
    const double n = count >= 0 ? number(f, count, "Count", line, issues, ok) : 1;
    double tot = total >= 0 ? number(f, total, "Total Time(us)", line, issues, ok)
                            : number(f, avg, "Avg Time(us)", line, issues, ok) * n;
    if (!ok || tot < 0 || n < 0) continue;
    // A short row may lack the optional core column: only cells the row has are read.
    const bool has_core = core >= 0 && static_cast<std::size_t>(core) < f.size();
    const std::string tt = has_core ? normalize_task_type(f[static_cast<std::size_t>(core)]) : "UNKNOWN";
    std::string ty(trim_cell(f[static_cast<std::size_t>(type)]));
    if (ty.empty()) ty = "UNKNOWN";
    OpStat& s = t.by_type[{ty, tt}];
    const double lo = mn >= 0 ? number(f, mn, "Min Time(us)", line, issues, ok) : 0;
    const double hi = mx >= 0 ? number(f, mx, "Max Time(us)", line, issues, ok) : 0;
    if (s.count == 0) {
      s.type = ty;
      s.task_type = tt;
      s.min_us = lo;
      s.max_us = hi;
    }
    add_count(s.count, n);
    s.total_us += tot;
    s.min_us = std::min(s.min_us, lo);
    s.max_us = std::max(s.max_us, hi);
    (s.is_communication() ? t.communication_us : t.compute_us) += tot;
    ++rows;
  }
  finish(csv, rows, issues, input);
}

void read_step_trace(ByteStream& in, const std::string& path, Accumulator& acc, ProfileInput& input) {
  CsvReader csv(in);
  ColumnIssues issues(path, acc.column_problems);
  std::vector<std::string_view> f;
  if (!read_header(csv, f, input)) return;
  const CsvColumns cols(f);
  const int comp = cols.find({"Computing"});
  const int comm = cols.find({"Communication(Not Overlapped)"});
  const int ovl = cols.find({"Overlapped"});
  const int fr = cols.find({"Free"});
  if (comp < 0) issues.missing("Computing");
  if (comm < 0) issues.missing("Communication(Not Overlapped)");
  if (fr < 0) issues.missing("Free");
  if (comp < 0 || comm < 0 || fr < 0) return unusable(input, issues, "'Computing', 'Communication(Not Overlapped)' or 'Free'");
  if (ovl < 0) issues.missing("Overlapped");
  StepTotals& s = acc.step_trace ? *acc.step_trace : acc.step_trace.emplace();
  uint64_t rows = 0;
  while (csv.next(f)) {
    const uint64_t line = csv.record_line();
    if (f.size() <= static_cast<std::size_t>(std::max({comp, comm, fr}))) {
      issues.short_row(line, f.size(), cols.size());
      continue;
    }
    bool ok = true;
    const double a = number(f, comp, "Computing", line, issues, ok);
    const double b = number(f, comm, "Communication(Not Overlapped)", line, issues, ok);
    const double c = number(f, ovl, "Overlapped", line, issues, ok);
    const double d = number(f, fr, "Free", line, issues, ok);
    if (!ok) continue;
    s.computing += a;
    s.communication += b;
    s.overlapped += c;
    s.free += d;
    ++s.steps;
    ++rows;
  }
  finish(csv, rows, issues, input);
}

void read_cluster_step_trace(ByteStream& in, const std::string& path, Accumulator& acc, ProfileInput& input) {
  CsvReader csv(in);
  ColumnIssues issues(path, acc.column_problems);
  std::vector<std::string_view> f;
  if (!read_header(csv, f, input)) return;
  const CsvColumns cols(f);
  const int type = cols.find({"Type"});
  const int index = cols.find({"Index", "Rank", "Rank ID"});
  const int comp = cols.find({"Computing"});
  const int comm = cols.find({"Communication(Not Overlapped)"});
  const int fr = cols.find({"Free"});
  if (index < 0) issues.missing("Index");
  if (comp < 0) issues.missing("Computing");
  if (comm < 0) issues.missing("Communication(Not Overlapped)");
  if (fr < 0) issues.missing("Free");
  if (index < 0 || comp < 0 || comm < 0 || fr < 0) {
    return unusable(input, issues, "'Index', 'Computing', 'Communication(Not Overlapped)' or 'Free'");
  }
  if (type < 0) issues.missing("Type");
  uint64_t rows = 0;
  while (csv.next(f)) {
    const uint64_t line = csv.record_line();
    if (f.size() <= static_cast<std::size_t>(std::max({index, comp, comm, fr, type}))) {
      issues.short_row(line, f.size(), cols.size());
      continue;
    }
    // "stage" rows hold the maximum over a pipeline stage's ranks, not a rank.
    if (type >= 0 && lower(trim_cell(f[static_cast<std::size_t>(type)])) != "rank") continue;
    bool ok = true;
    const double a = number(f, comp, "Computing", line, issues, ok);
    const double b = number(f, comm, "Communication(Not Overlapped)", line, issues, ok);
    const double d = number(f, fr, "Free", line, issues, ok);
    if (!ok) continue;
    const std::string rank(trim_cell(f[static_cast<std::size_t>(index)]));
    auto [it, inserted] = acc.ranks.try_emplace(rank);
    RankTime& r = it->second;
    if (inserted) {
      r.rank = rank;
      r.path = path;
      r.line = line;
    }
    r.computing_us += a;
    r.communication_us += b;
    r.free_us += d;
    ++rows;
  }
  finish(csv, rows, issues, input);
}

void read_api_statistic(ByteStream& in, const std::string& path, Accumulator& acc, ProfileInput& input) {
  CsvReader csv(in);
  ColumnIssues issues(path, acc.column_problems);
  std::vector<std::string_view> f;
  if (!read_header(csv, f, input)) return;
  const CsvColumns cols(f);
  const int name = cols.find({"API Name", "Name"});
  const int time = cols.find({"Time(us)", "Total Time(us)", "Time"});
  const int count = cols.find({"Count", "Calls"});
  if (name < 0) issues.missing("API Name");
  if (time < 0) issues.missing("Time(us)");
  if (name < 0 || time < 0) return unusable(input, issues, "'API Name' or 'Time(us)'");
  uint64_t rows = 0;
  while (csv.next(f)) {
    const uint64_t line = csv.record_line();
    if (f.size() <= static_cast<std::size_t>(std::max(name, time))) {
      issues.short_row(line, f.size(), cols.size());
      continue;
    }
    ++rows;
    const std::string api(trim_cell(f[static_cast<std::size_t>(name)]));
    // Operator compilation on the host: aclopCompile, aclopCompileAndExecute, OpCompile...
    if (lower(api).find("compile") == std::string::npos) continue;
    bool ok = true;
    const double t = number(f, time, "Time(us)", line, issues, ok);
    const double n = count >= 0 ? number(f, count, "Count", line, issues, ok) : 1;
    if (!ok) continue;
    acc.compile.compile_us += t;
    add_count(acc.compile.compile_calls, n);
    auto it = std::find_if(acc.compile.compile_apis.begin(), acc.compile.compile_apis.end(),
                           [&](const auto& p) { return p.first == api; });
    if (it == acc.compile.compile_apis.end()) {
      if (acc.compile.compile_apis.size() < 32) acc.compile.compile_apis.emplace_back(api, t);
    } else {
      it->second += t;
    }
  }
  finish(csv, rows, issues, input);
}

}  // namespace npu_doctor::profile_detail
