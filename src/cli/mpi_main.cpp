// npu-doctor-mpi: the cluster command linked with MPI. `npu-doctor cluster` execs it when
// started by mpirun, so the everyday binary does not load libmpi.

#include "common.hpp"
#include "exit_codes.hpp"

namespace npu_doctor::cli {
void setup_cluster(CLI::App& app, GlobalOptions& g, int& exit_code);
}  // namespace npu_doctor::cli

int main(int argc, char** argv) {
  using namespace npu_doctor::cli;
  CLI::App app;
  GlobalOptions g;
  int exit_code = kOk;
  prepare_app(app, g, argc, argv);  // first: it decides the language of the help texts
  app.description(help_text(npu_doctor::ui::Key::help_npu_doctor_mpi_about));
  setup_cluster(app, g, exit_code);
  return run_app(app, argc, argv, exit_code);
}
