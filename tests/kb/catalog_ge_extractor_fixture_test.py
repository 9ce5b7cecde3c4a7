#!/usr/bin/env python3
"""extract_ge.py (GE's catalogue, docs/kb-messages.md; ge_ops_common.py and ge_rules.py, which
metadef's and the operator libraries' extractors share) run end to end, its main() unchanged, on
two fixture source trees shaped like hicann/ge and hicann/metadef: metadef's log macros (GELOGE, the
GE_ASSERT family built on CreateErrorMsg, GE_CHK_STATUS_RET, GE_CHECK_NOTNULL's stringised argument,
REPORT_INNER_ERR_MSG) expanded at GE's call sites, an engine's own macro (FE_LOGE) and AscendCL's
(ACL_LOG_ERROR); the trees left out (tests, examples, metadef's own calls), comments, warnings, a
non-literal, a too-generic and a bare-field format; a text only reported (kept with a gate word,
left out as ungated without one); the split into ge.yaml (module GE) and ge_engines.yaml (FE,
ASCENDCL); the categories from ge_rules and from a texts block and a per-id decision of the texts
file; then both files are linted by the real loader and each sample is recognised by its own entry.
Usage: catalog_ge_extractor_fixture_test.py REPO_ROOT NPU_DOCTOR
"""
import os
import sys
import tempfile

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fixture_tree import (DOCTOR, entries_by_format, expect, finish, found_by_own_entry, line_of, lint,  # noqa: E402
                          make_repo, stand_in_repository)
import catalog_lib as L  # noqa: E402
import extract_ge as X  # noqa: E402
import ge_ops_common as C  # noqa: E402

# Fixture files shaped like hicann/metadef's pkg_inc log macros (their shapes; no message).
GE_LOG_H = r'''// Fixture shaped like metadef's pkg_inc/common/ge_common/debug/ge_log.h.
#define GELOGE(ERROR_CODE, fmt, ...)                                                                \
  do {                                                                                              \
    dlog_error(GE_MODULE_NAME, "%" PRIu64 " %s: ErrorNo: %" PRIuLEAST8 "(%s)" fmt, GeLog::GetTid(), \
               &__FUNCTION__[0U], (ERROR_CODE), ((GE_GET_ERRORNO_STR(ERROR_CODE)).c_str()), ##__VA_ARGS__); \
  } while (false)
#define GELOGW(fmt, ...)                                                                                 \
  do {                                                                                                   \
    dlog_warn(GE_MODULE_NAME, "%" PRIu64 " %s:" fmt, GeLog::GetTid(), &__FUNCTION__[0U], ##__VA_ARGS__); \
  } while (false)
#define GE_CHK_STATUS_RET(expr, ...)       \
  do {                                     \
    const ge::Status _chk_status = (expr); \
    if (_chk_status != ge::SUCCESS) {      \
      GELOGE((ge::FAILED), __VA_ARGS__);   \
      return _chk_status;                  \
    }                                      \
  } while (false)
'''

CHECKER_H = r'''// Fixture shaped like metadef's pkg_inc/common/checker.h.
#define GE_ASSERT(exp, ...)                                       \
  do {                                                            \
    if (!(exp)) {                                                 \
      auto msg = CreateErrorMsg(__VA_ARGS__);                     \
      if (msg.empty()) {                                          \
        REPORT_INNER_ERR_MSG("E19999", "Assert %s failed", #exp); \
        GELOGE(ge::FAILED, "Assert %s failed", #exp);             \
      } else {                                                    \
        REPORT_INNER_ERR_MSG("E19999", "%s", msg.data());         \
        GELOGE(ge::FAILED, "%s", msg.data());                     \
      }                                                           \
      return ::ErrorResult();                                     \
    }                                                             \
  } while (false)
#define GE_ASSERT_NOTNULL(v, ...) GE_ASSERT(((v) != nullptr), __VA_ARGS__)
'''

UTIL_H = r'''// Fixture shaped like metadef's inc/common/ge_common/util.h.
#define GE_CHECK_NOTNULL(val, ...)                                                            \
  do {                                                                                        \
    if ((val) == nullptr) {                                                                   \
      REPORT_INNER_ERR_MSG("E19999", "Param:" #val " is nullptr, check invalid" __VA_ARGS__); \
      GELOGE(ge::FAILED, "[Check][Param:" #val "]null is invalid" __VA_ARGS__);               \
      return ge::PARAM_INVALID;                                                               \
    }                                                                                         \
  } while (false)
'''

METADEF_OWN_CC = r'''// metadef's own call: its macros are read, its messages belong to extract_metadef.py.
void FixtureMetadef() { GELOGE(ge::FAILED, "Fixture metadef message that extract_ge.py does not count"); }
'''

# Fixture files shaped like hicann/ge; every message is invented and says "fixture".
PASS_CC = r'''// Fixture shaped like hicann/ge's compiler/graph/passes; the messages are invented.
namespace ge {
Status FixturePass::Run(const NodePtr &node, size_t size)
{
    // GELOGE(FAILED, "Fixture commented-out message of %s", name);
    GELOGE(FAILED, "[Fixture][Pass] fixture node %s has no fixture anchor", node->GetName().c_str());
    GE_CHK_STATUS_RET(CompileFixture(node),
                      "[Fixture][Compile] compile op %s of the fixture graph failed", node->GetName().c_str());
    GE_ASSERT_NOTNULL(workspace, "[Fixture][Alloc] allocate fixture workspace of %zu bytes failed", size);
    GE_CHECK_NOTNULL(fixture_desc);
    GELOGE(FAILED, "[Infer][Shape] fixture input shape of %s is invalid", node->GetName().c_str());
    REPORT_INNER_ERR_MSG("E19999", "Fixture graph %s ran out of its fixture timeout budget", name.c_str());
    REPORT_INNER_ERR_MSG("E19999", "Fixture graph %s kept a stale fixture anchor", name.c_str());
    GELOGW("Fixture warning of %s that is never an error", name.c_str());
    GELOGE(FAILED, fixture_message);
    GELOGE(FAILED, "ret=%d", ret);
    GELOGE(FAILED, "graph_id:%u", graph_id);
    return SUCCESS;
}
}
'''

FE_LOG_H = r'''// Fixture shaped like compiler/engines/nn_engine/inc/common/fe_log.h.
#define FE_LOGE(...) D_FE_LOGE(FE_MODULE_NAME, __VA_ARGS__)
'''

FE_CC = r'''// Fixture shaped like compiler/engines/nn_engine; the message is invented.
Status FixtureOpsKernelStore::CheckSupported(const std::string &op)
{
    FE_LOGE("[Fixture][FE] fixture op %s has no kernel in the fixture ops kernel store", op.c_str());
    return FAILED;
}
'''

ACL_CC = r'''// Fixture shaped like api/acl; the message is invented.
aclError aclmdlFixtureLoad(uint32_t modelId)
{
    ACL_LOG_ERROR("[Fixture][Model]fixture model %u was never loaded by this fixture context", modelId);
    return ACL_ERROR_GE_FAILURE;
}
'''


def left_out(path):
    return f'''// A file extract_ge.py does not count; the message is invented.
void FixtureLeftOut() {{ GELOGE(FAILED, "Fixture message of {path} that is not counted"); }}
'''


METADEF = {"pkg_inc/common/ge_common/debug/ge_log.h": GE_LOG_H, "pkg_inc/common/checker.h": CHECKER_H,
           "inc/common/ge_common/util.h": UTIL_H, "graph/fixture_metadef.cc": METADEF_OWN_CC}
PASS = "compiler/graph/passes/fixture_pass.cc"
GE = {PASS: PASS_CC, "compiler/engines/nn_engine/inc/common/fe_log.h": FE_LOG_H,
      "compiler/engines/nn_engine/fixture_ops_kernel_store.cc": FE_CC, "api/acl/fixture_model.cc": ACL_CC,
      **{p: left_out(p) for p in ("tests/ut/ge/fixture_pass_test.cc", "examples/fixture_example.cc",
                                  "compiler/graph/stub/fixture_stub.cc")}}

ANCHOR = "[Fixture][Pass] fixture node %s has no fixture anchor"
# file -> {format: (category, role, level, path, text on its line, how the sample starts)}
WANT = {
    "ge.yaml": {
        ANCHOR: ("rank_config", None, None, PASS, "has no fixture anchor", "[ERROR] GE("),  # the texts block
        "[Fixture][Compile] compile op %s of the fixture graph failed":
            ("compile_op_unsupported", None, None, PASS, "GE_CHK_STATUS_RET(", "[ERROR] GE("),
        "[Fixture][Alloc] allocate fixture workspace of %zu bytes failed":
            ("memory", None, None, PASS, "GE_ASSERT_NOTNULL(", "[ERROR] GE("),
        "Assert %s failed":  # GE_ASSERT's own text when no message is given: the macro holds both
            ("other", None, None, PASS, "GE_ASSERT_NOTNULL(", "[ERROR] GE("),
        "[Check][Param:%s]null is invalid":  # the stringised argument is a placeholder
            ("other", "wrapper", None, PASS, "GE_CHECK_NOTNULL(", "[ERROR] GE("),
        "[Infer][Shape] fixture input shape of %s is invalid":
            ("compile_shape", None, None, PASS, "[Infer][Shape]", "[ERROR] GE("),
        "Fixture graph %s ran out of its fixture timeout budget":  # reported only, a gate word
            ("resource", None, "any", PASS, "timeout budget", "        Fixture graph"),  # the per-id decision
    },
    "ge_engines.yaml": {
        "[Fixture][FE] fixture op %s has no kernel in the fixture ops kernel store":
            ("compile_op_unsupported", None, None, "compiler/engines/nn_engine/fixture_ops_kernel_store.cc",
             "FE_LOGE(", "[ERROR] FE("),
        "[Fixture][Model]fixture model %u was never loaded by this fixture context":
            ("other", None, None, "api/acl/fixture_model.cc", "ACL_LOG_ERROR(", "[ERROR] ASCENDCL("),
    },
}
TOO_GENERIC = 3  # "ret=%d", "graph_id:%u", and GE_ASSERT's "%s" that logs the message it built
# Reported only and without a gate word: "Fixture graph %s kept a stale fixture anchor" and
# GE_CHECK_NOTNULL's "Param:%s is nullptr, check invalid".
UNGATED = 2
TIMEOUT = "Fixture graph %s ran out of its fixture timeout budget"


def texts():
    """A texts block (category and texts by a regex over the format) and a per-id decision."""
    block = {"formats": r"fixture node .* has no fixture anchor", "category": "rank_config",
             "title": {"en": "GE: fixture anchor missing", "zh": "GE：缺少 fixture 锚点"},
             "cause": {"en": "Fixture cause.", "zh": "Fixture 原因。"},
             "remedies": [{"en": "Fixture remedy.", "zh": "Fixture 措施。"}]}
    return yaml.safe_dump({"texts": [block], "entries": {f"src-ge.{L.slug(TIMEOUT)}": {"category": "resource"}}},
                          allow_unicode=True)


with tempfile.TemporaryDirectory() as tmp:
    mirrors = os.path.join(tmp, "mirrors")
    commit = make_repo(os.path.join(mirrors, "hicann+ge", "repo"), GE)
    make_repo(os.path.join(mirrors, "hicann+metadef", "repo"), METADEF)
    # main() reads C.MIRRORS' snapshots and writes C.ROOT/kb/messages/; curated_claims lists C.ROOT/kb.
    C.MIRRORS = mirrors
    root = stand_in_repository(os.path.join(tmp, "npu-doctor"),
                               {"scripts/catalog/overrides/ge.texts.yaml": texts()}, C)
    sys.argv = [X.__file__, "--doctor", DOCTOR,
                "--texts", os.path.join(root, "scripts", "catalog", "overrides", "ge.texts.yaml")]
    X.main()

    messages = os.path.join(root, "kb", "messages")
    samples = {}
    for name, want in WANT.items():
        header, by_key = entries_by_format(os.path.join(messages, name))
        by_fmt = {fmt: e for (fmt, _), e in by_key.items()}
        expect(f"{name}: entries (tests, examples, stubs, metadef's own call, comment, warning, non-literal left out)",
               sorted(by_fmt), sorted(want))
        for fmt, (cat, role, level, path, text, start) in want.items():
            e = by_fmt.get(fmt)
            if not e:
                continue
            d = header["defaults"]
            expect(f"{e['id']}: category, role, level",
                   (e.get("category", d["category"]), e.get("role"), e.get("level")), (cat, role, level))
            expect(f"{e['id']}: reference pinned to the commit and line",
                   e["references"], [L.blob_url("hicann/ge", commit, path, line_of(GE[path], text))])
            expect(f"{e['id']}: sample of its kind", e["samples"]["match"][0].startswith(start), True)
            samples[e["id"]] = e["samples"]["match"][0]
        if name == "ge.yaml":
            expect("ge.yaml: source", (header["source"]["commit"], header["source"]["formats_found"],
                                       header["source"]["skipped"]),
                   (commit, len(want) + TOO_GENERIC + UNGATED, {"too_generic": TOO_GENERIC, "ungated": UNGATED}))
            e = by_fmt.get(ANCHOR, {})
            expect("the texts block's title and cause", (e.get("title", {}).get("en"), "cause" in e),
                   ("GE: fixture anchor missing", True))

    lint(messages, sum(len(w) for w in WANT.values()))
    found_by_own_entry(messages, samples, tmp)

finish()
