#pragma once
// The knowledge base: what every error code and message means, as loaded from
// the data files in kb/ (embedded in the binary) and from user directories.
// The file format is documented in docs/kb-schema.md.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "npu_doctor/vocabulary.hpp"

namespace npu_doctor {

struct LocalizedText {
  std::string en;
  std::string zh;
  // The text in `lang`, falling back to English when there is no translation.
  const std::string& get(Lang lang) const { return lang == Lang::zh && !zh.empty() ? zh : en; }
};

// Where something was defined: file name and 1-based line.
struct SourceRef {
  std::string file;
  int line = 0;
};

struct CodeRange {
  long long lo = 0;
  long long hi = 0;
  bool contains(long long v) const { return lo <= v && v <= hi; }
  long long width() const { return hi - lo; }
};

struct MatchPattern {
  std::string regex;
  bool ignore_case = false;
};

// The verbatim row of the seed guide's error table (kb/seed.yaml keeps it exactly).
struct SeedRow {
  std::string name;
  std::string range;
  std::string examples;
  std::string cause;
  std::string remedy;
};

struct Entry {
  std::string id;              // unique, "<family>.<name>", e.g. "acl.507015"
  std::string family;          // the file's family, e.g. "acl"
  std::string code_namespace;  // which code space `codes`/`ranges`/`prefixes` live in
  std::vector<std::string> codes;
  std::vector<CodeRange> ranges;          // numeric fallbacks (seed table, code families)
  std::vector<std::string> prefixes;      // string-code fallbacks (e.g. "EI" = any HCCL E-code)
  std::vector<std::string> components;    // a range is preferred when the line names one of these
  std::string name;                       // symbolic name, e.g. ACL_ERROR_RT_AICORE_EXCEPTION
  Category category = Category::other;
  std::string layer;
  Severity severity = Severity::error;
  Role role = Role::cause;
  std::vector<Category> symptom_of;       // a symptom when a cause of these categories is present
  std::vector<std::string> explains;      // entry ids this hint or cause explains
  int priority = 0;                       // tie-break among equally specific findings
  bool any_level = false;                 // keep the severity on INFO/WARNING lines too
  bool matches_logs = true;               // false: raised by an analysis (check, mem...) by id
  std::vector<MatchPattern> patterns;     // message patterns (any of them matches)
  LocalizedText title;
  LocalizedText cause;
  std::vector<LocalizedText> remedies;    // in the order to try them
  std::vector<std::string> references;
  std::vector<std::string> samples_match;
  std::vector<std::string> samples_no_match;
  std::optional<SeedRow> seed;
  SourceRef source;
  bool user_defined = false;              // came from --kb / NPU_DOCTOR_KB_PATH

  bool is_code_fallback() const { return codes.empty() && patterns.empty(); }
};

// Finds codes in lines, e.g. "error code is (?<code>\d{6})" in the "acl" namespace.
// The code is then looked up in the entries of that namespace.
struct Extractor {
  std::string id;
  std::string code_namespace;
  MatchPattern pattern;  // must have a named group "code"; may have "component"
  std::string decode;    // "" (as is), "hccl_errno" (errNo hex -> HcclResult), "runtime_hex"
  std::vector<std::string> samples_match;
  std::vector<std::string> samples_no_match;
  SourceRef source;
};

// How specifically a line was recognised; higher beats lower in root-cause selection.
// `words`: no entry recognised the line; the word fallback classified it by its words.
enum class Specificity { words = -1, unknown_code = 0, code_family = 1, exact_code = 2, message = 3 };

struct CodeResolution {
  const Entry* entry = nullptr;
  Specificity specificity = Specificity::unknown_code;
};

class KnowledgeBase {
 public:
  KnowledgeBase() = default;
  KnowledgeBase(std::vector<Entry> entries, std::vector<Extractor> extractors, std::string version);

  const std::vector<Entry>& entries() const { return entries_; }
  const std::vector<Extractor>& extractors() const { return extractors_; }
  const std::string& version() const { return version_; }
  // Gives the entries and extractors away (to layer more files over them); the
  // knowledge base is empty afterwards.
  std::pair<std::vector<Entry>, std::vector<Extractor>> release() &&;

  const Entry* find_id(std::string_view id) const;

  // The entry that explains `code` seen in namespace `ns` on a line naming `component`
  // (may be empty). Precedence: an exact code; then a range or prefix that names the
  // line's component; then any other range or prefix, the narrowest first. Namespace
  // "name" looks up the symbolic name of a code entry (ACL_ERROR_RT_AICORE_EXCEPTION).
  std::optional<CodeResolution> resolve_code(std::string_view ns, std::string_view code,
                                             std::string_view component) const;

  // Entries whose codes, ranges or prefixes cover `code` in any namespace (for explain),
  // exact matches first.
  std::vector<CodeResolution> lookup_code(std::string_view code) const;

 private:
  std::vector<Entry> entries_;
  std::vector<Extractor> extractors_;
  std::string version_;
  std::map<std::string, std::size_t, std::less<>> by_id_;
  std::map<std::string, std::size_t, std::less<>> by_code_;  // "<ns>:<code>" -> entry index
  std::map<std::string, std::vector<std::size_t>, std::less<>> fallbacks_;  // ns -> range/prefix entries
  std::map<std::string, std::size_t, std::less<>> by_name_;  // symbolic name of a code entry -> index
};

// A problem found while loading or linting knowledge-base files.
struct KbProblem {
  std::string file;
  int line = 0;
  std::string message;
  bool is_error = true;  // false: a warning that does not reject the file
};

struct KbLoadOptions {
  bool embedded = true;                  // include the knowledge base built into the binary
  std::vector<std::string> builtin_paths;  // .yaml files loaded as shipped files (the build's kbc)
  std::vector<std::string> user_paths;   // directories or files (*.yaml) that add or override
};

// Loads the knowledge base. Structural problems are appended to `problems`; entries
// with errors are left out, everything else is still loaded.
KnowledgeBase load_knowledge_base(const KbLoadOptions& options, std::vector<KbProblem>& problems);

// Parses one file's text into entries and extractors (no cross-file checks).
struct KbFile {
  std::vector<Entry> entries;
  std::vector<Extractor> extractors;
};
KbFile parse_kb_file(std::string_view file_name, std::string_view content, bool user_defined,
                     std::vector<KbProblem>& problems);

// Canonical form of a code for lookup: upper-case E-codes, "0x" hex lower-cased without
// leading zeros, decimal without leading zeros.
std::string normalize_code(std::string_view code);

}  // namespace npu_doctor
