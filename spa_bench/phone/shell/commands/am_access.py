"""The activity manager's refusals to the shell user, worded and exited as Android 14 does.

`am` is `cmd activity`: ActivityManagerShellCommand runs inside system_server, so a SecurityException
thrown by the activity starter or the broadcast queue comes back through BasicShellCommandHandler.exec,
which prints an empty line, `Exception occurred while executing 'start':` and the stack trace on stderr,
and the command exits 255 (onCommand's -1). `startservice` is answered by am itself:
`Error: Requires permission not exported from uid N` (ActiveServices' "!" component), exit 255.
uid 0 (`adb root`, `su`) and the system uid pass every check, as ActivityManager.checkComponentPermission
grants them everything.
"""

from __future__ import annotations

from spa_bench.phone.api import Component, PackageInfo
from spa_bench.phone.shell.commands.ids import pid_of
from spa_bench.phone.system.access import SHELL_PERMISSIONS, SHELL_UID, is_protected_broadcast, package_uid

_START_TRACE = (
    "com.android.server.wm.ActivityTaskSupervisor.checkStartAnyActivityPermission(ActivityTaskSupervisor.java:1186)",
    "com.android.server.wm.ActivityStarter.executeRequest(ActivityStarter.java:1158)",
    "com.android.server.wm.ActivityStarter.execute(ActivityStarter.java:740)",
    "com.android.server.wm.ActivityTaskManagerService.startActivityAsUser(ActivityTaskManagerService.java:1286)",
    "com.android.server.wm.ActivityTaskManagerService.startActivityAsUser(ActivityTaskManagerService.java:1230)",
    "com.android.server.am.ActivityManagerService.startActivityAsUserWithFeature(ActivityManagerService.java:3174)",
    "com.android.server.am.ActivityManagerShellCommand.runStartActivity(ActivityManagerShellCommand.java:876)",
    "com.android.server.am.ActivityManagerShellCommand.onCommand(ActivityManagerShellCommand.java:248)",
)
_BROADCAST_TRACE = (
    "com.android.server.am.ActivityManagerService.broadcastIntentLockedTraced(ActivityManagerService.java:14597)",
    "com.android.server.am.ActivityManagerService.broadcastIntentLocked(ActivityManagerService.java:14252)",
    "com.android.server.am.ActivityManagerService.broadcastIntentWithFeature(ActivityManagerService.java:15283)",
    "com.android.server.am.ActivityManagerShellCommand.runSendBroadcast(ActivityManagerShellCommand.java:1020)",
    "com.android.server.am.ActivityManagerShellCommand.onCommand(ActivityManagerShellCommand.java:258)",
)
_SHELL_TRACE = (
    "com.android.modules.utils.BasicShellCommandHandler.exec(BasicShellCommandHandler.java:97)",
    "android.os.ShellCommand.exec(ShellCommand.java:38)",
    "com.android.server.am.ActivityManagerService.onShellCommand(ActivityManagerService.java:10208)",
    "android.os.Binder.shellCommand(Binder.java:1107)",
    "android.os.Binder.onTransact(Binder.java:925)",
    "android.app.IActivityManager$Stub.onTransact(IActivityManager.java:5406)",
    "com.android.server.am.ActivityManagerService.onTransact(ActivityManagerService.java:2767)",
    "android.os.Binder.execTransactInternal(Binder.java:1392)",
    "android.os.Binder.execTransact(Binder.java:1299)",
)
AM_PID = pid_of("cmd activity")  # the `cmd` process that carries the shell's binder call


def _exception(verb: str, message: str, frames: tuple[str, ...]) -> str:
    trace = "".join(f"\tat {frame}\n" for frame in (*frames, *_SHELL_TRACE))
    return f"\nException occurred while executing '{verb}':\njava.lang.SecurityException: {message}\n{trace}"


def activity_refusal(info: PackageInfo, component: Component | None, intent_text: str,
                     verb: str) -> str | None:
    """The stderr of a shell `am start` that ActivityTaskSupervisor refuses, or None when it may start:
    an explicit component that is not exported (an undeclared one is not reached here: am answers
    `Error type 3` for it first)."""
    if component is None or component.exported:
        return None
    message = (f"Permission Denial: starting {intent_text} from null (pid={AM_PID}, uid={SHELL_UID}) "
               f"not exported from uid {package_uid(info.name)}")
    return _exception(verb, message, _START_TRACE)


def broadcast_refusal(action: str, verb: str) -> str | None:
    """The stderr of a shell `am broadcast` of a protected broadcast (only system code sends those)."""
    if not is_protected_broadcast(action):
        return None
    message = f"Permission Denial: not allowed to send broadcast {action} from pid={AM_PID}, uid={SHELL_UID}"
    return _exception(verb, message, _BROADCAST_TRACE)


def service_refusal(info: PackageInfo, component: Component) -> str | None:
    """am's own `Error: ...` line for a service the shell may not start (ActiveServices answers a
    non-exported service with "not exported from uid N", a guarded one with its permission)."""
    if not component.exported:
        return f"Error: Requires permission not exported from uid {package_uid(info.name)}\n"
    if component.permission and component.permission not in SHELL_PERMISSIONS:
        return f"Error: Requires permission {component.permission}\n"
    return None


def may_receive(component: Component | None, root: bool) -> bool:
    """Whether an explicit broadcast reaches a manifest receiver: a non-exported one, or one guarded by a
    permission the shell lacks, is skipped (BroadcastQueue logs it; am still prints result=0)."""
    if root or component is None:
        return True
    return component.exported and (component.permission is None or component.permission in SHELL_PERMISSIONS)
