#pragma once
// Where the CANN processes of a job write their plog and device logs, by the variables
// CANN itself reads: $ASCEND_PROCESS_LOG_PATH (the whole tree: debug/plog, debug/device-N,
// run/...), else $ASCEND_WORK_PATH/log/debug, else ~/ascend/log/debug (plog/ and the
// device-N/ folders).
#include <string>
#include <vector>

namespace npu_doctor::live {

std::vector<std::string> default_plog_roots();

}  // namespace npu_doctor::live
