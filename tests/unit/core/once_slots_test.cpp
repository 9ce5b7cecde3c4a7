// OnceSlots: each slot is made once however many threads ask at the same moment, every
// caller sees the object kept, a slot whose maker gave nothing is not made again, and the
// objects are freed with the slots or when the owner forgets them all.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "npu_doctor/once_slots.hpp"

namespace npu_doctor {
namespace {

struct Counted {
  explicit Counted(int v, std::atomic<int>& live) : value(v), live_(live) { ++live_; }
  ~Counted() { --live_; }
  int value;
  std::atomic<int>& live_;
};

TEST(OnceSlots, ThreadsRacingForOneSlotAllSeeTheOneObjectKept) {
  std::atomic<int> live{0};
  std::atomic<int> made{0};
  {
    OnceSlots<Counted> slots(100000);
    std::vector<const Counted*> seen(8, nullptr);
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
      threads.emplace_back([&, t] {
        while (!go.load()) std::this_thread::yield();
        seen[static_cast<std::size_t>(t)] = slots.get(77777, [&] {
          ++made;
          return std::make_unique<Counted>(t, live);
        });
      });
    }
    go = true;
    for (auto& th : threads) th.join();
    for (const Counted* p : seen) {
      ASSERT_NE(p, nullptr);
      EXPECT_EQ(p, seen.front()) << "two callers got different objects for one slot";
    }
    EXPECT_GE(made.load(), 1);
    EXPECT_EQ(live.load(), 1) << "the objects of the threads that lost the race were not dropped";
    // Asked again: the kept object, the maker not called.
    EXPECT_EQ(slots.get(77777, [&] { return std::make_unique<Counted>(-1, live); }), seen.front());
    EXPECT_EQ(live.load(), 1);
  }
  EXPECT_EQ(live.load(), 0) << "the slots did not free their objects";
}

TEST(OnceSlots, AMakerThatGivesNothingIsNotAskedAgain) {
  std::atomic<int> live{0};
  OnceSlots<Counted> slots(3);
  int calls = 0;
  auto none = [&]() -> std::unique_ptr<Counted> {
    ++calls;
    return nullptr;
  };
  EXPECT_EQ(slots.get(1, none), nullptr);
  EXPECT_EQ(slots.get(1, none), nullptr);
  EXPECT_EQ(calls, 1);
  // Other slots are independent.
  const Counted* two = slots.get(2, [&] { return std::make_unique<Counted>(2, live); });
  ASSERT_NE(two, nullptr);
  EXPECT_EQ(two->value, 2);
  EXPECT_EQ(slots.get(0, [&] { return std::make_unique<Counted>(0, live); })->value, 0);
}

TEST(OnceSlots, EveryObjectMadeCanBeUpdatedInPlaceAndMovesWithTheSlots) {
  std::atomic<int> live{0};
  OnceSlots<Counted> slots(10);
  slots.get(3, [&] { return std::make_unique<Counted>(3, live); });
  slots.get(7, [&] { return std::make_unique<Counted>(7, live); });
  int sum = 0;
  slots.for_each_made([&](Counted& c) {
    sum += c.value;
    c.value *= 10;
  });
  EXPECT_EQ(sum, 10);
  OnceSlots<Counted> moved = std::move(slots);
  EXPECT_EQ(moved.size(), 10u);
  EXPECT_EQ(moved.get(7, [&] { return std::make_unique<Counted>(-1, live); })->value, 70);
  EXPECT_EQ(live.load(), 2);
  moved = OnceSlots<Counted>(1);
  EXPECT_EQ(live.load(), 0) << "assigning over the slots did not free their objects";
}

// kb lint lets go of what it made every few thousand entries: every object is freed, and each
// slot (one made, one whose maker gave nothing) is made afresh when next asked for.
TEST(OnceSlots, ForgettingFreesEveryObjectAndEachSlotIsMadeAgainWhenAsked) {
  std::atomic<int> live{0};
  OnceSlots<Counted> slots(4);
  int calls = 0;
  slots.get(0, [&] { return std::make_unique<Counted>(1, live); });
  slots.get(2, [&]() -> std::unique_ptr<Counted> {
    ++calls;
    return nullptr;
  });
  ASSERT_EQ(live.load(), 1);
  slots.forget_all();
  EXPECT_EQ(live.load(), 0);
  EXPECT_EQ(slots.get(0, [&] { return std::make_unique<Counted>(2, live); })->value, 2) << "made again, by the new maker";
  EXPECT_NE(slots.get(2, [&] {
    ++calls;
    return std::make_unique<Counted>(3, live);
  }), nullptr);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(live.load(), 2);
  OnceSlots<Counted>().forget_all();  // nothing made, no slots: nothing to do
}

}  // namespace
}  // namespace npu_doctor
