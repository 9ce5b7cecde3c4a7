#!/usr/bin/env python3
"""The error messages of the shell scripts users meet first -> kb/messages/driver_installer.yaml
and kb/messages/mindxdl_scripts.yaml (one file per repository: `source:` names one).

- hicann/driver: the run-package installers of the driver and firmware (scripts/package/:
  install.sh, uninstall.sh, the common_func*.inc / install_common_parser.sh helpers, the
  per-chip specific_func.inc, hot reset, the services they set up) and the user tools shipped
  as scripts (src/ascend_hal: log collection, CRL upgrade, msnpureport export). Their lines:
  '[Driver] [2025-03-02 10:55:12] [ERROR]ERR_NO:0x0093;ERR_DES:...' (drvEcho / log / error),
  '[Common] [2025-03-02 10:55:12] [ERROR]: ...' (comm_log, log "ERROR" ...).
- Ascend/mindxdl-deploy: the training launch scripts of MindX DL (MindCluster's predecessor;
  the samples its documents tell users to start jobs with: train_start.sh, utils.sh,
  rank_table.sh ...), which print plain echo lines ("npu is busy, check again") and
  '[20250302-10:55:12] [MindXDL Service Log]...' (logger). Ascend/mind-cluster itself no longer
  ships these scripts (its FAQ still links the "NPU is busy, check again" issue).

Shell has no log level: see fw_shell.py for what counts as an error message; level-less lines
are kept only when a gate word covers them (docs/kb-messages.md, gate policy).

usage: extract_install_scripts.py [DRIVER_MIRROR [MINDXDL_MIRROR]]
"""
import re
import sys

import catalog_lib as L
import fw_common as F
from fw_common import Rule
from fw_shell import Printer, shell_records

DRIVER = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/hicann+driver/repo"
MINDXDL = sys.argv[2] if len(sys.argv) > 2 else "/work/.mirror/Ascend+mindxdl-deploy/repo"
SHELL = (".sh", ".inc", ".bash")
DATE = "[2025-03-02 10:55:12] "

# -------------------------------------------------------------------------------------------
# The driver's print functions and what they print before the message.

DRIVER_PRINTERS = {p.name: p for p in [
    Printer("drvEcho", prefix="[Driver] " + DATE),
    Printer("drvColorEcho", prefix="[Driver] " + DATE),
    Printer("log", prefix="[Driver] " + DATE),
    Printer("logandprint", prefix="[Driver-compat] " + DATE),
    Printer("comm_log", prefix="[Common] " + DATE),
    Printer("comm_echo", prefix="[Common] " + DATE),
    Printer("print_log", prefix="2025-03-02 10:55:12.313 [RECORD_LOG] "),
    Printer("log_record"),
    Printer("logger_error", level="ERROR"),
    # errorUsage <exit code> "<message>"; error <operation> <retcode> "<message>" (printed as [ERROR]<message>)
    Printer("errorUsage", prefix="[Driver] " + DATE, msg_index=1, joins_args=False),
    Printer("error", level="ERROR", prefix="[Driver] " + DATE, msg_index=2, joins_args=False),
]}

MINDXDL_PRINTERS = {p.name: p for p in [
    Printer("logger", prefix="[20250302-10:55:12] [MindXDL Service Log]"),
]}


def line_of(printer, level, marker, message, path):
    """The line a script prints: the function's prefix, the level as it shows it, the message."""
    if marker:  # the message carried its own marker: "[ERROR]..." after the function's prefix
        return f"{printer.prefix}[{marker}]{message}" if printer.prefix else f"[{marker}] {message}"
    if level and printer.name not in ("echo", "printf"):  # a level argument or a level by name
        return f"{printer.prefix}[{level}]: {message}"
    return printer.prefix + message


def is_driver_script(p):
    return (p.endswith(SHELL) and (p.startswith("scripts/package/") or p.startswith("src/ascend_hal/"))
            and "/test" not in p)


def is_mindxdl_script(p):
    return p.endswith(SHELL) and p.startswith("samples/")


# -------------------------------------------------------------------------------------------
# Category rules (the first that holds wins; fw_common's general rules after them).

RULES = [
    # The user typed a wrong option of the .run package / script (checked first: "install-username
    # and install-usergroup params need used with full/run" is about the options, not the user).
    Rule("other", words=r"unrecogni[sz]ed param|invalid (?:param|option|arg|input)|(?:param|option|arg)\w* (?:is |are )?invalid"
         r"|--help|usage:|must be (?:an )?integer|too (?:many|few) (?:input )?param|params? (?:need|needs to be) used with"
         r"|can't use with other param|input error|right params|only support one type|param wrong|must be 0 or 1|\barguement|the parameter",
         why="a wrong option or argument of the script"),
    # Who runs it: root, the run user and group, file owners; the NPU held by another process.
    Rule("permission_device",
         words=r"permission|\broot\b|privilege|\bsudo\b|not permitted|denied|\busers?\b|username|usergroup|user ?group|\bgroups?\b"
         r"|\bowner|\buid\b|\bgid\b|npu is busy|\bbusy\b|occupied|in use|being used|used by (?:another|other|some)",
         why="the words name root, the run user or group, file owners, or an NPU held by another process"),
    # The driver and firmware on the host: kernel headers, DKMS, modules, firmware, the device
    # side, upgrades and hot resets.
    Rule("driver_firmware_env",
         words=r"kernel|header|dkms|firmware|\binsmod|\brmmod|modprobe|\.ko\b|\bko\b|\bmodules?\b|lsmod|driver (?:is )?not (?:loaded|running|start)"
         r"|load(?:ing)? (?:the )?driver|upgrade|hot ?reset|\breset\b|reboot|restart the (?:os|system|server)|\bmcu\b|\bbios\b"
         r"|pcie|livepatch|davinci|device (?:is )?(?:not|abnormal|offline|lost)|\bdevices?\b.{0,20}\bfail|npu-smi|\bcrl\b|certificate"
         r"|\bservice\b|systemctl|\bdmesg\b|secure boot|signature|\bchip\b",
         why="the words name kernel headers, DKMS, driver modules, firmware, the device, an upgrade or a reset"),
    # Packages, versions, dependencies, install paths and files.
    Rule("install_version_mismatch",
         words=r"version|package|\.run\b|depend|\binstall|uninstall|\bpath\b|directory|\bdir\b|not (?:exist|found)|no such file"
         r"|does not exist|\bfiles?\b|\brpm\b|\bdeb\b|\bpip\b|\bgcc\b|\bmake\b|set_env|toolkit|\bcann\b|\bnnae\b|compat|\bos\b"
         r"|architecture|\barch\b|\bpython\b|command not found|not mount|\bspace\b|\bdisk\b"
         r"|softlink|soft link|\bmkdir|\btouch\b|\bcopy|\bchmod|\bchown|\bremove|\bdelete|filelist|\bwrite\b|\bmove\b|\bfolder",
         why="the words name a package, version, dependency, install path, missing file or a file the installer writes"),
]

LAUNCH_RULES = [
    # The rank table / HCCL configuration the job was started with.
    Rule("rank_config", words=r"hccl|rank ?table|hccl\.json|server count|device count|server id|rank[_ ]?id|device_list|master",
         why="the rank table or the job's ranks and devices"),
]


# Short shell messages are made of file operations ("%s chmod failed!", "Stop %s failed.",
# "framework error"): at level error (or holding "error") they would claim any other program's
# line with those words. A format needs 4 letters of words beyond these and fw_common's.
SHELL_WORDS = set("""
start stop set remove delete copy move write touch mkdir chmod chown replace rebuild repack
framework illegal exit rmmod dir
""".split())


def too_generic(fmt, style):
    if F.is_generic(fmt, style):
        return True
    words = re.findall(r"[a-z][a-z0-9_]*", " ".join(L.literal_runs(fmt, style)).lower())
    return sum(len(w) for w in words if w not in F.GENERIC_WORDS and w not in SHELL_WORDS) < 4


def main():
    built = []
    # hicann/driver
    commit = L.head_commit(DRIVER)
    paths = [p for p in L.list_files(DRIVER, commit, suffixes=SHELL) if is_driver_script(p)]
    recs = shell_records(DRIVER, commit, paths, DRIVER_PRINTERS, line_of)
    comp = F.Component(
        family="src-install-scripts-driver", name="Ascend installer scripts (driver/firmware)",
        label="Driver installer", repo_name="hicann/driver", mirror=DRIVER, commit=commit, out="kb/messages/driver_installer.yaml",
        description="Error messages of the driver/firmware run-package installers and the scripts they ship (hicann/driver "
                    "scripts/package and src/ascend_hal shell scripts): echo / printf / drvEcho / log / comm_log calls printing "
                    "[ERROR] or a level-less failure (kept only when a gate word covers it). $var / ${var} / $(cmd) as %s.",
        layer="driver", default_category="driver_firmware_env", overrides="scripts/catalog/overrides/install_scripts.yaml")
    print(f"hicann/driver: {len(paths)} scripts, {len(recs)} error-message calls", file=sys.stderr)
    built.append(F.build(comp, recs, RULES + F.GENERAL_STRONG + F.GENERAL_WEAK, generic=too_generic))
    # Ascend/mindxdl-deploy
    commit = L.head_commit(MINDXDL)
    paths = [p for p in L.list_files(MINDXDL, commit, suffixes=SHELL) if is_mindxdl_script(p)]
    recs = shell_records(MINDXDL, commit, paths, MINDXDL_PRINTERS, line_of)
    comp = F.Component(
        family="src-install-scripts-mindxdl", name="Ascend launch scripts (MindX DL)",
        label="MindX DL launch script", repo_name="Ascend/mindxdl-deploy", mirror=MINDXDL, commit=commit,
        out="kb/messages/mindxdl_scripts.yaml",
        description="Error messages of the MindX DL training launch scripts (Ascend/mindxdl-deploy samples: train_start.sh, "
                    "utils.sh, rank_table.sh ...; MindCluster's predecessor): echo / logger lines printing a failure, kept only "
                    "when a gate word covers them (they carry no level). $var / ${var} / $(cmd) as %s.",
        layer="system", default_category="other", overrides="scripts/catalog/overrides/install_scripts.yaml")
    print(f"Ascend/mindxdl-deploy: {len(paths)} scripts, {len(recs)} error-message calls", file=sys.stderr)
    built.append(F.build(comp, recs, RULES + LAUNCH_RULES + F.GENERAL_STRONG + F.GENERAL_WEAK, generic=too_generic))


if __name__ == "__main__":
    main()
