#include "ranktable.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "env_check.hpp"
#include "core/finding_set.hpp"
#include "hccl_vars.hpp"
#include "json_positions.hpp"
#include "core/text_util.hpp"
#include "npu_doctor/kb_ids.hpp"

namespace npu_doctor::hccl {
namespace {

using json = nlohmann::json;
using Captures = std::vector<std::pair<std::string, std::string>>;

std::string short_value(const json& v) {
  std::string s = v.is_string() ? "\"" + v.get<std::string>() + "\"" : v.dump();
  if (s.size() > 80) s = s.substr(0, 77) + "...";
  return s;
}

std::string type_name(const json& v) {
  if (v.is_string()) return "a string";
  if (v.is_number()) return "a number";
  if (v.is_boolean()) return "a boolean";
  if (v.is_null()) return "null";
  if (v.is_array()) return "an array";
  return "an object";
}

// nlohmann's message without its own "[json.exception...] parse error at line L, column C: " prefix.
std::string plain_parse_message(const std::string& what) {
  std::string s = what;
  if (const auto p = s.find("]: "); s.starts_with("[json.exception") && p != std::string::npos) s = s.substr(p + 3);
  else if (const auto q = s.find("] "); s.starts_with("[json.exception") && q != std::string::npos) s = s.substr(q + 2);
  if (const auto c = s.find(": "); s.starts_with("parse error") && c != std::string::npos) s = s.substr(c + 2);
  return s;
}

class Checker {
 public:
  Checker(const std::string& path, std::string_view text, const KnowledgeBase& kb)
      : path_(path), text_(text), set_(kb, 50) {
    report_.path = path;
    report_.kb_version = kb.version();
  }

  RankTableReport run() {
    JsonError err;
    auto parsed = parse_positioned_json(text_, &err);
    if (checks::trim(text_).empty()) {
      raise_at(kb_id::hccl_config::ranktable_not_json, 0, "", "the file is empty", {});
    } else if (!parsed) {
      raise_at(kb_id::hccl_config::ranktable_not_json, err.offset, "", plain_parse_message(err.message), {});
    } else {
      pj_ = std::move(*parsed);
      report_.parsed = true;
      for (const auto& [p, off] : pj_.duplicate_keys) {
        raise_at(kb_id::hccl_config::ranktable_invalid, off, p,
                 "this key appears twice in the same object: one of the two values is silently ignored", {});
      }
      check_root();
    }
    report_.findings = set_.take();
    for (auto& f : report_.findings) {
      std::stable_sort(f.evidence.begin(), f.evidence.end(),
                       [](const Evidence& a, const Evidence& b) { return a.line < b.line; });
    }
    std::stable_sort(report_.findings.begin(), report_.findings.end(), [](const Finding& a, const Finding& b) {
      return a.first().line < b.first().line;
    });
    return std::move(report_);
  }

 private:
  // ---- reporting ----
  void raise_at(EntryId id, std::size_t offset, const std::string& json_path, const std::string& detail,
                Captures extra) {
    const TextPosition pos = position_of(text_, offset);
    // The whole line the value is on, as evidence (rank tables are often one line: cut it).
    std::size_t b = offset <= text_.size() ? offset : text_.size();
    while (b > 0 && text_[b - 1] != '\n') --b;
    std::size_t e = b;
    while (e < text_.size() && text_[e] != '\n') ++e;
    std::string line(checks::trim(text_.substr(b, e - b)));
    if (line.size() > 200) {
      const std::size_t col = pos.column > 60 ? pos.column - 60 : 0;
      line = "..." + line.substr(std::min(col, line.size()), 160) + "...";
    }
    Captures caps;
    if (!json_path.empty()) caps.emplace_back("json_path", json_path);
    caps.emplace_back("column", std::to_string(pos.column));
    caps.emplace_back("detail", detail);
    for (auto& c : extra) caps.push_back(std::move(c));
    set_.add(id, evidence_at(path_, text_.empty() ? 0 : pos.line, line, std::move(caps)));
  }

  void raise(EntryId id, const std::string& json_path, const std::string& detail, Captures extra = {}) {
    raise_at(id, pj_.offset_of(json_path).value_or(0), json_path, detail, std::move(extra));
  }

  // ---- typed access ----
  const json* child(const json& obj, const std::string& obj_path, std::string_view key, bool required) {
    auto it = obj.find(std::string(key));
    if (it == obj.end()) {
      if (required) raise(kb_id::hccl_config::ranktable_invalid, obj_path, "missing \"" + std::string(key) + "\"");
      return nullptr;
    }
    return &*it;
  }

  // A field that version 1.x writes as a string; numbers are accepted but reported.
  std::optional<std::string> text_field(const json& obj, const std::string& obj_path, std::string_view key,
                                        bool required, bool numeric) {
    const json* v = child(obj, obj_path, key, required);
    if (v == nullptr) return std::nullopt;
    const std::string p = json_child(obj_path, key);
    std::string s;
    if (v->is_string()) {
      s = v->get<std::string>();
    } else if (v->is_number_integer() && numeric && !v2_) {
      s = v->dump();
      raise(kb_id::hccl_config::ranktable_invalid, p,
            "in version 1.x every value is a string: write \"" + s + "\", not " + s);
    } else if (v->is_number_integer() && numeric) {
      s = v->dump();
    } else {
      raise(kb_id::hccl_config::ranktable_invalid, p,
            "expected " + std::string(numeric ? "a number as a string" : "a string") + ", found " + type_name(*v) +
                " " + short_value(*v));
      return std::nullopt;
    }
    if (numeric) {
      const auto n = checks::to_integer(s);
      if (!n || *n < 0 || checks::trim(s).size() != s.size()) {
        raise(kb_id::hccl_config::ranktable_invalid, p, "expected a non-negative integer, found " + short_value(*v));
        return std::nullopt;
      }
    }
    return s;
  }

  const json* array_field(const json& obj, const std::string& obj_path, std::string_view key, bool required) {
    const json* v = child(obj, obj_path, key, required);
    if (v == nullptr) return nullptr;
    if (!v->is_array()) {
      raise(kb_id::hccl_config::ranktable_invalid, json_child(obj_path, key),
            "expected an array, found " + type_name(*v));
      return nullptr;
    }
    if (v->empty()) {
      raise(kb_id::hccl_config::ranktable_invalid, json_child(obj_path, key), "the list is empty");
      return nullptr;
    }
    return v;
  }

  // An optional address field; returns it as written (also when it is not valid).
  std::optional<std::string> check_ip(const json& obj, const std::string& obj_path, std::string_view key, bool unique) {
    const auto ip = text_field(obj, obj_path, key, false, false);
    if (!ip) return ip;
    const std::string p = json_child(obj_path, key);
    if (!is_ip_address(*ip)) {
      raise(kb_id::hccl_config::ranktable_bad_ip, p, "\"" + *ip + "\" is not an IPv4 or IPv6 address", {{"value", *ip}});
      return ip;
    }
    if (!unique) return ip;
    auto [it, inserted] = ips_.emplace(*ip, p);
    if (!inserted) {
      raise(kb_id::hccl_config::ranktable_duplicate_ip, p,
            "\"" + *ip + "\" is also the address of " + it->second + " (line " + line_of(it->second) + ")",
            {{"value", *ip}, {"other", it->second}});
    }
    return ip;
  }

  std::string line_of(const std::string& json_path) const {
    return std::to_string(position_of(text_, pj_.offset_of(json_path).value_or(0)).line);
  }

  // ---- the table ----
  void check_root() {
    const json& root = pj_.value;
    if (!root.is_object()) {
      raise(kb_id::hccl_config::ranktable_invalid, "", "a rank table is a JSON object, this is " + type_name(root));
      return;
    }
    if (const json* v = child(root, "", "version", true)) {
      report_.version = v->is_string() ? v->get<std::string>() : v->dump();
      if (!v->is_string()) {
        raise(kb_id::hccl_config::ranktable_invalid, "version", "write the version as a string: \"" + report_.version + "\"");
      }
      static const std::set<std::string> known = {"1.0", "1.1", "1.2", "2.0"};
      if (known.count(report_.version) == 0) {
        raise(kb_id::hccl_config::ranktable_version, "version",
              "version " + short_value(*v) + " is not one HCCL reads (1.0, 1.1, 1.2, 2.0)", {{"value", report_.version}});
      }
    }
    v2_ = report_.version == "2.0" || (report_.version.empty() && root.contains("rank_list"));
    if (const auto status = text_field(root, "", "status", true, false)) {
      report_.status = *status;
      if (*status != "completed") {
        raise(kb_id::hccl_config::ranktable_not_completed, "status",
              "status is \"" + *status + "\": the table is still being written (\"completed\" is required)",
              {{"value", *status}});
      }
    }
    if (v2_) check_v2(root);
    else check_v1(root);
  }

  void check_v1(const json& root) {
    const auto count = text_field(root, "", "server_count", true, true);
    if (count) report_.server_count = checks::to_integer(*count);
    const json* list = array_field(root, "", "server_list", true);
    if (list == nullptr) return;
    if (report_.server_count && static_cast<std::size_t>(*report_.server_count) != list->size()) {
      raise(kb_id::hccl_config::ranktable_count_mismatch, "server_count",
            "server_count is " + std::to_string(*report_.server_count) + " but server_list has " +
                std::to_string(list->size()) + " servers",
            {{"declared", std::to_string(*report_.server_count)}, {"found", std::to_string(list->size())}});
    }
    std::map<std::string, std::string> server_ids;
    std::map<long long, std::string> ranks;
    for (std::size_t s = 0; s < list->size(); ++s) {
      const json& server = (*list)[s];
      const std::string sp = json_index("server_list", s);
      if (!server.is_object()) {
        raise(kb_id::hccl_config::ranktable_invalid, sp, "expected an object, found " + type_name(server));
        continue;
      }
      RankTableServer out;
      if (auto id = text_field(server, sp, "server_id", true, false)) {
        out.server_id = *id;
        auto [it, inserted] = server_ids.emplace(*id, json_child(sp, "server_id"));
        if (!inserted) {
          raise(kb_id::hccl_config::ranktable_duplicate_server, json_child(sp, "server_id"),
                "server_id \"" + *id + "\" is also " + it->second + " (line " + line_of(it->second) + ")",
                {{"value", *id}, {"other", it->second}});
        }
      }
      out.host_ip = check_ip(server, sp, "host_ip", false).value_or("");
      const json* devices = array_field(server, sp, "device", true);
      if (devices != nullptr) {
        std::map<std::string, std::string> device_ids;
        for (std::size_t d = 0; d < devices->size(); ++d) {
          const json& dev = (*devices)[d];
          const std::string dp = json_index(json_child(sp, "device"), d);
          if (!dev.is_object()) {
            raise(kb_id::hccl_config::ranktable_invalid, dp, "expected an object, found " + type_name(dev));
            continue;
          }
          RankTableDevice rd;
          if (auto id = text_field(dev, dp, "device_id", true, true)) {
            rd.device_id = *id;
            auto [it, inserted] = device_ids.emplace(*id, json_child(dp, "device_id"));
            if (!inserted) {
              raise(kb_id::hccl_config::ranktable_duplicate_device, json_child(dp, "device_id"),
                    "device_id \"" + *id + "\" is listed twice on this server (also " + it->second + ", line " +
                        line_of(it->second) + ")",
                    {{"value", *id}, {"other", it->second}});
            }
          }
          rd.device_ip = check_ip(dev, dp, "device_ip", true).value_or("");
          check_ip(dev, dp, "backup_device_ip", false);
          if (auto rank = text_field(dev, dp, "rank_id", true, true)) {
            rd.rank_id = *rank;
            note_rank(*checks::to_integer(*rank), json_child(dp, "rank_id"), ranks);
          }
          if (report_.version == "1.2") {
            if (auto sdid = text_field(dev, dp, "super_device_id", true, true)) {
              rd.super_device_id = *sdid;
              super_device_ids_[out.server_id].emplace_back(*sdid, json_child(dp, "super_device_id"));
            }
          }
          out.devices.push_back(std::move(rd));
          ++report_.ranks;
        }
      }
      report_.servers.push_back(std::move(out));
    }
    check_rank_range(ranks, report_.ranks);
    check_even_servers();
    if (report_.version == "1.2") check_super_pods(root, server_ids);
  }

  void note_rank(long long rank, const std::string& p, std::map<long long, std::string>& ranks) {
    auto [it, inserted] = ranks.emplace(rank, p);
    if (!inserted) {
      raise(kb_id::hccl_config::ranktable_duplicate_rank, p,
            "rank_id " + std::to_string(rank) + " is also " + it->second + " (line " + line_of(it->second) + ")",
            {{"rank", std::to_string(rank)}, {"other", it->second}});
    }
  }

  void check_rank_range(const std::map<long long, std::string>& ranks, std::size_t n) {
    std::vector<long long> missing;
    for (long long r = 0; r < static_cast<long long>(n); ++r) {
      if (ranks.count(r) == 0) missing.push_back(r);
    }
    for (const auto& [rank, p] : ranks) {
      if (rank >= static_cast<long long>(n)) {
        raise(kb_id::hccl_config::ranktable_rank_gap, p,
              "rank_id " + std::to_string(rank) + " is outside 0.." + std::to_string(n - 1) + " (" +
                  std::to_string(n) + " ranks in the table)",
              {{"rank", std::to_string(rank)}, {"ranks", std::to_string(n)}});
      }
    }
    if (!missing.empty() && !ranks.empty()) {
      raise(kb_id::hccl_config::ranktable_rank_gap, v2_ ? "rank_list" : "server_list",
            "no device has rank_id " + format_ranges(missing) + " (rank ids must be 0.." + std::to_string(n - 1) + ")",
            {{"missing", format_ranges(missing)}, {"ranks", std::to_string(n)}});
    }
  }

  void check_even_servers() {
    std::map<std::size_t, std::vector<std::size_t>> by_count;
    for (std::size_t s = 0; s < report_.servers.size(); ++s) by_count[report_.servers[s].devices.size()].push_back(s);
    if (by_count.size() < 2) return;
    // The most common count is the norm; the others stand out.
    const auto norm = std::max_element(by_count.begin(), by_count.end(), [](const auto& a, const auto& b) {
                        return a.second.size() < b.second.size();
                      })->first;
    for (const auto& [count, servers] : by_count) {
      if (count == norm) continue;
      for (std::size_t s : servers) {
        raise(kb_id::hccl_config::ranktable_uneven_servers, json_child(json_index("server_list", s), "device"),
              "this server lists " + std::to_string(count) + " devices, most servers list " + std::to_string(norm),
              {{"devices", std::to_string(count)}, {"usual", std::to_string(norm)}});
      }
    }
  }

  void check_super_pods(const json& root, const std::map<std::string, std::string>& server_ids) {
    const json* pods = array_field(root, "", "super_pod_list", true);
    if (pods == nullptr) return;
    report_.super_pods = pods->size();
    std::map<std::string, std::string> pod_ids;
    std::map<std::string, std::string> placed;  // server_id -> where it is listed
    for (std::size_t i = 0; i < pods->size(); ++i) {
      const json& pod = (*pods)[i];
      const std::string pp = json_index("super_pod_list", i);
      if (!pod.is_object()) {
        raise(kb_id::hccl_config::ranktable_invalid, pp, "expected an object, found " + type_name(pod));
        continue;
      }
      if (auto id = text_field(pod, pp, "super_pod_id", true, true)) {
        auto [it, inserted] = pod_ids.emplace(*id, json_child(pp, "super_pod_id"));
        if (!inserted) {
          raise(kb_id::hccl_config::ranktable_super_pod, json_child(pp, "super_pod_id"),
                "super_pod_id \"" + *id + "\" is also " + it->second, {{"value", *id}});
        }
      }
      const json* servers = array_field(pod, pp, "server_list", true);
      if (servers == nullptr) continue;
      std::map<std::string, std::string> sdids;  // super_device_id -> path, within this pod
      for (std::size_t s = 0; s < servers->size(); ++s) {
        const std::string sp = json_index(json_child(pp, "server_list"), s);
        if (!(*servers)[s].is_object()) {
          raise(kb_id::hccl_config::ranktable_invalid, sp, "expected an object, found " + type_name((*servers)[s]));
          continue;
        }
        const auto id = text_field((*servers)[s], sp, "server_id", true, false);
        if (!id) continue;
        const std::string idp = json_child(sp, "server_id");
        if (server_ids.count(*id) == 0) {
          raise(kb_id::hccl_config::ranktable_super_pod, idp, "server_id \"" + *id + "\" is not in server_list",
                {{"value", *id}});
          continue;
        }
        auto [it, inserted] = placed.emplace(*id, idp);
        if (!inserted) {
          raise(kb_id::hccl_config::ranktable_super_pod, idp,
                "server \"" + *id + "\" is already in " + it->second + ": a server belongs to one super pod",
                {{"value", *id}});
          continue;
        }
        for (const auto& [sdid, where] : super_device_ids_[*id]) {
          auto [jt, fresh] = sdids.emplace(sdid, where);
          if (!fresh) {
            raise(kb_id::hccl_config::ranktable_duplicate_device, where,
                  "super_device_id \"" + sdid + "\" is also " + jt->second + " (line " + line_of(jt->second) +
                      ") in the same super pod",
                  {{"value", sdid}, {"other", jt->second}});
          }
        }
      }
    }
    for (const auto& [id, where] : server_ids) {
      if (placed.count(id) == 0) {
        raise(kb_id::hccl_config::ranktable_super_pod, where, "server \"" + id + "\" is in no super pod of super_pod_list",
              {{"value", id}});
      }
    }
  }

  void check_v2(const json& root) {
    std::optional<long long> declared;
    if (const json* c = child(root, "", "rank_count", true)) {
      if (c->is_number_integer()) declared = c->get<long long>();
      else if (c->is_string()) declared = checks::to_integer(c->get<std::string>());
      if (!declared) raise(kb_id::hccl_config::ranktable_invalid, "rank_count", "expected a number, found " + short_value(*c));
    }
    const json* list = array_field(root, "", "rank_list", true);
    if (list == nullptr) return;
    if (declared && static_cast<std::size_t>(*declared) != list->size()) {
      raise(kb_id::hccl_config::ranktable_count_mismatch, "rank_count",
            "rank_count is " + std::to_string(*declared) + " but rank_list has " + std::to_string(list->size()) +
                " entries",
            {{"declared", std::to_string(*declared)}, {"found", std::to_string(list->size())}});
    }
    std::map<long long, std::string> ranks;
    for (std::size_t i = 0; i < list->size(); ++i) {
      const json& r = (*list)[i];
      const std::string rp = json_index("rank_list", i);
      if (!r.is_object()) {
        raise(kb_id::hccl_config::ranktable_invalid, rp, "expected an object, found " + type_name(r));
        continue;
      }
      ++report_.ranks;
      if (auto rank = text_field(r, rp, "rank_id", true, true)) note_rank(*checks::to_integer(*rank), json_child(rp, "rank_id"), ranks);
      text_field(r, rp, "device_id", true, true);
      const json* levels = child(r, rp, "level_list", false);
      if (levels == nullptr || !levels->is_array()) continue;
      for (std::size_t l = 0; l < levels->size(); ++l) {
        const std::string lp = json_index(json_child(rp, "level_list"), l);
        const json* addrs = (*levels)[l].is_object() ? child((*levels)[l], lp, "rank_addr_list", false) : nullptr;
        if (addrs == nullptr || !addrs->is_array()) continue;
        for (std::size_t a = 0; a < addrs->size(); ++a) {
          const json& addr = (*addrs)[a];
          const std::string ap = json_index(json_child(lp, "rank_addr_list"), a);
          if (!addr.is_object()) continue;
          const auto type_it = addr.find("addr_type");  // value() would throw on a number
          const std::string type = type_it != addr.end() && type_it->is_string() ? type_it->get<std::string>() : "";
          if ((type == "IPV4" || type == "IPV6") && addr.contains("addr") && addr["addr"].is_string() &&
              !is_ip_address(addr["addr"].get<std::string>())) {
            raise(kb_id::hccl_config::ranktable_bad_ip, json_child(ap, "addr"),
                  "\"" + addr["addr"].get<std::string>() + "\" is not an " + type + " address",
                  {{"value", addr["addr"].get<std::string>()}});
          }
        }
      }
    }
    check_rank_range(ranks, report_.ranks);
  }

  std::string path_;
  std::string_view text_;
  FindingSet set_;
  RankTableReport report_;
  PositionedJson pj_;
  bool v2_ = false;
  std::map<std::string, std::string> ips_;  // device_ip -> path
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> super_device_ids_;  // server -> (id, path)
};

}  // namespace

RankTableReport check_rank_table(const std::string& path, std::string_view text, const KnowledgeBase& kb) {
  return Checker(path, text, kb).run();
}

}  // namespace npu_doctor::hccl
