#include "sample_set.hpp"

#include <algorithm>

namespace npu_doctor::mem {
namespace {

void raise(std::optional<SamplePoint>& slot, uint64_t bytes, const MemSample& s) {
  if (!slot || bytes > slot->bytes) slot = SamplePoint{bytes, s.step, s.input, s.line};
}

}  // namespace

SampleSet::SampleSet(std::size_t max_kept)
    : max_kept_(std::max(max_kept, kMinPerDevice)), per_device_(max_kept_) {}

void SampleSet::fit(DeviceSeries& d) const {
  if (d.samples.size() < per_device_) return;
  while (d.samples.size() >= per_device_) {
    std::size_t w = 0;
    for (std::size_t r = 0; r < d.samples.size(); r += 2) d.samples[w++] = d.samples[r];
    d.samples.resize(w);
    d.keep_every *= 2;
  }
  // The room a longer series had is given back when a new device lowers the cap.
  if (d.samples.capacity() > per_device_) d.samples.shrink_to_fit();
}

DeviceSeries& SampleSet::series(int device) {
  auto it = std::lower_bound(devices_.begin(), devices_.end(), device,
                             [](const DeviceSeries& d, int dev) { return d.device < dev; });
  const auto index = static_cast<std::size_t>(it - devices_.begin());
  if (it == devices_.end() || it->device != device) {
    DeviceSeries fresh;
    fresh.device = device;
    devices_.insert(it, std::move(fresh));
    arrivals_.insert(arrivals_.begin() + static_cast<std::ptrdiff_t>(index), 0);
    per_device_ = std::max(max_kept_ / devices_.size(), kMinPerDevice);
    for (auto& d : devices_) fit(d);
  }
  return devices_[index];
}

void SampleSet::add(const MemSample& s) {
  DeviceSeries& d = series(s.device);
  const auto index = static_cast<std::size_t>(&d - devices_.data());
  SeriesTotals& t = d.totals;
  if (t.count == 0) {
    t.first_step = t.last_step = s.step;
  } else {
    if (s.step < t.last_step) t.out_of_order = true;
    t.first_step = std::min(t.first_step, s.step);
    t.last_step = std::max(t.last_step, s.step);
  }
  ++t.count;
  const uint64_t high = std::max(s.allocated, s.max_allocated.value_or(0));
  if (t.count == 1 || high > t.peak.bytes) t.peak = SamplePoint{high, s.step, s.input, s.line};
  if (s.reserved) {
    raise(t.peak_reserved, *s.reserved, s);
    if (!s.max_allocated) t.gap_uses_max_allocated = false;
    const uint64_t used = std::max(s.allocated, s.max_allocated.value_or(0));
    raise(t.max_gap, *s.reserved > used ? *s.reserved - used : 0, s);
    raise(t.max_raw_gap, *s.reserved > s.allocated ? *s.reserved - s.allocated : 0, s);
  }
  if (s.capacity) t.capacity = std::max(t.capacity.value_or(0), *s.capacity);
  t.inference = t.inference || s.inference;

  // Keep every keep_every-th arrival; at the cap, drop every other kept sample.
  const uint64_t arrival = arrivals_[index]++;
  if (arrival % d.keep_every != 0) return;
  // Grown to the cap at most (doubling would overshoot a cap that is not a power of two).
  if (d.samples.size() == d.samples.capacity()) {
    d.samples.reserve(std::min(per_device_, std::max<std::size_t>(16, 2 * d.samples.size())));
  }
  d.samples.push_back(s);
  fit(d);
}

void SampleSet::finish() {
  for (auto& d : devices_) {
    // Stable: among equal steps the one read last ends up last and is kept.
    std::stable_sort(d.samples.begin(), d.samples.end(),
                     [](const MemSample& a, const MemSample& b) { return a.step < b.step; });
    std::vector<MemSample> unique;
    unique.reserve(d.samples.size());
    for (const auto& s : d.samples) {
      if (!unique.empty() && unique.back().step == s.step) {
        unique.back() = s;
        ++d.totals.duplicate_steps;
      } else {
        unique.push_back(s);
      }
    }
    d.samples = std::move(unique);
  }
}

uint64_t SampleSet::total_samples() const {
  uint64_t n = 0;
  for (const auto& d : devices_) n += d.totals.count;
  return n;
}

}  // namespace npu_doctor::mem
