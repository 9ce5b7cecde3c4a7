#include "atc_outputs.hpp"

#include <nlohmann/json.hpp>

#include "atc_command.hpp"
#include "atc_operators.hpp"
#include "core/input_source.hpp"
#include "core/json_number.hpp"
#include "core/line_assembler.hpp"
#include "npu_doctor/text.hpp"

namespace npu_doctor::atc_detail {
namespace {

constexpr std::size_t kMaxLine = 64u << 10;        // longer lines are cut (commands are short)
constexpr std::size_t kMaxJson = 64u << 20;        // check_result.json larger than this is not read
constexpr std::size_t kMaxReportLines = 1000;      // op_not_support.log lines kept
constexpr std::size_t kMaxContinuation = 64;       // "\"-continued lines joined into one command

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of("/:");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Calls `line` for every line of the stream (CR dropped, long lines cut); false on a read error.
template <typename F>
bool for_each_line(ByteStream& in, F&& line, std::string& error) {
  std::vector<char> buf(1u << 16);
  LineAssembler lines(kMaxLine, /*strip_cr=*/true);
  bool first = true;
  for (;;) {
    const long r = in.read(buf.data(), buf.size());
    if (r < 0) {
      error = in.error();
      return false;
    }
    if (r == 0) break;
    std::string_view chunk(buf.data(), static_cast<std::size_t>(r));
    if (first) {
      first = false;
      if (looks_binary(chunk)) {
        error = "binary data";
        return false;
      }
    }
    if (!lines.feed(chunk, line)) return true;  // the caller has what it wanted
  }
  lines.finish(line);
  return true;
}

void scan_text(ByteStream& in, const std::string& path, AtcFiles& out) {
  uint64_t n = 0;
  std::string pending;  // a command continued with a trailing backslash
  uint64_t pending_line = 0;
  std::size_t continued = 0;
  std::string err;
  for_each_line(
      in,
      [&](std::string_view raw) {
        ++n;
        if (raw.find("ATC run failed") != std::string::npos) out.run_failed = true;
        if (raw.find("ATC run success") != std::string::npos) out.run_succeeded = true;
        if (out.command) return true;
        std::string_view l(raw);
        while (!l.empty() && (l.back() == ' ' || l.back() == '\t')) l.remove_suffix(1);
        const bool continues = !l.empty() && l.back() == '\\';
        if (continues) l.remove_suffix(1);
        if (!pending.empty() || (l.find("atc") != std::string_view::npos && l.find("--") != std::string_view::npos)) {
          if (pending.empty()) pending_line = n;
          pending += std::string(l) + " ";
          if (continues && ++continued < kMaxContinuation) return true;
          if (auto cmd = parse_atc_command(pending)) {
            cmd->source = {path, pending_line};
            out.command = std::move(cmd);
          }
          pending.clear();
          continued = 0;
        }
        return true;
      },
      err);
}

void read_report_lines(ByteStream& in, const std::string& path, AtcFiles& out) {
  uint64_t n = 0;
  std::string err;
  const bool ok = for_each_line(
      in,
      [&](std::string_view raw) {
        ++n;
        const std::string line = sanitize_line(raw);
        if (line.find_first_not_of(" \t") == std::string::npos) return true;
        AtcOperator op = operator_from_report_line(line);
        op.phase = AtcPhase::parse;
        op.rule = "op_not_support.log";
        op.reason = line;
        op.source = {path, n};
        if (op.name.empty() && op.type.empty()) op.type = line.substr(line.find_first_not_of(" \t"), 120);
        out.operators.push_back(std::move(op));
        return out.operators.size() < kMaxReportLines;
      },
      err);
  if (!ok) out.problems.push_back(path + ": " + err);
}

}  // namespace

bool parse_check_result(const std::string& text, const std::string& path, AtcCheckReport& report,
                        std::vector<AtcOperator>& failed, std::string& error) {
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    error = "not valid JSON";
    return false;
  }
  report.path = path;
  auto str = [](const nlohmann::json& o, const char* k) {
    auto it = o.find(k);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  auto num = [](const nlohmann::json& o, const char* k) {
    auto it = o.find(k);
    // A float out of range (1e300) would be undefined behaviour as get<long long>().
    return it != o.end() ? json_number<long long>(*it).value_or(0LL) : 0LL;
  };
  report.model = str(j, "name");
  report.result = str(j, "result");
  report.total = num(j, "total");
  report.pass = num(j, "pass");
  report.fail = num(j, "fail");
  auto ops = j.find("op");
  if (ops == j.end() || !ops->is_array()) return true;
  for (const auto& o : *ops) {
    if (!o.is_object() || str(o, "result") == "success") continue;
    AtcOperator op;
    op.name = str(o, "name");
    split_optype(str(o, "type"), op);
    op.phase = AtcPhase::parse;
    op.rule = "check_result.json";
    op.source = {path, 0};
    if (auto c = o.find("cause"); c != o.end() && c->is_array()) {
      for (const auto& cause : *c) {
        if (!cause.is_object()) continue;
        std::string msg = str(cause, "message");
        if (auto code = cause.find("code"); code != cause.end()) {
          if (auto n = json_number<long long>(*code)) msg = "[" + std::to_string(*n) + "] " + msg;
        }
        op.reason += (op.reason.empty() ? "" : "; ") + msg;
      }
    }
    failed.push_back(std::move(op));
  }
  return true;
}

AtcFiles read_atc_files(const std::vector<std::string>& paths) {
  AtcFiles out;
  const Enumeration en = enumerate_inputs(paths);
  std::vector<InputReport> reports;
  for (const auto& item : en.items) {
    visit_streams(
        item,
        [&](ByteStream& stream, InputReport& rep) {
          const std::string name = base_name(rep.path);
          if (name == "check_result.json" || (name.size() > 5 && name.ends_with(".json") && name.find("check") != std::string::npos)) {
            std::string text;
            char buf[65536];
            for (long r; (r = stream.read(buf, sizeof buf)) > 0;) {
              text.append(buf, static_cast<std::size_t>(r));
              if (text.size() > kMaxJson) break;
            }
            if (text.size() > kMaxJson) {
              out.problems.push_back(rep.path + ": larger than 64 MiB, not read");
              return;
            }
            AtcCheckReport report;
            std::string err;
            if (parse_check_result(text, rep.path, report, out.operators, err)) out.check_report = report;
            else out.problems.push_back(rep.path + ": " + err);
          } else if (name == "op_not_support.log") {
            read_report_lines(stream, rep.path, out);
          } else if (!name.ends_with(".json") && !name.ends_with(".o") && !name.ends_with(".om")) {
            scan_text(stream, rep.path, out);
          }
        },
        reports);
  }
  return out;
}

}  // namespace npu_doctor::atc_detail
