"""The phone's network interfaces as `ip` (iproute2) and `ifconfig` (toybox) print them.

The interfaces are an Android emulator's: `lo`, `eth0` (the emulated radio's data link, 10.0.2.15/8 as
an API 33 emulator's `ip -4 addr` shows it) and `wlan0` (the emulated Wi-Fi "AndroidWifi", 10.0.2.16/24,
MAC 02:15:b2:00:00:00, the address an emulator's `dumpsys wifi` reports). They follow the phone's
settings: wlan0 is up with its address only while Wi-Fi is on (`global wifi_on`), eth0 only outside
airplane mode. Formats: iproute2's `ip addr`/`ip link`/`ip route` (also `-4`, `-6`, `-o`, `show [dev]
IF`), toybox ifconfig.c's display_ifconfig (only interfaces that are up unless `-a` or named). The
virtual phone moves no packets, so the counters are 0; interfaces cannot be reconfigured (`ifconfig IF
down` / `ip link set` are refused as for the shell user).
"""

from __future__ import annotations

from dataclasses import dataclass

from spa_bench.phone.shell.context import CommandContext, CommandTable

TABLE = CommandTable()
command = TABLE.command

IFF_FLAGS = ("UP", "BROADCAST", "DEBUG", "LOOPBACK", "POINTOPOINT", "NOTRAILERS", "RUNNING", "NOARP",
             "PROMISC", "ALLMULTI", "MASTER", "SLAVE", "MULTICAST")


@dataclass(frozen=True)
class Interface:
    index: int
    name: str
    kind: str  # "loopback" | "ether"
    mac: str
    up: bool
    ipv4: tuple[str, int] | None  # (address, prefix length) while configured
    ipv6: tuple[str, int, str] | None  # (address, prefix length, scope)
    mtu: int = 1500
    qdisc: str = "mq"

    @property
    def broadcast(self) -> str | None:
        if self.ipv4 is None or self.kind == "loopback":
            return None
        return _ntoa(_aton(self.ipv4[0]) | (0xFFFFFFFF >> self.ipv4[1]))

    @property
    def netmask(self) -> str:
        prefix = self.ipv4[1] if self.ipv4 else 0
        return _ntoa((0xFFFFFFFF << (32 - prefix)) & 0xFFFFFFFF)

    @property
    def network(self) -> str:
        assert self.ipv4 is not None
        return f"{_ntoa(_aton(self.ipv4[0]) & _aton(self.netmask))}/{self.ipv4[1]}"


def _aton(address: str) -> int:
    a, b, c, d = (int(p) for p in address.split("."))
    return (a << 24) | (b << 16) | (c << 8) | d


def _ntoa(value: int) -> str:
    return ".".join(str((value >> shift) & 0xFF) for shift in (24, 16, 8, 0))


def interfaces(ctx: CommandContext) -> list[Interface]:
    wifi = ctx.system.settings_get("global", "wifi_on") == "1"
    radio = ctx.system.settings_get("global", "airplane_mode_on") != "1"
    return [
        Interface(1, "lo", "loopback", "00:00:00:00:00:00", True, ("127.0.0.1", 8), ("::1", 128, "host"),
                  mtu=65536, qdisc="noqueue"),
        Interface(2, "eth0", "ether", "52:54:00:12:34:56", radio, ("10.0.2.15", 8) if radio else None,
                  ("fe80::5054:ff:fe12:3456", 64, "link") if radio else None, qdisc="pfifo_fast"),
        Interface(3, "wlan0", "ether", "02:15:b2:00:00:00", wifi, ("10.0.2.16", 24) if wifi else None,
                  ("fe80::15:b2ff:fe00:0", 64, "link") if wifi else None),
    ]


# -- ip -----------------------------------------------------------------------------------------------
def _link_line(i: Interface, link: bool) -> str:
    """The interface's first line; `ip link` adds the link mode (`mode DEFAULT`)."""
    if i.kind == "loopback":
        flags, state = "LOOPBACK,UP,LOWER_UP", "UNKNOWN"
    else:
        flags, state = ("BROADCAST,MULTICAST,UP,LOWER_UP", "UP") if i.up else ("BROADCAST,MULTICAST", "DOWN")
    mode = " mode DEFAULT" if link else ""
    return (f"{i.index}: {i.name}: <{flags}> mtu {i.mtu} qdisc {i.qdisc} state {state}{mode} "
            "group default qlen 1000")


def _ether_line(i: Interface) -> str:
    if i.kind == "loopback":
        return "    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00"
    return f"    link/ether {i.mac} brd ff:ff:ff:ff:ff:ff"


def _addr_lines(i: Interface, family: str) -> list[str]:
    """(inet, valid_lft) line pairs, iproute2's print_addrinfo with its trailing spaces."""
    lines = []
    if i.ipv4 and family in ("", "4"):
        brd = f" brd {i.broadcast}" if i.broadcast else ""
        scope = "host" if i.kind == "loopback" else "global"
        lines += [f"    inet {i.ipv4[0]}/{i.ipv4[1]}{brd} scope {scope} {i.name}",
                  "       valid_lft forever preferred_lft forever"]
    if i.ipv6 and family in ("", "6"):
        lines += [f"    inet6 {i.ipv6[0]}/{i.ipv6[1]} scope {i.ipv6[2]} ",
                  "       valid_lft forever preferred_lft forever"]
    return lines


def _ip_addr(ctx: CommandContext, ifaces: list[Interface], family: str, oneline: bool, link: bool) -> None:
    """`ip addr` / `ip link`; with -o each address (or link) on one line, its continuation lines joined
    with a backslash, as iproute2 prints for scripts."""
    for i in ifaces:
        addrs = [] if link else _addr_lines(i, family)
        if family and not link and not addrs:
            continue  # `ip -4 addr` leaves out interfaces without an IPv4 address
        if oneline:
            if link:
                ctx.out(f"{_link_line(i, link)}\\{_ether_line(i)}\n")
            for n in range(0, len(addrs), 2):
                ctx.out(f"{i.index}: {i.name}    {addrs[n].strip()}\\{addrs[n + 1]}\n")
            continue
        ctx.out(_link_line(i, link) + "\n")
        if not family or link:
            ctx.out(_ether_line(i) + "\n")
        ctx.out("".join(line + "\n" for line in addrs))


def _ip_route(ctx: CommandContext, ifaces: list[Interface]) -> None:
    for i in ifaces:
        if i.ipv4 and i.kind != "loopback" and i.up:
            ctx.out(f"{i.network} dev {i.name} proto kernel scope link src {i.ipv4[0]} \n")


@command("ip")
def ip(args: list[str], ctx: CommandContext) -> int:
    family, oneline, rest = "", False, list(args)
    while rest and rest[0].startswith("-"):
        opt = rest.pop(0)
        if opt in ("-4", "-6"):
            family = opt[1]
        elif opt in ("-o", "-oneline"):
            oneline = True
        elif opt.startswith("-f") and rest:
            family = {"inet": "4", "inet6": "6"}.get(rest.pop(0), "")
        else:
            ctx.err(f'Option "{opt}" is unknown, try "ip -help".\n')
            return 255
    if not rest:
        ctx.err("Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }\n")
        return 255
    obj, rest = rest[0], rest[1:]
    objects = {"address": "addr", "addr": "addr", "a": "addr", "link": "link", "l": "link", "route": "route",
               "r": "route", "ro": "route"}
    kind = objects.get(obj)
    if kind is None:
        ctx.err(f'Object "{obj}" is unknown, try "ip help".\n')
        return 255
    verb = rest[0] if rest else "show"
    if verb not in ("show", "list", "lst", "sh", "ls", "l"):
        changes = ("add", "del", "flush", "change", "replace")
        if (kind == "link" and verb == "set") or (kind in ("addr", "route") and verb in changes):
            ctx.err("RTNETLINK answers: Operation not permitted\n")
            return 2
        ctx.err(f'Command "{verb}" is unknown, try "ip {obj} help".\n')
        return 255
    words = [w for w in rest[1:] if w != "dev"]
    ifaces = interfaces(ctx)
    if kind == "route":
        _ip_route(ctx, ifaces)
        return 0
    if words:
        chosen = [i for i in ifaces if i.name == words[0]]
        if not chosen:
            ctx.err(f'Device "{words[0]}" does not exist.\n')
            return 1
        ifaces = chosen
    _ip_addr(ctx, ifaces, family, oneline, link=kind == "link")
    return 0


# -- ifconfig -------------------------------------------------------------------------------------------
def _ifconfig_block(i: Interface) -> str:
    flags = 0
    if i.up:
        flags |= 0x1 | 0x40  # UP RUNNING
    flags |= 0x8 if i.kind == "loopback" else 0x2 | 0x1000  # LOOPBACK, or BROADCAST MULTICAST
    kind = "Local Loopback" if i.kind == "loopback" else "Ethernet"
    out = f"{i.name:<9} Link encap:{kind}  "
    if i.kind != "loopback":
        out += f"HWaddr {i.mac}"
    out += "\n"
    if i.ipv4:
        out += f"{' ' * 10}inet addr:{i.ipv4[0]} "
        if i.broadcast:
            out += f" Bcast:{i.broadcast} "
        out += f" Mask:{i.netmask} \n"
    if i.ipv6:
        scope = {"host": "Host", "link": "Link"}.get(i.ipv6[2], "Global")
        out += f"{' ' * 10}inet6 addr: {i.ipv6[0]}/{i.ipv6[1]} Scope: {scope}\n"
    names = "".join(f"{name} " for bit, name in enumerate(IFF_FLAGS) if flags & (1 << bit))
    out += f"{' ' * 10}{names} MTU:{i.mtu}  Metric:1"
    pad = "\n" + " " * 10
    out += (f"{pad}RX packets:0 errors:0 dropped:0 overruns:0 frame:0 "
            f"{pad}TX packets:0 errors:0 dropped:0 overruns:0 carrier:0 "
            f"{pad}collisions:0 txqueuelen:1000 "
            f"{pad}RX bytes:0 TX bytes:0 \n\n")
    return out


@command("ifconfig")
def ifconfig(args: list[str], ctx: CommandContext) -> int:
    show_all = "-a" in args
    names = [a for a in args if not a.startswith("-")]
    ifaces = interfaces(ctx)
    if len(names) > 1:  # a configuration change: SIOCSIFFLAGS etc. need CAP_NET_ADMIN
        if not any(i.name == names[0] for i in ifaces):
            return ctx.fail(f"{names[0]}: No such device")
        return ctx.fail("ioctl 8914: Operation not permitted")
    if names:
        chosen = [i for i in ifaces if i.name == names[0]]
        if not chosen:
            return ctx.fail(f"{names[0]}: No such device")
        ctx.out(_ifconfig_block(chosen[0]))
        return 0
    ctx.out("".join(_ifconfig_block(i) for i in ifaces if i.up or show_all))
    return 0
