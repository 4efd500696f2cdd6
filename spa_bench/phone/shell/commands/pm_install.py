"""`pm install` and `pm uninstall` (also reached as `cmd package ...`), worded as Android 14's
PackageManagerShellCommand: `Success`, `Failure [STATUS: message]` with exit 1, `Failure [not installed
for 0]`, and the stderr of a file the system server cannot open (exit 255).

An APK comes from a path (what `adb install` sends after pushing to /data/local/tmp, and what adbutils
sends) or from stdin with `-S SIZE` (the streamed install of `adb install` on devices with `cmd`).
"""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from spa_bench.phone.shell.context import CommandContext
from spa_bench.phone.system.apk import ApkError
from spa_bench.phone.system.installed import InstallOptions

_INSTALL_TRACE = (
    "com.android.server.pm.PackageManagerShellCommand.setParamsSize(PackageManagerShellCommand.java:604)",
    "com.android.server.pm.PackageManagerShellCommand.doRunInstall(PackageManagerShellCommand.java:1427)",
    "com.android.server.pm.PackageManagerShellCommand.runInstall(PackageManagerShellCommand.java:1393)",
    "com.android.server.pm.PackageManagerShellCommand.onCommand(PackageManagerShellCommand.java:209)",
    "com.android.modules.utils.BasicShellCommandHandler.exec(BasicShellCommandHandler.java:97)",
    "android.os.ShellCommand.exec(ShellCommand.java:38)",
    "com.android.server.pm.PackageManagerService$IPackageManagerImpl.onShellCommand(PackageManagerService.java:6213)",
    "android.os.Binder.shellCommand(Binder.java:1107)",
    "android.os.Binder.onTransact(Binder.java:925)",
)
# options that take a value (PackageManagerShellCommand.makeInstallParams)
_VALUE_OPTIONS = {"-i", "-S", "--user", "--install-location", "--install-reason", "--originating-uri",
                  "--referrer", "-p", "--pkg", "--abi", "--force-uuid", "--apex", "--staged-ready-timeout",
                  "--package-source", "--update-ownership"}
_FUSE_PREFIXES = ("/sdcard/", "/storage/", "/mnt/sdcard/")


def pm_install(args: list[str], ctx: CommandContext) -> int:
    install = getattr(ctx.system, "install_package", None)
    paths: list[str] = []
    size: int | None = None
    i = 0
    while i < len(args):
        a = args[i]
        if a in _VALUE_OPTIONS:
            if a == "-S" and i + 1 < len(args) and args[i + 1].isdigit():
                size = int(args[i + 1])
            i += 2
            continue
        if not a.startswith("-"):
            paths.append(a)
        i += 1
    options = install_options(args)
    with tempfile.TemporaryDirectory(prefix="spa-pm-") as tmp:
        staged = Path(tmp) / "base.apk"
        if paths:
            source = read_for_system_server(ctx, paths[0], "install")
            if source is None:
                return 255
            staged.write_bytes(source)
        elif size is not None:
            staged.write_bytes(ctx.stdin[:size])  # a short stream leaves a broken zip: NOT_APK below
        else:
            ctx.out("Error: must either specify a package size or an APK file\n")
            return 1
        if install is None:  # a shell without a phone's package manager (unit tests' fake system)
            ctx.out("Failure [INSTALL_FAILED_INTERNAL_ERROR: no package manager]\n")
            return 1
        session = int.from_bytes(hashlib.sha256(staged.read_bytes()).digest()[:4], "big") & 0x7FFFFFFF
        try:
            install(staged, f"/data/app/vmdl{session}.tmp/base.apk", options)
        except ApkError as exc:
            ctx.out(exc.failure_line() + "\n")
            return 1
    ctx.out("Success\n")
    return 0


def install_options(args: list[str]) -> InstallOptions:
    flags = {a for a in args if a.startswith("-")}
    return InstallOptions(allow_test="-t" in flags, allow_downgrade="-d" in flags, grant_all="-g" in flags)


def read_for_system_server(ctx: CommandContext, arg: str, verb: str) -> bytes | None:
    """ShellCommand.openFileForSystem: system_server opens the file with its own SELinux context, so a
    file on the FUSE-mounted shared storage is refused even when the shell could read it."""
    path = ctx.path(arg)
    lines: list[str] = []
    data: bytes | None = None
    if path.startswith(_FUSE_PREFIXES):
        shown = "/storage/emulated/0/" + path[len("/sdcard/"):] if path.startswith("/sdcard/") else path
        lines.append("System server has no access to read file context u:object_r:fuse:s0 "
                     f"(from path {shown}, context u:r:system_server:s0)")
    else:
        try:
            data = ctx.system.fs.read_bytes(path)
        except (OSError, ValueError):
            data = None
    if data is not None:
        return data
    lines += [f"Error: Unable to open file: {arg}", "Consider using a file under /data/local/tmp/",
              f"Error: Can't open file: {arg}", f"Exception occurred while executing '{verb}':",
              f"java.lang.IllegalArgumentException: Error: Can't open file: {arg}"]
    ctx.err("\n".join(lines) + "\n" + "".join(f"\tat {frame}\n" for frame in _INSTALL_TRACE))
    return None


def pm_uninstall(args: list[str], ctx: CommandContext) -> int:
    """`pm uninstall [-k] [--user N] PACKAGE`: an installed APK is removed; a system app cannot be
    (only disabled for a user, which the virtual phone does not model); anything else is not installed."""
    names: list[str] = []
    i = 0
    while i < len(args):
        if args[i] in ("--user", "--versionCode"):
            i += 2
            continue
        if not args[i].startswith("-"):
            names.append(args[i])
        i += 1
    if not names:
        ctx.out("Error: package name not specified\n")
        return 1
    package = names[0]
    uninstall = getattr(ctx.system, "uninstall_package", None)
    if uninstall is not None and uninstall(package, "-k" in args):
        ctx.out("Success\n")
        return 0
    info = next((p for p in ctx.system.packages() if p.name == package), None)
    if info is None:
        ctx.out("Failure [not installed for 0]\n")
        return 1
    ctx.out("Failure [DELETE_FAILED_INTERNAL_ERROR]\n")
    return 1


__all__ = ["install_options", "pm_install", "pm_uninstall", "read_for_system_server"]
