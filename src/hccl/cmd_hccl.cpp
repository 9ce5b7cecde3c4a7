// npu-doctor hccl env|ranktable|hccn|test-output: configuration consistency of a
// distributed job (docs/hccl.md). Reads the files, runs hccn_tool when asked to, and maps
// the reports to the documented exit codes.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <functional>
#include <iostream>

#include "env_check.hpp"
#include "core/finding_set.hpp"
#include "hccl_render.hpp"
#include "hccn_live.hpp"
#include "input_file.hpp"
#include "bundle/bundle_archive.hpp"
#include "checks/visible_devices.hpp"
#include "cli/common.hpp"
#include "core/npu_smi_query.hpp"
#include "cli/duration_option.hpp"
#include "cli/exit_codes.hpp"
#include "npu_doctor/probe.hpp"

extern char** environ;

namespace npu_doctor::cli {
namespace {

using namespace npu_doctor::hccl;

constexpr std::size_t kMaxEnvFile = 16u << 20;
constexpr std::size_t kMaxRankTable = 64u << 20;
constexpr std::size_t kMaxToolOutput = 64u << 20;

struct OutputArgs {
  std::string format = "text";
  std::string output = "-";
};

void add_output_options(CLI::App* cmd, OutputArgs& o) {
  cmd->add_option("-f,--format", o.format, help_text(ui::Key::help_hccl_format))->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("-o,--output", o.output, help_text(ui::Key::help_hccl_output))->type_name("FILE");
}

// Writes the report and turns the findings into the exit status.
template <typename Report, typename Text, typename Json>
int finish(const GlobalOptions& g, const OutputArgs& o, const Report& r, Text text, Json json) {
  const RenderOptions ro = render_options(g, o.output == "-" && o.format == "text");
  const bool ok = write_output(
      o.output, [&](std::ostream& out) { o.format == "json" ? json(r, ro, out) : text(r, ro, out); }, std::cerr);
  if (!ok) return kUsage;
  return exit_status_for(r.findings) == 0 ? kOk : kFindings;
}

// The files behind `paths` (directories expanded); the paths that name none are reported.
std::vector<std::string> expand_or_report(const std::vector<std::string>& paths, std::vector<InputProblem>& unreadable) {
  std::vector<std::string> errors;
  auto files = expand_inputs(paths, errors);
  for (const auto& e : errors) {
    std::cerr << "npu-doctor: " << e << "\n";
    const auto colon = e.find(": ");
    unreadable.push_back({e.substr(0, colon), colon == std::string::npos ? e : e.substr(colon + 2)});
  }
  return files;
}

void report_unreadable(const std::string& path, const std::string& error, std::vector<InputProblem>& unreadable) {
  std::cerr << "npu-doctor: " << path << ": " << error << "\n";
  unreadable.push_back({path, error});
}

// Reads each input whole, one at a time, and hands it to `use`; the unreadable ones are
// reported on stderr and kept for the report.
void for_each_input(const std::vector<std::string>& paths, std::size_t cap, std::vector<InputProblem>& unreadable,
                    const std::function<void(InputText&)>& use) {
  for (const auto& f : expand_or_report(paths, unreadable)) {
    InputText in = read_input(f, cap);
    if (!in.ok()) {
      report_unreadable(f, in.error, unreadable);
      continue;
    }
    use(in);
  }
}

// Every input read whole, kept together.
std::vector<InputText> read_all(const std::vector<std::string>& paths, std::size_t cap,
                                std::vector<InputProblem>& unreadable) {
  std::vector<InputText> out;
  for_each_input(paths, cap, unreadable, [&](InputText& in) { out.push_back(std::move(in)); });
  return out;
}

// ---- hccl env ----

struct EnvArgs {
  std::vector<std::string> paths;
  bool capture = false;
  long pid = -1;
  OutputArgs out;
};

std::string local_time_iso() {
  const std::time_t t = std::time(nullptr);
  std::tm tm {};
  localtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return buf;
}

int run_capture(const EnvArgs& a) {
  if (!a.paths.empty()) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_hccl_capture_no_file) << "\n";
    return kUsage;
  }
  std::map<std::string, std::string> env;
  std::string source = "npu-doctor";
  if (a.pid > 0) {
    source = "/proc/" + std::to_string(a.pid) + "/environ";
    const InputText in = read_input(source, kMaxEnvFile);
    if (!in.ok()) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_hccl_capture_unreadable, fmt::arg("path", source), fmt::arg("why", in.error))
                << "\n";
      return kUsage;
    }
    std::string error;
    auto parsed = parse_env_file(source, in.text, &error);
    if (parsed) {
      for (const auto& v : parsed->vars) env[v.name] = v.value;
    }
  } else {
    for (char** e = environ; *e != nullptr; ++e) {
      const std::string kv(*e);
      const auto eq = kv.find('=');
      if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
  }
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  const std::string text = format_env_capture(env, host, source, local_time_iso());
  return write_output(a.out.output, [&](std::ostream& o) { o << text; }, std::cerr) ? kOk : kUsage;
}

int run_env(const GlobalOptions& g, const EnvArgs& a) {
  if (a.capture) return run_capture(a);
  if (a.paths.empty()) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_hccl_env_no_files) << "\n";
    return kUsage;
  }
  std::vector<InputProblem> unreadable;
  std::vector<EnvFile> files;
  // One file read at a time, keeping only the variables the check reads.
  for_each_input(a.paths, kMaxEnvFile, unreadable, [&](const InputText& in) {
    std::string error;
    auto f = parse_env_file(in.path, in.text, &error, is_checked_variable);
    if (!f) {
      report_unreadable(in.path, error, unreadable);
      return;
    }
    files.push_back(std::move(*f));
  });
  if (files.empty()) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_hccl_env_none_read) << "\n";
    return kUsage;
  }
  auto kb = load_kb(g, std::cerr);
  EnvReport r = check_env_files(files, *kb);
  r.unreadable = std::move(unreadable);
  return finish(g, a.out, r, render_env_text, render_env_json);
}

// ---- hccl ranktable ----

struct RankTableArgs {
  std::string path;
  OutputArgs out;
};

int run_ranktable(const GlobalOptions& g, const RankTableArgs& a) {
  const InputText in = read_input(a.path, kMaxRankTable);
  if (!in.ok()) {
    std::cerr << "npu-doctor: " << a.path << ": " << in.error << "\n";
    return kUsage;
  }
  auto kb = load_kb(g, std::cerr);
  const RankTableReport r = check_rank_table(a.path, in.text, *kb);
  return finish(g, a.out, r, render_ranktable_text, render_ranktable_json);
}

// ---- hccl hccn ----

struct HccnArgs {
  std::vector<std::string> paths;
  std::string devices;
  std::string tool;
  std::string root;  // a bundle to replay instead of this host
  std::chrono::milliseconds timeout{10000};
  OutputArgs out;
};

// The device ids to query: --devices, else what npu-smi lists.
std::optional<std::vector<int>> devices_to_query(const HccnArgs& a, const Probe& probe) {
  if (!a.devices.empty()) {
    auto ids = checks::parse_container_visible_devices(a.devices);
    if (!ids || ids->empty()) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_hccl_bad_devices, fmt::arg("value", a.devices)) << "\n";
      return std::nullopt;
    }
    return ids;
  }
  const NpuSmiQuery smi = query_npu_smi_info(probe);
  if (!smi.info) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_hccl_no_device_list, fmt::arg("why", smi.why_not())) << "\n";
    return std::nullopt;
  }
  return hccn_device_ids(*smi.info);
}

// The tool to run: --hccn-tool, else on PATH, else the driver's copy.
std::optional<std::string> hccn_tool_to_run(const HccnArgs& a, const Probe& probe) {
  if (a.tool.empty()) return locate_hccn_tool(probe);
  if (a.tool.find('/') != std::string::npos && !probe_executable(probe, a.tool)) return std::nullopt;
  return a.tool;
}

// hccn_tool on this host, or the answers a bundle recorded on its host (--root).
int query_node(const HccnArgs& a, const Probe& probe, std::size_t max_output, std::vector<HccnNode>& nodes) {
  const auto tool = hccn_tool_to_run(a, probe);
  if (!tool) {
    std::cerr << "npu-doctor: "
              << msg(a.root.empty() ? ui::Key::error_hccl_no_hccn_tool : ui::Key::error_hccl_no_hccn_tool_recorded) << "\n";
    return kUsage;
  }
  const auto devices = devices_to_query(a, probe);
  if (!devices) return kUsage;
  HccnLiveResult res = query_hccn(probe, *tool, *devices, max_output);
  if (!res.not_started.empty()) {
    std::cerr << "npu-doctor: " << res.not_started << "\n";
    return kUsage;
  }
  nodes.push_back({a.root.empty() ? "this host" : a.root, merge_devices(res.captures)});
  return kOk;
}

int run_hccn(const GlobalOptions& g, const HccnArgs& a) {
  std::vector<HccnNode> nodes;
  std::vector<InputProblem> unreadable;
  const bool live = a.paths.empty();
  if (!live && !a.root.empty()) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_hccl_files_or_root) << "\n";
    return kUsage;
  }
  if (!live) {
    for (auto& in : read_all(a.paths, kMaxToolOutput, unreadable)) {
      HccnCapture c = parse_hccn_output(in.path, in.text);
      if (c.recognised_lines == 0) {
        std::cerr << "npu-doctor: " << in.path << ": " << msg(ui::Key::error_hccl_not_hccn_output) << "\n";
        unreadable.push_back({in.path, std::string(ui::word(ui::Key::error_hccl_not_hccn_output, Lang::en))});
        continue;
      }
      nodes.push_back({in.path, std::move(c.devices)});
    }
    if (nodes.empty()) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_hccl_hccn_none_read) << "\n";
      return kUsage;
    }
  } else if (!a.root.empty()) {
    if (!a.tool.empty()) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_hccl_tool_with_root) << "\n";
      return kUsage;
    }
    std::string error;
    auto record = bundle::read_probe_record(a.root, error);
    if (!record) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_root_bundle, fmt::arg("command", "hccl hccn"), fmt::arg("why", error))
                << "\n";
      return kUsage;
    }
    const bundle::ReplayProbe replay(std::move(*record));
    if (const int status = query_node(a, replay, CommandOptions{}.max_output, nodes); status != kOk) return status;
  } else {
    CommandOptions co;
    co.timeout = a.timeout;
    const SystemProbe host("/", co);
    if (const int status = query_node(a, host, co.max_output, nodes); status != kOk) return status;
  }
  auto kb = load_kb(g, std::cerr);
  HccnReport r = check_hccn(std::move(nodes), *kb);
  r.live = live;
  r.unreadable = std::move(unreadable);
  return finish(g, a.out, r, render_hccn_text, render_hccn_json);
}

// ---- hccl test-output ----

struct TestOutputArgs {
  std::vector<std::string> paths;
  std::optional<double> expect;
  double min_ratio = 0.5;
  OutputArgs out;
};

int run_test_output(const GlobalOptions& g, const TestOutputArgs& a) {
  std::vector<InputProblem> unreadable;
  std::vector<HcclTestOutput> outputs;
  // One file at a time, streamed: a concatenation of millions of rows is never held whole.
  for (const auto& path : expand_or_report(a.paths, unreadable)) {
    HcclTestOutputParser parser(path);
    std::string error;
    if (!read_input_lines(path, kMaxToolOutput, HcclTestOutputParser::kMaxLineBytes, [&](std::string_view line) { parser.add_line(line); },
                          error)) {
      report_unreadable(path, error, unreadable);
      continue;
    }
    HcclTestOutput t = std::move(parser).finish();
    if (!t.looks_like_hccl_test()) {
      std::cerr << "npu-doctor: " << path << ": " << msg(ui::Key::error_hccl_not_test_output) << "\n";
      unreadable.push_back({path, std::string(ui::word(ui::Key::error_hccl_not_test_output, Lang::en))});
      continue;
    }
    outputs.push_back(std::move(t));
  }
  if (outputs.empty()) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_hccl_test_none_read) << "\n";
    return kUsage;
  }
  HcclTestOptions opts;
  opts.expect_bandwidth = a.expect;
  opts.min_ratio = a.min_ratio;
  auto kb = load_kb(g, std::cerr);
  HcclTestReport r = check_hccl_test(std::move(outputs), opts, *kb);
  r.unreadable = std::move(unreadable);
  return finish(g, a.out, r, render_hccl_test_text, render_hccl_test_json);
}

}  // namespace

void setup_hccl(CLI::App& app, GlobalOptions& g, int& exit_code) {
  CLI::App* hccl = app.add_subcommand(
      "hccl", help_text(ui::Key::help_hccl_about));
  hccl->require_subcommand(1);
  const std::string exit_text = help_text(ui::Key::help_hccl_footer);

  auto env = std::make_shared<EnvArgs>();
  CLI::App* e = hccl->add_subcommand(
      "env", help_text(ui::Key::help_hccl_env_about));
  e->add_option("files", env->paths, help_text(ui::Key::help_hccl_env_files));
  e->add_flag("--capture", env->capture, help_text(ui::Key::help_hccl_env_capture));
  e->add_option("--pid", env->pid, help_text(ui::Key::help_hccl_env_pid))
      ->check(CLI::Range(1L, 4194304L))
      ->type_name("N");
  add_output_options(e, env->out);
  e->footer(exit_text);
  e->callback([&g, &exit_code, env] { exit_code = run_env(g, *env); });

  auto rt = std::make_shared<RankTableArgs>();
  CLI::App* r = hccl->add_subcommand("ranktable", help_text(ui::Key::help_hccl_ranktable_about));
  r->add_option("file", rt->path, help_text(ui::Key::help_hccl_ranktable_file))->required();
  add_output_options(r, rt->out);
  r->footer(exit_text);
  r->callback([&g, &exit_code, rt] { exit_code = run_ranktable(g, *rt); });

  auto hc = std::make_shared<HccnArgs>();
  CLI::App* h = hccl->add_subcommand(
      "hccn", help_text(ui::Key::help_hccl_hccn_about));
  h->add_option("files", hc->paths, help_text(ui::Key::help_hccl_hccn_files));
  h->add_option("--devices", hc->devices, help_text(ui::Key::help_hccl_hccn_devices))
      ->type_name("LIST");
  h->add_option("--root", hc->root, help_text(ui::Key::help_hccl_hccn_root))
      ->type_name("BUNDLE");
  h->add_option("--hccn-tool", hc->tool, help_text(ui::Key::help_hccl_hccn_hccn_tool))
      ->type_name("PATH");
  add_duration_option(h, "--timeout", hc->timeout, help_text(ui::Key::help_hccl_hccn_timeout),
                      {std::chrono::milliseconds(50), std::chrono::hours(1)});
  add_output_options(h, hc->out);
  h->footer(exit_text);
  h->callback([&g, &exit_code, hc] { exit_code = run_hccn(g, *hc); });

  auto to = std::make_shared<TestOutputArgs>();
  CLI::App* t = hccl->add_subcommand(
      "test-output", help_text(ui::Key::help_hccl_test_output_about));
  t->add_option("files", to->paths, help_text(ui::Key::help_hccl_test_output_files))
      ->required();
  t->add_option("--expect-bandwidth", to->expect, help_text(ui::Key::help_hccl_test_output_expect_bandwidth))
      ->check(CLI::PositiveNumber)
      ->type_name("GBPS");
  t->add_option("--min-ratio", to->min_ratio, help_text(ui::Key::help_hccl_test_output_min_ratio))
      ->check(CLI::Range(0.01, 1.0))
      ->type_name("RATIO");
  add_output_options(t, to->out);
  t->footer(exit_text);
  t->callback([&g, &exit_code, to] { exit_code = run_test_output(g, *to); });
}

}  // namespace npu_doctor::cli
