#pragma once
// What the measurements of `net test` mean: links that are broken (unreachable, silent),
// slow (throughput far below the expected figure, or below the upper quartile of all
// links) or laggy (round trips far above the lower quartile of all links, unanswered
// pings); in matrix mode, a host whose every link is bad is named instead of its links.
#include <optional>
#include <string>
#include <vector>

#include "net/link_test.hpp"
#include "net/matrix.hpp"
#include "npu_doctor/finding.hpp"
#include "npu_doctor/knowledge_base.hpp"

namespace npu_doctor::net {

struct NetAnalysisOptions {
  std::optional<double> expect_bps;    // --expect-throughput, bits per second
  std::optional<double> max_rtt_ms;    // --max-rtt
  double min_ratio = 0.5;              // slow: below this fraction of the reference throughput
};

// Relative judgements (against the upper quartile of all throughputs, the lower quartile
// of all round trips) need this many measured values.
inline constexpr std::size_t kMinSamples = 3;

struct NetReport {
  std::string kb_version;
  std::string mode;                    // "direct" or "matrix"
  LinkTestOptions link_options;
  NetAnalysisOptions analysis;
  std::vector<Endpoint> hosts;
  std::vector<LinkResult> control;     // matrix: this host to each host
  std::vector<LinkResult> links;       // direct: this host to each target; matrix: the pairs
  std::optional<double> reference_bps; // what "slow" was measured against
  std::string reference_source;        // "given" or "upper quartile"
  std::optional<double> reference_rtt_ms;
  std::vector<std::string> bad_hosts;  // matrix: hosts all of whose links are bad
  std::vector<Finding> findings;
};

NetReport analyse_direct(std::vector<Endpoint> targets, std::vector<LinkResult> links, const LinkTestOptions& link,
                         const NetAnalysisOptions& options, const KnowledgeBase& kb);
NetReport analyse_matrix(MatrixResult matrix, const LinkTestOptions& link, const NetAnalysisOptions& options,
                         const KnowledgeBase& kb);

// "9.41 Gbit/s", "812 Mbit/s"
std::string format_rate(double bits_per_second);

}  // namespace npu_doctor::net
