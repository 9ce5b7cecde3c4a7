// Found by the `bundle` harness in the CI smoke run seeded with the long campaign's kept
// corpus (2026-12-02, docs/hardening.md): a bundle's probe record with a uid of 4.93889e+66
// was read with nlohmann's get<unsigned>(), a float-to-integer conversion out of range
// (UBSan: "4.93889e+66 is outside the range of representable values of type 'unsigned
// int'"). Every number field of the record now goes through json_number<T>.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "bundle/probe_record.hpp"

namespace npu_doctor::bundle {
namespace {

std::string record_with(const char* pointer, nlohmann::json value) {
  ProbeRecord r;
  r.stats["/dev/davinci0"] = FileInfo{};
  CommandResult c;
  r.commands[{"npu-smi", "info"}] = c;
  nlohmann::json j = nlohmann::json::parse(r.to_json());
  j[nlohmann::json::json_pointer(pointer)] = std::move(value);
  return j.dump();
}

TEST(FuzzRegressionProbeRecord, ANumberTooLargeForItsFieldMakesTheRecordMalformed) {
  std::string error;
  ASSERT_TRUE(ProbeRecord::from_json(record_with("/identity/uid", 0), "/tmp", error)) << error;
  for (const char* pointer : {"/identity/uid", "/identity/gid", "/identity/groups/0", "/stats/~1dev~1davinci0/mode",
                              "/stats/~1dev~1davinci0/uid", "/commands/0/exit_code", "/commands/0/signal"}) {
    error.clear();
    EXPECT_FALSE(ProbeRecord::from_json(record_with(pointer, 4.93889e+66), "/tmp", error)) << pointer;
    EXPECT_NE(error.find("malformed probe record"), std::string::npos) << pointer << ": " << error;
  }
  error.clear();
  EXPECT_FALSE(ProbeRecord::from_json(record_with("/identity/uid", -1), "/tmp", error));
  EXPECT_FALSE(ProbeRecord::from_json(record_with("/identity/uid", 2.5), "/tmp", error));
  EXPECT_FALSE(ProbeRecord::from_json(record_with("/identity/uid", "7"), "/tmp", error));
}

}  // namespace
}  // namespace npu_doctor::bundle
