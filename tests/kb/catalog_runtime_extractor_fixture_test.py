#!/usr/bin/env python3
"""extract_runtime.py (the CANN runtime's catalogue, docs/kb-messages.md) run end to end on a fixture
source tree shaped like hicann/runtime: the macro layers it expands (RT_LOG's token pasting down to
RecordErrorLog, COND_RETURN_ERROR, RT_LOG_INNER_MSG, AscendCL's two #if branches, a module named
through a constant or a #define), the error-code table (RT_LOG_OUTER_MSG_IMPL filled with literal
values, unused ERROR templates added, WARN ones not), the subtrees read and left out (the log
daemon, test trees, public headers' calls, TIMESTAMP_DUMP), a RUNTIME format over two lines merged
with its one-line twin, the content-free and too-generic formats, the categories (message rules,
the error code returned (not one its condition rules out) through errcode_manage.cc and the curated
AscendCL code, the path) and an override; then the file written is linted by the real loader and
each sample is recognised by its own entry.
Usage: catalog_runtime_extractor_fixture_test.py REPO_ROOT NPU_DOCTOR
"""
import os
import sys
import tempfile

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fixture_tree import expect, finish, found_by_own_entry, lint, make_repo  # noqa: E402
import cann_source  # noqa: E402
import catalog_lib as L  # noqa: E402
import extract_runtime as X  # noqa: E402

# Fixture files shaped like hicann/runtime (the layout and macro shapes of the real tree; every
# message is invented for the test and says "fixture").
BASE_HPP = r'''// Fixture shaped like hicann/runtime's src/runtime/core/inc/base.hpp; messages invented.
#ifdef RT_LOG_OFF
#define RT_LOG(level, format, ...)
#else
#define RT_LOG(level, format, ...) RT_LOG_##level(format, ##__VA_ARGS__)
#define RT_LOG_RT_LOG_ERROR(format, ...)                                                            \
    do {                                                                                            \
        cce::runtime::RecordErrorLog(__FILE__, __LINE__, &__func__[0], format "\n", ##__VA_ARGS__); \
    } while (false)
#define RT_LOG_RT_LOG_WARNING(format, ...)                                                                         \
    do {                                                                                                           \
        dlog_warn(static_cast<int32_t>(RUNTIME), " %d %s: " format "\n", mmGetTid(), &__func__[0], ##__VA_ARGS__); \
    } while (false)
#define RT_LOG_INNER_MSG(level, format, ...)                                         \
    do {                                                                             \
        RT_LOG(level, format, ##__VA_ARGS__);                                        \
        REPORT_INNER_ERROR(RT_LOG_LEVEL_TO_ERR_MSG[(level)], format, ##__VA_ARGS__); \
    } while (false)
#define RT_LOG_OUTER_MSG_IMPL(error_code, ...)                                                                \
    do {                                                                                                      \
        ErrorCodeProcess((error_code), __FILE__, __LINE__, &__func__ [0], { RT_ERRVAL_VALUES(__VA_ARGS__) }); \
    } while (false)
#endif
#define COND_RETURN_(COND, ERRCODE, LOGTYPE, format, ...) \
    if (unlikely(COND)) {                                 \
        RT_LOG(LOGTYPE, format, ##__VA_ARGS__);           \
        return ERRCODE;                                   \
    }
#define COND_RETURN_ERROR(COND, ERRCODE, format, ...) COND_RETURN_((COND), ERRCODE, RT_LOG_ERROR, format, ##__VA_ARGS__)
#define TIMESTAMP_DUMP(VAR)                                                                          \
    do {                                                                                             \
        RT_LOG(RT_LOG_ERROR, "[" #VAR "] fixture TIME = %.3f us, COUNT = %d", totalTime, count);     \
    } while (false)
'''

ERROR_CODE_META_H = r'''// Fixture shaped like hicann/runtime's error-code table; codes and messages invented.
#define RUNTIME_ERROR_CODE_TABLE(X)                                                                     \
    /* EE9901 - Fixture */                                                                              \
    X(EE9901, "EE9901", ("func", "reason"),                                                             \
      "Fixture call %s could not bind its fixture queue. Reason: %s. ErrorCode=EE9901.\n", DLOG_ERROR)  \
    X(EE9902, "EE9902", ("func"), "Fixture call %s only warns about its queue. ErrorCode=EE9902.\n",    \
      DLOG_WARN)                                                                                        \
    X(EE9903, "EE9903", ("id"),                                                                         \
      "Fixture queue %s was never opened by any call. ErrorCode=EE9903.\n", DLOG_ERROR)
'''

ERRCODE_MANAGE_CC = r'''// Fixture shaped like errcode_manage.cc: runtime codes -> AscendCL codes.
void ErrorcodeManage::InitErrMap()
{
    rtErrMap_[RT_ERROR_FIXTURE_ARENA] = {ACL_ERROR_RT_MEMORY_ALLOCATION, "fixture arena"};
    rtErrMap_[RT_ERROR_FIXTURE_DRV] = {ACL_ERROR_RT_DRV_INTERNAL_ERROR, "fixture driver"};
}
'''

RT_ERROR_CODES_H = r'''// Fixture: two AscendCL codes of the real header (207001, 507899).
#define ACL_ERROR_RT_MEMORY_ALLOCATION 207001
#define ACL_ERROR_RT_DRV_INTERNAL_ERROR 507899
'''

FIXTURE_API_CC = r'''// Fixture shaped like hicann/runtime's src/runtime/api; the messages are invented for the test.
namespace cce {
namespace runtime {
rtError_t FixtureApi::BindStream(int32_t streamId, uint32_t modelId)
{
    // RT_LOG(RT_LOG_ERROR, "fixture commented-out message %d", streamId);
    if (streamId < 0) {
        RT_LOG(RT_LOG_ERROR, "fixture stream %d could not be bound to fixture model %u, "
               "the fixture binding is refused", streamId, modelId);
        return RT_ERROR_INVALID_VALUE;
    }
    COND_RETURN_ERROR(quota == 0U, RT_ERROR_FIXTURE_ARENA,
                      "fixture arena quota of tenant %u is used up", tenant);
    if (drvRet != 0) {
        RT_LOG(RT_LOG_ERROR, "fixture driver handle of tenant %u went stale", tenant);
        return RT_ERROR_FIXTURE_DRV;
    }
    RT_LOG(RT_LOG_ERROR, "fixture bind of stream %d failed, retCode=%#x", streamId, ret);
    RT_LOG(RT_LOG_WARNING, "fixture warning is never an entry %d", streamId);
    RT_LOG_INNER_MSG(RT_LOG_ERROR, "fixture first line of a report\nfixture second line %d", streamId);
    RT_LOG_OUTER_MSG_IMPL(ErrorCode::EE9901, "FixtureBind", "fixture literal reason");
    RT_LOG_OUTER_MSG_IMPL(ErrorCode::EE9902, "FixtureWarn");
    RT_LOG(RT_LOG_ERROR, "fixture stream %d had to wait peer fixture rank %u past its deadline", streamId, rank);
    TIMESTAMP_DUMP(FixtureLaunch);
    RT_LOG(RT_LOG_ERROR, "failed %d", ret);
    RT_LOG(RT_LOG_ERROR, "%d", ret);
    RT_LOG(RT_LOG_ERROR, fixtureMessage, streamId);
    return RT_ERROR_NONE;
}

void FixtureApi::Report(int32_t streamId)
{
    RT_LOG(RT_LOG_ERROR, "fixture first line of a report fixture second line %d", streamId);
}

rtError_t FixtureApi::Drain(int32_t streamId)
{
    const rtError_t error = impl_->Drain(streamId);
    COND_RETURN_ERROR(error != RT_ERROR_NONE && error != RT_ERROR_FIXTURE_ARENA, error,
                      "fixture drain of stream %d stopped for a reason other than its arena", streamId);
    COND_RETURN_ERROR(error == RT_ERROR_FIXTURE_DRV, error,
                      "fixture drain of stream %d found its fixture peer gone", streamId);
    return RT_ERROR_NONE;
}
}
}
'''

ACL_LOG_INNER_H = r'''// Fixture shaped like hicann/runtime's src/acl/common/log_inner.h.
namespace acl {
constexpr int32_t ACL_MODE_ID = static_cast<int32_t>(ASCENDCL);
}
#ifdef RUN_TEST
#define ACL_LOG_ERROR(fmt, ...)                                                                                   \
    do {                                                                                                          \
        printf("ERROR %d %s:%s:%d:" fmt "\n", acl::AclLog::GetTid(), funcName, __FILE__, __LINE__, ##__VA_ARGS__); \
    } while (false)
#else
#define ACL_LOG_ERROR(fmt, ...)                                                                                       \
    do {                                                                                                              \
        dlog_error(acl::ACL_MODE_ID, "%d %s:" fmt, acl::AclLog::GetTid(), acl::format_cast(funcName), ##__VA_ARGS__); \
    } while (false)
#endif
'''

ACL_FIXTURE_CPP = r'''// Fixture shaped like hicann/runtime's src/acl; the message is invented.
aclError aclmdlFixtureLoad(const char *name)
{
    ACL_LOG_ERROR("[Fixture][Model]fixture model description %s has no fixture section", name);
    return ACL_ERROR_INVALID_PARAM;
}
'''

MSPROF_LOGGER_H = r'''// Fixture shaped like hicann/runtime's src/dfx/msprof logger: the module named through a #define.
#define MSPROF_MODULE_NAME PROFILING
#define MSPROF_LOGE(format, ...) \
    DlogRecord(MSPROF_MODULE_NAME, DLOG_ERROR, "[%s:%d]" format "\n", __FILE__, __LINE__, ##__VA_ARGS__)
'''

MSPROF_CPP = r'''// Fixture; the message is invented.
int FixtureCollector::Flush()
{
    MSPROF_LOGE("fixture profiling ring %s could not be drained to disk", name);
    return -1;
}
'''

TSD_CPP = r'''// Fixture shaped like hicann/runtime's src/tsd; the message is invented.
uint32_t FixtureTsdClient::Open(uint32_t session)
{
    dlog_error(TDT, "fixture device daemon session %u was refused by the fixture peer", session);
    return 1U;
}
'''

SLOG_C = r'''// The log daemon's own self-log (src/dfx/log): left out.
void FixtureSlog(void) { dlog_error(SLOG, "fixture self-log message %d never read", 1); }
'''

UT_CC = r'''// A unit test's own message: test trees are left out.
void FixtureTest() { RT_LOG(RT_LOG_ERROR, "fixture unit test message %d never logged", 1); }
'''

INLINE_H = r'''// A public header: its macros are learned, its calls are not counted.
inline void FixtureInline(void) { dlog_error(RUNTIME, "fixture public header message %d not counted", 1); }
'''

FILES = {
    "src/runtime/core/inc/base.hpp": BASE_HPP,
    "src/runtime/core/inc/common/error_code_meta.h": ERROR_CODE_META_H,
    "src/runtime/core/src/common/errcode_manage.cc": ERRCODE_MANAGE_CC,
    "include/external/acl/error_codes/rt_error_codes.h": RT_ERROR_CODES_H,
    "include/external/acl/fixture_inline.h": INLINE_H,
    "src/runtime/api/impl/fixture_api.cc": FIXTURE_API_CC,
    "src/acl/common/log_inner.h": ACL_LOG_INNER_H,
    "src/acl/model/fixture_model.cpp": ACL_FIXTURE_CPP,
    "src/dfx/msprof/logger/fixture_logger.h": MSPROF_LOGGER_H,
    "src/dfx/msprof/collector/fixture_collector.cpp": MSPROF_CPP,
    "src/tsd/client/fixture_tsd_client.cpp": TSD_CPP,
    "src/dfx/log/slog/fixture_slog.c": SLOG_C,
    "src/runtime/tests/ut/fixture_api_test.cc": UT_CC,
}

API = "src/runtime/api/impl/fixture_api.cc"
META = "src/runtime/core/inc/common/error_code_meta.h"
MODEL = "[Fixture][Model]fixture model description %s has no fixture section"
# format -> (category, role, symptom_of, module, [(path, line) of each place])
WANT = {
    MODEL: ("install_version_mismatch", None, None, "ASCENDCL", [("src/acl/model/fixture_model.cpp", 4)]),
    "fixture profiling ring %s could not be drained to disk":
        ("other", None, None, "PROFILING", [("src/dfx/msprof/collector/fixture_collector.cpp", 4)]),
    "fixture stream %d could not be bound to fixture model %u, the fixture binding is refused":
        ("other", None, None, "RUNTIME", [(API, 8)]),
    # The code COND_RETURN_ERROR returns (RT_ERROR_FIXTURE_ARENA -> 207001, curated memory).
    "fixture arena quota of tenant %u is used up": ("memory", None, None, "RUNTIME", [(API, 12)]),
    # A code the condition says the value is not is not the code returned (`error !=
    # RT_ERROR_FIXTURE_ARENA`: not memory); one a COND_* macro's condition says it is, is.
    "fixture drain of stream %d stopped for a reason other than its arena": ("other", None, None, "RUNTIME", [(API, 39)]),
    "fixture drain of stream %d found its fixture peer gone": ("driver_firmware_env", None, None, "RUNTIME", [(API, 41)]),
    # The code returned just after the call (RT_ERROR_FIXTURE_DRV -> 507899, curated driver).
    "fixture driver handle of tenant %u went stale": ("driver_firmware_env", None, None, "RUNTIME", [(API, 15)]),
    "fixture bind of stream %d failed, retCode=%#x": ("other", "wrapper", None, "RUNTIME", [(API, 18)]),
    # RecordErrorLog prints one line: the two-line format is its one-line twin, both places kept.
    "fixture first line of a report fixture second line %d": ("other", None, None, "RUNTIME", [(API, 20), (API, 33)]),
    "Fixture call FixtureBind could not bind its fixture queue. Reason: fixture literal reason. ErrorCode=EE9901.":
        ("other", None, None, "RUNTIME", [(API, 21)]),
    "fixture stream %d had to wait peer fixture rank %u past its deadline":
        ("communication", None, ["any"], "RUNTIME", [(API, 23)]),
    "fixture device daemon session %u was refused by the fixture peer":
        ("driver_firmware_env", None, None, "TDT", [("src/tsd/client/fixture_tsd_client.cpp", 4)]),
    # The table's ERROR templates as they print when a call's values are not literals.
    "Fixture call %s could not bind its fixture queue. Reason: %s. ErrorCode=EE9901.":
        ("other", None, None, "RUNTIME", [(META, 4)]),
    "Fixture queue %s was never opened by any call. ErrorCode=EE9903.": ("other", None, None, "RUNTIME", [(META, 8)]),
}
LEFT_OUT = {"failed %d": "content_free", "%d": "too_generic"}

with tempfile.TemporaryDirectory() as tmp:
    repo = os.path.join(tmp, "hicann+runtime", "repo")
    commit = make_repo(repo, FILES)
    expect("files read (the log daemon and the test tree left out)", sorted(cann_source.read_tree(repo, X.keep)),
           sorted(p for p in FILES if "/dfx/log/" not in p and "/tests/" not in p))

    # The plog module a sink's argument names through a constant or a #define.
    expect("module aliases", cann_source.module_aliases(L.strip_c_comments(t) for t in FILES.values()),
           {"ACL_MODE_ID": "ASCENDCL", "MSPROF_MODULE_NAME": "PROFILING"})

    overrides = os.path.join(tmp, "overrides.yaml")
    with open(overrides, "w", encoding="utf-8") as f:
        yaml.safe_dump({f"src-runtime.{L.slug(MODEL)}": {"category": "install_version_mismatch"}}, f)
    got_commit, formats, non_literal, entries, skipped, decisions = X.extract(repo, overrides)
    expect("commit read", got_commit, commit)
    expect("calls whose format is not a literal", non_literal, 1)
    expect("formats found (no comment, warning, WARN template, TIMESTAMP_DUMP, header call, left-out tree)",
           sorted(formats), sorted(list(WANT) + list(LEFT_OUT)))
    expect("skipped", skipped, {"too_generic": 1, "content_free": 1})
    for fmt, (cat, role, symptom_of, module, places) in WANT.items():
        f = formats.get(fmt)
        expect(f"places of {fmt!r}", f and [(p.path, p.line) for p in f.places], places)
        expect(f"module of {fmt!r}", f and f.module, module)
    by_fmt = {e["format"]: e for e in entries}
    expect("entries", sorted(by_fmt), sorted(WANT))
    for fmt, (cat, role, symptom_of, module, places) in WANT.items():
        e = by_fmt.get(fmt)
        if not e:
            continue
        expect(f"{e['id']}: category, role, symptom_of", (e["category"], e["role"], e["symptom_of"]),
               (cat, role, symptom_of))
        expect(f"{e['id']}: reference pinned to the commit and the first place",
               e["references"], [L.blob_url("hicann/runtime", commit, places[0][0], places[0][1])])
        expect(f"{e['id']}: sample a plog line of module {module} at the first place",
               e["samples"][0].startswith(f"[ERROR] {module}(") and f"[{os.path.basename(places[0][0])}:{places[0][1]}]"
               in e["samples"][0], True)
        expect(f"{e['id']}: its sample matches the pattern generated from its format",
               L.sample_matches(e["samples"][0], fmt), True)
    expect("the override decides", decisions.get(f"src-runtime.{L.slug(MODEL)}"), "override")

    out = os.path.join(tmp, "kb", "runtime.yaml")
    os.makedirs(os.path.dirname(out))
    samples = {e["id"]: e["samples"][0] for e in entries}
    X.write_file(out, commit, len(formats), non_literal, skipped, entries)
    source = L.load_yaml(out)["source"]
    expect("source written", source, {"component": "CANN runtime", "repo": "hicann/runtime", "commit": commit,
                                      "formats_found": 16, "skipped": {"too_generic": 1, "content_free": 1}})
    lint(out, len(WANT))
    found_by_own_entry(out, samples, tmp)

finish()
