#include "npu_smi_query.hpp"

namespace npu_doctor {

NpuSmiQuery query_npu_smi_info(const Probe& probe) {
  NpuSmiQuery q;
  q.result = probe.run({"npu-smi", "info"});
  if (q.result.ok()) q.info = parse_npu_smi_info(q.result.out, &q.parse_error);
  return q;
}

}  // namespace npu_doctor
