#pragma once
// Reads memory samples from inputs (files, directories, compressed files, archives):
// every line that is a sample goes into a SampleSet; log text around them is counted,
// JSON-looking lines that are not valid samples are reported with their line numbers.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "npu_doctor/input_report.hpp"
#include "sample_set.hpp"

namespace npu_doctor {
class ByteStream;
}

namespace npu_doctor::mem {

struct SampleInput {
  std::string path;  // as shown to the user
  InputStatus status = InputStatus::ok;
  std::string note;  // why skipped or failed
  uint64_t bytes = 0;
  uint64_t lines = 0;
  uint64_t samples = 0;
  uint64_t invalid = 0;               // JSON-looking lines that are not valid samples
  uint64_t other = 0;                 // other text (a log around the samples)
  std::vector<std::string> problems;  // the first few invalid lines: "line 7: no \"allocated\""
};

inline constexpr std::size_t kMaxProblemsPerInput = 5;

// Reads every input into `set` (not finished). `display` maps a path to the name shown
// for it (the spooled copy of stdin is shown as "<stdin>").
std::vector<SampleInput> read_sample_inputs(const std::vector<std::string>& paths,
                                            const std::map<std::string, std::string>& display, SampleSet& set);

// One stream; `input` is its index in the result of read_sample_inputs.
void read_sample_stream(ByteStream& stream, uint32_t input, SampleInput& info, SampleSet& set);

}  // namespace npu_doctor::mem
