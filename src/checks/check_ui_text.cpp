#include "check_ui_text.hpp"

#include "npu_doctor/ui_words.hpp"

namespace npu_doctor::ui {

std::string_view step_title(checks::StepId id, Lang lang) {
  switch (id) {
    case checks::StepId::driver: return word(Key::check_step_driver, lang);
    case checks::StepId::cann: return word(Key::check_step_cann, lang);
    case checks::StepId::devices: return word(Key::check_step_devices, lang);
    case checks::StepId::numa: return word(Key::check_step_numa, lang);
  }
  return word(Key::check_step_driver, lang);
}

std::string_view status_label(checks::StepStatus s) {
  switch (s) {
    case checks::StepStatus::pass: return "PASS";
    case checks::StepStatus::warn: return "WARN";
    case checks::StepStatus::fail: return "FAIL";
    case checks::StepStatus::skip: return "SKIP";
  }
  return "SKIP";
}

}  // namespace npu_doctor::ui
