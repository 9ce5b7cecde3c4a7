#include "ui_text.hpp"

#include <array>
#include <string>
#include <vector>
#include <utility>

namespace npu_doctor::ui {
namespace {

// Indexed by Text; {English, Chinese}.
constexpr std::array<std::pair<std::string_view, std::string_view>, static_cast<std::size_t>(Text::count_)> kTexts = {{
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
    {"FOLLOWS FROM THE ROOT CAUSE", "根因导致的后果"},
    {"INDEPENDENT ERRORS: CHECK AFTER THE ROOT CAUSE", "独立错误：排查完根因后再看"},
    {"same line", "同一行"},
    {"peer", "对端"},
    {"{0} waited for rank {1}: read rank {1}'s logs first", "{0} 在等待 rank {1}：请先看 rank {1} 的日志"},
    {"this rank", "本 rank"},
    {"waited for rank {0}", "在等待 rank {0}"},
    {"INCIDENT {0} OF {1}", "事件 {0}/{1}"},
    {"OTHER INCIDENTS (--incident N shows one, --incident all every one)", "其他事件（--incident N 查看某一个，--incident all 查看全部）"},
    {"time", "时间"},
    {"root cause", "根因"},
    {"no error-level finding", "无错误级别的发现"},
    {"time unknown", "时间未知"},
    {"under", "位于"},
    {"incidents", "个事件"},
    {"{0} is empty: nothing to diagnose.", "{0} 是空文件：没有可诊断的内容。"},
    {"The {0} inputs are empty: nothing to diagnose.", "{0} 个输入都是空的：没有可诊断的内容。"},
    {"empty", "空文件"},
    {"the file is empty", "文件为空"},
    {"INCIDENT", "事件"},
}};

}  // namespace

std::string format(Text t, Lang lang, const std::vector<std::string>& args) {
  std::string out(get(t, lang));
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string key = "{" + std::to_string(i) + "}";
    for (auto p = out.find(key); p != std::string::npos; p = out.find(key, p + args[i].size())) out.replace(p, key.size(), args[i]);
  }
  return out;
}

std::string_view get(Text t, Lang lang) {
  const auto& p = kTexts.at(static_cast<std::size_t>(t));
  return lang == Lang::zh ? p.second : p.first;
}

}  // namespace npu_doctor::ui
