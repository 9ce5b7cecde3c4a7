#include "support/test_support.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace npu_doctor::testing {

AlignedCopy::AlignedCopy(std::string_view image) : storage(std::make_unique<uint64_t[]>(image.size() / 8 + 1)) {
  std::memcpy(storage.get(), image.data(), image.size());
  bytes = std::string_view(data(), image.size());
}

TempDir::TempDir() {
  std::random_device rd;
  path_ = std::filesystem::temp_directory_path() / ("npu-doctor-test-" + std::to_string(rd()) + std::to_string(getpid()));
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::permissions(path_, std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
  std::filesystem::remove_all(path_, ec);
}

std::filesystem::path TempDir::write(const std::string& relative, const std::string& content) const {
  const auto p = path_ / relative;
  std::filesystem::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary);
  out << content;
  return p;
}

ReadOnlyMapping::ReadOnlyMapping(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size > 0) {
    void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (p != MAP_FAILED) {
      data_ = static_cast<const char*>(p);
      size_ = static_cast<std::size_t>(st.st_size);
    }
  }
  ::close(fd);
}

ReadOnlyMapping::~ReadOnlyMapping() {
  if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
}

long StringStream::read(char* buf, std::size_t n) {
  const std::size_t k = std::min({n, chunk_, data_.size() - pos_});
  std::memcpy(buf, data_.data() + pos_, k);
  pos_ += k;
  return static_cast<long>(k);
}

KnowledgeBase kb_from_yaml(const std::vector<std::string>& files, std::vector<KbProblem>& problems) {
  TempDir dir;
  KbLoadOptions opts;
  opts.embedded = false;
  for (std::size_t i = 0; i < files.size(); ++i) {
    opts.user_paths.push_back(dir.write("f" + std::to_string(i) + ".yaml", files[i]).string());
  }
  return load_knowledge_base(opts, problems);
}

const KnowledgeBase& builtin_kb() {
  static const KnowledgeBase kb = [] {
    std::vector<KbProblem> problems;
    KbLoadOptions opts;
    return load_knowledge_base(opts, problems);
  }();
  return kb;
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string fixtures_dir() { return NPU_DOCTOR_FIXTURES; }

std::vector<std::filesystem::path> fixture_logs() {
  std::vector<std::filesystem::path> logs;
  const std::filesystem::path fixtures = NPU_DOCTOR_FIXTURES;
  for (const auto& dir : {fixtures / "logs", fixtures / "realworld-dev", fixtures / "realworld-blind"}) {
    if (!std::filesystem::exists(dir)) continue;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
      if (e.is_regular_file() && e.path().extension() == ".log") logs.push_back(e.path());
    }
  }
  std::sort(logs.begin(), logs.end());
  return logs;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

std::string area_fixture(const std::string& area, const std::string& rel) {
  return fixtures_dir() + "/../" + area + "/fixtures/" + rel;
}

namespace {
std::string drain(int fd) {
  std::string s;
  char buf[65536];
  for (ssize_t r; (r = ::read(fd, buf, sizeof buf)) > 0;) s.append(buf, static_cast<std::size_t>(r));
  return s;
}
}  // namespace

RunResult run_npu_doctor(const std::vector<std::string>& args, const std::string& stdin_data,
                         const std::vector<std::string>& env) {
  return run_program(NPU_DOCTOR_BINARY, args, stdin_data, env);
}

RunResult run_program(const std::string& binary, const std::vector<std::string>& args, const std::string& stdin_data,
                      const std::vector<std::string>& env) {
  int in[2], out[2], err[2];
  if (pipe(in) != 0 || pipe(out) != 0 || pipe(err) != 0) throw std::runtime_error("pipe");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) posix_spawn_file_actions_addclose(&fa, fd);
  std::vector<std::string> argv_s = {binary};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_s;
  for (char** e = environ; *e != nullptr; ++e) {
    // The caller's language and terminal width would change what reports say and where
    // they wrap: the binary sees neither unless a test passes them.
    if (std::strncmp(*e, "NPU_DOCTOR_KB_PATH=", 19) != 0 && std::strncmp(*e, "LANG=", 5) != 0 &&
        std::strncmp(*e, "LC_ALL=", 7) != 0 && std::strncmp(*e, "COLUMNS=", 8) != 0) {
      env_s.emplace_back(*e);
    }
  }
  env_s.insert(env_s.end(), env.begin(), env.end());
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  close(in[0]);
  close(out[1]);
  close(err[1]);
  if (rc != 0) throw std::runtime_error("cannot start " + std::string(argv[0]) + ": " + std::strerror(rc));
  std::thread writer([&] {
    std::size_t off = 0;
    while (off < stdin_data.size()) {
      const ssize_t w = ::write(in[1], stdin_data.data() + off, stdin_data.size() - off);
      if (w <= 0) break;
      off += static_cast<std::size_t>(w);
    }
    close(in[1]);
  });
  RunResult r;
  std::thread err_reader([&] { r.err = drain(err[0]); });
  r.out = drain(out[0]);
  err_reader.join();
  writer.join();
  close(out[0]);
  close(err[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

}  // namespace npu_doctor::testing

namespace npu_doctor::testing {

std::string npu_doctor_binary() { return NPU_DOCTOR_BINARY; }

std::string noisy_log_with_errors(unsigned seed, int lines) {
  std::mt19937 rng(seed);
  const char* errors[] = {
      "[ERROR] RUNTIME(31207,python):2025-03-02-10:55:12.313.101 [device_error_proc.cc:1283]31207 ProcessStarsCoreErrorInfo: there is an exception of aivec error, core id is 43",
      "EI0002: [PID: 1] 2025-03-02-10:56:01.1 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [3].",
      "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 29.50 GiB total capacity; 27.10 GiB already allocated; 27.10 GiB current active; 1.02 GiB free; 28.00 GiB reserved in total by PyTorch)",
      "[ERROR] ASCENDCL(31207,python):2025-03-02-10:55:12.400.000 [stream.cpp:1]31207 ACL stream synchronize failed, error code:507035",
  };
  std::string out = std::string(errors[0]) + "\n";
  for (int i = 0; i < lines; ++i) {
    out += "[INFO] RUNTIME(31207,python):2025-03-02-10:55:" + std::to_string(10 + i % 50) +
           ".000.000 [stream.cc:1140]31207 aclrtSynchronizeStream stream=" + std::to_string(i % 7) + " ok, cost 7952 us\n";
    if (rng() % 700 == 0) {
      for (int k = static_cast<int>(rng() % 3); k >= 0; --k) out += std::string(errors[rng() % 4]) + (rng() % 5 == 0 ? "\r\n" : "\n");
    }
  }
  out += errors[3];  // no final newline
  return out;
}

}  // namespace npu_doctor::testing
