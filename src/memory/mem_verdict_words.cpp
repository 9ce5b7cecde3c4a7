#include "mem_verdict_words.hpp"

#include "core/byte_size.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor::mem {

using ui::Key;

std::string_view leak_reason_text(std::string_view reason, Lang lang) {
  if (reason == "too_few_samples") return ui::word(Key::mem_leak_reason_too_few_samples, lang);
  if (reason == "no_rise") return ui::word(Key::mem_leak_reason_no_rise, lang);
  if (reason == "inconsistent") return ui::word(Key::mem_leak_reason_inconsistent, lang);
  if (reason == "too_small") return ui::word(Key::mem_leak_reason_too_small, lang);
  if (reason == "floor_not_raised") return ui::word(Key::mem_leak_reason_floor_not_raised, lang);
  return reason;
}

std::string_view phase_text(std::string_view phase, Lang lang) {
  if (phase == "start") return ui::word(Key::mem_phase_start, lang);
  if (phase == "part_way") return ui::word(Key::mem_phase_part_way, lang);
  if (phase == "inference") return ui::word(Key::mem_phase_inference, lang);
  return ui::word(Key::mem_phase_unknown, lang);
}

std::string leak_sentence(int device, double floor_from, int64_t step_from, double floor_to, int64_t step_to,
                          double bytes_per_step, double confidence, const int64_t* projected, Lang lang) {
  std::string s = ui::text(Key::mem_leak_sentence, lang, fmt::arg("device", device),
                           fmt::arg("floor_from", format_bytes(floor_from)), fmt::arg("step_from", step_from),
                           fmt::arg("floor_to", format_bytes(floor_to)), fmt::arg("step_to", step_to),
                           fmt::arg("per_step", format_bytes(bytes_per_step)), fmt::arg("confidence", confidence));
  if (projected != nullptr) s += ui::text(Key::mem_leak_projected_oom, lang, fmt::arg("step", *projected));
  return s;
}

std::string fragmentation_sentence(int device, uint64_t gap, int64_t step, bool versus_peak, uint64_t threshold,
                                   Lang lang) {
  return ui::text(versus_peak ? Key::mem_fragmentation_versus_peak : Key::mem_fragmentation_versus_allocated, lang,
                  fmt::arg("device", device), fmt::arg("step", step), fmt::arg("gap", format_bytes(static_cast<double>(gap))),
                  fmt::arg("threshold", format_bytes(static_cast<double>(threshold))));
}

}  // namespace npu_doctor::mem
