#include "analysis_words.hpp"

#include <array>
#include <utility>

namespace npu_doctor::words {
namespace {

// Indexed by W; {English, Chinese}.
constexpr std::array<std::pair<std::string_view, std::string_view>, static_cast<std::size_t>(W::count_)> kWords = {{
    {"OPERATOR HOT SPOTS", "算子热点"},
    {"Top operators by total time", "总耗时最高的算子"},
    {"Top operators by average time", "平均耗时最高的算子"},
    {"op type", "算子类型"},
    {"task type", "任务类型"},
    {"calls", "调用次数"},
    {"total", "总耗时"},
    {"average", "平均耗时"},
    {"share", "占比"},
    {"AI CPU", "AI CPU"},
    {"TIME SPLIT", "时间拆分"},
    {"compute", "计算"},
    {"communication", "通信"},
    {"overlapped", "被掩盖的通信"},
    {"free", "空闲"},
    {"RANKS", "各卡（rank）"},
    {"rank", "rank"},
    {"wait", "等待比"},
    {"exposed comm", "未掩盖通信占比"},
    {"sync", "同步比"},
    {"the other ranks wait for rank", "其他 rank 在等待 rank"},
    {"every rank waits alike: the links or the collective itself are slow", "各 rank 等待相近：链路或集合通信本身慢"},
    {"no communication bottleneck (wait at or below the threshold)", "无通信瓶颈（等待比不高于阈值）"},
    {"COMPILE AND DYNAMIC SHAPE", "编译与动态 shape"},
    {"dynamic-shape tasks", "动态 shape 任务"},
    {"static tasks", "静态任务"},
    {"op compile time", "算子编译耗时"},
    {"FINDINGS", "发现"},
    {"No performance problem crossed a threshold.", "没有指标超过阈值。"},
    {"INPUTS", "输入"},
    {"NOT READ", "未读取"},
    {"COLUMNS THAT COULD NOT BE READ", "无法读取的列"},
    {"source", "来源"},
    {"No profiling table could be read.", "没有可读取的性能数据表。"},
    {"approximate", "近似值"},
    {"ATC MODEL CONVERSION", "ATC 模型转换"},
    {"outcome", "结果"},
    {"failed", "失败"},
    {"succeeded", "成功"},
    {"unknown (no ATC outcome line in the input)", "未知（输入中没有 ATC 结果行）"},
    {"phase", "阶段"},
    {"case", "问题类别"},
    {"OPERATORS", "算子"},
    {"op name", "算子名"},
    {"opset", "opset"},
    {"fusion passes", "融合规则"},
    {"command line read from the log", "日志中的命令行"},
    {"RECOMPILE WITH", "建议的重新转换命令"},
    {"fusion switch file", "融合开关文件"},
    {"NEXT STEPS", "下一步"},
    {"pre-check report", "预检报告"},
    {"unsupported-operator report", "不支持算子报告"},
    {"evidence", "证据"},
    {"remedies", "解决办法"},
    {"none", "无"},
}};

}  // namespace

std::string_view get(W w, Lang lang) {
  const auto& p = kWords.at(static_cast<std::size_t>(w));
  return lang == Lang::zh ? p.second : p.first;
}

}  // namespace npu_doctor::words
