// node summary <-> JSON. The reader is strict about types (a summary comes from another
// machine, maybe another version) and never throws: every problem becomes `error`.
#include <nlohmann/json.hpp>

#include <functional>
#include <istream>
#include <sstream>
#include <utility>

#include "json_number.hpp"
#include "node_summary.hpp"
#include "render/json_stream.hpp"

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

// The numbers of the v1 contract. They are not the enum's values: `source_message` came
// after v1 was published, between a code family and an exact code, and v1's numbers may
// not change meaning, so it got the next free number.
constexpr std::pair<Specificity, int> kSpecificityNumbers[] = {
    {Specificity::words, -1},     {Specificity::unknown_code, 0}, {Specificity::code_family, 1},
    {Specificity::exact_code, 2}, {Specificity::message, 3},      {Specificity::source_message, 4}};

int specificity_number(Specificity s) {
  for (const auto& [specificity, number] : kSpecificityNumbers) {
    if (specificity == s) return number;
  }
  return 0;
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
            {"specificity", specificity_number(f.specificity)},
            {"count", f.count},
            {"only_on_low_level_lines", f.only_on_low_level_lines},
            {"evidence", std::move(ev)}};
  if (f.words) j["words"] = {{"probability", f.words->probability}, {"threshold", f.words->root_threshold}};
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
                      {"specificity", specificity_number(e.specificity)},
                      {"captures", pairs_json(e.captures)},
                      {"text", e.text}});
  }
  return {{"path", in.path},
          {"kind", in.kind.str()},
          {"bytes", in.bytes},
          {"lines", in.lines},
          {"status", std::string(to_string(in.status))},
          {"note", in.note},
          {"rank", optional_json(in.rank)},
          {"host", in.host.str()},
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
  const int n = num<int>(j, "specificity");
  for (const auto& [specificity, number] : kSpecificityNumbers) {
    if (number == n) return specificity;
  }
  throw std::out_of_range("specificity out of range");
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

// Streamed (render_detail::JsonStreamWriter, compact): one input or finding is a DOM at a
// time. Keys in alphabetical order, the bytes nlohmann::json's dump(-1) of the whole gives.
void write_node_summary_json(const NodeSummary& s, std::ostream& out) {
  render_detail::JsonStreamWriter w(out, -1);
  auto findings = [&](const char* key, const std::vector<Finding>& list) {
    w.begin_array(key);
    for (const auto& f : list) {
      if (f.entry != nullptr && !f.evidence.empty()) w.element(finding_json(f));
    }
    w.end_array();
  };
  w.begin_object();
  findings("check_findings", s.check_findings);
  json facts = json::object();
  for (const auto& [k, v] : s.facts) facts[k] = v;
  w.member("facts", facts);
  findings("findings", s.findings);
  w.member("host", json(s.host));
  w.begin_array("inputs");
  for (const auto& in : s.inputs) w.element(input_json(in));
  w.end_array();
  w.member("kb_version", json(s.kb_version));
  w.member("node", json(s.node));
  w.member("note", json(s.note));
  w.member("schema", json(kSchema));
  w.member("seconds", json(s.seconds));
  w.member("status", json(std::string(to_string(s.status))));
  w.end_object();
  out << "\n";
}

std::string node_summary_json(const NodeSummary& s) {
  std::ostringstream out;
  write_node_summary_json(s, out);
  return std::move(out).str();
}

namespace {

// `parse(callback)` parses the text with nlohmann's callback parser (never throwing).
bool parse_summary(const std::function<json(const json::parser_callback_t&)>& parse, const KnowledgeBase& kb,
                   NodeSummary& out, std::string& error, std::vector<std::string>& warnings) {
  // Inputs and findings are converted as each is parsed and then dropped from the DOM, so
  // a summary of 100,000 inputs is never whole as a DOM (that took 346 MB).
  NodeSummary s;
  s.inputs.swap(out.inputs);  // the caller's room for the inputs, when it knows their number
  s.inputs.clear();
  std::string problem;           // the first malformed element
  std::string key;               // the top-level key being read
  std::string array;             // the top-level array being read, if any
  auto convert = [&](json& element) {
    try {
      if (array == "inputs") {
        s.inputs.push_back(read_input(object(element, "an input"), kb, warnings));
      } else {
        json one = json::object();
        one["list"] = json::array({std::move(element)});
        auto read = read_findings(one, "list", kb, warnings);
        auto& to = array == "findings" ? s.findings : s.check_findings;
        for (auto& f : read) to.push_back(std::move(f));
      }
    } catch (const std::exception& e) {
      if (problem.empty()) problem = e.what();
    }
  };
  const json::parser_callback_t on_element = [&](int depth, json::parse_event_t event, json& parsed) {
    if (depth == 1 && event == json::parse_event_t::key) key = parsed.get<std::string>();
    if (depth == 1 && event == json::parse_event_t::array_start) {
      array = key == "inputs" || key == "findings" || key == "check_findings" ? key : std::string();
    }
    if (depth == 1 && event == json::parse_event_t::array_end) array.clear();
    const bool element_done = event == json::parse_event_t::object_end || event == json::parse_event_t::array_end ||
                              event == json::parse_event_t::value;
    if (depth == 2 && !array.empty() && element_done) {
      convert(parsed);
      return false;  // converted: not kept in the DOM
    }
    return true;
  };
  const json j = parse(on_element);
  if (j.is_discarded()) {
    error = "not JSON";
    return false;
  }
  if (!j.is_object() || j.value("schema", std::string()) != kSchema) {
    error = "not a node summary (no \"schema\": \"" + std::string(kSchema) + "\")";
    return false;
  }
  try {
    if (!problem.empty()) throw std::invalid_argument(problem);
    for (const char* k : {"inputs", "findings", "check_findings"}) array_at(j, k);  // present: arrays or null
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

}  // namespace

bool parse_node_summary(std::string_view text, const KnowledgeBase& kb, NodeSummary& out, std::string& error,
                        std::vector<std::string>& warnings) {
  return parse_summary([&](const json::parser_callback_t& cb) { return json::parse(text.begin(), text.end(), cb, false); },
                       kb, out, error, warnings);
}

bool parse_node_summary(std::istream& in, const KnowledgeBase& kb, NodeSummary& out, std::string& error,
                        std::vector<std::string>& warnings) {
  return parse_summary([&](const json::parser_callback_t& cb) { return json::parse(in, cb, false); }, kb, out, error,
                       warnings);
}

}  // namespace npu_doctor
