#!/usr/bin/env python3
"""extract_vllm.py (vLLM's catalogue, docs/kb-messages.md) run end to end, its main() unchanged,
on a fixture source tree shaped like vllm-project/vllm: the upstream commit read and not the
fork's newer HEAD; the files in scope (platform interface, engine, executor, workers,
configuration, distributed, utilities) and those left out (CUDA/XPU platform and worker files,
a vendor KV connector, the API server, a test); raise with a literal, an f-string, "..." % x,
"...".format(), a concatenation, a message held in a variable; assert with a message;
logger.error over two lines of adjacent literals, logger.exception, logger.critical (one with a
gate word, one left out as ungated); parser.error, warnings, comments and docstrings left out; a
message both logged and raised; too-generic texts, Python's own exception text and a message
that is not a literal left out; an entry shadowed by a longer twin; the categories (vLLM's
rules, the shared words, the distributed module's rule and its words, an override, a
family override, a curated entry's category), roles and levels; then the file main wrote is
linted by the real loader and each sample is recognised by its own entry.
Usage: catalog_vllm_extractor_fixture_test.py REPO_ROOT NPU_DOCTOR
"""
import os
import sys
import tempfile

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fixture_tree import (commit_files, entries_by_format, expect, finish, found_by_own_entry,  # noqa: E402
                          line_of, lint, make_repo, stand_in_repository)
import catalog_lib as L  # noqa: E402
import extract_vllm as X  # noqa: E402
import fw_common  # noqa: E402

# Fixture files shaped like vllm-project/vllm (its layout and call shapes; every message is
# invented for the test and says "fixture").
INTERFACE_PY = '''# Fixture shaped like vllm/platforms/interface.py; the messages are invented.
import logging

logger = logging.getLogger(__name__)


class Platform:
    device_name = "fixture"

    @classmethod
    def fixture_graph_hook(cls):
        raise NotImplementedError(f"Fixture platform {cls.device_name} has no graph hook of its own")

    @classmethod
    def fixture_kernel(cls, size):
        """Says raise RuntimeError("fixture docstring message") but is no call."""
        # raise ValueError("fixture commented-out message")
        if size % 16:
            raise ValueError("Fixture block size %d does not fit the fixture kernel" % size)
'''

CORE_PY = '''# Fixture shaped like vllm/v1/engine/core.py; the messages are invented.
import logging

logger = logging.getLogger(__name__)


class EngineCore:
    def run_busy_loop(self):
        try:
            self.step()
        except Exception:
            logger.exception("Fixture engine core hit an exception in its busy loop.")
            raise

    def shutdown(self):
        logger.critical("Fixture shutdown signal failed to reach the front-end process.")
        logger.critical("Fixture engine core is leaving now.")
        logger.warning("Fixture warning that is never an error line")
'''

EXECUTOR_PY = '''# Fixture shaped like vllm/v1/executor/multiproc_executor.py; the messages are invented.
import logging

logger = logging.getLogger(__name__)


def monitor_workers(proc):
    logger.error(
        "Fixture worker proc %s died unexpectedly (exit code: %s), "
        "shutting the fixture executor down.",
        proc.name, proc.exitcode)


def collect(rank):
    msg = f"Fixture worker {rank} did not receive response from the fixture engine"
    raise TimeoutError(msg)


def close(worker):
    logger.error(f"Fixture pipe of worker {worker} closed before its first output")
    raise RuntimeError(f"Fixture pipe of worker {worker} closed before its first output")
'''

PARALLEL_PY = '''# Fixture shaped like vllm/config/parallel.py; the messages are invented.
class ParallelConfig:
    def fixture_verify(self, world_size, available):
        if world_size > available:
            raise ValueError(f"Fixture world size ({world_size}) would be greater than the number of "
                             f"available devices ({available})")
        assert self.fixture_tensor_parallel_size % 2 == 0, "Fixture tensor parallel size must be even for the mesh"
        if self.max_model_len > 4096:
            raise ValueError("Fixture max_model_len {} exceeds the fixture window {}".format(self.max_model_len, 4096))
'''

ARG_UTILS_PY = '''# Fixture shaped like vllm/engine/arg_utils.py; the messages are invented.
def fixture_parse(parser, args):
    if not args.fixture:
        parser.error("Fixture parser message that argparse prints, not a logger")
    raise ValueError(f"Fixture architecture {args.arch}: transformers does not recognize it")
'''

PARALLEL_STATE_PY = '''# Fixture shaped like vllm/distributed/parallel_state.py; the messages are invented.
import logging

logger = logging.getLogger(__name__)


def fixture_barrier(group):
    logger.error("Fixture barrier of group %s broke", group.name)


def fixture_group(name):
    raise RuntimeError("Fixture group " + name + " was never built in this process")
'''

MEM_UTILS_PY = '''# Fixture shaped like vllm/utils/mem_utils.py; the messages are invented.
import logging

logger = logging.getLogger(__name__)


def fixture_budget(util, need, have):
    if util > 1:
        raise ValueError(f"Fixture gpu_memory_utilization {util} leaves no room for the fixture cache")
    logger.error("Fixture KV pool needs %d pages but holds %d", need, have)
    raise ImportError("Fixture extension vllm._fixture_C is missing from this build")
'''

GPU_WORKER_PY = '''# Fixture shaped like vllm/v1/worker/gpu_worker.py; the messages are invented.
import logging

logger = logging.getLogger(__name__)


class Worker:
    def init_device(self, dev, mask):
        if dev not in mask:
            logger.error("Fixture device %d is not visible in the fixture mask %s", dev, mask)
        raise FixtureWorkerAbort("Fixture worker stopped before its first step")

    def fixture_stage(self, name, err):
        if err is None:
            raise RuntimeError(f"{name} failed")
        if not hasattr(self, name):
            raise AttributeError(f"{type(self).__name__} object has no attribute {name}")
        if isinstance(err, str):
            raise ValueError(err)
        logger.error("[%s] fixture stage %s stalled", self.rank, name)
        logger.error("fixture stage %s stalled", name)
'''


def left_out(text):
    return f'''# A file extract_vllm.py does not read; the message is invented.
def fixture_left_out():
    raise RuntimeError("{text}")
'''


IN_SCOPE = {
    "vllm/platforms/interface.py": INTERFACE_PY,
    "vllm/v1/engine/core.py": CORE_PY,
    "vllm/v1/executor/multiproc_executor.py": EXECUTOR_PY,
    "vllm/config/parallel.py": PARALLEL_PY,
    "vllm/engine/arg_utils.py": ARG_UTILS_PY,
    "vllm/distributed/parallel_state.py": PARALLEL_STATE_PY,
    "vllm/utils/mem_utils.py": MEM_UTILS_PY,
    "vllm/v1/worker/gpu_worker.py": GPU_WORKER_PY,
}
OUT_OF_SCOPE = {path: left_out(f"Fixture message of {path} that is not read")
                for path in ("vllm/platforms/cuda.py", "vllm/v1/worker/xpu_worker.py",
                             "vllm/distributed/kv_transfer/kv_connector/v1/mooncake/mooncake_connector.py",
                             "vllm/entrypoints/openai/api_server.py", "vllm/v1/worker/test_fixture_worker.py",
                             "vllm/setup_fixture.py")}
# The fork's own commit on top of the upstream one: not read.
FORK_ONLY = {"vllm/v1/engine/core.py": CORE_PY + '''
    def fork_only(self):
        raise RuntimeError("Fixture message of the fork's own commit")
'''}

WORKER = "vllm/v1/worker/gpu_worker.py"
PARALLEL = "vllm/config/parallel.py"
EXECUTOR = "vllm/v1/executor/multiproc_executor.py"
BLOCK_SIZE = "Fixture block size {} does not fit the fixture kernel"  # % became {}
KV_POOL = "Fixture KV pool needs %d pages but holds %d"
PIPE = "Fixture pipe of worker {} closed before its first output"
# (format, style) -> (category, role, level, raised_as, path, text on its line, how the sample starts:
# {at} is the file's name and the line)
WANT = {
    ("Fixture platform {} has no graph hook of its own", "python"):  # NotImplementedError; family override
        ("compile_op_unsupported", None, None, ["NotImplementedError"], "vllm/platforms/interface.py",
         "Fixture platform", "NotImplementedError: Fixture platform"),
    (BLOCK_SIZE, "python"):  # "..." % size; its override
        ("compile_op_unsupported", None, None, ["ValueError"], "vllm/platforms/interface.py",
         "Fixture block size", "ValueError: Fixture block size"),
    ("Fixture engine core hit an exception in its busy loop.", "python"):
        ("other", "wrapper", "error", None, "vllm/v1/engine/core.py", "hit an exception",
         "ERROR 03-02 10:55:12 [{at}] Fixture engine core"),
    ("Fixture shutdown signal failed to reach the front-end process.", "python"):  # critical: no level
        ("communication", None, None, None, "vllm/v1/engine/core.py", "Fixture shutdown signal",
         "CRITICAL 03-02 10:55:12 [{at}] Fixture shutdown"),
    ("Fixture worker proc %s died unexpectedly (exit code: %s), shutting the fixture executor down.", "python"):
        ("other", "symptom", "error", None, EXECUTOR, "logger.error(", "ERROR 03-02 10:55:12 [{at}]"),
    ("Fixture worker {} did not receive response from the fixture engine", "python"):  # msg = f"..."
        ("communication", None, None, ["TimeoutError"], EXECUTOR, "raise TimeoutError(msg)", "TimeoutError: Fixture"),
    (PIPE, "python"):  # logged and raised: any line; level error by the gate policy; the raise read first
        ("other", None, "error", None, EXECUTOR, "raise RuntimeError(f",
         f"ERROR 03-02 10:55:12 [multiproc_executor.py:{line_of(EXECUTOR_PY, 'logger.error(f')}] Fixture pipe"),
    ("Fixture world size ({}) would be greater than the number of available devices ({})", "python"):
        ("rank_config", None, None, ["ValueError"], PARALLEL, "raise ValueError(", "ValueError: Fixture world"),
    ("Fixture tensor parallel size must be even for the mesh", "python"):
        ("rank_config", None, None, ["AssertionError"], PARALLEL, "assert ", "AssertionError: Fixture"),
    ("Fixture max_model_len {} exceeds the fixture window {}", "python"):  # "...".format()
        ("compile_shape", None, None, ["ValueError"], "vllm/config/parallel.py", ".format(", "ValueError: Fixture max"),
    ("Fixture architecture {}: transformers does not recognize it", "python"):
        ("install_version_mismatch", None, None, ["ValueError"], "vllm/engine/arg_utils.py", "transformers",
         "ValueError: Fixture architecture"),
    ("Fixture barrier of group %s broke", "python"):  # distributed/ and a word of its rule
        ("communication", None, "error", None, "vllm/distributed/parallel_state.py", "barrier of",
         "ERROR 03-02 10:55:12 [{at}]"),
    ("Fixture group {} was never built in this process", "python"):  # distributed/ but none of its words
        ("other", None, None, ["RuntimeError"], "vllm/distributed/parallel_state.py", '"Fixture group "',
         "RuntimeError: Fixture group"),
    ("Fixture gpu_memory_utilization {} leaves no room for the fixture cache", "python"):
        ("memory", None, None, ["ValueError"], "vllm/utils/mem_utils.py", "gpu_memory", "ValueError: Fixture gpu"),
    (KV_POOL, "python"):  # the curated entry's category
        ("memory", None, "error", None, "vllm/utils/mem_utils.py", "KV pool", "ERROR 03-02 10:55:12 [{at}]"),
    ("Fixture extension vllm._fixture_C is missing from this build", "python"):
        ("install_version_mismatch", None, None, ["ImportError"], "vllm/utils/mem_utils.py", "ImportError",
         "ImportError: Fixture extension"),
    ("Fixture device %d is not visible in the fixture mask %s", "python"):
        ("rank_config", None, "error", None, WORKER, "not visible", "ERROR 03-02 10:55:12 [{at}]"),
    ("[%s] fixture stage %s stalled", "python"):
        ("other", None, "error", None, WORKER, "[%s] fixture stage", "ERROR 03-02 10:55:12 [{at}]"),
}
# Read, but not in the file, and why (the header counts each).
TOO_GENERIC = {("{} failed", "python"), ("{} object has no attribute {}", "python")}
SHADOWED = {("fixture stage %s stalled", "python")}  # every line of it is "[%s] fixture stage %s stalled"'s
UNGATED = {("Fixture engine core is leaving now.", "python"),  # CRITICAL: no level, no gate word
           ("Fixture worker stopped before its first step", "python")}  # a class without a gate word


def overrides(family):
    """An override of one entry (category and texts) and a family override (texts by a regex)."""
    texts = {"title": {"en": "vLLM: fixture block size", "zh": "vLLM：fixture 块大小"},
             "cause": {"en": "Fixture cause.", "zh": "Fixture 原因。"},
             "remedies": [{"en": "Fixture remedy.", "zh": "Fixture 措施。"}]}
    entries = {f"{family}.{L.slug(BLOCK_SIZE, 'python')}": dict(texts, category="compile_op_unsupported")}
    families = [{"match": "^Fixture platform ", "cause": texts["cause"], "remedies": texts["remedies"]}]
    return yaml.safe_dump({"entries": entries, "families": families}, allow_unicode=True)


CURATED = '''# A hand-written entry that recognises one fixture line: its category wins.
schema: npu-doctor/kb/v1
family: fixture
entries:
  - id: fixture.kv-pool
    category: memory
    title: {en: "Fixture KV pool", zh: "Fixture KV 池"}
    match: ['Fixture KV pool needs \\d+ pages']
'''

with tempfile.TemporaryDirectory() as tmp:
    repo = os.path.join(tmp, "RhizoNymph+vllm", "repo")
    upstream = make_repo(repo, {**IN_SCOPE, **OUT_OF_SCOPE})
    commit_files(repo, FORK_ONLY)
    # main() writes ROOT/kb/messages/vllm.yaml from ROOT's overrides and curated entries.
    root = stand_in_repository(os.path.join(tmp, "npu-doctor"), {
        "scripts/catalog/overrides/vllm.yaml": overrides("src-vllm"), "kb/fixture_curated.yaml": CURATED}, fw_common)
    X.MIRROR, X.UPSTREAM = repo, upstream
    X.main()

    header, by_key = entries_by_format(os.path.join(root, "kb", "messages", "vllm.yaml"))
    expect("source", header["source"],
           {"component": "vLLM", "repo": "vllm-project/vllm", "commit": upstream,
            "formats_found": len(WANT) + len(TOO_GENERIC) + len(SHADOWED) + len(UNGATED),
            "skipped": {"too_generic": len(TOO_GENERIC), "shadowed": len(SHADOWED), "ungated": len(UNGATED)}})
    expect("entries (out-of-scope, test, fork-only, warning, parser.error, comment, docstring, non-literal left out)",
           sorted(by_key), sorted(WANT))
    default = header["defaults"]["category"]
    for key, (cat, role, level, raised_as, path, text, start) in WANT.items():
        e = by_key.get(key)
        if not e:
            continue
        source = IN_SCOPE[path]
        expect(f"{e['id']}: category, role, level, raised_as",
               (e.get("category", default), e.get("role"), e.get("level"), e.get("raised_as")),
               (cat, role, level, raised_as))
        expect(f"{e['id']}: reference pinned to the upstream commit and line",
               e["references"], [L.blob_url("vllm-project/vllm", upstream, path, line_of(source, text))])
        at = f"{os.path.basename(path)}:{line_of(source, text)}"
        expect(f"{e['id']}: sample of its kind", e["samples"]["match"][0].startswith(start.format(at=at)), True)
    block = by_key.get((BLOCK_SIZE, "python"), {})
    expect("the override's title and texts", (block.get("title", {}).get("en"), "cause" in block, "remedies" in block),
           ("vLLM: fixture block size", True, True))
    expect("the family override's texts", "cause" in by_key.get(next(iter(WANT)), {}), True)

    lint(os.path.join(root, "kb", "messages", "vllm.yaml"), len(WANT))
    found_by_own_entry(os.path.join(root, "kb", "messages", "vllm.yaml"),
                       {e["id"]: e["samples"]["match"][0] for e in by_key.values()}, tmp)

finish()
