"""Processes: ps, pidof, kill, pgrep/pkill, app_process (which starts the uiautomator2 server), and
the shell's job builtins wait and read.

`ps` prints as toybox does on Android: the default columns USER PID PPID VSZ RSS WCHAN ADDR S NAME
(toybox's Android default), `-o` picks columns, `-A`/`-e` every process, `-u`/`-p`/`-P` select by user,
pid or parent. Widths follow toybox's show_ps: a field that overflows its width pushes the line right
and the next fields with room to spare take the overflow back; the last left-aligned field is not
padded (the header is). Without a selection toybox shows the processes of ps's own terminal; an adb
shell command has none, so that is every process without a terminal: all of them here.

What runs: the system's own processes (init, zygote64, system_server, adbd ...), one process per app
with a task (the stable pid of `ids.pid_of`, which `dumpsys activity top` shows too), the shell and
the long-running processes of `spa_bench.phone.system.processes` (the uiautomator2 server, a logcat
that follows the log). Numbers a virtual phone has no source for (VSZ, RSS, WCHAN) are fixed
plausible values per kind of process.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from spa_bench.phone.shell.commands.ids import LAUNCHER_PACKAGE, pid_of
from spa_bench.phone.shell.commands.ps_columns import DEFAULT_FIELDS, PsRow, columns, format_table
from spa_bench.phone.shell.context import CommandContext, CommandTable, UsageError, parse_options
from spa_bench.phone.shell.expand import SHELL_PID
from spa_bench.phone.system.processes import SIGKILL, SIGTERM, U2_SERVER_CLASS, Process, ProcessTable

TABLE = CommandTable()
command = TABLE.command

ADBD_PID, ZYGOTE_PID, SYSTEM_SERVER_PID = 342, 380, 600
SYSTEMUI = "com.android.systemui"
SIGNALS = {"HUP": 1, "INT": 2, "QUIT": 3, "KILL": SIGKILL, "USR1": 10, "USR2": 12, "TERM": SIGTERM,
           "CONT": 18, "STOP": 19}
EXIT_BY_SIGNAL = 128  # a shell reports a command killed by signal N as exit status 128+N


def process_table(ctx: CommandContext) -> ProcessTable | None:
    table = getattr(ctx.system, "processes", None)
    return table if isinstance(table, ProcessTable) else None


def own_process(ctx: CommandContext, table: ProcessTable, argv: tuple[str, ...]) -> Process:
    """The process a long-running command runs as: its background job's (`CMD &`: `$!` is then its pid,
    so `kill $!` reaches it) or a new one of the shell's user."""
    job = ctx.state.job
    if job is not None and job.running and table.get(job.pid) is job:
        ctx.state.job = None  # one command per job process; a later one in the job gets its own
        job.argv = argv
        return job
    root = ctx.root
    return table.spawn(argv, ppid=SHELL_PID, uid=0 if root else 2000, user="root" if root else "shell")


def _app_user(package: str) -> tuple[str, int]:
    """An app's uid, u0_aNN (10000 + NN), stable per package like its pid."""
    n = pid_of(package) % 200 + 100
    return f"u0_a{n}", 10000 + n


def processes(ctx: CommandContext) -> list[PsRow]:
    """Every process of the phone, by pid."""
    adbd_user = ("root", 0) if ctx.system.adb_root else ("shell", 2000)
    rows = [PsRow("root", 0, 1, 0, 10782796, 9436, "do_epoll_wait", "S", ("/system/bin/init",)),
            PsRow("root", 0, 2, 0, 0, 0, "kthreadd", "S", ("[kthreadd]",)),
            PsRow("logd", 1036, 290, 1, 10850672, 5488, "__do_sys_rt_sigtimedwait", "S",
                  ("/system/bin/logd",)),
            PsRow(adbd_user[0], adbd_user[1], ADBD_PID, 1, 10904276, 6512, "do_epoll_wait", "S",
                  ("/apex/com.android.adbd/bin/adbd", "--root_seclabel=u:r:su:s0")),
            PsRow("root", 0, ZYGOTE_PID, 1, 16145460, 111976, "do_sys_poll", "S", ("zygote64",)),
            PsRow("system", 1000, SYSTEM_SERVER_PID, ZYGOTE_PID, 20281500, 278204, "do_epoll_wait", "S",
                  ("system_server",))]
    apps = [SYSTEMUI, LAUNCHER_PACKAGE]
    apps += [p for p, _activity in ctx.system.recent_tasks() if p not in apps]
    focus = ctx.system.current_focus()[0]
    if focus not in apps:
        apps.append(focus)
    for package in apps:
        user, uid = _app_user(package)
        rows.append(PsRow(user, uid, pid_of(package), ZYGOTE_PID, 16923524, 143584, "do_epoll_wait", "S",
                          (package,)))
    table = process_table(ctx)
    for proc in table.running() if table is not None else []:
        rows.append(PsRow(proc.user, proc.uid, proc.pid, proc.ppid, 13108232, 98304, "do_sys_poll", "S",
                          proc.argv))
    rows.append(PsRow("shell", 2000, SHELL_PID, ADBD_PID, 10846508, 3916, "do_wait", "S",
                      ("/system/bin/sh", "-c")))
    return sorted(rows, key=lambda r: r.pid)


# -- ps ---------------------------------------------------------------------------------------------
def _users(spec: str) -> set[str]:
    return {u for u in re.split(r"[,\s]+", spec) if u}


def _ints(spec: str, flag: str) -> set[int]:
    values = {v for v in re.split(r"[,\s]+", spec) if v}
    if not all(v.isdigit() for v in values):
        raise UsageError(f"bad -{flag} '{spec}'")
    return {int(v) for v in values}


@command("ps")
def ps(args: list[str], ctx: CommandContext) -> int:
    opts = parse_options(args, flags="AadeflnwZTM", valued="oOupPkgGst")
    table = process_table(ctx)
    own = table.new_pid() if table is not None else SHELL_PID + 1
    itself = PsRow("root" if ctx.root else "shell", 0 if ctx.root else 2000, own, SHELL_PID, 10808124, 3532,
                   "0", "R", ("ps", *args))  # ps lists itself, running
    rows = [*processes(ctx), itself]
    selected: list[Callable[[PsRow], bool]] = []
    if "u" in opts.values:
        names = _users(opts.values["u"])
        selected.append(lambda r: r.user in names or str(r.uid) in names)
    if "p" in opts.values or opts.args:
        pids = _ints(opts.values.get("p", ""), "p") | _ints(",".join(opts.args), "p")
        selected.append(lambda r: r.pid in pids)
    if "P" in opts.values:
        parents = _ints(opts.values["P"], "P")
        selected.append(lambda r: r.ppid in parents)
    if selected:
        rows = [r for r in rows if any(match(r) for match in selected)]
    spec = opts.values.get("o") or DEFAULT_FIELDS
    if "O" in opts.values:
        spec = DEFAULT_FIELDS.rsplit(",", 1)[0] + "," + opts.values["O"] + ",NAME"
    if "Z" in opts:
        spec = "LABEL," + spec
    ctx.out(format_table(columns(spec), rows))
    return 0


@command("pidof")
def pidof(args: list[str], ctx: CommandContext) -> int:
    """pidof NAME...: the pids whose process name (or argv[0]) is NAME, in /proc's (ascending) order as
    toybox's names_to_pid walks it; -s the first only, -o PID,... left out."""
    opts = parse_options(args, flags="sx", valued="o")
    omit = _ints(opts.values.get("o", ""), "o")
    found = [r.pid for r in processes(ctx)
             if (r.name in opts.args or (r.argv and r.argv[0] in opts.args)) and r.pid not in omit]
    if "s" in opts:
        found = found[:1]
    if not found:
        return 1
    ctx.out(" ".join(str(p) for p in found) + "\n")
    return 0


# -- kill -------------------------------------------------------------------------------------------
def _signal(text: str) -> int | None:
    name = text.upper().removeprefix("SIG")
    if name.isdigit():
        return int(name)
    return SIGNALS.get(name)


@command("kill")
def kill(args: list[str], ctx: CommandContext) -> int:
    """toybox kill [-s SIGNAL | -SIGNAL] PID...: the shell user may signal only its own processes."""
    if args and args[0] == "-l":
        ctx.out("".join(f"{n:>2}) SIG{name}\n" for name, n in sorted(SIGNALS.items(), key=lambda kv: kv[1])))
        return 0
    sig = SIGTERM
    rest = list(args)
    if rest and rest[0] == "-s" and len(rest) > 1:
        value = _signal(rest[1])
        if value is None:
            return ctx.fail(f"unknown signal '{rest[1]}'")
        sig, rest = value, rest[2:]
    elif rest and rest[0].startswith("-") and rest[0] != "--" and len(rest[0]) > 1:
        value = _signal(rest[0][1:])
        if value is None:
            return ctx.fail(f"unknown signal '{rest[0][1:]}'")
        sig, rest = value, rest[1:]
    if rest and rest[0] == "--":
        rest = rest[1:]
    if not rest:
        ctx.err("usage: kill [-l [SIGNAL] | -s SIGNAL | -SIGNAL] PID...\n")
        return 1
    status = 0
    by_pid = {r.pid: r for r in processes(ctx)}
    for text in rest:
        row = by_pid.get(int(text)) if text.isdigit() else None
        if not text.isdigit():
            ctx.fail(f"unknown pid '{text}'")
            status = 1
        elif row is None:
            ctx.fail(f"{text}: No such process")
            status = 1
        elif not _may_signal(ctx, row):
            ctx.fail(f"{text}: Operation not permitted")
            status = 1
        elif sig:
            _deliver(ctx, row, sig)
    return status


def _may_signal(ctx: CommandContext, row: PsRow) -> bool:
    """Root signals anything but the phone's core processes, which the virtual phone keeps running;
    the shell user only its own processes (same uid), as the kernel allows."""
    core = row.pid < 1000 or row.pid == SHELL_PID
    if ctx.root:
        return not core
    return row.uid == 2000 and not core


def _deliver(ctx: CommandContext, row: PsRow, sig: int) -> None:
    if sig in (18, 19):  # CONT / STOP: a stopped process is not modelled; the signal is accepted
        return
    table = process_table(ctx)
    proc = table.get(row.pid) if table is not None else None
    if proc is not None and table is not None:
        table.end(proc, sig)
    elif row.uid >= 10000 and row.name != SYSTEMUI:
        ctx.system.force_stop(row.name)  # an app's process died: its activities go with it


@command("pgrep", "pkill")
def pgrep(args: list[str], ctx: CommandContext) -> int:
    """toybox pgrep/pkill [-clfnovx] [-d DELIM] [-u USER] [-SIGNAL | -l SIGNAL] PATTERN: PATTERN is an
    extended regular expression searched in the process name (-f: the command line, -x: the whole of
    it); pgrep prints the pids, pkill signals them (SIGTERM unless told). Neither matches itself."""
    kill_mode = ctx.name == "pkill"
    sig, rest = SIGTERM, list(args)
    if kill_mode and rest and rest[0].startswith("-") and len(rest[0]) > 1 \
            and _signal(rest[0][1:]) is not None and rest[0][1:] not in ("c", "f", "n", "o", "v", "x"):
        sig, rest = _signal(rest[0][1:]) or SIGTERM, rest[1:]
    # pgrep -l lists names; pkill -l SIGNAL names the signal
    opts = parse_options(rest, flags="cfnovxV" + ("" if kill_mode else "l"),
                         valued="duULl" if kill_mode else "duUL")
    if ("l" in opts.values and kill_mode) or "L" in opts.values:
        value = _signal(opts.values.get("l") or opts.values.get("L", ""))
        if value is None:
            return ctx.fail(f"bad signal '{opts.values.get('l') or opts.values.get('L')}'")
        sig = value
    if len(opts.args) != 1:
        ctx.err(f"usage: {ctx.name} [-clfnovx] [-d DELIM] [-L SIGNAL] [PATTERN]\n")
        return 2
    try:
        pattern = re.compile(opts.args[0])
    except re.error:
        return ctx.fail(f"bad regex '{opts.args[0]}'")
    users = _users(opts.values.get("u", "") + "," + opts.values.get("U", ""))
    found = []
    for row in processes(ctx):
        text = " ".join(row.argv) if "f" in opts else row.name
        hit = pattern.fullmatch(text) if "x" in opts else pattern.search(text)
        if bool(hit) != ("v" in opts) and (not users or row.user in users or str(row.uid) in users):
            found.append(row)
    if "n" in opts or "o" in opts:
        found = found[-1:] if "n" in opts else found[:1]
    if not found:
        return 1
    if kill_mode or "L" in opts.values:
        status = 0
        for row in found:
            if not _may_signal(ctx, row):
                ctx.fail(f"{row.pid}: Operation not permitted")
                status = 1
                continue
            _deliver(ctx, row, sig)
            if "V" in opts:
                ctx.out(f"killed {row.pid} ({row.name}) with signal {sig}\n")
        return status
    if "c" in opts:
        ctx.out(f"{len(found)}\n")
    else:
        sep = opts.values.get("d", "\n")
        items = [f"{r.pid} {r.name}" if "l" in opts else str(r.pid) for r in found]
        ctx.out(sep.join(items) + "\n")
    return 0


# -- app_process -----------------------------------------------------------------------------------
SERVER_BANNER = "[server] INFO: [UiAutomator2Server] Starting Server\n"
ALREADY_REGISTERED = ("java.lang.IllegalStateException: UiAutomationService android.accessibilityservice."
                      "IAccessibilityServiceClient$Stub$Proxy@5deffd5already registered!\n")


def run_while_connected(ctx: CommandContext, proc: Process, table: ProcessTable,
                        step: Callable[[], bool] | None = None, poll_s: float = 0.2) -> int:
    """Keep `proc` running until its client hangs up or it is killed; `step` (when given) does the
    process's work, waiting a little itself, and returns False when the process is done by itself.
    The exit status is the shell's for a process killed by a signal (128 + N), else 0."""
    client = ctx.go_live()
    try:
        while proc.running and client is not None:
            if step is None:
                if client.wait_gone(poll_s):
                    break
            elif not step() or client.wait_gone(0.0):
                break
    finally:
        table.end(proc)
    return EXIT_BY_SIGNAL + proc.exit_signal if proc.exit_signal else 0


@command("app_process", "app_process64", "dalvikvm")
def app_process(args: list[str], ctx: CommandContext) -> int:
    """No Java runs here. The uiautomator2 server's class is the phone's built-in server: it runs as long
    as the client keeps the stream open (u2 3.7 closes it to stop the server) or until killed. Any other
    class never loads."""
    cls = next((a for a in args[1:] if not a.startswith("-") and not a.startswith("/")), "")
    classpath = ctx.env.get("CLASSPATH", "")
    if classpath and not ctx.fs.exists(classpath, ctx.cwd):
        ctx.err(f"Unable to open '{classpath}': No such file or directory\n")
    elif cls == U2_SERVER_CLASS and (table := process_table(ctx)) is not None:
        if table.u2_server() is not None:
            ctx.err(SERVER_BANNER + ALREADY_REGISTERED)
            return 1
        proc = own_process(ctx, table, (ctx.name, *args))
        ctx.out(SERVER_BANNER)
        return run_while_connected(ctx, proc, table)
    ctx.err(f"Error: Could not find class '{cls}'\n" if cls else
            "Error: no class name or --zygote supplied.\n")
    return 1


# -- jobs: wait, read ---------------------------------------------------------------------------------
@command("wait")
def wait(args: list[str], ctx: CommandContext) -> int:
    """mksh's wait: until this shell's background jobs (`CMD &`) have ended."""
    for job in list(ctx.state.jobs):
        job.join()
    ctx.state.jobs.clear()
    return 0


@command("read")
def read(args: list[str], ctx: CommandContext) -> int:
    """mksh's read [-r] NAME...: one line of standard input split over NAMEs (the last takes the rest);
    exit 1 at the end of input. A command of an adb v1 stream has no stdin of its own: it reads the next
    line the client sends (waiting for it)."""
    raw = "-r" in args
    names = [a for a in args if not a.startswith("-")] or ["REPLY"]
    stdin = ctx.stdin_source
    if isinstance(stdin, bytes) and not stdin and ctx.client is not None:
        got = ctx.client.read_line()
        line, ended = (got or b""), got is None or not got.endswith(b"\n")
    else:
        data = ctx.stdin
        line, _, rest = data.partition(b"\n")
        ended = not data
        ctx.stdin = rest
    text = line.decode("utf-8", errors="replace").rstrip("\n")
    if not raw:
        text = text.replace("\\\n", "").replace("\\", "")
    fields = text.split(None, len(names) - 1) if text.strip() else []
    for n, name in enumerate(names):
        ctx.state.variables[name] = fields[n] if n < len(fields) else ""
    return 1 if ended and not text else 0
