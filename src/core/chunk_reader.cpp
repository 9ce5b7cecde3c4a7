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

std::string ChunkReader::error() const {
  if (mapped_file_ && mapped_file_->shrank()) return "the file shrank while it was read";
  return error_;
}

std::optional<ChunkReader::Chunk> ChunkReader::next_mapped(std::string_view carry) {
  const std::string_view bytes = span_->bytes();
  const MappedFile& file = *span_->file;
  if (file.shrank()) {  // past the file's new end the mapping reads zeros: stop here
    finished_ = true;
    span_.reset();
    return Chunk{carry, true};
  }
  if (mapped_pos_ >= bytes.size()) {
    span_.reset();
    return std::nullopt;
  }
  const std::size_t pos = static_cast<std::size_t>(mapped_pos_);
  const std::size_t n = std::min<std::size_t>(chunk_size_, bytes.size() - pos);
  // Whatever lies before the carry is done with: its pages go back (memory stays one chunk).
  const bool adjacent = carry.empty() || carry.data() + carry.size() == bytes.data() + pos;
  const std::size_t keep_from = adjacent ? pos - carry.size() : pos;
  if (keep_from > released_) {
    file.done_with(span_->begin + released_, keep_from - released_);
    released_ = keep_from;
  }
  // This chunk's pages present in one call; the next chunk's read from disk meanwhile, if
  // they are not in the page cache (a cold file). Populating one chunk ahead on a second
  // thread was tried: no gain measurable (bench/README.md, "Mapped input").
  file.populate(span_->begin + pos, n);
  mapped_pos_ = pos + n;
  file.will_need(span_->begin + mapped_pos_, chunk_size_);
  // The end of the mapping ends the stream, unless the file grew since it was mapped.
  const bool eof = mapped_pos_ == bytes.size() && !(span_->to_end_of_file && file.grew());
  if (eof) finished_ = true;
  if (adjacent) return Chunk{bytes.substr(keep_from, carry.size() + n), eof};
  joined_.assign(carry);
  joined_.append(bytes.substr(pos, n));
  return Chunk{joined_, eof};
}

ChunkReader::Chunk ChunkReader::next(std::string_view carry) {
  if (finished_) return {carry, true};
  if (!asked_mapped_) {
    asked_mapped_ = true;
    span_ = in_.take_mapped();
    if (span_) mapped_file_ = span_->file;
  }
  if (span_) {
    if (auto chunk = next_mapped(carry)) return *chunk;
    // The mapping is used up and the file grew: read the rest, one buffer after the other.
    read_ahead_ = false;
    current_ = 1;
  }
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
