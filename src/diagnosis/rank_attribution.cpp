// Which rank and node each input belongs to.
#include <algorithm>
#include <map>

#include "cluster.hpp"
#include "npu_doctor/text.hpp"
#include "core/regex.hpp"

namespace npu_doctor {
namespace {

// Paths as collected from clusters: rank_3/..., rank-3.log, worker-3.txt (MindCluster's
// naming), node-2/..., host-a/...; archive members look like "logs.tar.gz:rank_3/plog/x.log".
constexpr const char* kDefaultPatterns[] = {
    R"((?:^|[/:_.-])(?:rank|worker)[_-]?(?<rank>\d+)(?=[/._-]|$))",
    R"((?:^|[/:])(?<host>(?:node|host|server)[_-]?[A-Za-z0-9.-]*[A-Za-z0-9])/)",
};

std::optional<int> rank_number(std::string_view s) {
  const auto v = parse_number<int>(s);
  return v && *v >= 0 ? v : std::nullopt;
}

// The rank most of an input's events carry, when its path names none.
void rank_from_lines(InputReport& in) {
  std::map<int, int> seen;
  for (const auto& ev : in.timeline.events) {
    if (ev.rank) ++seen[*ev.rank];
    if (auto r = rank_number(ev.capture("rank"))) ++seen[*r];
  }
  if (seen.empty()) return;
  in.rank = std::max_element(seen.begin(), seen.end(), [](const auto& a, const auto& b) { return a.second < b.second; })->first;
}

}  // namespace

std::vector<std::string> attribute_ranks(InputStore& inputs, const std::vector<std::string>& patterns) {
  std::vector<std::string> errors;
  std::vector<Regex> regexes;
  for (const auto& p : patterns) {
    std::string err;
    if (auto re = Regex::compile(p, false, err)) regexes.push_back(std::move(*re));
    else errors.push_back("--rank-pattern '" + p + "' does not compile: " + err);
  }
  for (const char* p : kDefaultPatterns) {
    std::string err;
    if (auto re = Regex::compile(p, true, err)) regexes.push_back(std::move(*re));
  }
  inputs.update_each([&](InputReport& in) {
    const auto rank_before = in.rank;
    const InternedString host_before = in.host;
    for (const auto& re : regexes) {
      auto m = re.search(in.path);
      if (!m) continue;
      if (!in.rank) in.rank = rank_number(m->group("rank"));
      if (in.host.empty()) in.host = std::string(m->group("host"));
    }
    if (!in.rank) rank_from_lines(in);
    return in.rank != rank_before || !(in.host == host_before);  // written back only when changed
  });
  return errors;
}

}  // namespace npu_doctor
