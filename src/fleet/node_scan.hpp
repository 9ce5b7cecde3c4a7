#pragma once
// One node's part of a cluster diagnosis: expand its log paths, scan them, and package
// the result as a NodeSummary. Also the deadline every node's work runs under.
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "node_summary.hpp"

namespace npu_doctor {

// "{hostname}" -> host, "{rank}" -> the node's MPI rank, "{{" / "}}" -> braces.
std::string expand_node_placeholders(std::string_view pattern, const std::string& host, int node);

// The name this machine gives itself (gethostname), "localhost" when it has none.
std::string local_hostname();

// Scans `options.paths` (already expanded) on this node. A node none of whose inputs
// could be scanned is `failed`, with the inputs' notes as the reason.
NodeSummary scan_node(const Diagnoser& diagnoser, const DiagnoseOptions& options, const std::string& host, int node,
                      const std::string& kb_version);

// Runs `work` on its own thread and returns its result, or nullopt when it is not done
// within `timeout`. A late thread is left running: everything it uses must be owned by
// `work` (shared_ptr captures), and the caller must end the process with std::_Exit.
template <class T>
std::optional<T> run_with_deadline(std::function<T()> work, std::chrono::milliseconds timeout) {
  auto promise = std::make_shared<std::promise<T>>();
  std::future<T> result = promise->get_future();
  std::thread([promise, work = std::move(work)] {
    try {
      promise->set_value(work());
    } catch (...) {
      promise->set_exception(std::current_exception());
    }
  }).detach();
  if (result.wait_for(timeout) != std::future_status::ready) return std::nullopt;
  return result.get();
}

}  // namespace npu_doctor
