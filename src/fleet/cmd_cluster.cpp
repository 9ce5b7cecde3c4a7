// npu-doctor cluster: every node scans its own logs (and, with --check, its environment)
// and sends a summary to node 0, which names the cluster's root cause. Under mpirun the
// nodes are MPI ranks; without it this machine is the only node (with --summary-out its
// summary is kept for `npu-doctor merge`).
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/common.hpp"
#include "cli/duration_option.hpp"
#include "cli/diagnosis_output.hpp"
#include "cli/exit_codes.hpp"
#include "cli/expected_option.hpp"
#include "node_environment.hpp"
#include "node_scan.hpp"
#include "node_transport.hpp"
#include "incident_page/html_attachment_loader.hpp"

namespace npu_doctor::cli {
namespace {

struct ClusterArgs {
  std::vector<std::string> logs;
  bool check = false;
  std::string root = "/";
  std::chrono::milliseconds node_timeout{300000};
  std::string summary_out;
  std::string hostname;
  std::string format = "text";
  std::string output = "-";
  unsigned jobs = 0;
  std::size_t max_evidence = 3;
  std::vector<std::string> rank_patterns;
  std::chrono::milliseconds skew{5000};
  std::optional<int> world_size;
  std::vector<std::string> expected;  // files of expected errors, read on node 0
  HtmlReportArgs html;
};

// Root waits this much longer than a node's own timeout: a node that times out still
// needs a moment to say so.
constexpr auto kGatherGrace = std::chrono::seconds(30);

// This node's summary, made under the node timeout; `abandoned` when the work is still
// running (the process must then leave with std::_Exit).
// The summary points into `kb`: the caller keeps it alive as long as the summary.
NodeSummary summarise_this_node(const std::shared_ptr<const KnowledgeBase>& kb, const ClusterArgs& a,
                                const std::string& host, int node, std::chrono::milliseconds timeout,
                                bool& abandoned) {
  DiagnoseOptions opts;
  for (const auto& p : a.logs) opts.paths.push_back(expand_node_placeholders(p, host, node));
  opts.jobs = a.jobs;
  opts.max_evidence = a.max_evidence;
  opts.rank_patterns = a.rank_patterns;
  const NodeEnvironmentOptions env{a.check, a.root, timeout};
  std::function<NodeSummary()> work = [kb, opts, host, node, env] {
    std::vector<KbProblem> problems;  // the knowledge base's own problems were printed when it loaded
    const Diagnoser diagnoser(*kb, problems, cache_dir());
    NodeSummary s = scan_node(diagnoser, opts, host, node, kb->version());
    add_node_environment(s, *kb, env);
    return s;
  };
  const auto start = std::chrono::steady_clock::now();
  std::optional<NodeSummary> done;
  try {
    done = run_with_deadline(std::move(work), timeout);
  } catch (const std::exception& e) {
    NodeSummary failed;
    failed.status = NodeSummary::Status::failed;
    failed.note = std::string("the scan failed: ") + e.what();
    done = std::move(failed);
  }
  if (!done) {
    abandoned = true;
    done.emplace();
    done->status = NodeSummary::Status::timeout;
    done->note = "did not finish within --node-timeout " + format_duration(a.node_timeout);
  }
  done->host = host;
  done->node = node;
  done->kb_version = kb->version();
  done->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return std::move(*done);
}

// Node 0: every summary, or a stand-in saying why a node has none.
std::vector<NodeSummary> read_summaries(const std::vector<std::optional<std::string>>& texts, const KnowledgeBase& kb,
                                        std::chrono::milliseconds node_timeout, std::vector<std::string>& warnings) {
  std::vector<NodeSummary> nodes;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    NodeSummary s;
    std::string error;
    if (!texts[i]) {
      s.status = NodeSummary::Status::timeout;
      s.note = "sent no summary within --node-timeout " + format_duration(node_timeout) + " and a grace period";
    } else if (!parse_node_summary(*texts[i], kb, s, error, warnings)) {
      s = NodeSummary{};
      s.status = NodeSummary::Status::failed;
      s.note = "its summary could not be read: " + error;
    }
    s.node = static_cast<int>(i);
    if (s.host.empty()) s.host = "node-" + std::to_string(i);
    nodes.push_back(std::move(s));
  }
  return nodes;
}

// A single node's summary, read back from the --summary-out file it was just written to.
std::vector<NodeSummary> read_summary_file(const std::string& path, std::size_t inputs, const KnowledgeBase& kb,
                                           std::vector<std::string>& warnings) {
  std::vector<NodeSummary> nodes(1);
  NodeSummary& s = nodes.front();
  s.inputs.reserve(inputs);  // as many as were written: no doubling past them
  std::string error;
  std::ifstream in(path, std::ios::binary);
  if (!in) error = std::string("cannot read ") + path + ": " + std::strerror(errno);
  if (!in || !parse_node_summary(in, kb, s, error, warnings)) {
    s = NodeSummary{};
    s.status = NodeSummary::Status::failed;
    s.note = "its summary could not be read: " + error;
  }
  s.node = 0;
  if (s.host.empty()) s.host = "node-0";
  return nodes;
}

int run(const GlobalOptions& g, const ClusterArgs& a) {
  if (a.logs.empty() && !a.check) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_cluster_nothing_to_do) << "\n";
    return kUsage;
  }
  std::string error;
  const auto transport = make_node_transport(error);
  if (!transport) {
    std::cerr << "npu-doctor: " << error << "\n";
    return kUsage;
  }
  const auto start = NodeTransport::Clock::now();
  const int node = transport->node();
  const std::string host =
      a.hostname.empty() ? local_hostname() : expand_node_placeholders(a.hostname, local_hostname(), node);
  const auto timeout = a.node_timeout;
  // Only node 0 makes the verdict, so only it reads --expected (the other nodes may not have
  // the file). A broken file is a usage error there; the other nodes still take part in the
  // gather, so that none of them waits for node 0 until its timeout.
  std::shared_ptr<const ExpectedErrors> expected;
  const bool expected_ok = node != 0 || load_expected_option(a.expected, expected);
  if (!expected_ok && transport->nodes() == 1) return kUsage;  // alone: nobody waits, no scan to waste

  // Only node 0 shows the knowledge base's problems (a user file with a broken entry).
  std::ostringstream quiet;
  const std::shared_ptr<const KnowledgeBase> kb = load_kb(g, node == 0 ? std::cerr : quiet);
  bool abandoned = false;
  std::string own_json;
  int rc = kOk;
  // A single node with --summary-out reads its summary back from that file as it is
  // parsed: the summary's JSON text (350 bytes an input) is never in memory whole.
  std::string own_file;
  std::size_t own_inputs = 0;
  {
    // Only the JSON travels (and is read back, also on a single node, so that every node's
    // summary is read the same way); the summary itself is freed before the gather.
    const NodeSummary own = summarise_this_node(kb, a, host, node, timeout, abandoned);
    if (!a.summary_out.empty()) {
      const std::string path = expand_node_placeholders(a.summary_out, host, node);
      if (!write_output(path, [&](std::ostream& out) { write_node_summary_json(own, out); }, std::cerr)) rc = kUsage;
      else if (std::error_code ec; transport->nodes() == 1 && std::filesystem::is_regular_file(path, ec)) own_file = path;
    }
    if (own_file.empty()) own_json = node_summary_json(own);
    own_inputs = own.inputs.size();
  }
  std::vector<std::optional<std::string>> texts;
  if (own_file.empty()) texts = transport->gather(std::move(own_json), start + timeout + kGatherGrace);
  bool everyone = true;
  if (node == 0 && !expected_ok) {
    rc = kUsage;
  } else if (node == 0) {
    std::vector<std::string> warnings;
    std::vector<NodeSummary> nodes =
        own_file.empty() ? read_summaries(texts, *kb, a.node_timeout, warnings) : read_summary_file(own_file, own_inputs, *kb, warnings);
    std::size_t reported = 0;
    for (const auto& n : nodes) reported += n.status == NodeSummary::Status::ok ? 1 : 0;
    everyone = std::all_of(texts.begin(), texts.end(), [](const auto& t) { return t.has_value(); });
    const std::size_t node_count = nodes.size();
    std::vector<std::optional<std::string>>().swap(texts);  // read: their text is not needed any more
    HtmlReportArgs html = a.html;
    html.node_facts = node_facts_of(nodes);
    MergeOptions mo;
    mo.max_evidence = a.max_evidence;
    mo.cluster.skew_us = a.skew.count() * 1000;
    mo.cluster.world_size = a.world_size;
    mo.expected = expected;
    DiagnosisReport report = merge_node_summaries(std::move(nodes), *kb, mo);
    for (auto& w : warnings) report.warnings.push_back(std::move(w));
    std::cerr << "npu-doctor: "
              << msg(ui::Key::status_cluster_scanned, fmt::arg("n", reported), fmt::arg("count", node_count),
                     fmt::arg("transport", transport->name()))
              << "\n";
    const int written = write_diagnosis(g, report, a.format, a.output, *kb, html);
    rc = rc == kUsage ? rc : written;
    if (reported == 0) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_cluster_none_scanned) << "\n";
      rc = kUsage;
    }
  }
  rc = transport->finish(everyone, rc);
  if (abandoned) {
    std::cout.flush();
    std::cerr.flush();
    std::_Exit(rc);  // this node's scan is still running on another thread
  }
  return rc;
}

}  // namespace

void setup_cluster(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto args = std::make_shared<ClusterArgs>();
  CLI::App* cmd = app.add_subcommand(
      "cluster", help_text(ui::Key::help_cluster_about));
  cmd->add_option("--logs", args->logs, help_text(ui::Key::help_cluster_logs))
      ->type_name("PATH");
  cmd->add_flag("--check", args->check, help_text(ui::Key::help_cluster_check));
  cmd->add_option("--root", args->root, help_text(ui::Key::help_cluster_root))->type_name("DIR");
  add_duration_option(cmd, "--node-timeout", args->node_timeout, help_text(ui::Key::help_cluster_node_timeout),
                      {std::chrono::milliseconds(1)});
  cmd->add_option("--summary-out", args->summary_out, help_text(ui::Key::help_cluster_summary_out))
      ->type_name("FILE");
  cmd->add_option("--hostname", args->hostname, help_text(ui::Key::help_cluster_hostname))
      ->type_name("NAME");
  cmd->add_option("-f,--format", args->format, help_text(ui::Key::help_cluster_format))->check(CLI::IsMember(kDiagnosisFormats));
  cmd->add_option("-o,--output", args->output, help_text(ui::Key::help_cluster_output))->type_name("FILE");
  add_html_report_options(cmd, args->html);
  cmd->add_option("-j,--jobs", args->jobs, help_text(ui::Key::help_cluster_jobs));
  cmd->add_option("--max-evidence", args->max_evidence, help_text(ui::Key::help_cluster_max_evidence))
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--rank-pattern", args->rank_patterns, help_text(ui::Key::help_cluster_rank_pattern))
      ->type_name("REGEX");
  add_duration_option(cmd, "--skew", args->skew, help_text(ui::Key::help_cluster_skew));
  cmd->add_option("--world-size", args->world_size, help_text(ui::Key::help_cluster_world_size))
      ->check(CLI::Range(1, 1 << 20));
  add_expected_option(cmd, args->expected, help_text(ui::Key::help_cluster_expected));
  cmd->footer(help_text(ui::Key::help_cluster_footer));
  cmd->callback([&g, &exit_code, args] { exit_code = run(g, *args); });
}

}  // namespace npu_doctor::cli
