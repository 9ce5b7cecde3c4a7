#include "chunk_reader.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <system_error>

namespace npu_doctor {

ChunkReader::ChunkReader(ByteStream& in, std::size_t chunk_size, bool read_ahead)
    : in_(in), chunk_size_(std::max<std::size_t>(chunk_size, 1)), read_ahead_(read_ahead) {}

ChunkReader::~ChunkReader() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

namespace {
// Where the first chunk starts: most plogs are smaller, and larger inputs pay one copy of it.
constexpr std::size_t kFirstChunkStart = 64u << 10;
}  // namespace

bool ChunkReader::allocate(Buffer& b, std::size_t room, std::size_t capacity) {
  try {
    // Uninitialised: no page is touched before it is read into, so a small input never
    // pays for the whole buffer.
    auto bytes = std::make_unique_for_overwrite<char[]>(room + capacity);
    if (b.size > 0) std::memcpy(bytes.get() + room, b.bytes.get() + b.room, b.size);
    b.bytes = std::move(bytes);
    b.room = room;
    b.capacity = capacity;
    return true;
  } catch (const std::bad_alloc&) {
    b.error = "out of memory";
    b.eof = true;
    return false;
  }
}

void ChunkReader::fill(Buffer& b, bool first_chunk) {
  b.size = 0;
  b.eof = false;
  b.error.clear();
  if (first_chunk && !b.bytes) {
    if (!allocate(b, 0, std::min(kFirstChunkStart, chunk_size_))) return;
  } else if (b.room < chunk_size_ || b.capacity < chunk_size_) {
    if (!allocate(b, chunk_size_, chunk_size_)) return;
  }
  while (b.size < chunk_size_) {
    // The first chunk grows into the full layout, so its buffer is reused as it is later.
    if (b.size == b.capacity && !allocate(b, chunk_size_, chunk_size_)) return;
    const long r = in_.read(b.bytes.get() + b.room + b.size, b.capacity - b.size);
    if (r < 0) {
      b.error = in_.error().empty() ? "read error" : in_.error();
      b.eof = true;
      return;
    }
    if (r == 0) {
      b.eof = true;
      return;
    }
    b.size += static_cast<std::size_t>(r);
  }
}

void ChunkReader::read_ahead_loop() {
  int i = 1 - current_;
  for (;;) {
    Buffer& b = buffers_[i];
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return stop_ || b.state == Buffer::State::free; });
      if (stop_) return;
      b.state = Buffer::State::filling;
    }
    fill(b, false);
    {
      std::lock_guard lock(mutex_);
      b.state = Buffer::State::ready;
    }
    changed_.notify_all();
    if (b.eof) return;
    i = 1 - i;
  }
}

ChunkReader::Chunk ChunkReader::next(std::string_view carry) {
  if (finished_) return {carry, true};
  // Callers never carry more, and the first chunk has no carry: never write before the buffer.
  carry = current_ < 0 ? std::string_view() : carry.substr(0, chunk_size_);
  const int target = current_ < 0 ? 0 : 1 - current_;
  Buffer& b = buffers_[target];
  if (thread_.joinable()) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return b.state == Buffer::State::ready; });
  } else {
    fill(b, current_ < 0);
  }
  char* data = b.bytes ? b.bytes.get() + b.room : nullptr;
  if (data != nullptr && !carry.empty()) std::memcpy(data - carry.size(), carry.data(), carry.size());
  if (thread_.joinable()) {
    {
      std::lock_guard lock(mutex_);
      buffers_[current_].state = Buffer::State::free;  // its carry is copied: the reader may refill it
      b.state = Buffer::State::held;
    }
    changed_.notify_all();
  }
  const bool first_chunk = current_ < 0;
  current_ = target;
  if (b.eof) {
    finished_ = true;
    error_ = b.error;
  } else if (read_ahead_ && !thread_.joinable() && !first_chunk) {
    // Started with the second chunk, not the first: a caller that stops after the first
    // (binary input) must not wait in the destructor for a read from an idle pipe.
    b.state = Buffer::State::held;
    buffers_[1 - target].state = Buffer::State::free;
    try {
      thread_ = std::thread([this] { read_ahead_loop(); });
    } catch (const std::system_error&) {
      read_ahead_ = false;  // no thread to be had: read in turn with scanning
    }
  }
  if (data == nullptr) return {std::string_view(), true};
  return {std::string_view(data - carry.size(), carry.size() + b.size), b.eof};
}

}  // namespace npu_doctor
