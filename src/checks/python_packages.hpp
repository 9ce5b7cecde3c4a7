#pragma once
// Where a Python environment keeps its packages and which versions they are, read from
// package metadata (no import): `*.dist-info/METADATA` and `*.egg-info/PKG-INFO` under
// site-packages. Pure parsers plus the small Python programs the check runs.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npu_doctor::checks {

// "torch-npu", "Torch_NPU" -> "torch_npu" (PEP 503 normalisation with '_').
std::string normalize_package_name(std::string_view name);

struct PackageDirName {
  std::string name;     // normalised
  std::string version;  // as in the directory name
};
// "torch_npu-2.1.0.post8.dist-info", "torch-2.1.0-py3.9.egg-info" -> name and version.
std::optional<PackageDirName> parse_package_dir_name(std::string_view dir_name);

struct PackageMetadata {
  std::string name;
  std::string version;
};
// The Name: and Version: headers of METADATA / PKG-INFO (until the first blank line).
std::optional<PackageMetadata> parse_package_metadata(std::string_view text);

// The program that prints the interpreter's version and its sys.path, one per line.
std::string_view python_paths_program();
struct PythonPaths {
  std::string version;              // "3.9.18"
  std::vector<std::string> paths;   // sys.path entries that are absolute
};
std::optional<PythonPaths> parse_python_paths(std::string_view output);

// The --probe-device program: imports torch_npu, asks torch.npu.is_available() and the
// device count, and adds two tensors on the NPU; prints one marked JSON line.
std::string_view device_probe_program();
struct DeviceProbeResult {
  std::string stage;  // import, is_available, tensor, done: how far it got
  std::string torch, torch_npu;
  std::optional<bool> available;
  std::optional<long long> device_count;
  std::optional<double> tensor_sum;  // 4.0 when the tensor round trip worked
  std::string error;  // "ImportError: libhccl.so: cannot open shared object file..."
  std::string line;   // the marked line as printed

  bool ok() const { return stage == "done" && available.value_or(false) && error.empty(); }
};
std::optional<DeviceProbeResult> parse_device_probe(std::string_view output);

}  // namespace npu_doctor::checks
