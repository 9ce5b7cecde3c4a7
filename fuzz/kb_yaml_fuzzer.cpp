// One knowledge-base YAML file (src/core/kb_loader.cpp): schema, entries, extractors,
// ranges and samples; every problem must come back as a KbProblem, never a crash.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace npu_doctor;
  std::vector<KbProblem> problems;
  const KbFile file = parse_kb_file("fuzz.yaml", fuzz::as_text(data, size), size % 2 == 1, problems);
  for (const Entry& e : file.entries)
    for (const std::string& c : e.codes) (void)normalize_code(c);
  return 0;
}
