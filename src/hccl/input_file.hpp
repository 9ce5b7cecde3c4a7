#pragma once
// Reading the files users hand to `hccl`, `net` and `isolate`: whole regular files (or
// stdin for "-") up to a size cap, with the reason in plain words when that fails, and
// directories expanded to the files directly inside them.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace npu_doctor::hccl {

struct InputText {
  std::string path;   // as given ("-" for stdin)
  std::string text;   // the bytes read
  std::string error;  // why nothing was read: "no such file", "is a directory" ...
  bool ok() const { return error.empty(); }
};

// Reads `path` ("-" = stdin) when it is at most `max_bytes` long.
InputText read_input(const std::string& path, std::size_t max_bytes);

// The same checks, but streamed: `on_line` gets each line without its '\n' (a line longer
// than `max_line` is cut to max_line + 1 bytes, so the reader can tell it was long), and
// nothing holds the whole file. False with the reason in `error` when the input cannot be
// read (lines already handed over stay handed over).
bool read_input_lines(const std::string& path, std::size_t max_bytes, std::size_t max_line,
                      const std::function<void(std::string_view)>& on_line, std::string& error);

// Paths with each directory replaced by the regular files directly inside it (sorted,
// hidden files skipped, not recursive). A directory without files becomes an error in
// `errors` ("DIR: no files in this directory"); other paths pass through unchanged
// (read_input says what is wrong with them).
std::vector<std::string> expand_inputs(const std::vector<std::string>& paths, std::vector<std::string>& errors);

// "12 MiB", "512 KiB", "80 B": for messages about sizes.
std::string human_bytes(std::size_t bytes);

}  // namespace npu_doctor::hccl
