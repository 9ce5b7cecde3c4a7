#include "bundle/collector.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "hccl/hccn_live.hpp"
#include "bundle/bundle_archive.hpp"
#include "bundle/probe_record.hpp"
#include "bundle/redaction.hpp"
#include "bundle/report_md.hpp"
#include "bundle/staged_member.hpp"
#include "checks/check_runner.hpp"
#include "checks/compatibility.hpp"
#include "diagnosis/diagnosis.hpp"
#include "npu_doctor/parse/npu_smi.hpp"
#include "diagnosis/render.hpp"
#include "npu_doctor/text.hpp"
#include "npu_doctor/version.hpp"
#include "checks/check_render.hpp"
#include "render/json_stream.hpp"
#include "core/regex.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace npu_doctor::bundle {

bool relevant_variable(const std::string& name) {
  static const char* const kPrefixes[] = {"ASCEND_", "HCCL_", "HCCN_", "MASTER_", "PYTORCH_", "TORCH_", "NPU_",
                                          "ACL_",    "GE_",   "TE_",   "OMP_",    "TASK_QUEUE_", "MULTI_STREAM_",
                                          "INF_NAN_", "COMBINED_ENABLE_", "DYNAMIC_", "MS_", "RANK_TABLE_"};
  static const char* const kNames[] = {"RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "NODE_RANK",
                                       "GROUP_RANK", "RANK_ID", "RANK_SIZE", "DEVICE_ID", "LD_LIBRARY_PATH",
                                       "PATH", "PYTHONPATH", "LD_PRELOAD", "CUDA_VISIBLE_DEVICES", "HOME",
                                       "USER", "SHELL", "LANG", "LC_ALL", "TZ", "HOSTNAME", "VIRTUAL_ENV",
                                       "CONDA_DEFAULT_ENV", "CONDA_PREFIX", "SLURM_JOB_ID", "SLURM_NODELIST"};
  for (const char* p : kPrefixes) {
    if (name.starts_with(p)) return true;
  }
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

namespace {

std::string command_line(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) s += (s.empty() ? "" : " ") + a;
  return s;
}

std::string iso_time(std::time_t t) {
  char buf[32];
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// A path on the machine as a member name below `prefix` ("sysroot/", "logs/"), or "" when
// it cannot be one (relative, "..").
std::string member_under(const std::string& prefix, const std::string& path) {
  const fs::path p = fs::path(path).lexically_normal();
  if (!p.is_absolute()) return {};
  for (const auto& part : p) {
    if (part == "..") return {};
  }
  const std::string rel = p.relative_path().string();
  return rel.empty() ? std::string() : prefix + rel;
}

std::vector<std::string> regex_all(const char* pattern, std::string_view text) {
  std::string error;
  static std::map<std::string, Regex> cache;
  auto it = cache.find(pattern);
  if (it == cache.end()) {
    auto re = Regex::compile(pattern, false, error);
    if (!re) return {};
    it = cache.emplace(pattern, std::move(*re)).first;
  }
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (auto m = it->second.search(text, pos)) {
    if (m->end <= m->begin) break;
    out.emplace_back(text.substr(m->begin, m->end - m->begin));
    pos = m->end;
  }
  return out;
}

struct CommandRecord {
  std::vector<std::string> argv;
  std::string member;
  std::string status;
  double seconds = 0;
};

class Collector {
 public:
  Collector(const BundleOptions& o, const KnowledgeBase& kb, std::string top_dir)
      : o_(o), kb_(kb), writer_(o.output, std::move(top_dir)), host_(o.root, command_options(o)), recorder_(host_, redactor_) {}
  ~Collector() {
    if (!work_.empty()) {
      std::error_code ec;
      fs::remove_all(work_, ec);
    }
  }
  Collector(const Collector&) = delete;
  Collector& operator=(const Collector&) = delete;

  BundleResult run();

 private:
  static CommandOptions command_options(const BundleOptions& o) {
    CommandOptions c;
    c.timeout = o.timeout;
    c.max_output = 8u << 20;
    return c;
  }
  void put(const std::string& member, std::string_view redacted);
  void put_raw_text(const std::string& member, std::string_view raw) { put(member, redactor_.redact(raw)); }
  bool make_work_dir();
  std::string staged_path(const std::string& member) const { return work_ + "/" + member; }
  // Adds a member staged in the work directory (closing it first); false when it failed.
  bool put_staged(const std::string& member, StagedMember& staged);
  bool stage_log(const LogFile& f, const std::string& member);
  CommandResult command(const std::vector<std::string>& argv);
  void skip(std::string item, std::string reason) { skipped_.push_back({std::move(item), std::move(reason)}); }

  void gather_hardware();
  void gather_network();
  void register_identifiers();
  void write_gathered();
  void write_environment();
  void run_check();
  void collect_logs();
  void run_diagnose();
  void write_report();
  void write_manifest();

  const BundleOptions& o_;
  const KnowledgeBase& kb_;
  Redactor redactor_;
  ArchiveWriter writer_;
  SystemProbe host_;
  // Every command and the check's reads go through it: the probe record lets `check`,
  // `hccl hccn` and `mem watch` replay this host (--root BUNDLE).
  RecordingProbe recorder_;
  std::vector<SkippedItem> skipped_;
  std::set<std::string> hung_;
  std::vector<CommandRecord> commands_;
  std::vector<std::pair<std::string, std::string>> gathered_;  // member -> raw text, written after identifiers
  std::string npu_smi_info_;
  std::uint64_t written_ = 0;
  bool failed_ = false;
  std::string error_;
  ReportFacts facts_;
  std::size_t logs_collected_ = 0;
  std::string work_;                                 // private work directory (redacted text only)
  std::string last_staged_dir_;
  LogSelection selection_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::time_t created_ = std::time(nullptr);
};

void Collector::put(const std::string& member, std::string_view redacted) {
  if (failed_ || member.empty()) return;
  std::string error;
  if (!writer_.add(member, redacted, error)) {
    failed_ = true;
    error_ = "cannot write the bundle: " + error;
    return;
  }
  written_ += redacted.size();
}

CommandResult Collector::command(const std::vector<std::string>& argv) {
  CommandResult r;
  const std::string shown = command_line(argv);
  if (hung_.count(argv.front()) != 0) {
    r.error = argv.front() + " was not run again: it did not answer before";
    skip(shown, r.error);
    return r;
  }
  r = recorder_.run(argv);
  if (r.timed_out) hung_.insert(argv.front());
  if (!r.started || r.timed_out) skip(shown, r.describe());
  commands_.push_back({argv, {}, r.describe(), r.seconds});
  return r;
}

void Collector::gather_hardware() {
  auto keep = [&](const std::vector<std::string>& argv, const std::string& member) {
    const CommandResult r = command(argv);
    if (!r.started) return r;
    commands_.back().member = member;
    std::string text = r.out;
    if (!r.err.empty()) text += (text.empty() || text.ends_with('\n') ? "" : "\n") + std::string("--- stderr ---\n") + r.err;
    if (!r.ok()) text += "--- " + r.describe() + " ---\n";
    gathered_.emplace_back(member, std::move(text));
    return r;
  };
  const CommandResult info = keep({"npu-smi", "info"}, "hardware/npu-smi-info.txt");
  std::set<int> npus;
  if (info.ok()) {
    npu_smi_info_ = info.out;
    if (auto parsed = parse_npu_smi_info(info.out)) {
      for (const auto& c : parsed->chips) npus.insert(c.npu);
    }
  }
  for (int n : npus) {
    for (const char* kind : {"board", "health"}) {
      keep({"npu-smi", "info", "-t", kind, "-i", std::to_string(n)},
           "hardware/npu-smi-" + std::string(kind) + "-" + std::to_string(n) + ".txt");
    }
  }
  keep({"lscpu"}, "hardware/lscpu.txt");
  keep({"numactl", "-H"}, "hardware/numactl.txt");
  for (const char* f : {"/proc/cpuinfo", "/proc/meminfo", "/etc/os-release"}) {
    errno = 0;
    if (auto text = host_.read_file(f, 4u << 20)) {
      gathered_.emplace_back("hardware/" + fs::path(f).filename().string() + ".txt", *text);
    } else {
      skip(f, errno ? std::string("cannot read: ") + std::strerror(errno) : std::string("cannot read"));
    }
  }
}

void Collector::gather_network() {
  for (const auto& argv : std::vector<std::vector<std::string>>{{"ip", "addr"}, {"ip", "route"}}) {
    const CommandResult r = command(argv);
    if (!r.started) continue;
    const std::string member = "network/ip-" + argv[1] + ".txt";
    commands_.back().member = member;
    gathered_.emplace_back(member, r.out + r.err);
  }
  // hccn_tool answers per device, asked exactly as `hccl hccn` asks (so `hccl hccn --root`
  // finds every answer in the probe record); one file in the layout `hccl hccn` reads.
  const auto tool = hccl::locate_hccn_tool(recorder_);
  if (!tool) {
    skip("hccn_tool", "not found on PATH or in /usr/local/Ascend/driver/tools/");
    return;
  }
  std::vector<int> devices;
  if (auto parsed = parse_npu_smi_info(npu_smi_info_)) devices = hccl::hccn_device_ids(*parsed);
  if (devices.empty()) {  // no usable npu-smi: the device nodes say which devices there are
    for (const auto& name : host_.list_dir("/dev")) {
      if (name.starts_with("davinci") && name.size() > 7 && name.size() <= 7 + 6 &&
          std::all_of(name.begin() + 7, name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        devices.push_back(std::stoi(name.substr(7)));
      }
    }
    std::sort(devices.begin(), devices.end());
  }
  if (devices.empty()) {
    skip("hccn_tool", "npu-smi info lists no device and there are no /dev/davinci<N> device nodes to ask about");
    return;
  }
  std::string text;
  for (int d : devices) {
    for (const auto& q : hccl::hccn_queries()) {
      const CommandResult r = command(hccl::hccn_argv(*tool, d, q.flag));
      text += hccl::hccn_shown(d, q.flag) + "\n";
      if (r.started) {
        commands_.back().member = "network/hccn_tool.txt";
        text += r.out + r.err;
        if (!r.out.empty() && !r.out.ends_with('\n')) text += "\n";
      }
    }
  }
  gathered_.emplace_back("network/hccn_tool.txt", text);
}

void Collector::register_identifiers() {
  if (!o_.anonymize) return;
  // The host's names.
  std::string host;
  if (o_.root == "/") {
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) == 0) host = buf;
  } else if (auto h = host_.read_file("/etc/hostname")) {
    host = std::string(trim(*h));
  }
  if (!host.empty()) {
    redactor_.add_identifier(IdentifierKind::host, host);
    if (auto dot = host.find('.'); dot != std::string::npos) redactor_.add_identifier(IdentifierKind::host, host.substr(0, dot));
  }
  // People: the user running this, and the login accounts of the machine.
  for (const char* v : {"USER", "LOGNAME"}) {
    if (auto it = o_.environment.find(v); it != o_.environment.end() && it->second != "root") {
      redactor_.add_identifier(IdentifierKind::user, it->second);
    }
  }
  if (auto passwd = host_.read_file("/etc/passwd")) {
    for (const auto& e : checks::parse_passwd(*passwd)) {
      if (e.uid >= 1000 && e.uid != 65534) redactor_.add_identifier(IdentifierKind::user, e.name);
    }
  }
  if (!o_.identity.user.empty() && o_.identity.user != "root") redactor_.add_identifier(IdentifierKind::user, o_.identity.user);
  // Addresses: what the network commands and the job's address variables show.
  std::string network_text;
  for (const auto& [member, text] : gathered_) {
    if (member.starts_with("network/")) network_text += text + "\n";
  }
  for (const auto& [name, value] : o_.environment) {
    if (name.find("ADDR") != std::string::npos || name.find("_IP") != std::string::npos || name.ends_with("HOST")) {
      network_text += value + "\n";
    }
  }
  for (const auto& ip : regex_all(R"((?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.]))", network_text)) {
    if (!ip.starts_with("127.") && !ip.starts_with("255.") && !ip.starts_with("0.")) {
      redactor_.add_identifier(IdentifierKind::ipv4, ip);
    }
  }
  for (const auto& mac : regex_all(R"((?<![0-9A-Fa-f:])(?:[0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}(?![0-9A-Fa-f:]))", network_text)) {
    if (mac != "ff:ff:ff:ff:ff:ff") redactor_.add_identifier(IdentifierKind::mac, mac);
  }
}

void Collector::write_gathered() {
  for (const auto& [member, text] : gathered_) put_raw_text(member, text);
}

void Collector::write_environment() {
  std::string text;
  for (const auto& [name, value] : o_.environment) {
    if (!relevant_variable(name)) continue;
    const std::string line = name + "=" + redactor_.redact_variable(name, value) + "\n";
    text += line;
  }
  facts_.environment = text;
  put("environment.txt", text);
}

void Collector::run_check() {
  if (!o_.run_check) {
    skip("check", "--no-check");
    return;
  }
  checks::CheckOptions opts;
  opts.identity = o_.identity;
  opts.timeout = o_.timeout;
  const checks::CheckReport report = checks::run_checks(recorder_, kb_, checks::CompatibilityTable::builtin(), opts);
  RenderOptions ro;
  ro.lang = o_.lang;
  std::ostringstream js, txt;
  checks::render_check_json(report, ro, js);
  checks::render_check_text(report, ro, txt);
  put_raw_text("check/report.json", js.str());
  put_raw_text("check/report.txt", txt.str());
  ProbeRecord record = recorder_.redacted_record();
  record.identity = o_.identity;
  for (const auto& [path, content] : record.files) {
    if (content) put(member_under("sysroot/", path), *content);
  }
  put(kProbeRecordMember, record.to_json());
  facts_.check_status = std::string(checks::to_string(report.status()));
  for (const auto& step : report.steps) {
    facts_.check_steps.push_back({std::string(checks::to_string(step.id)), std::string(checks::to_string(step.status()))});
    for (const auto& [k, v] : step.facts) facts_.versions.emplace_back(k, redactor_.redact(v));
    for (const auto& f : step.findings) facts_.check_findings.push_back(redactor_.redact(f.entry->id + ": " + f.entry->title.get(o_.lang)));
  }
}

bool Collector::make_work_dir() {
  if (!work_.empty()) return true;
  // Beside the archive (the user chose that place for the bundle), owner-only.
  const fs::path out(o_.output);
  const fs::path dir = out.has_parent_path() ? out.parent_path() : fs::path(".");
  std::string pattern = (dir / ("." + out.filename().string() + ".work-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    failed_ = true;
    error_ = "cannot create a work directory in " + dir.string() + ": " + std::strerror(errno);
    return false;
  }
  work_ = pattern;
  return true;
}

bool Collector::put_staged(const std::string& member, StagedMember& staged) {
  std::string error;
  if (!staged.close(error) || !writer_.add_file(member, staged.path(), error)) {
    failed_ = true;
    error_ = "cannot write the bundle: " + error;
    return false;
  }
  written_ += writer_.last_member_size();
  return true;
}

// One log, read and redacted block by block into the work directory, then archived.
bool Collector::stage_log(const LogFile& f, const std::string& member) {
  std::ifstream in(f.open_path(), std::ios::binary);
  if (!in) {
    skip(redactor_.redact(f.shown), std::string("cannot read: ") + std::strerror(errno));
    return false;
  }
  std::string buf(64u << 10, '\0');
  in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
  std::size_t n = static_cast<std::size_t>(in.gcount());
  if (looks_binary(std::string_view(buf.data(), n))) {
    // Compressed or binary data cannot be searched for secrets, so it stays out.
    skip(redactor_.redact(f.shown), "binary or compressed: cannot be redacted");
    return false;
  }
  const std::string path = staged_path(member);
  // Logs come directory by directory: create each directory once, not once per log.
  if (std::string parent = fs::path(path).parent_path().string(); parent != last_staged_dir_) {
    std::error_code ec;
    fs::create_directories(parent, ec);
    last_staged_dir_ = std::move(parent);
  }
  StagedMember staged(&redactor_, path);
  while (n > 0) {
    staged.write(std::string_view(buf.data(), n));
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    n = static_cast<std::size_t>(in.gcount());
  }
  if (in.bad()) {
    std::string ignored;
    staged.close(ignored);
    ::unlink(path.c_str());  // not a log of the bundle: diagnose reads the logs' directory
    skip(redactor_.redact(f.shown), std::string("cannot read: ") + std::strerror(errno));
    return false;
  }
  return put_staged(member, staged);
}

void Collector::collect_logs() {
  std::vector<std::string> defaults;
  if (o_.default_logs) defaults = default_log_locations(o_.environment);
  std::optional<std::int64_t> newer_than;
  if (o_.since_seconds) newer_than = static_cast<std::int64_t>(created_) - *o_.since_seconds;
  const std::uint64_t budget = o_.max_size > written_ ? o_.max_size - written_ : 0;
  selection_ = select_logs(o_.log_paths, defaults, o_.root, newer_than, budget);
  for (auto& s : selection_.skipped) skip(redactor_.redact(s.item), s.reason);
  bool any_dir = false;
  if (!selection_.files.empty() && !make_work_dir()) return;
  for (const auto& f : selection_.files) {
    if (failed_) return;
    const std::string member = member_under("logs/", redactor_.redact(f.shown));
    if (member.empty() || !stage_log(f, member)) continue;
    ++logs_collected_;
    any_dir = true;
  }
  if (!any_dir && !failed_) {
    std::string error;
    writer_.add_directory("logs", error);  // diagnose on the bundle finds an empty log directory
  }
  selection_.files = LogFiles();  // done with: its spool's memory and temporary file go
}

void Collector::run_diagnose() {
  if (!o_.run_diagnose) {
    skip("diagnose", "--no-diagnose");
    return;
  }
  if (logs_collected_ == 0) {
    skip("diagnose", "no logs collected");
    return;
  }
  std::vector<KbProblem> problems;
  Diagnoser diagnoser(kb_, problems, o_.cache_dir);
  DiagnoseOptions opts;
  // The redacted copies: the report, made from them, cannot hold what redaction removed.
  // Their directory, not a list of 100,000 paths: it holds exactly the logs staged.
  opts.paths = {staged_path("logs")};
  opts.jobs = 2;
  DiagnosisReport report = diagnoser.run(opts);
  auto shown = [&](std::string& p) {
    // A redacted copy in the work directory is shown as its member.
    if (p.starts_with(work_ + "/")) p.erase(0, work_.size() + 1);
  };
  report.inputs.rewrite_paths(shown);
  for (auto& f : report.findings) {
    for (auto& e : f.evidence) shown(e.path);
  }
  RenderOptions ro;
  ro.lang = o_.lang;
  // Reports of many logs can be large: rendered through the redactor into the work
  // directory. (Already made from redacted text; redacted again for the paths and words
  // the report adds.)
  for (const char* member : {"diagnose/report.json", "diagnose/report.txt"}) {
    std::error_code ec;
    fs::create_directories(fs::path(staged_path(member)).parent_path(), ec);
    StagedMember staged(&redactor_, staged_path(member));
    if (std::string_view(member).ends_with(".json")) render_diagnosis_json(report, ro, staged.stream());
    else render_diagnosis_text(report, ro, staged.stream());
    if (!put_staged(member, staged)) return;
  }
  if (const Finding* root = report.root_finding()) {
    std::string text = root->entry->id + (root->code.empty() ? "" : " (" + root->code + ")") + ": " +
                       finding_title(*root, o_.lang) + "\n";
    const Evidence& e = root->first();
    text += "\n" + e.path + ":" + std::to_string(e.line) + "\n";
    for (const auto& c : e.before) text += "  " + c.text + "\n";
    text += "> " + e.text + "\n";
    for (const auto& c : e.after) text += "  " + c.text + "\n";
    facts_.root_cause = redactor_.redact(text);
  }
  facts_.findings = report.findings.size();
}

void Collector::write_report() {
  facts_.created = iso_time(created_);
  facts_.tool_version = std::string(kVersion);
  facts_.hardware = redactor_.redact(npu_smi_info_);
  for (const auto& [member, text] : gathered_) {
    if (member == "network/ip-addr.txt" || member == "network/hccn_tool.txt") facts_.topology += redactor_.redact(text);
  }
  facts_.skipped = skipped_;
  facts_.logs = logs_collected_;
  put("report.md", render_report_md(facts_, o_.lang));
}

// Streamed (one member, command or skipped item at a time); keys in alphabetical order,
// as nlohmann::json writes them.
void Collector::write_manifest() {
  if (failed_ || !make_work_dir()) return;
  // Every string in it is redacted where it is put in; the whole is not searched again
  // (its rule names, "aws-access-key": 3, read as secret names).
  StagedMember staged(nullptr, staged_path(kManifestMember));
  render_detail::JsonStreamWriter w(staged.stream(), 1);
  w.begin_object();
  w.begin_array("commands");
  for (const auto& c : commands_) {
    w.element(json{{"argv", redactor_.redact_argv(c.argv)}, {"status", redactor_.redact(c.status)}, {"seconds", c.seconds},
                   {"member", c.member.empty() ? json(nullptr) : json(c.member)}});
  }
  w.end_array();
  w.member("complete", json(true));
  w.member("created", json(iso_time(created_)));
  json searched = json::array();
  for (const auto& s : selection_.searched) searched.push_back(redactor_.redact(s));
  w.member("logs", json{{"searched", searched}, {"collected", logs_collected_}});
  w.begin_array("members");
  for (std::size_t i = 0; i < writer_.member_count(); ++i) {
    const MemberInfo mi = writer_.member(i);
    w.element(json{{"path", mi.path}, {"size", mi.size}, {"sha256", mi.sha256()}});
  }
  w.end_array();
  w.member("options", json{{"root", redactor_.redact(o_.root)},
                           {"max_size", o_.max_size},
                           {"since_seconds", o_.since_seconds ? json(*o_.since_seconds) : json(nullptr)},
                           {"timeout_ms", o_.timeout.count()},
                           {"anonymized", o_.anonymize}});
  json counts = json::object();
  for (const auto& [k, v] : redactor_.counts()) counts[k] = v;
  w.member("redactions", counts);
  w.member("schema", json(kManifestSchema));
  w.member("seconds", json(std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count()));
  w.begin_array("skipped");
  for (const auto& sk : skipped_) w.element(json{{"item", redactor_.redact(sk.item)}, {"reason", redactor_.redact(sk.reason)}});
  w.end_array();
  w.member("tool_version", json(std::string(kVersion)));
  w.end_object();
  staged.stream() << "\n";
  put_staged(kManifestMember, staged);
}

BundleResult Collector::run() {
  BundleResult result;
  result.path = o_.output;
  std::string error;
  if (!writer_.open(error)) {
    result.error = error;
    return result;
  }
  put(kMarkerMember, json({{"schema", kBundleSchema}, {"tool_version", std::string(kVersion)}}).dump() + "\n");
  gather_hardware();
  gather_network();
  register_identifiers();  // before anything else is written: every member is redacted alike
  write_gathered();
  write_environment();
  run_check();
  collect_logs();
  run_diagnose();
  write_report();
  write_manifest();
  if (!failed_ && !writer_.finish(error)) {
    failed_ = true;
    error_ = error;
  }
  result.written = !failed_;
  result.error = error_;
  result.members = writer_.member_count();
  result.uncompressed_bytes = written_;
  result.archive_bytes = result.written ? writer_.bytes_written() : 0;
  result.skipped = skipped_;
  result.redactions = redactor_.counts();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return result;
}

}  // namespace

BundleResult collect_bundle(const BundleOptions& options, const KnowledgeBase& kb) {
  std::string top = fs::path(options.output).filename().string();
  for (const char* ext : {".tar.gz", ".tgz"}) {
    if (top.ends_with(ext)) top.resize(top.size() - std::string_view(ext).size());
  }
  if (top.empty() || top == "." || top == "..") top = "npu-doctor-bundle";
  Collector c(options, kb, top);
  return c.run();
}

}  // namespace npu_doctor::bundle
