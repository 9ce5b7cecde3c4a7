#include "common.hpp"

#include "exit_codes.hpp"
#include "build_info/build_info.hpp"
#include "npu_doctor/duration.hpp"
#include "npu_doctor/install_paths.hpp"
#include "npu_doctor/probe.hpp"
#include "npu_doctor/text.hpp"
#include "npu_doctor/version.hpp"

#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>
#include <atomic>
#include <cerrno>
#include <cstring>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace npu_doctor::cli {

namespace {
Lang g_cli_lang = Lang::en;
}  // namespace

void choose_cli_lang(int argc, const char* const* argv) {
  std::optional<Lang> chosen;
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == "--") break;
    if (word == "--lang" && i + 1 < argc) {
      if (const auto l = parse_lang(argv[++i])) chosen = l;
    } else if (word.starts_with("--lang=")) {
      if (const auto l = parse_lang(word.substr(7))) chosen = l;
    }
  }
  g_cli_lang = chosen.value_or(lang_from_environment());
}

Lang cli_lang() { return g_cli_lang; }

std::string help_text(ui::Key k) { return std::string(ui::word(k, g_cli_lang)); }

std::string note_text(std::string_view note) {
  for (const ui::Key k : {ui::Key::note_no_such_file, ui::Key::note_binary, ui::Key::note_not_regular_file,
                          ui::Key::note_archive_empty}) {
    if (ui::word(k, Lang::en) == note) return std::string(ui::word(k, g_cli_lang));
  }
  return std::string(note);
}

void add_global_options(CLI::App& app, GlobalOptions& g) {
  app.add_option("--kb", g.kb_paths, help_text(ui::Key::help_global_kb))
      ->type_name("DIR")
      // One value per --kb: otherwise `diagnose --kb DIR LOG` takes LOG for a second directory.
      ->allow_extra_args(false);
  app.add_option("--lang", g.lang, help_text(ui::Key::help_global_lang))
      ->check(CLI::IsMember({"en", "zh"}));
  app.add_option("--color", g.color, help_text(ui::Key::help_global_color))
      ->check(CLI::IsMember({"auto", "always", "never"}));
}

std::string system_kb_dir() {
  if (const char* dir = std::getenv("NPU_DOCTOR_SYSTEM_KB_DIR"); dir != nullptr) return dir;
  return std::string(kSystemKbDir);
}

std::unique_ptr<KnowledgeBase> load_kb(const GlobalOptions& g, std::ostream& err, bool defer_texts) {
  KbLoadOptions opts;
  opts.defer_texts = defer_texts;
  // The site's files first, so that --kb and NPU_DOCTOR_KB_PATH override them; only when
  // there is one (layering files costs the snapshot's fast start).
  if (const std::string site = system_kb_dir(); !site.empty() && !kb_files_in(site).empty()) {
    opts.user_paths.push_back(site);
  }
  opts.user_paths.insert(opts.user_paths.end(), g.kb_paths.begin(), g.kb_paths.end());
  if (const char* env = std::getenv("NPU_DOCTOR_KB_PATH"); env != nullptr) {
    std::stringstream ss(env);
    for (std::string p; std::getline(ss, p, ':');) {
      if (!p.empty()) opts.user_paths.push_back(p);
    }
  }
  std::vector<KbProblem> problems;
  auto kb = std::make_unique<KnowledgeBase>(load_knowledge_base(opts, problems));
  for (const auto& p : problems) print_problem(p, err);
  // Without the built-in entries every log would look healthy: that is no answer to give.
  if (std::none_of(kb->entries().begin(), kb->entries().end(), [](const Entry& e) { return !e.user_defined; })) {
    throw std::runtime_error(msg(ui::Key::error_kb_unreadable));
  }
  return kb;
}

void print_problem(const KbProblem& p, std::ostream& err) {
  err << "npu-doctor: ";
  if (!p.file.empty()) err << p.file << ":" << p.line << ": ";
  err << ui::word(p.is_error ? ui::Key::error_label_error : ui::Key::error_label_warning, cli_lang()) << ": " << p.message
      << "\n";
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

std::size_t terminal_width() {
  if (const char* cols = std::getenv("COLUMNS"); cols != nullptr) {
    if (const auto n = parse_number<std::size_t>(cols); n && *n >= 20 && *n <= 1000) return *n;
  }
  struct winsize ws {};
  if (isatty(STDOUT_FILENO) != 0 && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
  return 80;
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

namespace {

// The temporary file write_output is filling, for the signal handler to remove (a fixed
// buffer and an atomic flag: nothing a handler touches may be freed under it).
char g_partial_output[4096];
std::atomic<bool> g_partial_output_set{false};
// The handler's three messages in the chosen language, made before any signal can come
// (building them in the handler would allocate).
char g_signal_text[3][512];
static_assert(std::atomic<bool>::is_always_lock_free);

class PartialOutput {
 public:
  explicit PartialOutput(const std::string& tmp) {
    if (tmp.size() >= sizeof g_partial_output) return;
    std::memcpy(g_partial_output, tmp.c_str(), tmp.size() + 1);
    g_partial_output_set.store(true);
  }
  ~PartialOutput() { g_partial_output_set.store(false); }
  PartialOutput(const PartialOutput&) = delete;
  PartialOutput& operator=(const PartialOutput&) = delete;
};

void write_stderr(const char* s) {
  for (std::size_t n = std::strlen(s); n > 0;) {
    const ssize_t w = ::write(STDERR_FILENO, s, n);
    if (w <= 0) return;
    s += w;
    n -= static_cast<std::size_t>(w);
  }
}

// Only async-signal-safe calls: kill the tools we run, remove a half-written report,
// say why, leave with 128 + the signal (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP).
extern "C" void on_interrupt(int sig) {
  kill_running_commands();
  if (g_partial_output_set.load()) ::unlink(g_partial_output);
  write_stderr(g_signal_text[sig == SIGINT ? 0 : sig == SIGTERM ? 1 : 2]);
  ::_exit(128 + sig);
}

}  // namespace

void install_interrupt_handlers() {
  const ui::Key texts[3] = {ui::Key::error_interrupted, ui::Key::error_terminated, ui::Key::error_hung_up};
  for (int k = 0; k < 3; ++k) {
    const std::string t = "npu-doctor: " + std::string(ui::word(texts[k], cli_lang())) + "\n";
    std::snprintf(g_signal_text[k], sizeof g_signal_text[k], "%s", t.c_str());
  }
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    // A signal the caller ignores (nohup, a background job of a non-interactive shell) stays ignored.
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sig, &sa, nullptr);
  }
}

bool write_output(const std::string& path, const std::function<void(std::ostream&)>& write, std::ostream& err) {
  if (path.empty() || path == "-") {
    write(std::cout);
    std::cout.flush();
    return static_cast<bool>(std::cout);
  }
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  const PartialOutput removed_on_signal(tmp);
  {
    errno = 0;
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      err << "npu-doctor: "
          << msg(ui::Key::error_cannot_write, fmt::arg("path", path), fmt::arg("why", std::strerror(errno ? errno : EIO)))
          << "\n";
      return false;
    }
    write(out);
    errno = 0;
    out.flush();
    if (!out) {
      err << "npu-doctor: "
          << msg(ui::Key::error_write_failed, fmt::arg("path", path), fmt::arg("why", std::strerror(errno ? errno : EIO)))
          << "\n";
      std::remove(tmp.c_str());
      return false;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    err << "npu-doctor: " << msg(ui::Key::error_cannot_write, fmt::arg("path", path), fmt::arg("why", ec.message()))
        << "\n";
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

void prepare_app(CLI::App& app, GlobalOptions& g, int argc, const char* const* argv) {
  choose_cli_lang(argc, argv);
  // The frame of the help page: the formatter's labels, the heading of the options and the
  // one of the subcommands. Subcommands inherit all three (and the help flag) when they are
  // added, so this comes first. In English these are CLI11's own words.
  const auto formatter = app.get_formatter();
  for (const auto& [label, key] : {std::pair{"Usage", ui::Key::help_frame_usage},
                                   {"OPTIONS", ui::Key::help_frame_options_word},
                                   {"SUBCOMMAND", ui::Key::help_frame_subcommand_word},
                                   {"SUBCOMMANDS", ui::Key::help_frame_subcommands_word},
                                   {"Positionals", ui::Key::help_frame_positionals},
                                   {"REQUIRED", ui::Key::help_frame_required},
                                   {"Needs", ui::Key::help_frame_needs},
                                   {"Excludes", ui::Key::help_frame_excludes}}) {
    formatter->label(label, help_text(key));
  }
  app.option_defaults()->group(help_text(ui::Key::help_frame_options));
  app.group(help_text(ui::Key::help_frame_subcommands));
  app.set_help_flag("-h,--help", help_text(ui::Key::help_global_help));
  app.set_version_flag("--version", [] { return version_text(system_kb_dir()); },
                       help_text(ui::Key::help_global_version));
  // Which subcommand runs, for reports that name it (-f prometheus): CLI11 calls this
  // after parsing, before the subcommand's own callback.
  app.parse_complete_callback([&app, &g] {
    for (const CLI::App* sub : app.get_subcommands()) g.command = sub->get_name();
    if (const auto l = parse_lang(g.lang)) g_cli_lang = *l;  // as parsed, should argv's scan differ
  });
  app.require_subcommand(1);
  // Usage errors start like every other message of ours.
  // CLI::FailureMessage::simple, with its last line ours (CLI11's message itself stays English).
  app.failure_message([](const CLI::App* a, const CLI::Error& e) {
    std::string text = "npu-doctor: " + std::string(e.what()) + "\n";
    if (const CLI::Option* help = a->get_help_ptr(); help != nullptr) {
      text += msg(ui::Key::error_run_with_help, fmt::arg("flag", help->get_name())) + "\n";
    }
    return text;
  });
  app.fallthrough();  // global options may follow the subcommand name
  add_global_options(app, g);
}

namespace {

bool takes_value(const CLI::App* app, const std::string& word) {
  for (; app != nullptr; app = app->get_parent()) {
    if (const CLI::Option* o = app->get_option_no_throw(word)) return o->get_items_expected_max() > 0;
  }
  return false;
}

// Before CLI11 parses: a word where a command belongs that is no command. A file there
// means `diagnose` was left out; anything else gets the nearest command names.
std::optional<int> check_command_words(CLI::App& app, int argc, char** argv) {
  CLI::App* at = &app;
  std::string path = "npu-doctor";
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") return std::nullopt;
    if (word.size() > 1 && word[0] == '-') {
      if (word.find('=') == std::string::npos && takes_value(at, word)) ++i;
      continue;
    }
    const auto subs = at->get_subcommands([](CLI::App* s) { return !s->get_name().empty(); });
    if (subs.empty()) return std::nullopt;  // a command's own arguments from here on
    const auto next = std::find_if(subs.begin(), subs.end(), [&](CLI::App* s) { return s->check_name(word); });
    if (next != subs.end()) {
      at = *next;
      path += " " + (*next)->get_name();
      continue;
    }
    std::error_code ec;
    if (at == &app && (word == "-" || std::filesystem::exists(word, ec))) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_file_as_command, fmt::arg("word", word)) << "\n";
      return kUsage;
    }
    std::vector<std::pair<std::size_t, std::string>> near;
    std::string all;
    for (const CLI::App* s : subs) {
      const std::string& name = s->get_name();
      all += (all.empty() ? "" : ", ") + name;
      const std::size_t d = edit_distance(word, name);
      const bool prefix = word.size() >= 2 && name.rfind(word, 0) == 0;
      if (d <= std::max<std::size_t>(2, name.size() / 3) || prefix) near.emplace_back(prefix ? 0 : d, name);
    }
    std::sort(near.begin(), near.end());
    std::cerr << "npu-doctor: " << msg(ui::Key::error_not_a_command, fmt::arg("word", word), fmt::arg("path", path));
    if (!near.empty()) {
      std::string names;
      for (std::size_t k = 0; k < near.size() && k < 3; ++k) {
        if (k > 0) names += ui::word(ui::Key::error_did_you_mean_or, cli_lang());
        names += "'" + near[k].second + "'";
      }
      std::cerr << msg(ui::Key::error_did_you_mean, fmt::arg("names", names));
    }
    std::cerr << "\n" << msg(ui::Key::error_commands, fmt::arg("commands", all)) << "\n";
    return kUsage;
  }
  return std::nullopt;
}

// A subcommand makes its -h,--help before it takes the option defaults, so that flag is still
// in CLI11's "Options" group: put it with the other options (a heading of their own otherwise).
void group_help_flags(CLI::App& app, const std::string& group) {
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    if (CLI::Option* help = sub->get_help_ptr(); help != nullptr) help->group(group);
    group_help_flags(*sub, group);
  }
}

}  // namespace

int run_app(CLI::App& app, int argc, char** argv, const int& exit_code) {
  group_help_flags(app, help_text(ui::Key::help_frame_options));
  install_interrupt_handlers();
  if (const auto rc = check_command_words(app, argc, argv)) return *rc;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kOk : kUsage;
  } catch (const std::exception& e) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_internal, fmt::arg("what", e.what())) << "\n";
    return kInternal;
  }
  return exit_code;
}

}  // namespace npu_doctor::cli
