#pragma once
// `npu-doctor check` as a library call: run the requested steps in order over a probe.
#include "checks/check_context.hpp"
#include "checks/check_report.hpp"

namespace npu_doctor::checks {

// Never throws for anything the machine returns (a knowledge base without the built-in
// entries throws MissingEntry: a bug of the tool, not of the machine).
CheckReport run_checks(const Probe& probe, const KnowledgeBase& kb, const CompatibilityTable& table,
                       const CheckOptions& options);

// The knowledge-base ids the steps raise (tests check that every one exists).
std::vector<EntryId> check_finding_ids();

}  // namespace npu_doctor::checks
