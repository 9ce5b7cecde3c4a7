// ChunkReader: chunks with the caller's carry in front, read ahead on a second thread.
#include <gtest/gtest.h>

#include "chunk_reader.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

// Reassembles a stream the way the scanner consumes it (carry = the unfinished last line).
std::string reassemble(const std::string& data, std::size_t chunk, std::size_t read_size, bool read_ahead,
                       std::size_t* chunks = nullptr) {
  testing::StringStream in(data, read_size);
  ChunkReader reader(in, chunk, read_ahead);
  std::string out;
  std::string_view carry;
  for (std::size_t n = 1;; ++n) {
    const std::string carried(carry);  // `carry` points into the chunk next() may recycle
    const auto c = reader.next(carry);
    EXPECT_TRUE(c.view.starts_with(carried));
    std::size_t cut = c.view.size();
    if (!c.eof) {
      const auto nl = c.view.rfind('\n');
      if (nl != std::string_view::npos) cut = nl + 1;
    }
    out += c.view.substr(0, cut);
    carry = c.view.substr(cut);
    if (chunks) *chunks = n;
    if (c.eof) break;
  }
  EXPECT_TRUE(reader.error().empty());
  return out;
}

TEST(ChunkReader, EveryByteOnceInOrderWhateverTheSizes) {
  std::string data;
  for (int i = 0; i < 5000; ++i) data += "line " + std::to_string(i) + (i % 7 == 0 ? std::string(300, 'x') : "") + "\n";
  data += "no newline at the end";
  for (bool ahead : {false, true}) {
    for (std::size_t chunk : {1u, 16u, 64u, 4096u, 1u << 20}) {
      for (std::size_t read_size : {1u, 7u, 1u << 16}) {
        if (chunk == 1 && read_size != 1) continue;  // 1-byte chunks: slow enough once
        EXPECT_EQ(reassemble(data, chunk, read_size, ahead), data) << chunk << " " << read_size << " " << ahead;
      }
    }
  }
}

// The first chunk starts in a small buffer (64 KiB) and grows when the input is larger; the
// buffer it grew in is later reused, with room for a carry, for the third chunk.
TEST(ChunkReader, TheFirstChunkGrowsPastItsSmallStartAndItsBufferIsReused) {
  std::string line = std::string(99, 'y') + "\n";
  for (std::size_t size : {std::size_t{65535}, std::size_t{65536}, std::size_t{65537}, std::size_t{(5u << 20) / 2}}) {
    std::string data;
    while (data.size() < size) data += line;
    data.resize(size);
    for (bool ahead : {false, true}) {
      for (std::size_t read_size : {std::size_t{4093}, std::size_t{1} << 20}) {
        std::size_t chunks = 0;
        EXPECT_EQ(reassemble(data, 1u << 20, read_size, ahead, &chunks), data) << size << " " << read_size << " " << ahead;
        EXPECT_EQ(chunks, size / (1u << 20) + 1) << size;
      }
    }
  }
}

TEST(ChunkReader, SmallAndEmptyInputsTakeOneChunk) {
  std::size_t chunks = 0;
  EXPECT_EQ(reassemble("", 64, 64, true, &chunks), "");
  EXPECT_EQ(chunks, 1u);
  EXPECT_EQ(reassemble("a\nb\n", 64, 64, true, &chunks), "a\nb\n");
  EXPECT_EQ(chunks, 1u);
}

// A stream that fails after some bytes: the error ends the stream and is reported.
class FailsAfterHundredBytesStream final : public ByteStream {
 public:
  long read(char* buf, std::size_t n) override {
    if (sent_ >= 100) return -1;
    const std::size_t k = std::min<std::size_t>({n, 10, 100 - sent_});
    std::fill(buf, buf + k, 'z');
    sent_ += k;
    return static_cast<long>(k);
  }
  std::string error() const override { return "disk on fire"; }

 private:
  std::size_t sent_ = 0;
};

TEST(ChunkReader, AReadErrorEndsTheStreamWithItsMessage) {
  for (bool ahead : {false, true}) {
    FailsAfterHundredBytesStream in;
    ChunkReader reader(in, 32, ahead);
    std::size_t bytes = 0;
    for (;;) {
      const auto c = reader.next({});
      bytes += c.view.size();
      if (c.eof) break;
    }
    EXPECT_EQ(bytes, 100u);
    EXPECT_EQ(reader.error(), "disk on fire");
  }
}

}  // namespace
}  // namespace npu_doctor
