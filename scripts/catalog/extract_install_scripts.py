#!/usr/bin/env python3
"""The error messages of the shell scripts users meet first -> one file per repository
(`source:` names one repository):

- kb/messages/driver_installer.yaml, hicann/driver: the run-package installers of the driver
  and firmware (scripts/package/: install.sh, uninstall.sh, the common_func*.inc /
  install_common_parser.sh helpers, the per-chip specific_func.inc, hot reset, the services they
  set up) and the user tools shipped as scripts (src/ascend_hal: log collection, CRL upgrade,
  msnpureport export). Lines '[Driver] [2025-03-02 10:55:12] [ERROR]ERR_NO:0x0093;ERR_DES:...'
  (drvEcho / log / error), '[Common] [2025-03-02 10:55:12] [ERROR]: ...' (comm_log, log "ERROR" ...).
- kb/messages/runtime_installer.yaml, hicann/runtime: the installer of the CANN runtime package
  (scripts/package/runtime: install.sh, run_runtime_install/upgrade/uninstall.sh, ver_check.sh,
  the rpm/deb hooks): '[Runtime] [2025-03-02 10:55:12] [ERROR]: ...'.
- kb/messages/mind_cluster_scripts.yaml, Ascend/mind-cluster: the run package of the Ascend docker
  runtime (component/ascend-docker-runtime/build/scripts: run_main.sh, uninstall.sh):
  '[ERROR] ...'. Mind-cluster's other shell scripts build its components or feed a Go program.
- kb/messages/mindxdl_scripts.yaml, Ascend/mindxdl-deploy: the training launch scripts of MindX DL
  (MindCluster's predecessor; the samples its documents tell users to start jobs with:
  train_start.sh, utils.sh, rank_table.sh ...), which print plain echo lines ("npu is busy,
  check again") and '[20250302-10:55:12] [MindXDL Service Log]...' (logger). Ascend/mind-cluster
  itself no longer ships these scripts (its FAQ still links the "NPU is busy, check again" issue).

Shell has no log level: see fw_shell.py for what counts as an error message; level-less lines
are kept only when a gate word covers them (docs/kb-messages.md, gate policy).

usage: extract_install_scripts.py [MIRROR_DIR]   (default /work/.mirror: <owner>+<repo>/repo)
"""
import re
import sys

import catalog_lib as L
import fw_common as F
from fw_common import Rule
from fw_shell import Printer, shell_records

MIRRORS = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror"


def mirror(repo):
    return f"{MIRRORS}/{repo.replace('/', '+')}/repo"


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
    Printer("print_log", prefix="2025-03-02 10:55:12.313 [RECORD_LOG] ", level_fmt="[{level}] "),
    Printer("log_record"),
    Printer("logger_error", level="ERROR"),
    # errorUsage <exit code> "<message>"; error <operation> <retcode> "<message>" (printed as [ERROR]<message>)
    Printer("errorUsage", prefix="[Driver] " + DATE, msg_index=1, joins_args=False),
    Printer("error", level="ERROR", prefix="[Driver] " + DATE, msg_index=2, joins_args=False),
]}

RUNTIME_PRINTERS = {p.name: p for p in [
    Printer("log", prefix="[Runtime] " + DATE),
]}

# run_main.sh's log "[ERROR]" "msg" prints '[ERROR] msg' on the terminal (and the same with time,
# uid and ip into /var/log/ascend-docker-runtime/installer.log).
MIND_CLUSTER_PRINTERS = {p.name: p for p in [
    Printer("log", level_fmt="[{level}] "),
]}

MINDXDL_PRINTERS = {p.name: p for p in [
    Printer("logger", prefix="[20250302-10:55:12] [MindXDL Service Log]"),
]}


def line_of(printer, level, marker, message, path):
    """The line a script prints: the function's prefix, the level as it shows it, the message."""
    if marker:  # the message carried its own marker: "[ERROR]..." after the function's prefix
        return f"{printer.prefix}[{marker}]{message}" if printer.prefix else f"[{marker}] {message}"
    if level and printer.name not in ("echo", "printf"):  # a level argument or a level by name
        return printer.prefix + printer.level_fmt.replace("{level}", level) + message
    return printer.prefix + message


def is_driver_script(p):
    return (p.endswith(SHELL) and (p.startswith("scripts/package/") or p.startswith("src/ascend_hal/"))
            and "/test" not in p)


def is_runtime_script(p):
    return p.endswith(SHELL) and p.startswith("scripts/package/")


def is_mind_cluster_script(p):
    return p.endswith(SHELL) and p.startswith("component/ascend-docker-runtime/build/scripts/")


def is_mindxdl_script(p):
    return p.endswith(SHELL) and p.startswith("samples/")


# -------------------------------------------------------------------------------------------
# Category rules (the first that holds wins; fw_common's general rules after them).

# The user typed a wrong option of the .run package / script (checked first: "install-username
# and install-usergroup params need used with full/run" is about the options, not the user).
OPTIONS = Rule(
    "other", words=r"unrecogni[sz]ed param|invalid (?:param|option|arg|input)|(?:param|option|arg)\w* (?:is |are )?invalid"
    r"|--help|usage:|must be (?:an )?integer|too (?:many|few) (?:input )?param|params? (?:need|needs to be) used with"
    r"|can't use with other param|input error|right params|only support one type|param wrong|must be 0 or 1|\barguement|the parameter"
    r"|repeat parameter|(?:unsupported|incompatible) param|configured together with|one of param|only input <|not supported to used"
    r"|parameter --|need input --",
    why="a wrong option or argument of the script")
# Who runs it: root, the run user and group, file owners; the NPU held by another process.
PERMISSION = Rule(
    "permission_device",
    words=r"permission|\broot\b|privilege|\bsudo\b|not permitted|denied|\busers?\b|username|usergroup|user ?group|\bgroups?\b"
    r"|\bowner|\buid\b|\bgid\b|npu is busy|\bbusy\b|occupied|in use|being used|used by (?:another|other|some)",
    why="the words name root, the run user or group, file owners, or an NPU held by another process")
# The driver and firmware on the host: kernel headers, DKMS, modules, firmware, the device side,
# hot resets.
DRIVER = Rule(
    "driver_firmware_env",
    words=r"kernel|header|dkms|firmware|\binsmod|\brmmod|modprobe|\.ko\b|\bko\b|\bmodules?\b|lsmod|driver (?:is )?not (?:loaded|running|start)"
    r"|load(?:ing)? (?:the )?driver|hot ?reset|\breset\b|reboot|restart the (?:os|system|server)|\bmcu\b|\bbios\b"
    r"|pcie|livepatch|davinci|device (?:is )?(?:not|abnormal|offline|lost)|\bdevices?\b.{0,20}\bfail|npu-smi|\bcrl\b|certificate"
    r"|\bservice\b|systemctl|\bdmesg\b|secure boot|signature|\bchip\b",
    why="the words name kernel headers, DKMS, driver modules, firmware, the device or a reset")
# In the driver's own scripts an upgrade is the driver's or the firmware's (in the other
# installers it is a package upgrade: INSTALL).
DRIVER_UPGRADE = Rule("driver_firmware_env", words=r"upgrade|nvcnt|flash|image", why="an upgrade of the driver or the device firmware")
# Packages, versions, dependencies, install paths and files.
INSTALL = Rule(
    "install_version_mismatch",
    words=r"version|package|\.run\b|depend|\binstall|uninstall|upgrade|\bpath\b|directory|\bdir\b|not (?:exist|found)|no such file"
    r"|does not exist|\bfiles?\b|\brpm\b|\bdeb\b|\bpip\b|\bgcc\b|\bmake\b|set_env|toolkit|\bcann\b|\bnnae\b|compat|\bos\b"
    r"|architecture|\barch\b|\bpython\b|command not found|not mount|\bspace\b|\bdisk\b"
    r"|softlink|soft link|\bmkdir|\btouch\b|\bcopy|\bchmod|\bchown|\bremove|\bdelete|filelist|\bwrite\b|\bmove\b|\bfolder",
    why="the words name a package, version, dependency, install path, missing file or a file the installer writes")


def rules(own=()):
    """The order every source shares, its own rules after options and permissions."""
    return [OPTIONS, PERMISSION, *own, DRIVER, INSTALL] + F.GENERAL_STRONG + F.GENERAL_WEAK


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


SOURCES = [
    dict(repo="hicann/driver", paths=is_driver_script, printers=DRIVER_PRINTERS, family="src-install-scripts-driver",
         name="Ascend installer scripts (driver/firmware)", label="Driver installer", out="kb/messages/driver_installer.yaml",
         layer="driver", category="driver_firmware_env", rules=[DRIVER_UPGRADE],
         description="Error messages of the driver/firmware run-package installers and the scripts they ship (hicann/driver "
                     "scripts/package and src/ascend_hal shell scripts): echo / printf / drvEcho / log / comm_log calls printing "
                     "[ERROR] or a level-less failure (kept only when a gate word covers it). $var / ${var} / $(cmd) as %s."),
    dict(repo="hicann/runtime", paths=is_runtime_script, printers=RUNTIME_PRINTERS, family="src-install-scripts-runtime",
         name="Ascend installer scripts (CANN runtime)", label="CANN runtime installer", out="kb/messages/runtime_installer.yaml",
         layer="install", category="install_version_mismatch", rules=[],
         description="Error messages of the CANN runtime run-package installer (hicann/runtime scripts/package/runtime: "
                     "install.sh, run_runtime_install/upgrade/uninstall.sh, ver_check.sh, rpm/deb hooks): log \"ERROR\" ... "
                     "calls ('[Runtime] [time] [ERROR]: ...') and level-less echo failures kept when a gate word covers them."),
    dict(repo="Ascend/mind-cluster", paths=is_mind_cluster_script, printers=MIND_CLUSTER_PRINTERS,
         family="src-install-scripts-mind-cluster", name="Ascend installer scripts (docker runtime)",
         label="Ascend docker runtime installer", out="kb/messages/mind_cluster_scripts.yaml", layer="system",
         category="install_version_mismatch", rules=[],
         description="Error messages of the Ascend docker runtime run package (Ascend/mind-cluster "
                     "component/ascend-docker-runtime/build/scripts: run_main.sh, uninstall.sh): echo \"[ERROR] ...\" and "
                     "log \"[ERROR]\" ... lines; level-less failures kept when a gate word covers them."),
    dict(repo="Ascend/mindxdl-deploy", paths=is_mindxdl_script, printers=MINDXDL_PRINTERS, family="src-install-scripts-mindxdl",
         name="Ascend launch scripts (MindX DL)", label="MindX DL launch script", out="kb/messages/mindxdl_scripts.yaml",
         layer="system", category="other", rules=LAUNCH_RULES,
         description="Error messages of the MindX DL training launch scripts (Ascend/mindxdl-deploy samples: train_start.sh, "
                     "utils.sh, rank_table.sh ...; MindCluster's predecessor): echo / logger lines printing a failure, kept only "
                     "when a gate word covers them (they carry no level). $var / ${var} / $(cmd) as %s."),
]


def main():
    for src in SOURCES:
        repo = mirror(src["repo"])
        commit = L.head_commit(repo)
        paths = [p for p in L.list_files(repo, commit, suffixes=SHELL) if src["paths"](p)]
        recs = shell_records(repo, commit, paths, src["printers"], line_of)
        print(f"{src['repo']}: {len(paths)} scripts, {len(recs)} error-message calls", file=sys.stderr)
        comp = F.Component(
            family=src["family"], name=src["name"], label=src["label"], repo_name=src["repo"], mirror=repo, commit=commit,
            out=src["out"], description=src["description"], layer=src["layer"], default_category=src["category"],
            overrides="scripts/catalog/overrides/install_scripts.yaml")
        F.build(comp, recs, rules(src["rules"]), generic=too_generic)


if __name__ == "__main__":
    main()
