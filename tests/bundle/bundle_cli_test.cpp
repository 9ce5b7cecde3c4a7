// `npu-doctor bundle` as users run it, on a fixture host (a check fixture machine with a
// host name, a login user, a plog and environment variables holding planted secrets,
// stand-in ip/hccn_tool/npu-smi first on PATH): no secret in any byte of the archive,
// version strings and error codes intact, missing tools, unreadable files and a hung
// tool recorded, and the round trip: diagnose and check on the bundle (archive and
// unpacked) give the live verdicts.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cctype>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "bundle/bundle_test_support.hpp"
#include "bundle/redaction.hpp"
#include "bundle/sha256.hpp"
#include "checks/check_test_support.hpp"
#include "support/test_support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace npu_doctor::bundle {
namespace {

using npu_doctor::testing::RunResult;
using npu_doctor::testing::run_npu_doctor;
using npu_doctor::testing::TempDir;
using testing::FixtureHost;

RunResult run_on(const FixtureHost& h, std::vector<std::string> args, std::vector<std::string> env = testing::extra_env()) {
  checks::testing::ScopedEnv scoped(h.env);
  return run_npu_doctor(args, "", env);
}

RunResult bundle_of(const FixtureHost& h, const std::string& out, std::vector<std::string> more = {}) {
  std::vector<std::string> args = {"bundle", "--root", h.root, "-o", out, "--timeout", "5"};
  args.insert(args.end(), more.begin(), more.end());
  return run_on(h, args);
}

json manifest_of(const std::string& archive) {
  return json::parse(testing::member(testing::read_members(archive), "manifest.json"));
}

std::string skipped_reason(const json& manifest, const std::string& item) {
  for (const auto& s : manifest["skipped"]) {
    if (s["item"].get<std::string>().find(item) != std::string::npos) return s["reason"];
  }
  return "";
}

// What must be equal between the live check and the check of a bundle.
json check_verdict(const std::string& text) {
  const json j = json::parse(text);
  json v = {{"status", j["status"]}, {"steps", json::array()}};
  for (const auto& s : j["steps"]) {
    json rules = json::array();
    for (const auto& f : s["findings"]) rules.push_back(f["rule"]);
    v["steps"].push_back({{"id", s["id"]}, {"status", s["status"]}, {"rules", rules}, {"facts", s.value("facts", json())}});
  }
  return v;
}

json diagnosis_verdict(const std::string& text) {
  const json j = json::parse(text);
  json v = {{"findings", json::array()}, {"root", j.contains("root_cause") ? j["root_cause"]["rule"] : json()}};
  for (const auto& f : j["findings"]) v["findings"].push_back({f["rule"], f["code"], f["count"]});
  return v;
}

TEST(BundleCli, NoPlantedSecretInAnyByteWhileVersionsAndCodesSurvive) {
  TempDir t;
  const FixtureHost h = testing::make_host(t.path() / "host");
  const std::string out = (t.path() / "b.tar.gz").string();
  const RunResult r = bundle_of(h, out);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Bundle written: " + out), std::string::npos) << r.out;

  const std::string all = testing::decompressed(out);
  ASSERT_GT(all.size(), 10000u);
  const auto members = testing::read_members(out);
  for (const auto& secret : testing::planted_secrets()) {
    EXPECT_EQ(all.find(secret), std::string::npos) << "planted secret " << secret << " is in the archive";
    for (const auto& [name, data] : members) EXPECT_EQ(data.find(secret), std::string::npos) << secret << " in " << name;
  }
  // The log arrived, redacted, with versions and codes intact.
  const std::string log = testing::member(members, "logs/root/ascend/log/debug/plog/plog-2789701_20240903164958001.log");
  ASSERT_FALSE(log.empty());
  for (const char* keep : {"8.0.RC3.alpha002", "24.1.rc2", "1.0.RC2", "7.5.0.1.129", "2.1.0.post8", "EL0004",
                           "ERR01006", "0x7150050", "0x0b0a1020", "507046", "EE1002", "https://<redacted:url-credentials>@pypi",
                           "10.20.30.41", "node-a17"}) {
    EXPECT_NE(log.find(keep), std::string::npos) << keep;
  }
  // The checklist is there.
  for (const char* name : {"npu-doctor-bundle.json", "manifest.json", "report.md", "environment.txt",
                           "hardware/npu-smi-info.txt", "hardware/npu-smi-board-0.txt", "hardware/npu-smi-health-0.txt",
                           "network/ip-addr.txt", "network/ip-route.txt",
                           "network/hccn_tool.txt", "check/report.json", "check/report.txt", "check/probe-record.json",
                           "diagnose/report.json", "diagnose/report.txt",
                           "sysroot/usr/local/Ascend/driver/version.info"}) {
    EXPECT_FALSE(testing::member(members, name).empty()) << name;
  }
  EXPECT_EQ(members.begin()->first.substr(0, 2), "b/") << "one top directory named after the archive";
  const std::string env = testing::member(members, "environment.txt");
  EXPECT_NE(env.find("ASCEND_SECRET_KEY=<redacted>\n"), std::string::npos) << env;
  EXPECT_NE(env.find("MASTER_ADDR=10.20.30.41\n"), std::string::npos) << env;
  EXPECT_NE(env.find("ASCEND_TOOLKIT_HOME=/usr/local/Ascend/ascend-toolkit/latest\n"), std::string::npos);
  EXPECT_EQ(env.find("AWS_"), std::string::npos) << "not a variable of an NPU job";
  const std::string hccn = testing::member(members, "network/hccn_tool.txt");
  EXPECT_NE(hccn.find("hccn_tool -i 1 -ip -g\nipaddr:192.168.101.10"), std::string::npos) << hccn;

  const std::string report = testing::member(members, "report.md");
  for (const char* part : {"## Steps to reproduce", "## Hardware", "| driver_version | ", "## Root cause from the logs",
                           "507046", "## Environment variables", "## Network topology", "enp61s0f0"}) {
    EXPECT_NE(report.find(part), std::string::npos) << part << "\n" << report;
  }

  // The manifest: every other member with its size and checksum, in order, marker first.
  const json m = manifest_of(out);
  EXPECT_EQ(m["schema"], "npu-doctor/bundle-manifest/v1");
  EXPECT_EQ(m["members"].size() + 1, members.size());
  EXPECT_EQ(m["members"][0]["path"], "npu-doctor-bundle.json");
  for (const auto& mm : m["members"]) {
    const std::string data = members.at("b/" + mm["path"].get<std::string>());
    EXPECT_EQ(mm["size"], data.size());
    EXPECT_EQ(mm["sha256"], sha256_hex(data)) << mm["path"];
  }
  EXPECT_GE(m["redactions"]["url-credentials"].get<int>(), 2);
  EXPECT_GE(m["redactions"]["variable"].get<int>(), 2);
  EXPECT_NE(skipped_reason(m, "numactl"), "") << "numactl is not on the fixture PATH";

  struct stat st {};
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Issue 21: every form of secret, planted in logs, an env dump, the process environment
// and a command's output, is in no file of the bundle (every member unpacked, names too,
// and the raw tar stream), the reports made from the logs included, while the ordinary
// words beside them stay.
TEST(BundleCli, EverySecretFormPlantedOnTheHostIsInNoFileOfTheBundle) {
  TempDir t;
  const FixtureHost h = testing::make_host(t.path() / "host");
  testing::plant_secret_forms(h);
  const std::string out = (t.path() / "b.tar.gz").string();
  const RunResult r = run_on(h, {"bundle", "--root", h.root, "-o", out, "--timeout", "5"}, testing::planted_form_env());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;

  const auto members = testing::read_members(out);
  const std::string raw = testing::decompressed(out);
  EXPECT_EQ(lower(raw).find("planted"), std::string::npos) << "a planted secret is in the tar stream";
  std::size_t files = 0;
  for (const auto& [name, data] : members) {
    ++files;
    const std::string text = lower(name + "\n" + data);
    const auto at = text.find("planted");
    EXPECT_EQ(at, std::string::npos) << name << ": ..." << (at == std::string::npos ? "" : text.substr(at > 60 ? at - 60 : 0, 120));
    for (const auto& secret : testing::planted_form_secrets()) EXPECT_EQ(data.find(secret), std::string::npos) << secret << " in " << name;
    for (const auto& secret : testing::planted_secrets()) EXPECT_EQ(data.find(secret), std::string::npos) << secret << " in " << name;
  }
  EXPECT_GE(files, 30u);

  // The planted files arrived, redacted, with their ordinary words.
  const std::string log = testing::member(members, "logs/root/ascend/log/train-secrets.log");
  ASSERT_FALSE(log.empty());
  for (const char* keep : {"--key-cache-dtype fp8", "--max_tokens=4096", "tokenizer: llama", "keyboard: us",
                           "num_tokens: 128", "TOKENIZERS_PARALLELISM=false", "token_type_ids=[0, 0]",
                           "\"max_new_tokens\": 512", "\"pad_token\": \"[PAD]\"", "sort_key = length",
                           "--use-auth-token --trust-remote-code", "docker run -p 8080:80", "-h db.internal train_meta",
                           "mysql -uroot -p<redacted:mysql-password>", "after the key: tokenizer ok",
                           "the key above was cut: keyboard layout us", "error code EL0004"}) {
    EXPECT_NE(log.find(keep), std::string::npos) << keep;
  }
  const std::string env_dump = testing::member(members, "logs/root/ascend/log/env-dump.txt");
  for (const char* keep : {"TOKENIZERS_PARALLELISM=false", "HF_TOKEN_PATH=/root/.cache/huggingface/token", "PWD=/data/train",
                           "MYSQL_PWD=<redacted:"}) {
    EXPECT_NE(env_dump.find(keep), std::string::npos) << keep << "\n" << env_dump;
  }
  EXPECT_NE(testing::member(members, "hardware/lscpu.txt").find("Kunpeng-920"), std::string::npos);
  EXPECT_NE(testing::member(members, "environment.txt").find("ASCEND_LAUNCH_ARGS=--password <redacted:secret-flag> --max_tokens=4096"),
            std::string::npos);

  // The diagnosis was made from the redacted logs: its evidence shows the redaction.
  const json d = json::parse(testing::member(members, "diagnose/report.json"));
  bool redacted_evidence = false;
  for (const auto& f : d["findings"]) {
    for (const auto& e : f["evidence"]) {
      const std::string text = e["text"];
      if (text.find("EL0004") != std::string::npos) redacted_evidence = text.find("--password <redacted:secret-flag>") != std::string::npos;
    }
  }
  EXPECT_TRUE(redacted_evidence) << d.dump(1).substr(0, 4000);
  const json m = manifest_of(out);
  for (const char* rule : {"mysql-password", "secret-flag", "secret-assignment", "http-header", "user-password",
                           "private-key", "jwt", "github-token", "url-credentials", "access-key-pair"}) {
    EXPECT_GE(m["redactions"].value(rule, 0), 1) << rule;
  }
}

TEST(BundleCli, RoundTripCheckAndDiagnoseOnTheBundleEqualTheLiveResults) {
  for (const std::string machine : {"healthy-910b", "driver-firmware-mismatch", "devices-no-permission"}) {
    SCOPED_TRACE(machine);
    TempDir t;
    const FixtureHost h = testing::make_host(t.path() / "host", machine);
    const std::string out = (t.path() / "b.tar.gz").string();
    ASSERT_EQ(bundle_of(h, out).exit_code, 0);

    const RunResult live_check = run_on(h, {"check", "--root", h.root, "--format", "json"});
    const RunResult live_diag = run_on(h, {"diagnose", h.log_dir, "--format", "json"});
    ASSERT_FALSE(live_check.out.empty()) << live_check.err;
    ASSERT_EQ(live_diag.exit_code, 1) << live_diag.err;

    const fs::path unpacked = t.path() / "unpacked";
    testing::unpack(out, unpacked);
    // Offline: another environment, no stand-in tools on PATH, the host tree gone.
    fs::remove_all(h.machine);
    for (const std::string& where : {out, unpacked.string(), (unpacked / "b").string()}) {
      SCOPED_TRACE(where);
      const RunResult c = run_npu_doctor({"check", "--root", where, "--format", "json"}, "", {"PATH=/usr/bin:/bin"});
      EXPECT_EQ(c.exit_code, live_check.exit_code) << c.err;
      ASSERT_FALSE(c.out.empty()) << c.err;
      EXPECT_EQ(check_verdict(c.out), check_verdict(live_check.out));
      const RunResult d = run_npu_doctor({"diagnose", where, "--format", "json"}, "", {"PATH=/usr/bin:/bin"});
      EXPECT_EQ(d.exit_code, live_diag.exit_code) << d.err;
      ASSERT_FALSE(d.out.empty()) << d.err;
      EXPECT_EQ(diagnosis_verdict(d.out), diagnosis_verdict(live_diag.out));
    }
    // Inputs are shown inside the archive the user named.
    const RunResult d = run_npu_doctor({"diagnose", out, "--format", "json"});
    EXPECT_EQ(json::parse(d.out)["inputs"][0]["path"],
              out + ":logs/root/ascend/log/debug/plog/plog-2789701_20240903164958001.log");
  }
}

TEST(BundleCli, MissingToolsUnreadableFilesAndAHungToolAreRecordedAndTheBundleCompletes) {
  TempDir t;
  // npu-smi never answers; no ip or hccn_tool.
  const FixtureHost h = testing::make_host(t.path() / "host", "npu-smi-hangs", "node-a17", false);
  fs::create_directories(t.path() / "more");
  ASSERT_EQ(::mkfifo((t.path() / "more/fifo.log").c_str(), 0600), 0);
  fs::create_symlink(t.path() / "gone.log", t.path() / "more/dangling.log");
  const std::string out = (t.path() / "b.tar.gz").string();
  const auto start = std::chrono::steady_clock::now();
  checks::testing::ScopedEnv scoped(h.env);
  const RunResult r = run_npu_doctor({"bundle", "--root", h.root, "-o", out, "--timeout", "0.5", "--logs",
                                      (t.path() / "more").string(), "--logs", (t.path() / "absent").string()});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_LT(seconds, 15.0) << "one timeout per hung tool, not one per question";
  const json m = manifest_of(out);
  EXPECT_NE(skipped_reason(m, "npu-smi info").find("timed out"), std::string::npos) << m["skipped"].dump(1);
  EXPECT_EQ(skipped_reason(m, "hccn_tool"), "not found on PATH or in /usr/local/Ascend/driver/tools/");
  EXPECT_EQ(skipped_reason(m, "fifo.log"), "not a regular file");
  EXPECT_NE(skipped_reason(m, "dangling.log").find("cannot read"), std::string::npos);
  EXPECT_EQ(skipped_reason(m, "absent"), "no such file or directory");
  EXPECT_NE(r.out.find("Not collected"), std::string::npos);
  // The check still ran and recorded the hung npu-smi; offline it says the same.
  const auto members = testing::read_members(out);
  EXPECT_NE(testing::member(members, "check/report.json").find("timed out"), std::string::npos);
  EXPECT_FALSE(testing::member(members, "diagnose/report.json").empty()) << "the host's plog was still diagnosed";
}

TEST(BundleCli, AnonymizeIsStableAcrossRunsAndNodes) {
  TempDir t;
  const FixtureHost a = testing::make_host(t.path() / "a", "healthy-910b", "node-a17");
  const FixtureHost b = testing::make_host(t.path() / "b", "healthy-910b", "node-b03");
  const std::string a1 = (t.path() / "a1.tar.gz").string(), a2 = (t.path() / "a2.tar.gz").string(),
                    b1 = (t.path() / "b1.tar.gz").string();
  ASSERT_EQ(bundle_of(a, a1, {"--anonymize"}).exit_code, 0);
  ASSERT_EQ(bundle_of(a, a2, {"--anonymize"}).exit_code, 0);
  ASSERT_EQ(bundle_of(b, b1, {"--anonymize"}).exit_code, 0);
  const std::string master = pseudonym(IdentifierKind::ipv4, "10.20.30.41");
  for (const auto& [archive, host] : std::vector<std::pair<std::string, std::string>>{
           {a1, "node-a17"}, {a2, "node-a17"}, {b1, "node-b03"}}) {
    SCOPED_TRACE(archive);
    const std::string all = testing::decompressed(archive);
    // This node's own identifiers (another node's host name in its logs is not known here).
    for (const std::string& real : {host, std::string("10.20.30.41"), std::string("3c:fd:fe:a1:b2:c3"),
                                   std::string("alice"), std::string("192.168.100.10")}) {
      EXPECT_EQ(all.find(real), std::string::npos) << real;
    }
    for (const auto& secret : testing::planted_secrets()) EXPECT_EQ(all.find(secret), std::string::npos) << secret;
    const auto members = testing::read_members(archive);
    EXPECT_NE(testing::member(members, "environment.txt").find("MASTER_ADDR=" + master), std::string::npos);
    EXPECT_NE(testing::member(members, "environment.txt").find("USER=" + pseudonym(IdentifierKind::user, "alice")),
              std::string::npos);
    const std::string log = testing::member(members, "logs/root/ascend/log/debug/plog/plog-2789701_20240903164958001.log");
    EXPECT_NE(log.find(master + ":29500 from " + pseudonym(IdentifierKind::mac, "3c:fd:fe:a1:b2:c3")), std::string::npos)
        << log;
    EXPECT_NE(log.find("8.0.RC3.alpha002"), std::string::npos);
    EXPECT_NE(testing::member(members, "report.md").find(master), std::string::npos);
  }
  // Two runs on one node: the same members, byte for byte (except the times in them).
  const auto m1 = testing::read_members(a1), m2 = testing::read_members(a2);
  for (const char* name : {"environment.txt", "network/ip-addr.txt", "network/hccn_tool.txt", "hardware/npu-smi-info.txt",
                           "sysroot/etc/passwd"}) {
    EXPECT_EQ(testing::member(m1, name), testing::member(m2, name)) << name;
  }
  // The anonymized bundle still replays the live verdict.
  const RunResult live = run_on(a, {"check", "--root", a.root, "--format", "json"});
  const RunResult offline = run_npu_doctor({"check", "--root", a1, "--format", "json"});
  EXPECT_EQ(check_verdict(offline.out)["status"], check_verdict(live.out)["status"]);
}

TEST(BundleCli, UsageErrorsExitTwoAndLeaveNothingBehind) {
  TempDir t;
  const FixtureHost h = testing::make_host(t.path() / "host");
  EXPECT_EQ(bundle_of(h, (t.path() / "no/such/dir/b.tar.gz").string()).exit_code, 2);
  EXPECT_EQ(bundle_of(h, (t.path() / "b.tar.gz").string(), {"--max-size", "lots"}).exit_code, 2);
  EXPECT_EQ(bundle_of(h, (t.path() / "b.tar.gz").string(), {"--since", "yesterday"}).exit_code, 2);
  EXPECT_EQ(run_on(h, {"bundle", "--root", (t.path() / "nope").string()}).exit_code, 2);
  EXPECT_FALSE(fs::exists(t.path() / "b.tar.gz"));
  // A bundle argument that is not one.
  const auto fake = t.write("fake/npu-doctor-bundle.json", "{}\n");
  const RunResult c = run_npu_doctor({"check", "--root", fake.parent_path().string()});
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_NE(c.err.find("incomplete bundle"), std::string::npos) << c.err;
  const RunResult d = run_npu_doctor({"diagnose", fake.parent_path().string()});
  EXPECT_EQ(d.exit_code, 2);
  // --pid and friends make no sense on a recording.
  const std::string out = (t.path() / "ok.tar.gz").string();
  ASSERT_EQ(bundle_of(h, out).exit_code, 0);
  EXPECT_EQ(run_npu_doctor({"check", "--root", out, "--user", "alice"}).exit_code, 2);
}

TEST(BundleCli, MaxSizeCapsTheLogsNewestFirst) {
  TempDir t;
  const FixtureHost h = testing::make_host(t.path() / "host");
  const std::string out = (t.path() / "b.tar.gz").string();
  ASSERT_EQ(bundle_of(h, out, {"--max-size", "20K", "--no-default-logs"}).exit_code, 0);
  const json m = manifest_of(out);
  EXPECT_EQ(m["logs"]["collected"], 0);
  std::uint64_t total = 0;
  for (const auto& mm : m["members"]) total += mm["size"].get<std::uint64_t>();
  EXPECT_GT(total, 0u);
  const std::string out2 = (t.path() / "c.tar.gz").string();
  ASSERT_EQ(bundle_of(h, out2, {"--max-size", "1K"}).exit_code, 0);
  EXPECT_NE(skipped_reason(manifest_of(out2), "plog-2789701").find("size cap"), std::string::npos);
}

}  // namespace
}  // namespace npu_doctor::bundle
