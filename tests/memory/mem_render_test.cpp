// The three forms of the mem report: text, JSON (npu-doctor/mem/v1) and HTML.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "diagnosis/memory_log_findings.hpp"
#include "memory/synthetic_series.hpp"
#include "memory/mem_render.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::mem {
namespace {

using synth::kGiB;
using synth::kMiB;

struct Fixture {
  testing::TempDir dir;
  MemReport report;
};

// Device 0 leaks, device 1 is fragmented; the OOM message on device 0.
const Fixture& fixture() {
  static Fixture* f = [] {
    auto* x = new Fixture;
    synth::SeriesSpec leak;
    leak.leak_per_step = 6 * kMiB;
    leak.noise = 50 * kMiB;
    synth::SeriesSpec frag;
    frag.device = 1;
    frag.reserved_growth = 3 * kMiB;
    frag.reserved_extra = 0;
    auto series = synth::make_series(leak);
    for (auto& s : series) s.capacity = 64ull << 30;
    const auto p = x->dir.write("a<b>/mem.jsonl", synth::to_jsonl(series) + synth::to_jsonl(synth::make_series(frag)));
    const auto log = x->dir.write("train.log",
                                  "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total "
                                  "capacity; 57.12 GiB already allocated; 57.12 GiB current active; 1.02 GiB free; 58.80 "
                                  "GiB reserved in total by PyTorch)\n");
    MemAnalyzeOptions o;
    o.paths = {p.string(), log.string()};
    std::vector<KbProblem> problems;
    x->report = analyze_memory(o, testing::builtin_kb(), memory_log_findings(testing::builtin_kb(), problems, ""));
    return x;
  }();
  return *f;
}

std::string render(void (*fn)(const MemReport&, const RenderOptions&, std::ostream&), Lang lang) {
  std::ostringstream out;
  RenderOptions o;
  o.lang = lang;
  fn(fixture().report, o, out);
  return out.str();
}

TEST(MemRender, TextShowsSparklinesVerdictsAndRemedies) {
  const std::string t = render(render_mem_text, Lang::en);
  EXPECT_NE(t.find("device 0"), std::string::npos) << t;
  EXPECT_NE(t.find("▁"), std::string::npos) << "a sparkline";
  EXPECT_NE(t.find("█"), std::string::npos);
  EXPECT_NE(t.find("per step, confidence"), std::string::npos) << t;
  EXPECT_NE(t.find("out of memory projected at step"), std::string::npos) << t;
  EXPECT_NE(t.find("no leak"), std::string::npos) << t;
  EXPECT_NE(t.find("warning"), std::string::npos);
  EXPECT_NE(t.find("classified as: mem.leak"), std::string::npos) << t;
  EXPECT_NE(t.find("Device memory leak"), std::string::npos) << "the kb title";
  EXPECT_NE(t.find("del outputs, loss"), std::string::npos) << "a kb remedy";
  EXPECT_EQ(t.find('\x1b'), std::string::npos) << "no colour unless asked";
}

TEST(MemRender, TextInChinese) {
  const std::string t = render(render_mem_text, Lang::zh);
  EXPECT_NE(t.find("设备内存泄漏"), std::string::npos) << t;
  EXPECT_NE(t.find("置信度"), std::string::npos);
  EXPECT_NE(t.find("归类为"), std::string::npos);
}

TEST(MemRender, JsonFollowsTheV1Contract) {
  const auto j = nlohmann::json::parse(render(render_mem_json, Lang::en));
  EXPECT_EQ(j["schema"], "npu-doctor/mem/v1");
  ASSERT_EQ(j["devices"].size(), 2u);
  const auto& d0 = j["devices"][0];
  EXPECT_EQ(d0["device"], 0);
  EXPECT_EQ(d0["samples"], 3000);
  EXPECT_TRUE(d0["peak"].is_number_unsigned());
  EXPECT_EQ(d0["capacity"], 64ull << 30);
  EXPECT_EQ(d0["capacity_source"], "samples");
  EXPECT_TRUE(d0["fragmentation"]["max_gap_bytes"].is_number());
  EXPECT_FALSE(d0["fragmentation"]["warning"]);
  EXPECT_TRUE(d0["leak"]["detected"]);
  EXPECT_NEAR(d0["leak"]["bytes_per_step"].get<double>(), 6 * kMiB, 0.5 * kMiB);
  EXPECT_GT(d0["leak"]["confidence"].get<double>(), 0.9);
  EXPECT_LE(d0["leak"]["confidence"].get<double>(), 1.0);
  EXPECT_TRUE(d0["leak"]["projected_oom_step"].is_number_integer());
  const auto& d1 = j["devices"][1];
  EXPECT_FALSE(d1["leak"]["detected"]);
  EXPECT_TRUE(d1["leak"]["projected_oom_step"].is_null());
  EXPECT_TRUE(d1["fragmentation"]["warning"]);
  EXPECT_TRUE(d1["capacity"].is_null());
  ASSERT_EQ(j["oom"].size(), 1u);
  EXPECT_EQ(j["oom"][0]["requested_bytes"], 2ull << 30);
  EXPECT_EQ(j["oom"][0]["classification"], "mem.leak");
  ASSERT_GE(j["findings"].size(), 3u);
  EXPECT_EQ(j["findings"][0]["rule"], "mem.leak");
  EXPECT_EQ(j["findings"][0]["category"], "memory");
  EXPECT_TRUE(j["findings"][0]["remedies"].is_array());
  bool frag = false, oom = false;
  for (const auto& f : j["findings"]) {
    frag = frag || f["rule"] == "mem.fragmentation";
    oom = oom || f["rule"] == "torch-npu.npu-oom";
  }
  EXPECT_TRUE(frag);
  EXPECT_TRUE(oom);
  EXPECT_EQ(j["settings"]["fragmentation_threshold_bytes"], 1ull << 30);
}

TEST(MemRender, HtmlIsOnePageWithoutNetworkAndEscapesPaths) {
  const std::string h = render(render_mem_html, Lang::en);
  EXPECT_EQ(h.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(h.find("id=\"mem-data\""), std::string::npos);
  EXPECT_NE(h.find("id=\"chart-0\""), std::string::npos);
  EXPECT_NE(h.find("id=\"chart-1\""), std::string::npos);
  EXPECT_NE(h.find("default-src 'none'"), std::string::npos) << "the page may not load anything";
  for (const char* remote : {"http://", "https://", "src=\"", "@import", "url("}) {
    // The SVG namespace string is the only URL, and it is never fetched.
    std::string rest = h;
    std::size_t at = 0;
    while ((at = rest.find(remote, at)) != std::string::npos) {
      EXPECT_EQ(rest.compare(at, 26, "http://www.w3.org/2000/svg"), 0) << remote << " at " << at;
      ++at;
    }
  }
  EXPECT_EQ(h.find("a<b>"), std::string::npos) << "paths are escaped";
  EXPECT_NE(h.find("a&lt;b&gt;"), std::string::npos);
}

TEST(MemRender, HtmlDataCannotCloseItsScript) {
  MemReport r;
  DeviceReport d;
  d.chart.push_back({0, 1, std::nullopt});
  r.devices.push_back(d);
  std::ostringstream out;
  RenderOptions o;
  render_mem_html(r, o, out);
  const std::string h = out.str();
  const auto start = h.find("id=\"mem-data\">");
  const auto end = h.find("</script>", start);
  ASSERT_NE(end, std::string::npos);
  const auto data = nlohmann::json::parse(h.substr(start + 14, end - start - 14));
  EXPECT_EQ(data["devices"][0]["points"][0][1], 1);
}

}  // namespace
}  // namespace npu_doctor::mem
