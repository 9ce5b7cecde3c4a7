#include "ui_text.hpp"

#include <array>
#include <utility>

namespace npu_doctor::ui {
namespace {

// Indexed by Text; {English, Chinese}.
constexpr std::array<std::pair<std::string_view, std::string_view>, 22> kTexts = {{
    {"ROOT CAUSE", "根因"},
    {"No error-level finding: nothing to blame.", "未发现错误级别的问题。"},
    {"why", "依据"},
    {"evidence", "证据"},
    {"cause", "原因"},
    {"remedies", "解决办法"},
    {"OTHER FINDINGS", "其他发现"},
    {"INPUTS WITH PROBLEMS", "有问题的输入"},
    {"symptom", "症状"},
    {"wrapper", "封装错误"},
    {"hint", "线索"},
    {"follows from", "源于"},
    {"occurrences", "次"},
    {"seen", "出现"},
    {"findings", "项发现"},
    {"inputs", "个输入"},
    {"lines", "行"},
    {"No known error signatures were found.", "未发现已知的错误特征。"},
    {"category", "类别"},
    {"code", "错误码"},
    {"references", "参考"},
    {"INCIDENT", "事件"},
}};

}  // namespace

std::string_view get(Text t, Lang lang) {
  const auto& p = kTexts.at(static_cast<std::size_t>(t));
  return lang == Lang::zh ? p.second : p.first;
}

}  // namespace npu_doctor::ui
