#include "bundle/staged_member.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace npu_doctor::bundle {

StagedMember::StagedMember(const Redactor* redactor, std::string path)
    : path_(std::move(path)), buffer_(to_file_), stream_(&buffer_) {
  auto raw = [this](std::string_view s) { file_.write(s.data(), static_cast<std::streamsize>(s.size())); };
  if (redactor != nullptr) {
    redactor_.emplace(*redactor, raw);
    to_file_ = [this](std::string_view s) { redactor_->write(s); };
  } else {
    to_file_ = raw;
  }
  const mode_t old = ::umask(077);
  errno = 0;
  file_.open(path_, std::ios::binary | std::ios::trunc);
  open_errno_ = file_ ? 0 : errno;
  ::umask(old);
}

int StagedMember::Buffer::sync() {
  if (pptr() > pbase()) out_(std::string_view(pbase(), static_cast<std::size_t>(pptr() - pbase())));
  setp(buf_, buf_ + sizeof buf_);
  return 0;
}

StagedMember::Buffer::int_type StagedMember::Buffer::overflow(int_type c) {
  sync();
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

std::streamsize StagedMember::Buffer::xsputn(const char* s, std::streamsize n) {
  if (n <= epptr() - pptr()) {
    std::memcpy(pptr(), s, static_cast<std::size_t>(n));
    pbump(static_cast<int>(n));
    return n;
  }
  sync();
  out_(std::string_view(s, static_cast<std::size_t>(n)));
  return n;
}

bool StagedMember::close(std::string& error) {
  buffer_.sync();
  if (redactor_) redactor_->finish();
  if (!file_.is_open()) {
    error = "cannot create " + path_ + ": " + std::strerror(open_errno_ ? open_errno_ : EIO);
    return false;
  }
  errno = 0;
  file_.close();
  if (!file_) {
    error = "cannot write " + path_ + ": " + std::strerror(errno ? errno : EIO);
    return false;
  }
  return true;
}

}  // namespace npu_doctor::bundle
