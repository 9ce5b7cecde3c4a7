#pragma once
// The id of a knowledge-base entry that code raises by name (a check's finding, an
// analysis's verdict). The constants live in the generated header npu_doctor/kb_ids.hpp,
// one per entry of kb/*.yaml, so an id the knowledge base does not have is a compile error
// rather than a finding silently lost at run time (docs/kb-authoring.md, "Raised by id").
#include <compare>
#include <string>
#include <string_view>

namespace npu_doctor {

class EntryId {
 public:
  // Explicit: code names entries through kb_id::..., tests through their own test bases.
  constexpr explicit EntryId(std::string_view id) : id_(id) {}
  constexpr std::string_view str() const { return id_; }
  std::string string() const { return std::string(id_); }
  constexpr bool operator==(const EntryId&) const = default;
  friend constexpr bool operator==(const EntryId& a, std::string_view b) { return a.id_ == b; }

 private:
  std::string_view id_;
};

}  // namespace npu_doctor
