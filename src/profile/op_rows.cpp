// op_summary_*.csv (msprof) and kernel_details.csv (torch_npu profiler): one row per task.
#include <algorithm>

#include "csv_reader.hpp"
#include "profile_accumulator.hpp"

namespace npu_doctor::profile_detail {
namespace {

void add_span(DeviceSpan& s, double start, double dur) {
  const double end = start + dur;
  if (!s.started) {
    s = DeviceSpan{};
    s.first_start = s.last_start = s.min_start = start;
    s.max_end = s.busy_end = end;
    s.started = true;
    return;
  }
  if (start + 1e-3 < s.last_start) s.ordered = false;  // rows not in time order: gaps are unreliable
  s.last_start = std::max(s.last_start, start);
  s.min_start = std::min(s.min_start, start);
  s.max_end = std::max(s.max_end, end);
  if (start > s.busy_end) s.gaps += start - s.busy_end;
  s.busy_end = std::max(s.busy_end, end);
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

}  // namespace

void read_op_rows(ByteStream& in, const std::string& path, const std::string& kind, Accumulator& acc,
                  ProfileInput& input) {
  CsvReader csv(in);
  ColumnIssues issues(path, acc.column_problems);
  std::vector<std::string_view> f;
  InputReport& rep = input.report;
  if (!csv.next(f)) {
    rep.status = csv.error().empty() ? InputStatus::skipped : InputStatus::error;
    rep.note = csv.error().empty() ? "empty file (no header)" : csv.error();
    return;
  }
  const CsvColumns cols(f);
  const int type = cols.find({"OP Type", "Type", "Op Type"});
  const int name = cols.find({"Op Name", "Name"});
  const int task = cols.find({"Task Type", "Accelerator Core", "Core Type"});
  const int dur = cols.find({"Task Duration(us)", "Duration(us)", "Task Duration"});
  const int start = cols.find({"Task Start Time(us)", "Start Time(us)", "Task Start Time", "Start Time"});
  const int device = cols.find({"Device_id", "Device ID"});
  const int state = cols.find({"OP State"});
  const std::string dur_name = kind == "kernel_details" ? "Duration(us)" : "Task Duration(us)";
  if (dur < 0 || (type < 0 && name < 0)) {
    if (dur < 0) issues.missing(dur_name);
    if (type < 0 && name < 0) issues.missing(kind == "kernel_details" ? "Type" : "OP Type");
    issues.flush();
    rep.status = InputStatus::error;
    rep.note = std::string("not usable: no ") + (dur < 0 ? "'" + dur_name + "'" : "operator type or name") +
               " column in the header";
    return;
  }
  if (type < 0) issues.missing(kind == "kernel_details" ? "Type" : "OP Type");
  if (task < 0) issues.missing(kind == "kernel_details" ? "Accelerator Core" : "Task Type");
  if (start < 0) issues.missing(kind == "kernel_details" ? "Start Time(us)" : "Task Start Time(us)");

  OpTable& t = acc.tables[kind];
  ++t.files;
  const std::size_t needed = static_cast<std::size_t>(std::max({type, name, task, dur, start, device, state})) + 1;
  uint64_t rows = 0;
  while (csv.next(f)) {
    if (f.size() < needed) {
      if (f.size() <= static_cast<std::size_t>(dur) || (type >= 0 && f.size() <= static_cast<std::size_t>(type))) {
        issues.short_row(csv.record_line(), f.size(), cols.size());
        continue;
      }
      f.resize(needed);  // the optional trailing columns of a cut row are empty
    }
    double d = 0;
    if (!parse_number(f[static_cast<std::size_t>(dur)], d) || d < 0) {
      if (!is_empty_cell(f[static_cast<std::size_t>(dur)])) {
        issues.bad(dur_name, csv.record_line(), f[static_cast<std::size_t>(dur)]);
      }
      continue;
    }
    std::string_view op_name = name >= 0 ? trim_cell(f[static_cast<std::size_t>(name)]) : std::string_view{};
    std::string_view op_type = type >= 0 ? trim_cell(f[static_cast<std::size_t>(type)]) : std::string_view{};
    if (op_type.empty() || op_type == "N/A") op_type = op_name;
    if (op_type.empty()) op_type = "UNKNOWN";
    std::string tt = task >= 0 ? normalize_task_type(f[static_cast<std::size_t>(task)]) : "UNKNOWN";
    if (tt == "UNKNOWN" && (starts_with(op_type, "hcom_") || starts_with(op_name, "hcom_"))) tt = "COMMUNICATION";

    OpStat& s = t.by_type[{std::string(op_type), tt}];
    if (s.count == 0) {
      s.type = std::string(op_type);
      s.task_type = tt;
      s.min_us = d;
      s.max_us = d;
    }
    ++s.count;
    s.total_us += d;
    s.min_us = std::min(s.min_us, d);
    s.max_us = std::max(s.max_us, d);
    if (s.is_communication()) {
      t.communication_us += d;
    } else {
      t.compute_us += d;
    }
    if (state >= 0) {
      const auto st = trim_cell(f[static_cast<std::size_t>(state)]);
      if (st == "dynamic") ++t.dynamic_tasks;
      else if (st == "static") ++t.static_tasks;
    }
    if (start >= 0) {
      double st = 0;
      if (parse_number(f[static_cast<std::size_t>(start)], st)) {
        std::string key = path + "#";
        if (device >= 0) key += trim_cell(f[static_cast<std::size_t>(device)]);
        add_span(t.spans[key], st, d);
      } else if (!is_empty_cell(f[static_cast<std::size_t>(start)])) {
        issues.bad(kind == "kernel_details" ? "Start Time(us)" : "Task Start Time(us)", csv.record_line(),
                   f[static_cast<std::size_t>(start)]);
      }
    }
    ++rows;
  }
  issues.flush();
  input.rows = rows;
  rep.lines = csv.record_line();
  rep.bytes = csv.bytes_read();
  if (!csv.error().empty()) {
    rep.status = InputStatus::partial;
    rep.note = csv.error();
  } else if (csv.truncated()) {
    rep.status = InputStatus::partial;
    rep.note = "the file ends inside a quoted field (truncated)";
  } else if (rows == 0) {
    rep.note = "no data rows";
  }
}

}  // namespace npu_doctor::profile_detail
