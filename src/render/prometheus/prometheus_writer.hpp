#pragma once
// The Prometheus text exposition format (what node_exporter's textfile collector reads),
// for every `-f prometheus` report: HELP and TYPE once per family before its samples,
// label values and HELP escaped, names checked, a series never written twice.
#include <cstdint>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npu_doctor::prometheus {

using Labels = std::vector<std::pair<std::string, std::string>>;

enum class MetricType { gauge, counter };

// [a-zA-Z_:][a-zA-Z0-9_:]* for metric names, [a-zA-Z_][a-zA-Z0-9_]* (not "__...") for labels.
bool valid_metric_name(std::string_view name);
bool valid_label_name(std::string_view name);
// A label value between double quotes: \ " and newline escaped, made valid UTF-8.
std::string escape_label_value(std::string_view value);
// HELP text: \ and newline escaped.
std::string escape_help(std::string_view help);
// A sample value: integers without a fraction, NaN, +Inf, -Inf.
std::string format_value(double value);

class Writer {
 public:
  explicit Writer(std::ostream& out) : out_(out) {}

  // Starts a family: its HELP and TYPE come before its first sample (a family without
  // samples is not written). Every sample that follows until the next
  // family() belongs to it. A family already written is refused (returns false).
  bool family(std::string_view name, MetricType type, std::string_view help);
  // One sample of the current family; a series (name and labels) already written is
  // skipped and returns false, as are invalid label names.
  bool sample(const Labels& labels, double value);

 private:
  std::ostream& out_;
  std::string current_;
  std::string header_;  // HELP and TYPE of the current family until its first sample
  bool current_ok_ = false;
  std::set<std::string, std::less<>> families_;
  std::set<std::string, std::less<>> series_;
};

}  // namespace npu_doctor::prometheus
