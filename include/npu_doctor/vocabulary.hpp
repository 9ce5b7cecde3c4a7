#pragma once
// The shared vocabulary of findings, the knowledge base, tests and JSON:
// categories (exactly the 12 of ARCHITECTURE.md), severities, roles and languages.
#include <optional>
#include <span>
#include <string_view>

namespace npu_doctor {

enum class Category {
  memory,
  resource,
  communication,
  rank_config,
  compile_op_unsupported,
  compile_shape,
  compute_overflow_nan,
  driver_firmware_env,
  install_version_mismatch,
  permission_device,
  aicore_exception,
  other,
};

// How bad one occurrence is. Only error and critical findings can be a root cause.
enum class Severity { info, warning, error, critical };

// What a finding is to the failure:
//   cause   - says what went wrong (the default);
//   symptom - a consequence of something else (timeouts after another error, null contexts);
//   wrapper - a generic envelope around the real error (EZ9999, ERR00100, tracebacks);
//   hint    - context that can explain another finding (numpy 2 installed, env settings).
enum class Role { cause, symptom, wrapper, hint };

enum class Lang { en, zh };

std::string_view to_string(Category c);
std::string_view to_string(Severity s);
std::string_view to_string(Role r);
std::string_view to_string(Lang l);
std::optional<Category> parse_category(std::string_view s);
std::optional<Severity> parse_severity(std::string_view s);
std::optional<Role> parse_role(std::string_view s);
std::optional<Lang> parse_lang(std::string_view s);

// All categories, in the seed's priority order used to break ties between
// independent causes: driver and firmware first, then memory, then communication.
std::span<const Category> categories_in_priority_order();
int category_priority(Category c);  // 0 = highest priority

// Language from LC_ALL / LC_MESSAGES / LANG ("zh_CN.UTF-8" -> zh), English otherwise.
Lang lang_from_environment();

}  // namespace npu_doctor
