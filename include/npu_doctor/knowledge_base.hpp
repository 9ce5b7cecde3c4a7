#pragma once
// The knowledge base: what every error code and message means, as loaded from
// the data files in kb/ (embedded in the binary) and from user directories.
// The file format is documented in docs/kb-schema.md.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "npu_doctor/entry_id.hpp"
#include "npu_doctor/vocabulary.hpp"

namespace npu_doctor {

// Thrown by KnowledgeBase::entry() for an id the knowledge base does not hold.
class MissingEntry : public std::logic_error {
 public:
  explicit MissingEntry(EntryId id)
      : std::logic_error("knowledge-base entry '" + id.string() + "' is missing (a knowledge base without the built-in entries?)") {}
};

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
  // The two-stage scan's plan for this pattern (src/core/scan_plan.hpp), computed by the
  // knowledge-base compiler (or when a user's file is loaded): the index keys (lower-case
  // 3-4 byte strings, one of which every matching line holds; empty: not indexable), and
  // whether the shared gate covers it (else its regex runs in the first stage).
  std::vector<std::string> keys;
  bool gated = false;
  bool planned = false;
};

// Meaning from context: a code or message that means something else when a neighbouring
// line of its first occurrence (the evidence line and its context lines) says so. The
// finding is then read as the entry `means` ("EZ1001" next to "not implemented for
// DT_BFLOAT16" is an unsupported dtype, not a shape error).
struct ContextRule {
  MatchPattern near;
  std::string means;  // an entry id
};

// The verbatim row of the seed guide's error table (kb/seed.yaml keeps it exactly).
struct SeedRow {
  std::string name;
  std::string range;
  std::string examples;
  std::string cause;
  std::string remedy;
};

// Who wrote an entry: by hand (the default), or generated from a message format found in
// the stack's own sources (the catalogue, docs/kb-messages.md), which never overrides
// hand-written knowledge on the same line.
enum class Origin { curated, source };

// Which lines an entry is recognised on: any line, or only lines logged at error level
// (how the message of an ERROR-level log call reaches a log).
enum class LevelRequirement { any, error };

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
  std::vector<std::string> recovers;      // entry ids whose failure this later line shows was overcome
  // A test runner's summary that the run it ends passed ("[  PASSED  ] 150 tests."): the
  // failures before it in its input were the tests' own, expected ones (context_meaning.cpp).
  bool passes_run = false;
  // A test runner's line saying a test failed ("[  FAILED  ] Suite.Name (5 ms)"): an input
  // holding one has no passing run, wherever the line is (context_meaning.cpp).
  bool fails_run = false;
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
  Origin origin = Origin::curated;
  LevelRequirement level = LevelRequirement::any;
  std::string format;                     // origin: source: the format the pattern was generated from
  bool python_format = false;             // its format_style is python ("{}" placeholders), else printf
  std::vector<ContextRule> context;       // what it means next to other lines
  // The words that, beside another entry's line, mean this entry (0 or 1 pattern): a context
  // rule without `near` that `means` this entry uses them, so one wording serves every code.
  std::vector<MatchPattern> context_signal;
  // The category's general texts (kb/categories.yaml), for entries that have no cause or
  // remedies of their own; set by KnowledgeBase.
  const Entry* texts_from = nullptr;

  bool is_code_fallback() const { return codes.empty() && patterns.empty(); }
  // The cause and remedies to show: the entry's own, else its category's general ones.
  const LocalizedText& cause_text() const {
    return cause.en.empty() && texts_from != nullptr ? texts_from->cause : cause;
  }
  const std::vector<LocalizedText>& remedy_texts() const {
    return remedies.empty() && texts_from != nullptr ? texts_from->remedies : remedies;
  }
};

// The shared first stage of the two-stage scan (src/core/scan_plan.hpp, docs/scanning.md):
// literals (lower case, matched in any case) most patterns provably need, and whether the
// markers of an error-level line are part of it. Chosen by the knowledge-base compiler.
struct ScanGate {
  std::vector<std::string> literals;
  bool error_markers = false;
  // Literals the first stage looks for on behalf of the patterns the gate does not cover
  // (scan_plan.hpp, choose_probes): shared between patterns where one word serves several,
  // chosen rare in healthy text. A pattern they cover adds nothing else to the first stage.
  std::vector<std::string> probes;
  bool operator==(const ScanGate&) const = default;
};

// Where a catalogue file's formats were read (its `source:` block, docs/kb-messages.md).
struct KbSource {
  std::string family;
  std::string file;
  std::string component;
  std::string repo;
  std::string commit;
  long long formats_found = 0;
  std::vector<std::pair<std::string, long long>> skipped;  // reason -> count
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
  bool user_defined = false;  // came from --kb / NPU_DOCTOR_KB_PATH
};

// How specifically a line was recognised; higher beats lower in root-cause selection.
// A catalogue message (a format from the sources) says more than a code family and less
// than an exact code or a hand-written message. `words`: no entry recognised the line; the
// word fallback classified it by its words.
enum class Specificity { words = -1, unknown_code = 0, code_family = 1, source_message = 2, exact_code = 3, message = 4 };

struct CodeResolution {
  const Entry* entry = nullptr;
  Specificity specificity = Specificity::unknown_code;
};

class Catalogue;

class KnowledgeBase {
 public:
  KnowledgeBase() = default;
  KnowledgeBase(std::vector<Entry> entries, std::vector<Extractor> extractors, std::string version,
                std::vector<KbSource> sources = {});
  KnowledgeBase(KnowledgeBase&&) = default;
  KnowledgeBase& operator=(KnowledgeBase&&) = default;

  // The entries decoded up front: the hand-written ones, the categories, users' files, and
  // every entry of a knowledge base loaded from YAML. A snapshot's message catalogue is read
  // in place instead (catalogue()); entry_count(), find_id() and for_each_entry() see both.
  const std::vector<Entry>& entries() const { return entries_; }
  const Catalogue* catalogue() const { return catalogue_.get(); }
  void set_catalogue(std::shared_ptr<Catalogue> catalogue);
  std::size_t entry_count() const;
  // Every entry, the catalogue's decoded as they come (slow for a large catalogue: lint, list).
  void for_each_entry(const std::function<void(const Entry&)>& visit) const;
  const std::vector<KbSource>& sources() const { return sources_; }
  const ScanGate& gate() const { return gate_; }
  void set_gate(ScanGate gate) { gate_ = std::move(gate); }
  const std::vector<Extractor>& extractors() const { return extractors_; }
  const std::string& version() const { return version_; }
  // Gives the entries and extractors away (to layer more files over them); the
  // knowledge base is empty afterwards.
  struct Parts {
    std::vector<Entry> entries;
    std::vector<Extractor> extractors;
    std::vector<KbSource> sources;
    ScanGate gate;
    std::shared_ptr<Catalogue> catalogue;
  };
  Parts release() &&;

  // The scan's tables precomputed by npu-doctor-kbc for exactly this knowledge base (a
  // snapshot's matcher image, KbMatcher::write_image), read in place; empty when there is
  // none. release() drops it: a base with files layered over it is indexed at start-up.
  std::string_view matcher_image() const { return matcher_image_; }
  void set_matcher_image(std::string_view image, std::shared_ptr<const void> owner) {
    matcher_image_ = image;
    matcher_image_owner_ = std::move(owner);
  }

  // Texts left in a snapshot (read_kb_snapshot's EntryTexts::deferred, KbLoadOptions::defer_texts):
  // entries() then hold no title, cause, remedies, references, samples or seed row, except
  // the categories' (every entry may show those); with_texts() decodes one entry's.
  // `blocks`: each entry's texts as the snapshot holds them (snapshot_io::read_entry_texts).
  void defer_texts(std::vector<std::string_view> blocks, std::shared_ptr<const void> owner);
  // `e` with its texts: `e` itself, or when its texts were deferred a copy decoded on first
  // use and kept with the knowledge base (thread-safe).
  const Entry& with_texts(const Entry& e) const;

  // An entry by its id as text: an id from a file, a user's query. Null when there is none.
  const Entry* find_id(std::string_view id) const;
  // An entry that code raises by name (kb_id::..., generated from kb/*.yaml). Every built-in
  // id is there, and a user's base can add or replace entries but not remove them, so a
  // miss is a bug (a test's own base, a broken build): it throws MissingEntry, which the
  // command line reports as an internal error (exit 3).
  const Entry& entry(EntryId id) const;

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
  std::vector<KbSource> sources_;
  ScanGate gate_;
  std::shared_ptr<Catalogue> catalogue_;
  std::string_view matcher_image_;
  std::shared_ptr<const void> matcher_image_owner_;  // null: the bytes live forever (the binary's)
  std::string version_;
  std::map<std::string, std::size_t, std::less<>> by_id_;
  std::map<std::string, std::size_t, std::less<>> by_code_;  // "<ns>:<code>" -> entry index
  std::map<std::string, std::vector<std::size_t>, std::less<>> fallbacks_;  // ns -> range/prefix entries
  std::map<std::string, std::size_t, std::less<>> by_name_;  // symbolic name of a code entry -> index
  struct DeferredTexts;
  std::shared_ptr<DeferredTexts> deferred_;  // null: every entry's texts are decoded
  // Points `e` at its category's texts when it has no cause or remedies of its own.
  void link_category_texts(Entry& e) const;
};

// The id of the entry holding a category's general cause and remedies (kb/categories.yaml).
std::string category_entry_id(Category c);

// A problem found while loading or linting knowledge-base files.
struct KbProblem {
  std::string file;
  int line = 0;
  std::string message;
  bool is_error = true;  // false: a warning that does not reject the file
};

struct KbLoadOptions {
  bool embedded = true;                  // include the knowledge base built into the binary
  bool defer_texts = false;              // leave the snapshot's entry texts for with_texts() (explain)
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
  std::optional<KbSource> source;  // a catalogue file's provenance
};
KbFile parse_kb_file(std::string_view file_name, std::string_view content, bool user_defined,
                     std::vector<KbProblem>& problems);

// Canonical form of a code for lookup: upper-case E-codes, "0x" hex lower-cased without
// leading zeros, decimal without leading zeros.
std::string normalize_code(std::string_view code);

}  // namespace npu_doctor
