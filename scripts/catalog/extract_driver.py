#!/usr/bin/env python3
"""The driver's user-space libraries' ERROR-level messages -> kb/messages/driver.yaml (family src-driver).

Source: hicann/driver (a snapshot brought with `fetch`, read with git).
What is read (and why):
  src/ascend_hal            libascend_hal: HAL, SVM/devmm memory, device manager (devmng/DMS),
                            DSMI/device monitor, HDC, TS driver (trs), queues, buffers, event
                            scheduling, profiling channels, RoCE/HCCP user library, bbox,
                            msnpureport: what prints `[ERROR] DRV(...)` (and HCCP/ROCE/IDEDD/BBOX)
                            lines into the application's plog
  src/custom/network        hccn_tool and the network DSMI
  src/custom/dev_prod/user/dsmi_product_ext, src/custom/lqdrv/user
Left out: src/custom/dev_prod/user/dcmi and npucli (DCMI and npu-smi: kb/messages/dcmi.yaml,
another extractor), src/sdk_driver and the other kernel parts (kernel modules log to dmesg, not to
the application's logs; the curated entries cover the dmesg lines users meet), tests, examples.

ERROR level means: DRV_ERR / DRV_RUN_ERR / DRV_EMERG / DRV_ALERT (and every macro over them:
DEVMM_DRV_ERR, svm_err, trs_err, DMS_ERR, HDC_LOG_ERR, ...), dlog_error / Dlog(.., DLOG_ERROR),
UsrDlog / usr_dlog / usr_sub_dlog at ERROR_LEVEL (HCCP, ROCE, NET), syslog(LOG_ERR, ...),
MSNPU_PRINT_ERROR, and REPORT_INNER_ERR_MSG (the error manager).

Left out (counted in the file's `skipped`): formats with no literal of 4 characters
(too_generic) and formats whose words only say that something failed ("failed %d",
"retCode=%#x."): they would match almost any error line (content_free).

Usage: extract_driver.py [--repo DIR] [--out FILE] [--dump-tsv FILE]
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import c_macro_expand as cme  # noqa: E402
import cann_entries  # noqa: E402
import cann_source  # noqa: E402
import catalog_lib as lib  # noqa: E402

REPO_NAME = "hicann/driver"
DEFAULT_REPO = "/work/.mirror/hicann+driver/repo"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

INCLUDED = ("src/ascend_hal/", "src/custom/network/", "src/custom/dev_prod/user/", "src/custom/lqdrv/user/", "pkg_inc/")
OTHER_EXTRACTOR = ("src/custom/dev_prod/user/dcmi/", "src/custom/dev_prod/user/npucli/")
HEADERS_ONLY = ("pkg_inc/",)


def keep(path):
    if not path.startswith(INCLUDED):
        return False
    parts = path.split("/")
    return not any(p in ("test", "tests", "ut", "st", "stub", "stubs", "examples") for p in parts)


E, O = "error", "other"
LEVEL_WORDS = {"DLOG_ERROR": E, "LOG_ERR": E, "ERROR_LEVEL": E, "RT_LOG_ERROR": E,
               "DLOG_WARN": O, "DLOG_INFO": O, "DLOG_DEBUG": O, "DLOG_EVENT": O, "LOG_WARNING": O, "LOG_INFO": O,
               "LOG_DEBUG": O, "LOG_NOTICE": O, "LOG_CRIT": O, "WARN_LEVEL": O, "INFO_LEVEL": O, "DEBUG_LEVEL": O,
               "EVENT_LEVEL": O}

SINKS = [
    # The driver's own log macro: the host prints `[ERROR] DRV(pid,proc):time [file:line][ascend]
    # [curpid:pid,tid][drv][<module>][<func>]message`; the module is the HAL_MODULE_TYPE_* argument.
    cme.Sink("DRV_ERR", fmt=1, module=("arg", 0)),
    cme.Sink("DRV_RUN_ERR", fmt=1, module=("arg", 0)),
    cme.Sink("DRV_EMERG", fmt=1, module=("arg", 0)),
    cme.Sink("DRV_ALERT", fmt=1, module=("arg", 0)),
    cme.Sink("DRV_WARN", fmt=1, level=("const", O), module=("arg", 0)),
    cme.Sink("DRV_INFO", fmt=1, level=("const", O), module=("arg", 0)),
    cme.Sink("DRV_DEBUG", fmt=1, level=("const", O), module=("arg", 0)),
    cme.Sink("DRV_CRIT", fmt=1, level=("const", O), module=("arg", 0)),
    cme.Sink("DRV_NOTICE", fmt=1, level=("const", O), module=("arg", 0)),
    cme.Sink("DRV_EVENT", fmt=1, level=("const", O), module=("arg", 0)),
    cme.Sink("dlog_error", fmt=1, module=("arg", 0)),
    cme.Sink("dlog_warn", fmt=1, level=("const", O), module=("arg", 0)),
    cme.Sink("dlog_info", fmt=1, level=("const", O), module=("arg", 0)),
    cme.Sink("dlog_debug", fmt=1, level=("const", O), module=("arg", 0)),
    cme.Sink("dlog_event", fmt=1, level=("const", O), module=("arg", 0)),
    cme.Sink("Dlog", fmt=2, level=("arg", 1), module=("arg", 0)),
    cme.Sink("DlogSub", fmt=3, level=("arg", 2), module=("arg", 0)),
    cme.Sink("DlogRecord", fmt=2, level=("arg", 1), module=("arg", 0)),
    cme.Sink("UsrDlog", fmt=2, level=("arg", 1), module=("arg", 0)),
    cme.Sink("usr_dlog", fmt=2, level=("arg", 1), module=("arg", 0)),
    cme.Sink("usr_sub_dlog", fmt=3, level=("arg", 2), module=("arg", 0)),
    cme.Sink("syslog", fmt=1, level=("arg", 0), module=("const", "DRV")),
    cme.Sink("MSNPU_PRINT_ERROR", fmt=0, module=("const", "msnpureport")),
    cme.Sink("REPORT_INNER_ERR_MSG", fmt=1),
]


def hal_module_strings(files):
    """HAL_MODULE_TYPE_X -> the short name the DRV line prints ([drv][devmm])."""
    text = files.get("src/ascend_hal/dmc/logdrv/drv_log_user_kernel_api.c", "")
    return dict(re.findall(r"\[(HAL_MODULE_TYPE_\w+)\]\s*=\s*\"([^\"]+)\"", text))


def default_module(path):
    if path.startswith("src/ascend_hal/roce/"):
        return "ROCE"
    if path.startswith("src/ascend_hal/msnpureport/"):
        return "msnpureport"
    return "DRV"


def collect(repo):
    files = cann_source.read_tree(repo, keep)
    hal = hal_module_strings(files)
    formats, non_literal = cann_source.collect(
        files, SINKS, LEVEL_WORDS, default_module, extra_aliases={}, module_names=set(hal) | {"msnpureport"},
        exclude_from_calls=lambda p: p.startswith(HEADERS_ONLY + OTHER_EXTRACTOR))
    return formats, non_literal, hal

# ---------------------------------------------------------------------------------------------
# Category and role (docs/kb-authoring.md). Messages first, then the HAL module, then the path.


R = cann_entries.Rule
NULLISH = r"\bnull\b|nullptr|null pointer|is NULL|\bptr is\b"
DEVICE_ID = r"(dev(ice)?_?id|devid|deviceid|phy_?id|logic\w*_?id|vfid|chip_?id|udevid)"

DRIVER_RULES = [
    R("null-check", "other", NULLISH),
    # Which device: a device id outside what the system has (drv.2, 107001).
    R("device-id", "rank_config", r"(invalid|illegal|out of range|exceed\w*|not (in|within) (the )?range|wrong)\W+(\w+\W+){0,3}?" + DEVICE_ID
      + r"|" + DEVICE_ID + r"\W+(\w+\W+){0,3}?(is )?(invalid|illegal|out of range|exceed\w*|not (in|within)|over)\b"
      + r"|visible dev|ASCEND_RT_VISIBLE_DEVICES"),
    # The container or user cannot reach the device (drv.87, drv.88, EL0007).
    R("permission", "permission_device", r"permission|not permitted|no privilege|\beperm\b|\beacces\b|operation not allowed|"
      r"device (is )?(busy|occupied|in use)|(occupied|used|opened) by (another|other)|resource busy|\bebusy\b|no (valid |available )?device|device not found|devices? (is |are )?not (exist|present)|cannot find (the )?device|container"),
    # The device nodes (/dev/davinci_manager, /dev/davinciN, /dev/devmm_svm, /dev/hisi_hdc) cannot be
    # opened: in practice a container without the devices or a user outside HwHiAiUser.
    R("open-device-node", "permission_device", r"\bopen\w* (the )?(device manager|devdrv_device manager|dev(ice)? file|device node|davinci\w*|devmm_svm|hisi_hdc|device)\b.{0,20}(fail|err)|\bfail\w* to open (the )?(device|dev)\b"),
    # Memory: device or host memory that could not be had (drv.6, 207001, EL0004).
    # Streams, events, notifies, sq/cq, ids (drv.14, drv.47-50).
    R("resources", "resource", r"(no|not enough|insufficient|exhausted|run out of)\s+(\w+\s+)?(stream|event|notify|sq|cq|model|id|resource|cdq|res)s?\b|resource alloc|res(ource)? (id )?alloc\w* fail|(stream|event|notify|\bsq\b|\bcq\b|\bid\b)\w* (id )?(alloc|apply|create)\w*\W+(\w+\W+){0,2}?fail|\b(alloc\w*|apply\w*)\W+(\w+\W+){0,3}?(stream|event|notify|sq|cq|ids?|token ?ids?|res\w*)\b.{0,30}(fail|err)|no res\b|\bres\W+(\w+\W+)?(is )?(exhausted|used up)|queue (is )?full|too many"),
    # Memory: device or host memory that could not be had (drv.6, 207001, EL0004).
    R("out-of-memory", "memory", r"out of (\w+ )?memory|\boom\b|\benomem\b|insufficient (device |host )?memory|not enough (device |host )?memory|no (enough|available|free) memory|memory (is )?(exhausted|insufficient|not enough)"
      r"|\b(malloc|calloc|realloc|zalloc|kzalloc|kmalloc)\w*\b.{0,40}(fail|err)|\w+_(malloc|calloc|zalloc)\b.{0,40}(fail|err)"
      r"|\b(alloc\w*|allocat\w*)\W+(\w+\W+){0,3}?(mem\w*|va|buff\w*|buf|page\w*|heap|space|pool|block|mbuf|mz)\b.{0,40}(fail|err)"
      r"|\b(mem\w*|va|buff\w*|buf|page|heap|mbuf)\W+(\w+\W+){0,2}?(alloc\w*)\W+(\w+\W+){0,2}?(fail|err)|hal_?mem_?alloc|mmap\w*\W+(\w+\W+){0,2}?fail|\bnew\b.{0,30}fail|heap.{0,30}(fail|full|no space)|no space"),
    # Links and the network stack (RoCE, HCCP, hccn, UB).
    R("network", "communication", r"\broce\b|\brdma\b|\bqp\b|\bcq ?e\b|link (is )?(down|fail|error)|port (is )?down|\bhccs\b|\bnetwork\b|socket|\bip\b|\bmac\b|\bgid\b|\blldp\b|\bpfc\b|\bdcqcn\b|\bub\b|urma|jetty|\bnic\b|optical|\bsfp\b|\bping\b|\barp\b|\bvlan\b|\btls\b|\bnetmask\b|\bgateway\b|\bip route"),
    # Device faults and the host-device channel: the usual fix is the driver, firmware or hardware.
    R("device-fault", "driver_firmware_env", r"heartbeat|device (is )?(lost|down|abnormal|hang|not ready|fault\w*|reset|dead|offline)|\becc\b|\buce\b|\bras\b|\bhbm\b|pcie|\bbus\b|poison|hardware|firmware|\bbios\b|\bimu\b|\bts\b.{0,20}(fault|dead|abnormal|exception)|timeout|timed out|time out|hdc|upgrade|version|\bsmmu\b|page fault|flash|power|temperature|voltage|\baer\b"),
    R("not-supported", "driver_firmware_env", r"not support|unsupport"),
    R("invalid-value", "other", r"\binvalid\b|illegal|must be|should be|out of range|not in range|check \w* ?param|\bparam\w*\b.{0,20}(err|wrong)|is (too )?(large|small|big)|mismatch"),
    # A C library string or memory call failing inside the driver: nothing for the user.
    R("internal-call", "other", r"\b(memcpy_s|memset_s|strcpy_s|strncpy_s|strcat_s|strncat_s|sprintf_s|snprintf_s|sscanf_s|vsnprintf_s|strtol|strtoul|atoi|memmove_s)\b"),
    # devmm (SVM) is device memory management: its call failures are what an allocation failure looks like.
    R("devmm", "memory", r"^HAL_MODULE_TYPE_DEVMM$", on="module"),
    R("ioctl-call", "driver_firmware_env", r"ioctl|\bhal[A-Z]\w*|\bdrv[A-Z]\w*|\bdsmi_\w+|\bdms_\w+|open .{0,30}(fail|err)|mmap|\bdevdrv"),
]

WRAPPER = (r"\b(fail\w*|error|err)\b\W.{0,80}\b(ret|retcode|ret_code|result|errcode|error ?code|drvretcode|drv_ret|status|rc|errno|err)\b\s*(is\s*)?[=:\[(]"
           r"|\bcall(ing|ed)?\b.{0,60}\bfail|\bexecut\w* fail|\bfail\w*\W*$|\bret(code)?\s*[=:]\s*X")
WRAPPER_UNLESS = (r"time ?out|timed out|out of memory|not support|unsupport|invalid|exceed|too many|no (enough|available)|insufficient|"
                  r"permission|lost|overflow|exception|\bfull\b|mismatch|not match|not found|not exist|illegal|busy|occupied|null|"
                  r"\balloc|malloc|heartbeat|abort|must|should|out of range|\bdown\b|not permitted")

# HAL modules whose failures point at one kind of fix when the words do not.
MODULE_DEFAULTS = {
    "HAL_MODULE_TYPE_DEVMM": "memory",          # svm/devmm: device memory management
    "HAL_MODULE_TYPE_NET": "communication", "ROCE": "communication", "HCCP": "communication", "NET": "communication",
    # Device management, the host-device channel, the TS driver, faults, upgrades: a driver,
    # firmware or device problem when the words say nothing more.
    "HAL_MODULE_TYPE_HDC": "driver_firmware_env", "HAL_MODULE_TYPE_TS_DRIVER": "driver_firmware_env",
    "HAL_MODULE_TYPE_DEV_MANAGER": "driver_firmware_env", "HAL_MODULE_TYPE_DMP": "driver_firmware_env",
    "HAL_MODULE_TYPE_FAULT": "driver_firmware_env", "HAL_MODULE_TYPE_UPGRADE": "driver_firmware_env",
    "HAL_MODULE_TYPE_APM": "driver_firmware_env", "HAL_MODULE_TYPE_DP_PROC_MNG": "driver_firmware_env",
    "HAL_MODULE_TYPE_EVENT_SCHEDULE": "driver_firmware_env", "HAL_MODULE_TYPE_QUEUE_MANAGER": "driver_firmware_env",
    "HAL_MODULE_TYPE_VNIC": "communication",
    # Profiling channels, buffer pools, logs, black-box and log tools: internal unless the words say.
    "HAL_MODULE_TYPE_PROF": "other", "HAL_MODULE_TYPE_BUF_MANAGER": "other", "HAL_MODULE_TYPE_LOG": "other",
    "IDEDD": "other", "BBOX": "other", "msnpureport": "other",
}


def driver_rules():
    rules = list(DRIVER_RULES)
    rules.append(R("module-default", None, r"", on="returned-code"))   # filled by code_category below
    rules.append(R("hccn-tool", "communication", r"^src/custom/network/", on="path"))
    rules.append(R("default-driver", "driver_firmware_env", r"^src/ascend_hal/(dms|dmc|trs|hdc|pbl|dpa|esched|comm|svm|queue)/", on="path"))

    def code_category(place):
        cat = MODULE_DEFAULTS.get(place.module or "")
        return (cat, "module:" + place.module) if cat else None


    # A module whose default is `other` (profiling, buffers, logs) decides too: the path
    # defaults after it are for modules that say nothing.
    return cann_entries.Rules(rules, WRAPPER, WRAPPER_UNLESS, code_category=code_category, code_other_final=True)


LABELS = {"ROCE": ("RoCE", "RoCE"), "HCCP": ("HCCP", "HCCP"), "NET": ("Network", "Network"),
          "IDEDD": ("ADX", "ADX"), "BBOX": ("BBox", "BBox"), "msnpureport": ("msnpureport", "msnpureport")}


def make_label(hal):
    def label(module):
        if module in LABELS:
            return LABELS[module]
        if module and module.startswith("HAL_MODULE_TYPE_"):
            short = hal.get(module, module[16:].lower())
            return (f"Driver ({short})", f"驱动（{short}）")
        return ("Driver", "驱动")
    return label


def make_sample_line(hal):
    def sample_line(place, module, message):
        base = os.path.basename(place.path)
        func = place.function or "func"
        if module == "msnpureport":
            return f"ERROR: {message}"
        if module in ("ROCE", "HCCP", "NET", "IDEDD", "BBOX") or (module and not module.startswith("HAL_MODULE_TYPE_") and module != "DRV"):
            return lib.plog_line(module, f"{func}: {message}", file=base, line=place.line)
        short = hal.get(module or "", "drv")
        return (f"[ERROR] DRV(12345,python):2025-03-02-10:55:12.313.101 [{base}:{place.line}][ascend]"
                f"[curpid:12345,12346][drv][{short}][{func}]{message}")
    return sample_line


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", default=DEFAULT_REPO)
    ap.add_argument("--out", default=os.path.join(ROOT, "kb/messages/driver.yaml"))
    ap.add_argument("--overrides", default=os.path.join(ROOT, "scripts/catalog/overrides/driver.yaml"))
    ap.add_argument("--dump-tsv")
    a = ap.parse_args()
    commit = lib.head_commit(a.repo)
    formats, non_literal, hal = collect(a.repo)
    entries, skipped, decisions = cann_entries.build_entries(formats, commit, REPO_NAME, "src-driver", driver_rules(),
                                                             make_sample_line(hal), make_label(hal), a.overrides)
    header = {
        "family": "src-driver",
        "description": "ERROR-level messages of the driver's user-space libraries (hicann/driver: libascend_hal "
                       "HAL/devmm/devmng/DSMI/HDC/trs/queues, RoCE/HCCP, hccn_tool, msnpureport), as DRV / HCCP / "
                       "ROCE plog lines. DCMI and npu-smi are in dcmi.yaml. Generated by "
                       f"scripts/catalog/extract_driver.py; {non_literal} calls with a non-literal format are not counted.",
        "source": {"component": "Driver (user space)", "repo": REPO_NAME, "commit": commit,
                   "formats_found": len(formats), "skipped": skipped},
        "defaults": {"origin": "source", "layer": "driver", "level": "error", "category": "other", "role": "cause"},
    }
    lib.write_messages_file(a.out, header, entries)
    if a.dump_tsv:
        cann_entries.dump_tsv(a.dump_tsv, formats, entries, decisions)
    print(f"{a.out}: {len(entries)} entries from {len(formats)} formats; skipped {skipped}; "
          f"non-literal calls {non_literal}", file=sys.stderr)


if __name__ == "__main__":
    main()
