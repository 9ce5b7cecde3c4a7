#pragma once
// The user's file of expected errors (diagnose --expected FILE, docs/expected-errors.md):
// messages their systems print although nothing is wrong (npu-smi's "dcmi module initialize
// failed" on a board whose vendor says so, a probe a tool always makes). No log line says
// that, so the user does: a finding the file names is shown with the user's reason and is
// never the root cause.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/regex.hpp"
#include "npu_doctor/finding.hpp"

namespace YAML {
class Node;
}

namespace npu_doctor {

struct ExpectedError {
  std::string rule;           // a glob over rule ids ("device.dcmi-*"); empty: any rule
  std::optional<Regex> line;  // searched in every kept evidence line; nullopt: any line
  Expectation expectation;    // the reason and where it was declared
};

class ExpectedErrors {
 public:
  // Reads one file (YAML, schema npu-doctor/expected/v1) and adds its declarations. On a
  // problem returns false and sets `error` to "FILE:LINE: what"; nothing of the file is kept.
  bool load(const std::string& path, std::string& error);

  bool empty() const { return items_.empty(); }
  // The first declaration that names `f`: its rule id (or the one it was read from) fits
  // the glob, and its line regex finds every kept occurrence.
  const ExpectedError* match(const Finding& f) const;
  // Marks every finding a declaration names.
  void mark(std::vector<Finding>& findings) const;

 private:
  bool parse(const YAML::Node& root, const std::string& path, std::string& error);

  std::vector<ExpectedError> items_;
};

// Reads the files of --expected, in order. No files: null. A problem: null and `error`
// says where and what.
std::shared_ptr<const ExpectedErrors> load_expected_errors(const std::vector<std::string>& paths, std::string& error);

}  // namespace npu_doctor
