#pragma once
// `hccl ranktable`: validates a rank table (hccl.json, RANK_TABLE_FILE) of version 1.0
// (Atlas training / A2), 1.1 (heterogeneous) or 1.2 (Atlas A3 SuperPoD, super_pod_list),
// and tolerates 2.0 (Atlas 950, rank_list). Every problem names the file, line, column
// and JSON path ("hccl.json:14:25: server_list[1].device[3].rank_id").
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "npu_doctor/finding.hpp"
#include "npu_doctor/knowledge_base.hpp"

namespace npu_doctor::hccl {

struct RankTableDevice {
  std::string device_id;
  std::string device_ip;
  std::string rank_id;
  std::string super_device_id;
};

struct RankTableServer {
  std::string server_id;
  std::string host_ip;
  std::vector<RankTableDevice> devices;
};

struct RankTableReport {
  std::string path;
  std::string kb_version;
  bool parsed = false;              // false: not JSON (one finding says where)
  std::string version;              // "1.0", "1.2", "2.0" ...
  std::string status;               // "completed"
  std::optional<long long> server_count;  // as declared
  std::vector<RankTableServer> servers;   // 1.x
  std::size_t ranks = 0;                  // devices (1.x) or rank_list entries (2.0)
  std::size_t super_pods = 0;
  std::vector<Finding> findings;          // in file order
};

RankTableReport check_rank_table(const std::string& path, std::string_view text, const KnowledgeBase& kb);

}  // namespace npu_doctor::hccl
