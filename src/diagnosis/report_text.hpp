#pragma once
// Small helpers shared by the renderers.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diagnosis.hpp"
#include "render/finding_text.hpp"

namespace npu_doctor::render_detail {

// Findings listed in a report section: root first, then the rest grouped by
// category in priority order, each group by first occurrence.
std::vector<std::size_t> presentation_order(const DiagnosisReport& r);
std::vector<std::size_t> presentation_order(const std::vector<Finding>& findings,
                                            const std::optional<RootCauseDecision>& root);

// Whether inputs[index] belongs to the incident shown (always, without a split).
bool in_shown_incident(const DiagnosisReport& r, std::size_t index);

// "sole_error", "most_specific", ... (the JSON's root_cause.basis).
std::string_view basis_name(RootCauseDecision::Basis b);

// How a finding stands to the root cause; each finding has exactly one relation, and
// every report says it the same way (the JSON's findings[].relation).
enum class Relation {
  root_cause,   // the root cause, or an error read from its own evidence line
  symptom,      // follows from the root cause (symptoms, wrappers, its failure block)
  independent,  // an error of its own, to check after the root cause
  context,      // hints, warnings and information
};
Relation relation_of(const std::optional<RootCauseDecision>& root, std::size_t index);
std::string_view to_string(Relation r);

// The peer rank a timeout on `f`'s lines waited for, when a line names it (HCCL's
// "remote rank [24]"): the hint's capture on the same line, or `f`'s own.
struct PeerWait {
  std::optional<int> rank;  // the rank that waited, when known
  int peer = -1;
};
std::optional<PeerWait> peer_wait(const std::vector<Finding>& findings, const InputStore& inputs,
                                  const Finding& f);

// "expected here: <the user's reason>" for a finding the user declared (docs/expected-errors.md).
std::string expected_note(const Finding& f, Lang lang);

// Display paths: what distinguishes the inputs. The directory all scanned inputs share is
// cut off ("/tmp/job/node-1/rank_3/train.log" -> "node-1/rank_3/train.log"); a single
// input keeps its file name.
class PathNames {
 public:
  explicit PathNames(const InputStore& inputs);
  const std::string& common() const { return common_; }  // "" when nothing is shared
  std::string shorten(const std::string& path) const;
  std::string location(const Evidence& e) const { return shorten(e.path) + ":" + std::to_string(e.line); }

 private:
  std::string common_;
};

}  // namespace npu_doctor::render_detail
