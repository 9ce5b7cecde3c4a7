#pragma once
// Fields that real Ascend log lines carry: time stamp, plog module, pid, device, rank.
// Parsed by hand (no regex) from a matched line only.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace npu_doctor {

struct Timestamp {
  int64_t micros = 0;     // since 1970-01-01 in the log's own (unknown) time zone
  bool has_year = true;   // false for "08-26 03:01:18" (vLLM) or "E1212 12:10:10" (glog)
  std::string text;       // as written in the line
};

// A time that can be placed on a calendar (it has a year): the only kind that orders runs.
inline bool dated(const std::optional<Timestamp>& t) { return t && t->has_year; }

// The level the program that wrote the line gave it, when the line says.
enum class LineLevel { unknown, debug, info, warning, error };

struct LineInfo {
  LineLevel level = LineLevel::unknown;
  std::optional<Timestamp> time;
  std::string module;          // plog module ("HCCL", "RUNTIME"...) or empty
  std::optional<long> pid;
  std::optional<int> device;
  std::optional<int> rank;
};

LineInfo parse_line_info(std::string_view line);

// parse_line_info in two steps, for the scanner: the head (the level, known already, and the
// plog module and pid, which a code extractor's confirmation reads) for every line with a
// candidate pattern, the details (time, pid, device, rank) only for a line that matched.
LineInfo parse_line_head(std::string_view line, LineLevel level);
void parse_line_details(std::string_view line, LineInfo& info);

// The level written on the line: plog "[WARNING]", glog/c10 "[W1230 ...", "[W file.cc:12]",
// Python logging "WARNING 03-19 ...", "UserWarning:"...; unknown when it says none.
LineLevel find_level(std::string_view line);

// Whether a CANN message code starts at `i` of `s`: 'E' or 'W', a digit or capital letter,
// four digits ("EZ9999", "EH9999", "W11001", "E10054").
bool message_code_at(std::string_view s, std::size_t i);

// The first time stamp in `line`, in any of the formats above.
std::optional<Timestamp> find_timestamp(std::string_view line);

}  // namespace npu_doctor
