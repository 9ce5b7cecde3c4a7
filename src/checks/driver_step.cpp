// Step 1, driver and firmware: which driver and firmware are installed, whether they
// go together (the version files' own compatibility fields and npu-smi's verdict first,
// then the shipped table), and whether every device reports itself healthy.
#include <algorithm>
#include <set>

#include "checks/steps.hpp"
#include "npu_doctor/kb_ids.hpp"

namespace npu_doctor::checks {
namespace {

constexpr std::size_t kMaxBoards = 64;  // npu-smi queries per run, whatever the table says

std::vector<int> npu_ids(const NpuSmiInfo& info) {
  std::set<int> ids;
  for (const auto& c : info.chips) {
    if (c.npu >= 0) ids.insert(c.npu);
  }
  return {ids.begin(), ids.end()};
}

// Evidence of the lines of a file or command output that start with these keys.
void cite_keys(StepResult& step, const std::string& where, const std::string& text,
               std::initializer_list<std::string_view> keys) {
  for (auto key : keys) {
    if (auto line = find_key_line(text, key)) step.evidence.push_back(evidence_at(where, *line));
  }
}

template <typename T>
void cite_file(CheckContext& ctx, StepResult& step, const ReadFile<T>& f, std::initializer_list<std::string_view> keys) {
  if (!f.text) {
    step.evidence.push_back(evidence_line(f.path, 0, "missing"));
  } else if (!f.parsed) {
    step.evidence.push_back(evidence_line(f.path, 0, "not a version file: " + f.error));
    ctx.raise(step, kb_id::check::version_file_invalid, with(evidence_line(f.path, 0, f.text->substr(0, 200)), {{"error", f.error}}));
  } else {
    cite_keys(step, f.path, *f.text, keys);
  }
}

struct Board {
  int npu = -1;
  std::string command;
  std::string out;
  std::string firmware;
  std::string compatibility;
};

// `npu-smi info -t board -i N` for every NPU (the firmware can differ per card after a
// failed upgrade). Cites the first card, and any card that differs from it.
std::vector<Board> read_boards(CheckContext& ctx, StepResult& step, const NpuSmiInfo& info) {
  std::vector<Board> boards;
  for (int id : npu_ids(info)) {
    if (boards.size() >= kMaxBoards) break;
    const std::vector<std::string> argv = {"npu-smi", "info", "-t", "board", "-i", std::to_string(id)};
    const CommandResult& r = ctx.run(argv);
    if (!r.ok()) {
      step.evidence.push_back(evidence_command_failure(command_text(argv), r));
      if (r.timed_out) break;
      continue;
    }
    const auto kv = parse_key_values(r.out);
    Board b{id, command_text(argv), r.out, value_of(kv, "Firmware Version").value_or(""),
            value_of(kv, "Compatibility").value_or("")};
    const bool differs = !boards.empty() && (b.firmware != boards.front().firmware ||
                                             b.compatibility != boards.front().compatibility);
    if (boards.empty() || differs) {
      cite_keys(step, b.command, b.out, {"Software Version", "Firmware Version", "Compatibility"});
    }
    boards.push_back(std::move(b));
  }
  return boards;
}

void check_health(CheckContext& ctx, StepResult& step, const NpuSmiInfo& info) {
  for (const auto& c : info.chips) {
    if (c.health == "OK") continue;
    Evidence e = evidence_line("npu-smi info", 0,
                               "NPU " + std::to_string(c.npu) + " chip " + std::to_string(c.chip) + " " + c.name + " " +
                                   c.bus_id + " Health " + c.health);
    e.device = c.npu;
    std::vector<std::pair<std::string, std::string>> caps = {
        {"npu", std::to_string(c.npu)}, {"chip", std::to_string(c.chip)}, {"health", c.health}};
    std::vector<Evidence> more;
    const std::vector<std::string> argv = {"npu-smi", "info", "-t", "health", "-i", std::to_string(c.npu)};
    const CommandResult& r = ctx.run(argv);
    if (r.ok()) {
      if (auto code = value_of(parse_key_values(r.out), "Error Code"); code && *code != "NA") caps.emplace_back("error_code", *code);
      if (auto line = find_key_line(r.out, "Error Code")) more.push_back(evidence_at(command_text(argv), *line));
      if (auto line = find_key_line(r.out, "Error Information")) more.push_back(evidence_at(command_text(argv), *line));
    }
    more.insert(more.begin(), with(std::move(e), std::move(caps)));
    const bool minor = c.health == "Warning";
    ctx.raise(step, minor ? kb_id::check::device_health_warning : kb_id::check::device_health_alarm, std::move(more));
  }
}

// "23.0.rc2" and "23.0.rc2.3" name the same driver build; "24.1.rc2" and "23.0.5" do not.
bool same_driver(const Version& a, const Version& b) { return a == b || a.has_prefix(b) || b.has_prefix(a); }

bool board_says_ok(const std::string& v) { return to_lower(v) == "ok"; }
bool board_says_nothing(const std::string& v) {
  const std::string l = to_lower(trim(v));
  return l.empty() || l == "na" || l == "-" || l == "n/a";
}

void check_compatibility(CheckContext& ctx, StepResult& step, const std::vector<Board>& boards) {
  const auto& drv = ctx.driver_file();
  const auto& fw = ctx.firmware_file();
  const std::optional<Version> driver = ctx.driver_version();

  // Every firmware version seen, with where it was read.
  std::vector<std::pair<Version, Evidence>> firmware;
  if (fw.parsed) {
    if (auto v = Version::parse(fw.parsed->version)) {
      firmware.emplace_back(*v, evidence_at(fw.path, find_key_line(*fw.text, "Version").value_or(NumberedLine{})));
    }
  }
  for (const auto& b : boards) {
    auto v = Version::parse(b.firmware);
    if (!v || std::any_of(firmware.begin(), firmware.end(), [&](const auto& f) { return f.first == *v; })) continue;
    firmware.emplace_back(*v, evidence_at(b.command, find_key_line(b.out, "Firmware Version").value_or(NumberedLine{})));
  }
  if (!firmware.empty()) step.fact("firmware_version", firmware.front().first.text());

  const std::string driver_text = driver ? driver->text() : "";
  std::vector<Evidence> mismatches;
  std::vector<std::string> confirmed_by;
  // 1. The driver's own list of the firmware it accepts.
  if (drv.parsed && drv.parsed->compatible_firmware) {
    const auto line = find_key_line(*drv.text, "compatible_version_fw").value_or(NumberedLine{});
    for (const auto& known : firmware) {
      // Not a structured binding: clang 14 (the sanitizer builds) cannot capture one in a lambda.
      const auto& fv = known.first;
      const auto& where = known.second;
      const auto& specs = *drv.parsed->compatible_firmware;
      if (std::any_of(specs.begin(), specs.end(), [&](const VersionSpec& s) { return s.matches(fv); })) {
        confirmed_by.push_back(drv.path);
      } else {
        mismatches.push_back(with(evidence_at(drv.path, line), {{"driver", driver_text},
                                                                {"firmware", fv.text()},
                                                                {"accepts", drv.parsed->compatible_firmware_text}}));
        mismatches.push_back(where);
      }
    }
  }
  // 2. The firmware's own list of the drivers it accepts.
  if (fw.parsed && fw.parsed->compatible_drivers && driver) {
    const auto& specs = *fw.parsed->compatible_drivers;
    const auto line = find_key_line(*fw.text, "compatible_version_drv").value_or(NumberedLine{});
    if (std::any_of(specs.begin(), specs.end(), [&](const VersionSpec& s) { return s.matches(*driver); })) {
      confirmed_by.push_back(fw.path);
    } else {
      mismatches.push_back(with(evidence_at(fw.path, line), {{"driver", driver_text},
                                                             {"firmware", fw.parsed->version},
                                                             {"accepts", fw.parsed->compatible_drivers_text}}));
    }
  }
  // 3. npu-smi's verdict per card.
  for (const auto& b : boards) {
    if (board_says_nothing(b.compatibility)) continue;
    const auto line = find_key_line(b.out, "Compatibility").value_or(NumberedLine{});
    if (board_says_ok(b.compatibility)) {
      confirmed_by.push_back(b.command);
    } else {
      mismatches.push_back(with(evidence_at(b.command, line), {{"npu", std::to_string(b.npu)},
                                                               {"driver", driver_text},
                                                               {"firmware", b.firmware}}));
    }
  }
  if (!mismatches.empty()) {
    step.fact("compatibility", "mismatch");
    ctx.raise(step, kb_id::check::driver_firmware_mismatch, std::move(mismatches));
    return;
  }
  if (!confirmed_by.empty()) {
    step.fact("compatibility", "ok");
    step.fact("compatibility_source", confirmed_by.front());
    return;
  }
  // 4. The shipped table, when the installed files and npu-smi say nothing.
  if (!driver || firmware.empty()) {
    step.fact("compatibility", "unverified");
    ctx.raise(step, kb_id::check::driver_firmware_unverified,
              with(evidence_line(driver ? fw.path : drv.path, 0, driver ? "firmware version unknown" : "driver version unknown"),
                   {{"driver", driver_text}, {"firmware", firmware.empty() ? "" : firmware.front().first.text()}}));
    return;
  }
  for (const auto& [fv, where] : firmware) {
    const DriverFirmwareAnswer a = ctx.table().driver_firmware(*driver, fv);
    const std::string source = a.rows.empty() ? "" : ctx.table().source_text(a.rows.front()->source);
    const std::string table_line = a.rows.empty() ? "" : "data/compatibility.yaml:" + std::to_string(a.rows.front()->line);
    if (a.verdict == Verdict::compatible) {
      step.fact("compatibility", a.verified ? "ok" : "ok (unverified table row)");
      step.fact("compatibility_source", table_line);
      continue;
    }
    Evidence e = with(where, {{"driver", driver->text()}, {"firmware", fv.text()}});
    if (a.verdict == Verdict::incompatible) {
      e.captures.emplace_back("expected", a.expected);
      e.captures.emplace_back("table", table_line);
    }
    if (a.verdict == Verdict::incompatible && a.verified) {
      step.fact("compatibility", "mismatch");
      ctx.raise(step, kb_id::check::driver_firmware_mismatch, std::move(e));
    } else {
      step.fact("compatibility", "unverified");
      ctx.raise(step, kb_id::check::driver_firmware_unverified, std::move(e));
    }
  }
}

}  // namespace

StepResult run_driver_step(CheckContext& ctx) {
  StepResult step;
  step.id = StepId::driver;
  const auto& drv = ctx.driver_file();
  cite_file(ctx, step, drv, {"Version", "compatible_version_fw"});
  cite_file(ctx, step, ctx.firmware_file(), {"Version", "package_version", "compatible_version_drv"});
  if (drv.parsed) step.fact("driver_version", drv.parsed->version);

  const NpuSmiView& smi = ctx.npu_smi();
  if (!ctx.driver_present()) {
    std::vector<Evidence> ev = {evidence_line(drv.path, 0, "missing")};
    ev.push_back(evidence_line("npu-smi", 0, smi.on_path ? smi.result.describe() : "not found on PATH"));
    ev.push_back(evidence_line("/dev/davinci_manager", 0, "missing"));
    ctx.raise(step, kb_id::check::driver_not_installed, std::move(ev));
    return step;
  }

  std::vector<Board> boards;
  if (!smi.on_path) {
    step.evidence.push_back(evidence_line("npu-smi", 0, "not found on PATH"));
    ctx.raise(step, kb_id::check::npu_smi_missing, evidence_env("PATH", ctx.env("PATH")));
  } else if (!smi.result.ok()) {
    Evidence e = evidence_command_failure("npu-smi info", smi.result);
    step.evidence.push_back(e);
    ctx.raise(step, kb_id::check::npu_smi_failed, std::move(e));
  } else if (!smi.usable()) {
    Evidence e = evidence_line("npu-smi info", 0, smi.parse_error);
    step.evidence.push_back(e);
    ctx.raise(step, kb_id::check::npu_smi_failed, with(std::move(e), {{"output", smi.result.out.substr(0, 300)}}));
  } else {
    const NpuSmiInfo& info = *smi.info;
    if (auto header = find_line_containing(smi.result.out, "npu-smi")) step.evidence.push_back(evidence_at("npu-smi info", *header));
    step.fact("npu_count", std::to_string(npu_ids(info).size()));
    step.fact("chip_count", std::to_string(info.chips.size()));
    if (!info.chips.front().name.empty()) step.fact("npu_name", info.chips.front().name);
    if (!info.driver_version.empty()) step.fact("driver_version_npu_smi", info.driver_version);
    check_health(ctx, step, info);
    boards = read_boards(ctx, step, info);
    // The files on disk and the driver npu-smi talks to differ: typically an upgrade
    // without the reboot that loads the new kernel modules.
    const auto file_v = drv.parsed ? Version::parse(drv.parsed->version) : std::nullopt;
    const auto smi_v = Version::parse(info.driver_version);
    if (file_v && smi_v && !same_driver(*file_v, *smi_v)) {
      ctx.raise(step, kb_id::check::driver_version_differs,
                {with(evidence_at(drv.path, find_key_line(*drv.text, "Version").value_or(NumberedLine{})),
                      {{"installed", file_v->text()}, {"running", smi_v->text()}}),
                 evidence_at("npu-smi info", find_line_containing(smi.result.out, "npu-smi").value_or(NumberedLine{}))});
    }
  }
  if (!step.fact_value("driver_version")) {
    if (auto v = ctx.driver_version()) step.fact("driver_version", v->text());
  }
  check_compatibility(ctx, step, boards);
  return step;
}

}  // namespace npu_doctor::checks
