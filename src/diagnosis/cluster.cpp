// Cross-rank culprit search over per-input timelines (docs/cluster.md):
//  1. the earliest rank whose first decisive error is not a communication symptom
//     (timeouts are `symptom_of` entries), ties within the clock skew broken by how many
//     ranks point at it, then the seed's category order;
//  2. else the rank the others' timeouts name as the peer they waited for (remote rank [N]);
//  3. else a rank that went silent (no error, its log ends before the others time out);
//  4. else a rank with no logs at all.
#include "cluster.hpp"
#include "npu_doctor/text.hpp"
#include "npu_doctor/kb_ids.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

namespace npu_doctor {
namespace {

struct RankRecord {
  int rank = -1;
  std::string host;
  std::vector<std::pair<const InputReport*, const TimelineEvent*>> events;
  std::optional<Timestamp> first_time;
  std::optional<Timestamp> last_time;
};

bool error_level(const TimelineEvent& e) {
  return e.entry->role != Role::hint && e.entry->severity >= Severity::error && (!e.low_level || e.entry->any_level);
}

// A decisive, non-symptom error: what a culprit rank shows.
bool decisive(const TimelineEvent& e) {
  return error_level(e) && e.entry->role == Role::cause && e.entry->symptom_of.empty() &&
         e.entry->category != Category::other;
}

// A communication timeout or other consequence that every rank shows after a failure.
bool symptom(const TimelineEvent& e) {
  return error_level(e) && (!e.entry->symptom_of.empty() || e.entry->role == Role::symptom);
}

// The first event of the record satisfying `pred`, by time when dated, else by order.
std::optional<std::pair<const InputReport*, const TimelineEvent*>> first_of(
    const RankRecord& r, bool (*pred)(const TimelineEvent&)) {
  std::optional<std::pair<const InputReport*, const TimelineEvent*>> best;
  for (const auto& pe : r.events) {
    if (!pred(*pe.second)) continue;
    if (!best) {
      best = pe;
      continue;
    }
    const auto& a = pe.second->time;
    const auto& b = best->second->time;
    if (dated(a) && dated(b) && a->micros < b->micros) best = pe;
  }
  return best;
}

// The most specific decisive error of the failure block that `first` opens on its rank
// (same input within 50 lines): "NPU out of memory ..." rather than the ERR00006 before it.
std::pair<const InputReport*, const TimelineEvent*> most_specific_near(
    const RankRecord& r, std::pair<const InputReport*, const TimelineEvent*> first) {
  auto best = first;
  for (const auto& pe : r.events) {
    if (pe.first != first.first || !decisive(*pe.second)) continue;
    const uint64_t a = pe.second->line, b = first.second->line;
    if ((a > b ? a - b : b - a) > 50) continue;
    const TimelineEvent& x = *pe.second;
    const TimelineEvent& y = *best.second;
    if (x.specificity > y.specificity ||
        (x.specificity == y.specificity && x.entry->priority > y.entry->priority)) {
      best = pe;
    }
  }
  return best;
}

ClusterCulprit culprit_from(const RankRecord& r, const InputReport* in, const TimelineEvent* ev) {
  ClusterCulprit c;
  c.rank = r.rank;
  c.host = r.host;
  c.entry = ev->entry;
  c.code = ev->code;
  c.time = ev->time;
  c.path = in->path;
  c.line = ev->line;
  c.text = ev->text;
  return c;
}

}  // namespace

std::string_view to_string(ClusterDecision::Basis b) {
  switch (b) {
    case ClusterDecision::Basis::first_error: return "first_error";
    case ClusterDecision::Basis::pointed_at: return "pointed_at";
    case ClusterDecision::Basis::silent: return "silent";
    case ClusterDecision::Basis::missing: return "missing";
    case ClusterDecision::Basis::none: return "none";
  }
  return "none";
}

std::optional<ClusterDecision> analyze_cluster(const InputStore& inputs, const KnowledgeBase& kb,
                                               const ClusterOptions& options) {
  return analyze_cluster(inputs, MemberList::first(inputs.size()), kb, options);
}

std::optional<ClusterDecision> analyze_cluster(const InputStore& inputs,
                                               const MemberList& which, const KnowledgeBase& kb,
                                               const ClusterOptions& options) {
  std::map<int, RankRecord> ranks;
  // The inputs whose events the records point at (the store gives copies); a deque does
  // not move them as it grows. Inputs without events are not kept.
  std::deque<InputReport> with_events;
  std::optional<int> declared_size = options.world_size;
  for (std::size_t index : which) {
    if (index >= inputs.size()) continue;
    InputReport copy = inputs[index];
    if (!copy.rank) continue;
    const InputReport& in = copy.timeline.events.empty() ? copy : with_events.emplace_back(std::move(copy));
    RankRecord& r = ranks[*in.rank];
    r.rank = *in.rank;
    if (r.host.empty()) r.host = in.host;
    for (const auto& ev : in.timeline.events) {
      r.events.emplace_back(&in, &ev);
      if (!options.world_size) {
        if (auto ws = parse_number<int>(ev.capture("world_size")); ws && (!declared_size || *ws > *declared_size)) declared_size = ws;
      }
    }
    const auto& f = in.timeline.first_time;
    const auto& l = in.timeline.last_time;
    if (dated(f) && (!dated(r.first_time) || f->micros < r.first_time->micros)) r.first_time = f;
    if (dated(l) && (!dated(r.last_time) || l->micros > r.last_time->micros)) r.last_time = l;
  }
  if (ranks.size() < 2) return std::nullopt;

  ClusterDecision d;
  d.ranks = static_cast<int>(ranks.size());

  // Who points at whom: "remote rank [N]", "Waiting peer rank: N", socket "rank[N]".
  std::map<int, std::set<int>> pointed_by;
  for (const auto& [rank, r] : ranks) {
    for (const auto& [in, ev] : r.events) {
      if (auto peer = parse_number<int>(ev->capture("peer_rank")); peer && *peer != rank) pointed_by[*peer].insert(rank);
    }
  }
  auto votes = [&](int rank) { return static_cast<int>(pointed_by.count(rank) ? pointed_by[rank].size() : 0); };

  // Ranks with a decisive error, and ranks with only symptoms.
  struct Candidate {
    const RankRecord* record;
    const InputReport* input;
    const TimelineEvent* event;
  };
  std::vector<Candidate> candidates;
  std::optional<int64_t> first_symptom_time;
  for (const auto& [rank, r] : ranks) {
    if (auto pe = first_of(r, decisive)) {
      candidates.push_back({&r, pe->first, pe->second});
    } else if (auto se = first_of(r, symptom)) {
      d.symptom_ranks.push_back(rank);
      if (dated(se->second->time) && (!first_symptom_time || se->second->time->micros < *first_symptom_time)) {
        first_symptom_time = se->second->time->micros;
      }
    }
  }

  // Silent: no error at all and the log ends before the others' first timeout.
  for (const auto& [rank, r] : ranks) {
    const bool any_error = std::any_of(r.events.begin(), r.events.end(),
                                       [](const auto& pe) { return error_level(*pe.second); });
    if (any_error) continue;
    if (first_symptom_time && dated(r.last_time) && r.last_time->micros + options.skew_us < *first_symptom_time) {
      d.silent_ranks.push_back(rank);
    } else if (votes(rank) > 0) {
      d.silent_ranks.push_back(rank);  // named by others, never complained itself
    }
  }

  // Missing: expected ranks (0..size-1) without any input, while others time out.
  if (declared_size && *declared_size <= 65536) {
    for (int i = 0; i < *declared_size; ++i) {
      if (!ranks.count(i)) d.missing_ranks.push_back(i);
    }
  }

  if (!candidates.empty()) {
    // Rule 1: the earliest decisive error; ranks within the skew compete.
    const bool all_dated = std::all_of(candidates.begin(), candidates.end(),
                                       [](const Candidate& c) { return dated(c.event->time); });
    std::vector<Candidate> close = candidates;
    if (all_dated) {
      const int64_t earliest =
          std::min_element(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
            return a.event->time->micros < b.event->time->micros;
          })->event->time->micros;
      std::erase_if(close, [&](const Candidate& c) { return c.event->time->micros > earliest + options.skew_us; });
    }
    const auto best = *std::min_element(close.begin(), close.end(), [&](const Candidate& a, const Candidate& b) {
      if (votes(a.record->rank) != votes(b.record->rank)) return votes(a.record->rank) > votes(b.record->rank);
      const int pa = category_priority(a.event->entry->category), pb = category_priority(b.event->entry->category);
      if (pa != pb) return pa < pb;
      if (all_dated && a.event->time->micros != b.event->time->micros) return a.event->time->micros < b.event->time->micros;
      return a.record->rank < b.record->rank;
    });
    const auto chosen = most_specific_near(*best.record, {best.input, best.event});
    d.culprit = culprit_from(*best.record, chosen.first, chosen.second);
    d.basis = ClusterDecision::Basis::first_error;
    d.competing_ranks = static_cast<int>(close.size()) - 1;
    d.pointing_ranks = votes(best.record->rank);
    if (close.size() == 1 && (all_dated || candidates.size() == 1)) d.confidence = "high";
    else if (d.pointing_ranks > 0 || close.size() <= 2) d.confidence = "medium";
    else d.confidence = "low";
    return d;
  }

  // Rule 2: the rank the others wait for.
  if (!pointed_by.empty()) {
    const auto top = std::max_element(pointed_by.begin(), pointed_by.end(), [](const auto& a, const auto& b) {
      return a.second.size() < b.second.size() || (a.second.size() == b.second.size() && a.first > b.first);
    });
    const int rank = top->first;
    ClusterCulprit c;
    c.rank = rank;
    if (auto it = ranks.find(rank); it != ranks.end()) {
      c.host = it->second.host;
      c.time = it->second.last_time;
    }
    const bool has_logs = ranks.count(rank) > 0;
    c.entry = &kb.entry(has_logs ? kb_id::cluster::silent_rank : kb_id::cluster::missing_rank);
    d.culprit = c;
    d.basis = ClusterDecision::Basis::pointed_at;
    d.pointing_ranks = static_cast<int>(top->second.size());
    const std::size_t pointing_total = [&] {
      std::set<int> all;
      for (const auto& [peer, set] : pointed_by) all.insert(set.begin(), set.end());
      return all.size();
    }();
    d.confidence = top->second.size() * 2 > pointing_total && top->second.size() >= 2 ? "high" : "medium";
    return d;
  }

  // Rule 3 and 4: silence, then absence, while others time out.
  if (!d.symptom_ranks.empty()) {
    if (!d.silent_ranks.empty()) {
      const int rank = *std::min_element(d.silent_ranks.begin(), d.silent_ranks.end(), [&](int a, int b) {
        const auto& ta = ranks[a].last_time;
        const auto& tb = ranks[b].last_time;
        if (dated(ta) && dated(tb) && ta->micros != tb->micros) return ta->micros < tb->micros;
        return a < b;
      });
      ClusterCulprit c;
      c.rank = rank;
      c.host = ranks[rank].host;
      c.time = ranks[rank].last_time;
      c.entry = &kb.entry(kb_id::cluster::silent_rank);
      d.culprit = c;
      d.basis = ClusterDecision::Basis::silent;
      d.confidence = d.silent_ranks.size() == 1 ? "medium" : "low";
      return d;
    }
    if (!d.missing_ranks.empty()) {
      ClusterCulprit c;
      c.rank = d.missing_ranks.front();
      c.entry = &kb.entry(kb_id::cluster::missing_rank);
      d.culprit = c;
      d.basis = ClusterDecision::Basis::missing;
      d.confidence = d.missing_ranks.size() == 1 ? "medium" : "low";
      return d;
    }
  }
  return d;
}

}  // namespace npu_doctor
