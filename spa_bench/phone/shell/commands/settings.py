"""Settings and content providers: settings get|put|delete|list, svc, content query|insert|update|delete.

These are how AndroidWorld-style state checks read a phone, so their output is the real one:
`settings get` prints `null` for an unset key; `content query` prints `Row: 0 _id=1, name=x` lines (NULL
and BLOB as the words) or `No result found.`.
"""

from __future__ import annotations

from spa_bench.phone.api import ProviderError, ProviderRow
from spa_bench.phone.shell.context import CommandContext, CommandTable

TABLE = CommandTable()
command = TABLE.command

NAMESPACES = ("system", "secure", "global")
SETTINGS_USAGE = """Settings provider (settings) commands:
  help
      Print this help text.
  get [--user <USER_ID> | current] NAMESPACE KEY
      Retrieve the current value of KEY.
  put [--user <USER_ID> | current] NAMESPACE KEY VALUE [TAG] [default]
      Change the contents of KEY to VALUE.
  delete [--user <USER_ID> | current] NAMESPACE KEY
      Delete the entry for KEY.
  list [--user <USER_ID> | current] NAMESPACE
      Print all defined keys.
      NAMESPACE is one of {system, secure, global}, case-insensitive
"""


def without_options(args: list[str], *flags: str) -> list[str]:
    """`args` without `--user N` (there is one user) and without the given value-less `flags`."""
    out: list[str] = []
    skip = False
    for a in args:
        if skip:
            skip = False
        elif a == "--user":
            skip = True
        elif a not in flags:
            out.append(a)
    return out


def settings_delete(ctx: CommandContext, namespace: str, key: str) -> int:
    """Delete through the system when it offers it, else through the settings content provider."""
    delete = getattr(ctx.system, "settings_delete", None)
    if callable(delete):
        result = delete(namespace, key)
        return int(result) if isinstance(result, int | bool) else 1
    if ctx.system.settings_get(namespace, key) is None:
        return 0
    quoted = key.replace("'", "''")
    return ctx.system.content_delete(f"content://settings/{namespace}", where=f"name='{quoted}'")


@command("settings")
def settings(args: list[str], ctx: CommandContext) -> int:
    args = without_options(args, "--lineage")
    if not args or args[0] in ("help", "-h"):
        ctx.out(SETTINGS_USAGE)
        return 0
    verb = args[0]
    namespace = args[1].lower() if len(args) > 1 else ""
    needed = {"get": 3, "put": 4, "delete": 3, "list": 2}.get(verb)
    if needed is None or len(args) < needed or namespace not in NAMESPACES:
        ctx.err("Invalid command: " + " ".join(args) + "\n" if needed is None else "Bad arguments\n")
        return 255
    if verb == "get":
        value = ctx.system.settings_get(namespace, args[2])
        ctx.out(("null" if value is None else value) + "\n")
    elif verb == "put":
        ctx.system.settings_put(namespace, args[2], args[3])
    elif verb == "delete":
        try:
            count = settings_delete(ctx, namespace, args[2])
        except ProviderError as exc:
            ctx.err(f"{exc}\n")
            return 255
        ctx.out(f"Deleted {count} rows\n")
    else:
        for key, value in sorted(ctx.system.settings_list(namespace).items()):
            ctx.out(f"{key}={value}\n")
    return 0


_SVC_SETTINGS = {"wifi": "wifi_on", "bluetooth": "bluetooth_on", "data": "mobile_data"}


@command("svc")
def svc(args: list[str], ctx: CommandContext) -> int:
    if len(args) >= 2 and args[0] in _SVC_SETTINGS and args[1] in ("enable", "disable"):
        ctx.system.settings_put("global", _SVC_SETTINGS[args[0]], "1" if args[1] == "enable" else "0")
        return 0
    if len(args) >= 3 and args[0] == "power" and args[1] == "stayon":
        value = {"true": "7", "false": "0", "ac": "1", "usb": "2", "wireless": "4"}.get(args[2])
        if value is not None:
            ctx.system.settings_put("global", "stay_on_while_plugged_in", value)
            return 0
    if args and args[0] in _SVC_SETTINGS:
        ctx.out(f"Control the {args[0]} manager\n\nusage: svc {args[0]} [enable|disable]\n")
        return 0
    ctx.out("Available commands:\n    help     Show information about the subcommands\n"
            "    power    Control the power manager\n    data     Control mobile data connectivity\n"
            "    wifi     Control the Wi-Fi manager\n    bluetooth    Control Bluetooth service\n")
    return 0


# -- content --------------------------------------------------------------------------------------

CONTENT_USAGE = """usage: adb shell content [subcommand] [options]

usage: adb shell content insert --uri <URI> [--user <USER_ID>] --bind <BINDING> [--bind <BINDING>...]
usage: adb shell content update --uri <URI> [--user <userId>] [--where <WHERE>] --bind <BINDING>...
usage: adb shell content delete --uri <URI> [--user <USER_ID>] --bind <BINDING> [--where <WHERE>]
usage: adb shell content query --uri <URI> [--user <USER_ID>] [--projection <PROJECTION>] \
[--where <WHERE>] [--sort <SORT_ORDER>]
  <BINDING> binds a typed value to a column and is formatted:
  <COLUMN_NAME>:<TYPE>:<COLUMN_VALUE> where:
  <TYPE> specifies data type such as:
  b - boolean, s - string, i - integer, l - long, f - float, d - double, n - null
"""


class _ContentArgsError(Exception):
    pass


def _bind(spec: str) -> tuple[str, str | int | float | None]:
    column, sep, rest = spec.partition(":")
    kind, sep2, raw = rest.partition(":")
    if not sep or (not sep2 and kind != "n"):
        raise _ContentArgsError(f"Binding not well formed: {spec}")
    try:
        if kind == "b":
            return column, 1 if raw.lower() == "true" else 0
        if kind in ("i", "l"):
            return column, int(raw)
        if kind in ("f", "d"):
            return column, float(raw)
        if kind == "n":
            return column, None
        if kind == "s":
            return column, raw
    except ValueError:
        raise _ContentArgsError(f"Invalid value for binding {spec}") from None
    raise _ContentArgsError(f"Unsupported type: {kind}")


def format_value(value: str | int | float | bytes | None) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bytes):
        return "BLOB"
    return str(value)


def format_rows(rows: list[ProviderRow]) -> str:
    if not rows:
        return "No result found.\n"
    return "".join(f"Row: {i} " + ", ".join(f"{k}={format_value(v)}" for k, v in row.values.items()) + "\n"
                   for i, row in enumerate(rows))


@command("content")
def content(args: list[str], ctx: CommandContext) -> int:
    if not args or args[0] not in ("query", "insert", "update", "delete"):
        if args and args[0] in ("call", "read", "write", "gettype"):
            ctx.err(f"[ERROR] content {args[0]} is not supported by this virtual phone\n")
            return 1
        ctx.out(CONTENT_USAGE)
        return 0 if not args else 1
    verb = args[0]
    uri = where = sort = None
    projection: list[str] | None = None
    values: dict[str, str | int | float | None] = {}
    try:
        i = 1
        while i < len(args):
            opt = args[i]
            if i + 1 >= len(args):
                raise _ContentArgsError(f"No value for argument: {opt}")
            val = args[i + 1]
            i += 2
            if opt == "--uri":
                uri = val
            elif opt == "--where":
                where = val
            elif opt == "--sort":
                sort = val
            elif opt == "--projection":
                projection = [p for p in val.split(":") if p]
            elif opt == "--bind":
                key, value = _bind(val)
                values[key] = value
            elif opt != "--user":
                raise _ContentArgsError(f"Unsupported argument: {opt}")
        if uri is None:
            raise _ContentArgsError("Content provider URI not specified")
        if verb in ("insert", "update") and not values:
            raise _ContentArgsError("Bindings not specified")
    except _ContentArgsError as exc:
        ctx.err(f"[ERROR] {exc}\n{CONTENT_USAGE}")
        return 1
    try:
        if verb == "query":
            ctx.out(format_rows(ctx.system.content_query(uri, projection, where, sort)))
        elif verb == "insert":
            ctx.system.content_insert(uri, values)
        elif verb == "update":
            ctx.system.content_update(uri, values, where)
        else:
            ctx.system.content_delete(uri, where)
    except ProviderError as exc:
        ctx.err(f"{exc}\n")
        return 1
    return 0
