#include "html_words.hpp"

#include <array>
#include <utility>

namespace npu_doctor::html {
namespace {

// Indexed by Word; {English, Chinese}.
constexpr std::array<std::pair<std::string_view, std::string_view>, 33> kWords = {{
    {"Cluster", "集群"},
    {"ranks", "个 rank"},
    {"culprit", "故障源"},
    {"basis", "判断依据"},
    {"confidence", "置信度"},
    {"why", "依据"},
    {"symptom ranks", "仅有症状的 rank"},
    {"silent ranks", "静默的 rank"},
    {"missing ranks", "缺失日志的 rank"},
    {"Timeline", "时间线"},
    {"One row per node; open a node to see its ranks.", "每个节点一行；展开节点可查看其各个 rank。"},
    {"rank", "rank"},
    {"node", "节点"},
    {"silent: stopped logging early", "静默：提前停止输出日志"},
    {"no logs", "无日志"},
    {"error", "错误"},
    {"symptom", "症状"},
    {"warning or other", "警告或其他"},
    {"logged from first to last time stamp", "日志的首末时间"},
    {"events without a time stamp are not placed", "没有时间戳的事件未标出"},
    {"occurrences kept as evidence", "条证据"},
    {"more not shown", "条未显示"},
    {"Environment check", "环境检查"},
    {"step", "步骤"},
    {"status", "状态"},
    {"facts", "信息"},
    {"Environment per node (cluster --check)", "各节点环境（cluster --check）"},
    {"value", "值"},
    {"nodes", "节点"},
    {"Memory", "显存"},
    {"Profile", "性能分析"},
    {"findings", "发现"},
    {"knowledge base", "知识库"},
}};

}  // namespace

std::string_view word(Word w, Lang lang) {
  const auto& p = kWords.at(static_cast<std::size_t>(w));
  return lang == Lang::zh ? p.second : p.first;
}

}  // namespace npu_doctor::html
