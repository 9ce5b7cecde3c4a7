// The knowledge-base compiler runs before there is a snapshot to embed.
#include "npu_doctor/embedded_files.hpp"

namespace npu_doctor {
std::span<const EmbeddedFile> embedded_knowledge_base() { return {}; }
}  // namespace npu_doctor
