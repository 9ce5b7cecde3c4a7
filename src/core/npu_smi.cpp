#include "npu_doctor/parse/npu_smi.hpp"
#include "npu_doctor/text.hpp"

#include <algorithm>
#include <cctype>

namespace npu_doctor {
namespace {

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    const std::size_t start = i;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

template <typename T>
std::optional<T> number(std::string_view s) {
  return parse_number<T>(trim(s));
}

std::optional<double> decimal(std::string_view s) {
  s = trim(s);
  if (s.empty() || s == "-" || s == "NA") return std::nullopt;
  try {
    std::size_t used = 0;
    const double v = std::stod(std::string(s), &used);
    if (used != s.size()) return std::nullopt;
    return v;
  } catch (...) {
    return std::nullopt;
  }
}

bool is_health(std::string_view s) {
  return s == "OK" || s == "Warning" || s == "Alarm" || s == "Critical" || s == "UNKNOWN";
}

bool is_bus_id(std::string_view s) {
  // dddd:dd:dd.d in hex
  if (s.size() != 12 || s[4] != ':' || s[7] != ':' || s[10] != '.') return false;
  for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u, 11u}) {
    if (!std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

// "4565 / 15137      30710/ 32768" -> the used/total pairs, in order.
std::vector<std::pair<uint64_t, uint64_t>> usage_pairs(std::string_view s) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (std::size_t slash = s.find('/'); slash != std::string_view::npos; slash = s.find('/', slash + 1)) {
    std::size_t a = slash;
    while (a > 0 && s[a - 1] == ' ') --a;
    std::size_t a0 = a;
    while (a0 > 0 && std::isdigit(static_cast<unsigned char>(s[a0 - 1]))) --a0;
    std::size_t b = slash + 1;
    while (b < s.size() && s[b] == ' ') ++b;
    std::size_t b1 = b;
    while (b1 < s.size() && std::isdigit(static_cast<unsigned char>(s[b1]))) ++b1;
    auto used = number<uint64_t>(s.substr(a0, a - a0));
    auto total = number<uint64_t>(s.substr(b, b1 - b));
    if (used && total) out.emplace_back(*used, *total);
  }
  return out;
}

// The cells of a table row "| a | b | c |", or empty when the line is not a row.
std::vector<std::string_view> cells(std::string_view line) {
  line = trim(line);
  if (line.size() < 2 || line.front() != '|' || line.back() != '|') return {};
  auto parts = split(line.substr(1, line.size() - 2), '|');
  for (auto& p : parts) p = trim(p);
  return parts;
}

}  // namespace

std::optional<NpuSmiInfo> parse_npu_smi_info(std::string_view text, std::string* error) {
  NpuSmiInfo info;
  std::optional<NpuSmiChip> pending;  // first row of a chip, waiting for its second row
  bool in_processes = false;
  int last_npu = -1;
  for (std::string_view raw : split(text, '\n')) {
    const auto c = cells(raw);
    if (c.empty()) continue;
    const std::string_view first = c.front();
    if (first.starts_with("npu-smi")) {
      auto w = words(first);
      if (w.size() >= 2) info.tool_version = std::string(w[1]);
      for (std::size_t i = 0; i + 1 < w.size(); ++i) {
        if (w[i] == "Version:") info.driver_version = std::string(w[i + 1]);
      }
      continue;
    }
    if (raw.find("Process id") != std::string_view::npos) {
      in_processes = true;
      continue;
    }
    if (in_processes) {
      if (c.size() >= 4) {
        auto ids = words(c[0]);
        NpuSmiProcess p;
        if (ids.size() >= 1) p.npu = number<int>(ids[0]).value_or(-1);
        if (ids.size() >= 2) p.chip = number<int>(ids[1]).value_or(0);
        p.pid = number<long>(c[1]).value_or(0);
        p.name = std::string(c[2]);
        p.memory_mb = number<uint64_t>(c[3]).value_or(0);
        if (p.npu >= 0 && p.pid > 0) info.processes.push_back(p);
      }
      continue;
    }
    // A chip's first row has the health cell; its second row the bus id.
    const auto health = std::find_if(c.begin(), c.end(), [](std::string_view x) { return is_health(x); });
    const auto bus = std::find_if(c.begin(), c.end(), [](std::string_view x) { return is_bus_id(x); });
    if (health != c.end()) {
      NpuSmiChip chip;
      const std::size_t hi = static_cast<std::size_t>(health - c.begin());
      // "0     910B4-1" in one cell, or "0" and "Ascend950" in two (950 layout).
      std::vector<std::string_view> id_words;
      for (std::size_t i = 0; i < hi; ++i) {
        for (auto w : words(c[i])) id_words.push_back(w);
      }
      if (!id_words.empty()) chip.npu = number<int>(id_words[0]).value_or(-1);
      if (id_words.size() >= 2) chip.name = std::string(id_words[1]);
      chip.health = std::string(*health);
      if (hi + 1 < c.size()) {
        auto w = words(c[hi + 1]);
        if (!w.empty()) chip.power_w = decimal(w[0]);
        if (w.size() >= 2) chip.temp_c = number<int>(w[1]);
      }
      if (chip.npu < 0) chip.npu = last_npu;
      pending = chip;
    } else if (bus != c.end() && pending) {
      NpuSmiChip chip = *pending;
      pending.reset();
      const std::size_t bi = static_cast<std::size_t>(bus - c.begin());
      std::vector<std::string_view> id_words;
      for (std::size_t i = 0; i < bi; ++i) {
        for (auto w : words(c[i])) id_words.push_back(w);
      }
      if (!id_words.empty()) chip.chip = number<int>(id_words[0]).value_or(0);
      if (id_words.size() >= 2) chip.phy_id = number<int>(id_words[1]);
      chip.bus_id = std::string(*bus);
      if (bi + 1 < c.size()) {
        auto w = words(c[bi + 1]);
        if (!w.empty()) chip.utilization_percent = number<int>(w[0]);
        const auto pairs = usage_pairs(c[bi + 1]);
        if (pairs.size() >= 2) {
          chip.memory_used_mb = pairs[pairs.size() - 2].first;
          chip.memory_total_mb = pairs[pairs.size() - 2].second;
        }
        if (!pairs.empty()) {
          chip.hbm_used_mb = pairs.back().first;
          chip.hbm_total_mb = pairs.back().second;
        }
      }
      last_npu = chip.npu;
      info.chips.push_back(chip);
    }
  }
  if (info.chips.empty()) {
    if (error != nullptr) *error = "no device table found in npu-smi output";
    return std::nullopt;
  }
  return info;
}

std::vector<std::pair<std::string, std::string>> parse_key_values(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> out;
  for (std::string_view line : split(text, '\n')) {
    line = trim(line);
    if (line.empty() || line.front() == '#') continue;
    const std::size_t sep = line.find_first_of(":=");
    if (sep == std::string_view::npos || sep == 0) continue;
    out.emplace_back(std::string(trim(line.substr(0, sep))), std::string(trim(line.substr(sep + 1))));
  }
  return out;
}

std::optional<std::string> value_of(const std::vector<std::pair<std::string, std::string>>& kv,
                                    std::string_view key) {
  for (const auto& [k, v] : kv) {
    if (k == key) return v;
  }
  return std::nullopt;
}

}  // namespace npu_doctor
