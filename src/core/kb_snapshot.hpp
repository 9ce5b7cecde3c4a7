#pragma once
// The built-in knowledge base travels inside the binary as a compact snapshot written at
// build time by npu-doctor-kbc from kb/*.yaml (after a full lint), so start-up does not
// parse YAML; its message catalogue is read in place (npu_doctor/catalogue.hpp).
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "npu_doctor/catalogue.hpp"
#include "npu_doctor/embedded_files.hpp"
#include "npu_doctor/knowledge_base.hpp"

namespace npu_doctor {

// `matcher_image`: KbMatcher::write_image() of a matcher built on this snapshot read back
// (npu-doctor-kbc writes the snapshot twice), or empty.
std::string write_kb_snapshot(const KnowledgeBase& kb, std::string_view matcher_image = {});

// nullopt when `data` is not a snapshot of this build's format. The knowledge base reads
// its catalogue from `data` in place: `data` must outlive it, which `owner` (when given)
// guarantees; null means `data` lives forever (the snapshot compiled into the binary).
// `bytes` says whether `data` is a read-only file mapping whose pages may be given back.
// `texts`: deferred leaves the hand-written entries' texts in `data` until
// KnowledgeBase::with_texts() asks for one entry's (explain).
enum class EntryTexts { decoded, deferred };
std::optional<KnowledgeBase> read_kb_snapshot(std::string_view data, std::shared_ptr<const std::string> owner = nullptr,
                                              Catalogue::Bytes bytes = Catalogue::Bytes::in_memory,
                                              EntryTexts texts = EntryTexts::decoded);
// The same, for bytes of no lasting home (a file, a test): the knowledge base keeps them.
std::optional<KnowledgeBase> read_kb_snapshot_copy(std::string data);

// The version and entry count of a snapshot without decoding its entries (--version).
struct KbSnapshotSummary {
  std::string version;
  std::size_t entries = 0;
};
std::optional<KbSnapshotSummary> read_kb_snapshot_summary(std::string_view data);

// The snapshots the knowledge base is read from: the built-in one, or the file that
// NPU_DOCTOR_KB_SNAPSHOT names instead (mapped for the life of the process; an empty
// content when it cannot be mapped). `--version` and the loader read the same.
std::vector<EmbeddedFile> kb_snapshots_in_use();

}  // namespace npu_doctor
