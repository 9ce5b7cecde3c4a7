#!/usr/bin/env python3
"""extract_torch_npu.py (torch_npu's catalogue, docs/kb-messages-hccl-torch.md) run end to end on
a fixture source tree shaped like Ascend/pytorch: the C++ checks (TORCH_CHECK over two lines,
TORCH_CHECK_WITH(OutOfMemoryError, ...), C10_THROW_ERROR, throw std::invalid_argument, the
PTA_ERROR(ErrCode::X) that ends a message), a message held in a local variable followed to its
assignment, NPU_CHECK_ERROR(call) (and its bare error-code form, left out), ASCEND_LOGE,
TORCH_NPU_LOGE, LOG(ERROR) <<; the Python raises and logger.error (the pta_error(ErrCode.X)
suffix cut, a message held in a variable, an exception torch_npu catches itself left out); the
trees left out (torch_npu/testing, tests outside the package), comments, non-literal and
too-generic messages; the categories (message rules, the ErrCode, the path) and an override;
then the file write_catalogue writes is linted by the real loader and each sample is recognised
by its own entry.
Usage: catalog_torch_npu_extractor_fixture_test.py REPO_ROOT NPU_DOCTOR
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fixture_tree import DOCTOR, expect, finish, found_by_own_entry, lint, make_repo  # noqa: E402
import catalog_lib as L  # noqa: E402
import catalog_rules as R  # noqa: E402
import extract_torch_npu as X  # noqa: E402

# Fixture files shaped like Ascend/pytorch (torch_npu's layout and macro shapes; every message
# is invented for the test and says "fixture").
ALLOCATOR_CPP = r'''// Fixture shaped like Ascend/pytorch's torch_npu/csrc/core/npu; the messages are invented.
namespace c10_npu {
void FixtureAllocator::Reserve(size_t size, int device, const std::string& name)
{
    // TORCH_CHECK(false, "fixture commented-out check", PTA_ERROR(ErrCode::PARAM));
    TORCH_CHECK(size > 0, "fixture reserve of ", size,
                " bytes asked for nothing", PTA_ERROR(ErrCode::VALUE));
    TORCH_CHECK(device >= 0, "fixture device ", device, " has no fixture pool", PTA_ERROR(ErrCode::MEMORY));
    auto retmsg = std::string("fixture arena ran dry reserving ") + format_size(size) + " for the fixture pool";
    TORCH_NPU_MEMORY_LOGE("%s", retmsg.c_str());
    TORCH_CHECK_WITH(OutOfMemoryError, false, retmsg.c_str());
    TORCH_CHECK(ready, fixtureMessage);
    NPU_CHECK_ERROR(aclrtFixtureMalloc(&ptr, size));
    NPU_CHECK_ERROR(err_code);
    C10_THROW_ERROR(ValueError, "fixture option " + name + " is unknown to the fixture allocator");
    throw std::invalid_argument("fixture argument of the fixture allocator is empty");
}

void FixtureAllocator::Release(void* ptr, int device)
{
    ASCEND_LOGE("fixture release of block %p on fixture device %d went wrong.", ptr, device);
    TORCH_NPU_LOGE(FIXTURE, "fixture segment %zu was handed back twice", segment);
    LOG(ERROR) << "fixture watchdog of fixture device " << device << " saw no progress";
    TORCH_CHECK(ok, "ok");
}
}
'''

KERNEL_CPP = r'''// Fixture shaped like torch_npu/csrc/aten: an operator's own check; the message is invented.
at::Tensor fixture_kernel(const at::Tensor& self)
{
    TORCH_CHECK(self.dim() == 3, "fixture kernel wants its input laid out as ", self.dim(),
                PTA_ERROR(ErrCode::PARAM));
    return self;
}
'''

UTILS_PY = r'''# Fixture shaped like torch_npu's Python package; the messages are invented.
import logging

from torch_npu.utils._error_code import ErrCode, pta_error

logger = logging.getLogger(__name__)


def fixture_load(name, tries):
    if not name:
        raise RuntimeError("fixture plan has no fixture stage named " + name + pta_error(ErrCode.NOT_SUPPORT))
    msg = f"fixture cache directory {name} is read-only for the fixture loader"
    if tries > 3:
        raise ValueError(msg)
    logger.error("fixture loader gave up on %s after %d tries", name, tries)
    raise FastLaunchPlanUnavailable("fixture fast launch plan is not ready")
'''

DIST_PY = r'''# Fixture shaped like torch_npu/distributed; the message is invented.
def fixture_plan(plan):
    raise RuntimeError("fixture plan {} has no owner".format(plan))
'''

TESTING_PY = r'''# torch_npu/testing: helpers of the test suite, left out.
def fixture_case():
    raise RuntimeError("fixture test helper message never shown")
'''

TEST_PY = r'''# A test outside the package, left out.
def test_fixture():
    raise RuntimeError("fixture unit test message never shown")
'''

FILES = {
    "torch_npu/csrc/core/npu/NPUFixtureAllocator.cpp": ALLOCATOR_CPP,
    "torch_npu/csrc/aten/ops/FixtureKernel.cpp": KERNEL_CPP,
    "torch_npu/utils/_fixture_loader.py": UTILS_PY,
    "torch_npu/distributed/_fixture_plan.py": DIST_PY,
    "torch_npu/testing/_fixture_case.py": TESTING_PY,
    "test/test_fixture.py": TEST_PY,
}

ALLOC = "torch_npu/csrc/core/npu/NPUFixtureAllocator.cpp"
LOADER = "torch_npu/utils/_fixture_loader.py"
READ_ONLY = "fixture cache directory {} is read-only for the fixture loader"
# (format, style) -> (category, role, symptom_of, raised_as, path, line, how the sample starts)
WANT = {
    ("fixture kernel wants its input laid out as %s", "printf"):
        ("compile_shape", None, None, ["RuntimeError"], "torch_npu/csrc/aten/ops/FixtureKernel.cpp", 4,
         "RuntimeError: fixture kernel"),
    ("fixture reserve of %s bytes asked for nothing", "printf"):
        ("other", None, None, ["RuntimeError"], ALLOC, 6, "RuntimeError: fixture reserve"),
    ("fixture device %s has no fixture pool", "printf"):  # PTA_ERROR(ErrCode::MEMORY)
        ("memory", None, None, ["RuntimeError"], ALLOC, 8, "RuntimeError: fixture device"),
    ("fixture arena ran dry reserving %s for the fixture pool", "printf"):  # retmsg, followed
        ("other", None, None, ["OutOfMemoryError", "RuntimeError"], ALLOC, 11, "OutOfMemoryError: fixture arena"),
    ("%s:%s:%d NPU function error: aclrtFixtureMalloc(&ptr, size), error code is %d", "printf"):
        ("memory", "wrapper", None, ["RuntimeError"], ALLOC, 13, "RuntimeError: foo:foo:1 NPU function error"),
    ("fixture option %s is unknown to the fixture allocator", "printf"):
        ("other", None, None, ["ValueError"], ALLOC, 15, "ValueError: fixture option"),
    ("fixture argument of the fixture allocator is empty", "printf"):
        ("other", None, None, ["ValueError"], ALLOC, 16, "ValueError: fixture argument"),
    ("fixture release of block %p on fixture device %d went wrong.", "printf"):
        ("other", None, None, None, ALLOC, 21,
         "[ERROR] APP(12345,python):2025-03-02-10:55:12.313.101 [log_inner.cpp:76]12346 "
         "NPUFixtureAllocator.cpp:Release:21: [PTA]:fixture release"),
    ("fixture segment %zu was handed back twice", "printf"):
        ("other", None, None, None, ALLOC, 22,
         "E0302 10:55:12.313101 12345 NPUFixtureAllocator.cpp:22] [rank:0] fixture"),
    ("fixture watchdog of fixture device %s saw no progress", "printf"):
        ("communication", None, ["any"], None, ALLOC, 23,
         "[rank0]:[E302 10:55:12.313101248 NPUFixtureAllocator.cpp:23] fixture"),
    ("fixture plan {} has no owner", "python"):
        ("communication", None, None, ["RuntimeError"], "torch_npu/distributed/_fixture_plan.py", 3,
         "RuntimeError: fixture plan"),
    ("fixture plan has no fixture stage named {}", "python"):  # pta_error(ErrCode.NOT_SUPPORT) cut off
        ("compile_op_unsupported", None, None, ["RuntimeError"], LOADER, 11, "RuntimeError: fixture plan has"),
    (READ_ONLY, "python"):  # msg = f"..."; raise ValueError(msg); category from the override
        ("permission_device", None, None, ["ValueError"], LOADER, 14, "ValueError: fixture cache"),
    ("fixture loader gave up on %s after %d tries", "python"):
        ("other", None, None, None, LOADER, 15, "ERROR 03-02 10:55:12 [worker.py:100] fixture loader"),
}
LEFT_OUT = {("ok", "printf"), ("%s", "printf"), ("fixture fast launch plan is not ready", "python")}

with tempfile.TemporaryDirectory() as tmp:
    repo = os.path.join(tmp, "Ascend+pytorch", "repo")
    commit = make_repo(repo, FILES)
    src = dict(X.SOURCE, key="torch_npu_fixture", family="src-torch-npu-fixture", commit=commit,
               out=os.path.join(tmp, "kb", "torch_npu_fixture.yaml"))  # absolute: write_catalogue's join keeps it
    os.makedirs(os.path.dirname(src["out"]))
    args = argparse.Namespace(doctor=DOCTOR, dump=None, report=False, cache=None)
    read = X.read_cached(args, repo, commit, "torch_npu", X.read_source)
    calls, not_literal, nfiles = read
    expect("files read (torch_npu/testing and test/ left out)", nfiles, 4)
    expect("calls whose message is not a literal", not_literal, 1)
    expect("messages read (no comment, no NPU_CHECK_ERROR(err_code))",
           sorted((c["fmt"], c["style"]) for c in calls), sorted(list(WANT) + list(LEFT_OUT)))
    lines = {(c["fmt"], c["style"]): (c["path"], c["line"]) for c in calls}
    for key, want in WANT.items():
        expect(f"place of {key[0]!r}", lines.get(key), want[4:6])

    read_only_id = f"{src['family']}.{L.slug(READ_ONLY, 'python')}"
    overrides = {read_only_id: {"category": "permission_device",
                                "title": {"en": "torch_npu: fixture cache is read-only",
                                          "zh": "torch_npu：fixture 缓存只读"}}}
    built = X.build(calls, overrides, src)
    entries, skipped, found, whys = built
    expect("formats found", found, len(WANT) + len(LEFT_OUT))
    expect("skipped", dict(skipped), {"too_generic": 2, "caught_internally": 1})
    expect("the override's title", next((e["title"] for e in entries if e["id"] == read_only_id), None),
           overrides[read_only_id]["title"])
    expect("every override's id produced", R.check_overrides(overrides, entries, "fixture overrides"), True)
    # write_catalogue asks the real binary which samples a hand-written entry claims (none here).
    # The claims depend on the role diagnose gives each finding in the whole batch: with the
    # OutOfMemoryError sample, words.memory is the root cause and python.exception a wrapper; without
    # it python.exception becomes the cause and claims every exception line (recategorised other).
    entries = X.write_catalogue(args, src, built, read, overrides, "fixture: torch_npu's catalogue on a fixture tree",
                                X.DEFAULTS)
    by_key = {(e["format"], e.get("format_style", "printf")): e for e in entries}
    expect("entries", sorted(by_key), sorted(WANT))
    for key, (cat, role, symptom_of, raised_as, path, line, start) in WANT.items():
        e = by_key.get(key)
        if not e:
            continue
        # write_catalogue dropped what the file's defaults say (role cause, level error).
        expect(f"{e['id']}: category (no hand-written entry claims a fixture sample), role, symptom_of, raised_as",
               (e["category"], e.get("role"), e.get("symptom_of"), e.get("raised_as")),
               (cat, role, symptom_of, raised_as))
        expect(f"{e['id']}: reference pinned to the commit and line",
               e["references"], [L.blob_url("Ascend/pytorch", commit, path, line)])
        expect(f"{e['id']}: sample of its kind", e["samples"][0].startswith(start), True)
        expect(f"{e['id']}: its sample matches the pattern generated from its format",
               L.sample_matches(e["samples"][0], key[0], key[1], tuple(raised_as or ())), True)

    lint(src["out"], len(WANT))
    found_by_own_entry(src["out"], {e["id"]: e["samples"][0] for e in entries}, tmp)

finish()
