#include "npu_doctor/vocabulary.hpp"

#include <array>
#include <cstdlib>
#include <string>

namespace npu_doctor {
namespace {

constexpr std::array kCategoryNames = {
    std::string_view("memory"),
    std::string_view("resource"),
    std::string_view("communication"),
    std::string_view("rank_config"),
    std::string_view("compile_op_unsupported"),
    std::string_view("compile_shape"),
    std::string_view("compute_overflow_nan"),
    std::string_view("driver_firmware_env"),
    std::string_view("install_version_mismatch"),
    std::string_view("permission_device"),
    std::string_view("aicore_exception"),
    std::string_view("other"),
};

constexpr std::array kPriorityOrder = {
    Category::driver_firmware_env,  Category::memory,
    Category::resource,             Category::communication,
    Category::rank_config,          Category::install_version_mismatch,
    Category::permission_device,    Category::aicore_exception,
    Category::compile_op_unsupported, Category::compile_shape,
    Category::compute_overflow_nan, Category::other,
};

template <typename E, std::size_t N>
std::optional<E> parse_from(const std::array<std::string_view, N>& names, std::string_view s) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == s) return static_cast<E>(i);
  }
  return std::nullopt;
}

constexpr std::array kSeverityNames = {std::string_view("info"), std::string_view("warning"),
                                       std::string_view("error"), std::string_view("critical")};
constexpr std::array kRoleNames = {std::string_view("cause"), std::string_view("symptom"),
                                   std::string_view("wrapper"), std::string_view("hint")};
constexpr std::array kLangNames = {std::string_view("en"), std::string_view("zh")};

}  // namespace

std::string_view to_string(Category c) { return kCategoryNames.at(static_cast<std::size_t>(c)); }
std::string_view to_string(Severity s) { return kSeverityNames.at(static_cast<std::size_t>(s)); }
std::string_view to_string(Role r) { return kRoleNames.at(static_cast<std::size_t>(r)); }
std::string_view to_string(Lang l) { return kLangNames.at(static_cast<std::size_t>(l)); }

std::optional<Category> parse_category(std::string_view s) {
  return parse_from<Category>(kCategoryNames, s);
}
std::optional<Severity> parse_severity(std::string_view s) {
  return parse_from<Severity>(kSeverityNames, s);
}
std::optional<Role> parse_role(std::string_view s) { return parse_from<Role>(kRoleNames, s); }
std::optional<Lang> parse_lang(std::string_view s) { return parse_from<Lang>(kLangNames, s); }

std::span<const Category> categories_in_priority_order() { return kPriorityOrder; }

int category_priority(Category c) {
  for (std::size_t i = 0; i < kPriorityOrder.size(); ++i) {
    if (kPriorityOrder[i] == c) return static_cast<int>(i);
  }
  return static_cast<int>(kPriorityOrder.size());
}

Lang lang_from_environment() {
  for (const char* var : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
    const char* v = std::getenv(var);
    if (v == nullptr || *v == '\0') continue;
    return std::string_view(v).starts_with("zh") ? Lang::zh : Lang::en;
  }
  return Lang::en;
}

}  // namespace npu_doctor
