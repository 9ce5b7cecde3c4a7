#include "checks/python_packages.hpp"

#include <cctype>
#include <nlohmann/json.hpp>

#include "core/text_util.hpp"

namespace npu_doctor::checks {

std::string normalize_package_name(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      if (out.empty() || out.back() != '_') out += '_';
    } else {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

std::optional<PackageDirName> parse_package_dir_name(std::string_view dir_name) {
  std::string_view stem;
  if (dir_name.ends_with(".dist-info")) {
    stem = dir_name.substr(0, dir_name.size() - 10);
  } else if (dir_name.ends_with(".egg-info")) {
    stem = dir_name.substr(0, dir_name.size() - 9);
  } else {
    return std::nullopt;
  }
  // Name and version are separated by the first '-' (names use '_' in these directories).
  const std::size_t dash = stem.find('-');
  if (dash == std::string_view::npos || dash == 0) return std::nullopt;
  std::string_view version = stem.substr(dash + 1);
  if (const std::size_t py = version.find("-py"); py != std::string_view::npos) version = version.substr(0, py);
  if (version.empty()) return std::nullopt;
  return PackageDirName{normalize_package_name(stem.substr(0, dash)), std::string(version)};
}

std::optional<PackageMetadata> parse_package_metadata(std::string_view text) {
  if (looks_binary(text)) return std::nullopt;
  PackageMetadata m;
  for (std::string_view line : split(text, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (trim(line).empty()) break;  // end of the headers
    if (line.starts_with("Name:")) m.name = normalize_package_name(trim(line.substr(5)));
    if (line.starts_with("Version:")) m.version = std::string(trim(line.substr(8)));
  }
  if (m.name.empty() || m.version.empty()) return std::nullopt;
  return m;
}

namespace {
constexpr std::string_view kPathMark = "NPU_DOCTOR_PATH ";
constexpr std::string_view kVersionMark = "NPU_DOCTOR_PYTHON ";
constexpr std::string_view kProbeMark = "NPU_DOCTOR_PROBE ";
}  // namespace

std::string_view python_paths_program() {
  // Marked lines, so that whatever a sitecustomize prints is ignored.
  return "import sys\n"
         "print('NPU_DOCTOR_PYTHON ' + sys.version.split()[0])\n"
         "for p in sys.path:\n"
         "    print('NPU_DOCTOR_PATH ' + p)\n";
}

std::optional<PythonPaths> parse_python_paths(std::string_view output) {
  PythonPaths p;
  bool seen = false;
  for (std::string_view line : split(output, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.starts_with(kVersionMark)) {
      p.version = std::string(trim(line.substr(kVersionMark.size())));
      seen = true;
    } else if (line.starts_with(kPathMark)) {
      const std::string_view path = line.substr(kPathMark.size());
      if (path.starts_with('/')) p.paths.emplace_back(path);
      seen = true;
    }
  }
  if (!seen) return std::nullopt;
  return p;
}

std::string_view device_probe_program() {
  return "import json\n"
         "r = {'stage': 'import'}\n"
         "try:\n"
         "    import torch\n"
         "    r['torch'] = str(torch.__version__)\n"
         "    import torch_npu\n"
         "    r['torch_npu'] = str(getattr(torch_npu, '__version__', ''))\n"
         "    r['stage'] = 'is_available'\n"
         "    r['available'] = bool(torch.npu.is_available())\n"
         "    r['device_count'] = int(torch.npu.device_count())\n"
         "    if r['available']:\n"
         "        r['stage'] = 'tensor'\n"
         "        t = torch.ones(2, device='npu')\n"
         "        r['tensor_sum'] = float((t + t).sum().cpu())\n"
         "    r['stage'] = 'done'\n"
         "except BaseException as e:\n"
         "    r['error'] = (type(e).__name__ + ': ' + str(e))[:2000]\n"
         "print('NPU_DOCTOR_PROBE ' + json.dumps(r), flush=True)\n";
}

std::optional<DeviceProbeResult> parse_device_probe(std::string_view output) {
  for (std::string_view line : split(output, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.starts_with(kProbeMark)) continue;
    const auto j = nlohmann::json::parse(line.substr(kProbeMark.size()), nullptr, false);
    if (j.is_discarded() || !j.is_object()) return std::nullopt;
    DeviceProbeResult r;
    r.line = std::string(line);
    auto str = [&](const char* key) {
      return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
    };
    r.stage = str("stage");
    r.torch = str("torch");
    r.torch_npu = str("torch_npu");
    r.error = str("error");
    if (j.contains("available") && j["available"].is_boolean()) r.available = j["available"].get<bool>();
    if (j.contains("device_count") && j["device_count"].is_number_integer()) {
      r.device_count = j["device_count"].get<long long>();
    }
    if (j.contains("tensor_sum") && j["tensor_sum"].is_number()) r.tensor_sum = j["tensor_sum"].get<double>();
    if (r.stage.empty()) return std::nullopt;
    return r;
  }
  return std::nullopt;
}

}  // namespace npu_doctor::checks
