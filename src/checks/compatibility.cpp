#include "checks/compatibility.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>

#include "core/text_util.hpp"

namespace npu_doctor::checks {
namespace {

constexpr std::string_view kSchema = "npu-doctor/compatibility/v1";

int line_of(const YAML::Node& n) { return n.IsDefined() ? n.Mark().line + 1 : 0; }

// Reads one table's rows; each row problem is reported and the row left out.
class RowReader {
 public:
  RowReader(const YAML::Node& row, std::vector<TableProblem>& problems, const std::set<std::string>& sources)
      : row_(row), problems_(problems), sources_(sources) {}

  bool ok() const { return ok_; }

  void allow_only(std::initializer_list<std::string_view> keys) {
    for (const auto& kv : row_) {
      const auto key = kv.first.as<std::string>();
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) fail(kv.first, "unknown key '" + key + "'");
    }
  }

  std::string text(const char* key, bool required = true) {
    const YAML::Node n = row_[key];
    if (!n.IsDefined()) {
      if (required) fail(row_, std::string("missing '") + key + "'");
      return {};
    }
    if (!n.IsScalar()) {
      fail(n, std::string("'") + key + "' must be a string");
      return {};
    }
    return n.as<std::string>();
  }

  std::optional<Version> version(const char* key) {
    const std::string t = text(key);
    auto v = Version::parse(t);
    if (!v && ok_) fail(row_[key], std::string("'") + key + "' is not a version: '" + t + "'");
    return v;
  }

  std::vector<std::string> list(const char* key) {
    const YAML::Node n = row_[key];
    std::vector<std::string> out;
    if (!n.IsDefined() || !n.IsSequence() || n.size() == 0) {
      fail(n.IsDefined() ? n : row_, std::string("'") + key + "' must be a non-empty list");
      return out;
    }
    for (const auto& item : n) {
      if (!item.IsScalar()) {
        fail(item, std::string("items of '") + key + "' must be strings");
        continue;
      }
      out.push_back(item.as<std::string>());
    }
    return out;
  }

  std::string source() {
    const std::string s = text("source");
    if (ok_ && sources_.count(s) == 0) fail(row_["source"], "source '" + s + "' is not a key of 'sources'");
    return s;
  }

  void fail(const YAML::Node& at, const std::string& message) {
    problems_.push_back({line_of(at), message});
    ok_ = false;
  }

 private:
  const YAML::Node& row_;
  std::vector<TableProblem>& problems_;
  const std::set<std::string>& sources_;
  bool ok_ = true;
};

}  // namespace

std::string without_build_suffix(std::string_view version) {
  std::string v(trim(version));
  if (const auto plus = v.find('+'); plus != std::string::npos) v.resize(plus);
  const std::string lower = to_lower(v);
  if (const auto dev = lower.find(".dev"); dev != std::string::npos) v.resize(dev);
  return v;
}

CompatibilityTable CompatibilityTable::parse(std::string_view yaml, std::vector<TableProblem>& problems) {
  CompatibilityTable t;
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    problems.push_back({e.mark.line + 1, std::string("not valid YAML: ") + e.msg});
    return t;
  }
  if (!root.IsMap()) {
    problems.push_back({1, "the file must be a mapping"});
    return t;
  }
  try {
    for (const auto& kv : root) {
      const auto key = kv.first.as<std::string>();
      if (key != "schema" && key != "sources" && key != "driver_firmware" && key != "cann_driver" && key != "torch_npu") {
        problems.push_back({line_of(kv.first), "unknown key '" + key + "'"});
      }
    }
    if (!root["schema"].IsDefined() || root["schema"].as<std::string>() != kSchema) {
      problems.push_back({line_of(root["schema"]), "schema must be " + std::string(kSchema)});
    }
    std::set<std::string> source_keys;
    if (root["sources"].IsMap()) {
      for (const auto& kv : root["sources"]) {
        const auto key = kv.first.as<std::string>();
        source_keys.insert(key);
        t.sources_.emplace_back(key, kv.second.IsScalar() ? kv.second.as<std::string>() : "");
      }
    } else {
      problems.push_back({line_of(root), "missing 'sources' (a mapping of key: description)"});
    }
    auto rows = [&](const char* name) {
      const YAML::Node n = root[name];
      if (!n.IsSequence()) {
        problems.push_back({line_of(n.IsDefined() ? n : root), std::string("'") + name + "' must be a list of rows"});
        return YAML::Node(YAML::NodeType::Sequence);
      }
      return n;
    };
    for (const auto& row : rows("driver_firmware")) {
      RowReader r(row, problems, source_keys);
      r.allow_only({"driver", "firmware", "cann", "verified", "source"});
      DriverFirmwareRow x;
      x.line = line_of(row);
      const std::string driver = r.text("driver");
      if (auto s = VersionSpec::parse(driver)) x.driver = *s;
      else if (r.ok()) r.fail(row["driver"], "'driver' is not a version spec: '" + driver + "'");
      for (const auto& f : r.list("firmware")) {
        if (auto s = VersionSpec::parse(f)) x.firmware.push_back(*s);
        else r.fail(row["firmware"], "not a version spec: '" + f + "'");
      }
      x.cann = r.text("cann", false);
      if (row["verified"].IsDefined()) x.verified = row["verified"].as<bool>(true);
      x.source = r.source();
      if (r.ok()) t.driver_firmware_.push_back(std::move(x));
    }
    for (const auto& row : rows("cann_driver")) {
      RowReader r(row, problems, source_keys);
      r.allow_only({"cann", "driver", "source"});
      auto cann = r.version("cann");
      auto driver = r.version("driver");
      const std::string source = r.source();
      if (r.ok() && cann && driver) t.cann_driver_.push_back({*cann, *driver, source, line_of(row)});
    }
    for (const auto& row : rows("torch_npu")) {
      RowReader r(row, problems, source_keys);
      r.allow_only({"torch_npu", "pytorch", "cann", "source"});
      auto npu = r.version("torch_npu");
      auto torch = r.version("pytorch");
      std::vector<Version> canns;
      for (const auto& c : r.list("cann")) {
        if (auto v = Version::parse(c)) canns.push_back(*v);
        else r.fail(row["cann"], "not a version: '" + c + "'");
      }
      const std::string source = r.source();
      if (r.ok() && npu && torch) t.torch_npu_.push_back({*npu, *torch, canns, source, line_of(row)});
    }
  } catch (const YAML::Exception& e) {
    problems.push_back({e.mark.line + 1, std::string("malformed table: ") + e.msg});
  }
  std::sort(t.cann_driver_.begin(), t.cann_driver_.end(),
            [](const CannDriverRow& a, const CannDriverRow& b) { return a.cann < b.cann; });
  for (std::size_t i = 1; i < t.cann_driver_.size(); ++i) {
    if (t.cann_driver_[i].driver < t.cann_driver_[i - 1].driver) {
      problems.push_back({t.cann_driver_[i].line, "cann_driver rows must need non-decreasing drivers as CANN grows"});
    }
  }
  return t;
}

const CompatibilityTable& CompatibilityTable::builtin() {
  static const CompatibilityTable table = [] {
    std::vector<TableProblem> problems;  // the build's test suite keeps the shipped table clean
    for (const auto& f : embedded_check_data()) {
      if (f.name == "compatibility.yaml") return parse(f.content, problems);
    }
    return CompatibilityTable{};
  }();
  return table;
}

DriverFirmwareAnswer CompatibilityTable::driver_firmware(const Version& driver, const Version& firmware) const {
  DriverFirmwareAnswer a;
  for (const auto& row : driver_firmware_) {
    if (row.driver.matches(driver)) a.rows.push_back(&row);
  }
  if (a.rows.empty()) return a;
  std::vector<std::string> expected;
  for (const auto* row : a.rows) {
    for (const auto& spec : row->firmware) {
      expected.push_back(spec.text() + (row->verified ? "" : " (unverified)"));
      if (spec.matches(firmware)) {
        a.verdict = Verdict::compatible;
        a.verified = row->verified;
        a.rows = {row};
        a.expected = spec.text();
        return a;
      }
    }
  }
  a.verdict = Verdict::incompatible;
  a.verified = std::any_of(a.rows.begin(), a.rows.end(), [](const DriverFirmwareRow* r) { return r->verified; });
  a.expected = join(expected, " or ");
  return a;
}

CannDriverAnswer CompatibilityTable::cann_driver(const Version& cann) const {
  CannDriverAnswer a;
  for (const auto& row : cann_driver_) {  // sorted by CANN version
    if (row.cann <= cann) {
      a.row = &row;
      a.exact = row.cann == cann;
    }
  }
  return a;
}

const TorchNpuRow* CompatibilityTable::torch_npu(const Version& torch_npu) const {
  const auto release = Version::parse(without_build_suffix(torch_npu.text()));
  if (!release) return nullptr;
  for (const auto& row : torch_npu_) {
    if (row.torch_npu == *release) return &row;
  }
  return nullptr;
}

std::string CompatibilityTable::source_text(const std::string& key) const {
  for (const auto& [k, v] : sources_) {
    if (k == key) return v;
  }
  return key;
}

}  // namespace npu_doctor::checks
