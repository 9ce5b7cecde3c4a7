// find_level reads a line's head in one pass (it runs on every line the gate lets through);
// it must give what it gave when it searched the head once per level word. That version is
// kept here as the reference, and both run over every fixture line and over lines built to
// put the level words where the rules differ (a word's first place cannot stand, two words
// at one place, a word past the head).
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "npu_doctor/line_info.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A warning word after a leading date and time, read by a regular expression here: a year
// 1990-2200, a valid month, day and time of day, a fraction (plog's ".mmm.uuu" too).
bool warning_after_leading_time_reference(std::string_view head) {
  static const std::regex re(
      R"(^(?:199\d|20\d\d|21\d\d|2200)-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[ T](?:[01]\d|2[0-3]):[0-5]\d:)"
      R"((?:[0-5]\d|60)(?:[.,](?:\d{3}\.\d{3}|\d+)\d*)? (?:warn|WARN|Warn|warning|WARNING|Warning) )");
  return std::regex_search(head.begin(), head.end(), re);
}

// find_level before the one-pass reading of the level words (main at b176e6e), and the
// warning word after a leading time stamp (2026-12-06).
LineLevel find_level_reference(std::string_view line) {
  const std::string_view head = line.substr(0, std::min<std::size_t>(line.size(), 160));
  if (warning_after_leading_time_reference(head)) return LineLevel::warning;
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
  std::size_t best = std::string_view::npos;
  LineLevel level = LineLevel::unknown;
  for (const auto& w : kWords) {
    const auto p = head.find(w.text);
    if (p == std::string_view::npos || p >= best) continue;
    // A bare word must start the line or follow a space / closing bracket ("(pid=1) WARNING ").
    if (w.text.front() != '[' && w.text.front() != '|' && w.text.front() != '-' && p > 0 &&
        head[p - 1] != ' ' && head[p - 1] != ')' && head[p - 1] != ']') {
      continue;
    }
    best = p;
    level = w.level;
  }
  if (level != LineLevel::unknown) return level;
  // CANN's error manager reports "EI0002: [PID: 1] ...", "EZ9999[PID: 1] ... (EZ9999): ...",
  // "[PID: 1] ... Compilation_Error(E20001): ...": an E-code is an error, a W-code a warning.
  if (const auto pid = head.find("[PID:"); pid != std::string_view::npos) {
    auto code_at = [&](std::size_t i) {
      return i + 6 <= head.size() && (head[i] == 'E' || head[i] == 'W') &&
             (is_digit(head[i + 1]) || (head[i + 1] >= 'A' && head[i + 1] <= 'Z')) && is_digit(head[i + 2]) &&
             is_digit(head[i + 3]) && is_digit(head[i + 4]) && is_digit(head[i + 5]);
    };
    for (std::size_t i = 0; i + 6 <= head.size(); ++i) {
      const bool reported = (i + 6 == pid) || (i + 8 == pid && head.substr(i + 6, 2) == ": ") ||
                            (i > 0 && head[i - 1] == '(' && head.substr(i + 6, 2) == "):");
      if (reported && code_at(i)) return head[i] == 'E' ? LineLevel::error : LineLevel::warning;
    }
  }
  for (std::string_view w : {"UserWarning:", "FutureWarning:", "DeprecationWarning:", "RuntimeWarning:", "Warning: "}) {
    if (head.find(w) != std::string_view::npos) return LineLevel::warning;
  }
  return LineLevel::unknown;
}

TEST(FindLevel, EveryFixtureLineGetsTheLevelTheSearchPerWordGave) {
  std::size_t lines = 0, decided = 0;
  for (const auto& log : testing::fixture_logs()) {
    std::ifstream in(log, std::ios::binary);
    for (std::string line; std::getline(in, line); ++lines) {
      const LineLevel want = find_level_reference(line);
      EXPECT_EQ(find_level(line), want) << log << ": " << line;
      decided += want != LineLevel::unknown ? 1 : 0;
    }
  }
  EXPECT_GT(lines, 20000u);
  EXPECT_GT(decided, 5000u);
}

// memfabric's and memcache's loggers: the level follows the time stamp, in lower or upper case.
TEST(FindLevel, AWarningWordAfterTheLeadingTimeIsTheLinesLevel) {
  EXPECT_EQ(find_level("2025-12-22 09:38:55.667084 warn 2469 pid[2469] [HYBM dl_hcom_api.cpp:78] Failed to open "
                       "library [libhcom.so], error: libhcom.so: cannot open shared object file"),
            LineLevel::warning);
  EXPECT_EQ(find_level("2026-01-21 09:28:23.879880 WARN [128411-128411][HYBM dl_hcom_api.cpp:147 LoadLibrary] Failed "
                       "to call dlsym to load ubs_hcom_reg_seg, error/lib/libhcom.so: undefined symbol"),
            LineLevel::warning);
  EXPECT_EQ(find_level("2026-01-19 15:22:57.315918 ERROR [2954379-2954379][SMEM smem_trans_entry.cpp:186 MallocDram] "
                       "malloc failed"),
            LineLevel::error);
  // Not right after a leading time: prose, which has no level.
  EXPECT_EQ(find_level("we warn 2025-12-22 09:38:55 users that the kernel failed"), LineLevel::unknown);
  EXPECT_EQ(find_level("2025-12-22 warn this is not a time stamp"), LineLevel::unknown);
  EXPECT_EQ(find_level("2025-12-22 09:38:55 the operator will warn later"), LineLevel::unknown);
}

TEST(FindLevel, BuiltLinesGetTheLevelTheSearchPerWordGave) {
  // Pieces that make the rules differ: each level word, the characters before a bare word
  // that let it stand or not, glog's and CANN's forms, and filler that pushes a word past
  // the 160 bytes read.
  static const std::vector<std::string> pieces = {
      "[ERROR]", "[WARNING]", "[WARN]", "ERROR:", "WARNING:", "INFO:", "DEBUG:", "[INFO]", "[DEBUG]", "[TRACE]",
      "[EVENT]", "ERROR ", "WARNING ", "INFO ", "DEBUG ", "| ERROR", "| WARNING", "| INFO", "- ERROR -",
      "- WARNING -", "- INFO -", "x", " ", ")", "]", "-", "|", "[", "E", "W", "I", "D", "ERR", "WARN", "[W ",
      "[E1", "E0302 10:", "[PID: 1]", "EZ9999", "(E20001):", "UserWarning:", "Warning: ", "0123456789",
      "a long stretch of ordinary words without any level at all in it ", "2025-12-22 09:38:55.667084 ",
      "2026-01-21 09:28:23 ", "warn ", "WARN ", "Warning ", "1",
  };
  std::mt19937 rng(17);
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1), count(1, 12);
  for (int i = 0; i < 200000; ++i) {
    std::string line;
    for (std::size_t k = count(rng); k > 0; --k) line += pieces[pick(rng)];
    ASSERT_EQ(find_level(line), find_level_reference(line)) << line;
  }
}

}  // namespace
}  // namespace npu_doctor
