#pragma once
// Renderers of `net test`: a table of links for people, and the JSON contract
// npu-doctor/net-test/v1 (docs/json-net-v1.md).
#include <ostream>

#include "net/net_analysis.hpp"
#include "npu_doctor/render_options.hpp"

namespace npu_doctor::net {

void render_net_text(const NetReport& r, const RenderOptions& o, std::ostream& out);
void render_net_json(const NetReport& r, const RenderOptions& o, std::ostream& out);

}  // namespace npu_doctor::net
