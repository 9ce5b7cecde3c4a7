// Splitting inputs into incidents (one failing run each): the rules are in
// src/diagnosis/incidents.hpp and docs/incidents.md.
#include "incidents.hpp"
#include "npu_doctor/external_sort.hpp"
#include "npu_doctor/text.hpp"

#include <algorithm>
#include <limits>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>
#include <unordered_map>

namespace npu_doctor {
namespace {

std::string_view base_name(std::string_view path) {
  const auto slash = path.find_last_of("/:");
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// The directory part of a display path ("a.tar.gz:job/rank_0/x.log" -> "a.tar.gz:job/rank_0").
std::string_view dir_name(std::string_view path) {
  const auto slash = path.find_last_of("/:");
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A directory named for a job: job-1234, job_a, jobid-7, job42 (not "jobs" or "job").
bool is_job_dir(std::string_view comp) {
  std::string lower(comp);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string_view rest(lower);
  if (rest.rfind("jobid", 0) == 0) rest.remove_prefix(5);
  else if (rest.rfind("job", 0) == 0) rest.remove_prefix(3);
  else return false;
  if (!rest.empty() && (rest.front() == '-' || rest.front() == '_')) return rest.size() > 1;
  return std::any_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string job_of(std::string_view path) {
  const std::string_view dir = dir_name(path);
  std::size_t begin = 0;
  while (begin <= dir.size()) {
    std::size_t end = dir.find_first_of("/:", begin);
    if (end == std::string_view::npos) end = dir.size();
    const std::string_view comp = dir.substr(begin, end - begin);
    if (is_job_dir(comp)) return std::string(comp);
    begin = end + 1;
  }
  return {};
}

// Path components two directories share from the start.
std::size_t shared_components(std::string_view a, std::string_view b) {
  std::size_t n = 0, i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) {
    if (a[i] == '/' || a[i] == ':') ++n;
    ++i;
  }
  if ((i == a.size() || a[i] == '/' || a[i] == ':') && (i == b.size() || b[i] == '/' || b[i] == ':') && i > 0) ++n;
  return n;
}

// Where an input's start or end time comes from. Facts keep this and the time's micros
// only (a Timestamp copy holds its text on the heap: two per input were most of the
// memory of a 100,000-input split); the Timestamp is read again when an incident takes it.
enum class TimeSource : unsigned char { none, plog_name, first_line, last_line };

// What the split compares of each input, read from its report once: the reports are in an
// InputStore, where each look-up decodes a record, and the comparisons below are per pair.
struct Facts {  // one per input, 40 bytes: ordered to leave no padding but the tail's
  static constexpr int32_t kNoPid = std::numeric_limits<int32_t>::min();
  static constexpr int kNoRank = std::numeric_limits<int>::min();
  int64_t start_us = 0, end_us = 0;  // valid when the source is not none (then dated)
  int32_t pid = kNoPid;              // from the plog file name (Linux pids fit in 31 bits)
  int rank = kNoRank;
  uint32_t host = 0;                 // index into the split's host names
  uint32_t index = 0;
  uint32_t job = 0;                  // index into the split's job names
  TimeSource start = TimeSource::none, end = TimeSource::none;
};
static_assert(sizeof(Facts) <= 40, "one per input: keep it small");

std::optional<Timestamp> time_of(TimeSource source, const InputReport& in) {
  switch (source) {
    case TimeSource::plog_name:
      if (auto p = parse_plog_name(in.path)) return p->start;
      return std::nullopt;
    case TimeSource::first_line: return in.timeline.first_time;
    case TimeSource::last_line: return in.timeline.last_time;
    case TimeSource::none: break;
  }
  return std::nullopt;
}

// The processes seen for one rank on one host in a run: a second process is a restart.
struct ProcessesOfRank {
  int32_t pid = Facts::kNoPid;
  bool several = false;
};

struct Building {
  Incident incident;  // all but its member list, which is filled in input order at the end
  std::size_t id = 0;  // in order of creation
  int64_t end_us = 0;
  // What the members' facts are still needed for (not the facts themselves: memory stays
  // per rank and directory, not per input).
  std::map<std::pair<int, uint32_t>, ProcessesOfRank> processes;  // (rank, host)
  std::set<long> pids;
  std::set<int> ranks;
  std::set<std::string> dirs;  // the members' directories, for placing undated inputs
};

// An input given to a run; sorted by input so that member lists are built in order.
struct Assignment {
  uint32_t index;
  uint32_t run;  // Building::id
};

using Assignments = ExternalSorter<Assignment, bool (*)(const Assignment&, const Assignment&)>;

bool by_input(const Assignment& a, const Assignment& b) { return a.index < b.index; }

void add_member(Building& b, const Facts& f, const InputStore& inputs, Assignments& members) {
  const InputReport in = inputs[f.index];
  members.push({f.index, static_cast<uint32_t>(b.id)});
  b.dirs.emplace(dir_name(in.path));
  if (f.pid != Facts::kNoPid) b.pids.insert(f.pid);
  if (f.rank != Facts::kNoRank) b.ranks.insert(f.rank);
  if (f.pid != Facts::kNoPid && f.rank != Facts::kNoRank) {
    ProcessesOfRank& seen = b.processes[{f.rank, f.host}];
    if (seen.pid == Facts::kNoPid) seen.pid = f.pid;
    else if (seen.pid != f.pid) seen.several = true;
  }
  const auto& first = b.incident.first_time;
  if (f.start != TimeSource::none && (!dated(first) || f.start_us < first->micros)) {
    b.incident.first_time = time_of(f.start, in);
  }
  const auto& last = b.incident.last_time;
  if (f.end != TimeSource::none && (!dated(last) || f.end_us > last->micros)) {
    b.incident.last_time = time_of(f.end, in);
  }
  if (f.end != TimeSource::none) b.end_us = std::max(b.end_us, f.end_us);
}

// The same rank on the same host in another process: the job was started again.
bool conflicts(const Building& b, const Facts& f) {
  if (f.rank == Facts::kNoRank || f.pid == Facts::kNoPid) return false;
  const auto seen = b.processes.find({f.rank, f.host});
  return seen != b.processes.end() && (seen->second.several || seen->second.pid != f.pid);
}

}  // namespace

std::optional<PlogName> parse_plog_name(std::string_view path) {
  std::string_view name = base_name(path);
  if (name.rfind("plog-", 0) == 0) name.remove_prefix(5);
  else if (name.rfind("device-", 0) == 0) name.remove_prefix(7);
  else return std::nullopt;
  const auto us = name.find('_');
  if (us == std::string_view::npos || !all_digits(name.substr(0, us))) return std::nullopt;
  const auto pid = parse_number<long>(name.substr(0, us));
  if (!pid) return std::nullopt;
  PlogName out;
  out.pid = *pid;
  std::string_view stamp = name.substr(us + 1);
  std::size_t n = 0;
  while (n < stamp.size() && stamp[n] >= '0' && stamp[n] <= '9') ++n;
  if (n == 17) {
    const std::string d(stamp.substr(0, 17));
    // As a plog line writes it, so the one time-stamp parser reads both.
    const std::string text = d.substr(0, 4) + "-" + d.substr(4, 2) + "-" + d.substr(6, 2) + "-" + d.substr(8, 2) + ":" +
                             d.substr(10, 2) + ":" + d.substr(12, 2) + "." + d.substr(14, 3) + ".000";
    if (auto t = find_timestamp(text); t && t->has_year && t->text.size() == text.size()) out.start = t;
  }
  return out;
}

std::string format_time(const Timestamp& t) {
  if (!t.has_year) return t.text;
  // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
  int64_t secs = t.micros / 1'000'000;
  if (t.micros < 0 && t.micros % 1'000'000 != 0) --secs;
  int64_t days = secs / 86400;
  int64_t rem = secs % 86400;
  if (rem < 0) {
    rem += 86400;
    --days;
  }
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp < 10 ? mp + 3 : mp - 9;
  const int64_t y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lld %02lld:%02lld:%02lld", static_cast<long long>(y),
                static_cast<long long>(m), static_cast<long long>(d), static_cast<long long>(rem / 3600),
                static_cast<long long>(rem / 60 % 60), static_cast<long long>(rem % 60));
  return buf;
}

std::vector<Incident> split_incidents(const InputStore& inputs, const IncidentOptions& options) {
  // Jobs in order of first appearance; within each, the dated inputs swept in time order,
  // then the undated ones in input order. Past options.facts_in_memory inputs the facts are
  // sorted through a temporary file (memory stays a few MiB however many inputs there are).
  const auto order = [](const Facts& a, const Facts& b) {
    if (a.job != b.job) return a.job < b.job;
    const bool da = a.start != TimeSource::none, db = b.start != TimeSource::none;
    if (da != db) return da;
    if (da && a.start_us != b.start_us) return a.start_us < b.start_us;
    return a.index < b.index;
  };
  ExternalSorter<Facts, decltype(order)> facts(options.facts_in_memory, order);
  std::vector<std::string> jobs;  // in order of first appearance
  std::unordered_map<std::string, uint32_t> job_ids;
  std::unordered_map<const std::string*, uint32_t> host_ids;  // by interned text
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const InputReport& in = inputs[i];
    if (in.status != InputStatus::ok && in.status != InputStatus::partial) continue;
    Facts f;
    f.index = static_cast<uint32_t>(i);
    f.rank = in.rank.value_or(Facts::kNoRank);
    f.host = host_ids.try_emplace(&in.host.str(), static_cast<uint32_t>(host_ids.size())).first->second;
    std::string job = job_of(in.path);
    const auto [known, added] = job_ids.try_emplace(job, static_cast<uint32_t>(jobs.size()));
    if (added) jobs.push_back(std::move(job));
    f.job = known->second;
    std::optional<Timestamp> named;
    if (auto p = parse_plog_name(in.path)) {
      if (p->pid >= 0 && p->pid <= std::numeric_limits<int32_t>::max()) f.pid = static_cast<int32_t>(p->pid);
      named = std::move(p->start);
    }
    // The start: the plog name's time or the first dated line, whichever is earlier, else
    // the last line's time; the end: the last line's time when later than the start.
    const CompactTime& first = in.timeline.first_time;
    const CompactTime& last = in.timeline.last_time;
    if (dated(named) && (!dated(first) || named->micros < first.micros())) {
      f.start = TimeSource::plog_name, f.start_us = named->micros;
    } else if (dated(first)) {
      f.start = TimeSource::first_line, f.start_us = first.micros();
    } else if (dated(last)) {
      f.start = TimeSource::last_line, f.start_us = last.micros();
    }
    // Every start above is dated: the end is the last line's time when later.
    if (dated(last) && (f.start == TimeSource::none || last.micros() > f.start_us)) {
      f.end = TimeSource::last_line;
      f.end_us = last.micros();
    } else {
      f.end = f.start;
      f.end_us = f.start_us;
    }
    facts.push(f);
  }

  std::vector<Building> done;
  std::vector<Building> runs;  // of the job being swept
  std::size_t runs_made = 0;
  const auto new_run = [&](const std::string& job) -> Building& {
    runs.emplace_back();
    runs.back().id = runs_made++;
    runs.back().incident.job = job;
    return runs.back();
  };
  // Members go through a sorter by input (memory stays bounded at any count, like the facts').
  Assignments members(options.facts_in_memory, &by_input);
  const auto job_done = [&] {
    for (auto& r : runs) done.push_back(std::move(r));
    runs.clear();
  };
  uint32_t job_swept = std::numeric_limits<uint32_t>::max();
  facts.for_each_sorted([&](const Facts& f) {
    if (f.job != job_swept) {
      job_done();
      job_swept = f.job;
    }
    const std::string& job = jobs[f.job];
    if (f.start != TimeSource::none) {
      Building* cur = runs.empty() ? nullptr : &runs.back();
      if (cur == nullptr || f.start_us > cur->end_us + options.gap_us || conflicts(*cur, f)) {
        cur = &new_run(job);
        cur->end_us = f.start_us;
      }
      add_member(*cur, f, inputs, members);
      return;
    }
    // Undated: with the run whose inputs share most of their directory (the latest on a
    // tie), or all together when the job has no dated run.
    const std::string dir(dir_name(inputs[f.index].path));
    if (runs.empty()) new_run(job);
    Building* best = &runs.back();
    std::size_t best_score = 0;
    for (auto& r : runs) {
      std::size_t score = 0;
      for (const std::string& d : r.dirs) score = std::max(score, shared_components(dir, d));
      if (score >= best_score) {
        best_score = score;
        best = &r;
      }
    }
    add_member(*best, f, inputs, members);
  });
  job_done();

  // Oldest first; runs without any date before dated ones (their time is unknown).
  std::stable_sort(done.begin(), done.end(), [](const Building& a, const Building& b) {
    const bool da = dated(a.incident.first_time), db = dated(b.incident.first_time);
    if (da != db) return !da;
    return da && a.incident.first_time->micros < b.incident.first_time->micros;
  });
  std::vector<Incident> out;
  std::vector<std::size_t> position(runs_made);  // Building::id -> its place in `out`
  for (auto& b : done) {
    Incident& inc = b.incident;
    inc.pids.assign(b.pids.begin(), b.pids.end());
    inc.ranks.assign(b.ranks.begin(), b.ranks.end());
    position[b.id] = out.size();
    out.push_back(std::move(inc));
  }
  members.for_each_sorted([&](const Assignment& a) { out[position[a.run]].inputs.push_back(a.index); });
  return out;
}

}  // namespace npu_doctor
