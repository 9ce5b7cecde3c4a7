// KnowledgeBase: lookup of entries by id and by code (exact, range, prefix).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <mutex>

#include "npu_doctor/catalogue.hpp"
#include "npu_doctor/knowledge_base.hpp"
#include "snapshot_io.hpp"

#include <array>

namespace npu_doctor {
namespace {

std::string code_key(std::string_view ns, std::string_view code) {
  std::string key(ns);
  key += ':';
  key += code;
  return key;
}

std::optional<long long> parse_decimal(std::string_view s) {
  long long v = 0;
  if (s.empty()) return std::nullopt;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 10);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

bool component_matches(const Entry& e, std::string_view component) {
  if (component.empty()) return false;
  return std::any_of(e.components.begin(), e.components.end(),
                     [&](const std::string& c) { return c == component; });
}

// How narrowly `e` covers `code` as a fallback; nullopt when it does not cover it.
// Smaller is narrower.
std::optional<long long> fallback_width(const Entry& e, std::string_view code) {
  std::optional<long long> best;
  if (auto v = parse_decimal(code)) {
    for (const auto& r : e.ranges) {
      if (r.contains(*v) && (!best || r.width() < *best)) best = r.width();
    }
  }
  for (const auto& p : e.prefixes) {
    if (code.starts_with(p)) {
      // A longer prefix is narrower; map it below every numeric width.
      long long w = -static_cast<long long>(p.size());
      if (!best || w < *best) best = w;
    }
  }
  return best;
}

}  // namespace

std::string normalize_code(std::string_view code) {
  std::string s;
  for (char c : code) {
    if (!std::isspace(static_cast<unsigned char>(c))) s += c;
  }
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    std::string hex;
    std::size_t i = 2;
    while (i + 1 < s.size() && s[i] == '0') ++i;
    for (; i < s.size(); ++i) hex += static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])));
    return "0x" + hex;
  }
  bool all_digits = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
  if (all_digits) {
    std::size_t i = 0;
    while (i + 1 < s.size() && s[i] == '0') ++i;
    return s.substr(i);
  }
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

KnowledgeBase::KnowledgeBase(std::vector<Entry> entries, std::vector<Extractor> extractors,
                             std::string version, std::vector<KbSource> sources)
    : entries_(std::move(entries)),
      extractors_(std::move(extractors)),
      sources_(std::move(sources)),
      version_(std::move(version)) {
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    by_id_.emplace(entries_[i].id, i);
    for (const auto& c : entries_[i].codes) {
      by_code_.emplace(code_key(entries_[i].code_namespace, normalize_code(c)), i);
    }
    if (!entries_[i].ranges.empty() || !entries_[i].prefixes.empty()) {
      fallbacks_[entries_[i].code_namespace].push_back(i);
    }
    if (!entries_[i].name.empty() && !entries_[i].codes.empty()) by_name_.emplace(entries_[i].name, i);
  }
  for (auto& e : entries_) link_category_texts(e);
}

void KnowledgeBase::link_category_texts(Entry& e) const {
  // Entries without a cause or remedies of their own show their category's general texts
  // (kb/categories.yaml: "category.<name>"). The pointers stay valid: entries_ never grows.
  e.texts_from = nullptr;
  if (!e.cause.en.empty() && !e.remedies.empty()) return;
  auto it = by_id_.find(category_entry_id(e.category));
  if (it != by_id_.end() && entries_[it->second].id != e.id) e.texts_from = &entries_[it->second];
}

struct KnowledgeBase::DeferredTexts {
  std::vector<std::string_view> blocks;  // per entry; empty once decoded in place
  std::shared_ptr<const void> owner;     // keeps the blocks' bytes
  std::mutex mutex;
  std::map<std::size_t, std::unique_ptr<Entry>> decoded;  // entry index -> the entry with its texts
};

void KnowledgeBase::defer_texts(std::vector<std::string_view> blocks, std::shared_ptr<const void> owner) {
  if (blocks.size() != entries_.size()) return;
  deferred_ = std::make_shared<DeferredTexts>();
  deferred_->blocks = std::move(blocks);
  deferred_->owner = std::move(owner);
  // The categories' texts now: any entry, a catalogue one too, may show them.
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (!entries_[i].id.starts_with("category.")) continue;
    snapshot_io::read_entry_texts(deferred_->blocks[i], entries_[i]);
    deferred_->blocks[i] = {};
  }
  for (auto& e : entries_) link_category_texts(e);
}

const Entry& KnowledgeBase::with_texts(const Entry& e) const {
  if (!deferred_) return e;
  const std::less<const Entry*> before;
  if (entries_.empty() || before(&e, entries_.data()) || !before(&e, entries_.data() + entries_.size())) return e;
  const auto i = static_cast<std::size_t>(&e - entries_.data());
  if (deferred_->blocks[i].empty()) return e;
  const std::lock_guard lock(deferred_->mutex);
  std::unique_ptr<Entry>& full = deferred_->decoded[i];
  if (!full) {
    full = std::make_unique<Entry>(e);
    snapshot_io::read_entry_texts(deferred_->blocks[i], *full);  // a damaged block leaves what it read
    link_category_texts(*full);
  }
  return *full;
}

KnowledgeBase::Parts KnowledgeBase::release() && {
  // Files are layered over the entries given away: they get their texts first.
  if (deferred_) {
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (!deferred_->blocks[i].empty()) snapshot_io::read_entry_texts(deferred_->blocks[i], entries_[i]);
    }
    deferred_.reset();
  }
  matcher_image_ = {};
  matcher_image_owner_.reset();
  by_id_.clear();
  by_code_.clear();
  fallbacks_.clear();
  by_name_.clear();
  for (auto& e : entries_) e.texts_from = nullptr;
  return {std::move(entries_), std::move(extractors_), std::move(sources_), std::move(gate_), std::move(catalogue_)};
}

void KnowledgeBase::set_catalogue(std::shared_ptr<Catalogue> catalogue) {
  catalogue_ = std::move(catalogue);
  if (!catalogue_) return;
  std::array<const Entry*, 12> texts{};
  for (Category c : categories_in_priority_order()) texts[static_cast<std::size_t>(c)] = find_id(category_entry_id(c));
  catalogue_->set_category_texts(texts);
  // A decoded entry with a catalogue entry's id (a user's file) replaces it.
  for (const auto& e : entries_) {
    if (auto i = catalogue_->find(e.id)) catalogue_->disable(*i);
  }
}

std::size_t KnowledgeBase::entry_count() const {
  std::size_t n = entries_.size();
  if (catalogue_) {
    for (std::size_t i = 0; i < catalogue_->size(); ++i) n += catalogue_->disabled(i) ? 0u : 1u;
  }
  return n;
}

void KnowledgeBase::for_each_entry(const std::function<void(const Entry&)>& visit) const {
  for (const auto& e : entries_) visit(e);
  if (!catalogue_) return;
  for (std::size_t i = 0; i < catalogue_->size(); ++i) {
    if (!catalogue_->disabled(i)) visit(catalogue_->entry(i));
  }
}

std::string category_entry_id(Category c) { return "category." + std::string(to_string(c)); }

const Entry* KnowledgeBase::find_id(std::string_view id) const {
  auto it = by_id_.find(id);
  if (it != by_id_.end()) return &entries_[it->second];
  if (catalogue_) {
    if (auto i = catalogue_->find(id); i && !catalogue_->disabled(*i)) return &catalogue_->entry(*i);
  }
  return nullptr;
}

const Entry& KnowledgeBase::entry(EntryId id) const {
  const Entry* e = find_id(id.str());
  if (e == nullptr) throw MissingEntry(id);
  return *e;
}

std::optional<CodeResolution> KnowledgeBase::resolve_code(std::string_view ns, std::string_view code,
                                                          std::string_view component) const {
  if (ns == "name") {  // a symbolic name such as ACL_ERROR_RT_AICORE_EXCEPTION
    auto it = by_name_.find(code);
    if (it == by_name_.end()) return std::nullopt;
    return CodeResolution{&entries_[it->second], Specificity::exact_code};
  }
  const std::string norm = normalize_code(code);
  if (auto it = by_code_.find(code_key(ns, norm)); it != by_code_.end()) {
    return CodeResolution{&entries_[it->second], Specificity::exact_code};
  }
  const Entry* best = nullptr;
  bool best_component = false;
  long long best_width = 0;
  auto candidates = fallbacks_.find(ns);
  if (candidates == fallbacks_.end()) return std::nullopt;
  for (std::size_t index : candidates->second) {
    const Entry& e = entries_[index];
    auto width = fallback_width(e, norm);
    if (!width) continue;
    // A range that names the line's component is preferred to any other (it settles
    // codes whose meaning depends on who printed them); otherwise the narrowest wins.
    const bool comp_ok = component_matches(e, component);
    if (best == nullptr || (comp_ok && !best_component) ||
        (comp_ok == best_component && *width < best_width)) {
      best = &e;
      best_component = comp_ok;
      best_width = *width;
    }
  }
  if (best == nullptr) return std::nullopt;
  return CodeResolution{best, Specificity::code_family};
}

std::vector<CodeResolution> KnowledgeBase::lookup_code(std::string_view code) const {
  const std::string norm = normalize_code(code);
  std::vector<CodeResolution> exact;
  std::vector<std::pair<long long, const Entry*>> families;
  for (const auto& e : entries_) {
    bool hit = std::any_of(e.codes.begin(), e.codes.end(),
                           [&](const std::string& c) { return normalize_code(c) == norm; });
    if (hit) {
      exact.push_back({&e, Specificity::exact_code});
    } else if (auto w = fallback_width(e, norm)) {
      families.emplace_back(*w, &e);
    }
  }
  std::stable_sort(families.begin(), families.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [w, e] : families) exact.push_back({e, Specificity::code_family});
  return exact;
}

}  // namespace npu_doctor
