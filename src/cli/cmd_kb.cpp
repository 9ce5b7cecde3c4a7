// npu-doctor kb lint|list|coverage: check and browse knowledge-base files.
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "common.hpp"
#include "exit_codes.hpp"
#include "npu_doctor/kb_coverage.hpp"
#include "npu_doctor/kb_lint.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace npu_doctor::cli {
namespace {

struct LintArgs {
  std::vector<std::string> paths;
  bool alone = false;
};

// Lints the user's files together with the built-in base (so `explains` can point at
// built-in ids), reporting only problems in the user's files; with no paths, the
// built-in base itself.
int run_lint(const LintArgs& a) {
  for (const auto& p : a.paths) {
    std::error_code ec;
    if (!std::filesystem::exists(p, ec)) {
      std::cerr << "npu-doctor: " << p << ": " << msg(ui::Key::note_no_such_file) << "\n";
      return kUsage;
    }
  }
  KbLoadOptions opts;
  opts.embedded = a.paths.empty() || !a.alone;
  opts.user_paths = a.paths;
  std::vector<KbProblem> problems;
  const KnowledgeBase kb = load_knowledge_base(opts, problems);
  LintOptions lint;
  // With paths, only the user's entries are checked (against the whole base); the built-in
  // ones are checked by the build and the test suite, and re-checking them takes seconds.
  lint.only_user_defined = !a.paths.empty();
  lint.cache_dir = cache_dir();
  auto more = lint_knowledge_base(kb, lint);
  problems.insert(problems.end(), more.begin(), more.end());
  std::vector<std::string> user_files;
  for (const auto& e : kb.entries()) {
    if (e.user_defined) user_files.push_back(e.source.file);
  }
  std::size_t errors = 0, warnings = 0;
  for (const auto& p : problems) {
    const bool about_user = a.paths.empty() || p.file.empty() ||
                            std::any_of(a.paths.begin(), a.paths.end(), [&](const std::string& u) {
                              return p.file.rfind(u, 0) == 0;
                            });
    if (!about_user) continue;
    (p.is_error ? errors : warnings)++;
    if (!p.file.empty()) std::cout << p.file << ":" << p.line << ": ";
    std::cout << (p.is_error ? "error" : "warning") << ": " << p.message << "\n";
  }
  std::size_t entries = a.paths.empty() ? kb.entry_count()
                                        : static_cast<std::size_t>(std::count_if(kb.entries().begin(), kb.entries().end(),
                                                                                 [](const Entry& e) { return e.user_defined; }));
  std::cout << entries << " entries checked: " << errors << " error(s), " << warnings << " warning(s)\n";
  return errors > 0 ? kFindings : kOk;
}

struct ListArgs {
  std::string category;
};

int run_list(const GlobalOptions& g, const ListArgs& a) {
  auto kb = load_kb(g, std::cerr);
  const RenderOptions ro = render_options(g, true);
  if (!a.category.empty() && !parse_category(a.category)) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_kb_unknown_category, fmt::arg("category", a.category)) << "\n";
    return kUsage;
  }
  kb->for_each_entry([&](const Entry& e) {
    if (!a.category.empty() && to_string(e.category) != a.category) return;
    std::string codes;
    for (const auto& c : e.codes) codes += (codes.empty() ? "" : ",") + c;
    std::cout << e.id << "\t" << to_string(e.category) << "\t" << to_string(e.severity) << "\t" << codes << "\t"
              << e.title.get(ro.lang) << "\n";
  });
  return kOk;
}

// Per component of the message catalogue: the source read and how much of it is covered.
int run_coverage(const GlobalOptions& g, const std::string& format) {
  auto kb = load_kb(g, std::cerr);
  const auto rows = message_coverage(*kb);
  if (format == "json") {
    nlohmann::json out = {{"schema", "npu-doctor/kb-coverage/v1"}, {"kb_version", kb->version()}, {"components", nlohmann::json::array()}};
    for (const auto& r : rows) {
      nlohmann::json skipped = nlohmann::json::object();
      for (const auto& [reason, n] : r.source.skipped) skipped[reason] = n;
      out["components"].push_back({{"component", r.source.component},
                                   {"family", r.source.family},
                                   {"file", r.source.file},
                                   {"repo", r.source.repo},
                                   {"commit", r.source.commit},
                                   {"formats_found", r.source.formats_found},
                                   {"covered", r.covered},
                                   {"skipped", skipped}});
    }
    std::cout << out.dump(2) << "\n";
    return kOk;
  }
  if (rows.empty()) {
    std::cout << "The knowledge base has no message catalogue (kb/messages/).\n";
    return kOk;
  }
  // Columns as wide as their longest entry: component names run to 40 characters.
  int name_width = 9, repo_width = 10;
  for (const auto& r : rows) {
    name_width = std::max(name_width, static_cast<int>(r.source.component.size()));
    repo_width = std::max(repo_width, static_cast<int>(r.source.repo.size()));
  }
  std::printf("%-*s  %-*s  %-12s %8s %8s %7s %8s\n", name_width, "component", repo_width, "repository", "commit", "found",
              "covered", "%", "skipped");
  long long found = 0, covered = 0;
  for (const auto& r : rows) {
    std::printf("%-*s  %-*s  %-12s %8lld %8lld %6.1f%% %8lld\n", name_width, r.source.component.c_str(), repo_width,
                r.source.repo.c_str(), r.source.commit.substr(0, 12).c_str(), r.source.formats_found, r.covered,
                r.percent(), r.skipped);
    found += r.source.formats_found;
    covered += r.covered;
  }
  std::printf("%-*s  %-*s  %-12s %8lld %8lld %6.1f%%\n", name_width, "total", repo_width, "", "", found, covered,
              found > 0 ? 100.0 * static_cast<double>(covered) / static_cast<double>(found) : 0.0);
  std::cout << "found: ERROR-level formats in the source at that commit; covered: catalogue entries; "
               "skipped: left out (too generic to recognise, duplicates, too costly to scan). Details: docs/kb-messages.md\n";
  return kOk;
}

}  // namespace

void setup_kb(CLI::App& app, GlobalOptions& g, int& exit_code) {
  CLI::App* kb = app.add_subcommand("kb", help_text(ui::Key::help_kb_about));
  kb->require_subcommand(1);

  auto lint = std::make_shared<LintArgs>();
  CLI::App* l = kb->add_subcommand("lint", help_text(ui::Key::help_kb_lint_about));
  l->add_option("paths", lint->paths, help_text(ui::Key::help_kb_lint_paths));
  l->add_flag("--alone", lint->alone, help_text(ui::Key::help_kb_lint_alone));
  l->footer(help_text(ui::Key::help_kb_lint_footer));
  l->callback([&exit_code, lint] { exit_code = run_lint(*lint); });

  auto list = std::make_shared<ListArgs>();
  CLI::App* ls = kb->add_subcommand("list", help_text(ui::Key::help_kb_list_about));
  ls->add_option("--category", list->category, help_text(ui::Key::help_kb_list_category));
  ls->callback([&g, &exit_code, list] { exit_code = run_list(g, *list); });

  CLI::App* cov = kb->add_subcommand(
      "coverage", help_text(ui::Key::help_kb_coverage_about));
  auto cov_format = std::make_shared<std::string>("text");
  cov->add_option("-f,--format", *cov_format, help_text(ui::Key::help_kb_coverage_format))
      ->check(CLI::IsMember({"text", "json"}));
  cov->footer(help_text(ui::Key::help_kb_coverage_footer));
  cov->callback([&g, &exit_code, cov_format] { exit_code = run_coverage(g, *cov_format); });
}

}  // namespace npu_doctor::cli
