"""`service`: the service manager's shell face (cmds/service/service.cpp).

`service list` prints `Found N services:` then `i<TAB>name: [interface]`; `service check NAME` prints
`Service NAME: found|not found`. `service call NAME CODE ...` is accepted for every registered service,
but the virtual phone implements no raw binder transactions, so every call gets the reply an AIDL stub
gives a code it does not know: UNKNOWN_TRANSACTION, printed as Parcel's error form.
"""

from __future__ import annotations

from spa_bench.phone.shell.context import CommandContext, CommandTable

TABLE = CommandTable()
command = TABLE.command

# name -> interface descriptor, as `service list` shows them on an Android 14 emulator image.
SERVICE_INTERFACES: dict[str, str] = {
    "SurfaceFlinger": "android.ui.ISurfaceComposer",
    "activity": "android.app.IActivityManager",
    "activity_task": "android.app.IActivityTaskManager",
    "battery": "",
    "clipboard": "android.content.IClipboard",
    "content": "android.content.IContentService",
    "display": "android.hardware.display.IDisplayManager",
    "input": "android.hardware.input.IInputManager",
    "input_method": "com.android.internal.view.IInputMethodManager",
    "location": "android.location.ILocationManager",
    "notification": "android.app.INotificationManager",
    "package": "android.content.pm.IPackageManager",
    "phone": "com.android.internal.telephony.ITelephony",
    "power": "android.os.IPowerManager",
    "settings": "",
    "statusbar": "com.android.internal.statusbar.IStatusBarService",
    "telephony.registry": "com.android.internal.telephony.ITelephonyRegistry",
    "wifi": "android.net.wifi.IWifiManager",
    "window": "android.view.IWindowManager",
}
USAGE = """Usage: service [-h|-?]
       service list
       service check SERVICE
       service call SERVICE CODE [i32 N | i64 N | f N | d N | s16 STR | null | fd f | nfd n | afd f ] ...
Options:
   i32: Write the 32-bit integer N into the send parcel.
   i64: Write the 64-bit integer N into the send parcel.
   f:   Write the 32-bit single-precision number N into the send parcel.
   d:   Write the 64-bit double-precision number N into the send parcel.
   s16: Write the UTF-16 string STR into the send parcel.
  null: Write a null binder into the send parcel.
    fd: Write a file descriptor for the file f into the send parcel.
   nfd: Write the file descriptor n into the send parcel.
   afd: Write an ashmem file descriptor for a region containing the data from
          file f into the send parcel.
"""
UNKNOWN_TRANSACTION = 'Result: Parcel(Error: 0xffffffb6 "Not a data message")\n'


@command("service")
def service(args: list[str], ctx: CommandContext) -> int:
    if not args or args[0] in ("-h", "-?"):
        ctx.out(USAGE)
        return 0
    verb, rest = args[0], args[1:]
    if verb == "list":
        names = sorted(SERVICE_INTERFACES)
        ctx.out(f"Found {len(names)} services:\n" + "".join(
            f"{i}\t{name}: [{SERVICE_INTERFACES[name]}]\n" for i, name in enumerate(names)))
        return 0
    if verb == "check":
        if not rest:
            ctx.err("service: No service specified for check\n" + USAGE)
            return 10
        found = "found" if rest[0] in SERVICE_INTERFACES else "not found"
        ctx.out(f"Service {rest[0]}: {found}\n")
        return 0
    if verb == "call":
        if len(rest) < 2:
            ctx.err("service: No service specified for call\n" if not rest else
                    "service: No code specified for call\n")
            ctx.err(USAGE)
            return 10
        if rest[0] not in SERVICE_INTERFACES:
            ctx.err(f"service: Service {rest[0]} does not exist\n")
            return 10
        ctx.out(UNKNOWN_TRANSACTION)
        return 0
    ctx.err(f"service: Unknown command {verb}\n" + USAGE)
    return 10
