#include "diagnosis/memory_log_findings.hpp"
#include "html_attachment_loader.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace npu_doctor {
namespace {

using json = nlohmann::json;

// A check report is a few KiB; anything much larger is not one.
constexpr std::uintmax_t kMaxCheckReportBytes = 16u << 20;

std::string str(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool load_check(const std::string& path, CheckView& out, std::ostream& err) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size > kMaxCheckReportBytes) {
    err << "npu-doctor: --attach check=" << path << ": " << (ec ? ec.message() : "larger than 16 MiB: not a check report")
        << "\n";
    return false;
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (!in || !(text << in.rdbuf())) {
    err << "npu-doctor: --attach check=" << path << ": cannot read it: " << std::strerror(errno ? errno : EIO) << "\n";
    return false;
  }
  std::string error;
  if (!parse_check_view(text.str(), out, error)) {
    err << "npu-doctor: --attach check=" << path << ": " << error << "\n";
    return false;
  }
  out.path = path;
  return true;
}

}  // namespace

bool parse_check_view(const std::string& json_text, CheckView& out, std::string& error) {
  const json j = json::parse(json_text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    error = "not JSON (write it with `npu-doctor check -f json -o FILE`)";
    return false;
  }
  if (str(j, "schema") != "npu-doctor/check/v1") {
    error = "not a check report (schema npu-doctor/check/v1 expected, found '" + str(j, "schema") + "')";
    return false;
  }
  out.status = str(j, "status");
  out.root = str(j, "root");
  const auto steps = j.find("steps");
  if (steps == j.end() || !steps->is_array()) return true;
  for (const auto& s : *steps) {
    if (!s.is_object()) continue;
    CheckStepView step{str(s, "id"), str(s, "title"), str(s, "status"), {}, {}};
    if (const auto f = s.find("facts"); f != s.end() && f->is_object()) {
      for (const auto& [k, v] : f->items()) step.facts.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
    }
    if (const auto fs = s.find("findings"); fs != s.end() && fs->is_array()) {
      for (const auto& f : *fs) {
        if (!f.is_object()) continue;
        CheckStepView::Item item{str(f, "rule"), str(f, "severity"), str(f, "title"), {}, {}};
        if (const auto ev = f.find("evidence"); ev != f.end() && ev->is_array() && !ev->empty() && ev->front().is_object()) {
          item.evidence = str(ev->front(), "path") + ": " + str(ev->front(), "text");
        }
        if (const auto rs = f.find("remedies"); rs != f.end() && rs->is_array()) {
          for (const auto& r : *rs) {
            if (r.is_string()) item.remedies.push_back(r.get<std::string>());
          }
        }
        step.findings.push_back(std::move(item));
      }
    }
    out.steps.push_back(std::move(step));
  }
  return true;
}

bool load_html_attachments(const std::vector<std::string>& specs, const KnowledgeBase& kb, const std::string& cache_dir,
                           Lang lang, HtmlAttachments& out, std::ostream& err) {
  mem::MemAnalyzeOptions mem_options;
  mem_options.lang = lang;
  ProfileOptions profile_options;
  for (const auto& spec : specs) {
    const auto eq = spec.find('=');
    const std::string kind = spec.substr(0, eq == std::string::npos ? 0 : eq);
    const std::string path = eq == std::string::npos ? std::string() : spec.substr(eq + 1);
    if (path.empty() || (kind != "mem" && kind != "profile" && kind != "check")) {
      err << "npu-doctor: --attach '" << spec << "': expected KIND=PATH with KIND one of " << kAttachKinds << "\n";
      return false;
    }
    if (kind == "mem") {
      mem_options.paths.push_back(path);
    } else if (kind == "profile") {
      profile_options.paths.push_back(path);
    } else {
      if (out.check) {
        err << "npu-doctor: --attach check= can be given once\n";
        return false;
      }
      CheckView view;
      if (!load_check(path, view, err)) return false;
      out.check = std::move(view);
    }
  }
  if (!mem_options.paths.empty()) {
    std::vector<KbProblem> problems;  // the knowledge base's own problems were printed when it loaded
    out.mem = mem::analyze_memory(mem_options, kb, memory_log_findings(kb, problems, cache_dir));
    for (const auto& in : out.mem->inputs) {
      if (in.status == InputStatus::error || in.status == InputStatus::partial) {
        err << "npu-doctor: --attach mem: " << in.path << ": " << in.note << "\n";
      }
    }
  }
  if (!profile_options.paths.empty()) {
    out.profile = analyze_profile(profile_options, kb);
    for (const auto& in : out.profile->inputs) {
      if (in.report.status == InputStatus::error || in.report.status == InputStatus::partial) {
        err << "npu-doctor: --attach profile: " << in.report.path << ": " << in.report.note << "\n";
      }
    }
    for (const auto& s : out.profile->skipped) {
      if (s.status == InputStatus::error) err << "npu-doctor: --attach profile: " << s.path << ": " << s.note << "\n";
    }
  }
  return true;
}

std::vector<NodeFacts> node_facts_of(const std::vector<NodeSummary>& nodes) {
  std::vector<NodeFacts> facts;
  for (const auto& n : nodes) {
    if (!n.facts.empty()) facts.push_back({n.host.empty() ? "node-" + std::to_string(n.node) : n.host, n.facts});
  }
  return facts;
}

}  // namespace npu_doctor
