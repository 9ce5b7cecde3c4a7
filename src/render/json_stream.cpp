#include "json_stream.hpp"

#include <stdexcept>

namespace npu_doctor::render_detail {

void JsonStreamWriter::pad(std::size_t depth) {
  if (indent_ < 0) return;
  for (std::size_t i = 0; i < depth * static_cast<std::size_t>(indent_); ++i) out_.put(' ');
}

void JsonStreamWriter::next(std::string_view key) {
  if (levels_.empty()) {
    if (!key.empty()) throw std::logic_error("JsonStreamWriter: a key at the top level");
    return;  // the document's value itself
  }
  Level& l = levels_.back();
  if (indent_ < 0) {
    if (!l.empty) out_.put(',');
  } else {
    out_ << (l.empty ? "\n" : ",\n");
  }
  l.empty = false;
  pad(levels_.size());
  if (l.close == '}') {
    out_ << nlohmann::json(std::string(key)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
         << (indent_ < 0 ? ":" : ": ");
  }
}

void JsonStreamWriter::open(char bracket, std::string_view key) {
  next(key);
  out_.put(bracket);
  levels_.push_back({bracket == '{' ? '}' : ']'});
}

void JsonStreamWriter::close(char bracket) {
  if (levels_.empty() || levels_.back().close != bracket) throw std::logic_error("JsonStreamWriter: unbalanced close");
  const bool empty = levels_.back().empty;
  levels_.pop_back();
  if (!empty && indent_ >= 0) {
    out_.put('\n');
    pad(levels_.size());
  }
  out_.put(bracket);
}

void JsonStreamWriter::write_dumped(const std::string& text) {
  const std::size_t depth = levels_.size();
  std::size_t from = 0;
  // Dumped strings never hold a raw line end (it is escaped), so every '\n' starts a line.
  for (auto nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
    out_.write(text.data() + from, static_cast<std::streamsize>(nl + 1 - from));
    pad(depth);
    from = nl + 1;
  }
  out_.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
}

}  // namespace npu_doctor::render_detail
