// Memory sample lines (JSON objects, one a line; src/memory/mem_sample.cpp and
// sample_reader.cpp) read as a stream among log text, the sample set they fill, the
// per-device analysis, and the byte sizes ("2.00 GiB", "5620(Byte)") logs write.
#include "core/byte_size.hpp"
#include "memory/mem_report.hpp"
#include "memory/mem_sample.hpp"
#include "memory/sample_reader.hpp"
#include "memory/sample_set.hpp"
#include "fuzz_support.hpp"
#include "npu_doctor/text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace npu_doctor;
  const std::string_view text = fuzz::as_text(data, size);
  mem::SampleSet set(64);  // a small cap so that dropping old samples is exercised too
  mem::SampleInput info;
  info.path = "fuzz.jsonl";
  fuzz::PieceStream in(text, 1 + size % 131);
  mem::read_sample_stream(in, 0, info, set);
  set.finish();
  // The statistics (window floors, Theil-Sen, Kendall's tau) over whatever numbers came in.
  mem::MemAnalyzeOptions options;
  options.leak.min_samples = 3;
  for (const mem::DeviceSeries& series : set.devices()) {
    (void)mem::analyze_device(series, options, series.totals.capacity, "fuzz");
    (void)mem::chart_points(series.samples, 16);
  }
  for (std::string_view line : split(text, '\n')) {
    mem::MemSample s;
    std::string why;
    (void)mem::parse_sample_line(line, s, why);
    if (auto bytes = mem::parse_byte_size(line)) (void)mem::format_bytes(static_cast<double>(*bytes));
  }
  return 0;
}
