// Hand-written field parsers for matched lines. They run only on lines that matched
// a rule, so clarity beats speed, but they never allocate more than the result.
#include "npu_doctor/line_info.hpp"
#include "npu_doctor/text.hpp"

#include <array>
#include <cctype>
#include <cstdint>
#include <iterator>

namespace npu_doctor {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Reads exactly `n` digits at `s[i]`.
std::optional<int> digits(std::string_view s, std::size_t i, std::size_t n) {
  if (i + n > s.size()) return std::nullopt;
  int v = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (!is_digit(s[i + k])) return std::nullopt;
    v = v * 10 + (s[i + k] - '0');
  }
  return v;
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
int64_t days_from_civil(int y, int m, int d) {
  y -= m <= 2;
  const int era = (y >= 0 ? y : y - 399) / 400;
  const int yoe = y - era * 400;
  const int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return static_cast<int64_t>(era) * 146097 + doe - 719468;
}

bool valid_date(int mo, int d) { return mo >= 1 && mo <= 12 && d >= 1 && d <= 31; }
bool valid_time(int h, int mi, int se) { return h <= 23 && mi <= 59 && se <= 60; }

// "hh:mm:ss" then an optional fraction: ".mmm.uuu" (plog), ".ffffff", ",mmm", ":mmm".
// Returns the end index and adds the time of day to `micros`.
std::optional<std::size_t> time_of_day(std::string_view s, std::size_t i, int64_t& micros) {
  auto h = digits(s, i, 2);
  if (!h || i + 8 > s.size() || s[i + 2] != ':' || s[i + 5] != ':') return std::nullopt;
  auto mi = digits(s, i + 3, 2);
  auto se = digits(s, i + 6, 2);
  if (!mi || !se || !valid_time(*h, *mi, *se)) return std::nullopt;
  micros += ((*h * 60LL + *mi) * 60LL + *se) * 1000000LL;
  std::size_t j = i + 8;
  if (j + 1 < s.size() && (s[j] == '.' || s[j] == ',' || s[j] == ':') && is_digit(s[j + 1])) {
    // Up to 9 fraction digits; plog writes ".mmm.uuu".
    std::size_t k = j + 1;
    int64_t frac = 0;
    int n = 0;
    while (k < s.size() && is_digit(s[k]) && n < 9) {
      frac = frac * 10 + (s[k] - '0');
      ++k;
      ++n;
    }
    if (n == 3 && k + 4 <= s.size() && s[k] == '.' && digits(s, k + 1, 3)) {
      frac = frac * 1000 + *digits(s, k + 1, 3);
      n = 6;
      k += 4;
    }
    while (n < 6) {
      frac *= 10;
      ++n;
    }
    while (n > 6) {
      frac /= 10;
      --n;
    }
    micros += frac;
    while (k < s.size() && is_digit(s[k])) ++k;  // more digits than we keep
    j = k;
  }
  return j;
}

// YYYY-MM-DD[-T ]hh:mm:ss... or YYYY/MM/DD hh:mm:ss... at s[i]: its end, and its time in `micros`.
std::optional<std::size_t> full_date_end(std::string_view s, std::size_t i, int64_t& micros) {
  auto y = digits(s, i, 4);
  if (!y || i + 10 >= s.size()) return std::nullopt;
  const char sep = s[i + 4];
  if ((sep != '-' && sep != '/') || s[i + 7] != sep) return std::nullopt;
  auto mo = digits(s, i + 5, 2);
  auto d = digits(s, i + 8, 2);
  if (!mo || !d || !valid_date(*mo, *d) || *y < 1990 || *y > 2200) return std::nullopt;
  const char t = s[i + 10];
  if (t != '-' && t != ' ' && t != 'T') return std::nullopt;
  micros = days_from_civil(*y, *mo, *d) * 86400LL * 1000000LL;
  return time_of_day(s, i + 11, micros);
}

std::optional<Timestamp> full_date_at(std::string_view s, std::size_t i) {
  int64_t micros = 0;
  const auto end = full_date_end(s, i, micros);
  if (!end) return std::nullopt;
  return Timestamp{micros, true, std::string(s.substr(i, *end - i))};
}

// "MM-DD hh:mm:ss" (vLLM) or "EMMDD hh:mm:ss.ffffff" (glog, after the level letter).
std::optional<Timestamp> yearless_at(std::string_view s, std::size_t i) {
  std::optional<int> mo, d;
  std::size_t t = 0;
  if (i + 6 <= s.size() && s[i + 2] == '-') {
    mo = digits(s, i, 2);
    d = digits(s, i + 3, 2);
    t = i + 5;
  } else if (i > 0 && std::string("IWEF").find(s[i - 1]) != std::string::npos) {
    // glog / c10 style "E1212 12:10:10" or "E313 06:55:06" (month not zero-padded).
    std::size_t n = 0;
    while (i + n < s.size() && is_digit(s[i + n])) ++n;
    if (n == 4 || n == 3) {
      mo = digits(s, i, n - 2);
      d = digits(s, i + n - 2, 2);
      t = i + n;
    }
  }
  if (!mo || !d || !valid_date(*mo, *d) || t >= s.size() || s[t] != ' ') return std::nullopt;
  // Year 2000 is a placeholder: only the order within one file is meaningful.
  int64_t micros = days_from_civil(2000, *mo, *d) * 86400LL * 1000000LL;
  auto end = time_of_day(s, t + 1, micros);
  if (!end) return std::nullopt;
  return Timestamp{micros, false, std::string(s.substr(i, *end - i))};
}

// The integer after `key` at its first occurrence (allowing one leading '-').
std::optional<long> number_after(std::string_view line, std::string_view key) {
  const auto p = line.find(key);
  if (p == std::string_view::npos) return std::nullopt;
  std::size_t i = p + key.size();
  while (i < line.size() && line[i] == ' ') ++i;
  bool neg = false;
  if (i < line.size() && line[i] == '-') {
    neg = true;
    ++i;
  }
  if (i >= line.size() || !is_digit(line[i])) return std::nullopt;
  long v = 0;
  while (i < line.size() && is_digit(line[i]) && v < 100000000) v = v * 10 + (line[i++] - '0');
  return neg ? -v : v;
}

std::optional<int> non_negative(std::optional<long> v) {
  if (!v || *v < 0) return std::nullopt;
  return static_cast<int>(*v);
}

// "[ERROR] HCCL(1234,python):" -> "HCCL"
std::string plog_module(std::string_view line, std::optional<long>& pid) {
  static constexpr std::array kLevels = {"[ERROR] ", "[WARNING] ", "[INFO] ", "[DEBUG] ",
                                         "[EVENT] ", "[TRACE] "};
  for (std::string_view lvl : kLevels) {
    // Only where a plog header can be (the first 200 bytes): the rest of the line is not read.
    auto p = line.substr(0, std::min<std::size_t>(line.size(), 200 + lvl.size())).find(lvl);
    if (p == std::string_view::npos || p > 200) continue;
    std::size_t i = p + lvl.size();
    std::size_t j = i;
    while (j < line.size() && (std::isupper(static_cast<unsigned char>(line[j])) || is_digit(line[j]) ||
                               line[j] == '_')) {
      ++j;
    }
    if (j == i || j >= line.size() || line[j] != '(') continue;
    std::size_t k = j + 1;
    while (k < line.size() && is_digit(line[k])) ++k;
    // Digits too many for a long are not a pid (the line-info fuzzer found the overflow).
    const auto number = parse_number<long>(line.substr(j + 1, k - j - 1));
    if (number && k < line.size() && line[k] == ',') pid = number;
    return std::string(line.substr(i, j - i));
  }
  return {};
}

// A warning word right after a leading date and time, in any case, as some C++ loggers write
// their level ("2025-12-22 09:38:55.667084 warn 2469 pid[2469] [HYBM ...]", "... WARN [1-1][HYBM
// ...]"): placed there it names the line's level, never prose. Error words are left to the
// rules below (the scan gate's error markers are built from them). The date is read as
// find_timestamp reads one, in the form those loggers write: dashes, a space or T before the
// time, a fraction after '.' or ','.
bool warning_after_leading_time(std::string_view head) {
  int64_t micros = 0;
  const auto end = full_date_end(head, 0, micros);
  if (!end || *end >= head.size() || head[*end] != ' ' || head[4] != '-' || head[10] == '-' || head[19] == ':') {
    return false;
  }
  const std::string_view rest = head.substr(*end + 1);
  for (std::string_view w : {"warn ", "WARN ", "Warn ", "warning ", "WARNING ", "Warning "}) {
    if (rest.starts_with(w)) return true;
  }
  return false;
}

}  // namespace

LineLevel find_level(std::string_view line) {
  const std::string_view head = line.substr(0, std::min<std::size_t>(line.size(), 160));
  if (warning_after_leading_time(head)) return LineLevel::warning;
  // glog without brackets: "E0302 10:55:12.313101 12345 file.cc:12] ..." at the line start.
  if (head.size() >= 9 && std::string_view("EWIF").find(head[0]) != std::string_view::npos && is_digit(head[1]) &&
      is_digit(head[2]) && is_digit(head[3]) && is_digit(head[4]) && head[5] == ' ' && is_digit(head[6]) &&
      is_digit(head[7]) && head[8] == ':') {
    return head[0] == 'W' ? LineLevel::warning : head[0] == 'I' ? LineLevel::info : LineLevel::error;
  }
  // glog / c10 / torch_npu: "[W1230 06:28:14..." or "[W compiler_depend.ts:487]" (possibly after "[rank3]:").
  for (std::size_t p = head.find('['); p != std::string_view::npos && p + 2 < head.size(); p = head.find('[', p + 1)) {
    const char c = head[p + 1];
    const char next = head[p + 2];
    if ((next == ' ' || is_digit(next)) && (c == 'W' || c == 'E' || c == 'I' || c == 'F')) {
      if (c == 'W') return LineLevel::warning;
      if (c == 'I') return LineLevel::info;
      return LineLevel::error;
    }
  }
  // plog "[ERROR]" and Python logging / vLLM words near the start of the line.
  struct Word {
    std::string_view text;
    LineLevel level;
  };
  static constexpr Word kWords[] = {
      {"[ERROR]", LineLevel::error},   {"[WARNING]", LineLevel::warning}, {"[WARN]", LineLevel::warning},
      // Python logging's default format (basicConfig): "WARNING:root:...", "ERROR:name:...".
      {"ERROR:", LineLevel::error},    {"WARNING:", LineLevel::warning},  {"INFO:", LineLevel::info},
      {"DEBUG:", LineLevel::debug},    {"[INFO]", LineLevel::info},     {"[DEBUG]", LineLevel::debug},     {"[TRACE]", LineLevel::debug},
      {"[EVENT]", LineLevel::info},    {"ERROR ", LineLevel::error},      {"WARNING ", LineLevel::warning},
      {"INFO ", LineLevel::info},      {"DEBUG ", LineLevel::debug},      {"| ERROR", LineLevel::error},
      {"| WARNING", LineLevel::warning}, {"| INFO", LineLevel::info},     {"- ERROR -", LineLevel::error},
      {"- WARNING -", LineLevel::warning}, {"- INFO -", LineLevel::info},
  };
  // The earliest place where a word of the list first occurs and may stand (a bare word starts
  // the line or follows a space or closing bracket: "(pid=1) WARNING "); at one place, the
  // earlier word of the list. A word counts only where it first occurs, as one search per word
  // would find it, but the head is read once: this runs on every line that passes the gate.
  static_assert(std::size(kWords) <= 32);
  uint32_t seen = 0;
  for (std::size_t p = 0; p < head.size(); ++p) {
    const char c = head[p];
    if (c != '[' && c != 'E' && c != 'W' && c != 'I' && c != 'D' && c != '|' && c != '-') continue;
    for (std::size_t k = 0; k < std::size(kWords); ++k) {
      const Word& w = kWords[k];
      if (w.text.front() != c || ((seen >> k) & 1U) != 0 || !head.substr(p).starts_with(w.text)) continue;
      seen |= 1U << k;
      if (w.text.front() != '[' && w.text.front() != '|' && w.text.front() != '-' && p > 0 && head[p - 1] != ' ' &&
          head[p - 1] != ')' && head[p - 1] != ']') {
        continue;
      }
      return w.level;
    }
  }
  // CANN's error manager reports "EI0002: [PID: 1] ...", "EZ9999[PID: 1] ... (EZ9999): ...",
  // "[PID: 1] ... Compilation_Error(E20001): ...": an E-code is an error, a W-code a warning.
  if (const auto pid = head.find("[PID:"); pid != std::string_view::npos) {
    for (std::size_t i = 0; i + 6 <= head.size(); ++i) {
      const bool reported = (i + 6 == pid) || (i + 8 == pid && head.substr(i + 6, 2) == ": ") ||
                            (i > 0 && head[i - 1] == '(' && head.substr(i + 6, 2) == "):");
      if (reported && message_code_at(head, i)) return head[i] == 'E' ? LineLevel::error : LineLevel::warning;
    }
  }
  for (std::string_view w : {"UserWarning:", "FutureWarning:", "DeprecationWarning:", "RuntimeWarning:", "Warning: "}) {
    if (head.find(w) != std::string_view::npos) return LineLevel::warning;
  }
  return LineLevel::unknown;
}

bool message_code_at(std::string_view s, std::size_t i) {
  return i + 6 <= s.size() && (s[i] == 'E' || s[i] == 'W') && (is_digit(s[i + 1]) || (s[i + 1] >= 'A' && s[i + 1] <= 'Z')) &&
         is_digit(s[i + 2]) && is_digit(s[i + 3]) && is_digit(s[i + 4]) && is_digit(s[i + 5]);
}

std::optional<Timestamp> find_timestamp(std::string_view line) {
  const std::string_view head = line.substr(0, std::min<std::size_t>(line.size(), 512));
  std::optional<Timestamp> yearless;
  for (std::size_t i = 0; i < head.size(); ++i) {
    if (!is_digit(head[i]) || (i > 0 && is_digit(head[i - 1]))) continue;
    if (auto t = full_date_at(head, i)) return t;
    if (!yearless) yearless = yearless_at(head, i);
  }
  return yearless;
}

LineInfo parse_line_info(std::string_view line) {
  LineInfo info = parse_line_head(line, find_level(line));
  parse_line_details(line, info);
  return info;
}

LineInfo parse_line_head(std::string_view line, LineLevel level) {
  LineInfo info;
  info.level = level;
  info.module = plog_module(line, info.pid);
  return info;
}

void parse_line_details(std::string_view line, LineInfo& info) {
  info.time = find_timestamp(line);
  if (!info.pid) info.pid = number_after(line, "(PID:");
  if (!info.pid) info.pid = number_after(line, "[PID:");
  info.device = non_negative(number_after(line, "Device:"));
  if (!info.device) info.device = non_negative(number_after(line, "device_id="));
  if (!info.device) info.device = non_negative(number_after(line, "(NPU "));
  info.rank = non_negative(number_after(line, "RankID:"));
  if (!info.rank) info.rank = non_negative(number_after(line, "[rank"));
  if (!info.rank) info.rank = non_negative(number_after(line, "[Rank "));
  if (!info.rank) info.rank = non_negative(number_after(line, " rank="));
}

}  // namespace npu_doctor
