#!/usr/bin/env python3
"""The container stack's ERROR-level messages -> kb/messages/container.yaml.

Ascend/mind-cluster: the Ascend docker runtime (component/ascend-docker-runtime: the runtime,
the OCI hook and the C `ascend-docker-cli` that mounts devices and driver files into the
container), the Kubernetes device plugin (component/ascend-device-plugin) and the DCMI wrapper
both use to query NPUs (component/ascend-common/devmanager). Go: hwlog.RunLog.Error*/Errorf
calls (ERROR level) and the errors they build and return (fmt.Errorf, errors.New), printed
later by hwlog, docker or the kubelet; Go's %v/%q/%w are written as %s. C: Logger(..., LEVEL_ERROR, ...)
and the FormatLogMessage formats it prints, which reach the user on stderr through docker.

usage: extract_container.py [MIRROR]   (default /work/.mirror/Ascend+mind-cluster/repo)
"""
import sys

import catalog_lib as L
import fw_common as F
from fw_common import Rule
from fw_go import c_logger_records, go_paths, go_records

MIRROR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/Ascend+mind-cluster/repo"
PREFIXES = ("component/ascend-docker-runtime/", "component/ascend-device-plugin/", "component/ascend-common/devmanager/")

RULES = [
    # The driver side: DCMI/DSMI libraries, npu-smi, the driver's files, device health and
    # faults. What the user fixes is the driver install / the device.
    Rule("driver_firmware_env",
         words=r"\bdcmi\b|\bdsmi\b|dcmiv2|npu-smi|driver|firmware|libdcmi|\bhdc\b|\bhal\b|dlopen|load (?:the )?(?:\w+ )?(?:so|library)"
         r"|health|unhealthy|\bfault|hot ?reset|reset device|recover|network status|link status|chip (?:info|name|type)|board id"
         r"|product type|ecc|aicore|hbm|temperature|power|frequency|utilization|memory info|device (?:info|type|status)",
         why="the DCMI / driver / device-health side of the stack failed"),
    # Anything the DCMI wrapper reports is a query of the driver that failed.
    Rule("driver_firmware_env", path=r"devmanager/|/dcmi/", why="a DCMI query of the driver failed"),
    # hccn_tool: the NPU's network ports and links.
    Rule("communication", path=r"/hccn/", why="a query of the NPU network (hccn_tool) failed"),
    # Device visibility and mounting into the container: ASCEND_VISIBLE_DEVICES, device
    # nodes, mounts, cgroups, permissions, file ownership checks.
    Rule("permission_device",
         words=r"ascend_visible_devices|ascend_runtime_options|ascend device|visible|device list|devices? (?:id|ids)\b|invalid device|device id"
         r"|no (?:ascend )?(?:npu )?devices?|device .{0,30}not (?:found|exist)|davinci|devmm|hisi_hdc|/dev/|\bmount|umount|cgroup"
         r"|permission|owner|\bmode\b|soft ?link|symlink|realpath|illegal|not a (?:file|dir)|\bpath\b|\buid\b|\bgid\b|privilege"
         r"|logic ?id|phy(?:sical)? ?id|card id|virtual device|\bvnpu\b|vdevice|allocat|occupied|in use|busy"
         r"|not allowed|whitelist|\bns\b|namespace|rootfs",
         why="a device could not be found, mounted or given to the container"),
]

MODULE_RULES = [
    # Talking to the kubelet (registration, ListAndWatch) and the API server.
    Rule("other", words=r"kubelet|grpc|register|informer|configmap|annotation|\bpod\b|\bnode\b|k8s|kube|api ?server|lease|\bcm\b",
         why="the device plugin's Kubernetes side failed (cluster configuration, not the NPU)"),
]


def cli_line(message, path, line):
    """ascend-docker-cli prints its errors to stderr, which docker shows inside its own error."""
    return ("docker: Error response from daemon: OCI runtime create failed: error running hook #0: error running hook: "
            f"exit status 1, stdout: , stderr: {message}: unknown.")


def main():
    commit = L.head_commit(MIRROR)
    records = go_records(MIRROR, commit, go_paths(MIRROR, commit, PREFIXES))
    for r in records:
        # The device plugin and the DCMI wrapper log the errors they return through hwlog's
        # [ERROR] lines; the docker runtime's reach the user through docker's own message.
        if r.kind == "returned" and not r.path.startswith("component/ascend-docker-runtime/"):
            r.level = "error"
    cli = [p for p in L.list_files(MIRROR, commit, suffixes=(".c",))
           if p.startswith("component/ascend-docker-runtime/") and "/test" not in p]
    records += c_logger_records(MIRROR, commit, cli, {"Logger": (0, r"LEVEL_ERROR"),
                                                      "FormatLogMessage": (0, r"LEVEL_ERROR")}, cli_line)
    comp = F.Component(
        family="src-container", name="Ascend docker runtime and device plugin", label="Ascend container",
        repo_name="Ascend/mind-cluster", mirror=MIRROR, commit=commit, out="kb/messages/container.yaml",
        description="ERROR-level messages of the Ascend container stack (Ascend/mind-cluster): the Ascend docker runtime "
                    "(runtime, hook, ascend-docker-cli), the Kubernetes device plugin and the DCMI wrapper they share "
                    "(ascend-common/devmanager). Go hwlog ERROR calls and the errors they return (Go's %v/%q/%w written as %s); "
                    "the C cli's Logger(..., LEVEL_ERROR, ...) messages. The DCMI library and npu-smi themselves are in dcmi.yaml.",
        layer="system", default_category="other", overrides="scripts/catalog/overrides/container.yaml")
    F.build(comp, records, RULES + F.GENERAL_STRONG + MODULE_RULES + F.GENERAL_WEAK)


if __name__ == "__main__":
    main()
