#pragma once
// JSON with the position of every value: nlohmann-json parses (through its SAX
// interface, with an iterator that counts the bytes it reads), and each value's JSON
// path ("server_list[1].device[3].rank_id") maps to its line and column, so a problem
// in a rank table can say exactly where it is. Also finds keys repeated in one object,
// which a plain parse silently collapses.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace npu_doctor::hccl {

struct TextPosition {
  std::size_t line = 0;    // 1-based
  std::size_t column = 0;  // 1-based, in bytes
};

// The line and column of byte `offset` in `text`.
TextPosition position_of(std::string_view text, std::size_t offset);

struct PositionedJson {
  nlohmann::json value;
  std::map<std::string, std::size_t> offsets;  // JSON path -> byte offset where the value starts
  std::vector<std::pair<std::string, std::size_t>> duplicate_keys;  // path of the repeated key, its offset

  // The position of `path`, or of its closest enclosing value that has one.
  std::optional<std::size_t> offset_of(const std::string& path) const;
};

struct JsonError {
  std::string message;  // "syntax error: unexpected '}'" (nlohmann's words)
  std::size_t offset = 0;
};

inline constexpr std::size_t kMaxJsonDepth = 256;

// Parses `text`; nullopt with `error` when it is not valid JSON or nests deeper than
// kMaxJsonDepth.
std::optional<PositionedJson> parse_positioned_json(std::string_view text, JsonError* error);

// "server_list[1].device[3]" + "rank_id"
std::string json_child(const std::string& parent, std::string_view key);
std::string json_index(const std::string& parent, std::size_t index);

}  // namespace npu_doctor::hccl
