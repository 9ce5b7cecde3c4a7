// msprof / torch_npu / msprof-analyze outputs (src/profile): the streaming CSV
// reader, each table reader (columns found by header name, cells that are not numbers),
// and cluster_communication.json read as a stream. The first byte picks the reader.
#include "profile/csv_reader.hpp"
#include "profile/profile_accumulator.hpp"
#include "profile/profile_inputs.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace npu_doctor;
  using namespace npu_doctor::profile_detail;
  if (size == 0) return 0;
  const uint8_t knob = data[0];
  const std::string_view text = fuzz::as_text(data + 1, size - 1);
  Accumulator acc;
  ProfileInput input;
  input.report.path = "fuzz.csv";
  fuzz::PieceStream in(text, 1u + (knob >> 3) * 61u);
  switch (knob % 8) {
    case 0: read_op_rows(in, "op_summary_0.csv", "op_summary", acc, input); break;
    case 1: read_op_rows(in, "kernel_details.csv", "kernel_details", acc, input); break;
    case 2: read_op_statistic(in, "op_statistic_0.csv", acc, input); break;
    case 3: read_step_trace(in, "step_trace_time.csv", acc, input); break;
    case 4: read_cluster_step_trace(in, "cluster_step_trace_time.csv", acc, input); break;
    case 5: read_cluster_communication(in, "cluster_communication.json", acc, input); break;
    case 6: read_api_statistic(in, "api_statistic.csv", acc, input); break;
    default: {
      // The bare CSV reader with a small record cap, and the cell helpers.
      CsvReader reader(in, 256);
      std::vector<std::string_view> fields;
      while (reader.next(fields)) {
        CsvColumns columns(fields);
        (void)columns.find({"Duration(us)", "Task Type"});
        for (std::string_view cell : fields) {
          double v = 0;
          (void)parse_number(cell, v);
          (void)is_empty_cell(cell);
          (void)normalize_header(cell);
        }
      }
      (void)kind_from_header(text.substr(0, text.find('\n')));
      (void)kind_from_name(text.substr(0, 64));
      break;
    }
  }
  return 0;
}
