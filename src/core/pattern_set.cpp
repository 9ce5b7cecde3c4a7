#include "pattern_set.hpp"

#include <hs/hs.h>

namespace npu_doctor {

PatternSet::Scratch::Scratch(Scratch&& o) noexcept : scratch_(o.scratch_) { o.scratch_ = nullptr; }
PatternSet::Scratch& PatternSet::Scratch::operator=(Scratch&& o) noexcept {
  if (this != &o) {
    if (scratch_ != nullptr) hs_free_scratch(scratch_);
    scratch_ = o.scratch_;
    o.scratch_ = nullptr;
  }
  return *this;
}
PatternSet::Scratch::~Scratch() {
  if (scratch_ != nullptr) hs_free_scratch(scratch_);
}

std::optional<PatternSet> PatternSet::compile(const std::vector<Spec>& specs, CompileError& error) {
  PatternSet set;
  set.size_ = specs.size();
  if (specs.empty()) return set;
  std::vector<const char*> exprs;
  std::vector<unsigned> flags;
  std::vector<unsigned> ids;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    exprs.push_back(specs[i].regex.c_str());
    // MULTILINE: ^ and $ work per line although a whole block is scanned at once.
    flags.push_back(HS_FLAG_MULTILINE | (specs[i].ignore_case ? HS_FLAG_CASELESS : 0u));
    ids.push_back(static_cast<unsigned>(i));
  }
  hs_database_t* db = nullptr;
  hs_compile_error_t* err = nullptr;
  if (hs_compile_multi(exprs.data(), flags.data(), ids.data(), static_cast<unsigned>(exprs.size()),
                       HS_MODE_BLOCK, nullptr, &db, &err) != HS_SUCCESS) {
    error.index = err->expression >= 0 ? static_cast<std::size_t>(err->expression) : std::string::npos;
    error.message = err->message;
    hs_free_compile_error(err);
    return std::nullopt;
  }
  set.db_ = std::shared_ptr<hs_database>(db, [](hs_database* d) { hs_free_database(d); });
  return set;
}

PatternSet::Scratch PatternSet::make_scratch() const {
  Scratch s;
  if (db_) hs_alloc_scratch(db_.get(), &s.scratch_);
  return s;
}

namespace {
int on_hs_match(unsigned id, unsigned long long /*from*/, unsigned long long to, unsigned /*flags*/,
                void* ctx) {
  (*static_cast<const PatternSet::OnMatch*>(ctx))(id, static_cast<std::size_t>(to));
  return 0;
}
}  // namespace

bool PatternSet::scan(std::string_view data, Scratch& scratch, const OnMatch& on_match,
                      std::string& error) const {
  if (!db_ || data.empty()) return true;
  if (scratch.scratch_ == nullptr) scratch = make_scratch();
  // hs_scan takes an unsigned length; the scanner passes blocks of a few MiB.
  const hs_error_t rc = hs_scan(db_.get(), data.data(), static_cast<unsigned>(data.size()), 0,
                                scratch.scratch_, on_hs_match, const_cast<OnMatch*>(&on_match));
  if (rc != HS_SUCCESS) {
    error = "pattern engine failed (hs_scan error " + std::to_string(rc) + ")";
    return false;
  }
  return true;
}

}  // namespace npu_doctor
