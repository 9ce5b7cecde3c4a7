// npu-doctor merge SUMMARY.json...: the cluster report from per-node summaries written
// with `npu-doctor cluster --summary-out` (for sites that run one job per node under
// Kubernetes or Slurm instead of mpirun).
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/common.hpp"
#include "cli/duration_option.hpp"
#include "cli/diagnosis_output.hpp"
#include "cli/exit_codes.hpp"
#include "cli/expected_option.hpp"
#include "node_summary.hpp"
#include "incident_page/html_attachment_loader.hpp"

namespace npu_doctor::cli {
namespace {

struct MergeArgs {
  std::vector<std::string> files;
  std::string format = "text";
  std::string output = "-";
  std::size_t max_evidence = 3;
  std::chrono::milliseconds skew{5000};
  std::optional<int> world_size;
  std::vector<std::string> expected;  // files of expected errors
  HtmlReportArgs html;
};

// A summary holds findings and a record per input (about 360 bytes: path, status, times),
// no logs: 1,000,000 inputs make 350 MiB. It is parsed as it is read and its inputs spill
// to a file, so size costs time, not memory; past 4 GiB (~10 million inputs) it is not one.
constexpr std::uintmax_t kMaxSummaryBytes = std::uintmax_t{4} << 30;

// The summary file opened for reading (it is parsed as it is read), after the checks that
// keep FIFOs, devices and huge files out.
std::optional<std::ifstream> open_summary_file(const std::string& path, std::string& error) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    error = ec ? ec.message() : msg(ui::Key::note_not_regular_file);  // a FIFO or /dev/zero is no summary
    return std::nullopt;
  }
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) {
    error = ec.message();
    return std::nullopt;
  }
  if (size == 0) {
    error = msg(ui::Key::error_merge_empty);
    return std::nullopt;
  }
  if (size > kMaxSummaryBytes) {
    error = msg(ui::Key::error_merge_too_large);
    return std::nullopt;
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = msg(ui::Key::error_merge_cannot_read, fmt::arg("why", std::strerror(errno ? errno : EIO)));
    return std::nullopt;
  }
  return in;
}

int run(const GlobalOptions& g, const MergeArgs& a) {
  MergeOptions mo;
  if (!load_expected_option(a.expected, mo.expected)) return kUsage;
  auto kb = load_kb(g, std::cerr);
  std::vector<NodeSummary> nodes;
  std::vector<std::string> warnings;
  for (const auto& path : a.files) {
    std::string error;
    auto in = open_summary_file(path, error);
    NodeSummary s;
    if (!in || !parse_node_summary(*in, *kb, s, error, warnings)) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_merge_left_out, fmt::arg("path", path), fmt::arg("why", error)) << "\n";
      continue;
    }
    nodes.push_back(std::move(s));
  }
  if (nodes.empty()) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_merge_none_readable, fmt::arg("n", a.files.size())) << "\n";
    return kUsage;
  }
  mo.max_evidence = a.max_evidence;
  mo.cluster.skew_us = a.skew.count() * 1000;
  mo.cluster.world_size = a.world_size;
  const std::size_t count = nodes.size();
  HtmlReportArgs html = a.html;
  html.node_facts = node_facts_of(nodes);
  DiagnosisReport report = merge_node_summaries(std::move(nodes), *kb, mo);
  for (auto& w : warnings) report.warnings.push_back(std::move(w));
  std::cerr << "npu-doctor: " << msg(count == 1 ? ui::Key::status_merge_count_one : ui::Key::status_merge_count, fmt::arg("n", count))
            << "\n";
  return write_diagnosis(g, report, a.format, a.output, *kb, html);
}

}  // namespace

void setup_merge(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* cmd = app.add_subcommand("merge", help_text(ui::Key::help_merge_about));
  cmd->add_option("summaries", args->files, help_text(ui::Key::help_merge_summaries))->required();
  cmd->add_option("-f,--format", args->format, help_text(ui::Key::help_merge_format))->check(CLI::IsMember(kDiagnosisFormats));
  cmd->add_option("-o,--output", args->output, help_text(ui::Key::help_merge_output))->type_name("FILE");
  add_html_report_options(cmd, args->html);
  cmd->add_option("--max-evidence", args->max_evidence, help_text(ui::Key::help_merge_max_evidence))
      ->check(CLI::Range(1, 1000));
  add_duration_option(cmd, "--skew", args->skew, help_text(ui::Key::help_merge_skew));
  cmd->add_option("--world-size", args->world_size, help_text(ui::Key::help_merge_world_size))
      ->check(CLI::Range(1, 1 << 20));
  add_expected_option(cmd, args->expected, help_text(ui::Key::help_merge_expected));
  cmd->footer(help_text(ui::Key::help_merge_footer));
  cmd->callback([&g, &exit_code, args] { exit_code = run(g, *args); });
}

}  // namespace npu_doctor::cli
