// Why a rank was named the culprit, in English or Chinese.
#include <string>

#include "npu_doctor/cluster.hpp"

namespace npu_doctor {
namespace {

std::string who(const ClusterCulprit& c, Lang lang) {
  std::string s = (lang == Lang::zh ? "rank " : "rank ") + std::to_string(c.rank);
  if (!c.host.empty()) s += " (" + c.host + ")";
  return s;
}

std::string list(const std::vector<int>& ranks) {
  std::string s;
  const std::size_t shown = std::min<std::size_t>(ranks.size(), 12);
  for (std::size_t i = 0; i < shown; ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
  if (ranks.size() > shown) s += ", … (" + std::to_string(ranks.size()) + ")";
  return s;
}

}  // namespace

std::string cluster_reason(const ClusterDecision& d, Lang lang) {
  const bool zh = lang == Lang::zh;
  std::string s;
  if (!d.culprit) {
    if (d.symptom_ranks.empty()) {
      return zh ? std::to_string(d.ranks) + " 个 rank 都没有报告错误。" : "None of the " + std::to_string(d.ranks) + " ranks reports an error.";
    }
    return zh ? std::to_string(d.ranks) + " 个 rank 都报告了超时或没有错误，没有哪个 rank 明显是源头；请检查网络和各 rank 的执行顺序。"
              : "None of the " + std::to_string(d.ranks) +
                    " ranks stands out: they all report timeouts or nothing; check the network and whether all ranks run the same collectives.";
  }
  const auto& c = *d.culprit;
  const std::string title = c.entry ? c.entry->title.get(lang) : std::string();
  switch (d.basis) {
    case ClusterDecision::Basis::first_error:
      s = zh ? who(c, lang) + " 上的“" + title + "”是最早出现的、不属于通信超时的决定性错误"
             : "On " + who(c, lang) + ", \"" + title + "\" is the earliest decisive error that is not a communication symptom";
      if (c.time) s += zh ? "（" + c.time->text + "）" : " (" + c.time->text + ")";
      s += zh ? "。" : ".";
      if (d.competing_ranks > 0) {
        s += zh ? " 另有 " + std::to_string(d.competing_ranks) + " 个 rank 在时钟偏差范围内也报了错，按被其他 rank 指向的次数和错误类别选择了它。"
                : " " + std::to_string(d.competing_ranks) +
                      " other rank(s) erred within the clock skew; it was chosen by how many ranks point at it, then by category.";
      }
      break;
    case ClusterDecision::Basis::pointed_at:
      s = zh ? std::to_string(d.pointing_ranks) + " 个 rank 的超时都指向 " + who(c, lang) + "（它们在等待的对端），而它自己没有报错：它很可能被杀死或挂死了。"
             : std::to_string(d.pointing_ranks) + " rank(s) time out waiting for " + who(c, lang) +
                   " (the peer their timeouts name) and it reports no error itself: it was probably killed or hung.";
      break;
    case ClusterDecision::Basis::silent:
      s = zh ? who(c, lang) + " 没有报错，但它的日志在其他 rank 超时之前就停止了"
             : who(c, lang) + " reports no error, but its log stops before the other ranks time out";
      if (c.time) s += zh ? "（最后时间 " + c.time->text + "）" : " (last line at " + c.time->text + ")";
      s += zh ? "。" : ".";
      break;
    case ClusterDecision::Basis::missing:
      s = zh ? who(c, lang) + " 没有任何日志，而其他 rank 都超时了。" : who(c, lang) + " left no logs at all while the others timed out.";
      break;
    case ClusterDecision::Basis::none:
      break;
  }
  if (!d.symptom_ranks.empty()) {
    s += zh ? " 只有通信超时等症状的 rank：" + list(d.symptom_ranks) + "。"
            : " Ranks with only timeouts or other symptoms: " + list(d.symptom_ranks) + ".";
  }
  if (!d.silent_ranks.empty() && d.basis != ClusterDecision::Basis::silent) {
    s += zh ? " 未报错就停止的 rank：" + list(d.silent_ranks) + "。" : " Ranks that went silent: " + list(d.silent_ranks) + ".";
  }
  if (!d.missing_ranks.empty() && d.basis != ClusterDecision::Basis::missing) {
    s += zh ? " 没有日志的 rank：" + list(d.missing_ranks) + "。" : " Ranks without logs: " + list(d.missing_ranks) + ".";
  }
  return s;
}

}  // namespace npu_doctor
