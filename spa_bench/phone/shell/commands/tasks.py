"""Tasks as the activity manager lists them: `dumpsys activity recents`, `am stack list` and
`am stack remove` (AndroidWorld's close_recents reads `id=(\\d+)` from the recents dump and removes each;
android_env reads the `visible=true` line of `am stack list` for the foreground activity).

Layouts follow Android 13: RecentTasks.dump (`* Recent #N: Task{hash #ID type=... A=uid:affinity ...}`
then `taskId=ID rootTaskId=ID`) and RootTaskInfo.toString (`RootTask id=... bounds=... displayId=0
userId=0`, then `  taskId=ID: pkg/cls bounds=... userId=0 visible=B topActivity=ComponentInfo{pkg/cls}`).
"""

from __future__ import annotations

from spa_bench.phone.shell.commands.activity import short_component
from spa_bench.phone.shell.commands.ids import HOME_ROOT_TASK_ID, LAUNCHER_PACKAGE, obj_id, pid_of, task_id
from spa_bench.phone.shell.context import CommandContext

APP_UID_BASE = 10000


def _tasks(ctx: CommandContext) -> list[tuple[str, str]]:
    """(package, top activity) of every task, most recent first, the home task where it stands."""
    front, front_activity = ctx.system.current_focus()
    apps = [(p, a) for p, a in ctx.system.recent_tasks() if p != LAUNCHER_PACKAGE]
    home = [(p, a) for p, a in ctx.system.recent_tasks() if p == LAUNCHER_PACKAGE]
    home = home or ([(front, front_activity)] if front == LAUNCHER_PACKAGE else [])
    if front == LAUNCHER_PACKAGE or not apps:
        return home + apps
    return apps[:1] + home + apps[1:]


def _uid(package: str) -> int:
    return APP_UID_BASE + pid_of(package) % 1000


def dump_recents(ctx: CommandContext) -> str:
    front = ctx.system.current_focus()[0]
    lines = ["ACTIVITY MANAGER RECENT TASKS (dumpsys activity recents)", "mRecentsUid=10081",
             f"mRecentsComponent=ComponentInfo{{{LAUNCHER_PACKAGE}/com.android.quickstep.RecentsActivity}}",
             "mFreezeTaskListReordering=false", "mFreezeTaskListReorderingPendingTimeout=false",
             "  Recent tasks:"]
    for n, (package, activity) in enumerate(_tasks(ctx)):
        tid = task_id(package)
        home = package == LAUNCHER_PACKAGE
        root = HOME_ROOT_TASK_ID if home else tid
        comp = short_component(package, activity)
        visible = "true" if package == front else "false"
        kind = f"type=home I={comp}" if home else f"type=standard A={_uid(package)}:{package}"
        category = "HOME" if home else "LAUNCHER"
        record = f"ActivityRecord{{{obj_id('r' + package + activity)} u0 {comp}}} t{tid}}}"
        lines += [
            f"  * Recent #{n}: Task{{{obj_id('t' + package)} #{tid} {kind} U=0"
            + (f" rootTaskId={root}" if home else "")
            + f" visible={visible} visibleRequested={visible} mode=fullscreen translucent=false sz=1}}",
            f"    userId=0 effectiveUid=u0a{_uid(package) - APP_UID_BASE} mCallingUid=0 "
            "mUserSetupComplete=true mCallingPackage=null mCallingFeatureId=null",
            f"    intent={{act=android.intent.action.MAIN cat=[android.intent.category.{category}] "
            f"flg=0x10200000 cmp={comp}}}",
            f"    mActivityComponent={comp}",
            f"    activityType={2 if home else 1}",
            f"    Activities=[{record}]",
            "    askedCompatMode=false inRecents=true isAvailable=true",
            f"    taskId={tid} rootTaskId={root}",
        ]
    return "\n".join(lines) + "\n"


def stack_list(ctx: CommandContext) -> str:
    w, h = ctx.system.screen_size()
    bounds = f"[0,0][{w},{h}]"
    front = ctx.system.current_focus()[0]
    out: list[str] = []
    for package, activity in _tasks(ctx):
        tid = task_id(package)
        root = HOME_ROOT_TASK_ID if package == LAUNCHER_PACKAGE else tid
        visible = "true" if package == front else "false"
        out += [f"RootTask id={root} bounds={bounds} displayId=0 userId=0",
                f" configuration={{1.0 ?mcc?mnc [en_US] ldltr {'land' if w > h else 'port'} finger}}",
                f"  taskId={tid}: {package}/{activity} bounds={bounds} userId=0 visible={visible} "
                f"topActivity=ComponentInfo{{{package}/{activity}}}", ""]
    return "\n".join(out) + ("\n" if out else "")


def stack_remove(ctx: CommandContext, ids: list[str]) -> int:
    """`am stack remove ID`: removes the app task with that id (or whose root task it is). Like
    ActivityTaskManagerService.removeRootTask, an unknown id or the home task is ignored silently."""
    for raw in ids:
        if not raw.lstrip("-").isdigit():
            ctx.err(f'Exception occurred while executing \'stack\':\njava.lang.NumberFormatException: '
                    f'For input string: "{raw}"\n')
            return 255
        for package, _activity in _tasks(ctx):
            if package != LAUNCHER_PACKAGE and task_id(package) == int(raw):
                ctx.system.remove_task(package)
    return 0


def am_stack(args: list[str], ctx: CommandContext) -> int:
    verb, rest = (args[0], args[1:]) if args else ("", [])
    if verb == "list":
        ctx.out(stack_list(ctx))
        return 0
    if verb == "remove":
        if not rest:
            ctx.err("Error: no root task id specified\n")
            return 255
        return stack_remove(ctx, rest[:1])
    ctx.err(f"Error: unknown command '{verb}'\n")
    return 255
