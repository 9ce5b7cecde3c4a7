#include "bundle/bundle_test_support.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <fstream>
#include <stdexcept>

#include "checks/check_test_support.hpp"

namespace fs = std::filesystem;

namespace npu_doctor::bundle::testing {

std::string bundle_fixtures() { return NPU_DOCTOR_BUNDLE_FIXTURES; }

FixtureHost make_host(const fs::path& dir, const std::string& base, const std::string& hostname, bool with_network) {
  FixtureHost h;
  h.machine = checks::testing::copy_machine(base, dir);
  h.root = h.machine + "/root";
  {
    std::ofstream(h.root + "/etc/hostname") << hostname << "\n";
    std::ofstream(h.root + "/etc/passwd", std::ios::app) << "alice:x:1001:1001:Alice:/home/alice:/bin/bash\n";
  }
  h.log_dir = h.root + "/root/ascend/log";
  fs::create_directories(h.log_dir + "/debug/plog");
  fs::copy_file(bundle_fixtures() + "/logs/plog-2789701_20240903164958001.log",
                h.log_dir + "/debug/plog/plog-2789701_20240903164958001.log");
  if (with_network) {
    for (const char* tool : {"ip", "hccn_tool"}) {
      fs::create_symlink(bundle_fixtures() + "/stand-in/" + tool, h.machine + "/bin/" + tool);
    }
  }
  h.env = checks::testing::machine_process_env(h.machine);
  return h;
}

void plant_secret_forms(const FixtureHost& h) {
  for (const char* f : {"train-secrets.log", "env-dump.txt"}) {
    fs::copy_file(bundle_fixtures() + "/forms/" + f, h.log_dir + "/" + f);
  }
  fs::create_symlink(bundle_fixtures() + "/stand-in/lscpu", h.machine + "/bin/lscpu");
}

const std::vector<std::string>& planted_form_secrets() {
  static const std::vector<std::string> s = {
      "UGxhbnRlZEJhc2ljMTE",  // base64 of PlantedBasic11
      "eyJwbGFudGVkIjoiMzEifQ", "UGxhbnRlZEp3dFNpZzMx", "Json Secret 08", "PlantedCookie12"};
  return s;
}

std::vector<std::string> planted_form_env() {
  std::vector<std::string> env = extra_env();
  for (const char* v : {"HCCL_SESSION_TOKEN=PlantedProcessEnv48", "ASCEND_OBS_SK=PlantedProcessEnvSk49abcdef0123",
                        "ASCEND_DB_URL=mysql://app:PlantedProcessEnvUrl50@db.internal:3306/meta",
                        "ASCEND_LAUNCH_ARGS=--password PlantedProcessEnvFlag51 --max_tokens=4096"}) {
    env.push_back(v);
  }
  return env;
}

const std::vector<std::string>& planted_secrets() {
  static const std::vector<std::string> s = {
      // fixtures/logs
      "Pl4nted-UrlPass", "eyJzdWIiOiJwbGFudGVkLWp3dCJ9", "c2lnbmF0dXJlLXBsYW50ZWQtand0", "plantedHubTokenValue42",
      "ghp_PlantedGithubToken", "hf_PlantedHuggingFaceToken", "AKIAPLANTEDACCESSK01", "PlantedSecretKeyValue",
      "Pl4ntedJsonPassw0rd",
      // extra_env()
      "PlantedAscendSecretEnv99", "PlantedHcclPassword77", "PlantedUrlEnvPass", "ghp_PlantedEnvGithubToken",
      "hf_PlantedEnvHfToken", "PlantedAwsSecretEnv"};
  return s;
}

std::vector<std::string> extra_env() {
  return {"ASCEND_SECRET_KEY=PlantedAscendSecretEnv99",
          "HCCL_AUTH_PASSWORD=PlantedHcclPassword77",
          "PYTORCH_INIT_URL=tcp://admin:PlantedUrlEnvPass@10.20.30.41:29500",
          "TORCH_HUB_TOKEN=ghp_PlantedEnvGithubToken0123456789",
          "ASCEND_MODEL_URL=https://hf.example.com/x?k=1 hf_PlantedEnvHfToken0123456789abc",
          "AWS_SECRET_ACCESS_KEY=PlantedAwsSecretEnv",
          "MASTER_ADDR=10.20.30.41",
          "USER=alice"};
}

namespace {

struct Reader {
  archive* a = archive_read_new();
  explicit Reader(const std::string& path, bool raw) {
    archive_read_support_filter_all(a);
    if (raw) archive_read_support_format_raw(a);
    else archive_read_support_format_tar(a);
    if (archive_read_open_filename(a, path.c_str(), 1 << 16) != ARCHIVE_OK) {
      throw std::runtime_error(path + ": " + archive_error_string(a));
    }
  }
  ~Reader() { archive_read_free(a); }
  std::string data() {
    std::string out;
    char buf[1 << 16];
    for (la_ssize_t n; (n = archive_read_data(a, buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
    return out;
  }
};

}  // namespace

std::map<std::string, std::string> read_members(const std::string& path) {
  Reader r(path, false);
  std::map<std::string, std::string> out;
  archive_entry* e = nullptr;
  while (archive_read_next_header(r.a, &e) == ARCHIVE_OK) {
    if (archive_entry_filetype(e) != AE_IFREG) continue;
    out[archive_entry_pathname(e)] = r.data();
  }
  return out;
}

std::string decompressed(const std::string& path) {
  Reader r(path, true);
  archive_entry* e = nullptr;
  if (archive_read_next_header(r.a, &e) != ARCHIVE_OK) return {};
  return r.data();
}

void unpack(const std::string& path, const fs::path& dir) {
  for (const auto& [name, data] : read_members(path)) {
    fs::create_directories((dir / name).parent_path());
    std::ofstream(dir / name, std::ios::binary) << data;
  }
}

std::string member(const std::map<std::string, std::string>& members, const std::string& suffix) {
  for (const auto& [name, data] : members) {
    if (name.ends_with("/" + suffix)) return data;
  }
  return {};
}

}  // namespace npu_doctor::bundle::testing
