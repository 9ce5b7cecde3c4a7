// The binary knowledge-base snapshot reader (src/core/kb_snapshot.cpp): it runs at every
// start-up on embedded bytes, and must reject anything that is not its own format.
#include "fuzz_support.hpp"
#include "kb_snapshot.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace npu_doctor;
  const std::string_view bytes = fuzz::as_text(data, size);
  if (auto kb = read_kb_snapshot(bytes)) {
    // What was read must survive a round trip.
    const std::string again = write_kb_snapshot(*kb);
    if (!read_kb_snapshot(again)) __builtin_trap();
  }
  // explain's load: texts decoded only when asked for, from blocks a full read would check.
  if (auto kb = read_kb_snapshot(bytes, nullptr, Catalogue::Bytes::in_memory, EntryTexts::deferred)) {
    for (const Entry& e : kb->entries()) (void)kb->with_texts(e).title.en.size();
  }
  return 0;
}
