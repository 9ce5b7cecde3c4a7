#pragma once
// A JSON document written as a stream: the same bytes nlohmann's dump(indent) gives for
// the whole document (indent < 0: compact, as dump(-1)), while only one small piece (an
// input, a finding) exists as a DOM at a time. Reports over 100,000 inputs stay within a
// few MiB this way. Objects and arrays are opened and closed explicitly; small values are
// nlohmann values dumped in place, indented to where they stand.
#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace npu_doctor::render_detail {

class JsonStreamWriter {
 public:
  explicit JsonStreamWriter(std::ostream& out, int indent = 2) : out_(out), indent_(indent) {}

  // The document itself, or an element of the array that is open.
  void begin_object() { open('{', {}); }
  void begin_array() { open('[', {}); }
  // A member of the object that is open.
  void begin_object(std::string_view key) { open('{', key); }
  void begin_array(std::string_view key) { open('[', key); }
  void end_object() { close('}'); }
  void end_array() { close(']'); }

  // A member whose value is small enough to be a DOM.
  template <class Json>
  void member(std::string_view key, const Json& value) {
    next(key);
    write_dumped(value.dump(indent_, ' ', false, Json::error_handler_t::replace));
  }
  // An element of the array that is open.
  template <class Json>
  void element(const Json& value) {
    next({});
    write_dumped(value.dump(indent_, ' ', false, Json::error_handler_t::replace));
  }

 private:
  struct Level {
    char close;
    bool empty = true;
  };
  void open(char bracket, std::string_view key);
  void close(char bracket);
  // Starts the next member or element: separator, line end, indentation, key.
  void next(std::string_view key);
  // A value dumped at depth 0, its lines indented to the current depth.
  void write_dumped(const std::string& text);
  void pad(std::size_t depth);

  std::ostream& out_;
  int indent_;
  std::vector<Level> levels_;
};

}  // namespace npu_doctor::render_detail
