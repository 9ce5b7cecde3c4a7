#include "json_positions.hpp"

#include <iterator>
#include <set>

namespace npu_doctor::hccl {
namespace {

using json = nlohmann::json;

// An input iterator over the text that counts how far the parser has read.
struct CountingIterator {
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  const char* p = nullptr;
  std::size_t* consumed = nullptr;

  reference operator*() const { return *p; }
  CountingIterator& operator++() {
    ++p;
    ++*consumed;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const CountingIterator& o) const { return p == o.p; }
  bool operator!=(const CountingIterator& o) const { return p != o.p; }
};

bool is_number_char(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// Builds the value and records where each one starts. `consumed` is how many bytes the
// lexer has read when a callback runs: just past a string's closing quote or a literal,
// one byte past a number (the byte that ended it), just past '{' or '['.
class Builder final : public nlohmann::json_sax<json> {
 public:
  Builder(std::string_view text, const std::size_t& consumed, PositionedJson& out)
      : text_(text), consumed_(consumed), out_(out) {}

  bool null() override { return scalar(nullptr, literal_start(4)); }
  bool boolean(bool v) override { return scalar(v, literal_start(v ? 4 : 5)); }
  bool number_integer(number_integer_t v) override { return scalar(v, number_start()); }
  bool number_unsigned(number_unsigned_t v) override { return scalar(v, number_start()); }
  bool number_float(number_float_t v, const string_t& /*raw*/) override { return scalar(v, number_start()); }
  bool string(string_t& v) override { return scalar(v, string_start()); }
  bool binary(binary_t& /*v*/) override { return false; }

  bool start_object(std::size_t /*elements*/) override { return open(json::object()); }
  bool start_array(std::size_t /*elements*/) override { return open(json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& k) override {
    Frame& f = stack_.back();
    f.key = k;
    if (!f.keys.insert(k).second) out_.duplicate_keys.emplace_back(json_child(f.path, k), string_start());
    return true;
  }

  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& ex) override {
    // nlohmann gives the byte after the offending token; point at its start, as a compiler
    // does (the token as given escapes control bytes as "<U+000A>": then its last byte).
    std::size_t at = position > 0 ? position - 1 : 0;
    if (!last_token.empty() && last_token.size() <= position && last_token.find("<U+") == std::string::npos) {
      at = position - last_token.size();
    }
    error_ = JsonError{ex.what(), at};
    return false;
  }

  const std::optional<JsonError>& error() const { return error_; }
  bool too_deep() const { return too_deep_; }
  json& root() { return root_; }

 private:
  struct Frame {
    json* value;
    std::string path;
    std::string key;              // objects: the key of the next value
    std::size_t next_index = 0;   // arrays: the index of the next value
    std::set<std::string> keys;   // objects: keys seen so far
  };

  // The path of the value about to be added, and where to put it.
  std::pair<std::string, json*> place(json v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return {"", &root_};
    }
    Frame& f = stack_.back();
    if (f.value->is_object()) {
      json& slot = (*f.value)[f.key];
      slot = std::move(v);
      return {json_child(f.path, f.key), &slot};
    }
    f.value->push_back(std::move(v));
    return {json_index(f.path, f.next_index++), &f.value->back()};
  }

  bool scalar(json v, std::size_t start) {
    auto [path, slot] = place(std::move(v));
    out_.offsets.emplace(path, start);
    return true;
  }

  bool open(json v) {
    if (stack_.size() >= kMaxJsonDepth) {
      too_deep_ = true;
      return false;
    }
    const std::size_t start = consumed_ > 0 ? consumed_ - 1 : 0;
    auto [path, slot] = place(std::move(v));
    out_.offsets.emplace(path, start);
    stack_.push_back({slot, path, {}, 0, {}});
    return true;
  }

  bool close() {
    stack_.pop_back();
    return true;
  }

  std::size_t literal_start(std::size_t len) const { return consumed_ >= len ? consumed_ - len : 0; }

  std::size_t number_start() const {
    std::size_t i = std::min(consumed_, text_.size());
    // The lexer read one byte past the number unless the number ended the text.
    if (i > 0 && !is_number_char(text_[i - 1])) --i;
    while (i > 0 && is_number_char(text_[i - 1])) --i;
    return i;
  }

  std::size_t string_start() const {
    // consumed_ is just past the closing quote: walk back to the opening one.
    std::size_t i = std::min(consumed_, text_.size());
    if (i == 0) return 0;
    --i;  // the closing quote
    while (i > 0) {
      --i;
      if (text_[i] != '"') continue;
      std::size_t backslashes = 0;
      while (i >= backslashes + 1 && text_[i - backslashes - 1] == '\\') ++backslashes;
      if (backslashes % 2 == 0) return i;
    }
    return 0;
  }

  std::string_view text_;
  const std::size_t& consumed_;
  PositionedJson& out_;
  json root_;
  std::vector<Frame> stack_;
  std::optional<JsonError> error_;
  bool too_deep_ = false;
};

}  // namespace

TextPosition position_of(std::string_view text, std::size_t offset) {
  TextPosition pos{1, 1};
  const std::size_t end = std::min(offset, text.size());
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++pos.line;
      line_start = i + 1;
    }
  }
  pos.column = end - line_start + 1;
  return pos;
}

std::string json_child(const std::string& parent, std::string_view key) {
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

std::string json_index(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

std::optional<std::size_t> PositionedJson::offset_of(const std::string& path) const {
  std::string p = path;
  for (;;) {
    if (auto it = offsets.find(p); it != offsets.end()) return it->second;
    if (p.empty()) return std::nullopt;
    const auto cut = p.find_last_of(".[");
    p = cut == std::string::npos ? std::string() : p.substr(0, cut);
  }
}

std::optional<PositionedJson> parse_positioned_json(std::string_view text, JsonError* error) {
  PositionedJson out;
  std::size_t consumed = 0;
  Builder builder(text, consumed, out);
  CountingIterator first{text.data(), &consumed};
  CountingIterator last{text.data() + text.size(), &consumed};
  const bool ok = json::sax_parse(first, last, &builder);
  if (!ok) {
    if (error != nullptr) {
      if (builder.error()) *error = *builder.error();
      else if (builder.too_deep()) *error = {"nested deeper than " + std::to_string(kMaxJsonDepth) + " levels", consumed};
      else *error = {"not valid JSON", consumed};
    }
    return std::nullopt;
  }
  out.value = std::move(builder.root());
  return out;
}

}  // namespace npu_doctor::hccl
