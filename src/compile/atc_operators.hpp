#pragma once
// Operators and phases from what the knowledge base recognised: the named groups of
// its patterns (op, optype, pass) and, for code-only entries (E-codes), the argument
// layouts of the GE/FE message catalogue ("Op [name, optype [type]]", "node:name(type)").
#include <string>
#include <string_view>
#include <vector>

#include "atc.hpp"

namespace npu_doctor::atc_detail {

// "ai.onnx::11::grid_sampler" -> domain ai.onnx, opset 11, type grid_sampler.
void split_optype(std::string_view optype, AtcOperator& op);

// Name and type from a message line, by the catalogue's layouts; empty when none fits.
AtcOperator operator_from_text(std::string_view text);

// Name and type from a line of an unsupported-operator report (op_not_support.log, whose
// format is not documented): "op name"/"op type" key-value pairs, else the catalogue layouts.
AtcOperator operator_from_report_line(std::string_view text);

// Adds `op` unless an operator with the same name and type is there; an entry with the
// same name and no type takes the type (one message names the node, another its type).
void add_operator(std::vector<AtcOperator>& ops, AtcOperator op);

// The fusion pass a line names ("Fusion pass XFusionPass run failed", "[XFusionPass]").
std::string fusion_pass_from_text(std::string_view text);

// The ATC phase a finding belongs to, from its entry and code.
AtcPhase phase_of(const Finding& f);

// Every operator named by the findings' evidence, in order of appearance, de-duplicated.
std::vector<AtcOperator> operators_from_findings(const std::vector<Finding>& findings);

}  // namespace npu_doctor::atc_detail
