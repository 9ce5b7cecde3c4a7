// The HTML page opened in a real headless browser (Debian's chromium), offline: the
// inline script must draw every chart (allocated, reserved, capacity, leak trend) and
// report success in body[data-rendered]. Skipped, with a message, without chromium.
#include <gtest/gtest.h>

#include <regex>

#include "memory/synthetic_series.hpp"
#include "npu_doctor/probe.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::mem {
namespace {

using synth::kMiB;

std::optional<std::string> browser() {
  const char* path = std::getenv("PATH");
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    if (auto p = find_on_path(name, path != nullptr ? path : "/usr/bin:/bin")) return p;
  }
  return std::nullopt;
}

std::string dump_dom(const std::string& chrome, const std::filesystem::path& page, const testing::TempDir& profile) {
  CommandOptions o;
  o.timeout = std::chrono::seconds(90);
  const auto r = run_command({chrome, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                              "--disable-background-networking", "--disable-component-update", "--disable-sync",
                              "--user-data-dir=" + profile.path().string(), "--dump-dom", "file://" + page.string()},
                             o);
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  return r.out;
}

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

TEST(MemHtmlBrowser, ChartsAreDrawnOfflineInChromium) {
  const auto chrome = browser();
  if (!chrome) GTEST_SKIP() << "chromium is not installed (apt-get install chromium): the HTML page is not checked in a browser";
  testing::TempDir d;
  synth::SeriesSpec leak;
  leak.leak_per_step = 6 * kMiB;
  leak.noise = 50 * kMiB;
  auto series = synth::make_series(leak);
  for (auto& s : series) s.capacity = 64ull << 30;
  synth::SeriesSpec flat;
  flat.device = 1;
  flat.noise = 200 * kMiB;
  const auto samples = d.write("mem.jsonl", synth::to_jsonl(series) + synth::to_jsonl(synth::make_series(flat)));
  const auto page = d.path() / "mem.html";
  const auto r = testing::run_npu_doctor({"mem", "analyze", "--html", page.string(), samples.string()});
  ASSERT_EQ(r.exit_code, 1) << r.err;

  testing::TempDir profile;
  const std::string dom = dump_dom(*chrome, page, profile);
  ASSERT_NE(dom.find("data-rendered=\"ok\""), std::string::npos) << "the script failed:\n" << dom.substr(0, 2000);
  EXPECT_EQ(count(dom, "<svg class=\"mem-chart\""), 2u);
  // Device 0: allocated and reserved lines, the capacity line and the leak trend.
  const std::regex chart0(R"re(<svg class="mem-chart"[^>]*data-device="0"[^>]*data-points="(\d+)")re");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(dom, m, chart0)) << dom.substr(0, 3000);
  EXPECT_GT(std::stoi(m[1]), 100);
  EXPECT_LE(std::stoi(m[1]), 400) << "thinned for the page";
  EXPECT_EQ(count(dom, "<path class=\"allocated\""), 2u);
  EXPECT_EQ(count(dom, "<path class=\"reserved\""), 2u);
  EXPECT_EQ(count(dom, "<line class=\"capacity\""), 1u) << "only device 0 knows its capacity";
  EXPECT_EQ(count(dom, "<path class=\"trend\""), 1u) << "only device 0 leaks";
  EXPECT_NE(dom.find("projected"), std::string::npos);
  // The allocated path has one point per chart point: M then L for the rest.
  const std::regex alloc(R"re(<path class="allocated" d="M([^"]*)" data-points="(\d+)")re");
  ASSERT_TRUE(std::regex_search(dom, m, alloc));
  EXPECT_EQ(count(m[1].str(), "L") + 1, static_cast<std::size_t>(std::stoi(m[2])));
}

TEST(MemHtmlBrowser, PageWithOnlyAnOomMessageStillRenders) {
  const auto chrome = browser();
  if (!chrome) GTEST_SKIP() << "chromium is not installed (apt-get install chromium)";
  testing::TempDir d;
  const auto page = d.path() / "mem.html";
  const auto r = testing::run_npu_doctor(
      {"mem", "analyze", "--lang", "zh", "--html", page.string(), std::string(NPU_DOCTOR_MEM_FIXTURES) + "/other_process_oom.log"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  testing::TempDir profile;
  const std::string dom = dump_dom(*chrome, page, profile);
  EXPECT_NE(dom.find("data-rendered=\"ok\""), std::string::npos) << dom.substr(0, 2000);
  EXPECT_EQ(count(dom, "<svg"), 0u);
  EXPECT_NE(dom.find("mem.memory-outside-allocator"), std::string::npos);
  EXPECT_NE(dom.find("lang=\"zh\""), std::string::npos);
}

}  // namespace
}  // namespace npu_doctor::mem
