// npu-doctor-kbc: the knowledge-base compiler, run by the build. Loads kb/*.yaml as
// shipped files, runs the full lint (every sample recognised, every namespace reachable,
// the pattern engine sound) and writes the snapshot that is embedded into npu-doctor.
// A broken knowledge base therefore fails the build, with file:line messages.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

#include "kb_snapshot.hpp"
#include "npu_doctor/kb_lint.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: npu-doctor-kbc OUTPUT FILE.yaml...\n";
    return 2;
  }
  npu_doctor::KbLoadOptions opts;
  opts.embedded = false;
  for (int i = 2; i < argc; ++i) opts.builtin_paths.emplace_back(argv[i]);
  std::vector<npu_doctor::KbProblem> problems;
  const auto kb = npu_doctor::load_knowledge_base(opts, problems);
  auto lint = npu_doctor::lint_knowledge_base(kb);
  problems.insert(problems.end(), lint.begin(), lint.end());
  int errors = 0;
  for (const auto& p : problems) {
    std::cerr << p.file << ":" << p.line << ": " << (p.is_error ? "error" : "warning") << ": " << p.message << "\n";
    errors += p.is_error ? 1 : 0;
  }
  if (errors > 0) {
    std::cerr << "npu-doctor-kbc: " << errors << " error(s) in the knowledge base\n";
    return 1;
  }
  const std::string out = argv[1];
  const std::string tmp = out + ".tmp";
  {
    errno = 0;
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << npu_doctor::write_kb_snapshot(kb);
    if (!f) {
      std::cerr << "npu-doctor-kbc: cannot write " << tmp << ": " << std::strerror(errno ? errno : EIO) << "\n";
      return 1;
    }
  }
  if (std::rename(tmp.c_str(), out.c_str()) != 0) {
    std::cerr << "npu-doctor-kbc: cannot write " << out << ": " << std::strerror(errno) << "\n";
    return 1;
  }
  return 0;
}
