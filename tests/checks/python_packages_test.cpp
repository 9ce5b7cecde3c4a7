// Package metadata and the output of the two Python programs check runs.
#include <gtest/gtest.h>

#include "checks/python_packages.hpp"

namespace npu_doctor::checks {
namespace {

using namespace std::string_literals;

TEST(CheckPython, PackageNamesAreNormalised) {
  EXPECT_EQ(normalize_package_name("torch-npu"), "torch_npu");
  EXPECT_EQ(normalize_package_name("Torch_NPU"), "torch_npu");
  EXPECT_EQ(normalize_package_name("zope.interface"), "zope_interface");
}

TEST(CheckPython, DistInfoAndEggInfoDirectories) {
  const auto d = parse_package_dir_name("torch_npu-2.1.0.post8.dist-info");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->name, "torch_npu");
  EXPECT_EQ(d->version, "2.1.0.post8");
  const auto e = parse_package_dir_name("torch-2.1.0-py3.9.egg-info");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->name, "torch");
  EXPECT_EQ(e->version, "2.1.0");
  EXPECT_FALSE(parse_package_dir_name("torch"));
  EXPECT_FALSE(parse_package_dir_name("-1.0.dist-info"));
}

TEST(CheckPython, MetadataHeadersOnly) {
  const auto m = parse_package_metadata(
      "Metadata-Version: 2.1\r\nName: torch-npu\r\nVersion: 2.1.0.post8.dev20241009\r\n\r\nVersion: 9.9.9 in the body\r\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->name, "torch_npu");
  EXPECT_EQ(m->version, "2.1.0.post8.dev20241009");
  EXPECT_FALSE(parse_package_metadata("Name: torch\n"));
  EXPECT_FALSE(parse_package_metadata("Name: t\0\nVersion: 1\n"s));
}

TEST(CheckPython, SysPathOutputIgnoresWhatElseThePythonPrints) {
  const auto p = parse_python_paths(
      "sitecustomize says hello\nNPU_DOCTOR_PYTHON 3.9.2\nNPU_DOCTOR_PATH \nNPU_DOCTOR_PATH relative/dir\n"
      "NPU_DOCTOR_PATH /usr/lib/python3.9\nNPU_DOCTOR_PATH /usr/local/lib/python3.9/site-packages\n");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->version, "3.9.2");
  EXPECT_EQ(p->paths, (std::vector<std::string>{"/usr/lib/python3.9", "/usr/local/lib/python3.9/site-packages"}));
  EXPECT_FALSE(parse_python_paths("Python 2.7 says something else\n"));
  EXPECT_NE(python_paths_program().find("sys.path"), std::string_view::npos);
}

TEST(CheckPython, DeviceProbeOutcomes) {
  const auto ok = parse_device_probe(
      "NPU_DOCTOR_PROBE {\"stage\": \"done\", \"torch\": \"2.3.1\", \"torch_npu\": \"2.3.1\", \"available\": true, "
      "\"device_count\": 8, \"tensor_sum\": 4.0}\n");
  ASSERT_TRUE(ok);
  EXPECT_TRUE(ok->ok());
  EXPECT_EQ(ok->device_count, 8);
  const auto import_error = parse_device_probe(
      "warning\nNPU_DOCTOR_PROBE {\"stage\": \"import\", \"error\": \"ImportError: libhccl.so: cannot open shared object file\"}\n");
  ASSERT_TRUE(import_error);
  EXPECT_FALSE(import_error->ok());
  EXPECT_EQ(import_error->stage, "import");
  const auto unavailable = parse_device_probe(
      "NPU_DOCTOR_PROBE {\"stage\": \"done\", \"available\": false, \"device_count\": 0}\n");
  ASSERT_TRUE(unavailable);
  EXPECT_FALSE(unavailable->ok());
  EXPECT_FALSE(parse_device_probe("NPU_DOCTOR_PROBE {not json\n"));
  EXPECT_FALSE(parse_device_probe("NPU_DOCTOR_PROBE [1, 2]\n"));
  EXPECT_FALSE(parse_device_probe("Segmentation fault\n"));
  EXPECT_NE(device_probe_program().find("torch.npu.is_available()"), std::string_view::npos);
}

}  // namespace
}  // namespace npu_doctor::checks
