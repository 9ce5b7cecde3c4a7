#pragma once
// Memory sizes as logs and users write them ("2.00 GiB", "22.00 MiB", "5620(Byte)",
// "64GiB", "65536MB") and as the mem report prints them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace npu_doctor::mem {

// Bytes in `text`: a number with an optional unit B, K/KB/KiB, M/MB/MiB, G/GB/GiB,
// T/TB/TiB, P/PB/PiB (any case, space allowed) or "(Byte)". Memory tools (torch_npu,
// npu-smi) mean powers of 1024 even when they write "MB", so every unit is binary.
// nullopt for anything else, negative numbers, or more than 2^64 bytes.
std::optional<uint64_t> parse_byte_size(std::string_view text);

// "41.2 GiB", "512 MiB", "0 B": one decimal from KiB up.
std::string format_bytes(double bytes);
// The same for a count of bytes (a sample, a capacity).
inline std::string format_byte_count(uint64_t bytes) { return format_bytes(static_cast<double>(bytes)); }

}  // namespace npu_doctor::mem
