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
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
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
  const std::string& error() const { return error_; }

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

  ByteStream& in_;
  std::size_t chunk_size_;
  bool read_ahead_;
  Buffer buffers_[2];
  int current_ = -1;  // the buffer whose chunk the caller holds
  bool finished_ = false;
  std::string error_;

  std::mutex mutex_;
  std::condition_variable changed_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace npu_doctor
