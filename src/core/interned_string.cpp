#include "npu_doctor/interned_string.hpp"

#include <mutex>
#include <unordered_set>

namespace npu_doctor {

namespace {

// Node-based: an element's address never changes, so the pointers stay valid.
struct Pool {
  std::mutex mutex;
  std::unordered_set<std::string> texts;
};

Pool& pool() {
  static Pool* p = new Pool;  // never destroyed: interned strings may be used until exit
  return *p;
}

}  // namespace

InternedString::InternedString(std::string_view s) {
  if (s.empty()) return;
  Pool& p = pool();
  std::lock_guard lock(p.mutex);
  text_ = &*p.texts.emplace(s).first;
}

const std::string& InternedString::empty_text() {
  static const std::string empty;
  return empty;
}

}  // namespace npu_doctor
