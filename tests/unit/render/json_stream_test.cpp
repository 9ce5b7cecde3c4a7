// The streamed JSON report: the same bytes as nlohmann's dump of the whole document, for
// the writer alone (empty and nested containers, compact and indented, invalid UTF-8) and for the
// diagnosis report over fixture logs (one log, every log, a cluster, nothing found, zh).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "diagnosis/diagnosis.hpp"
#include "diagnosis/render.hpp"
#include "render/json_stream.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using ojson = nlohmann::ordered_json;
using render_detail::JsonStreamWriter;

// The DOM's bytes for a streamed document: parse it and dump it whole.
std::string dom_dump(const std::string& streamed, int indent) {
  return ojson::parse(streamed).dump(indent, ' ', false, ojson::error_handler_t::replace) + "\n";
}

TEST(JsonStream, TheWriterGivesTheBytesOfTheWholeDocumentsDump) {
  for (int indent : {-1, 0, 1, 2, 4}) {
    std::ostringstream out;
    JsonStreamWriter w(out, indent);
    w.begin_object();
    w.member("schema", ojson("x/v1"));
    w.begin_array("empty");
    w.end_array();
    w.begin_object("empty_object");
    w.end_object();
    w.begin_array("items");
    for (int i = 0; i < 3; ++i) {
      w.element(ojson{{"i", i}, {"nested", {{"a", ojson::array({1, 2.5, nullptr})}, {"b", ojson::object()}}}, {"t", "é\t\"q\""}});
    }
    w.begin_array();
    w.element(ojson("inner"));
    w.end_array();
    w.begin_object();
    w.end_object();
    w.end_array();
    w.member("bad_utf8", ojson(std::string("a\xff" "b")));
    w.member("null", ojson(nullptr));
    w.end_object();
    out << "\n";

    ojson dom;
    dom["schema"] = "x/v1";
    dom["empty"] = ojson::array();
    dom["empty_object"] = ojson::object();
    ojson items = ojson::array();
    for (int i = 0; i < 3; ++i) {
      items.push_back(ojson{{"i", i}, {"nested", {{"a", ojson::array({1, 2.5, nullptr})}, {"b", ojson::object()}}}, {"t", "é\t\"q\""}});
    }
    items.push_back(ojson::array({"inner"}));
    items.push_back(ojson::object());
    dom["items"] = items;
    dom["bad_utf8"] = std::string("a\xff" "b");
    dom["null"] = nullptr;
    EXPECT_EQ(out.str(), dom.dump(indent, ' ', false, ojson::error_handler_t::replace) + "\n") << "indent " << indent;
  }
}

TEST(JsonStream, AnEmptyDocumentAndUnbalancedUseAreCaught) {
  std::ostringstream out;
  JsonStreamWriter w(out);
  w.begin_object();
  w.end_object();
  EXPECT_EQ(out.str(), "{}");
  JsonStreamWriter bad(out);
  bad.begin_array();
  EXPECT_THROW(bad.end_object(), std::logic_error);
}

std::string diagnosis_json(const std::vector<std::string>& paths, Lang lang = Lang::en) {
  std::vector<KbProblem> problems;
  static Diagnoser d(testing::builtin_kb(), problems);
  DiagnoseOptions o;
  o.paths = paths;
  o.jobs = 1;
  const DiagnosisReport r = d.run(o);
  std::ostringstream out;
  RenderOptions ro;
  ro.lang = lang;
  render_diagnosis_json(r, ro, out);
  return out.str();
}

TEST(JsonStream, TheDiagnosisReportIsByteForByteTheDomDump) {
  const std::string logs = testing::fixtures_dir() + "/logs";
  std::vector<std::vector<std::string>> cases = {
      {logs + "/device_oom_plog.log"},                    // one log, a root cause
      {logs + "/healthy_training.log"},                   // nothing found: root_cause null, empty findings
      {logs},                                             // a directory of logs
      {testing::fixtures_dir() + "/realworld-dev"},       // 40 real-world logs
      {logs + "/no-such-file.log", logs + "/device_oom_plog.log"},  // an input in error, with its note
  };
  // Ranks in the paths: the cluster section.
  testing::TempDir dir;
  for (int rank = 0; rank < 4; ++rank) {
    const auto d = dir.path() / ("rank_" + std::to_string(rank));
    std::filesystem::create_directories(d);
    std::filesystem::copy_file(logs + (rank == 2 ? "/notify_timeout_after_aicore.log" : "/healthy_training.log"),
                               d / "plog.log");
  }
  cases.push_back({dir.path().string()});
  for (const auto& paths : cases) {
    const std::string streamed = diagnosis_json(paths);
    EXPECT_EQ(streamed, dom_dump(streamed, 2)) << paths.front();
  }
  const std::string zh = diagnosis_json({logs + "/device_oom_plog.log"}, Lang::zh);
  EXPECT_EQ(zh, dom_dump(zh, 2));
  EXPECT_NE(diagnosis_json({dir.path().string()}).find("\n  \"cluster\": {\n    \"ranks\": 4,"), std::string::npos);
}

}  // namespace
}  // namespace npu_doctor
