#include "mem_sample.hpp"

#include <cmath>
#include <cstdint>

#include <nlohmann/json.hpp>

namespace npu_doctor::mem {
namespace {

using json = nlohmann::json;

// A non-negative whole number of bytes; integers or floats ("4.1e10").
bool to_bytes(const json& v, uint64_t& out) {
  if (v.is_number_unsigned()) {
    out = v.get<uint64_t>();
    return true;
  }
  if (v.is_number_integer()) {
    const auto i = v.get<int64_t>();
    if (i < 0) return false;
    out = static_cast<uint64_t>(i);
    return true;
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (!std::isfinite(d) || d < 0 || d >= 18446744073709551615.0) return false;
    out = static_cast<uint64_t>(std::round(d));
    return true;
  }
  return false;
}

bool to_int64(const json& v, int64_t& out) {
  if (v.is_number_integer() && !v.is_number_unsigned()) {
    out = v.get<int64_t>();
    return true;
  }
  if (v.is_number_unsigned()) {
    const auto u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(INT64_MAX)) return false;
    out = static_cast<int64_t>(u);
    return true;
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9.0e15) return false;
    out = static_cast<int64_t>(d);
    return true;
  }
  return false;
}

// An optional byte field: absent or null is fine, anything else must be bytes.
bool optional_bytes(const json& j, const char* key, std::optional<uint64_t>& out, std::string& why) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return true;
  uint64_t v = 0;
  if (!to_bytes(*it, v)) {
    why = std::string("\"") + key + "\" is not a non-negative number of bytes";
    return false;
  }
  out = v;
  return true;
}

}  // namespace

LineKind parse_sample_line(std::string_view line, MemSample& out, std::string& why) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
  if (line.empty()) return LineKind::blank;
  if (line.front() != '{') return LineKind::other;
  if (line.size() > kMaxSampleLine) {
    why = "line longer than " + std::to_string(kMaxSampleLine) + " bytes";
    return LineKind::invalid;
  }
  const json j = json::parse(line.begin(), line.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    why = "not a JSON object";
    return LineKind::invalid;
  }
  MemSample s;
  const auto step = j.find("step");
  if (step == j.end()) {
    why = "no \"step\"";
    return LineKind::invalid;
  }
  if (!to_int64(*step, s.step)) {
    why = "\"step\" is not an integer";
    return LineKind::invalid;
  }
  const auto alloc = j.find("allocated");
  if (alloc == j.end()) {
    why = "no \"allocated\"";
    return LineKind::invalid;
  }
  if (!to_bytes(*alloc, s.allocated)) {
    why = "\"allocated\" is not a non-negative number of bytes";
    return LineKind::invalid;
  }
  if (!optional_bytes(j, "reserved", s.reserved, why) || !optional_bytes(j, "max_allocated", s.max_allocated, why) ||
      !optional_bytes(j, "capacity", s.capacity, why)) {
    return LineKind::invalid;
  }
  if (const auto dev = j.find("device"); dev != j.end() && !dev->is_null()) {
    int64_t d = 0;
    if (!to_int64(*dev, d) || d < 0 || d > 1000000) {
      why = "\"device\" is not a device number";
      return LineKind::invalid;
    }
    s.device = static_cast<int>(d);
  }
  if (const auto t = j.find("time"); t != j.end() && !t->is_null()) {
    if (!t->is_number() || !std::isfinite(t->get<double>())) {
      why = "\"time\" is not a number";
      return LineKind::invalid;
    }
    s.time = t->get<double>();
  }
  if (const auto p = j.find("phase"); p != j.end() && p->is_string()) {
    s.inference = p->get<std::string>() == "inference";
  }
  s.input = out.input;
  s.line = out.line;
  out = s;
  return LineKind::sample;
}

}  // namespace npu_doctor::mem
