#pragma once
// The bundle tests' fixture host: a copy of a check fixture machine (tests/checks/fixtures)
// with a host name, a login user, a plog holding planted secrets (fixtures/logs), and
// stand-in `ip` / `hccn_tool` first on PATH; plus reading a bundle archive back.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace npu_doctor::bundle::testing {

struct FixtureHost {
  std::string machine;   // usable wherever check tests take a machine name
  std::string root;      // machine/root
  std::string log_dir;   // the default log location under the root ($HOME/ascend/log)
  std::map<std::string, std::optional<std::string>> env;  // the process environment to run in
};

// `base`: a tests/checks/fixtures machine. `with_network`: link the ip/hccn_tool stand-ins.
FixtureHost make_host(const std::filesystem::path& dir, const std::string& base = "healthy-910b",
                      const std::string& hostname = "node-a17", bool with_network = true);

// Every form of data/redaction.yaml planted on the host: fixtures/forms (a training log
// with secrets in flags, assignments, headers, tool flags, token shapes and key blocks,
// around an error the diagnosis reports; an `env` dump) into the log directory, and the
// stand-in `lscpu` whose output carries more. Every planted secret holds the word
// "planted" (any case) or is listed in planted_form_secrets().
void plant_secret_forms(const FixtureHost& host);
const std::vector<std::string>& planted_form_secrets();  // those without the word
std::vector<std::string> planted_form_env();             // extra_env() plus secret forms

// Secrets planted in the environment (extra_env()) and in fixtures/logs: none may
// appear in a bundle.
const std::vector<std::string>& planted_secrets();
std::vector<std::string> extra_env();

// Every regular member of a .tar.gz: name -> bytes.
std::map<std::string, std::string> read_members(const std::string& archive);
// The whole decompressed tar stream (headers and data), to scan every byte.
std::string decompressed(const std::string& archive);
// Unpacks with libarchive into `dir`.
void unpack(const std::string& archive, const std::filesystem::path& dir);

// The member whose name ends with `suffix` ("" when none).
std::string member(const std::map<std::string, std::string>& members, const std::string& suffix);

std::string bundle_fixtures();  // tests/bundle/fixtures

}  // namespace npu_doctor::bundle::testing
