#include "net/net_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/finding_set.hpp"
#include "npu_doctor/kb_ids.hpp"

namespace npu_doctor::net {
namespace {

using Captures = std::vector<std::pair<std::string, std::string>>;

// Nearest-rank quantile q (0..1) of non-empty `v`.
double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
  return v[std::clamp<std::size_t>(rank, 1, v.size()) - 1];
}

std::string ms_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", v);
  return buf;
}

std::string who(const std::string& from) { return from.empty() ? "this host" : from; }

bool broken(const LinkResult& l) { return l.status != LinkStatus::ok && l.status != LinkStatus::not_tested; }

class Analyser {
 public:
  Analyser(NetReport& r, const KnowledgeBase& kb) : r_(r), set_(kb) {}

  void references() {
    std::vector<double> rates, rtts;
    for (const auto& l : r_.links) {
      if (l.status != LinkStatus::ok) continue;
      for (const Throughput* t : {&l.send, &l.receive}) {
        if (t->measured) rates.push_back(t->bits_per_second);
      }
      if (l.rtt && l.rtt->answered > 0) rtts.push_back(l.rtt->p50_ms);
    }
    if (r_.analysis.expect_bps) {
      r_.reference_bps = r_.analysis.expect_bps;
      r_.reference_source = "given";
    } else if (rates.size() >= kMinSamples) {
      // What the better links reach: with one bad host of three, most links are slow.
      r_.reference_bps = quantile(rates, 0.75);
      r_.reference_source = "upper quartile";
    }
    if (rtts.size() >= kMinSamples) r_.reference_rtt_ms = quantile(rtts, 0.25);
  }

  // What is wrong with a link, as (entry id, evidence text, captures); empty when nothing.
  struct Problem {
    EntryId id;
    std::string text;
    Captures caps;
  };
  std::vector<Problem> judge(const LinkResult& l) const {
    std::vector<Problem> out;
    Captures base = {{"from", who(l.from)}, {"to", l.to}, {"status", std::string(to_string(l.status))}};
    if (broken(l)) {
      const bool silent = l.status == LinkStatus::no_answer || l.status == LinkStatus::not_npu_doctor;
      Captures c = base;
      c.emplace_back("error", l.error);
      out.push_back({silent ? kb_id::net::no_answer : kb_id::net::unreachable, l.error, std::move(c)});
      return out;
    }
    if (l.status != LinkStatus::ok) return out;
    if (r_.reference_bps) {
      const double limit = r_.analysis.min_ratio * *r_.reference_bps;
      std::string what;
      Captures c = base;
      for (const auto& [name, t] : {std::pair<const char*, const Throughput*>{"send", &l.send}, {"receive", &l.receive}}) {
        if (!t->measured) continue;
        c.emplace_back(std::string(name) + "_bits_per_second", std::to_string(static_cast<long long>(t->bits_per_second)));
        if (t->bits_per_second < limit) what += (what.empty() ? "" : ", ") + std::string(name) + " " + format_rate(t->bits_per_second);
      }
      if (!what.empty()) {
        c.emplace_back("expected", format_rate(*r_.reference_bps) + (r_.reference_source == "given" ? " (given)" : " (upper quartile of all links)"));
        out.push_back({kb_id::net::slow_link, what + ", expected about " + format_rate(*r_.reference_bps), std::move(c)});
      }
    }
    if (l.rtt) {
      const double p50 = l.rtt->p50_ms;
      bool high = false;
      std::string why;
      if (l.rtt->answered < l.rtt->sent) {
        high = true;
        why = std::to_string(l.rtt->sent - l.rtt->answered) + " of " + std::to_string(l.rtt->sent) + " pings unanswered";
      }
      if (l.rtt->answered > 0 && r_.analysis.max_rtt_ms && p50 > *r_.analysis.max_rtt_ms) {
        high = true;
        why += (why.empty() ? "" : ", ") + std::string("RTT p50 ") + ms_text(p50) + " > " + ms_text(*r_.analysis.max_rtt_ms);
      } else if (l.rtt->answered > 0 && r_.reference_rtt_ms &&
                 p50 > std::max(4 * *r_.reference_rtt_ms, *r_.reference_rtt_ms + 1.0)) {
        high = true;
        why += (why.empty() ? "" : ", ") + std::string("RTT p50 ") + ms_text(p50) + " (lower quartile of all links " +
               ms_text(*r_.reference_rtt_ms) + ")";
      }
      if (high) {
        Captures c = base;
        c.emplace_back("rtt_p50_ms", ms_text(p50));
        c.emplace_back("rtt_p99_ms", ms_text(l.rtt->p99_ms));
        c.emplace_back("pings_answered", std::to_string(l.rtt->answered) + "/" + std::to_string(l.rtt->sent));
        out.push_back({kb_id::net::high_latency, why, std::move(c)});
      }
    }
    return out;
  }

  void raise(const LinkResult& l) {
    for (auto& p : judge(l)) set_.add(p.id, evidence_at(who(l.from) + " -> " + l.to, 0, p.text, std::move(p.caps)));
  }

  void direct() {
    references();
    for (const auto& l : r_.links) raise(l);
  }

  void matrix(const std::vector<std::pair<std::size_t, std::size_t>>& pair_hosts) {
    references();
    const std::size_t n = r_.hosts.size();
    std::vector<bool> bad_pair(r_.links.size());
    for (std::size_t k = 0; k < r_.links.size(); ++k) bad_pair[k] = !judge(r_.links[k]).empty();
    std::vector<bool> bad_host(n, false);
    if (n >= 3) {
      for (std::size_t h = 0; h < n; ++h) {
        std::size_t involved = 0, bad = 0, good_elsewhere = 0;
        for (std::size_t k = 0; k < r_.links.size(); ++k) {
          const bool mine = pair_hosts[k].first == h || pair_hosts[k].second == h;
          if (r_.links[k].status == LinkStatus::not_tested) continue;
          if (mine) {
            ++involved;
            if (bad_pair[k]) ++bad;
          } else if (!bad_pair[k]) {
            ++good_elsewhere;
          }
        }
        if (involved >= 2 && bad == involved && good_elsewhere > 0) bad_host[h] = true;
      }
    }
    for (std::size_t h = 0; h < n; ++h) {
      if (!bad_host[h]) continue;
      r_.bad_hosts.push_back(r_.hosts[h].text());
      for (std::size_t k = 0; k < r_.links.size(); ++k) {
        if (pair_hosts[k].first != h && pair_hosts[k].second != h) continue;
        const LinkResult& l = r_.links[k];
        const auto problems = judge(l);
        std::string text;
        for (const auto& p : problems) text += (text.empty() ? "" : "; ") + p.text;
        set_.add(kb_id::net::bad_host, evidence_at(who(l.from) + " -> " + l.to, 0, text,
                                                   {{"host", r_.hosts[h].text()},
                                                    {"from", who(l.from)},
                                                    {"to", l.to},
                                                    {"status", std::string(to_string(l.status))}}));
      }
    }
    // The links the bad hosts do not explain.
    for (std::size_t k = 0; k < r_.links.size(); ++k) {
      if (bad_host[pair_hosts[k].first] || bad_host[pair_hosts[k].second]) continue;
      raise(r_.links[k]);
    }
    // This host's own reach: a host others reach but this one cannot.
    for (std::size_t h = 0; h < r_.control.size(); ++h) {
      if (bad_host[h] || !broken(r_.control[h])) continue;
      set_.add(r_.control[h].status == LinkStatus::no_answer || r_.control[h].status == LinkStatus::not_npu_doctor
                   ? kb_id::net::no_answer
                   : kb_id::net::unreachable,
               evidence_at("this host -> " + r_.control[h].to, 0, r_.control[h].error,
                                 {{"from", "this host"},
                                  {"to", r_.control[h].to},
                                  {"status", std::string(to_string(r_.control[h].status))},
                                  {"error", r_.control[h].error}}));
    }
  }

  void finish() {
    r_.findings = set_.take_worst_first();
  }

 private:
  NetReport& r_;
  FindingSet set_;
};

}  // namespace

std::string format_rate(double bps) {
  char buf[48];
  if (bps >= 1e9) std::snprintf(buf, sizeof buf, "%.2f Gbit/s", bps / 1e9);
  else if (bps >= 1e6) std::snprintf(buf, sizeof buf, "%.1f Mbit/s", bps / 1e6);
  else std::snprintf(buf, sizeof buf, "%.1f kbit/s", bps / 1e3);
  return buf;
}

NetReport analyse_direct(std::vector<Endpoint> targets, std::vector<LinkResult> links, const LinkTestOptions& link,
                         const NetAnalysisOptions& options, const KnowledgeBase& kb) {
  NetReport r;
  r.kb_version = kb.version();
  r.mode = "direct";
  r.link_options = link;
  r.analysis = options;
  r.hosts = std::move(targets);
  r.links = std::move(links);
  Analyser a(r, kb);
  a.direct();
  a.finish();
  return r;
}

NetReport analyse_matrix(MatrixResult m, const LinkTestOptions& link, const NetAnalysisOptions& options,
                         const KnowledgeBase& kb) {
  NetReport r;
  r.kb_version = kb.version();
  r.mode = "matrix";
  r.link_options = link;
  r.analysis = options;
  r.hosts = std::move(m.hosts);
  r.control = std::move(m.control);
  r.links = std::move(m.pairs);
  Analyser a(r, kb);
  a.matrix(m.pair_hosts);
  a.finish();
  return r;
}

}  // namespace npu_doctor::net
