// Source message formats become the patterns that recognise what they print.
#include <gtest/gtest.h>

#include "message_format.hpp"
#include "regex.hpp"

namespace npu_doctor {
namespace {

std::string pattern(std::string_view format, FormatStyle style = FormatStyle::printf) {
  std::string err;
  auto p = format_to_pattern(format, style, err);
  EXPECT_TRUE(p) << err;
  return p ? p->regex : std::string();
}

bool recognises(std::string_view format, std::string_view line, FormatStyle style = FormatStyle::printf) {
  std::string err;
  auto re = Regex::compile(pattern(format, style), false, err);
  EXPECT_TRUE(re) << err;
  return re && re->search(line);
}

TEST(MessageFormat, PrintfPlaceholdersBecomeClassesAndTheRestIsLiteral) {
  EXPECT_TRUE(recognises("[%s]notify wait timeout, notify id[%u]", "[ERROR] HCCL(1,python):x [Wait]notify wait timeout, notify id[7]"));
  EXPECT_FALSE(recognises("[%s]notify wait timeout, notify id[%u]", "[Wait]notify wait timeout, notify id[x7]"));
  EXPECT_TRUE(recognises("alloc failed, size=%zu, ret=%#x, ptr=%p", "alloc failed, size=4096, ret=0x7020016, ptr=0x7f00ab"));
  EXPECT_TRUE(recognises("rate %.2f%% over %-10s limit %lld", "rate 99.50% over node1      limit -3"));
  EXPECT_TRUE(recognises("size %llu too big", "size 18446744073709551615 too big"));
}

TEST(MessageFormat, LeadingAndTrailingPlaceholdersAndLaterLinesAreDropped) {
  EXPECT_EQ(pattern("%s failed, ret[%d]"), R"( failed, ?ret\[(?:-?\d+)\])");
  EXPECT_EQ(pattern("load file %s\nsecond line %d"), R"(\bload file\b)");
  EXPECT_EQ(pattern("trailing spaces %d   "), R"(\btrailing spaces\b)");
  EXPECT_EQ(pattern("trailing spaces   "), R"(\btrailing spaces)");
  EXPECT_EQ(pattern("ret=%d"), R"(\bret=)");
}

TEST(MessageFormat, ACommaMayOrMayNotBeFollowedByASpace) {
  // HCCL releases print this one both ways.
  const char* format = "[Parse][ClusterInfo]ranktable config devId[%d],but local devId[%u]";
  EXPECT_TRUE(recognises(format, "[Parse][ClusterInfo]ranktable config devId[1],but local devId[3]"));
  EXPECT_TRUE(recognises(format, "[Parse][ClusterInfo]ranktable config devId[1], but local devId[3]"));
  EXPECT_TRUE(recognises("alloc failed, size=%zu", "alloc failed,size=4096"));
  EXPECT_FALSE(recognises("alloc failed, size=%zu", "alloc failed,  size=4096"));
  // Split at its commas the format would keep no run of four characters: kept whole.
  EXPECT_EQ(pattern("ab,cd,ef %d"), R"(\bab,cd,ef\b)");
}

TEST(MessageFormat, ALastWordBeforeADroppedPlaceholderEndsAtAWordBoundary) {
  // ops-nn's "unsupported mode %ld" once claimed MindIE's "unsupported model type: falcon_mamba".
  EXPECT_TRUE(recognises("unsupported mode %ld", "[ERROR] OP(1,python):x unsupported mode 1"));
  EXPECT_TRUE(recognises("unsupported mode %ld", "unsupported mode"));
  EXPECT_FALSE(recognises("unsupported mode %ld", "NotImplementedError: unsupported model type: falcon_mamba"));
  EXPECT_TRUE(recognises("load file %s", "load file /tmp/x.om failed"));
  EXPECT_TRUE(recognises("size=%d", "size=12"));
}

TEST(MessageFormat, AFirstWordBeginsAtAWordBoundary) {
  // The driver's "Init failed." once claimed HCCL's "HcclCommInit failed. ret = 4".
  EXPECT_FALSE(recognises("Init failed.\n", "[ERROR] HcclCommInit failed. ret = 4"));
  EXPECT_TRUE(recognises("Init failed.\n", "[ERROR] DRV(1,python):x [drv][devmm][svm_register_user_malloc_to_peer]Init failed."));
  // A leading placeholder, dropped, may have been glued to the text: no boundary then.
  EXPECT_TRUE(recognises("%sInit failed.", "HcclCommInit failed."));
  EXPECT_TRUE(recognises("[%s]notify wait timeout", "x[Wait]notify wait timeout"));
}

TEST(MessageFormat, AClosingFullStopIsOptionalAfterAWord) {
  // Quoted in prose, the message loses its full stop; the word still ends at a boundary.
  EXPECT_EQ(pattern("Failed to obtain op buffer shape size which should be static."),
            R"(\bFailed to obtain op buffer shape size which should be static\b)");
  EXPECT_TRUE(recognises("buffer shape size which should be static.", "LLVM ERROR: buffer shape size which should be static."));
  EXPECT_TRUE(recognises("buffer shape size which should be static.", "compile with `buffer shape size which should be static`"));
  EXPECT_FALSE(recognises("buffer shape size which should be static.", "buffer shape size which should be statically known"));
  EXPECT_EQ(pattern("The buffer memory has been released!"), R"(\bThe buffer memory has been released\b)");
  // A short sentence keeps its full stop: "timeout." must not claim "dequeue_timeout,".
  EXPECT_EQ(pattern("Failed to initialize."), R"(\bFailed to initialize\.)");
  EXPECT_FALSE(recognises("timeout.", "get_response(w, dequeue_timeout, cancel)"));
  // A placeholder before the last sentence does not matter; other punctuation keeps the stop.
  EXPECT_EQ(pattern("the version %s is far too old."), R"(\bthe version (?:.*?) is far too old\b)");
  EXPECT_EQ(pattern("bad value [%d]."), R"(\bbad value \[(?:-?\d+)\]\.)");
}

TEST(MessageFormat, PythonPlaceholders) {
  EXPECT_TRUE(recognises("Unsupported dtype {} on {device!r}; use {{float16}}", "ValueError: Unsupported dtype bf16 on 'npu:0'; use {float16}", FormatStyle::python));
  EXPECT_TRUE(recognises("%s is not supported (%d)", "quant is not supported (3)", FormatStyle::python));
}

TEST(MessageFormat, AFormatWithTooLittleLiteralTextIsRefused) {
  std::string err;
  EXPECT_FALSE(format_to_pattern("%s: %d", FormatStyle::printf, err));
  EXPECT_NE(err.find("literal"), std::string::npos);
  EXPECT_FALSE(format_to_pattern("[%s] %s", FormatStyle::printf, err));
}

TEST(MessageFormat, RegexMetacharactersInTheFormatAreEscaped) {
  EXPECT_TRUE(recognises("value (a+b)*c? is [bad] {x} ^$|\\", "value (a+b)*c? is [bad] {x} ^$|\\"));
  EXPECT_FALSE(recognises("value (a+b)*c? is [bad]", "value aab is b"));
}

}  // namespace
}  // namespace npu_doctor
