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

}  // namespace npu_doctor
