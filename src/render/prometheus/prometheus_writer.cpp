#include "render/prometheus/prometheus_writer.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "npu_doctor/text.hpp"

namespace npu_doctor::prometheus {
namespace {

bool name_char(char c, bool first, bool colon) {
  const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon && c == ':');
  return alpha || (!first && c >= '0' && c <= '9');
}

bool valid_name(std::string_view name, bool colon) {
  if (name.empty()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (!name_char(name[i], i == 0, colon)) return false;
  }
  return true;
}

}  // namespace

bool valid_metric_name(std::string_view name) { return valid_name(name, true); }

bool valid_label_name(std::string_view name) { return valid_name(name, false) && !name.starts_with("__"); }

std::string escape_label_value(std::string_view value) {
  // sanitize_line makes the bytes valid UTF-8 and drops control characters; newlines are
  // escaped first so that they survive it.
  std::string out;
  for (std::string_view rest = value;;) {
    const auto nl = rest.find('\n');
    for (char c : sanitize_line(rest.substr(0, nl))) {
      if (c == '\\') out += "\\\\";
      else if (c == '"') out += "\\\"";
      else out += c;
    }
    if (nl == std::string_view::npos) break;
    out += "\\n";
    rest.remove_prefix(nl + 1);
  }
  return out;
}

std::string escape_help(std::string_view help) {
  std::string out;
  for (char c : help) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string format_value(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  if (value == std::trunc(value) && std::fabs(value) < 9.007199254740992e15) {
    return std::to_string(static_cast<long long>(value));
  }
  // The shortest form that reads back as the same double (1796073027.038, not ...0380001).
  char buf[32];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, value);
    if (std::strtod(buf, nullptr) == value) break;
  }
  return buf;
}

bool Writer::family(std::string_view name, MetricType type, std::string_view help) {
  header_.clear();
  current_ok_ = valid_metric_name(name) && families_.insert(std::string(name)).second;
  if (!current_ok_) return false;
  current_ = name;
  // Written with the first sample: a family without samples is left out.
  header_ = "# HELP " + current_ + ' ' + escape_help(help) + "\n# TYPE " + current_ + ' ' +
            (type == MetricType::counter ? "counter" : "gauge") + '\n';
  return true;
}

bool Writer::sample(const Labels& labels, double value) {
  if (!current_ok_) return false;
  std::string series = current_;
  if (!labels.empty()) {
    std::set<std::string_view> names;
    series += '{';
    for (std::size_t i = 0; i < labels.size(); ++i) {
      const auto& [k, v] = labels[i];
      if (!valid_label_name(k) || !names.insert(k).second) return false;
      if (i > 0) series += ',';
      series += k + "=\"" + escape_label_value(v) + '"';
    }
    series += '}';
  }
  if (!series_.insert(series).second) return false;
  out_ << header_;
  header_.clear();
  out_ << series << ' ' << format_value(value) << '\n';
  return true;
}

}  // namespace npu_doctor::prometheus
