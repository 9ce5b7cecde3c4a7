#include <algorithm>

#include "profile.hpp"

namespace npu_doctor {

bool OpStat::is_communication() const {
  return task_type == "COMMUNICATION" || task_type == "HCCL" || task_type.rfind("HCCL_", 0) == 0 ||
         type.rfind("hcom_", 0) == 0;
}

bool ProfileReport::any_data() const {
  return !ops.empty() || time_split.has_value() || !ranks.empty() || compile.compile_calls > 0;
}

std::vector<const OpStat*> ProfileReport::top_by_total() const {
  std::vector<const OpStat*> v;
  for (const auto& o : ops) v.push_back(&o);
  std::stable_sort(v.begin(), v.end(), [](const OpStat* a, const OpStat* b) { return a->total_us > b->total_us; });
  if (v.size() > top) v.resize(top);
  return v;
}

std::vector<const OpStat*> ProfileReport::top_by_average() const {
  std::vector<const OpStat*> v;
  for (const auto& o : ops) v.push_back(&o);
  std::stable_sort(v.begin(), v.end(), [](const OpStat* a, const OpStat* b) { return a->avg_us() > b->avg_us(); });
  if (v.size() > top) v.resize(top);
  return v;
}

}  // namespace npu_doctor
