// Redaction of every form a secret takes in text (data/redaction.yaml), the words that
// merely contain "key" or "token" and must stay, and the stream: a secret split across
// written pieces, blocks or a cut long line is caught as in the whole text.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "bundle/redaction.hpp"

namespace npu_doctor::bundle {
namespace {

// Text -> the secret in it that must go.
const std::vector<std::pair<std::string, std::string>>& forms() {
  static const std::vector<std::pair<std::string, std::string>> f = {
      // flags: --name value, --name=value, -name value, any case, - and _ variants
      {"python train.py --password hunter2 --epochs 3", "hunter2"},
      {"--api-key abc123secretvalue", "abc123secretvalue"},
      {"--api_key=abc123secretvalue", "abc123secretvalue"},
      {"--API-KEY abc123secretvalue", "abc123secretvalue"},
      {"--hf-token=hf_abcdefghijklmnopqrstuvwxyz0123", "hf_abcdefghijklmnopqrstuvwxyz0123"},
      {"--auth-token=tok_live_987654", "tok_live_987654"},
      {"-token s3cr3tTok", "s3cr3tTok"},
      {"--client-secret 'two words'", "two words"},
      {"--db-passwd pw123456", "pw123456"},
      {"--session-id abcdef0123", "abcdef0123"},
      {"--credentials=creds-blob-1", "creds-blob-1"},
      {"--cookie sid=abc", "sid=abc"},
      {"--private-key=AAAAB3NzaC1yc2E", "AAAAB3NzaC1yc2E"},
      // -pVALUE of the tools that take it so, and other tools' own flags
      {"mysql -uroot -phunter2 -h db train", "hunter2"},
      {"/usr/bin/mysqldump -u root -pS3cret! db > out.sql", "S3cret!"},
      {"mariadb -u root -p'quoted pw' db", "quoted pw"},
      {"sshpass -p sshpw123 ssh node2", "sshpw123"},
      {"redis-cli -h cache -a redispw99 ping", "redispw99"},
      {"ipmitool -I lanplus -H 10.0.0.9 -U admin -P ipmipw77 power status", "ipmipw77"},
      {"docker login -u bot -p dockerpw55 swr.example.com", "dockerpw55"},
      {"curl -u admin:curlpw33 https://x.example", "curlpw33"},
      {"wget --user=admin --password=wgetpw44 https://x", "wgetpw44"},
      {"smbclient //nas/share -U alice%smbpw66", "smbpw66"},
      {"openssl rsa -passin pass:opensslpw88 -in k.pem", "opensslpw88"},
      // name: value, NAME=value, "name": "value", name = value (ini/toml), name := value
      {"db_password: yamlpw1", "yamlpw1"},
      {"DB_PASSWORD=envpw2", "envpw2"},
      {"export GITHUB_TOKEN=envtok3", "envtok3"},
      {"{\"password\": \"json pw 4\", \"user\": \"bob\"}", "json pw 4"},
      {"{\"apiKey\":\"camelkey5\"}", "camelkey5"},
      {"{'client_secret': 'pydict6'}", "pydict6"},
      {"access_token = initok7", "initok7"},
      {"password = \"toml pw 8\"", "toml pw 8"},
      {"token := gotok9", "gotok9"},
      {"{User:bob Password:gostruct10 Timeout:30s}", "gostruct10"},
      {"HfApi(token='hf_kwarg11abcdefghijklmnopq')", "hf_kwarg11abcdefghijklmnopq"},
      {"https://x.example/cb?access_token=querytok12&state=1", "querytok12"},
      {"passphrase: pp13pp13", "pp13pp13"},
      {"SESSION_COOKIE=sess14", "sess14"},
      {"MYSQL_PWD=pwd15", "pwd15"},
      {"ssh_private_key: key16key16", "key16key16"},
      {"oauth=oauth17", "oauth17"},
      // JSON inside JSON (a report quoting a log line), NUL-separated /proc/*/cmdline and environ
      {R"({"text": "{\"password\": \"nested pw 18\"}"})", "nested pw 18"},
      {std::string("mysql\0-uroot\0-pcmdline19\0", 25), "cmdline19"},
      {std::string("train\0--password\0cmdline20\0", 27), "cmdline20"},
      {std::string("PATH=/bin\0HF_TOKEN=environ21\0", 29), "environ21"},
      // weak names: only a key-shaped value
      {"obs ak=AKIDHUAWEI0000000021 sk=SkValue0123456789abcdefXYZ", "SkValue0123456789abcdefXYZ"},
      {"obs ak=HWAKEXAMPLE000000022", "HWAKEXAMPLE000000022"},
      {"{\"sk\": \"QuotedSk0123456789abcd\"}", "QuotedSk0123456789abcd"},
      {"HUAWEICLOUD_SDK_SK=EnvSk0123456789abcdef", "EnvSk0123456789abcdef"},
      {"signature=0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef"},
      {"--key 0123456789abcdefABCDEF", "0123456789abcdefABCDEF"},
      // HTTP headers: the whole value
      {"Authorization: Bearer abcdefghijklmnop0123", "abcdefghijklmnop0123"},
      {"Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA=="},
      {"Authorization: token ghtok23", "ghtok23"},
      {"Cookie: sid=cookie24; lang=en", "cookie24"},
      {"Set-Cookie: session=cookie25; Path=/; HttpOnly", "cookie25"},
      {"X-Api-Key: headerkey26", "headerkey26"},
      {"curl -H 'X-Auth-Token: iamtoken27' https://iam.example", "iamtoken27"},
      {"{'X-Subject-Token': 'iamtoken28', 'User-Agent': 'x'}", "iamtoken28"},
      // known shapes anywhere
      {"use hf_abcdefghijklmnopqrstuvwxyz now", "hf_abcdefghijklmnopqrstuvwxyz"},
      {"remote https://ghp_abcdefghijklmnopqrstuvwx0123@github.com/x", "ghp_abcdefghijklmnopqrstuvwx0123"},
      {"pat github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "github_pat_11ABCDEFG0123456789"},
      {"gl glpat-abcdefghij0123456789", "glpat-abcdefghij0123456789"},
      {"OPENAI sk-proj-abcdefghijklmnopqrstuv", "sk-proj-abcdefghijklmnopqrstuv"},
      {"slack xoxb-123456789012-abcdef", "xoxb-123456789012-abcdef"},
      {"maps AIzaSyA0123456789abcdefghijklmnopqrstuv", "AIzaSyA0123456789abcdefghijklmnopqrstuv"},
      {"jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fw done", "SflKxwRJSMeKKF2QT4fw"},
      {"key AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"},
      {"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
      {"aliyun LTAI5tAbCdEfGh12345678 ok", "LTAI5tAbCdEfGh12345678"},
      {"pip https://deploy:S3cr3tPw@pypi.example/simple", "S3cr3tPw"},
      {"redis://:urlpw29@cache:6379/0", "urlpw29"},
      {"-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----", "MIIEpAIBAAKCAQEA"},
      {"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE\nAAAAABG5vbmU\n-----END OPENSSH PRIVATE KEY-----",
       "b3BlbnNzaC1rZXktdjE"},
      {"-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBcutshort\n", "MHcCAQEEIBcutshort"},
      {R"({"key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANinjson\n-----END PRIVATE KEY-----\n"})", "MIIEvQIBADANinjson"},
      {"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF0pgpbody\n-----END PGP PRIVATE KEY BLOCK-----", "lQOYBF0pgpbody"},
  };
  return f;
}

TEST(BundleRedactionForms, EveryFormLosesItsSecret) {
  const Redactor r;
  for (const auto& [text, secret] : forms()) {
    const std::string out = r.redact(text);
    EXPECT_EQ(out.find(secret), std::string::npos) << text << "\n -> " << out;
    EXPECT_NE(out.find("<redacted:"), std::string::npos) << text << "\n -> " << out;
  }
}

TEST(BundleRedactionForms, TheContextStays) {
  const Redactor r;
  EXPECT_EQ(r.redact("mysql -uroot -phunter2 -h db"), "mysql -uroot -p<redacted:mysql-password> -h db");
  EXPECT_EQ(r.redact("--password hunter2 --epochs 3"), "--password <redacted:secret-flag> --epochs 3");
  EXPECT_EQ(r.redact("--api-key=abc123"), "--api-key=<redacted:secret-assignment>");
  EXPECT_EQ(r.redact("{\"password\": \"a b\"}"), "{\"password\": \"<redacted:secret-assignment>\"}");
  EXPECT_EQ(r.redact("curl -u admin:pw1 x"), "curl -u admin:<redacted:user-password> x");
  EXPECT_EQ(r.redact("Cookie: a=1; b=2"), "Cookie: <redacted:http-header>");
  EXPECT_EQ(r.redact("https://u:p4ssw0rd@host.example/x"), "https://<redacted:url-credentials>@host.example/x");
  EXPECT_EQ(r.redact("token=abcdef123"), "token=<redacted:secret-assignment>");
  // Redacting twice changes nothing (reports made from redacted logs are redacted again).
  for (const auto& [text, secret] : forms()) {
    const std::string once = r.redact(text);
    EXPECT_EQ(r.redact(once), once) << text;
  }
}

// False positives destroy logs: words that merely contain a secret word, a tokenizer's
// special tokens, booleans, other tools' -p, the shell's PWD.
TEST(BundleRedactionForms, OrdinaryWordsThatContainKeyOrTokenStay) {
  const Redactor r;
  for (const char* text : {
           "loading tokenizer from /models/llama tokenizer_config.json",
           "max_tokens=4096 max_new_tokens: 512 num_tokens=128 tokens_per_second=3411.2",
           "token_type_ids=[0, 0, 1] eos_token_id=2 pad_token_id: 0",
           "pad_token='[PAD]' eos_token: \"</s>\" {\"unk_token\": \"[UNK]\", \"mask_token\": \"[MASK]\"}",
           "keyboard layout us; monkey patching torch_npu; hotkey=F5",
           "vllm serve m --key-cache-dtype fp8 --max-model-len 4096 --tokenizer-mode auto",
           "TOKENIZERS_PARALLELISM=false HF_TOKEN_PATH=/root/.cache/huggingface/token",
           "private_key_path=/etc/ssl/private/server.key token_file: /var/run/secrets/token",
           "use_auth_token=True auth: none password: null token=None secret: ${DB_SECRET} password=******",
           "docker run -p 8080:80 -p 29500:29500 image; mysql -u root -p train_meta; mysql -P 3306",
           "author: Alice; authority=cn; session::Init(); HcclSession::Create; keys=4 sort_key=length",
           "PWD=/data/train OLDPWD=/root pwd: /data/train",
           "task=train bypass=1 compass=n passes=3 keypoint_loss=0.12 key_frames=24",
           "--use-auth-token --trust-remote-code --password-file /run/pw.txt",
           "sig=short key: value ak=short",
           "[ERROR] TBE(3217,python):2024-09-03 EZ9999: Inner Error! token budget exceeded: 8192 > 4096",
           "CANN 8.0.RC3.alpha002 driver 24.1.rc2 EL0004 507015 ERR01006 0x7150050 retCode=0x91",
       }) {
    EXPECT_EQ(r.redact(text), text);
  }
}

TEST(BundleRedactionForms, SecretNamesInTheEnvironment) {
  const Redactor r;
  for (const char* name : {"HF_TOKEN", "OBS_SK", "OBS_AK", "MYSQL_PWD", "SESSION_COOKIE", "client_secret", "apiKey",
                           "AWS_ACCESS_KEY_ID", "HCCL_AUTH_PASSWORD", "NPM_AUTH", "SSH_PASSPHRASE"}) {
    EXPECT_TRUE(r.is_secret_name(name)) << name;
  }
  for (const char* name : {"TOKENIZERS_PARALLELISM", "HF_TOKEN_PATH", "PWD", "OLDPWD", "SSH_AUTH_SOCK",
                           "DBUS_SESSION_BUS_ADDRESS", "SESSION_MANAGER", "KEYBOARD", "MAX_TOKENS", "TASK"}) {
    EXPECT_FALSE(r.is_secret_name(name)) << name;
  }
}

TEST(BundleRedactionForms, ArgvPairsAreRedactedAcrossElements) {
  const Redactor r;
  EXPECT_EQ(r.redact_argv({"train", "--password", "pw1", "--epochs", "3"}),
            (std::vector<std::string>{"train", "--password", "<redacted:secret-flag>", "--epochs", "3"}));
  EXPECT_EQ(r.redact_argv({"mysql", "-uroot", "-ppw2"}),
            (std::vector<std::string>{"mysql", "-uroot", "-p<redacted:mysql-password>"}));
  EXPECT_EQ(r.redact_argv({"npu-smi", "info", "-t", "board", "-i", "0"}),
            (std::vector<std::string>{"npu-smi", "info", "-t", "board", "-i", "0"}));
}

// --- streams ------------------------------------------------------------------------------

std::string stream_redact(const Redactor& r, const std::vector<std::string_view>& pieces, StreamRedactor::Limits limits) {
  std::string out;
  StreamRedactor s(r, [&](std::string_view piece) { out += piece; }, limits);
  for (auto p : pieces) s.write(p);
  s.finish();
  return out;
}

std::string all_forms_text() {
  std::string text;
  for (const auto& [t, secret] : forms()) text += "[INFO] line before " + t + " and after\n";
  return text;
}

TEST(BundleRedactionStream, ASecretSplitBetweenTwoWritesIsCaughtWhereverTheSplitFalls) {
  const Redactor r;
  const std::string text = all_forms_text();
  const std::string whole = r.redact(text);
  const StreamRedactor::Limits small{512, 256, 8192};
  for (std::size_t split = 0; split <= text.size(); ++split) {
    const std::string_view v(text);
    ASSERT_EQ(stream_redact(r, {v.substr(0, split), v.substr(split)}, small), whole) << "split at " << split;
  }
}

TEST(BundleRedactionStream, BlockBoundariesAnywhereGiveTheWholeTextsResult) {
  const Redactor r;
  const std::string text = all_forms_text();
  const std::string whole = r.redact(text);
  // Block sizes from a few lines to many: every secret sits on a block boundary for some.
  for (std::size_t block = 300; block < 2000; block += 13) {
    const std::string out = stream_redact(r, {text}, {block, 256, 16384});
    ASSERT_EQ(out, whole) << "block " << block;
  }
  // Byte by byte.
  std::vector<std::string_view> bytes;
  for (std::size_t i = 0; i < text.size(); ++i) bytes.push_back(std::string_view(text).substr(i, 1));
  EXPECT_EQ(stream_redact(r, bytes, {512, 256, 8192}), whole);
}

TEST(BundleRedactionStream, ALineLongerThanABlockIsCutWithAnOverlap) {
  const Redactor r;
  // One 100 KiB line (a JSON dump on one line): secrets every few hundred bytes.
  std::string line;
  for (int i = 0; line.size() < (100u << 10); ++i) {
    line += "{\"step\": " + std::to_string(i) + ", \"padding\": \"" + std::string(static_cast<std::size_t>(i % 300), 'x') +
            "\", \"password\": \"pw-" + std::to_string(i) + "-end\", \"auth\": \"Bearer tok" + std::to_string(i) +
            "abcdefgh\"}, ";
  }
  const std::string text = "start\n" + line + "\nend\n";
  const std::string whole = r.redact(text);
  ASSERT_EQ(whole.find("pw-"), std::string::npos);
  for (std::size_t block : {1024u, 1500u, 4096u}) {
    const std::string out = stream_redact(r, {text}, {block, 512, 1u << 20});
    EXPECT_EQ(out.find("pw-"), std::string::npos) << block;
    EXPECT_EQ(out.find("abcdefgh"), std::string::npos) << block;
    EXPECT_EQ(out, whole) << block;
  }
}

TEST(BundleRedactionStream, APrivateKeyAcrossBlocksGoesWhole) {
  const Redactor r;
  std::string key = "-----BEGIN RSA PRIVATE KEY-----\n";
  for (int i = 0; i < 40; ++i) key += "MIIEpAIBAAKCAQEAkeybody" + std::to_string(i) + std::string(40, 'Q') + "\n";
  key += "-----END RSA PRIVATE KEY-----\n";
  const std::string text = std::string(3000, 'a') + "\n" + key + "after the key\n" + key.substr(0, key.size() / 2);
  for (std::size_t block : {256u, 700u, 1024u}) {
    const std::string out = stream_redact(r, {text}, {block, 128, 1u << 20});
    EXPECT_EQ(out.find("keybody"), std::string::npos) << block << "\n" << out.substr(3000);
    EXPECT_NE(out.find("after the key"), std::string::npos);
  }
}

TEST(BundleRedactionStream, AMatchLongerThanTheLargestBlockIsCutAndItsRestStillGoes) {
  const Redactor r;
  // A 64 KiB key-shaped value after a secret name, with max_block far smaller.
  std::string value;
  for (int i = 0; value.size() < (64u << 10); ++i) value += "Ab0" + std::to_string(i);
  const std::string text = "head\nsignature=" + value + " tail\n";
  const std::string out = stream_redact(r, {text}, {1024, 256, 4096});
  EXPECT_EQ(out.find("Ab01"), std::string::npos);
  EXPECT_NE(out.find(" tail\n"), std::string::npos);
  EXPECT_TRUE(out.starts_with("head\nsignature=<redacted:"));
}

}  // namespace
}  // namespace npu_doctor::bundle
