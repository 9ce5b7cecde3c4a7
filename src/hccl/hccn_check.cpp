#include "hccn_check.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "core/finding_set.hpp"
#include "hccl_vars.hpp"
#include "core/text_util.hpp"
#include "npu_doctor/kb_ids.hpp"

namespace npu_doctor::hccl {
namespace {

using Captures = std::vector<std::pair<std::string, std::string>>;

Evidence at(const HccnLine& l, Captures caps) { return evidence_at(l.source, l.line, l.text, std::move(caps)); }

Captures device_caps(const HccnNode& n, const HccnDevice& d) {
  return {{"node", n.name}, {"device", std::to_string(d.id)}};
}

}  // namespace

HccnReport check_hccn(std::vector<HccnNode> nodes, const KnowledgeBase& kb) {
  FindingSet set(kb);
  HccnReport r;
  r.kb_version = kb.version();
  std::map<std::string, std::pair<const HccnNode*, const HccnDevice*>> ips;
  std::map<int, std::vector<std::pair<const HccnNode*, const HccnDevice*>>> tls;
  std::set<const HccnDevice*> reported_ip;
  for (const auto& n : nodes) {
    for (const auto& d : n.devices) {
      if (d.link && checks::to_lower(*d.link) != "up") {
        auto caps = device_caps(n, d);
        caps.emplace_back("link", *d.link);
        caps.emplace_back("check", "hccn_tool -i " + std::to_string(d.id) + " -link -g");
        set.add(kb_id::net::roce_link_down, at(d.link_at, std::move(caps)));
      }
      if (d.health && classify_health(*d.health) == "fault") {
        auto caps = device_caps(n, d);
        caps.emplace_back("health", *d.health);
        set.add(kb_id::net::roce_net_unhealthy, at(d.health_at, std::move(caps)));
      }
      if (d.ip_not_set || (d.ip && !is_ip_address(*d.ip))) {
        auto caps = device_caps(n, d);
        caps.emplace_back("ip", d.ip.value_or("(none)"));
        caps.emplace_back("fix", "hccn_tool -i " + std::to_string(d.id) + " -ip -s address <ip> netmask <mask>");
        set.add(kb_id::net::roce_ip_missing, at(d.ip_at, std::move(caps)));
      } else if (d.ip) {
        auto [it, fresh] = ips.emplace(*d.ip, std::make_pair(&n, &d));
        if (!fresh) {
          const auto [first_node, first_device] = it->second;
          auto report = [&](const HccnNode& xn, const HccnDevice& xd, const HccnNode& yn, const HccnDevice& yd) {
            auto caps = device_caps(xn, xd);
            caps.emplace_back("ip", *d.ip);
            caps.emplace_back("also", yn.name + " device " + std::to_string(yd.id));
            set.add(kb_id::net::roce_ip_duplicate, at(xd.ip_at, std::move(caps)));
          };
          if (reported_ip.insert(first_device).second) report(*first_node, *first_device, n, d);
          report(n, d, *first_node, *first_device);
        }
      }
      if (d.tls_switch) tls[*d.tls_switch].emplace_back(&n, &d);
      std::size_t downs = 0;
      const HccnLinkEvent* last_down = nullptr;
      for (const auto& e : d.link_events) {
        if (!e.up) {
          ++downs;
          last_down = &e;
        }
      }
      if (downs > 0) {
        auto caps = device_caps(n, d);
        caps.emplace_back("link_down_events", std::to_string(downs));
        caps.emplace_back("last_down", last_down->time);
        if (d.link_up_count) caps.emplace_back("link_up_count", std::to_string(*d.link_up_count));
        set.add(kb_id::net::roce_link_flapped, at(last_down->where, std::move(caps)));
      }
      for (const auto& e : d.errors) set.add(kb_id::net::hccn_query_failed, at(e, device_caps(n, d)));
    }
  }
  if (tls.size() > 1) {
    // The less common setting stands out; show every NIC of it and one of the other.
    std::vector<std::pair<int, std::size_t>> counts;
    for (const auto& [v, devs] : tls) counts.emplace_back(v, devs.size());
    std::sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    for (const auto& [value, count] : counts) {
      const auto& devs = tls[value];
      const std::size_t show = value == counts.front().first ? 1 : devs.size();
      for (std::size_t i = 0; i < show; ++i) {
        auto caps = device_caps(*devs[i].first, *devs[i].second);
        caps.emplace_back("tls_switch", std::to_string(value));
        caps.emplace_back("nics_with_this_setting", std::to_string(count));
        set.add(kb_id::net::roce_tls_inconsistent, at(devs[i].second->tls_at, std::move(caps)));
      }
    }
  }
  r.nodes = std::move(nodes);
  r.findings = set.take_worst_first();
  return r;
}

}  // namespace npu_doctor::hccl
