"""`pm install-create / install-write / install-commit / install-abandon`: PackageInstaller sessions,
as `adb install-multiple` and installers that stage split APKs drive them, with AOSP's answers:
`Success: created install session [N]`, `Success: streamed N bytes`, `Success` / `Failure [...]`, and
`java.lang.SecurityException: Caller has no access to session N` for a session that is not open.

A commit installs the session's base APK (the one whose manifest has no `split`); split APKs are kept
as written but not registered, since nothing on the phone reads their resources or code.
"""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from spa_bench.phone.shell.commands.pm_install import install_options, read_for_system_server
from spa_bench.phone.shell.context import CommandContext
from spa_bench.phone.system.apk import ApkError, read_apk
from spa_bench.phone.system.installed import InstallOptions


def _store(ctx: CommandContext) -> object | None:
    return getattr(ctx.system, "package_store", None)


def _no_session(ctx: CommandContext, verb: str, token: str) -> int:
    ctx.err(f"Exception occurred while executing '{verb}':\n"
            f"java.lang.SecurityException: Caller has no access to session {token}\n")
    return 255


def pm_session(verb: str, args: list[str], ctx: CommandContext) -> int:
    store = _store(ctx)
    sessions: dict[int, dict[str, bytes]] | None = getattr(store, "sessions", None)
    if sessions is None:
        ctx.out("Failure [INSTALL_FAILED_INTERNAL_ERROR: no package manager]\n")
        return 1
    if verb == "install-create":
        seed = f"{len(sessions)}:{sorted(sessions)}:{' '.join(args)}".encode()
        session = int.from_bytes(hashlib.sha256(seed).digest()[:4], "big") & 0x7FFFFFFF
        sessions[session] = {}
        ctx.out(f"Success: created install session [{session}]\n")
        return 0
    positional = _positional(args)
    token = positional[0] if positional else ""
    session = int(token) if token.isdigit() else -1
    if session not in sessions:
        return _no_session(ctx, verb, token)
    if verb == "install-abandon":
        del sessions[session]
        ctx.out("Success\n")
        return 0
    if verb == "install-write":
        return _write(ctx, args, positional, sessions[session])
    if verb == "install-commit":
        files = sessions.pop(session)
        return _commit(ctx, session, files, install_options(args))
    ctx.err(f"Unknown command: {verb}\n")
    return 255


def _positional(args: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(args):
        if args[i] in ("-S", "--user"):
            i += 2
            continue
        if not args[i].startswith("-") or args[i] == "-":
            out.append(args[i])
        i += 1
    return out


def _write(ctx: CommandContext, args: list[str], positional: list[str], files: dict[str, bytes]) -> int:
    """`install-write [-S BYTES] SESSION NAME [PATH|-]`: the APK from a file, or from stdin."""
    name = positional[1] if len(positional) > 1 else "base.apk"
    source = positional[2] if len(positional) > 2 else "-"
    size = next((int(args[i + 1]) for i, a in enumerate(args[:-1]) if a == "-S" and args[i + 1].isdigit()),
                None)
    if source == "-":
        data = ctx.stdin if size is None else ctx.stdin[:size]
    else:
        read = read_for_system_server(ctx, source, "install-write")
        if read is None:
            return 255
        data = read
    files[name if name.endswith(".apk") else name + ".apk"] = data
    ctx.out(f"Success: streamed {len(data)} bytes\n")
    return 0


def _commit(ctx: CommandContext, session: int, files: dict[str, bytes], options: InstallOptions) -> int:
    install = getattr(ctx.system, "install_package", None)
    shown = f"/data/app/vmdl{session}.tmp"
    with tempfile.TemporaryDirectory(prefix="spa-pm-session-") as tmp:
        base: Path | None = None
        for name, data in files.items():
            path = Path(tmp) / name
            path.write_bytes(data)
            try:
                if read_apk(path, f"{shown}/{name}").split_name is None and base is None:
                    base = path
            except ApkError as exc:
                ctx.out(exc.failure_line() + "\n")
                return 1
        if not files:
            ctx.out(f"Failure [INSTALL_FAILED_INVALID_APK: Session: {session}. No packages staged in "
                    f"{shown}]\n")
            return 1
        if base is None or install is None:
            ctx.out("Failure [INSTALL_FAILED_INVALID_APK: Full install must include a base package]\n")
            return 1
        try:
            install(base, f"{shown}/{base.name}", options)
        except ApkError as exc:
            ctx.out(exc.failure_line() + "\n")
            return 1
    ctx.out("Success\n")
    return 0


__all__ = ["pm_session"]
