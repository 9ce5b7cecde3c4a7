// A failed system call reported to a user says why, with its errno text (issue 21): the
// exec of npu-doctor-mpi under mpirun, a report written into a missing directory, a
// sample file that cannot be created.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "support/test_support.hpp"

namespace fs = std::filesystem;

namespace npu_doctor {
namespace {

using testing::run_npu_doctor;

TEST(ErrorsSayWhy, NpuDoctorMpiThatCannotBeExecutedUnderMpirunSaysWhy) {
  testing::TempDir t;
  // A copy of the binary (it looks for npu-doctor-mpi beside itself) and a stand-in that
  // is not executable.
  const fs::path bin = t.path() / "npu-doctor";
  fs::copy_file(testing::npu_doctor_binary(), bin);
  const fs::path mpi = t.path() / "npu-doctor-mpi";
  std::ofstream(mpi) << "not a program\n";
  ::chmod(mpi.c_str(), 0644);
  const auto r = testing::run_program(bin.string(), {"cluster", "--logs", testing::fixtures_dir() + "/logs"}, "",
                                      {"OMPI_COMM_WORLD_SIZE=2"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("cannot start " + mpi.string() + " under mpirun: Permission denied"), std::string::npos) << r.err;
}

TEST(ErrorsSayWhy, AReportIntoAMissingDirectorySaysWhy) {
  testing::TempDir t;
  const std::string out = (t.path() / "no-such-dir" / "report.json").string();
  const auto r = run_npu_doctor({"diagnose", testing::fixtures_dir() + "/logs/device_oom_plog.log", "-f", "json", "-o", out});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("cannot write " + out + ": No such file or directory"), std::string::npos) << r.err;
}

TEST(ErrorsSayWhy, AMemorySampleFileThatCannotBeCreatedSaysWhy) {
  testing::TempDir t;
  const std::string out = (t.path() / "no-such-dir" / "samples.txt").string();
  const auto r = run_npu_doctor({"mem", "watch", "--count", "1", "-o", out});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("cannot write " + out + ": No such file or directory"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace npu_doctor
