// cluster_communication.json (msprof-analyze cluster): per communication group, step,
// operator and rank, a "Communication Time Info" with Wait/Transit/Synchronization times.
// Read with a SAX parser over the stream, so a large file is never held in memory.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <istream>
#include <streambuf>

#include "profile_accumulator.hpp"

namespace npu_doctor::profile_detail {
namespace {

// std::istream over a ByteStream, for the JSON parser.
class StreamBuf final : public std::streambuf {
 public:
  explicit StreamBuf(ByteStream& in) : in_(in), buf_(1u << 16) {}
  uint64_t bytes() const { return bytes_; }
  const std::string& error() const { return error_; }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    const long r = in_.read(buf_.data(), buf_.size());
    if (r <= 0) {
      if (r < 0) error_ = in_.error();
      return traits_type::eof();
    }
    bytes_ += static_cast<uint64_t>(r);
    setg(buf_.data(), buf_.data(), buf_.data() + r);
    return traits_type::to_int_type(*gptr());
  }

 private:
  ByteStream& in_;
  std::vector<char> buf_;
  uint64_t bytes_ = 0;
  std::string error_;
};

bool is_rank_id(const std::string& s) {
  return !s.empty() && s.size() < 12 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

class Handler final : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit Handler(Accumulator& acc) : acc_(acc) {}
  std::string error;
  uint64_t values = 0;

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t v) override { return number(static_cast<double>(v)); }
  bool number_unsigned(number_unsigned_t v) override { return number(static_cast<double>(v)); }
  bool number_float(number_float_t v, const string_t&) override { return number(v); }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    stack_.push_back(pending_);
    pending_.clear();
    return stack_.size() < 256;
  }
  bool key(string_t& k) override {
    pending_ = k;
    return true;
  }
  bool end_object() override {
    if (!stack_.empty()) stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override {
    stack_.push_back(pending_);
    pending_.clear();
    return stack_.size() < 256;
  }
  bool end_array() override {
    if (!stack_.empty()) stack_.pop_back();
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
    error = "not valid JSON at byte " + std::to_string(position) + ": " + ex.what();
    return false;
  }

 private:
  // {..., "<op name>": {"<rank>": {"Communication Time Info": {"Wait Time(ms)": x, ...}}}}
  bool number(double v) {
    const std::size_t n = stack_.size();
    if (n < 3 || stack_[n - 1] != "Communication Time Info" || !is_rank_id(stack_[n - 2])) return true;
    CommTotals& t = stack_[n - 3].rfind("Total Op Info", 0) == 0 ? acc_.comm_total_op[stack_[n - 2]]
                                                                   : acc_.comm_ops[stack_[n - 2]];
    if (pending_ == "Wait Time(ms)") t.wait_ms += v;
    else if (pending_ == "Transit Time(ms)") t.transit_ms += v;
    else if (pending_ == "Synchronization Time(ms)") t.sync_ms += v;
    else return true;
    ++values;
    return true;
  }

  Accumulator& acc_;
  std::vector<std::string> stack_;
  std::string pending_;
};

}  // namespace

void read_cluster_communication(ByteStream& in, const std::string& path, Accumulator& acc, ProfileInput& input) {
  (void)path;
  StreamBuf sb(in);
  std::istream is(&sb);
  Handler h(acc);
  bool ok = false;
  try {
    ok = nlohmann::json::sax_parse(is, &h);
  } catch (const std::exception& e) {  // the parser reports through the handler; this is a safety net
    h.error = e.what();
  }
  input.report.bytes = sb.bytes();
  input.rows = h.values;
  if (!sb.error().empty()) {
    input.report.status = InputStatus::partial;
    input.report.note = "read error: " + sb.error();
  } else if (!ok) {
    input.report.status = h.values > 0 ? InputStatus::partial : InputStatus::error;
    input.report.note = h.error.empty() ? "not valid JSON" : h.error;
  } else if (h.values == 0) {
    input.report.note = "no 'Communication Time Info' with per-rank wait and transit times";
  }
}

}  // namespace npu_doctor::profile_detail
