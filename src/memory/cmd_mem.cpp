// npu-doctor mem analyze FILE... | mem watch: device memory (docs/mem.md).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "diagnosis/memory_log_findings.hpp"
#include "core/byte_size.hpp"
#include "mem_report.hpp"
#include "npu_smi_watch.hpp"
#include "sparkline.hpp"
#include "bundle/bundle_archive.hpp"
#include "cli/common.hpp"
#include "cli/duration_option.hpp"
#include "cli/exit_codes.hpp"
#include "mem_render.hpp"
#include "memory/mem_prometheus.hpp"

namespace npu_doctor::cli {
namespace {

struct AnalyzeArgs {
  std::vector<std::string> paths;
  std::string format = "text";
  std::string output = "-";
  std::string html;
  std::string capacity;
  std::optional<int64_t> warmup;
  std::string fragmentation_threshold = "1GiB";
  std::string workload = "auto";
  unsigned jobs = 0;
};

struct MemWatchArgs {
  std::chrono::milliseconds interval{1000};
  std::optional<std::chrono::milliseconds> duration;
  uint64_t count = 0;
  std::string output = "-";
  std::chrono::milliseconds timeout{10000};
  std::string live = "auto";
  std::string root;            // a bundle whose recorded `npu-smi info` is reported once
  bool polling_given = false;  // --interval, --duration, --count or --timeout on the command line
};

// stdin can be read once, but it is read twice (samples, then the log scan): keep a
// copy in a temporary file, shown as "<stdin>".
class StdinSpool {
 public:
  ~StdinSpool() {
    if (!path_.empty()) std::remove(path_.c_str());
  }
  bool spool(std::ostream& err) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "npu-doctor-mem-stdin-XXXXXX").string();
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0) {
      err << "npu-doctor: " << msg(ui::Key::error_mem_no_temp_file, fmt::arg("path", tmpl), fmt::arg("why", std::strerror(errno)))
          << "\n";
      return false;
    }
    path_ = tmpl;
    char buf[1 << 16];
    std::string failure;  // what failed, with its errno text
    for (ssize_t n; failure.empty() && (n = ::read(STDIN_FILENO, buf, sizeof buf)) != 0;) {
      if (n < 0) {
        if (errno == EINTR) continue;
        failure = msg(ui::Key::error_mem_stdin_read, fmt::arg("why", std::strerror(errno)));
        break;
      }
      for (ssize_t off = 0; off < n;) {
        const ssize_t w = ::write(fd, buf + off, static_cast<std::size_t>(n - off));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
          failure = msg(ui::Key::error_mem_stdin_copy, fmt::arg("path", tmpl), fmt::arg("why", std::strerror(w < 0 ? errno : ENOSPC)));
          break;
        }
        off += w;
      }
    }
    ::close(fd);
    const bool ok = failure.empty();
    if (!ok) err << "npu-doctor: " << failure << "\n";
    return ok;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::optional<uint64_t> size_option(const std::string& text, const char* name, std::ostream& err) {
  const auto v = mem::parse_byte_size(text);
  if (!v) err << "npu-doctor: " << msg(ui::Key::error_mem_not_a_size, fmt::arg("option", name), fmt::arg("value", text)) << "\n";
  return v;
}

int run_analyze(const GlobalOptions& g, const AnalyzeArgs& a) {
  mem::MemAnalyzeOptions o;
  if (!a.capacity.empty()) {
    o.capacity = size_option(a.capacity, "--capacity", std::cerr);
    if (!o.capacity || *o.capacity == 0) return kUsage;
  }
  const auto threshold = size_option(a.fragmentation_threshold, "--fragmentation-threshold", std::cerr);
  if (!threshold) return kUsage;
  o.fragmentation_threshold = *threshold;
  o.leak.warmup_steps = a.warmup;
  o.workload = a.workload == "training"    ? mem::Workload::training
               : a.workload == "inference" ? mem::Workload::inference
                                           : mem::Workload::auto_detect;
  o.jobs = a.jobs;
  const RenderOptions ro = render_options(g, a.output == "-" && a.format == "text");
  o.lang = ro.lang;

  StdinSpool spool;
  for (const auto& p : a.paths) {
    if (p != "-") {
      o.paths.push_back(p);
      continue;
    }
    if (!spool.path().empty()) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_mem_stdin_twice) << "\n";
      return kUsage;
    }
    if (!spool.spool(std::cerr)) return kUsage;
    o.paths.push_back(spool.path());
    o.display[spool.path()] = "<stdin>";
  }

  auto kb = load_kb(g, std::cerr);
  std::vector<KbProblem> problems;
  const mem::MemReport report = mem::analyze_memory(o, *kb, memory_log_findings(*kb, problems, cache_dir()));
  for (const auto& p : problems) print_problem(p, std::cerr);
  for (const auto& in : report.inputs) {
    if (in.status == InputStatus::error || in.status == InputStatus::partial) {
      std::cerr << "npu-doctor: " << in.path << ": " << note_text(in.note) << "\n";
    }
  }
  uint64_t samples = 0;
  for (const auto& in : report.inputs) samples += in.samples;
  if (report.any_input_read() && samples == 0 && !report.anything_found()) {
    // Nothing to analyse: no valid sample and no out-of-memory message. Say that only.
    std::cerr << "npu-doctor: " << msg(ui::Key::error_mem_nothing_to_analyse);
    for (const auto& in : report.inputs) {
      std::string why;
      if (in.status != InputStatus::ok && in.status != InputStatus::partial) why = note_text(in.note);
      else if (in.bytes == 0) why = msg(ui::Key::error_mem_empty_file);
      else why = msg(in.lines == 1 ? ui::Key::error_mem_no_sample_one : ui::Key::error_mem_no_sample, fmt::arg("n", in.lines));
      if (!in.problems.empty()) why += " (" + in.problems.front() + ")";
      std::cerr << msg(ui::Key::error_input_why, fmt::arg("path", in.path), fmt::arg("why", why));
    }
    std::cerr << "\nnpu-doctor: " << msg(ui::Key::error_mem_sample_format) << "\n";
    return kUsage;
  }
  bool ok = write_output(
      a.output,
      [&](std::ostream& out) {
        if (a.format == "json") mem::render_mem_json(report, ro, out);
        else if (a.format == "prometheus") prometheus::render_mem(report, {g.command, prometheus::now_seconds()}, out);
        else mem::render_mem_text(report, ro, out);
      },
      std::cerr);
  if (!a.html.empty()) {
    RenderOptions html = ro;
    html.color = false;
    ok = write_output(a.html, [&](std::ostream& out) { mem::render_mem_html(report, html, out); }, std::cerr) && ok;
  }
  if (!ok) return kUsage;
  if (!report.any_input_read()) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_no_input_read);
    for (const auto& in : report.inputs) {
      std::cerr << msg(ui::Key::error_input_why, fmt::arg("path", in.path), fmt::arg("why", note_text(in.note)));
    }
    std::cerr << "\n";
    return kUsage;
  }
  return report.anything_found() ? kFindings : kOk;
}

// ---- mem watch ----

volatile std::sig_atomic_t g_stop = 0;
void on_stop_signal(int) {
  g_stop = 1;
  kill_running_commands();  // a hung npu-smi must not hold the stop up until its timeout
}

// Ctrl-C and SIGTERM end the loop after the current poll; no SA_RESTART, so a sleep
// returns at once. A closed pipe ends it too (write fails instead of killing us).
void install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
}

double now_seconds() {
  using namespace std::chrono;
  return static_cast<double>(duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count()) / 1000.0;
}

// Sleeps until `until`, in short slices, returning early when asked to stop.
void sleep_until(std::chrono::steady_clock::time_point until) {
  while (g_stop == 0) {
    const auto left = until - std::chrono::steady_clock::now();
    if (left <= std::chrono::steady_clock::duration::zero()) return;
    const auto slice = std::min<std::chrono::steady_clock::duration>(left, std::chrono::milliseconds(200));
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(slice).count();
    timespec ts{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
    nanosleep(&ts, nullptr);
  }
}

class LiveView {
 public:
  LiveView(bool enabled, bool terminal) : enabled_(enabled), terminal_(terminal) {}
  void show(const std::vector<mem::WatchSample>& samples) {
    if (!enabled_) return;
    std::string text;
    for (const auto& s : samples) {
      auto& h = history_[s.sample.device];
      h.push_back(static_cast<double>(s.sample.allocated));
      if (h.size() > 30) h.pop_front();
      const std::vector<double> values(h.begin(), h.end());
      const double cap = static_cast<double>(s.sample.capacity.value_or(0));
      char pct[16] = "";
      if (cap > 0) std::snprintf(pct, sizeof pct, "%3.0f%%", 100.0 * static_cast<double>(s.sample.allocated) / cap);
      text += (terminal_ ? "\x1b[2K" : "") + std::string("NPU ") + std::to_string(s.sample.device) + "  " +
              mem::sparkline(values, 30, 0, cap > 0 ? cap : 0) + "  " +
              mem::format_bytes(static_cast<double>(s.sample.allocated)) + " / " + mem::format_bytes(cap) + "  " + pct +
              "\n";
    }
    if (terminal_ && drawn_ > 0) std::cerr << "\x1b[" << drawn_ << "A";
    std::cerr << text << std::flush;
    drawn_ = samples.size();
  }

 private:
  bool enabled_;
  bool terminal_;
  std::size_t drawn_ = 0;
  std::map<int, std::deque<double>> history_;
};

int run_watch(const GlobalOptions&, const MemWatchArgs& a) {
  const auto interval = a.interval;
  const auto duration = a.duration;
  // --root BUNDLE: the one `npu-smi info` answer the bundle recorded, as one poll.
  std::optional<bundle::ReplayProbe> replay;
  if (!a.root.empty()) {
    if (a.polling_given) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_mem_root_polling) << "\n";
      return kUsage;
    }
    std::string error;
    auto record = bundle::read_probe_record(a.root, error);
    if (!record) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_root_bundle, fmt::arg("command", "mem watch"), fmt::arg("why", error))
                << "\n";
      return kUsage;
    }
    replay.emplace(std::move(*record));
  }
  const uint64_t count = replay ? 1 : a.count;

  std::ofstream file;
  const bool to_stdout = a.output.empty() || a.output == "-";
  if (!to_stdout) {
    errno = 0;
    file.open(a.output, std::ios::binary | std::ios::trunc);
    if (!file) {
      std::cerr << "npu-doctor: "
                << msg(ui::Key::error_cannot_write, fmt::arg("path", a.output), fmt::arg("why", std::strerror(errno ? errno : EIO)))
                << "\n";
      return kUsage;
    }
  }
  std::ostream& out = to_stdout ? std::cout : file;
  const bool err_tty = isatty(STDERR_FILENO) != 0;
  const bool live = a.live == "always" || (a.live == "auto" && err_tty && !(to_stdout && isatty(STDOUT_FILENO) != 0));
  LiveView view(live, err_tty && a.live != "always");

  install_stop_handlers();
  CommandOptions co;
  co.timeout = a.timeout;
  const SystemProbe host("/", co);
  const Probe& probe = replay ? static_cast<const Probe&>(*replay) : host;
  const auto start = std::chrono::steady_clock::now();
  constexpr int kMaxFailures = 5;
  int failures = 0;
  std::string last_error;
  uint64_t polls = 0;
  for (int64_t step = 0; g_stop == 0; ++step) {
    const auto tick = start + interval * step;
    if (duration && tick - start > *duration) break;
    sleep_until(tick);
    if (g_stop != 0) break;
    const mem::PollResult r =
        mem::poll_npu_smi(probe, step, replay ? std::nullopt : std::optional<double>(now_seconds()));
    if (g_stop != 0 && !r.error.empty()) break;  // cut short by the stop signal: not a failure
    ++polls;
    if (!r.error.empty()) {
      if (step == 0) {
        std::cerr << "npu-doctor: " << r.error << "\n";
        return kUsage;
      }
      if (r.error != last_error) std::cerr << "npu-doctor: " << msg(ui::Key::error_mem_poll_continuing, fmt::arg("why", r.error)) << "\n";
      last_error = r.error;
      if (++failures >= kMaxFailures) {
        std::cerr << "npu-doctor: " << msg(ui::Key::error_mem_poll_giving_up, fmt::arg("n", kMaxFailures)) << "\n";
        return kUsage;
      }
    } else {
      failures = 0;
      last_error.clear();
      for (const auto& s : r.samples) out << mem::watch_line(s) << '\n';
      out.flush();  // a growing log: whatever was polled is on disk when we are stopped
      if (!out) break;  // stdout closed (e.g. | head): nothing more to do
      view.show(r.samples);
    }
    if (count > 0 && polls >= count) break;
  }
  if (live) {
    std::cerr << "npu-doctor: "
              << (to_stdout ? msg(ui::Key::status_mem_polls, fmt::arg("n", polls))
                            : msg(ui::Key::status_mem_polls_written, fmt::arg("n", polls), fmt::arg("path", a.output)))
              << "\n";
  }
  return kOk;
}

}  // namespace

void setup_mem(CLI::App& app, GlobalOptions& g, int& exit_code) {
  CLI::App* mem_cmd = app.add_subcommand("mem", help_text(ui::Key::help_mem_about));
  mem_cmd->require_subcommand(1);

  auto a = std::make_shared<AnalyzeArgs>();
  CLI::App* an = mem_cmd->add_subcommand(
      "analyze", help_text(ui::Key::help_mem_analyze_about));
  an->add_option("paths", a->paths, help_text(ui::Key::help_mem_analyze_paths))
      ->required();
  an->add_option("-f,--format", a->format, help_text(ui::Key::help_mem_analyze_format))
      ->check(CLI::IsMember({"text", "json", "prometheus"}));
  an->add_option("-o,--output", a->output, help_text(ui::Key::help_mem_analyze_output))->type_name("FILE");
  an->add_option("--html", a->html, help_text(ui::Key::help_mem_analyze_html))
      ->type_name("FILE");
  an->add_option("--capacity", a->capacity, help_text(ui::Key::help_mem_analyze_capacity))
      ->type_name("SIZE");
  an->add_option("--warmup", a->warmup, help_text(ui::Key::help_mem_analyze_warmup))
      ->type_name("STEPS")
      ->check(CLI::NonNegativeNumber);
  an->add_option("--fragmentation-threshold", a->fragmentation_threshold,
                 help_text(ui::Key::help_mem_analyze_fragmentation_threshold))
      ->type_name("SIZE");
  an->add_option("--workload", a->workload, help_text(ui::Key::help_mem_analyze_workload))
      ->check(CLI::IsMember({"auto", "training", "inference"}));
  an->add_option("-j,--jobs", a->jobs, help_text(ui::Key::help_mem_analyze_jobs));
  an->footer(help_text(ui::Key::help_mem_analyze_footer));
  an->callback([&g, &exit_code, a] { exit_code = run_analyze(g, *a); });

  auto w = std::make_shared<MemWatchArgs>();
  CLI::App* wa = mem_cmd->add_subcommand(
      "watch", help_text(ui::Key::help_mem_watch_about));
  add_duration_option(wa, "--interval", w->interval, help_text(ui::Key::help_mem_watch_interval),
                      {std::chrono::milliseconds(1)});
  add_duration_option(wa, "--duration", w->duration, help_text(ui::Key::help_mem_watch_duration));
  wa->add_option("--count", w->count, help_text(ui::Key::help_mem_watch_count))->type_name("N");
  wa->add_option("-o,--output", w->output, help_text(ui::Key::help_mem_watch_output))
      ->type_name("FILE");
  add_duration_option(wa, "--timeout", w->timeout, help_text(ui::Key::help_mem_watch_timeout),
                      {std::chrono::milliseconds(1)});
  wa->add_option("--root", w->root, help_text(ui::Key::help_mem_watch_root))
      ->type_name("BUNDLE");
  wa->add_option("--live", w->live, help_text(ui::Key::help_mem_watch_live))
      ->check(CLI::IsMember({"auto", "always", "never"}));
  wa->footer(help_text(ui::Key::help_mem_watch_footer));
  wa->callback([&g, &exit_code, w, wa] {
    w->polling_given = wa->count("--interval") + wa->count("--duration") + wa->count("--count") + wa->count("--timeout") > 0;
    exit_code = run_watch(g, *w);
  });
}

}  // namespace npu_doctor::cli
