// npu-doctor bundle: the bug-report checklist (hardware, versions, check, logs with their
// diagnosis, environment, network) collected, redacted and packed into one .tar.gz that
// `diagnose` and `check --root` read offline (docs/bundle.md).
#include <unistd.h>

#include <cmath>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "collector.hpp"
#include "cli/common.hpp"
#include "cli/duration_option.hpp"
#include "cli/exit_codes.hpp"

extern char** environ;

namespace npu_doctor::cli {
namespace {

struct BundleArgs {
  std::string output;
  std::vector<std::string> logs;
  std::optional<std::chrono::milliseconds> since;
  std::string max_size = "200M";
  std::chrono::milliseconds timeout{10000};
  bool anonymize = false;
  bool no_default_logs = false;
  std::string root = "/";
};


std::string default_name() {
  char buf[64];
  std::tm tm{};
  const std::time_t now = std::time(nullptr);
  gmtime_r(&now, &tm);
  std::strftime(buf, sizeof buf, "npu-doctor-bundle-%Y%m%d-%H%M%S.tar.gz", &tm);
  return buf;
}

int run(const GlobalOptions& g, const BundleArgs& a) {
  bundle::BundleOptions o;
  namespace fs = std::filesystem;
  std::error_code ec;
  o.output = a.output.empty() ? default_name() : a.output;
  if (fs::is_directory(o.output, ec)) o.output = (fs::path(o.output) / default_name()).string();
  const fs::path parent = fs::absolute(o.output, ec).parent_path();
  if (!fs::is_directory(parent, ec)) {
    std::cerr << "npu-doctor: "
              << msg(ui::Key::error_output_dir_missing, fmt::arg("command", "bundle"), fmt::arg("option", "-o"),
                     fmt::arg("path", o.output), fmt::arg("dir", parent.string()))
              << "\n";
    return kUsage;
  }
  const auto size = bundle::parse_byte_size(a.max_size);
  if (!size || *size == 0) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_bundle_max_size, fmt::arg("value", a.max_size)) << "\n";
    return kUsage;
  }
  o.max_size = *size;
  if (a.since) o.since_seconds = std::chrono::duration_cast<std::chrono::seconds>(*a.since).count();
  if (!fs::is_directory(a.root, ec)) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_root_not_directory, fmt::arg("command", "bundle"), fmt::arg("path", a.root))
              << "\n";
    return kUsage;
  }
  o.root = fs::absolute(a.root, ec).lexically_normal().string();
  if (o.root.size() > 1 && o.root.ends_with('/')) o.root.pop_back();
  o.log_paths = a.logs;
  o.default_logs = !a.no_default_logs;
  o.timeout = a.timeout;
  o.anonymize = a.anonymize;
  o.identity = checks::current_process_identity();
  o.lang = render_options(g, false).lang;
  o.cache_dir = cache_dir();
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string kv(*e);
    if (const auto eq = kv.find('='); eq != std::string::npos) o.environment[kv.substr(0, eq)] = kv.substr(eq + 1);
  }

  auto kb = load_kb(g, std::cerr);
  const bundle::BundleResult r = bundle::collect_bundle(o, *kb);
  if (!r.written) {
    std::cerr << "npu-doctor: bundle: " << r.error << "\n";
    return kUsage;
  }
  std::ostringstream seconds;  // as a stream writes a double: 0.3, 12
  seconds << std::round(r.seconds * 10) / 10;
  std::cout << msg(ui::Key::bundle_summary_written, fmt::arg("path", r.path), fmt::arg("files", r.members),
                   fmt::arg("bytes", r.uncompressed_bytes), fmt::arg("compressed", r.archive_bytes),
                   fmt::arg("seconds", seconds.str()))
            << "\n";
  std::size_t redacted = 0;
  for (const auto& [rule, n] : r.redactions) redacted += n;
  std::cout << msg(o.anonymize ? ui::Key::bundle_summary_redacted_anonymized : ui::Key::bundle_summary_redacted,
                   fmt::arg("n", redacted))
            << "\n";
  if (!r.skipped.empty()) {
    std::cout << msg(ui::Key::bundle_summary_not_collected, fmt::arg("n", r.skipped.size())) << "\n";
    std::size_t shown = 0;
    for (const auto& s : r.skipped) {
      if (++shown > 10) {
        std::cout << "  ...\n";
        break;
      }
      std::cout << "  " << s.item << ": " << s.reason << "\n";
    }
  }
  std::cout << msg(ui::Key::bundle_summary_add_steps) << "\n";
  return kOk;
}

}  // namespace

void setup_bundle(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto args = std::make_shared<BundleArgs>();
  CLI::App* cmd = app.add_subcommand(
      "bundle", help_text(ui::Key::help_bundle_about));
  cmd->add_option("-o,--output", args->output, help_text(ui::Key::help_bundle_output))
      ->type_name("FILE");
  cmd->add_option("--logs", args->logs, help_text(ui::Key::help_bundle_logs))->type_name("PATH");
  cmd->add_flag("--no-default-logs", args->no_default_logs, help_text(ui::Key::help_bundle_no_default_logs));
  add_duration_option(cmd, "--since", args->since, help_text(ui::Key::help_bundle_since));
  cmd->add_option("--max-size", args->max_size, help_text(ui::Key::help_bundle_max_size))
      ->type_name("SIZE");
  add_duration_option(cmd, "--timeout", args->timeout, help_text(ui::Key::help_bundle_timeout),
                      {std::chrono::milliseconds(50), std::chrono::hours(1)});
  cmd->add_flag("--anonymize", args->anonymize, help_text(ui::Key::help_bundle_anonymize));
  cmd->add_option("--root", args->root, help_text(ui::Key::help_bundle_root))
      ->type_name("DIR");
  cmd->footer(help_text(ui::Key::help_bundle_footer));
  cmd->callback([&g, &exit_code, args] { exit_code = run(g, *args); });
}

}  // namespace npu_doctor::cli
