#include "pattern_set.hpp"

#include <hs/hs.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <cstdlib>
#include <fstream>

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

namespace {

unsigned flags_of(const PatternSet::Spec& spec) {
  // MULTILINE: ^ and $ work per line although a whole block is scanned at once.
  return HS_FLAG_MULTILINE | (spec.ignore_case ? HS_FLAG_CASELESS : 0u);
}

std::shared_ptr<hs_database> own(hs_database_t* db) {
  return std::shared_ptr<hs_database>(db, [](hs_database* d) { hs_free_database(d); });
}

// The cache file name: a hash of the patterns, their flags, the engine and the CPU.
std::string cache_file(const std::vector<PatternSet::Spec>& specs, const std::string& dir) {
  uint64_t h = 1469598103934665603ULL;
  auto mix = [&](std::string_view s) {
    for (char c : s) {
      h ^= static_cast<unsigned char>(c);
      h *= 1099511628211ULL;
    }
  };
  for (const auto& s : specs) {
    mix(s.regex);
    mix(std::to_string(flags_of(s)));
    mix("\n");
  }
  mix(hs_version());
  hs_platform_info_t platform{};
  if (hs_populate_platform(&platform) == HS_SUCCESS) {
    mix(std::to_string(platform.tune) + "/" + std::to_string(platform.cpu_features));
  }
  char name[40];
  std::snprintf(name, sizeof name, "hs-%016llx.db", static_cast<unsigned long long>(h));
  return dir + "/" + name;
}

std::shared_ptr<hs_database> load_cached(const std::string& path) {
  // Read straight into a buffer of the file's size: a stream copy regrows and copies it
  // twice, page faults that were a tenth of start-up.
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return nullptr;
  const std::streamoff size = in.tellg();
  if (size <= 0) return nullptr;
  std::string bytes(static_cast<std::size_t>(size), '\0');
  in.seekg(0);
  if (!in.read(bytes.data(), size)) return nullptr;
  hs_database_t* db = nullptr;
  if (hs_deserialize_database(bytes.data(), bytes.size(), &db) != HS_SUCCESS) return nullptr;
  auto owned = own(db);
  // A database for another CPU fails here; then it is compiled again.
  hs_scratch_t* scratch = nullptr;
  if (hs_alloc_scratch(db, &scratch) != HS_SUCCESS) return nullptr;
  hs_free_scratch(scratch);
  return owned;
}

void store_cached(const std::string& dir, const std::string& path, hs_database_t* db) {
  char* bytes = nullptr;
  std::size_t length = 0;
  if (hs_serialize_database(db, &bytes, &length) != HS_SUCCESS) return;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);  // failure only means no cache
  ::chmod(dir.c_str(), 0700);
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes, static_cast<std::streamsize>(length));
    if (!out) std::remove(tmp.c_str());
  }
  std::free(bytes);
  std::rename(tmp.c_str(), path.c_str());
}

}  // namespace

std::optional<PatternSet> PatternSet::compile(const std::vector<Spec>& specs, CompileError& error,
                                              const std::string& cache_dir) {
  PatternSet set;
  set.size_ = specs.size();
  if (specs.empty()) return set;
  const std::string cached = cache_dir.empty() ? std::string() : cache_file(specs, cache_dir);
  if (!cached.empty()) {
    if (auto db = load_cached(cached)) {
      set.db_ = std::move(db);
      set.from_cache_ = true;
      return set;
    }
  }
  std::vector<const char*> exprs;
  std::vector<unsigned> flags;
  std::vector<unsigned> ids;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    exprs.push_back(specs[i].regex.c_str());
    flags.push_back(flags_of(specs[i]));
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
  set.db_ = own(db);
  if (!cached.empty()) store_cached(cache_dir, cached, db);
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
