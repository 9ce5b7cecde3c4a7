// The knowledge-base compiler and the word trainer run before there is a snapshot or a
// model to embed.
#include "npu_doctor/embedded_files.hpp"

namespace npu_doctor {
std::span<const EmbeddedFile> embedded_knowledge_base() { return {}; }
std::span<const EmbeddedFile> embedded_word_model() { return {}; }
}  // namespace npu_doctor
