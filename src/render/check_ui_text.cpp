#include "render/check_ui_text.hpp"

#include <array>
#include <utility>

namespace npu_doctor::ui {
namespace {

using Pair = std::pair<std::string_view, std::string_view>;

// Indexed by CheckText; {English, Chinese}.
constexpr std::array<Pair, 8> kTexts = {{
    {"summary", "汇总"},
    {"Every step passed.", "所有检查均已通过。"},
    {"fix", "修复命令"},
    {"passed", "通过"},
    {"warnings", "警告"},
    {"failed", "失败"},
    {"skipped", "跳过"},
    {"No step was run.", "没有运行任何检查步骤。"},
}};

// Indexed by StepId.
constexpr std::array<Pair, 4> kSteps = {{
    {"Driver and firmware", "驱动与固件"},
    {"CANN and PyTorch", "CANN 与 PyTorch"},
    {"Permissions and device visibility", "权限与设备可见性"},
    {"NUMA placement", "NUMA 亲和性"},
}};

std::string_view pick(const Pair& p, Lang lang) { return lang == Lang::zh ? p.second : p.first; }

}  // namespace

std::string_view get(CheckText t, Lang lang) { return pick(kTexts.at(static_cast<std::size_t>(t)), lang); }

std::string_view step_title(checks::StepId id, Lang lang) { return pick(kSteps.at(static_cast<std::size_t>(id)), lang); }

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
