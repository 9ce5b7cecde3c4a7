// Why the root cause was chosen, as a sentence in English or Chinese. It says how the
// root cause was chosen and how many findings follow from it; which ones, is said once,
// by each finding's relation (the report's lists, the JSON's findings[].relation).
#include <cstdio>
#include <string>

#include "../analyzers/memory/byte_size.hpp"
#include "npu_doctor/render.hpp"
#include "report_text.hpp"
#include "root_cause_reason.hpp"

namespace npu_doctor {
namespace {

using render_detail::short_label;

std::string_view capture(const Evidence& e, std::string_view name) {
  for (const auto& [k, v] : e.captures) {
    if (k == name) return v;
  }
  return {};
}

std::string bytes(const Evidence& e, std::string_view name) {
  const auto b = mem::parse_byte_size(capture(e, name));
  return b ? mem::format_bytes(static_cast<double>(*b)) : std::string(capture(e, name));
}

// What the allocator's numbers say, in the words of `mem analyze`'s rules (docs/mem.md).
std::string oom_sentence(const Evidence& e, const std::string& loc, bool zh) {
  const auto total = mem::parse_byte_size(capture(e, "total"));
  const auto reserved = mem::parse_byte_size(capture(e, "reserved"));
  const auto free_b = mem::parse_byte_size(capture(e, "free"));
  if (capture(e, "classified_by") == "held_elsewhere" && total && reserved && free_b && *total > *reserved + *free_b) {
    const std::string elsewhere = mem::format_bytes(static_cast<double>(*total - *reserved - *free_b));
    return zh ? "内存不足报错（" + loc + "）中分配器的数字：共 " + bytes(e, "total") + "，PyTorch 预留 " +
                    bytes(e, "reserved") + "，空闲 " + bytes(e, "free") + "，因此有 " + elsewhere +
                    " 被分配器之外占用（与 mem analyze 的分类规则相同）。"
              : "The allocator's numbers on the out-of-memory message (" + loc + "): " + bytes(e, "total") +
                    " total, " + bytes(e, "reserved") + " reserved by PyTorch, " + bytes(e, "free") + " free, so " +
                    elsewhere + " is held outside the allocator (the rule `mem analyze` applies).";
  }
  return zh ? "内存不足报错（" + loc + "）中分配器的数字：预留 " + bytes(e, "reserved") + "，已分配 " +
                  bytes(e, "allocated") + "，缓存中未用的部分本可容纳申请的 " + bytes(e, "requested") +
                  "（与 mem analyze 的分类规则相同）。"
            : "The allocator's numbers on the out-of-memory message (" + loc + "): " + bytes(e, "reserved") +
                  " reserved, " + bytes(e, "allocated") + " allocated: the unused cache could have held the " +
                  bytes(e, "requested") + " requested (the rule `mem analyze` applies).";
}

}  // namespace

namespace render_detail {

std::string reason_text(const std::vector<Finding>& findings, const std::optional<RootCauseDecision>& root,
                        const std::optional<ClusterDecision>& cluster, Lang lang, const PathNames* names) {
  if (!root) return {};
  const auto& d = *root;
  auto loc_of = [&](const Evidence& e) { return names ? names->location(e) : location(e); };
  const Finding& f = findings[d.finding];
  const std::string loc = loc_of(f.first());
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
      s = cluster ? cluster_reason(*cluster, lang) : std::string();
      break;
    case B::explained_by_hint: {
      const Finding& x = findings[*d.explained];
      s = zh ? "“" + f.entry->title.get(lang) + "”（" + loc + "）解释了任务失败时报出的错误 " +
                   short_label(x, lang) + "（" + loc_of(x.first()) + "）。"
             : "\"" + f.entry->title.get(lang) + "\" (" + loc + ") explains the error the job failed with, " +
                   short_label(x, lang) + " (" + loc_of(x.first()) + ").";
      break;
    }
    case B::oom_classified:
      s = oom_sentence(f.first(), loc, zh);
      break;
  }
  std::size_t symptoms = 0, wrappers = 0;
  for (std::size_t i : d.consequences) {
    if (d.explained && i == *d.explained) continue;
    ++(findings[i].entry->role == Role::wrapper ? wrappers : symptoms);
  }
  const std::size_t independent = d.independent.size();
  if (symptoms + wrappers + independent == 0) return s;
  if (zh) {
    std::string parts;
    if (symptoms > 0) parts += std::to_string(symptoms) + " 项错误是它的后果";
    if (wrappers > 0) parts += (parts.empty() ? "" : "，") + std::to_string(wrappers) + " 项通用封装错误排在其后";
    if (independent > 0) parts += (parts.empty() ? "" : "，") + std::to_string(independent) + " 项独立错误请在根因之后排查";
    return s + " " + parts + "（见下方列表）。";
  }
  std::string parts;
  auto add = [&](const std::string& p) { parts += (parts.empty() ? "" : "; ") + p; };
  if (symptoms > 0) add(std::to_string(symptoms) + (symptoms == 1 ? " error follows" : " errors follow") + " from it");
  if (wrappers > 0) add(std::to_string(wrappers) + (wrappers == 1 ? " generic wrapper ranks" : " generic wrappers rank") + " below it");
  if (independent > 0) add(std::to_string(independent) + (independent == 1 ? " independent error is" : " independent errors are") + " to check afterwards");
  return s + " " + parts + " (listed below).";
}

}  // namespace render_detail

std::string root_cause_reason(const DiagnosisReport& r, Lang lang) {
  return render_detail::reason_text(r.findings, r.root, r.cluster, lang, nullptr);
}

std::string root_cause_reason(const IncidentReport& r, Lang lang) {
  return render_detail::reason_text(r.findings, r.root, r.cluster, lang, nullptr);
}

}  // namespace npu_doctor
