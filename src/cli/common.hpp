#pragma once
// Options shared by every subcommand, and helpers to apply them.
#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "npu_doctor/knowledge_base.hpp"
#include "diagnosis/render.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor::cli {

struct GlobalOptions {
  std::vector<std::string> kb_paths;  // --kb (repeatable) and NPU_DOCTOR_KB_PATH
  std::string lang;                   // --lang en|zh; empty = from the environment
  std::string color = "auto";         // --color auto|always|never
  std::string command;                // the subcommand being run ("mem" for mem analyze), set before it runs
};

void add_global_options(CLI::App& app, GlobalOptions& g);

// The language of npu-doctor's own words, its help texts and error messages (data/ui.yaml,
// help.* and error.*): --lang en|zh or --lang=zh anywhere before "--", else the environment,
// as for the reports (lang_from_environment). It is decided from argv before the commands are
// built, because CLI11 copies a help text when the option is added; prepare_app does that.
void choose_cli_lang(int argc, const char* const* argv);
Lang cli_lang();
// A help text (help.*) in cli_lang().
std::string help_text(ui::Key k);
// A message (error.* and the like) in cli_lang(), its named placeholders filled:
//   msg(ui::Key::error_no_such_file, fmt::arg("path", p))
template <typename... Args>
std::string msg(ui::Key k, const Args&... args) {
  return ui::text(k, cli_lang(), args...);
}

// An input's note (why it was skipped or could not be read) for a message on stderr: the
// readers' notes in fixed words (note.*, whose English is the reader's text) in cli_lang(),
// any other (a system error's text, a path) as it is. Reports and JSON keep the reader's note.
std::string note_text(std::string_view note);

// What every entry point does before its subcommands register: the language of the help
// (choose_cli_lang), --help and --version, one subcommand required, global options (also
// after the subcommand name).
void prepare_app(CLI::App& app, GlobalOptions& g, int argc, const char* const* argv);

// SIGINT, SIGTERM, SIGHUP: kill the external commands being run, remove the report
// write_output is writing, exit 128 + signal (130, 143, 129). run_app installs them;
// a subcommand that stops cleanly on its own (mem watch, net serve) replaces them.
void install_interrupt_handlers();

// Parses and runs the chosen subcommand; the exit status (usage errors 2, an escaped
// exception 3 with a request to report it).
int run_app(CLI::App& app, int argc, char** argv, const int& exit_code);

// Loads the built-in knowledge base plus the site's (system_kb_dir(), when it holds
// *.yaml files) and the user's; prints problems with user files to stderr (a user's
// broken entry is left out, the rest still works). `defer_texts`: see KbLoadOptions (explain).
std::unique_ptr<KnowledgeBase> load_kb(const GlobalOptions& g, std::ostream& err, bool defer_texts = false);

// The site's knowledge-base overrides directory read by every command:
// $NPU_DOCTOR_SYSTEM_KB_DIR when set (empty: none), else the build's default
// (/etc/npu-doctor/kb.d, cmake -DNPU_DOCTOR_SYSTEM_KB_DIR=...).
std::string system_kb_dir();

RenderOptions render_options(const GlobalOptions& g, bool to_terminal);

// Columns for text on stdout: $COLUMNS when set to a number, else the terminal's width when
// stdout is one, else 80.
std::size_t terminal_width();

// Where compiled pattern databases are kept: $NPU_DOCTOR_CACHE_DIR (empty: no cache),
// else $XDG_CACHE_HOME/npu-doctor, else ~/.cache/npu-doctor.
std::string cache_dir();

// "npu-doctor: file:line: error: message" (or without the location when there is none).
void print_problem(const KbProblem& p, std::ostream& err);

// Writes with `write` to `path` ("-" = stdout) via a temporary file renamed when
// complete, so a partial file is never left looking complete (a signal removes the
// temporary file: see install_interrupt_handlers). False on failure.
bool write_output(const std::string& path, const std::function<void(std::ostream&)>& write, std::ostream& err);

// A subcommand registers itself and sets `exit_code` when it runs.
using Setup = void (*)(CLI::App& app, GlobalOptions& g, int& exit_code);

}  // namespace npu_doctor::cli
