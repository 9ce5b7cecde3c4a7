#pragma once
// Data files compiled into the binary (see cmake/NpuDoctorEmbed.cmake).
#include <span>
#include <string_view>

namespace npu_doctor {

struct EmbeddedFile {
  std::string_view name;     // file name, e.g. "acl_runtime.yaml"
  std::string_view content;  // the file's bytes
};

// The knowledge base shipped with this build (kb/*.yaml).
std::span<const EmbeddedFile> embedded_knowledge_base();

// The word fallback's model trained from it (words.model; empty in the build tools).
std::span<const EmbeddedFile> embedded_word_model();

}  // namespace npu_doctor
