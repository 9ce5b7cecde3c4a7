// The scanner over one input with the built-in knowledge base: block cuts, context lines,
// long lines, binary detection, evidence. The first input byte picks the block size and
// how the stream splits its reads, so block boundaries fall everywhere.
#include "finding_collector.hpp"
#include "fuzz_support.hpp"
#include "scanner.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace npu_doctor;
  if (size == 0) return 0;
  const uint8_t knob = data[0];
  const std::string_view text = fuzz::as_text(data + 1, size - 1);
  ScanOptions options;
  options.block_size = std::size_t{16} << (knob & 7u);  // 16 B .. 2 KiB
  options.before = knob & 8u ? 2 : 8;
  options.max_text = knob & 16u ? 40 : 2048;
  options.read_ahead = false;  // no thread per input; TSan covers the read-ahead
  Scanner scanner(fuzz::builtin_matcher(), options);
  FindingCollector out(options.max_evidence);
  fuzz::PieceStream in(text, 1u + (knob >> 5) * 97u);
  InputReport report;
  report.path = "fuzz.log";
  scanner.scan(in, 0, report, out);
  (void)out.take();
  return 0;
}
