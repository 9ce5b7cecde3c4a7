// diagnose over folders that hold many runs: one verdict per incident (docs/incidents.md).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using testing::run_npu_doctor;

std::string plogs() { return testing::area_fixture("incidents", "plog"); }
std::string three_jobs() { return testing::area_fixture("incidents", "three-jobs.tar.gz"); }

nlohmann::json diagnose_json(const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"diagnose", "-f", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_npu_doctor(args);
  EXPECT_LE(r.exit_code, 1) << r.err;
  return nlohmann::json::parse(r.out);
}

// The finding of `rule` in a findings array, or null.
nlohmann::json finding(const nlohmann::json& findings, const std::string& rule) {
  for (const auto& f : findings) {
    if (f["rule"] == rule) return f;
  }
  return nullptr;
}

TEST(Incidents, APlogFolderOfSixteenMonthsIsFourIncidentsAndTheLatestFailureIsShown) {
  const auto j = diagnose_json({plogs()});
  ASSERT_EQ(j["incidents"].size(), 4u);
  const auto& inc = j["incidents"];
  EXPECT_EQ(inc[0]["first_time"], "2024-01-15T09:30:12");
  EXPECT_EQ(inc[0]["root_cause"]["category"], "memory");
  EXPECT_EQ(inc[0]["inputs"].size(), 2u) << "the rotated log of one process is one incident";
  EXPECT_EQ(inc[1]["root_cause"]["category"], "driver_firmware_env");
  EXPECT_TRUE(inc[2]["root_cause"].is_null()) << "the healthy March 2025 run";
  EXPECT_EQ(inc[3]["root_cause"]["category"], "aicore_exception");
  EXPECT_EQ(inc[3]["pids"], nlohmann::json::parse("[41877, 41878]"));
  EXPECT_TRUE(inc[3]["shown"].get<bool>());
  // The top level is the most recent incident's, not the 2024 out-of-memory.
  EXPECT_EQ(j["root_cause"]["category"], "aicore_exception");
  EXPECT_TRUE(finding(j["findings"], "device.hal-mem-alloc-failed").is_null());
  for (const auto& f : j["findings"]) {
    for (const auto& e : f["evidence"]) EXPECT_NE(e["path"].get<std::string>().find("2025051410"), std::string::npos);
  }
  // Cross-rank analysis inside the incident: rank 1 waited for rank 0.
  ASSERT_TRUE(inc[3].contains("cluster"));
  EXPECT_EQ(inc[3]["cluster"]["culprit"]["rank"], 0);
  EXPECT_FALSE(inc[0].contains("cluster"));
  for (const auto& in : j["inputs"]) EXPECT_TRUE(in.contains("incident")) << in;
  // Each input names the incident whose list holds it.
  for (const auto& one : inc) {
    for (const auto& index : one["inputs"]) EXPECT_EQ(j["inputs"][index.get<std::size_t>()]["incident"], one["number"]) << index;
  }
}

TEST(Incidents, TextShowsTheLatestInFullThenATableOfTheOthers) {
  const auto r = run_npu_doctor({"diagnose", plogs()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("INCIDENT 4 OF 4 · 2025-05-14 10:22:00 – 10:55:07 · 2 inputs · pids 41877, 41878"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("ROOT CAUSE: An AI Core kernel raised an exception"), std::string::npos) << r.out;
  const auto table = r.out.find("OTHER INCIDENTS");
  ASSERT_NE(table, std::string::npos) << r.out;
  EXPECT_LT(r.out.find("ROOT CAUSE"), table);
  const std::string rest = r.out.substr(table);
  EXPECT_NE(rest.find("  1  2024-01-15 09:30 – 09:58  2 inputs  memory: "), std::string::npos) << rest;
  EXPECT_NE(rest.find("  3  2025-03-01 08:00 – 08:04  1 input  no error-level finding"), std::string::npos) << rest;
  EXPECT_EQ(rest.find("  4  "), std::string::npos) << "the shown incident is not in the table";
}

TEST(Incidents, IncidentOptionChoosesWhatIsShown) {
  const auto first = diagnose_json({"--incident", "1", plogs()});
  EXPECT_EQ(first["root_cause"]["category"], "memory");
  EXPECT_TRUE(first["incidents"][0]["shown"].get<bool>());
  EXPECT_EQ(first["incidents"].size(), 4u);

  const auto healthy = run_npu_doctor({"diagnose", "--incident", "3", plogs()});
  EXPECT_EQ(healthy.exit_code, 0) << "no root cause in the incident shown";

  const auto all = run_npu_doctor({"diagnose", "--incident", "all", plogs()});
  EXPECT_EQ(all.exit_code, 1);
  for (const char* h : {"INCIDENT 1 OF 4", "INCIDENT 2 OF 4", "INCIDENT 3 OF 4", "INCIDENT 4 OF 4"}) {
    EXPECT_NE(all.out.find(h), std::string::npos) << h;
  }
  EXPECT_EQ(all.out.find("OTHER INCIDENTS"), std::string::npos);

  for (const char* bad : {"5", "0", "latest"}) {
    const auto r = run_npu_doctor({"diagnose", "--incident", bad, plogs()});
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("--incident"), std::string::npos) << r.err;
  }
  const auto gap = run_npu_doctor({"diagnose", "--incident-gap", "soon", plogs()});
  EXPECT_EQ(gap.exit_code, 2);
}

TEST(Incidents, TheGapOptionDecidesWhatIsOneRun) {
  testing::TempDir d;
  d.write("a/train.log", "[2025-01-01 10:00:00,000] INFO start\nRuntimeError: NPU out of memory. Tried to allocate 2.00 GiB\n"
                         "[2025-01-01 10:10:00,000] INFO end\n");
  d.write("b/train.log", "[2025-01-01 10:40:00,000] INFO start\n"
                         "EI0004: [PID: 9001] 2025-01-01-10:40:04.000.000 The ranktable or rank is invalid,Reason:[x].\n");
  EXPECT_EQ(diagnose_json({d.path().string()})["incidents"].size(), 1u) << "30 minutes apart: one run by default";
  const auto j = diagnose_json({"--incident-gap", "10m", d.path().string()});
  ASSERT_EQ(j["incidents"].size(), 2u);
  EXPECT_EQ(j["incidents"][0]["root_cause"]["category"], "memory");
  EXPECT_EQ(j["root_cause"]["code"], "EI0004");
}

TEST(Incidents, ATarOfThreeUnrelatedJobsNeverLinksThem) {
  const auto j = diagnose_json({three_jobs()});
  ASSERT_EQ(j["incidents"].size(), 3u);
  const auto& jan = j["incidents"][0];
  const auto& sep = j["incidents"][1];
  const auto& may = j["incidents"][2];
  EXPECT_EQ(jan["root_cause"]["code"], "507014");
  EXPECT_EQ(may["root_cause"]["code"], "EI0004");
  // EI0006 of May 2025 follows from May's broken rank table, not from January's 507014.
  const auto ei6 = finding(may["findings"], "ecode.EI0006");
  ASSERT_FALSE(ei6.is_null());
  EXPECT_EQ(ei6["symptom_of"], may["root_cause"]["key"]);
  EXPECT_TRUE(finding(jan["findings"], "ecode.EI0006").is_null());
  EXPECT_TRUE(finding(may["findings"], "acl.507014").is_null());
  EXPECT_EQ(sep["root_cause"]["rule"], "mem.memory-outside-allocator");
  for (const auto& inc : j["incidents"]) {
    for (const auto& f : inc["findings"]) {
      if (!f.contains("symptom_of")) continue;
      EXPECT_EQ(f["symptom_of"], inc["root_cause"]["key"]) << f["rule"];
    }
  }
}

// An archive gives one input a member: the inputs after it are numbered past all of them, and
// the second reading (each incident's own findings) must number them the same way.
TEST(Incidents, EveryFindingOfAnIncidentComesFromItsOwnInputsWhenAnArchiveComesFirst) {
  const auto j = diagnose_json({three_jobs(), plogs()});
  ASSERT_EQ(j["incidents"].size(), 7u);
  std::size_t evidence = 0;
  for (const auto& inc : j["incidents"]) {
    std::set<std::string> paths;
    for (const auto& index : inc["inputs"]) paths.insert(j["inputs"][index.get<std::size_t>()]["path"].get<std::string>());
    for (const auto& f : inc["findings"]) {
      for (const auto& e : f["evidence"]) {
        EXPECT_EQ(paths.count(e["path"].get<std::string>()), 1u) << inc["number"] << " " << e["path"];
        ++evidence;
      }
    }
  }
  EXPECT_GT(evidence, 10u);
}

TEST(Incidents, SummaryIsOneTabSeparatedLinePerIncident) {
  const auto r = run_npu_doctor({"diagnose", "-q", three_jobs()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto lines = testing::lines_of(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_EQ(lines[0].rfind("1\t2024-01-20T14:00:00\t2024-01-20T15:01:43\t2\taicore_exception\tacl.507014\t507014\t", 0), 0u)
      << lines[0];
  EXPECT_EQ(lines[1].rfind("2\t2024-09-03T02:10:00\t", 0), 0u) << lines[1];
  EXPECT_NE(lines[1].find("\tmem.memory-outside-allocator\t"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find("\trank_config\t"), std::string::npos) << lines[2];
  const auto healthy = run_npu_doctor({"diagnose", "--summary", plogs()});
  EXPECT_NE(healthy.out.find("\n3\t2025-03-01T08:00:00\t2025-03-01T08:04:00\t1\tnone\t-\t-\t-\tno error-level finding\n"),
            std::string::npos)
      << healthy.out;
  const auto both = run_npu_doctor({"diagnose", "-q", "-f", "json", three_jobs()});
  EXPECT_EQ(both.exit_code, 2) << "-q is a format of its own";
}

TEST(Incidents, AnArchiveOnStdinIsSplitFromItsOnlyReading) {
  // stdin cannot be read twice: each member's findings are kept from the first reading.
  const auto r = run_npu_doctor({"diagnose", "-q", "-"}, testing::read_file(three_jobs()));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto lines = testing::lines_of(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_NE(lines[0].find("\tacl.507014\t"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("\tmem.memory-outside-allocator\t"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find("\tecode.EI0004\t"), std::string::npos) << lines[2];
}

TEST(Incidents, ASingleLogIsOneIncidentAndTheReportIsUnchangedByIt) {
  const auto j = diagnose_json({testing::fixtures_dir() + "/logs/device_oom_plog.log"});
  ASSERT_EQ(j["incidents"].size(), 1u);
  EXPECT_EQ(j["incidents"][0]["root_cause"], j["root_cause"]);
  EXPECT_EQ(j["incidents"][0]["findings"], j["findings"]);
  const auto r = run_npu_doctor({"diagnose", testing::fixtures_dir() + "/logs/device_oom_plog.log"});
  EXPECT_EQ(r.out.find("INCIDENT"), std::string::npos);
}

}  // namespace
}  // namespace npu_doctor
