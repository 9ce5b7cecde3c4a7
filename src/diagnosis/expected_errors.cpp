#include "expected_errors.hpp"

#include <fnmatch.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "npu_doctor/knowledge_base.hpp"

namespace npu_doctor {
namespace {

constexpr std::string_view kSchema = "npu-doctor/expected/v1";

std::string at(const std::string& path, const YAML::Node& n) {
  return path + ":" + std::to_string(n.Mark().line + 1) + ": ";
}

bool rule_fits(const std::string& glob, const Entry* e) {
  return e != nullptr && fnmatch(glob.c_str(), e->id.c_str(), 0) == 0;
}

// The file's text, or nullopt with `error` set: a regular file of at most kMaxBytes (a FIFO
// or /dev/zero must not hold the command up).
std::optional<std::string> read_small_file(const std::string& path, std::string& error) {
  constexpr std::uintmax_t kMaxBytes = 1u << 20;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    error = path + (std::filesystem::exists(path, ec) ? ": not a regular file" : ": cannot read the file");
    return std::nullopt;
  }
  if (std::filesystem::file_size(path, ec) > kMaxBytes) {
    error = path + ": larger than 1 MiB: not a file of expected errors";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    error = path + ": cannot read the file";
    return std::nullopt;
  }
  return text.str();
}

}  // namespace

bool ExpectedErrors::load(const std::string& path, std::string& error) {
  const auto text = read_small_file(path, error);
  if (!text) return false;
  try {
    return parse(YAML::Load(*text), path, error);
  } catch (const YAML::Exception& e) {
    error = path + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML: " + e.msg;
    return false;
  }
}

bool ExpectedErrors::parse(const YAML::Node& root, const std::string& path, std::string& error) {
  if (!root.IsMap() || !root["schema"] || !root["schema"].IsScalar() || root["schema"].as<std::string>() != kSchema) {
    error = path + ": not a file of expected errors: it must say 'schema: " + std::string(kSchema) + "'";
    return false;
  }
  for (const auto& kv : root) {
    const std::string key = kv.first.as<std::string>();
    if (key != "schema" && key != "expected") {
      error = at(path, kv.first) + "unknown key '" + key + "' (the file has 'schema' and 'expected')";
      return false;
    }
  }
  const YAML::Node list = root["expected"];
  if (!list || !list.IsSequence()) {
    error = path + ": 'expected' must be a list of declarations (rule, line, reason)";
    return false;
  }
  std::vector<ExpectedError> read;
  for (const auto& item : list) {
    if (!item.IsMap()) {
      error = at(path, item) + "a declaration is a map with 'reason' and 'rule' or 'line'";
      return false;
    }
    ExpectedError x;
    for (const auto& kv : item) {
      const std::string key = kv.first.as<std::string>();
      constexpr std::array<std::string_view, 3> kKeys{"rule", "line", "reason"};
      if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end()) {
        error = at(path, kv.first) + "unknown key '" + key + "' (a declaration has rule, line and reason)";
        return false;
      }
      if (!kv.second.IsScalar() || kv.second.as<std::string>().empty()) {
        error = at(path, kv.second) + "'" + key + "' must be a non-empty string";
        return false;
      }
      const std::string value = kv.second.as<std::string>();
      if (key == "rule") x.rule = value;
      if (key == "reason") x.expectation.reason = value;
      if (key == "line") {
        std::string why;
        x.line = Regex::compile(value, false, why, Regex::Jit::off);
        if (!x.line) {
          error = at(path, kv.second) + "'line' is not a valid regular expression (PCRE2): " + why;
          return false;
        }
      }
    }
    if (x.expectation.reason.empty()) {
      error = at(path, item) + "a declaration needs a 'reason': the report shows it in place of the error";
      return false;
    }
    if (x.rule.empty() && !x.line) {
      error = at(path, item) + "a declaration needs a 'rule' (an id or glob) or a 'line' (a regex), or both";
      return false;
    }
    x.expectation.source = path + ":" + std::to_string(item.Mark().line + 1);
    read.push_back(std::move(x));
  }
  for (auto& x : read) items_.push_back(std::move(x));
  return true;
}

const ExpectedError* ExpectedErrors::match(const Finding& f) const {
  for (const auto& x : items_) {
    if (!x.rule.empty() && !rule_fits(x.rule, f.entry) && !rule_fits(x.rule, f.read_from)) continue;
    if (x.line) {
      // Every occurrence kept must fit; those not kept are the same entry's message.
      const bool all = !f.evidence.empty() && std::all_of(f.evidence.begin(), f.evidence.end(), [&](const Evidence& ev) {
        return x.line->search(ev.text).has_value();
      });
      if (!all) continue;
    }
    return &x;
  }
  return nullptr;
}

void ExpectedErrors::mark(std::vector<Finding>& findings) const {
  for (auto& f : findings) {
    if (const ExpectedError* x = match(f)) f.expected = x->expectation;
  }
}

std::shared_ptr<const ExpectedErrors> load_expected_errors(const std::vector<std::string>& paths, std::string& error) {
  error.clear();
  if (paths.empty()) return nullptr;
  auto expected = std::make_shared<ExpectedErrors>();
  for (const auto& path : paths) {
    if (!expected->load(path, error)) return nullptr;
  }
  return expected;
}

}  // namespace npu_doctor
