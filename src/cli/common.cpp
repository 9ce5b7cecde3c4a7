#include "common.hpp"

#include "exit_codes.hpp"
#include "npu_doctor/duration.hpp"
#include "npu_doctor/version.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace npu_doctor::cli {

void add_global_options(CLI::App& app, GlobalOptions& g) {
  app.add_option("--kb", g.kb_paths,
                 "Extra knowledge-base directory or file (repeatable); also NPU_DOCTOR_KB_PATH=dir1:dir2. "
                 "Entries with an existing id replace the built-in ones.")
      ->type_name("DIR");
  app.add_option("--lang", g.lang, "Language of the report: en or zh (default: from LANG)")
      ->check(CLI::IsMember({"en", "zh"}));
  app.add_option("--color", g.color, "Colour: auto (terminal, unless NO_COLOR is set), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
}

std::unique_ptr<KnowledgeBase> load_kb(const GlobalOptions& g, std::ostream& err) {
  KbLoadOptions opts;
  opts.user_paths = g.kb_paths;
  if (const char* env = std::getenv("NPU_DOCTOR_KB_PATH"); env != nullptr) {
    std::stringstream ss(env);
    for (std::string p; std::getline(ss, p, ':');) {
      if (!p.empty()) opts.user_paths.push_back(p);
    }
  }
  std::vector<KbProblem> problems;
  auto kb = std::make_unique<KnowledgeBase>(load_knowledge_base(opts, problems));
  for (const auto& p : problems) print_problem(p, err);
  return kb;
}

void print_problem(const KbProblem& p, std::ostream& err) {
  err << "npu-doctor: ";
  if (!p.file.empty()) err << p.file << ":" << p.line << ": ";
  err << (p.is_error ? "error" : "warning") << ": " << p.message << "\n";
}

RenderOptions render_options(const GlobalOptions& g, bool to_terminal) {
  RenderOptions o;
  o.lang = g.lang.empty() ? lang_from_environment() : parse_lang(g.lang).value_or(Lang::en);
  if (g.color == "always") {
    o.color = true;
  } else if (g.color == "never") {
    o.color = false;
  } else {
    const char* no_color = std::getenv("NO_COLOR");
    const char* term = std::getenv("TERM");
    o.color = to_terminal && isatty(STDOUT_FILENO) != 0 && (no_color == nullptr || *no_color == '\0') &&
              !(term != nullptr && std::string(term) == "dumb");
  }
  return o;
}

std::string cache_dir() {
  if (const char* dir = std::getenv("NPU_DOCTOR_CACHE_DIR"); dir != nullptr) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    return std::string(xdg) + "/npu-doctor";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::string(home) + "/.cache/npu-doctor";
  }
  return {};
}

bool write_output(const std::string& path, const std::function<void(std::ostream&)>& write, std::ostream& err) {
  if (path.empty() || path == "-") {
    write(std::cout);
    std::cout.flush();
    return static_cast<bool>(std::cout);
  }
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      err << "npu-doctor: cannot write " << path << "\n";
      return false;
    }
    write(out);
    out.flush();
    if (!out) {
      err << "npu-doctor: writing " << path << " failed\n";
      std::remove(tmp.c_str());
      return false;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    err << "npu-doctor: cannot write " << path << ": " << ec.message() << "\n";
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

std::optional<int64_t> parse_duration_us(const std::string& s) {
  const auto d = parse_duration(s);
  if (!d) return std::nullopt;
  return static_cast<int64_t>(d->count()) * 1000;
}

void prepare_app(CLI::App& app, GlobalOptions& g) {
  app.set_version_flag("--version", std::string("npu-doctor ") + std::string(kVersion));
  app.require_subcommand(1);
  app.fallthrough();  // global options may follow the subcommand name
  add_global_options(app, g);
}

int run_app(CLI::App& app, int argc, char** argv, const int& exit_code) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kOk : kUsage;
  } catch (const std::exception& e) {
    std::cerr << "npu-doctor: internal error: " << e.what() << "\nPlease report this with the command line.\n";
    return kInternal;
  }
  return exit_code;
}

}  // namespace npu_doctor::cli
