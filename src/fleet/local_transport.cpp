// The transport of the plain npu-doctor binary: one node. It does not link MPI (loading
// libmpi would cost every `explain` milliseconds), so under mpirun it execs npu-doctor-mpi.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fleet/node_transport.hpp"

namespace npu_doctor {
namespace {

class LocalTransport final : public NodeTransport {
 public:
  int node() const override { return 0; }
  int nodes() const override { return 1; }
  std::string name() const override { return "local"; }
  std::vector<std::optional<std::string>> gather(std::string own, Clock::time_point) override {
    std::vector<std::optional<std::string>> all;
    all.emplace_back(std::move(own));
    return all;
  }
  int finish(bool, int exit_code) override { return exit_code; }
};

// The world size mpirun (Open MPI, PMIx, MPICH/Hydra, Slurm's PMI) announces, if any.
int launcher_world_size() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE"}) {
    if (const char* v = std::getenv(name); v != nullptr && *v != '\0') return std::atoi(v);
  }
  return 1;
}

}  // namespace

std::unique_ptr<NodeTransport> make_node_transport(std::string& error) {
  if (launcher_world_size() <= 1) return std::make_unique<LocalTransport>();
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  const auto mpi = (ec ? std::filesystem::path() : self.parent_path()) / "npu-doctor-mpi";
  if (!ec && std::filesystem::exists(mpi, ec)) {
    // The same arguments, from the kernel's copy (the CLI parser has consumed ours).
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    std::vector<std::string> args;
    for (std::string arg; std::getline(in, arg, '\0');) args.push_back(arg);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(mpi.c_str(), argv.data());  // returns only on failure
    error = "cannot start " + mpi.string() + " under mpirun: " + std::strerror(errno);
    return nullptr;
  }
  error = "started by mpirun with " + std::to_string(launcher_world_size()) +
          " ranks, but this npu-doctor was built without MPI (npu-doctor-mpi is not next to it); "
          "install libopenmpi-dev and rebuild, or write per-node summaries with --summary-out and "
          "combine them with `npu-doctor merge`";
  return nullptr;
}

}  // namespace npu_doctor
