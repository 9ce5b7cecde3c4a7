#pragma once
// What happened to each input: read, skipped (binary, not a regular file) or failed.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "npu_doctor/interned_string.hpp"
#include "npu_doctor/timeline.hpp"

namespace npu_doctor {

enum class InputStatus {
  ok,       // read completely
  skipped,  // deliberately not scanned (binary data, not a regular file)
  error,    // could not be read at all
  partial,  // read in part: truncated archive, read error, size cap
};

std::string_view to_string(InputStatus s);

struct InputReport {
  std::string path;        // as shown to the user; archive members as "a.tar.gz:dir/file.log"
  // Interned (one pointer): the same few words for every input.
  InternedString kind;     // "file", "stdin", "archive member", "compressed file", "path"
  uint64_t bytes = 0;      // bytes scanned (after decompression)
  uint64_t lines = 0;
  InputStatus status = InputStatus::ok;
  std::string note;        // why skipped, or the error, in plain words
  std::optional<int> rank; // the rank this input belongs to, when known (path or lines)
  InternedString host;     // the node, when the path names it (interned: a node has many inputs)
  InputTimeline timeline;  // first occurrences and time span, for cross-rank analysis
};

inline InputReport input_report(std::string path, std::string kind, InputStatus status = InputStatus::ok,
                                std::string note = {}) {
  InputReport r;
  r.path = std::move(path);
  r.kind = std::move(kind);
  r.status = status;
  r.note = std::move(note);
  return r;
}

}  // namespace npu_doctor
