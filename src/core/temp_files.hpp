#pragma once
// Where npu-doctor puts its temporary files: $TMPDIR when set and not empty, else /tmp.
#include <string>
#include <string_view>

namespace npu_doctor {

std::string temporary_directory();

// A new owner-only file in temporary_directory() named <prefix>XXXXXX, already unlinked
// (nothing is left behind, even after a crash); -1 when it cannot be created.
int open_unlinked_temporary(std::string_view prefix);

}  // namespace npu_doctor
