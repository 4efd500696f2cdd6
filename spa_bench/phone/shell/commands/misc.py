"""System odds and ends: getprop, setprop, date, sleep, id, whoami, env, uname, reboot, getenforce.
(Processes - ps, pidof, kill, app_process - are in `processes`, the log - log, logcat - in `logs`.)

`getprop` prints every property as `[name]: [value]` (adbutils reads single names, agents grep the
list). `setprop persist.sys.locale` goes to the system's locale setting, `setprop
gsm.sim.operator.iso-country` to telephony's SIM (whose country picks the apps' content). `sleep` really
sleeps, but never longer than MAX_SLEEP_S, so a stray `sleep 3600` cannot hold an ADB stream for an hour.
"""

from __future__ import annotations

import datetime
import re
import time

from spa_bench.phone.shell.context import CommandContext, CommandTable

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


@command("reboot")
def reboot(args: list[str], ctx: CommandContext) -> int:
    ctx.err("reboot: Operation not permitted\n")
    return 1


@command("getenforce")
def getenforce(args: list[str], ctx: CommandContext) -> int:
    ctx.out("Enforcing\n")
    return 0
