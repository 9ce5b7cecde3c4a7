// Log lines and their time stamps, levels, plog modules, pids, devices and ranks
// (src/core/line_info.cpp), plus the text sanitising every evidence line goes through.
#include "fuzz_support.hpp"
#include "npu_doctor/line_info.hpp"
#include "npu_doctor/text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace npu_doctor;
  const std::string_view text = fuzz::as_text(data, size);
  // The scanner hands one line at a time; the fuzzer's input may hold several.
  for (std::string_view line : split(text, '\n')) {
    const LineInfo info = parse_line_info(line);
    if (info.time && info.time->text.size() > line.size()) __builtin_trap();
    (void)find_level(line);
    (void)find_timestamp(line);
    const std::string clean = sanitize_line(line);
    (void)utf8_prefix(clean, clean.size() / 2);
  }
  (void)looks_binary(text);
  (void)trim(text);
  return 0;
}
