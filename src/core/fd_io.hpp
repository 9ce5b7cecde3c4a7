#pragma once
// Positioned reads and writes that go on past short transfers and EINTR: file parts cut for
// parallel scanning (file_parts.cpp) and the record spool's temporary file.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace npu_doctor {

// pread until n bytes, the end of the file or an error; the bytes read.
std::size_t read_at(int fd, char* buf, std::size_t n, uint64_t offset);
// pwrite all of `bytes` at `offset`; false on an error (errno says which).
bool write_at(int fd, std::string_view bytes, uint64_t offset);

}  // namespace npu_doctor
