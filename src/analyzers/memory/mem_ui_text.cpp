#include "mem_ui_text.hpp"

#include <array>
#include <cstdio>
#include <utility>

#include "byte_size.hpp"

namespace npu_doctor::mem {
namespace {

// Indexed by MemText; {English, Chinese}.
constexpr std::array<std::pair<std::string_view, std::string_view>, static_cast<std::size_t>(MemText::count_)> kTexts = {{
    {"MEMORY", "内存"},
    {"device", "设备"},
    {"samples", "个采样"},
    {"steps", "步"},
    {"peak", "峰值"},
    {"reserved", "reserved"},
    {"capacity", "容量"},
    {"headroom", "余量"},
    {"unknown", "未知"},
    {"fragmentation", "碎片"},
    {"leak", "泄漏"},
    {"no leak", "无泄漏"},
    {"confidence", "置信度"},
    {"per step", "每步"},
    {"out of memory projected at step", "预计耗尽内存的步数"},
    {"OUT OF MEMORY", "内存不足（OOM）"},
    {"classified as", "归类为"},
    {"not classified: add memory samples (docs/mem.md) to tell start, part-way and leak apart",
     "无法归类：请提供内存采样（见 docs/mem.md）以区分启动时、运行中与泄漏"},
    {"FINDINGS", "发现"},
    {"cause", "原因"},
    {"remedies", "解决办法"},
    {"evidence", "证据"},
    {"INPUTS WITH PROBLEMS", "有问题的输入"},
    {"No memory problem found.", "未发现内存问题。"},
    {"No memory samples or out-of-memory messages were found.", "未找到内存采样或内存不足（OOM）信息。"},
    {"gap", "差值"},
    {"threshold", "阈值"},
    {"warning", "警告"},
    {"ok", "正常"},
    {"allocated", "allocated"},
    {"leak trend", "泄漏趋势"},
    {"analysed every", "分析时每隔"},
    {"requested", "申请"},
    {"free", "空闲"},
    {"at start", "启动时"},
    {"part-way", "运行中途"},
    {"at inference", "推理时"},
    {"unknown phase", "阶段未知"},
    {"too few samples after warm-up", "预热后的采样太少"},
    {"the floor does not rise", "底线没有上升"},
    {"the floor does not rise consistently", "底线没有持续上升"},
    {"the growth is within noise", "增长在噪声范围内"},
    {"the last quarter's floor is not above the first's", "最后四分之一的底线不高于最前四分之一"},
    {"lines that are not samples", "行不是有效采样"},
}};

std::string fmt_confidence(double c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.2f", c);
  return buf;
}

}  // namespace

std::string_view mem_text(MemText t, Lang lang) {
  const auto& p = kTexts.at(static_cast<std::size_t>(t));
  return lang == Lang::zh ? p.second : p.first;
}

std::string_view leak_reason_text(std::string_view reason, Lang lang) {
  if (reason == "too_few_samples") return mem_text(MemText::reason_too_few_samples, lang);
  if (reason == "no_rise") return mem_text(MemText::reason_no_rise, lang);
  if (reason == "inconsistent") return mem_text(MemText::reason_inconsistent, lang);
  if (reason == "too_small") return mem_text(MemText::reason_too_small, lang);
  if (reason == "floor_not_raised") return mem_text(MemText::reason_floor_not_raised, lang);
  return reason;
}

std::string_view phase_text(std::string_view phase, Lang lang) {
  if (phase == "start") return mem_text(MemText::phase_start, lang);
  if (phase == "part_way") return mem_text(MemText::phase_part_way, lang);
  if (phase == "inference") return mem_text(MemText::phase_inference, lang);
  return mem_text(MemText::phase_unknown, lang);
}

std::string leak_sentence(int device, double floor_from, int64_t step_from, double floor_to, int64_t step_to,
                          double bytes_per_step, double confidence, const int64_t* projected, Lang lang) {
  const std::string d = std::to_string(device);
  if (lang == Lang::zh) {
    std::string s = "设备 " + d + "：已分配内存的底线从第 " + std::to_string(step_from) + " 步的 " +
                    format_bytes(floor_from) + " 升至第 " + std::to_string(step_to) + " 步的 " + format_bytes(floor_to) +
                    "（每步 " + format_bytes(bytes_per_step) + "，置信度 " + fmt_confidence(confidence) + "）";
    if (projected != nullptr) s += "；预计在第 " + std::to_string(*projected) + " 步耗尽内存";
    return s;
  }
  std::string s = "device " + d + ": the allocated floor rose from " + format_bytes(floor_from) + " at step " +
                  std::to_string(step_from) + " to " + format_bytes(floor_to) + " at step " + std::to_string(step_to) +
                  " (" + format_bytes(bytes_per_step) + " per step, confidence " + fmt_confidence(confidence) + ")";
  if (projected != nullptr) s += "; out of memory projected at step " + std::to_string(*projected);
  return s;
}

std::string fragmentation_sentence(int device, uint64_t gap, int64_t step, bool versus_peak, uint64_t threshold,
                                   Lang lang) {
  const std::string d = std::to_string(device);
  const auto g = format_bytes(static_cast<double>(gap));
  const auto t = format_bytes(static_cast<double>(threshold));
  if (lang == Lang::zh) {
    return "设备 " + d + "：第 " + std::to_string(step) + " 步时缓存（reserved）比" +
           (versus_peak ? "历史峰值分配（max_allocated）" : "当前分配（allocated）") + "多 " + g + "（阈值 " + t + "）";
  }
  return "device " + d + ": at step " + std::to_string(step) + " the cache (reserved) held " + g + " more than " +
         (versus_peak ? "the peak allocation (max_allocated)" : "allocated") + " (threshold " + t + ")";
}

}  // namespace npu_doctor::mem
