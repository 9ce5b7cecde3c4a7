#pragma once
// An array of slots, each filled at most once, on first use, with an object it then owns:
// whichever thread gets there first keeps its object (another's is dropped), so readers need
// no lock. The slots are calloc'd, and a fresh large calloc is pages the kernel has not
// handed out yet: a slot never filled costs no page fault. For tens of thousands of
// catalogue entries and patterns, a value-initialised array of once_flags and pointers was a
// tenth of `diagnose`'s start-up.
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace npu_doctor {

template <typename T>
class OnceSlots {
 public:
  OnceSlots() = default;
  explicit OnceSlots(std::size_t count)
      : count_(count),
        slots_(count == 0 ? nullptr : static_cast<std::uintptr_t*>(std::calloc(count, sizeof(std::uintptr_t)))),
        owned_(std::make_unique<Owned>()) {
    if (count != 0 && slots_ == nullptr) throw std::bad_alloc();
  }
  OnceSlots(const OnceSlots&) = delete;
  OnceSlots& operator=(const OnceSlots&) = delete;
  OnceSlots(OnceSlots&& other) noexcept
      : count_(std::exchange(other.count_, 0)),
        slots_(std::exchange(other.slots_, nullptr)),
        owned_(std::move(other.owned_)) {}
  OnceSlots& operator=(OnceSlots&& other) noexcept {
    if (this != &other) {
      release_all();
      count_ = std::exchange(other.count_, 0);
      slots_ = std::exchange(other.slots_, nullptr);
      owned_ = std::move(other.owned_);
    }
    return *this;
  }
  ~OnceSlots() { release_all(); }

  std::size_t size() const { return count_; }

  // Calls fn(T&) for every object made so far (the owner updating them in place).
  template <typename Fn>
  void for_each_made(Fn&& fn) {
    if (!owned_) return;
    std::lock_guard lock(owned_->mutex);
    for (auto& object : owned_->objects) fn(*object);
  }

  // Frees every object made and empties the slots, so that each is made again when next
  // asked for. Only for an owner that is alone with the slots between two uses: no thread
  // in get(), no pointer get() returned used afterwards (`kb lint` visits every catalogue
  // entry and pattern, and would otherwise keep them all).
  void forget_all() const {
    if (!owned_) return;
    std::lock_guard lock(owned_->mutex);
    if (owned_->objects.empty()) return;
    owned_->objects.clear();
    std::memset(slots_, 0, count_ * sizeof(std::uintptr_t));
  }

  // The object of slot `i`, made by `make()` (a std::unique_ptr<T>, null for "none") the
  // first time it is asked for; nullptr when make() gave none. `i` < size().
  template <typename Make>
  const T* get(std::size_t i, Make&& make) const {
    std::atomic_ref<std::uintptr_t> slot(slots_[i]);
    std::uintptr_t v = slot.load(std::memory_order_acquire);
    if (v == kEmpty) {
      std::unique_ptr<T> made = std::forward<Make>(make)();
      const std::uintptr_t mine = made ? reinterpret_cast<std::uintptr_t>(made.get()) : kNone;
      if (slot.compare_exchange_strong(v, mine, std::memory_order_acq_rel, std::memory_order_acquire)) {
        std::lock_guard lock(owned_->mutex);
        owned_->objects.push_back(std::move(made));  // the slots own it now
        v = mine;
      }
    }
    return v == kNone ? nullptr : reinterpret_cast<const T*>(v);
  }

 private:
  static constexpr std::uintptr_t kEmpty = 0;
  static constexpr std::uintptr_t kNone = 1;  // make() gave nothing: not asked again

  // The objects made, listed apart so that freeing them does not read every slot.
  struct Owned {
    std::mutex mutex;
    std::vector<std::unique_ptr<T>> objects;
  };

  void release_all() {
    owned_.reset();
    std::free(slots_);
    slots_ = nullptr;
    count_ = 0;
  }

  std::size_t count_ = 0;
  std::uintptr_t* slots_ = nullptr;
  std::unique_ptr<Owned> owned_;
};

}  // namespace npu_doctor
