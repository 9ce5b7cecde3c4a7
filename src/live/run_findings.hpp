#pragma once
// The findings `run` adds that no log line states (kb/live.yaml): the job looked hung,
// a signal ended it. Their evidence is the job's last lines on each stream.
#include <chrono>
#include <optional>
#include <string>

#include "live/live_sources.hpp"
#include "npu_doctor/finding.hpp"

namespace npu_doctor::live {

// `streams`: how many of the first sources are the job's own streams (stdout, stderr).
std::optional<Finding> hang_finding(const KnowledgeBase& kb, const LiveSources& sources, std::size_t streams,
                                    std::chrono::milliseconds silent_for);
std::optional<Finding> killed_finding(const KnowledgeBase& kb, const LiveSources& sources, std::size_t streams,
                                      int signal, double seconds);

// "90s", "2m30s", "1h5m": a duration as people write it.
std::string human_duration(std::chrono::milliseconds d);

}  // namespace npu_doctor::live
