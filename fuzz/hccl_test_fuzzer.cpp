// HCCL Test outputs (all_reduce_test ... under mpirun; src/hccl/hccl_test_output.cpp):
// the result table in both layouts, per-rank failures, Open MPI's "[1,0]<stdout>:" prefixes.
#include "hccl/hccl_test_check.hpp"
#include "hccl/hccl_test_output.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace npu_doctor;
  const std::string_view text = fuzz::as_text(data, size);
  std::vector<hccl::HcclTestOutput> outputs;
  outputs.push_back(hccl::parse_hccl_test_output("a.txt", text));
  outputs.push_back(hccl::parse_hccl_test_output("b.txt", text.substr(0, text.size() / 2)));
  (void)outputs[0].looks_like_hccl_test();
  (void)outputs[0].peak_bandwidth();
  (void)hccl::check_hccl_test(std::move(outputs), hccl::HcclTestOptions{}, fuzz::builtin_kb());
  return 0;
}
