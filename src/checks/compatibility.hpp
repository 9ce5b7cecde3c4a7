#pragma once
// The shipped compatibility table (data/compatibility.yaml, schema
// npu-doctor/compatibility/v1): driver ↔ firmware, CANN ↔ driver, torch_npu ↔ PyTorch ↔
// CANN, each row with its source. Loading reports problems with file:line, like the
// knowledge base; queries answer "compatible", "not compatible" or "not known".
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "checks/version.hpp"
#include "npu_doctor/embedded_files.hpp"

namespace npu_doctor {
// data/compatibility.yaml, embedded by src/checks/sources.cmake.
std::span<const EmbeddedFile> embedded_check_data();
}  // namespace npu_doctor

namespace npu_doctor::checks {

struct TableProblem {
  int line = 0;
  std::string message;
};

struct DriverFirmwareRow {
  VersionSpec driver;
  std::vector<VersionSpec> firmware;
  std::string cann;  // the CANN release the pair was given for, if any
  bool verified = true;
  std::string source;
  int line = 0;
};

struct CannDriverRow {
  Version cann;
  Version driver;  // the Ascend HDK released with this CANN: the minimum driver
  std::string source;
  int line = 0;
};

struct TorchNpuRow {
  Version torch_npu;
  Version pytorch;
  std::vector<Version> cann;
  std::string source;
  int line = 0;
};

enum class Verdict { compatible, incompatible, unknown };

struct DriverFirmwareAnswer {
  Verdict verdict = Verdict::unknown;
  bool verified = false;  // the deciding rows are verified (only then is incompatible an error)
  std::vector<const DriverFirmwareRow*> rows;  // the rows for this driver
  std::string expected;   // the firmware specs those rows accept, for the message
};

struct CannDriverAnswer {
  const CannDriverRow* row = nullptr;  // the newest row not newer than the CANN version
  bool exact = false;                  // the row is for exactly this CANN version
};

class CompatibilityTable {
 public:
  // Parses the YAML text; rows with problems are left out and reported.
  static CompatibilityTable parse(std::string_view yaml, std::vector<TableProblem>& problems);
  // The table built into the binary.
  static const CompatibilityTable& builtin();

  DriverFirmwareAnswer driver_firmware(const Version& driver, const Version& firmware) const;
  CannDriverAnswer cann_driver(const Version& cann) const;
  // The row of this torch_npu release (local labels and .devN ignored), or nullptr.
  const TorchNpuRow* torch_npu(const Version& torch_npu) const;
  // The full text of a source key.
  std::string source_text(const std::string& key) const;

  const std::vector<DriverFirmwareRow>& driver_firmware_rows() const { return driver_firmware_; }
  const std::vector<CannDriverRow>& cann_driver_rows() const { return cann_driver_; }
  const std::vector<TorchNpuRow>& torch_npu_rows() const { return torch_npu_; }

 private:
  std::vector<std::pair<std::string, std::string>> sources_;
  std::vector<DriverFirmwareRow> driver_firmware_;
  std::vector<CannDriverRow> cann_driver_;
  std::vector<TorchNpuRow> torch_npu_;
};

// "2.1.0.post8.dev20241009+cpu" -> "2.1.0.post8": the release a build belongs to.
std::string without_build_suffix(std::string_view version);

}  // namespace npu_doctor::checks
