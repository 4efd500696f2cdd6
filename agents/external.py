"""`external`: run an existing agent program, unchanged, once per episode, and import what it recorded.

    spa-bench run --agent external --agent-arg cmd="python my_agent.py" --agent-arg model=gpt-4o

The contract with the program:
- It is started once per episode (after the harness has reset the device, run the task's setup and
  opened the task's app), in the current directory `cwd` (default: its output folder, below; words of
  `cmd` that name files where spa-bench runs, like `my_agent.py`, are made absolute first), and must
  drive the phone itself - over `adb -s $ANDROID_SERIAL ...`, adbutils or uiautomator2 (the adb server
  is the harness's, so $ANDROID_ADB_SERVER_PORT is passed on). It gets the harness's adb: the folder of
  the adb binary the harness uses (PATH's, else the one bundled with adbutils, so a pip-only machine
  works) comes first on its PATH, and $ADB is that binary - a program that runs plain `adb` needs no
  adb installed.
- Environment: SPA_BENCH_SERIAL and ANDROID_SERIAL (the device), SPA_BENCH_INSTRUCTION (as shown to
  agents: single-app tasks carry SPA-Bench's "This is the opened app ..." prefix), SPA_BENCH_LANGUAGE
  (en | zh), SPA_BENCH_MAX_ROUNDS (step limit), SPA_BENCH_OUTPUT_DIR (write the recording here: a fresh
  temporary folder outside the run folder, copied into the episode's agent/ folder when the episode
  ends), SPA_BENCH_TASK_ID, SPA_BENCH_APP (the task's start app package, if any), SPA_BENCH_TIME_LIMIT
  (seconds), SPA_BENCH_API_KEY (when a key is given, below). The rest of the environment is inherited
  (API keys included). Nothing of the answer key is among them: no check, expected answer, golden
  script, near miss or simulated user's reply is in the program's environment, arguments or folder.
- Arguments: the same values are appended as `--serial S --instruction TEXT --lang en|zh --max-rounds N
  --output-dir DIR --task-id ID`, unless `pass_args=false`, or unless `cmd` contains placeholders
  ({serial} {instruction} {language} {max_rounds} {output_dir} {task_id} {app}), which are filled in
  instead - so a program with its own command line runs without a wrapper.
- Keys: a program that takes its key on its command line (SPA-Bench's agents: `--openai_api_key KEY`)
  gets it from `{api_key}`, filled from `api_key_env=NAME` (the key stays in the environment, the
  recommended way) or `api_key=KEY`. Wherever the harness writes (episode log, manifest, the program's
  stdout.log/stderr.log, report), the key is redacted - also one typed straight into `cmd`, and the
  values of secret-named environment variables (spa_bench.secrets). Captured output is scrubbed line by
  line before it reaches the disk; files the program writes in its output folder are scrubbed when it
  ends.
- Time limit: `timeout_s` (default: the episode time limit, --episode-timeout). Past it, the program's
  whole process group gets SIGTERM, then SIGKILL after `kill_grace_s`; the episode ends as
  episode_timeout. Ctrl-C of the run kills it the same way (interrupted).
- Output (optional, SPA-Bench's recording format, read by spa_bench.agent.external.read_recording):
  0.png, 1.png, ... (the screen before each step, then the final screen), log.json (one object per
  step with prompt_tokens, completion_tokens and action [TYPE, {detail_type, detail}], then a summary
  object with total_steps, finish_signal, elapsed_time_initial, elapsed_time_exec, total_*_tokens),
  error.json. The program's stdout and stderr go to stdout.log and stderr.log in the same folder.
- Exit code (SPA-Bench's): 0 finished, 1 unexpected error, 2 expected error (no rerun), 3 expected error
  (rerun needed), 4 maximum rounds reached. In the episode log: finish_signal 1 -> done; exit 4 ->
  max_steps; exit 0 -> done when there is no log.json, else max_steps (it stopped without saying done);
  exit 2 -> infeasible (it gave up knowingly); 1, 3 and anything else -> agent_error with the tail of
  stderr. `agent_exit` in the log keeps the code, its meaning, finish_signal and the program's timings.
The harness then takes its own final screenshot and checks the device state as for any agent; each
recorded step becomes one StepRecord with its screenshot, its action (converted where possible, raw
otherwise) and its tokens.

Arguments: cmd (required), timeout_s, pass_args (true), cwd, kill_grace_s (5), model (for pricing the
recorded tokens from the price table; without it, or for an unknown model, cost is unknown), price_in /
price_out (USD per million tokens), api_key_env / api_key (for `{api_key}` and $SPA_BENCH_API_KEY).
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from spa_bench.actions import Finish
from spa_bench.agent import AgentStep, BaseAgent, TaskContext
from spa_bench.agent.external import EpisodeOutcome, Pricer, Recording, read_recording
from spa_bench.device.observation import Observation
from spa_bench.errors import ConfigError
from spa_bench.models.prices import PriceTable
from spa_bench.results.schema import AgentExit, ErrorInfo, Termination
from spa_bench.secrets import ByteScrubber, redact_argv, register_secrets, secrets_in_args

MEANINGS = {0: "finished", 1: "unexpected error (rerun may be needed)", 2: "expected error (no rerun)",
            3: "expected error (rerun needed)", 4: "maximum rounds reached"}
PLACEHOLDERS = ("serial", "instruction", "language", "max_rounds", "output_dir", "task_id", "app")
STDERR_TAIL = 4000
PUMP_JOIN_S = 10.0


class ExternalAgent(BaseAgent):
    def __init__(self, cmd: str = "", timeout_s: float | None = None, pass_args: bool = True,
                 cwd: str | None = None, kill_grace_s: float = 5.0, model: str | None = None,
                 price_in: float | None = None, price_out: float | None = None,
                 api_key_env: str | None = None, api_key: str | None = None) -> None:
        if not str(cmd).strip():
            raise ConfigError('external agent needs a command: --agent-arg cmd="python my_agent.py"')
        self.cmd = str(cmd)
        self.timeout_s = float(timeout_s) if timeout_s is not None else None
        self.pass_args = bool(pass_args)
        self.cwd = cwd
        self.kill_grace_s = float(kill_grace_s)
        self.pricer = _pricer(model, price_in, price_out)
        self.api_key = _key(api_key_env, api_key)
        if "{api_key}" in self.cmd and not self.api_key:
            raise ConfigError("external agent: cmd uses {api_key} but no key is given: "
                              "--agent-arg api_key_env=NAME (a variable holding the key) or api_key=KEY")
        # what must never reach the run folder: the key, and secret options typed into cmd
        self.secrets = secrets_in_args({"cmd": self.cmd, "api_key": self.api_key or ""})
        register_secrets(self.secrets)

    def step(self, observation: Observation) -> AgentStep:
        raise RuntimeError("the external agent runs whole episodes (run_episode), not single steps")

    # -- the episode ----------------------------------------------------------------------------------
    def run_episode(self, context: TaskContext, stop: threading.Event) -> EpisodeOutcome:
        values = {"serial": context.serial, "instruction": context.instruction, "language": context.language,
                  "max_rounds": str(context.max_steps), "output_dir": str(context.workdir),
                  "task_id": context.task.id, "app": context.task.start_package or ""}
        argv = self.argv(values)
        if self.cwd is None:  # it runs in its output folder: files named relative to ours still work
            argv = absolute_paths(argv)
        limit = self.timeout_s or context.time_limit_s or 3600.0
        env = dict(os.environ, ANDROID_SERIAL=context.serial, SPA_BENCH_SERIAL=context.serial,
                   SPA_BENCH_INSTRUCTION=context.instruction, SPA_BENCH_LANGUAGE=context.language,
                   SPA_BENCH_MAX_ROUNDS=str(context.max_steps), SPA_BENCH_OUTPUT_DIR=str(context.workdir),
                   SPA_BENCH_TASK_ID=context.task.id, SPA_BENCH_APP=values["app"],
                   SPA_BENCH_TIME_LIMIT=str(limit))
        env |= harness_adb_env(env.get("PATH", ""))
        shim = AdbShim.make(env)  # notes every adb command line for the episode's shell audit
        if self.api_key:
            env["SPA_BENCH_API_KEY"] = self.api_key
        out_path, err_path = context.workdir / "stdout.log", context.workdir / "stderr.log"
        scrub = ByteScrubber(self.secrets)
        started = time.monotonic()
        try:
            process = subprocess.Popen(argv, cwd=self.cwd or context.workdir, env=env,
                                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, start_new_session=True)
        except OSError as exc:
            message = f"cannot start {argv[0]!r}: {exc}"
            exit_info = AgentExit(command=redact_argv(argv), meaning="not started", completed=False)
            return EpisodeOutcome([], "agent_error", errors=[ErrorInfo(
                kind="agent", type="ExternalAgentNotStarted", message=message)], exit=exit_info)
        assert process.stdout is not None and process.stderr is not None
        pumps = [_pump(process.stdout, out_path, scrub), _pump(process.stderr, err_path, scrub)]
        ended = self._wait(process, limit, stop)
        for pump in pumps:  # a child that escaped the process group may hold the pipe: do not hang
            pump.join(timeout=PUMP_JOIN_S)
        wall = time.monotonic() - started
        _scrub_folder(context.workdir, scrub)
        tail = _tail(err_path)
        recording = read_recording(context.workdir, self.pricer)
        outcome = self.outcome(argv, process.returncode, ended, recording, tail, wall, limit)
        if shim is not None:
            outcome.adb_calls = shim.calls()
            shim.remove()
        return outcome

    def argv(self, values: dict[str, str]) -> list[str]:
        """The command line: placeholders filled in, or the contract's options appended ({api_key} is
        filled in either way)."""
        argv = shlex.split(self.cmd)
        if self.api_key:
            argv = [arg.replace("{api_key}", self.api_key) for arg in argv]
        if any("{" + name + "}" in self.cmd for name in PLACEHOLDERS):
            filled = []
            for arg in argv:
                for name in PLACEHOLDERS:
                    arg = arg.replace("{" + name + "}", values[name])
                filled.append(arg)
            return filled
        if self.pass_args:
            argv += ["--serial", values["serial"], "--instruction", values["instruction"],
                     "--lang", values["language"], "--max-rounds", values["max_rounds"],
                     "--output-dir", values["output_dir"], "--task-id", values["task_id"]]
        return argv

    def _wait(self, process: subprocess.Popen[bytes], limit: float, stop: threading.Event) -> str:
        """'exited', 'timeout' or 'interrupted' (the last two after killing the process group)."""
        deadline = time.monotonic() + limit
        while True:
            try:
                process.wait(timeout=0.1)
                return "exited"
            except subprocess.TimeoutExpired:
                pass
            if stop.is_set() or time.monotonic() > deadline:
                self._kill(process)
                return "interrupted" if stop.is_set() else "timeout"

    def _kill(self, process: subprocess.Popen[bytes]) -> None:
        for sig, wait in ((signal.SIGTERM, self.kill_grace_s), (signal.SIGKILL, 10.0)):
            try:
                os.killpg(process.pid, sig)
            except ProcessLookupError:
                pass
            try:
                process.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                continue
            try:  # the leader is gone; make sure no child it left behind keeps running
                os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            return

    def outcome(self, argv: list[str], code: int | None, ended: str, recording: Recording, tail: str,
                wall: float, limit: float) -> EpisodeOutcome:
        """The termination and errors for how the program ended (see the module docstring)."""
        errors: list[ErrorInfo] = []
        termination: Termination
        finish = recording.finish_signal
        if ended == "timeout":
            meaning, termination = f"killed: time limit {limit:g} s", "episode_timeout"
            errors.append(ErrorInfo(kind="timeout", type="ExternalAgentTimeout",
                                    message=f"the agent program ran past its time limit ({limit:g} s) and "
                                            "was killed"))
        elif ended == "interrupted":
            meaning, termination = "killed: run interrupted", "interrupted"
        else:
            meaning = f"{code}: {MEANINGS.get(code, 'unknown exit code')}" if code is not None else "unknown"
            termination = _termination(code, finish, has_log=recording.total_steps is not None
                                       or bool(recording.steps))
            if termination == "agent_error":
                last = tail.strip().splitlines()[-1] if tail.strip() else "(no stderr)"
                extra = "; ".join(recording.error_messages)
                errors.append(ErrorInfo(kind="agent", type="ExternalAgentExit",
                                        message=f"exit {meaning}: {last}" + (f"; {extra}" if extra else ""),
                                        traceback=tail or None))
        answer = next((s.action.answer for s in reversed(recording.steps) if isinstance(s.action, Finish)),
                      None)
        exit_info = AgentExit(
            command=redact_argv(argv), exit_code=code if ended == "exited" else None, meaning=meaning,
            completed=ended == "exited" and code in (0, 2, 4), finish_signal=finish,
            reported_steps=recording.total_steps, elapsed_initial_s=recording.elapsed_initial_s,
            elapsed_exec_s=recording.elapsed_exec_s, wall_s=wall, stderr_tail=tail or None)
        for problem in recording.problems:
            errors.append(ErrorInfo(kind="agent", type="RecordingProblem", message=problem))
        return EpisodeOutcome(recording.steps, termination, answer, errors, exit_info)


def absolute_paths(argv: list[str]) -> list[str]:
    """Words that name an existing file relative to the current directory (a path with a folder or a
    suffix: `my_agent.py`, `bin/run`), made absolute, for a program started in another directory."""
    out = []
    for word in argv:
        if (not word.startswith("-") and not os.path.isabs(word) and (os.sep in word or Path(word).suffix)
                and os.path.isfile(word)):
            word = os.path.abspath(word)
        out.append(word)
    return out


def _termination(code: int | None, finish_signal: int | None, has_log: bool) -> Termination:
    if code in (0, 2, 4) and finish_signal == 1:
        return "done"
    if code == 4:
        return "max_steps"
    if code == 0:
        return "max_steps" if has_log else "done"
    if code == 2:
        return "infeasible"
    return "agent_error"


def _pricer(model: str | None, price_in: float | None, price_out: float | None) -> Pricer | None:
    if price_in is not None and price_out is not None:
        pin, pout = float(price_in), float(price_out)
        return lambda p, c: (p * pin + c * pout) / 1_000_000
    if model:
        table, name = PriceTable.builtin(), str(model)
        return lambda p, c: table.cost(name, p, c)
    return None


def _key(api_key_env: str | None, api_key: str | None) -> str | None:
    if api_key:
        return str(api_key)
    if api_key_env:
        value = os.environ.get(str(api_key_env))
        if not value:
            raise ConfigError(f"external agent: api_key_env={api_key_env}: that environment variable is "
                              "not set")
        return value
    return None


SHIM = """#!/bin/sh
# spa-bench: note this adb command line for the episode's shell audit, then run the harness's adb
printf '%s\\037' "$@" >> '{log}'
printf '\\036' >> '{log}'
exec '{adb}' "$@"
"""


@dataclass
class AdbShim:
    """An `adb` first on the program's PATH (and $ADB) that appends its arguments to a log, then runs the
    harness's adb. On a device that keeps no record of its own (an emulator, a phone), this is what the
    shell audit sees of a program: its adb command lines (not adbutils' or uiautomator2's requests)."""

    folder: Path

    @classmethod
    def make(cls, env: dict[str, str]) -> AdbShim | None:
        adb = env.get("ADB")
        if not adb or "'" in adb:
            return None
        folder = Path(tempfile.mkdtemp(prefix="spa-adb-shim-"))
        script = folder / "adb"
        script.write_text(SHIM.format(log=folder / "calls.log", adb=adb), "utf-8")
        script.chmod(0o755)
        env["ADB"] = str(script)
        env["PATH"] = os.pathsep.join([str(folder), *env.get("PATH", "").split(os.pathsep)])
        return cls(folder)

    def calls(self) -> list[str]:
        """Each call as one command line, `adb` and its arguments quoted as a shell would take them."""
        try:
            raw = (self.folder / "calls.log").read_bytes().decode("utf-8", errors="replace")
        except FileNotFoundError:
            return []
        return [shlex.join(["adb", *call.split("\x1f")[:-1]]) for call in raw.split("\x1e") if call]

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def harness_adb_env(path: str) -> dict[str, str]:
    """ADB: the adb the harness itself uses ($ADBUTILS_ADB_PATH, PATH's, else the one inside the adbutils
    wheel), and a PATH on which plain `adb` is that one: its folder first, unless PATH finds it already
    (then PATH is left alone - moving /usr/bin to the front would shadow a virtualenv's python). Empty
    when there is no adb at all (the program may still use adbutils)."""
    from adbutils import AdbError
    from adbutils._utils import adb_path

    try:
        adb = os.path.abspath(adb_path())
    except AdbError:
        return {}
    found = shutil.which("adb", path=path)
    if found and os.path.realpath(found) == os.path.realpath(adb):
        return {"ADB": adb}
    folder = os.path.dirname(adb)
    rest = [p for p in path.split(os.pathsep) if p and os.path.abspath(p) != folder]
    return {"ADB": adb, "PATH": os.pathsep.join([folder, *rest])}


def _pump(source: IO[bytes], target: Path, scrub: ByteScrubber) -> threading.Thread:
    """Copy a program's output stream to `target` line by line, secrets scrubbed before they reach disk."""

    def run() -> None:
        with source, target.open("wb") as out:
            for line in iter(source.readline, b""):
                out.write(scrub(line))
                out.flush()

    thread = threading.Thread(target=run, name=f"pump-{target.name}", daemon=True)
    thread.start()
    return thread


def _scrub_folder(folder: Path, scrub: ByteScrubber) -> None:
    """Files the program wrote itself (its log.json, notes...) may hold its key: rewrite those that do."""
    for path in folder.rglob("*"):
        if not path.is_file():
            continue
        try:
            data = path.read_bytes()
            clean = scrub(data)
            if clean != data:
                path.write_bytes(clean)
        except OSError:
            continue


def _tail(path: Path) -> str:
    try:
        data = path.read_bytes()[-STDERR_TAIL:]
    except OSError:
        return ""
    return data.decode("utf-8", errors="replace")
