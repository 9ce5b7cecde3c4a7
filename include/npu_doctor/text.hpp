#pragma once
// Text from logs is untrusted bytes: make it safe to print and to put in JSON.
#include <string>
#include <string_view>
#include <vector>

namespace npu_doctor {

// Valid UTF-8 with terminal escapes (ANSI colour codes) removed, other control
// characters and invalid bytes replaced by U+FFFD, tabs kept, a trailing CR dropped.
std::string sanitize_line(std::string_view raw);

// At most `max_bytes` bytes of valid UTF-8 `s`, cut at a character boundary.
std::string_view utf8_prefix(std::string_view s, std::size_t max_bytes);

// True if the first bytes of a stream look like binary data rather than text.
bool looks_binary(std::string_view head);

// `s` without leading and trailing white space.
std::string_view trim(std::string_view s);
// The pieces of `s` between `sep`s (empty pieces kept; "" gives one empty piece).
std::vector<std::string_view> split(std::string_view s, char sep);

}  // namespace npu_doctor
