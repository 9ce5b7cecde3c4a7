#pragma once
// Paths matching a pattern whose components may contain '*' ("/usr/local/lib/python3*/site-packages"),
// found through a probe, so that a fixture tree or a collected bundle is searched like
// the real machine.
#include <string>
#include <string_view>
#include <vector>

#include "npu_doctor/probe.hpp"

namespace npu_doctor::checks {

// True when `name` matches `pattern`, where '*' stands for any run of characters.
bool wildcard_match(std::string_view pattern, std::string_view name);

// Existing paths matching `pattern` (absolute), sorted; at most `limit`.
std::vector<std::string> glob_paths(const Probe& probe, std::string_view pattern, std::size_t limit = 256);

}  // namespace npu_doctor::checks
