// The one libarchive helper our tar writer needs, defined here so that the static link
// does not take the file libarchive keeps it in (archive_write_set_format.o): that file's
// table of every writer pulls in the XAR writer, and with it libxml2, ICU and a shared
// libstdc++, three libraries `explain` would load at every start (3.5 ms of its 20 ms
// budget, bench/README.md "Start-up"). Linked only into the npu-doctor binary, and only
// when libarchive is linked statically (src/CMakeLists.txt); a test checks the binary
// needs none of those libraries.
//
// It does what libarchive's own does, through the public API: the pax writer calls it for
// an entry type pax cannot hold, and the error it sets is what archive_error_string()
// then reports.
#include <archive.h>
#include <archive_entry.h>

#include <cerrno>

extern "C" void __archive_write_entry_filetype_unsupported(struct archive* a, struct archive_entry* entry,
                                                           const char* format);

namespace {
// libarchive's "file format" error number where the system has no EFTYPE (Linux).
constexpr int kFileFormatError = EILSEQ;
}  // namespace

extern "C" void __archive_write_entry_filetype_unsupported(struct archive* a, struct archive_entry* entry,
                                                           const char* format) {
  const char* kind = nullptr;
  switch (archive_entry_filetype(entry)) {
    case AE_IFDIR: kind = "directories"; break;
    case AE_IFLNK: kind = "symbolic links"; break;
    case AE_IFCHR: kind = "character devices"; break;
    case AE_IFBLK: kind = "block devices"; break;
    case AE_IFIFO: kind = "named pipes"; break;
    case AE_IFSOCK: kind = "sockets"; break;
    default: break;
  }
  const char* path = archive_entry_pathname(entry);
  if (kind != nullptr) {
    archive_set_error(a, kFileFormatError, "%s: %s format cannot archive %s", path, format, kind);
  } else {
    archive_set_error(a, kFileFormatError, "%s: %s format cannot archive files with mode 0%lo", path, format,
                      static_cast<unsigned long>(archive_entry_mode(entry)));
  }
}
