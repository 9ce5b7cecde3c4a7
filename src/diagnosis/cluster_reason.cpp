// Why a rank was named the culprit, in English or Chinese: whole sentences from data/ui.yaml
// (cluster.reason.*), one per case, with the rank, title and time as named placeholders.
#include <string>

#include "cluster.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor {
namespace {

// "rank 3 (node-a)", the same in both languages.
std::string who(const ClusterCulprit& c) {
  std::string s = "rank " + std::to_string(c.rank);
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
  using ui::Key;
  if (!d.culprit) {
    return ui::text(d.symptom_ranks.empty() ? Key::cluster_reason_no_errors : Key::cluster_reason_no_culprit, lang,
                    fmt::arg("ranks", d.ranks));
  }
  const auto& c = *d.culprit;
  const std::string title = c.entry ? c.entry->title.get(lang) : std::string();
  std::string s;
  switch (d.basis) {
    case ClusterDecision::Basis::first_error:
      s = c.time ? ui::text(Key::cluster_reason_first_error_at, lang, fmt::arg("who", who(c)), fmt::arg("title", title),
                            fmt::arg("time", c.time->text))
                 : ui::text(Key::cluster_reason_first_error, lang, fmt::arg("who", who(c)), fmt::arg("title", title));
      if (d.competing_ranks > 0) s += " " + ui::text(Key::cluster_reason_competing, lang, fmt::arg("n", d.competing_ranks));
      break;
    case ClusterDecision::Basis::pointed_at:
      s = ui::text(Key::cluster_reason_pointed_at, lang, fmt::arg("n", d.pointing_ranks), fmt::arg("who", who(c)));
      break;
    case ClusterDecision::Basis::silent:
      s = c.time ? ui::text(Key::cluster_reason_silent_at, lang, fmt::arg("who", who(c)), fmt::arg("time", c.time->text))
                 : ui::text(Key::cluster_reason_silent, lang, fmt::arg("who", who(c)));
      break;
    case ClusterDecision::Basis::missing:
      s = ui::text(Key::cluster_reason_missing, lang, fmt::arg("who", who(c)));
      break;
    case ClusterDecision::Basis::none:
      break;
  }
  // The other ranks, a sentence each, after a space in both languages.
  if (!d.symptom_ranks.empty()) s += " " + ui::text(Key::cluster_reason_symptom_ranks, lang, fmt::arg("ranks", list(d.symptom_ranks)));
  if (!d.silent_ranks.empty() && d.basis != ClusterDecision::Basis::silent)
    s += " " + ui::text(Key::cluster_reason_silent_ranks, lang, fmt::arg("ranks", list(d.silent_ranks)));
  if (!d.missing_ranks.empty() && d.basis != ClusterDecision::Basis::missing)
    s += " " + ui::text(Key::cluster_reason_missing_ranks, lang, fmt::arg("ranks", list(d.missing_ranks)));
  return s;
}

}  // namespace npu_doctor
