#pragma once
// Reads a stream in chunks for the scanner, one chunk ahead on a second thread once the
// input turns out to be larger than one chunk: copying the next chunk out of the page
// cache (or decompressing it) then overlaps scanning the current one, which on a large log
// hides a quarter of the run time. The thread starts when the second chunk is asked for,
// so small inputs, and callers that stop after the first chunk, never start it.
//
// Each chunk has room in front of its data for the caller's carry (the unfinished last
// line of the previous chunk), so a chunk plus its carry is one contiguous view without
// copying the chunk. Memory: two buffers of twice the chunk size, except that the first
// chunk starts in a small buffer and grows only when the input turns out to be larger:
// a tree of 100,000 small plogs must not map and unmap megabytes per file.
//
// A stream that lies mapped (ByteStream::take_mapped, a large plain file) is not copied:
// each chunk is a view of the mapping, its carry being the bytes just before it. The pages
// of the next chunk are made present and those behind the carry given back, each chunk in
// turn; past the mapping (a file that grew since) the stream is read as any other.
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "input_source.hpp"

namespace npu_doctor {

class ChunkReader {
 public:
  struct Chunk {
    std::string_view view;  // the carry passed to next(), then up to chunk_size new bytes
    bool eof = false;       // nothing follows (end of stream or a read error)
  };

  ChunkReader(ByteStream& in, std::size_t chunk_size, bool read_ahead);
  ~ChunkReader();
  ChunkReader(const ChunkReader&) = delete;
  ChunkReader& operator=(const ChunkReader&) = delete;

  // The next chunk, preceded by `carry` (at most chunk_size bytes; it may point into the
  // chunk returned before, which stays valid until this call copies it).
  Chunk next(std::string_view carry);
  // The read error that ended the stream, if any.
  std::string error() const;

 private:
  struct Buffer {
    std::unique_ptr<char[]> bytes;  // `room` bytes for a carry, then `capacity` for the data
    std::size_t room = 0;
    std::size_t capacity = 0;
    std::size_t size = 0;           // data bytes
    bool eof = false;
    std::string error;
    enum class State { free, filling, ready, held } state = State::free;
  };

  // Reads until chunk_size bytes are in, the stream ends or fails. Only the first chunk
  // (which has no carry) may start small; every other fill has full room for a carry.
  void fill(Buffer& b, bool first_chunk);
  bool allocate(Buffer& b, std::size_t room, std::size_t capacity);  // false: out of memory
  void read_ahead_loop();
  // The next view of the mapping, or nullopt when it is used up and reading takes over.
  std::optional<Chunk> next_mapped(std::string_view carry);

  ByteStream& in_;
  std::size_t chunk_size_;
  bool read_ahead_;
  Buffer buffers_[2];
  int current_ = -1;  // the buffer whose chunk the caller holds
  bool finished_ = false;
  std::string error_;

  bool asked_mapped_ = false;
  std::optional<MappedSpan> span_;
  std::shared_ptr<MappedFile> mapped_file_;  // kept after the span is used up: did it shrink?
  uint64_t mapped_pos_ = 0;      // bytes of the span handed out
  uint64_t released_ = 0;        // bytes of the span whose pages were given back
  std::string joined_;           // a carry that is not the span's preceding bytes, joined by copy

  std::mutex mutex_;
  std::condition_variable changed_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace npu_doctor
