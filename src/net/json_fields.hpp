#pragma once
// Fields of JSON that another host sent. A missing field, or one of another type, gives the
// default: nlohmann's value() throws on a type mismatch, and no peer may crash a server
// thread or turn a tester's report into an internal error.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace npu_doctor::net {

inline const nlohmann::json* json_field(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  const auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

// Integers only (a fraction or a string is not a count of anything).
inline long long int_field(const nlohmann::json& j, const char* key, long long fallback) {
  const nlohmann::json* v = json_field(j, key);
  if (v == nullptr || !v->is_number_integer()) return fallback;
  if (v->is_number_unsigned() && v->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) return INT64_MAX;
  return v->get<long long>();
}

inline uint64_t uint_field(const nlohmann::json& j, const char* key, uint64_t fallback) {
  const nlohmann::json* v = json_field(j, key);
  return v != nullptr && v->is_number_unsigned() ? v->get<uint64_t>() : fallback;
}

inline double number_field(const nlohmann::json& j, const char* key, double fallback) {
  const nlohmann::json* v = json_field(j, key);
  return v != nullptr && v->is_number() ? v->get<double>() : fallback;
}

inline bool bool_field(const nlohmann::json& j, const char* key, bool fallback) {
  const nlohmann::json* v = json_field(j, key);
  return v != nullptr && v->is_boolean() ? v->get<bool>() : fallback;
}

inline std::string string_field(const nlohmann::json& j, const char* key) {
  const nlohmann::json* v = json_field(j, key);
  return v != nullptr && v->is_string() ? v->get<std::string>() : std::string();
}

}  // namespace npu_doctor::net
