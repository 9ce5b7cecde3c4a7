#pragma once
// Vectorscan/Hyperscan block-mode database over many patterns at once: one pass over
// a buffer reports (pattern index, end offset) for every match of every pattern.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct hs_database;
struct hs_scratch;

namespace npu_doctor {

class PatternSet {
 public:
  struct Spec {
    std::string regex;
    bool ignore_case = false;
  };
  struct CompileError {
    std::size_t index = 0;  // which pattern failed (or npos for a global failure)
    std::string message;
  };

  // Per-thread working memory for scan().
  class Scratch {
   public:
    Scratch() = default;
    Scratch(Scratch&&) noexcept;
    Scratch& operator=(Scratch&&) noexcept;
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
    ~Scratch();

   private:
    friend class PatternSet;
    hs_scratch* scratch_ = nullptr;
  };

  using OnMatch = std::function<void(std::size_t pattern, std::size_t end)>;

  PatternSet() = default;
  // Compiles all specs; on failure returns the index of the first bad pattern.
  // With a `cache_dir`, a database compiled earlier for the same patterns, engine
  // version and CPU is loaded from there in milliseconds instead (compiling a full
  // knowledge base takes a few hundred), and a new one is stored for next time.
  static std::optional<PatternSet> compile(const std::vector<Spec>& specs, CompileError& error,
                                           const std::string& cache_dir = {});
  bool loaded_from_cache() const { return from_cache_; }

  std::size_t size() const { return size_; }
  Scratch make_scratch() const;
  // Reports every match in `data`. Returns false (with `error`) if the engine failed.
  bool scan(std::string_view data, Scratch& scratch, const OnMatch& on_match, std::string& error) const;

 private:
  std::shared_ptr<hs_database> db_;
  std::size_t size_ = 0;
  bool from_cache_ = false;
};

}  // namespace npu_doctor
