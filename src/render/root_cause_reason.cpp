// Why the root cause was chosen, as a sentence in English or Chinese.
#include <cstdio>
#include <string>

#include "npu_doctor/render.hpp"
#include "report_text.hpp"

namespace npu_doctor {
namespace {

using render_detail::location;
using render_detail::short_label;

std::string list(const DiagnosisReport& r, const std::vector<std::size_t>& items, Lang lang) {
  std::string out;
  const std::size_t shown = std::min<std::size_t>(items.size(), 4);
  for (std::size_t k = 0; k < shown; ++k) {
    if (k > 0) out += lang == Lang::zh ? "、" : "; ";
    out += short_label(r.findings[items[k]], lang);
  }
  if (items.size() > shown) out += lang == Lang::zh ? " 等" : "; …";
  return out;
}

}  // namespace

std::string root_cause_reason(const DiagnosisReport& r, Lang lang) {
  if (!r.root) return {};
  const auto& d = *r.root;
  const Finding& f = r.findings[d.finding];
  const std::string loc = location(f.first());
  const bool zh = lang == Lang::zh;
  std::string s;
  using B = RootCauseDecision::Basis;
  switch (d.basis) {
    case B::sole_error:
      s = zh ? "这是输入中唯一的错误级别发现（" + loc + "）。" : "It is the only error-level finding (" + loc + ").";
      break;
    case B::earliest_decisive:
      s = zh ? "这是最早出现的决定性错误（" + loc + "），之后的错误不属于同一故障段。"
             : "It is the earliest decisive error (" + loc + "); later errors are not part of the same failure.";
      break;
    case B::most_specific:
      s = zh ? "它是第一个故障段（" + loc + " 附近）中 " + std::to_string(d.block_size) + " 个错误里最具体的一个。"
             : "It is the most specific of the " + std::to_string(d.block_size) +
                   " errors in the first failure block (around " + loc + ").";
      break;
    case B::words: {
      char p[64];
      std::snprintf(p, sizeof p, "p = %.2f, %s %.2f", f.words ? f.words->probability : 0.0, zh ? "阈值" : "threshold",
                    f.words ? f.words->root_threshold : 0.0);
      const std::string cat(to_string(f.entry->category));
      s = zh ? "知识库没有识别出任何错误；" + loc + " 处未识别的错误行，其用词指向 " + cat + "（" + p +
                   "）。这只是线索，不是诊断：请阅读这一行。"
             : "No knowledge-base entry recognises an error here; the words of the unrecognised error line at " + loc +
                   " point to " + cat + " (" + p + "). It is a lead, not a diagnosis: read the line.";
      break;
    }
    case B::cluster_culprit:
      s = r.cluster ? cluster_reason(*r.cluster, lang) : std::string();
      break;
    case B::explained_by_hint: {
      const Finding& x = r.findings[*d.explained];
      s = zh ? "“" + f.entry->title.get(lang) + "”（" + loc + "）解释了任务失败时报出的错误 " +
                   short_label(x, lang) + "（" + location(x.first()) + "）。"
             : "\"" + f.entry->title.get(lang) + "\" (" + loc + ") explains the error the job failed with, " +
                   short_label(x, lang) + " (" + location(x.first()) + ").";
      break;
    }
  }
  std::vector<std::size_t> symptoms, wrappers;
  for (std::size_t i : d.consequences) {
    if (d.explained && i == *d.explained) continue;
    (r.findings[i].entry->role == Role::wrapper ? wrappers : symptoms).push_back(i);
  }
  if (!symptoms.empty()) {
    s += zh ? " 另有 " + std::to_string(symptoms.size()) + " 项错误是它的后果：" + list(r, symptoms, lang) + "。"
            : " " + std::to_string(symptoms.size()) + " other error(s) follow from it: " + list(r, symptoms, lang) + ".";
  }
  if (!wrappers.empty()) {
    s += zh ? " 通用封装错误排在其后：" + list(r, wrappers, lang) + "。"
            : " Generic wrappers rank below it: " + list(r, wrappers, lang) + ".";
  }
  if (!d.independent.empty()) {
    s += zh ? " 其他独立错误（排查完根因后再看）：" + list(r, d.independent, lang) + "。"
            : " Independent errors to check afterwards: " + list(r, d.independent, lang) + ".";
  }
  return s;
}

}  // namespace npu_doctor
