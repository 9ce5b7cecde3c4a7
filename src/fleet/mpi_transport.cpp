// The transport of npu-doctor-mpi: node summaries travel as JSON text to rank 0 with
// point-to-point messages. Rank 0 polls, so a rank that never sends cannot block it
// beyond the deadline.
#include <mpi.h>

#include <cstdio>
#include <iostream>
#include <thread>

#include "fleet/node_transport.hpp"

namespace npu_doctor {
namespace {

constexpr int kSummaryTag = 7301;

class MpiTransport final : public NodeTransport {
 public:
  MpiTransport() {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  int node() const override { return rank_; }
  int nodes() const override { return size_; }
  std::string name() const override { return "mpi"; }

  std::vector<std::optional<std::string>> gather(std::string own, Clock::time_point deadline) override {
    std::vector<std::optional<std::string>> all;
    if (rank_ != 0) {
      MPI_Send(own.data(), static_cast<int>(own.size()), MPI_CHAR, 0, kSummaryTag, MPI_COMM_WORLD);
      return all;
    }
    all.resize(static_cast<std::size_t>(size_));
    all[0] = std::move(own);
    int missing = size_ - 1;
    while (missing > 0 && Clock::now() < deadline) {
      int arrived = 0;
      MPI_Status status;
      MPI_Iprobe(MPI_ANY_SOURCE, kSummaryTag, MPI_COMM_WORLD, &arrived, &status);
      if (!arrived) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        continue;
      }
      int count = 0;
      MPI_Get_count(&status, MPI_CHAR, &count);
      std::string text(static_cast<std::size_t>(count), '\0');
      MPI_Recv(text.data(), count, MPI_CHAR, status.MPI_SOURCE, kSummaryTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      auto& slot = all[static_cast<std::size_t>(status.MPI_SOURCE)];
      if (!slot) --missing;
      slot = std::move(text);
    }
    return all;
  }

  int finish(bool everyone_reported, int exit_code) override {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    // A rank that never reported may be stuck, and MPI_Finalize would wait for it.
    if (rank_ == 0 && !everyone_reported) MPI_Abort(MPI_COMM_WORLD, exit_code);
    MPI_Finalize();
    return exit_code;
  }

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace

std::unique_ptr<NodeTransport> make_node_transport(std::string&) { return std::make_unique<MpiTransport>(); }

}  // namespace npu_doctor
