#pragma once
// How node summaries reach node 0: over MPI when npu-doctor-mpi runs under mpirun
// (mpi_transport.cpp), else a single node (local_transport.cpp). The cluster command
// is written against this, not against MPI.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace npu_doctor {

class NodeTransport {
 public:
  using Clock = std::chrono::steady_clock;
  virtual ~NodeTransport() = default;
  virtual int node() const = 0;   // this process's rank, 0 = the one that reports
  virtual int nodes() const = 0;  // processes in the job
  virtual std::string name() const = 0;  // "mpi" or "local", for messages
  // Every node calls this once with its summary. Node 0 gets one entry per node (its own
  // first), nullopt for a node that sent nothing by `deadline`; the others get nothing.
  virtual std::vector<std::optional<std::string>> gather(std::string own, Clock::time_point deadline) = 0;
  // Leaves the job: a clean shutdown when every node reported, else without waiting for
  // the nodes that did not (they may be stuck). Returns the exit code to use.
  virtual int finish(bool everyone_reported, int exit_code) = 0;
};

// The transport of this build. Without MPI, when the environment shows the process was
// started by mpirun with more than one rank, it hands over to npu-doctor-mpi next to this
// executable (exec, same arguments); nullptr with `error` when that is not possible.
std::unique_ptr<NodeTransport> make_node_transport(std::string& error);

}  // namespace npu_doctor
