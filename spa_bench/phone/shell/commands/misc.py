"""System odds and ends: getprop, setprop, date, sleep, id, whoami, env, uname, ps, pidof, log, logcat,
reboot, app_process, getenforce.

`getprop` prints every property as `[name]: [value]` (adbutils reads single names, agents grep the
list). `setprop persist.sys.locale` goes to the system's locale setting, `setprop
gsm.sim.operator.iso-country` to telephony's SIM (whose country picks the apps' content). `sleep` really
sleeps, but never longer than MAX_SLEEP_S, so a stray `sleep 3600` cannot hold an ADB stream for an hour.
"""

from __future__ import annotations

import datetime
import re
import time

from spa_bench.phone.shell.commands.ids import LAUNCHER_PACKAGE, pid_of
from spa_bench.phone.shell.context import CommandContext, CommandTable
from spa_bench.phone.shell.expand import SHELL_PID

TABLE = CommandTable()
command = TABLE.command

MAX_SLEEP_S = 10.0
LOCALE_PROPERTY = "persist.sys.locale"
SIM_COUNTRY_PROPERTY = "gsm.sim.operator.iso-country"
ID_LINE = ("uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),"
           "1015(sdcard_rw),1028(sdcard_r),1078(ext_data_rw),1079(ext_obb_rw),3001(net_bt_admin),"
           "3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),3011(uhid),3012(readtracefs) "
           "context=u:r:shell:s0")
ROOT_ID_LINE = ("uid=0(root) gid=0(root) groups=0(root),1004(input),1007(log),1011(adb),1015(sdcard_rw),"
                "1028(sdcard_r),1078(ext_data_rw),1079(ext_obb_rw),3001(net_bt_admin),3002(net_bt),3003(inet),"
                "3006(net_bw_stats),3009(readproc),3011(uhid),3012(readtracefs) context=u:r:su:s0")


def properties(ctx: CommandContext) -> dict[str, str]:
    props = dict(ctx.system.getprop())
    props.update(getattr(ctx.shell, "properties", {}))
    return props


@command("getprop")
def getprop(args: list[str], ctx: CommandContext) -> int:
    props = properties(ctx)
    names = [a for a in args if not a.startswith("-")]
    if not names:
        ctx.out("".join(f"[{k}]: [{v}]\n" for k, v in sorted(props.items())))
        return 0
    default = names[1] if len(names) > 1 else ""
    ctx.out(props.get(names[0], default) + "\n")
    return 0


@command("setprop")
def setprop(args: list[str], ctx: CommandContext) -> int:
    if len(args) != 2:
        ctx.err("usage: setprop NAME VALUE\n\nSets an Android system property.\n")
        return 1
    name, value = args
    current = properties(ctx)
    if name.startswith("ro.") and name in current:
        ctx.err(f"Failed to set property '{name}' to '{value}'.\nSee dmesg for error reason.\n")
        return 1
    if name == LOCALE_PROPERTY:  # the OS derives the property from its locale setting
        ctx.system.settings_put("system", "system_locales", value)
        return 0
    sim_country = getattr(ctx.system, "set_sim_country", None)
    if name == SIM_COUNTRY_PROPERTY and callable(sim_country):  # telephony's: it picks the apps' content
        sim_country(value)
        return 0
    hook = getattr(ctx.system, "setprop", None)
    if callable(hook):
        hook(name, value)
    else:
        store = getattr(ctx.shell, "properties", None)
        if isinstance(store, dict):
            store[name] = value
    return 0


def now(ctx: CommandContext) -> datetime.datetime:
    """The phone's clock when the system has one (`now()`), else the host's, as an aware datetime."""
    clock = getattr(ctx.system, "now", None) or getattr(getattr(ctx.system, "clock", None), "now", None)
    value = clock() if callable(clock) else None
    if isinstance(value, datetime.datetime):
        return value if value.tzinfo else value.replace(tzinfo=datetime.UTC)
    if isinstance(value, int | float):
        return datetime.datetime.fromtimestamp(value, datetime.UTC)
    return datetime.datetime.now(datetime.UTC)


@command("date")
def date(args: list[str], ctx: CommandContext) -> int:
    moment = now(ctx)
    fmt = "%a %b %e %H:%M:%S %Z %Y"
    for a in args:
        if a.startswith("+"):
            fmt = a[1:]
        elif a == "-u":
            moment = moment.astimezone(datetime.UTC)
        elif a == "-s" or re.fullmatch(r"\d{8,12}(\.\d\d)?", a):
            ctx.err("date: cannot set date: Operation not permitted\n")
            return 1
        elif a.startswith("-"):
            return ctx.fail(f"Unknown option '{a.lstrip('-')[:1]}'")
    fmt = fmt.replace("%s", str(int(moment.timestamp()))).replace("%N", f"{moment.microsecond * 1000:09d}")
    if moment.utcoffset() == datetime.timedelta(0):
        fmt = fmt.replace("%Z", "GMT")  # bionic names UTC "GMT", as a default-timezone phone shows
    ctx.out(moment.strftime(fmt) + "\n")
    return 0


@command("sleep")
def sleep(args: list[str], ctx: CommandContext) -> int:
    if not args:
        return ctx.fail("Needs 1 argument")
    total = 0.0
    for a in args:
        m = re.fullmatch(r"(\d*\.?\d+)([smhd]?)", a)
        if not m:
            return ctx.fail(f"Not a number '{a}'")
        total += float(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]
    time.sleep(min(total, MAX_SLEEP_S))
    return 0


@command("id")
def id_(args: list[str], ctx: CommandContext) -> int:
    with ctx.system.lock:  # adbd's restart switches root and drops connections under it (adb/adbd.py)
        root = ctx.root
    if "-u" in args or "-g" in args:
        if root:
            ctx.out("root\n" if "-n" in args else "0\n")
        else:
            ctx.out("shell\n" if "-n" in args else "2000\n")
    else:
        ctx.out((ROOT_ID_LINE if root else ID_LINE) + "\n")
    return 0


@command("whoami")
def whoami(args: list[str], ctx: CommandContext) -> int:
    ctx.out("root\n" if ctx.root else "shell\n")
    return 0


@command("env", "printenv")
def env(args: list[str], ctx: CommandContext) -> int:
    if args and ctx.name == "env":
        assigns = {}
        while args and "=" in args[0]:
            k, _, v = args.pop(0).partition("=")
            assigns[k] = v
        if args:
            saved = ctx.env
            ctx.env = saved | assigns
            try:
                return ctx.shell.run_argv(args, ctx)
            finally:
                ctx.env = saved
        ctx.out("".join(f"{k}={v}\n" for k, v in (ctx.env | assigns).items()))
        return 0
    if args:
        value = ctx.env.get(args[0])
        if value is None:
            return 1
        ctx.out(value + "\n")
        return 0
    ctx.out("".join(f"{k}={v}\n" for k, v in ctx.env.items()))
    return 0


@command("uname")
def uname(args: list[str], ctx: CommandContext) -> int:
    release = "6.1.57-android14-11-spa-vphone"
    fields = {"s": "Linux", "n": "localhost", "r": release, "v": "#1 SMP PREEMPT", "m": "aarch64",
              "o": "Toybox"}
    flags = "".join(a.lstrip("-") for a in args if a.startswith("-"))
    if "a" in flags:
        flags = "snrvmo"
    chosen = [fields[c] for c in "snrvmo" if c in (flags or "s")]
    ctx.out(" ".join(chosen) + "\n")
    return 0


def _processes(ctx: CommandContext) -> list[tuple[str, int, int, str]]:
    """(user, pid, ppid, name) of the phone's notable processes: system ones and running apps."""
    running = getattr(ctx.system, "running_packages", None)
    apps = list(running()) if callable(running) else []
    focus = ctx.system.current_focus()[0]
    for pkg in (LAUNCHER_PACKAGE, focus):
        if pkg not in apps:
            apps.append(pkg)
    procs = [("root", 1, 0, "init"), ("root", 2, 0, "[kthreadd]"), ("root", 380, 1, "zygote64"),
             ("system", 600, 380, "system_server"), ("u0_a100", pid_of("com.android.systemui"), 380,
                                                     "com.android.systemui")]
    for n, pkg in enumerate(apps):
        if pkg != "com.android.systemui":
            procs.append((f"u0_a{110 + n}", pid_of(pkg), 380, pkg))
    return procs


@command("ps")
def ps(args: list[str], ctx: CommandContext) -> int:
    every = any(a in ("-A", "-e", "-ef", "-Af") for a in args)
    procs = _processes(ctx) if every else []
    procs += [("shell", SHELL_PID, 1, "sh"), ("shell", SHELL_PID + 1, SHELL_PID, "ps")]
    names = [a for a in args if not a.startswith("-")]
    ctx.out("USER           PID  PPID     VSZ    RSS WCHAN            ADDR S NAME                       \n")
    for user, pid, ppid, name in procs:
        if names and name not in names:
            continue
        ctx.out(f"{user:<10}{pid:>7}{ppid:>6} {'2163740':>7} {'98304':>6} {'do_epoll_wait':<16} "
                f"{'0':>4} S {name}\n")
    return 0


@command("pidof")
def pidof(args: list[str], ctx: CommandContext) -> int:
    pids = [str(pid) for _, pid, _, name in _processes(ctx) if name in args]
    if not pids:
        return 1
    ctx.out(" ".join(pids) + "\n")
    return 0


@command("log", "logwrapper")
def log(args: list[str], ctx: CommandContext) -> int:
    return 0


@command("logcat")
def logcat(args: list[str], ctx: CommandContext) -> int:
    """The phone keeps no log buffer: `-c` succeeds, dumps are empty."""
    if any(a in ("-c", "--clear", "-g") for a in args):
        return 0
    ctx.out("--------- beginning of main\n")
    return 0


@command("reboot")
def reboot(args: list[str], ctx: CommandContext) -> int:
    ctx.err("reboot: Operation not permitted\n")
    return 1


@command("getenforce")
def getenforce(args: list[str], ctx: CommandContext) -> int:
    ctx.out("Enforcing\n")
    return 0


@command("app_process", "app_process64", "dalvikvm")
def app_process(args: list[str], ctx: CommandContext) -> int:
    """No Java runs here (uiautomator2's server is built into the phone), so a class never loads."""
    cls = next((a for a in args[1:] if not a.startswith("-") and not a.startswith("/")), "")
    classpath = ctx.env.get("CLASSPATH", "")
    if classpath and not ctx.fs.exists(classpath, ctx.cwd):
        ctx.err(f"Unable to open '{classpath}': No such file or directory\n")
    ctx.err(f"Error: Could not find class '{cls}'\n" if cls else
            "Error: no class name or --zygote supplied.\n")
    return 1
