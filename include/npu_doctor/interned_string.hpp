#pragma once
// A string kept once per process and referred to by one pointer (8 bytes; empty costs
// nothing): for the words an input's report repeats across many inputs (its kind, "file";
// its host), which cost 32 bytes each as a std::string. Interned texts live until the
// process ends, so use it only for values with few distinct texts.
#include <ostream>
#include <string>
#include <string_view>

namespace npu_doctor {

class InternedString {
 public:
  InternedString() = default;
  InternedString(std::string_view s);  // NOLINT: assigned and compared like a string
  InternedString(const std::string& s) : InternedString(std::string_view(s)) {}  // NOLINT
  InternedString(const char* s) : InternedString(std::string_view(s)) {}         // NOLINT

  const std::string& str() const { return text_ != nullptr ? *text_ : empty_text(); }
  operator const std::string&() const { return str(); }  // NOLINT
  operator std::string_view() const { return str(); }    // NOLINT
  bool empty() const { return text_ == nullptr; }
  std::size_t size() const { return str().size(); }
  const char* c_str() const { return str().c_str(); }

  // Interned: equal texts share one pointer.
  friend bool operator==(const InternedString& a, const InternedString& b) { return a.text_ == b.text_; }
  friend bool operator==(const InternedString& a, std::string_view b) { return std::string_view(a.str()) == b; }
  friend bool operator==(const InternedString& a, const char* b) { return std::string_view(a.str()) == b; }
  friend bool operator==(const InternedString& a, const std::string& b) { return a.str() == b; }
  friend std::ostream& operator<<(std::ostream& out, const InternedString& s) { return out << s.str(); }

 private:
  static const std::string& empty_text();
  const std::string* text_ = nullptr;  // null: empty
};

}  // namespace npu_doctor
