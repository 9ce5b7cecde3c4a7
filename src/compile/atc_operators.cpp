#include "atc_operators.hpp"

#include <algorithm>
#include <array>

#include "core/regex.hpp"
#include "npu_doctor/kb_ids.hpp"

namespace npu_doctor::atc_detail {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Argument layouts of the GE/FE/TEFusion catalogue messages (named groups name/type).
const std::vector<Regex>& layouts() {
  static const std::vector<Regex> compiled = [] {
    const std::array<const char*, 9> patterns = {
        R"(Op \[(?<name>[^,\]]+), optype \[(?<type>[^\]]+)\]\])",                   // E19010
        R"(Op: (?<name>[^,]+), optype: (?<type>[\w.:-]+))",                         // E13010
        R"(found for \[(?<name>[^\]]+)\], optype \[(?<type>[^\]]+)\])",              // EZ3003
        R"(Optype \[(?<type>[^\]]+)\] of Ops kernel)",                              // EZ3002
        R"(Failed to compile Op \[(?<name>[^\]]+)\].*?optype:? \[?(?<type>[\w.]+))",  // E40021
        R"(Failed to compile Op \[(?<name>[^\]]+)\])",
        R"(node:? ?(?<name>[^\s(,\[\]]+)\((?<type>[\w.]+)\))",                      // infershape
        R"(for optype (?<type>[\w.:-]+))",                                          // E16002
        R"(\bop\[(?<name>[^\]]+)\])",                                               // E8xxxx "op[Add_718]"
    };
    std::vector<Regex> v;
    for (const char* p : patterns) {
      std::string err;
      if (auto re = Regex::compile(p, false, err)) v.push_back(std::move(*re));
    }
    return v;
  }();
  return compiled;
}

std::string_view capture(const Evidence& e, std::string_view key) {
  for (const auto& [k, v] : e.captures) {
    if (k == key) return v;
  }
  return {};
}

}  // namespace

void split_optype(std::string_view optype, AtcOperator& op) {
  // domain::opset::type (ONNX); anything else is the type as is.
  const auto a = optype.find("::");
  if (a != std::string_view::npos) {
    const auto b = optype.find("::", a + 2);
    if (b != std::string_view::npos) {
      op.domain = std::string(optype.substr(0, a));
      op.opset = std::string(optype.substr(a + 2, b - a - 2));
      op.type = std::string(optype.substr(b + 2));
      return;
    }
  }
  op.type = std::string(optype);
}

AtcOperator operator_from_text(std::string_view text) {
  AtcOperator op;
  for (const auto& re : layouts()) {
    auto m = re.search(text);
    if (!m) continue;
    op.name = std::string(m->group("name"));
    std::string_view type = m->group("type");
    while (!type.empty() && (type.back() == '.' || type.back() == ':')) type.remove_suffix(1);  // sentence end
    split_optype(type, op);
    return op;
  }
  return op;
}

AtcOperator operator_from_report_line(std::string_view text) {
  static const auto name_re = [] {
    std::string err;
    return Regex::compile(R"((?i)\bop[ _]?name\s*[:=]?\s*\[?(?<v>[^,\]\s]+))", false, err);
  }();
  static const auto type_re = [] {
    std::string err;
    return Regex::compile(R"((?i)\bop[ _]?type\s*[:=]?\s*\[?(?<v>[\w.:-]+))", false, err);
  }();
  AtcOperator op;
  if (name_re) {
    if (auto m = name_re->search(text)) op.name = std::string(m->group("v"));
  }
  if (type_re) {
    if (auto m = type_re->search(text)) split_optype(m->group("v"), op);
  }
  if (op.name.empty() && op.type.empty()) op = operator_from_text(text);
  return op;
}

void add_operator(std::vector<AtcOperator>& ops, AtcOperator op) {
  for (auto& o : ops) {
    if (o.name != op.name) continue;
    if (o.type == op.type) return;
    if (!o.name.empty() && (o.type.empty() || op.type.empty())) {
      if (o.type.empty()) {
        o.type = op.type;
        o.domain = op.domain;
        o.opset = op.opset;
      }
      return;
    }
  }
  ops.push_back(std::move(op));
}

std::string fusion_pass_from_text(std::string_view text) {
  static const auto re = [] {
    std::string err;
    return Regex::compile(R"((?i)fusion pass \[?(?<pass>\w+)\]? (?:run )?fail|\[(?<pass2>\w+FusionPass)\])", false, err);
  }();
  if (!re) return {};
  auto m = re->search(text);
  if (!m) return {};
  auto p = m->group("pass");
  return std::string(p.empty() ? m->group("pass2") : p);
}

AtcPhase phase_of(const Finding& f) {
  const std::string& id = f.entry->id;
  const std::string& code = f.code;
  if (id == kb_id::atc::no_parser_registered || id == kb_id::atc::no_onnx_parser || id == kb_id::atc::no_op_plugin ||
      id == kb_id::atc::model_parse_failed || id == kb_id::ecode::E13010 || id == kb_id::ecode::E10501 || code == "E19010" ||
      starts_with(id, "ecode.E11") || starts_with(id, "ecode.E12") || starts_with(id, "ecode.E16")) {
    return AtcPhase::parse;
  }
  if (id == kb_id::atc::infershape_node_failed || id == kb_id::op::infershape_failed || id == kb_id::op::shape_mismatch) {
    return AtcPhase::infershape;
  }
  if (id == kb_id::op::fusion_pass_failed || id == kb_id::ecode::E13028 || id == kb_id::op::not_in_op_store || id == kb_id::ecode::EZ3002 ||
      id == kb_id::ecode::EZ3003 || starts_with(id, "ecode.E2") || (id == kb_id::ecode::module_E2)) {
    return AtcPhase::fusion;
  }
  if (id == kb_id::op::compile_failed || id == kb_id::op::tiling_failed || starts_with(id, "ecode.E4") || starts_with(id, "ecode.E9") ||
      starts_with(id, "ecode.EA") || starts_with(id, "ecode.EB") || id == kb_id::ecode::module_E4) {
    return AtcPhase::op_compile;
  }
  if (id == kb_id::atc::build_graph_failed) return AtcPhase::build;
  if (starts_with(id, "ecode.E10")) return AtcPhase::options;
  if (starts_with(code, "E10")) return AtcPhase::options;
  if (starts_with(code, "E2")) return AtcPhase::fusion;
  if (starts_with(code, "E4")) return AtcPhase::op_compile;
  return AtcPhase::unknown;
}

std::vector<AtcOperator> operators_from_findings(const std::vector<Finding>& findings) {
  std::vector<AtcOperator> out;
  for (const auto& f : findings) {
    const AtcPhase phase = phase_of(f);
    const bool relevant = phase != AtcPhase::unknown || f.entry->category == Category::compile_op_unsupported ||
                          f.entry->category == Category::compile_shape;
    if (!relevant) continue;
    for (const auto& e : f.evidence) {
      AtcOperator op;
      op.name = std::string(capture(e, "op"));
      split_optype(capture(e, "optype"), op);
      if (op.name.empty() && op.type.empty()) op = operator_from_text(e.text);
      if (op.name.empty() && op.type.empty()) continue;
      op.phase = phase;
      op.rule = f.entry->id;
      op.reason = e.text.size() > 300 ? e.text.substr(0, 300) : e.text;
      op.source = {e.path, e.line};
      add_operator(out, std::move(op));
    }
  }
  return out;
}

}  // namespace npu_doctor::atc_detail
