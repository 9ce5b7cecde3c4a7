#include "npu_doctor/input_store.hpp"

#include <string>

#include "snapshot_io.hpp"

namespace npu_doctor {

namespace {

using snapshot_io::Reader;
using snapshot_io::Writer;

void put_time(Writer& w, const std::optional<Timestamp>& t) {
  w.u8(t ? (t->has_year ? 1 : 2) : 0);
  if (!t) return;
  w.i64(t->micros);
  w.str(t->text);
}

std::optional<Timestamp> get_time(Reader& r) {
  const uint8_t kind = r.u8();
  if (kind == 0) return std::nullopt;
  Timestamp t;
  t.has_year = kind == 1;
  t.micros = r.i64();
  t.text = r.str();
  return t;
}

void put_rank(Writer& w, const std::optional<int>& rank) {
  w.u8(rank ? 1 : 0);
  if (rank) w.i64(*rank);
}

std::optional<int> get_rank(Reader& r) {
  if (r.u8() == 0) return std::nullopt;
  return static_cast<int>(r.i64());
}

// The record of one input. An event's entry is kept as its address: the file is private
// to this process and read back only by it, while the knowledge base lives.
std::string encode(const InputReport& in) {
  Writer w;
  w.str(in.path);
  w.str(in.kind.str());
  w.i64(static_cast<int64_t>(in.bytes));
  w.i64(static_cast<int64_t>(in.lines));
  w.u8(static_cast<uint8_t>(in.status));
  w.str(in.note);
  put_rank(w, in.rank);
  w.str(in.host.str());
  put_time(w, in.timeline.first_time);
  put_time(w, in.timeline.last_time);
  w.u32(static_cast<uint32_t>(in.timeline.events.size()));
  for (const TimelineEvent& e : in.timeline.events) {
    w.i64(static_cast<int64_t>(reinterpret_cast<uintptr_t>(e.entry)));
    w.str(e.code);
    w.i64(static_cast<int64_t>(e.line));
    put_time(w, e.time);
    put_rank(w, e.rank);
    w.u8(e.low_level ? 1 : 0);
    w.i64(static_cast<int64_t>(e.specificity));
    w.u32(static_cast<uint32_t>(e.captures.size()));
    for (const auto& [k, v] : e.captures) {
      w.str(k);
      w.str(v);
    }
    w.str(e.text);
  }
  return w.take();
}

InputReport decode(std::string_view bytes) {
  Reader r(bytes);
  InputReport in;
  in.path = r.str();
  in.kind = r.view();
  in.bytes = static_cast<uint64_t>(r.i64());
  in.lines = static_cast<uint64_t>(r.i64());
  in.status = static_cast<InputStatus>(r.u8());
  in.note = r.str();
  in.rank = get_rank(r);
  in.host = r.view();
  in.timeline.first_time = get_time(r);
  in.timeline.last_time = get_time(r);
  in.timeline.events.resize(r.count());
  for (TimelineEvent& e : in.timeline.events) {
    e.entry = reinterpret_cast<const Entry*>(static_cast<uintptr_t>(r.i64()));
    e.code = r.str();
    e.line = static_cast<uint64_t>(r.i64());
    e.time = get_time(r);
    e.rank = get_rank(r);
    e.low_level = r.u8() != 0;
    e.specificity = static_cast<Specificity>(r.i64());
    e.captures.resize(r.count());
    for (auto& [k, v] : e.captures) {
      k = r.str();
      v = r.str();
    }
    e.text = r.str();
  }
  return in;
}

}  // namespace

InputStore::InputStore() = default;
InputStore::InputStore(std::size_t memory_budget) : records_(memory_budget) {}
InputStore::InputStore(std::initializer_list<InputReport> reports) {
  for (const auto& r : reports) push_back(r);
}
InputStore::InputStore(const std::vector<InputReport>& reports) {
  records_.reserve(reports.size());
  for (const auto& r : reports) push_back(r);
}

void InputStore::push_back(const InputReport& report) { records_.push_back(encode(report)); }
InputReport InputStore::operator[](std::size_t i) const { return decode(records_[i]); }
void InputStore::replace(std::size_t i, const InputReport& report) { records_.replace(i, encode(report)); }

}  // namespace npu_doctor
