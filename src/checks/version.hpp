#pragma once
// Ascend and Python version strings, compared the way their release series are ordered:
// "23.0.rc3" < "23.0.0" < "23.0.5" (RCs come before the release), "8.0.RC2" == "8.0.rc2",
// "2.1.0" < "2.1.0.post8", "2.1.0.dev1" < "2.1.0". Also the version specs used by the
// compatibility table and by the version files' own compatibility fields: exact
// ("24.1.rc2"), prefix ("23.0.*") and ranges ("[7.0.0,7.2.99]"; an upper bound ending in
// "." such as "23.0.rc3." means "23.0.rc3 and its sub-versions").
#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npu_doctor::checks {

class Version {
 public:
  // nullopt for an empty string or one without any digit.
  static std::optional<Version> parse(std::string_view text);

  const std::string& text() const { return text_; }
  std::strong_ordering operator<=>(const Version& other) const;
  bool operator==(const Version& other) const { return (*this <=> other) == 0; }

  // True when the first components equal `prefix`'s ("23.0" is a prefix of "23.0.rc3").
  bool has_prefix(const Version& prefix) const;
  // The numeric release part: "2.1.0.post8.dev2024" -> "2.1.0", "8.0.RC2" -> "8.0".
  std::string release() const;

  struct Part {
    int kind = 0;  // ordering class: see version.cpp
    long long number = 0;
    std::string word;
  };

 private:
  std::string text_;
  std::vector<Part> parts_;
};

// One accepted version or set of versions.
class VersionSpec {
 public:
  // "24.1.rc2", "23.0.*", "[7.0.0,7.2.99]", "[23.0.rc3,23.0.rc3.]". nullopt when malformed.
  static std::optional<VersionSpec> parse(std::string_view text);
  bool matches(const Version& v) const;
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::optional<Version> exact_or_prefix_;
  bool prefix_ = false;
  std::optional<Version> lo_, hi_;
  bool hi_open_prefix_ = false;  // "x." upper bound: x and everything under x
};

// The bracket lists of version files: "[7.0.0,7.2.99]" or "[a,b],[c,d]" or
// "[V100R001C30],[V100R001C13]": each bracket's comma-separated items.
std::vector<std::vector<std::string>> parse_bracket_list(std::string_view text);

// The ranges of a bracket list ("[a,b],[c,d]"), each as a VersionSpec; nullopt when any
// bracket is not a two-item range of versions.
std::optional<std::vector<VersionSpec>> parse_version_ranges(std::string_view text);

}  // namespace npu_doctor::checks
