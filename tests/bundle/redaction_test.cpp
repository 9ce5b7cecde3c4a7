// Redaction: every rule of data/redaction.yaml on planted secrets, secret variable names,
// pseudonyms, and the real-world corpus, whose version strings and error codes must
// survive byte for byte.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "bundle/redaction.hpp"
#include "bundle/sha256.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::bundle {
namespace {

TEST(BundleRedaction, EveryRuleRemovesItsSecretAndKeepsTheContext) {
  const Redactor r;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"pip https://deploy:S3cr3tPw@pypi.example/simple", "S3cr3tPw"},
      {"Authorization: Bearer abcdefghijklmnop0123", "abcdefghijklmnop0123"},
      {"remote https://ghp_abcdefghijklmnopqrstuvwx0123@github.com/x", "ghp_abcdefghijklmnopqrstuvwx0123"},
      {"use hf_abcdefghijklmnopqrstuvwxyz now", "hf_abcdefghijklmnopqrstuvwxyz"},
      {"jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fw done", "SflKxwRJSMeKKF2QT4fw"},
      {"key AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"},
      {"db_password=hunter2hunter2", "hunter2hunter2"},
      {"{\"api_key\": \"abc123def456\"}", "abc123def456"},
      {"--auth-token=tok_live_987654", "tok_live_987654"},
      {"obs sk=AbCdEfGhIjKlMnOpQrSt0123", "AbCdEfGhIjKlMnOpQrSt0123"},
      {"signature=0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef"},
      {"-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----", "MIIEpAIBAAKCAQEA"},
  };
  for (const auto& [text, secret] : cases) {
    const std::string out = r.redact(text);
    EXPECT_EQ(out.find(secret), std::string::npos) << text << " -> " << out;
    EXPECT_NE(out.find("<redacted:"), std::string::npos) << text << " -> " << out;
  }
  // The context stays: scheme and host of a URL, the variable name.
  EXPECT_EQ(r.redact("https://u:p4ssw0rd@host.example/x"), "https://<redacted:url-credentials>@host.example/x");
  EXPECT_EQ(r.redact("token=abcdef123"), "token=<redacted:secret-assignment>");
}

TEST(BundleRedaction, SecretVariableNamesLoseTheirValues) {
  const Redactor r;
  for (const char* name : {"HF_TOKEN", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "MYSQL_PWD", "OBS_AK",
                           "OBS_SK", "API_KEY", "OPENAI_APIKEY", "HUAWEICLOUD_SDK_AK", "NPM_AUTH", "PASSWD",
                           "GOOGLE_APPLICATION_CREDENTIALS", "ssh_private_key"}) {
    EXPECT_TRUE(r.is_secret_name(name)) << name;
    EXPECT_EQ(r.redact_variable(name, "anything"), "<redacted>") << name;
  }
  for (const char* name : {"ASCEND_TOOLKIT_HOME", "HCCL_CONNECT_TIMEOUT", "RANK", "WORLD_SIZE", "MASTER_ADDR",
                           "LD_LIBRARY_PATH", "PATH", "PYTORCH_NPU_ALLOC_CONF", "HOME", "ASCEND_RT_VISIBLE_DEVICES",
                           "TASK_QUEUE_ENABLE", "MONKEY_PATCH"}) {
    EXPECT_FALSE(r.is_secret_name(name)) << name;
  }
  // A value of an ordinary variable is still searched for secrets.
  EXPECT_EQ(r.redact_variable("PYTORCH_INIT_URL", "tcp://a:b1c2d3@10.0.0.1:29500"),
            "tcp://<redacted:url-credentials>@10.0.0.1:29500");
}

// Version strings and error codes of the real-world corpus, plus the shapes the issue
// names, survive redaction byte for byte.
TEST(BundleRedaction, VersionStringsAndErrorCodesOfTheRealWorldCorpusSurvive) {
  const Redactor r;
  const std::regex protected_token(
      R"(\b\d+\.\d+\.(?:RC|rc)\d+(?:\.[A-Za-z0-9]+)*|\b\d+\.\d+\.\d+(?:\.\d+)*(?:\.?(?:post|rc|RC|alpha|beta)\d+)?\b|)"
      R"(\b[A-Z][A-Z0-9]\d{4}\b|\bERR\d{5}\b|\b\d{6}\b|\b0x[0-9a-fA-F]+\b)");
  std::size_t files = 0;
  std::size_t tokens = 0;
  for (const auto& e : std::filesystem::directory_iterator(npu_doctor::testing::fixtures_dir() + "/realworld-dev")) {
    if (e.path().extension() != ".log") continue;
    const std::string text = npu_doctor::testing::read_file(e.path());
    const std::string out = r.redact(text);
    ++files;
    for (std::sregex_iterator it(text.begin(), text.end(), protected_token), end; it != end; ++it) {
      ++tokens;
      // As many occurrences after as before.
      auto count = [](const std::string& hay, const std::string& needle) {
        std::size_t n = 0;
        for (auto p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
        return n;
      };
      EXPECT_EQ(count(out, it->str()), count(text, it->str())) << e.path().filename() << ": " << it->str();
    }
  }
  EXPECT_GE(files, 30u);
  EXPECT_GE(tokens, 100u) << "the corpus has version strings and codes to protect";
  const std::string shapes =
      "CANN 1.0.RC2 8.0.RC3.alpha002 24.1.rc2 7.5.0.1.129 2.1.0.post8 EL0004 EE1002 EI0006 507015 ERR01006 "
      "0x7150050 retCode=0x91 errNo[0x0000000005000004] error code is 507046 drvRetCode=6";
  EXPECT_EQ(r.redact(shapes), shapes);
}

TEST(BundleRedaction, RulesFileIsValidAndMalformedRulesAreRejected) {
  std::string error;
  EXPECT_FALSE(RedactionRules::parse("secret_words: ['(']\nforms: []\ntext_patterns: []\n", error));
  EXPECT_FALSE(error.empty());
  error.clear();
  EXPECT_FALSE(RedactionRules::parse("version: 1\n", error));
  EXPECT_FALSE(error.empty());
  error.clear();
  // A malformed tool flag names its rule.
  EXPECT_FALSE(RedactionRules::parse("secret_words: [token]\nforms: []\ntext_patterns: []\n"
                                     "tool_flags: [{name: x, tools: [t], flags: ['-p'], value: sometimes}]\n",
                                     error));
  EXPECT_NE(error.find("attached"), std::string::npos) << error;
  EXPECT_GE(RedactionRules::builtin().rules.size(), 20u);
}

TEST(BundleRedaction, PseudonymsAreStableShapedAndDistinct) {
  EXPECT_EQ(pseudonym(IdentifierKind::host, "node-a17"), pseudonym(IdentifierKind::host, "node-a17"));
  EXPECT_NE(pseudonym(IdentifierKind::host, "node-a17"), pseudonym(IdentifierKind::host, "node-b03"));
  EXPECT_TRUE(std::regex_match(pseudonym(IdentifierKind::host, "x1"), std::regex("host-[0-9a-f]{8}")));
  EXPECT_TRUE(std::regex_match(pseudonym(IdentifierKind::user, "alice"), std::regex("user-[0-9a-f]{8}")));
  EXPECT_TRUE(std::regex_match(pseudonym(IdentifierKind::ipv4, "10.0.0.1"), std::regex(R"(198\.1[89]\.\d+\.\d+)")));
  EXPECT_TRUE(std::regex_match(pseudonym(IdentifierKind::mac, "3c:fd:fe:a1:b2:c3"),
                               std::regex("02:00(:[0-9a-f]{2}){4}")));

  Redactor r;
  r.add_identifier(IdentifierKind::host, "node-a17");
  r.add_identifier(IdentifierKind::ipv4, "10.20.30.4");
  r.add_identifier(IdentifierKind::user, "alice");
  const std::string out = r.redact("node-a17 10.20.30.4:29500 10.20.30.41 /home/alice alicey 1.10.20.30.4 CANN 8.0.RC3");
  EXPECT_EQ(out, pseudonym(IdentifierKind::host, "node-a17") + " " + pseudonym(IdentifierKind::ipv4, "10.20.30.4") +
                     ":29500 10.20.30.41 /home/" + pseudonym(IdentifierKind::user, "alice") +
                     " alicey 1.10.20.30.4 CANN 8.0.RC3");
}

TEST(BundleRedaction, Sha256MatchesTheStandardVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

}  // namespace
}  // namespace npu_doctor::bundle
