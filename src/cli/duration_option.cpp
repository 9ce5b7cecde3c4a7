#include "duration_option.hpp"

#include "common.hpp"
#include "npu_doctor/duration.hpp"

namespace npu_doctor::cli {
namespace {

// CLI11 runs this before the option's callback; a non-empty result is the error shown
// after the flag's name.
CLI::Validator duration_validator(DurationLimits limits) {
  return CLI::Validator(
      [limits](std::string& text) -> std::string {
        const auto d = parse_duration(text);
        if (!d) return msg(ui::Key::error_not_a_duration, fmt::arg("text", text));
        if (*d < limits.min) {
          return msg(ui::Key::error_duration_too_short, fmt::arg("text", text), fmt::arg("min", format_duration(limits.min)));
        }
        if (*d > limits.max) {
          return msg(ui::Key::error_duration_too_long, fmt::arg("text", text), fmt::arg("max", format_duration(limits.max)));
        }
        return {};
      },
      "", "duration");
}

}  // namespace

CLI::Option* add_duration_option(CLI::App* app, const std::string& name, std::chrono::milliseconds& target,
                                 const std::string& help, DurationLimits limits) {
  return app
      ->add_option_function<std::string>(
          name, [&target](const std::string& text) { target = *parse_duration(text); }, help)
      ->check(duration_validator(limits))
      ->type_name("DURATION");
}

CLI::Option* add_duration_option(CLI::App* app, const std::string& name,
                                 std::optional<std::chrono::milliseconds>& target, const std::string& help,
                                 DurationLimits limits) {
  return app
      ->add_option_function<std::string>(
          name, [&target](const std::string& text) { target = parse_duration(text); }, help)
      ->check(duration_validator(limits))
      ->type_name("DURATION");
}

std::string format_duration(std::chrono::milliseconds d) {
  const long long ms = d.count();
  struct Unit {
    long long ms;
    const char* suffix;
  };
  for (const Unit u : {Unit{86400000, "d"}, Unit{3600000, "h"}, Unit{60000, "m"}, Unit{1000, "s"}}) {
    if (ms >= u.ms && ms % u.ms == 0) return std::to_string(ms / u.ms) + u.suffix;
  }
  return std::to_string(ms) + "ms";
}

}  // namespace npu_doctor::cli
