#!/usr/bin/env python3
"""extract_vllm_ascend.py (vLLM-Ascend's catalogue, docs/kb-messages.md) run end to end, its main()
unchanged, on a fixture source tree shaped like vllm-project/vllm-ascend with three release tags
behind its HEAD: the package vllm_ascend/ read and what is left out (tests/, examples/, a test_
file inside the package, tools/, setup.py); raise with a literal, an f-string, "..." % x,
"...".format(), a message held in a variable; assert with a message; logger.error,
logger.exception, logger.critical; a too-generic text; the categories (vLLM-Ascend's rules: a
start-up wrapper, npu-smi, no visible NPU, a rank beyond the NPUs, the SoC, versions, the
additional_config checks of ascend_config.py only; the shared words; the KV-transfer module rule
with its words, and without them the default) and an override; the LEGACY files: each release's
formats that the newest code and the newer releases no longer have, pinned to the release's commit,
one of them given a severity by an override; then the four files main wrote are linted by the real
loader and each sample is recognised by its own entry.
Usage: catalog_vllm_ascend_extractor_fixture_test.py REPO_ROOT NPU_DOCTOR
"""
import os
import sys
import tempfile

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fixture_tree import (commit_files, entries_by_format, expect, finish, found_by_own_entry,  # noqa: E402
                          line_of, lint, make_repo, stand_in_repository)
import catalog_lib as L  # noqa: E402
import extract_vllm_ascend as X  # noqa: E402
import fw_common  # noqa: E402

# Fixture files shaped like vllm-project/vllm-ascend (its layout and call shapes; every message
# is invented for the test and says "fixture").
PLATFORM_PY = '''# Fixture shaped like vllm_ascend/platform.py; the messages are invented.
import logging

logger = logging.getLogger(__name__)


class NPUPlatform:
    @classmethod
    def fixture_device(cls, rank, visible, soc):
        if not visible:
            logger.error("Fixture rank %d kept zero devices found or specified in ASCEND_RT_VISIBLE_DEVICES", rank)
        if rank >= len(visible):
            raise ValueError(f"Fixture local_rank {rank} is out of bounds for the available NPU devices")
        if soc is None:
            raise RuntimeError("Fixture query npu-smi returned no card for device {}".format(rank))
        raise NotImplementedError(f"Fixture graph pass cannot run on soc_version {soc}")
'''

ASCEND_CONFIG_PY = '''# Fixture shaped like vllm_ascend/ascend_config.py; the messages are invented.
class AscendConfig:
    def __init__(self, additional_config):
        size = additional_config.get("fixture_tp_size", 1)
        if not isinstance(size, int) or size <= 0:
            raise ValueError(f"Fixture additional_config.tp_size must be a positive integer, got {size}")
'''

UTILS_PY = '''# Fixture shaped like vllm_ascend/utils.py; the messages are invented.
import logging

logger = logging.getLogger(__name__)


def fixture_check_versions(want, have):
    if want != have:
        raise RuntimeError(f"Fixture op needs torch_npu version {want}, found {have}")


def fixture_start(engine):
    try:
        engine.start()
    except Exception:
        logger.exception("Fixture engine core failed to start.")
        raise
'''

CONNECTOR_PY = '''# Fixture shaped like vllm_ascend/distributed/kv_transfer/kv_p2p/mooncake_connector.py; invented.
import logging

logger = logging.getLogger(__name__)


def fixture_send(block, request):
    logger.error("Fixture transfer of block %s to the remote engine failed", block)
    if request.meta is None:
        raise RuntimeError(f"Fixture metadata of request {request.id} is incomplete")
'''

WORKER_PY = '''# Fixture shaped like vllm_ascend/worker/worker.py; the messages are invented.
import logging

logger = logging.getLogger(__name__)


class NPUWorker:
    def fixture_init(self, size, budget, kind, name):
        assert size > 0, "Fixture worker needs a positive fixture_tp_size"
        if not isinstance(size, int):
            raise ValueError("Fixture tp_size must be a positive integer here, got %s" % size)
        if budget < 0:
            msg = f"Fixture NPU memory is exhausted by the fixture graph ({budget})"
            raise RuntimeError(msg)
        if kind is None:
            raise ValueError(f"Unknown {kind}: {name}")
        logger.critical("Fixture worker %s failed its card health probe and stops", name)
        logger.warning("Fixture warning that is never an error line")
'''


def left_out(path):
    return f'''# A file extract_vllm_ascend.py does not read; the message is invented.
def fixture_left_out():
    raise RuntimeError("Fixture message of {path} that is not read")
'''


CURRENT = {
    "vllm_ascend/platform.py": PLATFORM_PY,
    "vllm_ascend/ascend_config.py": ASCEND_CONFIG_PY,
    "vllm_ascend/utils.py": UTILS_PY,
    "vllm_ascend/distributed/kv_transfer/kv_p2p/mooncake_connector.py": CONNECTOR_PY,
    "vllm_ascend/worker/worker.py": WORKER_PY,
    **{path: left_out(path) for path in ("tests/ut/test_fixture_platform.py", "examples/fixture_offline.py",
                                         "vllm_ascend/ops/test_fixture_op.py", "tools/fixture_tool.py", "setup.py")},
}


def model_runner(*messages):
    """vllm_ascend/worker/model_runner_v1.py of a release: one raise per message."""
    body = "".join(f'''    if step == {n}:
        raise RuntimeError("{m}")
''' for n, m in enumerate(messages))
    return "# Fixture shaped like vllm_ascend/worker/model_runner_v1.py; the messages are invented.\n" \
        "def fixture_step(step):\n" + body


RUNNER = "vllm_ascend/worker/model_runner_v1.py"
KEPT = "Fixture model runner lost its fixture graph in every release"
ONLY_V0_7 = "Fixture model runner of v0.7.3 could not find its fixture graph"
UNTIL_V0_9 = "Fixture model runner of v0.7.3 and v0.9.1 dropped its fixture cache"
ONLY_V0_9 = "Fixture model runner of v0.9.1 saw a stale fixture block table"
ONLY_V0_11 = "Fixture model runner of v0.11.0 rebuilt its fixture graph twice"
# The releases, oldest first: tag -> model_runner_v1.py's messages.
RELEASES = [("v0.7.3", (KEPT, ONLY_V0_7, UNTIL_V0_9)), ("v0.9.1", (KEPT, UNTIL_V0_9, ONLY_V0_9)),
            ("v0.11.0", (KEPT, ONLY_V0_11))]

CONNECTOR = "vllm_ascend/distributed/kv_transfer/kv_p2p/mooncake_connector.py"
WORKER = "vllm_ascend/worker/worker.py"
CONFIG_CHECK = "Fixture additional_config.tp_size must be a positive integer, got {}"
# file -> {(format, style): (category, role, level, raised_as, path, text on its line)}; the
# legacy files' entries are pinned to their release's commit.
WANT = {
    "vllm_ascend.yaml": {
        ("Fixture rank %d kept zero devices found or specified in ASCEND_RT_VISIBLE_DEVICES", "python"):
            ("permission_device", None, "error", None, "vllm_ascend/platform.py", "zero devices"),
        ("Fixture local_rank {} is out of bounds for the available NPU devices", "python"):
            ("rank_config", None, None, ["ValueError"], "vllm_ascend/platform.py", "out of bounds"),
        ("Fixture query npu-smi returned no card for device {}", "python"):  # "...".format()
            ("driver_firmware_env", None, None, ["RuntimeError"], "vllm_ascend/platform.py", "npu-smi"),
        ("Fixture graph pass cannot run on soc_version {}", "python"):
            ("compile_op_unsupported", None, None, ["NotImplementedError"], "vllm_ascend/platform.py", "soc_version"),
        (CONFIG_CHECK, "python"):  # ascend_config.py: an option's value, not the parallel layout
            ("other", None, None, ["ValueError"], "vllm_ascend/ascend_config.py", "must be a positive"),
        ("Fixture op needs torch_npu version {}, found {}", "python"):
            ("install_version_mismatch", None, None, ["RuntimeError"], "vllm_ascend/utils.py", "torch_npu version"),
        ("Fixture engine core failed to start.", "python"):
            ("other", "wrapper", "error", None, "vllm_ascend/utils.py", "failed to start"),
        ("Fixture transfer of block %s to the remote engine failed", "python"):
            ("communication", None, "error", None, CONNECTOR, "transfer of block"),
        ("Fixture metadata of request {} is incomplete", "python"):  # kv_transfer/ but none of its words
            ("other", None, None, ["RuntimeError"], CONNECTOR, "metadata of request"),
        ("Fixture worker needs a positive fixture_tp_size", "python"):  # assert; category from the override
            ("resource", None, None, ["AssertionError"], WORKER, "assert "),
        ("Fixture tp_size must be a positive integer here, got {}", "python"):  # "..." % x; outside ascend_config.py
            ("rank_config", None, None, ["ValueError"], WORKER, "positive integer here"),
        ("Fixture NPU memory is exhausted by the fixture graph ({})", "python"):  # msg = f"..."
            ("memory", None, None, ["RuntimeError"], WORKER, "raise RuntimeError(msg)"),
        ("Fixture worker %s failed its card health probe and stops", "python"):  # critical: no level
            ("driver_firmware_env", None, None, None, WORKER, "health probe"),
        (KEPT, "python"): ("other", None, None, ["RuntimeError"], RUNNER, KEPT),
    },
    "vllm_ascend_v0_11.yaml": {(ONLY_V0_11, "python"): ("other", None, None, ["RuntimeError"], RUNNER, ONLY_V0_11)},
    "vllm_ascend_v0_9.yaml": {(UNTIL_V0_9, "python"): ("other", None, None, ["RuntimeError"], RUNNER, UNTIL_V0_9),
                              (ONLY_V0_9, "python"): ("other", None, None, ["RuntimeError"], RUNNER, ONLY_V0_9)},
    "vllm_ascend_v0_7.yaml": {(ONLY_V0_7, "python"): ("other", None, None, ["RuntimeError"], RUNNER, ONLY_V0_7)},
}
TOO_GENERIC = {("Unknown {}: {}", "python")}
FAMILY = {"vllm_ascend.yaml": "src-vllm-ascend", "vllm_ascend_v0_11.yaml": "src-vllm-ascend-v0-11",
          "vllm_ascend_v0_9.yaml": "src-vllm-ascend-v0-9", "vllm_ascend_v0_7.yaml": "src-vllm-ascend-v0-7"}
TAG = {"vllm_ascend_v0_11.yaml": "v0.11.0", "vllm_ascend_v0_9.yaml": "v0.9.1", "vllm_ascend_v0_7.yaml": "v0.7.3"}


def overrides():
    """A category for a current entry; a severity and a title for a legacy one (one overrides
    file serves the four files: each takes the ids of its family)."""
    legacy = {"severity": "warning", "title": {"en": "vLLM-Ascend v0.7.3: fixture graph not found",
                                               "zh": "vLLM-Ascend v0.7.3：找不到 fixture 图"}}
    entries = {f"src-vllm-ascend.{L.slug('Fixture worker needs a positive fixture_tp_size', 'python')}":
               {"category": "resource"},
               f"src-vllm-ascend-v0-7.{L.slug(ONLY_V0_7, 'python')}": legacy}
    return yaml.safe_dump({"entries": entries}, allow_unicode=True)


def source_in(name, path):
    """The text of `path` at the commit the file `name` is read from."""
    return CURRENT.get(path) or model_runner(*dict(RELEASES).get(TAG.get(name), (KEPT,)))


def sample_start(fmt, raised_as, level, path, line):
    """What a sample line starts with: the exception's class, or vLLM's logging prefix."""
    words = L.pieces(fmt, "python")[0][0]
    if raised_as:
        return f"{raised_as[0]}: {words}"
    return f"{'ERROR' if level else 'CRITICAL'} 03-02 10:55:12 [{os.path.basename(path)}:{line}] {words}"


with tempfile.TemporaryDirectory() as tmp:
    repo = os.path.join(tmp, "vllm-project+vllm-ascend", "repo")
    commits = {}
    for tag, messages in RELEASES:
        files = {RUNNER: model_runner(*messages)}
        commits[tag] = make_repo(repo, files, tag) if not commits else commit_files(repo, files, tag)
    head = commit_files(repo, {**CURRENT, RUNNER: model_runner(KEPT)})
    root = stand_in_repository(os.path.join(tmp, "npu-doctor"),
                               {"scripts/catalog/overrides/vllm_ascend.yaml": overrides()}, fw_common)
    X.MIRROR = repo
    X.main()

    messages = os.path.join(root, "kb", "messages")
    expect("files written", sorted(os.listdir(messages)), sorted(WANT))
    samples = {}
    for name, want in WANT.items():
        if not os.path.exists(os.path.join(messages, name)):
            continue
        header, by_key = entries_by_format(os.path.join(messages, name))
        commit = commits.get(TAG.get(name), head)
        current = name == "vllm_ascend.yaml"
        expect(f"{name}: family, commit, formats found, skipped",
               (header["family"], header["source"]["commit"], header["source"]["formats_found"],
                header["source"].get("skipped")),
               (FAMILY[name], commit, len(want) + (len(TOO_GENERIC) if current else 0),
                {"too_generic": len(TOO_GENERIC) if current else 0}))
        expect(f"{name}: entries (tests, examples, tools, setup.py, warnings, older releases' twins left out)",
               sorted(by_key), sorted(want))
        for key, (cat, role, level, raised_as, path, text) in want.items():
            e = by_key.get(key)
            if not e:
                continue
            line = line_of(source_in(name, path), text)
            expect(f"{e['id']}: category, role, level, raised_as",
                   (e.get("category", header["defaults"]["category"]), e.get("role"), e.get("level"),
                    e.get("raised_as")), (cat, role, level, raised_as))
            expect(f"{e['id']}: reference pinned to the commit and line",
                   e["references"], [L.blob_url("vllm-project/vllm-ascend", commit, path, line)])
            expect(f"{e['id']}: sample of its kind",
                   e["samples"]["match"][0].startswith(sample_start(key[0], raised_as, level, path, line)), True)
            samples[e["id"]] = e["samples"]["match"][0]
        if name == "vllm_ascend_v0_7.yaml":
            e = by_key.get((ONLY_V0_7, "python"), {})
            expect("the legacy override's severity and title", (e.get("severity"), e.get("title", {}).get("en")),
                   ("warning", "vLLM-Ascend v0.7.3: fixture graph not found"))

    lint(messages, sum(len(w) for w in WANT.values()))
    found_by_own_entry(messages, samples, tmp)

finish()
