// What `atc` reads besides the knowledge-base scan (src/compile): console logs
// with the ATC command line ("\"-continued), check_result.json, op_not_support.log, read
// through the real file reader; and the line parsers (shell words, operator names and
// types, fusion passes) on every line. The first byte picks the file name.
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>

#include "compile/atc_command.hpp"
#include "compile/atc_operators.hpp"
#include "compile/atc_outputs.hpp"
#include "fuzz_support.hpp"
#include "npu_doctor/text.hpp"

namespace {

const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    const char* base = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    std::filesystem::path d = std::filesystem::path(base) / ("npu-doctor-fuzz-atc-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace npu_doctor;
  using namespace npu_doctor::atc_detail;
  if (size == 0) return 0;
  static const char* const kNames[] = {"console.log", "check_result.json", "op_not_support.log", "atc_check.json"};
  const std::string_view text = fuzz::as_text(data + 1, size - 1);
  const std::filesystem::path file = scratch_dir() / kNames[data[0] % 4];
  {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return 0;
    const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    if (!written) return 0;
  }
  const AtcFiles files = read_atc_files({file.string()});
  if (files.command) {
    (void)format_atc_command(*files.command, {{"--log", "debug"}}, {"--mode"});
    (void)files.command->find("--model");
  }
  std::filesystem::remove(file);

  std::vector<AtcOperator> ops;
  for (std::string_view line : split(text, '\n')) {
    for (const std::string& w : shell_words(line)) (void)shell_quote(w);
    add_operator(ops, operator_from_text(line));
    add_operator(ops, operator_from_report_line(line));
    (void)fusion_pass_from_text(line);
  }
  AtcOperator op;
  split_optype(text.substr(0, 256), op);
  return 0;
}
