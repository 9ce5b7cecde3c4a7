#include "sample_reader.hpp"

#include <string_view>

#include "core/input_source.hpp"
#include "npu_doctor/text.hpp"

namespace npu_doctor::mem {
namespace {

void take_line(std::string_view line, bool overlong, uint32_t input, SampleInput& info, SampleSet& set) {
  ++info.lines;
  MemSample s;
  s.input = input;
  s.line = info.lines;
  std::string why;
  LineKind kind = LineKind::other;
  if (overlong) {
    // Only the start was kept: a JSON-looking line this long cannot be a sample.
    const auto first = line.find_first_not_of(" \t");
    kind = first != std::string_view::npos && line[first] == '{' ? LineKind::invalid : LineKind::other;
    why = "line longer than " + std::to_string(kMaxSampleLine) + " bytes";
  } else {
    kind = parse_sample_line(line, s, why);
  }
  switch (kind) {
    case LineKind::blank: break;
    case LineKind::other: ++info.other; break;
    case LineKind::sample:
      ++info.samples;
      set.add(s);
      break;
    case LineKind::invalid:
      ++info.invalid;
      if (info.problems.size() < kMaxProblemsPerInput) {
        info.problems.push_back("line " + std::to_string(info.lines) + ": " + why);
      }
      break;
  }
}

}  // namespace

void read_sample_stream(ByteStream& stream, uint32_t input, SampleInput& info, SampleSet& set) {
  std::string buf(1u << 16, '\0');
  std::string line;
  bool overlong = false;
  bool first_block = true;
  for (;;) {
    const long n = stream.read(buf.data(), buf.size());
    if (n < 0) {
      info.status = InputStatus::partial;
      info.note = "read error after " + std::to_string(info.bytes) + " bytes: " + stream.error();
      break;
    }
    if (n == 0) break;
    const std::string_view block(buf.data(), static_cast<std::size_t>(n));
    if (first_block && looks_binary(block)) {
      info.status = InputStatus::skipped;
      info.note = "binary data, not memory samples or a log";
      return;
    }
    first_block = false;
    info.bytes += static_cast<uint64_t>(n);
    std::size_t pos = 0;
    while (pos < block.size()) {
      const auto nl = block.find('\n', pos);
      const auto piece = block.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
      // Keep at most one byte past the limit: enough to know the line is too long.
      if (line.size() <= kMaxSampleLine) line.append(piece.substr(0, kMaxSampleLine + 1 - line.size()));
      if (line.size() > kMaxSampleLine) overlong = true;
      if (nl == std::string_view::npos) break;
      take_line(line, overlong, input, info, set);
      line.clear();
      overlong = false;
      pos = nl + 1;
    }
  }
  if (!line.empty()) take_line(line, overlong, input, info, set);
}

std::vector<SampleInput> read_sample_inputs(const std::vector<std::string>& paths,
                                            const std::map<std::string, std::string>& display, SampleSet& set) {
  std::vector<SampleInput> out;
  auto shown = [&](const std::string& p) {
    for (const auto& [from, to] : display) {
      if (p.rfind(from, 0) == 0) return to + p.substr(from.size());
    }
    return p;
  };
  const Enumeration e = enumerate_inputs(paths);
  for (const auto& problem : e.problems) {
    SampleInput in;
    in.path = shown(problem.path);
    in.status = problem.status;
    in.note = problem.note;
    out.push_back(std::move(in));
  }
  for (const auto& item : e.items) {
    std::vector<InputReport> reports;
    // visit_streams appends a stream's report right after visiting it, so the report
    // index at visit time pairs the stream with its report.
    std::map<std::size_t, SampleInput> visited;
    visit_streams(
        item,
        [&](ByteStream& stream, InputReport& report) {
          SampleInput in;
          read_sample_stream(stream, static_cast<uint32_t>(out.size() + reports.size()), in, set);
          report.bytes = in.bytes;
          report.lines = in.lines;
          visited.emplace(reports.size(), std::move(in));
        },
        reports);
    for (std::size_t k = 0; k < reports.size(); ++k) {
      SampleInput in;
      if (auto it = visited.find(k); it != visited.end()) in = std::move(it->second);
      in.path = shown(reports[k].path);
      if (reports[k].status != InputStatus::ok && in.status == InputStatus::ok) {
        in.status = reports[k].status;
        in.note = reports[k].note;
      }
      out.push_back(std::move(in));
    }
  }
  return out;
}

}  // namespace npu_doctor::mem
