// node summary <-> JSON. The reader is strict about types (a summary comes from another
// machine, maybe another version) and never throws: every problem becomes `error`.
#include <nlohmann/json.hpp>

#include "json_number.hpp"
#include "npu_doctor/node_summary.hpp"

namespace npu_doctor {
namespace {

using nlohmann::json;
constexpr std::string_view kSchema = "npu-doctor/node-summary/v1";

json pairs_json(const std::vector<std::pair<std::string, std::string>>& pairs) {
  json j = json::object();
  for (const auto& [k, v] : pairs) j[k] = v;
  return j;
}

json time_json(const std::optional<Timestamp>& t) {
  if (!t) return nullptr;
  return {{"micros", t->micros}, {"has_year", t->has_year}, {"text", t->text}};
}

json context_json(const std::vector<ContextLine>& lines) {
  json j = json::array();
  for (const auto& l : lines) j.push_back({{"line", l.line}, {"text", l.text}});
  return j;
}

template <class T>
json optional_json(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json evidence_json(const Evidence& e) {
  return {{"input", e.input},          {"path", e.path},         {"line", e.line},
          {"text", e.text},            {"time", time_json(e.time)}, {"rank", optional_json(e.rank)},
          {"device", optional_json(e.device)}, {"pid", optional_json(e.pid)}, {"module", e.module},
          {"captures", pairs_json(e.captures)}, {"before", context_json(e.before)},
          {"after", context_json(e.after)}};
}

json finding_json(const Finding& f) {
  json ev = json::array();
  for (const auto& e : f.evidence) ev.push_back(evidence_json(e));
  json j = {{"entry", f.entry->id},
            {"code", f.code},
            {"specificity", static_cast<int>(f.specificity)},
            {"count", f.count},
            {"only_on_low_level_lines", f.only_on_low_level_lines},
            {"evidence", std::move(ev)}};
  if (f.words) j["words"] = {{"probability", f.words->probability}, {"threshold", f.words->root_threshold}};
  return j;
}

json findings_json(const std::vector<Finding>& findings) {
  json j = json::array();
  for (const auto& f : findings) {
    if (f.entry != nullptr && !f.evidence.empty()) j.push_back(finding_json(f));
  }
  return j;
}

json input_json(const InputReport& in) {
  json events = json::array();
  for (const auto& e : in.timeline.events) {
    if (e.entry == nullptr) continue;
    events.push_back({{"entry", e.entry->id},
                      {"code", e.code},
                      {"line", e.line},
                      {"time", time_json(e.time)},
                      {"rank", optional_json(e.rank)},
                      {"low_level", e.low_level},
                      {"specificity", static_cast<int>(e.specificity)},
                      {"captures", pairs_json(e.captures)},
                      {"text", e.text}});
  }
  return {{"path", in.path},
          {"kind", in.kind},
          {"bytes", in.bytes},
          {"lines", in.lines},
          {"status", std::string(to_string(in.status))},
          {"note", in.note},
          {"rank", optional_json(in.rank)},
          {"host", in.host},
          {"timeline",
           {{"first_time", time_json(in.timeline.first_time)},
            {"last_time", time_json(in.timeline.last_time)},
            {"events", std::move(events)}}}};
}

// --- reading: each helper throws json exceptions on a wrong type; parse_node_summary turns
// them into `error`.

// The array at `key` (absent or null: an empty one); anything else is malformed.
const json& array_at(const json& j, const char* key) {
  static const json empty = json::array();
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return empty;
  if (!it->is_array()) throw std::invalid_argument(std::string("\"") + key + "\" is not an array");
  return *it;
}

const json& object(const json& j, const char* what) {
  if (!j.is_object()) throw std::invalid_argument(std::string(what) + " is not an object");
  return j;
}

std::string str(const json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? std::string() : it->get<std::string>();
}

// A number that does not fit T (1e300 as an int) is malformed, not a conversion with
// undefined behaviour.
template <class T>
T checked(const json& v, const char* key) {
  if (!v.is_number()) return v.get<T>();  // throws the usual type error
  if (auto n = json_number<T>(v)) return *n;
  throw std::invalid_argument(std::string("\"") + key + "\" is out of range");
}

template <class T>
T num(const json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? T{} : checked<T>(*it, key);
}

template <class T>
std::optional<T> opt(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return checked<T>(*it, key);
}

std::optional<Timestamp> read_time(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  Timestamp t;
  t.micros = checked<int64_t>(it->at("micros"), "micros");
  t.has_year = it->value("has_year", true);
  t.text = str(*it, "text");
  return t;
}

std::vector<std::pair<std::string, std::string>> read_pairs(const json& j, const char* key) {
  std::vector<std::pair<std::string, std::string>> out;
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return out;
  for (const auto& [k, v] : object(*it, key).items()) out.emplace_back(k, v.get<std::string>());
  return out;
}

std::vector<ContextLine> read_context(const json& j, const char* key) {
  std::vector<ContextLine> out;
  for (const auto& l : array_at(j, key)) out.push_back({num<uint64_t>(object(l, "a context line"), "line"), str(l, "text")});
  return out;
}

Specificity read_specificity(const json& j) {
  const int s = num<int>(j, "specificity");
  if (s < static_cast<int>(Specificity::words) || s > static_cast<int>(Specificity::message)) {
    throw std::out_of_range("specificity out of range");
  }
  return static_cast<Specificity>(s);
}

Evidence read_evidence(const json& j) {
  Evidence e;
  e.input = num<std::size_t>(j, "input");
  e.path = str(j, "path");
  e.line = num<uint64_t>(j, "line");
  e.text = str(j, "text");
  e.time = read_time(j, "time");
  e.rank = opt<int>(j, "rank");
  e.device = opt<int>(j, "device");
  e.pid = opt<long>(j, "pid");
  e.module = str(j, "module");
  e.captures = read_pairs(j, "captures");
  e.before = read_context(j, "before");
  e.after = read_context(j, "after");
  return e;
}

std::vector<Finding> read_findings(const json& j, const char* key, const KnowledgeBase& kb,
                                   std::vector<std::string>& warnings) {
  std::vector<Finding> out;
  for (const auto& f : array_at(j, key)) {
    object(f, "a finding");
    const std::string id = str(f, "entry");
    const Entry* entry = kb.find_id(id);
    if (entry == nullptr) {
      warnings.push_back("knowledge-base entry '" + id + "' is unknown here; its finding is left out");
      continue;
    }
    Finding finding;
    finding.entry = entry;
    finding.code = str(f, "code");
    finding.specificity = read_specificity(f);
    finding.count = num<uint64_t>(f, "count");
    finding.only_on_low_level_lines = f.value("only_on_low_level_lines", false);
    if (f.contains("words")) {
      const json& w = object(f.at("words"), "a word guess");
      finding.words = WordGuess{num<double>(w, "probability"), num<double>(w, "threshold")};
    }
    for (const auto& e : array_at(f, "evidence")) finding.evidence.push_back(read_evidence(object(e, "evidence")));
    if (finding.evidence.empty()) continue;  // a finding without evidence cannot be shown
    out.push_back(std::move(finding));
  }
  return out;
}

InputStatus read_input_status(const std::string& s) {
  for (InputStatus v : {InputStatus::ok, InputStatus::skipped, InputStatus::error, InputStatus::partial}) {
    if (to_string(v) == s) return v;
  }
  throw std::out_of_range("unknown input status '" + s + "'");
}

InputReport read_input(const json& j, const KnowledgeBase& kb, std::vector<std::string>& warnings) {
  InputReport in;
  in.path = str(j, "path");
  in.kind = str(j, "kind");
  in.bytes = num<uint64_t>(j, "bytes");
  in.lines = num<uint64_t>(j, "lines");
  in.status = read_input_status(str(j, "status"));
  in.note = str(j, "note");
  in.rank = opt<int>(j, "rank");
  in.host = str(j, "host");
  const json& t = object(j.at("timeline"), "a timeline");
  in.timeline.first_time = read_time(t, "first_time");
  in.timeline.last_time = read_time(t, "last_time");
  for (const auto& e : array_at(t, "events")) {
    object(e, "a timeline event");
    const std::string id = str(e, "entry");
    const Entry* entry = kb.find_id(id);
    if (entry == nullptr) {
      warnings.push_back("knowledge-base entry '" + id + "' is unknown here; its timeline event is left out");
      continue;
    }
    if (in.timeline.events.size() >= InputTimeline::kMaxEvents) break;
    TimelineEvent ev;
    ev.entry = entry;
    ev.code = str(e, "code");
    ev.line = num<uint64_t>(e, "line");
    ev.time = read_time(e, "time");
    ev.rank = opt<int>(e, "rank");
    ev.low_level = e.value("low_level", false);
    ev.specificity = read_specificity(e);
    ev.captures = read_pairs(e, "captures");
    ev.text = str(e, "text");
    in.timeline.events.push_back(std::move(ev));
  }
  return in;
}

}  // namespace

std::string_view to_string(NodeSummary::Status s) {
  switch (s) {
    case NodeSummary::Status::ok: return "ok";
    case NodeSummary::Status::failed: return "failed";
    case NodeSummary::Status::timeout: return "timeout";
  }
  return "failed";
}

std::string node_summary_json(const NodeSummary& s) {
  json inputs = json::array();
  for (const auto& in : s.inputs) inputs.push_back(input_json(in));
  json facts = json::object();
  for (const auto& [k, v] : s.facts) facts[k] = v;
  const json j = {{"schema", kSchema},
                  {"host", s.host},
                  {"node", s.node},
                  {"status", std::string(to_string(s.status))},
                  {"note", s.note},
                  {"seconds", s.seconds},
                  {"kb_version", s.kb_version},
                  {"facts", std::move(facts)},
                  {"inputs", std::move(inputs)},
                  {"findings", findings_json(s.findings)},
                  {"check_findings", findings_json(s.check_findings)}};
  // Replace, not throw, on invalid UTF-8: evidence is already sanitised, paths may not be.
  return j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

bool parse_node_summary(std::string_view text, const KnowledgeBase& kb, NodeSummary& out, std::string& error,
                        std::vector<std::string>& warnings) {
  const json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded()) {
    error = "not JSON";
    return false;
  }
  if (!j.is_object() || j.value("schema", std::string()) != kSchema) {
    error = "not a node summary (no \"schema\": \"" + std::string(kSchema) + "\")";
    return false;
  }
  try {
    NodeSummary s;
    s.host = str(j, "host");
    s.node = num<int>(j, "node");
    const std::string status = str(j, "status");
    if (status == "ok") s.status = NodeSummary::Status::ok;
    else if (status == "timeout") s.status = NodeSummary::Status::timeout;
    else if (status == "failed") s.status = NodeSummary::Status::failed;
    else throw std::out_of_range("unknown status '" + status + "'");
    s.note = str(j, "note");
    s.seconds = num<double>(j, "seconds");
    s.kb_version = str(j, "kb_version");
    if (const auto it = j.find("facts"); it != j.end() && !it->is_null()) {
      object(*it, "\"facts\"");
      for (const auto& [k, v] : it->items()) s.facts[k] = v.get<std::string>();
    }
    for (const auto& in : array_at(j, "inputs")) s.inputs.push_back(read_input(object(in, "an input"), kb, warnings));
    s.findings = read_findings(j, "findings", kb, warnings);
    s.check_findings = read_findings(j, "check_findings", kb, warnings);
    for (const auto& f : s.findings) {
      for (const auto& e : f.evidence) {
        if (e.input >= s.inputs.size()) throw std::out_of_range("evidence names input " + std::to_string(e.input) +
                                                                " of " + std::to_string(s.inputs.size()));
      }
    }
    out = std::move(s);
    return true;
  } catch (const std::exception& e) {
    error = std::string("malformed node summary: ") + e.what();
    return false;
  }
}

}  // namespace npu_doctor
