"""Run bundles (issue 37): one small run on the shared virtual phones - the oracle, an mllm agent against
the scripted local server (its key from the environment) and a user's adapter given keys by flag and by
config file - bundled, verified (hashes, offline re-scoring, replay from the model cache with the server
gone), then tampered with; and a secret-seed run, verified once its seed is revealed."""

from __future__ import annotations

import io
import json
import re
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import run_cli
from pim_runs import on_shared_phones

from spa_bench.bundle import open_bundle, write_bundle
from spa_bench.bundle.archive import INDEX, BundleIndex
from spa_bench.bundle.provenance import harness_source_sha256, phone_image_sha256, sha256_bytes
from spa_bench.bundle.verification import read_record, verify_bundle, write_record
from spa_bench.errors import ConfigError
from spa_bench.report.build import build_report
from spa_bench.results.layout import RunLayout
from spa_bench.runner.config import AgentConfig, RunConfig, load_agent_config_file, parse_agent_args
from spa_bench.runner.run import RunResult, run_benchmark
from spa_bench.tasks.repository import TaskFilter, default_tasks_root
from spa_bench.testing.openai_server import ScriptedOpenAIServer, TextReply

pytestmark = pytest.mark.usefixtures("adb_env")

TASKS = ["clock_alarm_new_en", "settings_wifi_off_en"]  # the first is parameterised (11 instances)
ENV_KEY = "sk-proj-envKEY0123456789abcdefghij"
FLAG_KEY = "flag-secret-4f9a1c2e7b"
CONFIG_KEY = "config-secret-8d3e5a9c1f"
SECRET_SEED = "a-secret-seed-of-32-characters!!"
KEYED = f"{Path(__file__).parent / 'keyed_agent.py'}:KeyedAgent"
FINISH = TextReply('Reason: done.\nAction: {"type": "finish", "status": "done"}', 900, 20)


@pytest.fixture(scope="module", autouse=True)
def frozen_hashes() -> Iterator[None]:
    """The harness and phone-image hashes as they are when the module starts, for the run and for
    verify alike: a working tree edited while the tests run (by its other users) must not make the
    installed harness differ from the run's. tree_sha256 itself is tested below."""
    import spa_bench.bundle.provenance as provenance
    import spa_bench.runner.run as runner

    source, image = harness_source_sha256(), phone_image_sha256()
    with pytest.MonkeyPatch.context() as patch:
        for module in (provenance, runner):
            patch.setattr(module, "harness_source_sha256", lambda: source)
            patch.setattr(module, "phone_image_sha256", lambda: image)
        yield


@pytest.fixture(scope="module")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> tuple[RunResult, Path, Path]:
    """The run, its bundle (with the model cache) and the cache folder."""
    tmp = tmp_path_factory.mktemp("bundle")
    (tmp / "agents.yaml").write_text(f"- agent: '{KEYED}'\n  name: keyed-config\n"
                                     f"  args: {{token: {CONFIG_KEY}}}\n")
    with pytest.MonkeyPatch.context() as patch, ScriptedOpenAIServer(when_empty=FINISH) as server:
        patch.setenv("OPENAI_API_KEY", ENV_KEY)
        agents = [AgentConfig(agent="oracle"),
                  AgentConfig(agent="mllm", args={"base_url": server.base_url, "model": "gpt-4o",
                                                  "max_side": 480}),
                  AgentConfig(agent=KEYED, name="keyed-flag", args=parse_agent_args([f"api_key={FLAG_KEY}"])),
                  *load_agent_config_file(tmp / "agents.yaml")]
        result = run_benchmark(RunConfig(filter=TaskFilter(ids=TASKS), agents=agents, **on_shared_phones(1),
                                         out=tmp / "results", phone_clock="2026-01-15T09:30:00", seed=5,
                                         model_cache=tmp / "cache"))
        assert len(server.chat_requests()) == 2
        assert server.chat_requests()[0].headers["authorization"] == f"Bearer {ENV_KEY}"
        # bundled while the key is still in the environment: the bundle must not take it from there
        bundle = write_bundle(result.run_dir, tmp / "run.tar.gz", cache_dir=tmp / "cache").path
    return result, bundle, tmp / "cache"


def members(bundle: Path) -> dict[str, bytes]:
    with tarfile.open(bundle, "r:gz") as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}  # type: ignore[union-attr]


Bundled = tuple[RunResult, Path, Path]


def test_a_bundle_holds_the_run_and_its_provenance_but_no_secret(bundled: Bundled) -> None:
    result, bundle, cache = bundled
    files = members(bundle)
    for secret in (ENV_KEY, FLAG_KEY, CONFIG_KEY):
        assert not any(secret.encode() in data for data in files.values()), secret
    index = BundleIndex.model_validate_json(files[INDEX])
    assert index.episodes == 8 and index.with_cache and index.screenshots == "full"
    assert all(sha256_bytes(files[name]) == sha for name, sha in index.members.items())
    assert sum(name.startswith("cache/") for name in files) == 2 == len(list(cache.rglob("*.json")))
    assert sum(name.endswith("episode.json") for name in files) == 8
    prov = index.provenance
    assert prov.phone.image_sha256 == result.manifest.phone_image_sha256 is not None
    # the device's build fingerprint as getprop said it during the run (a real device's image is named by
    # it), in AOSP's form BRAND/PRODUCT/DEVICE:RELEASE/ID/INCREMENTAL:TYPE/TAGS
    assert prov.phone.fingerprints == sorted(set(result.manifest.device_fingerprints.values()))
    assert re.fullmatch(r"[^/]+/[^/]+/[^/:]+:[^/]+/[^/]+/[^/:]+:[^/]+/[^/]+", prov.phone.fingerprints[0])
    assert prov.phone.devices == ["virtual SPA Virtual Phone (Android 14)"]
    assert prov.harness.source_sha256 == result.manifest.source_sha256
    assert set(prov.tasks.by_task) == set(TASKS)
    assert prov.tasks.task_sha256("settings_wifi_off_en") == sha256_bytes(
        (default_tasks_root() / "settings" / "en.yaml").read_bytes())
    agents = {a.name: a for a in prov.agents}
    oracle_module = Path(__import__("spa_bench.agents.oracle", fromlist=["x"]).__file__)
    assert agents["oracle"].modules == {"spa_bench.agents.oracle": sha256_bytes(oracle_module.read_bytes())}
    assert agents["oracle"].reference and agents["oracle"].model.endpoint == "none"
    mllm = agents["mllm"]
    assert (mllm.model.name, mllm.model.endpoint) == ("gpt-4o", "local")  # never the server's address
    assert mllm.model.sampling["temperature"] == 0.0 and mllm.model.sampling["max_side"] == 480
    assert set(mllm.modules) == {"spa_bench.agents.mllm", "spa_bench.agent.chat"}  # its prompting is a base's
    assert list(mllm.prompt_sha256) == ["spa_bench.agent.prompting"]
    assert prov.instances.seed == 5 and prov.instances.seed_commitment is None
    assert prov.instances.phone_clock == "2026-01-15T09:30:00"
    smaller = write_bundle(result.run_dir, bundle.with_name("none.tar.gz"), screenshots="none")
    assert not smaller.index.with_cache and smaller.bytes < bundle.stat().st_size
    assert not any("/screenshots/" in name for name in members(smaller.path))


def test_verify_replays_every_episode_offline_and_finds_it_identical(bundled: tuple[RunResult, Path, Path],
                                                                     tmp_path: Path) -> None:
    result, bundle, _cache = bundled  # the scripted server is gone: every model reply is the cache's
    done = verify_bundle(bundle, default_tasks_root(), replay=True, where=on_shared_phones(1),
                         unpack_to=tmp_path)
    assert [p.part for p in done.parts if not p.same] == []
    assert len(done.rescoring.episodes) == 8 and not done.rescoring.differ
    assert done.replay is not None and len(done.replay.episodes) == 8 and not done.replay.differ
    assert done.status == "verified"
    assert done.line() == "reproduced 8/8 episodes, verdicts identical"
    unpacked = tmp_path / result.manifest.run_id
    record = read_record(unpacked)
    assert record is not None and record.status == done.status and len(RunLayout(unpacked).episode_ids()) == 8


def _repacked(bundle: Path, out: Path, change: dict[str, bytes]) -> Path:
    """The bundle with some members' bytes replaced (its index left as it was)."""
    files = members(bundle) | change
    with tarfile.open(out, "w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out


def test_a_tampered_verdict_and_a_tampered_task_file_are_both_reported(
        bundled: tuple[RunResult, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result, bundle, _cache = bundled
    episode = "oracle__settings_wifi_off_en__r0"
    name = f"run/episodes/{episode}/episode.json"
    text = members(bundle)[name].decode()
    assert '"success": true' in text
    forged = _repacked(bundle, tmp_path / "forged.tar.gz", {name: text.replace('"success": true',
                                                                               '"success": false').encode()})
    tasks = tmp_path / "tasks"
    import shutil

    shutil.copytree(default_tasks_root(), tasks)
    settings = tasks / "settings" / "en.yaml"
    settings.write_text(settings.read_text() + "\n# edited\n")
    done = verify_bundle(forged, tasks)
    assert done.status == "differs"
    assert {p.part for p in done.parts if not p.same} == {"tasks", "bundle members"}
    assert [e.episode_id for e in done.rescoring.differ] == [episode]
    assert "settings/en.yaml" in next(p.detail for p in done.parts if p.part == "tasks")
    # the command: one line naming both, exit 1; the untampered bundle: exit 0
    out = run_cli(capsys, "bundle", "verify", str(forged), "--tasks-dir", str(tasks))
    assert out.code == 1
    assert f"✗ {episode}: recorded False, re-scored True (state changed)" in out.out
    assert "1 verdict(s) differ; differs: " in out.out and "tasks, bundle members" in out.out
    # `spa-bench bundle RUN_DIR` is `spa-bench bundle create RUN_DIR`
    made = run_cli(capsys, "bundle", str(result.run_dir), "-o", str(tmp_path / "cli.tar.gz"), "--screenshots",
                   "downscaled")
    assert made.code == 0 and "8 episodes" in made.out and "screenshots downscaled" in made.out, made.err
    refused = run_cli(capsys, "bundle", str(result.run_dir), "--cache-dir", str(tmp_path))
    assert refused.code == 2 and "--cache-dir needs --with-cache" in refused.err
    clean = run_cli(capsys, "bundle", "verify", str(bundle), "--record-in", str(result.run_dir))
    assert clean.code == 0, clean.out + clean.err
    assert "re-scored 8/8 episodes (not replayed), verdicts identical" in clean.out
    record = read_record(result.run_dir)
    assert record is not None and record.status == "re-scored"
    # the report's badge reads it
    page = build_report([result.run_dir], tmp_path / "page.html").html
    data = json.loads(re.search(r'<script type="application/json" id="spa-data">(.*?)</script>', page,
                                re.S).group(1))  # type: ignore[union-attr]
    assert data["runs"][0]["verification"]["status"] == record.status
    assert data["runs"][0]["verification"]["line"].startswith("re-scored 8/8 episodes (not replayed)")


def test_a_secret_seed_run_records_a_commitment_and_verifies_once_revealed(
        bundled: tuple[RunResult, Path, Path], tmp_path: Path) -> None:
    public, _bundle, _cache = bundled
    config = RunConfig(filter=TaskFilter(ids=TASKS[:1]), agents=[AgentConfig(agent="oracle")],
                       **on_shared_phones(1), out=tmp_path / "results", seed=5, instance_seed=SECRET_SEED)
    secret = run_benchmark(config)
    (log,) = secret.logs
    (before,) = [x for x in public.logs if x.episode_id == log.episode_id]
    assert log.instance.parameters != before.instance.parameters  # another instance than seed 5's
    assert secret.manifest.instance_seed_commitment is not None
    for path in secret.run_dir.rglob("*.json"):
        assert SECRET_SEED not in path.read_text(), path
    bundle = write_bundle(secret.run_dir, tmp_path / "secret.tar.gz").path
    assert not any(SECRET_SEED.encode() in data for data in members(bundle).values())
    hidden = verify_bundle(bundle, default_tasks_root())
    assert hidden.seed == "secret" and hidden.status == "re-scored"
    assert "not checked" in next(p.detail for p in hidden.parts if p.part == "task instances")
    with pytest.raises(ConfigError, match="needs its seed"):
        verify_bundle(bundle, default_tasks_root(), replay=True)
    with pytest.raises(ConfigError, match="not the seed of the bundled run"):
        verify_bundle(bundle, default_tasks_root(), instance_seed="x" * 32)
    revealed = verify_bundle(bundle, default_tasks_root(), instance_seed=SECRET_SEED, replay=True,
                             where=on_shared_phones(1))
    assert revealed.seed == "revealed" and revealed.status == "verified"
    assert next(p.detail for p in revealed.parts if p.part == "task instances") == "1 match"
    write_record(secret.run_dir, revealed)
    assert opened_ok(bundle, tmp_path / "open")


def opened_ok(bundle: Path, into: Path) -> bool:
    into.mkdir()
    return not open_bundle(bundle, into).altered


def test_the_image_hash_changes_with_any_file_of_the_phone(tmp_path: Path) -> None:
    from spa_bench.bundle.provenance import tree_sha256

    (tmp_path / "apps").mkdir()
    (tmp_path / "apps" / "notes.py").write_text("SEED = ['milk']\n")
    (tmp_path / "fonts.ttf").write_bytes(b"\x00\x01")
    files = lambda: sorted(p for p in tmp_path.rglob("*") if p.is_file())  # noqa: E731
    first, count = tree_sha256(tmp_path, files())
    (tmp_path / "apps" / "notes.py").write_text("SEED = ['eggs']\n")  # seed data
    second, _ = tree_sha256(tmp_path, files())
    (tmp_path / "apps" / "notes.py").rename(tmp_path / "apps" / "todo.py")  # a file moved
    third, _ = tree_sha256(tmp_path, files())
    assert count == 2 and len({first, second, third}) == 3


def test_a_file_adapter_of_another_machine_is_found_in_the_adapter_folder(tmp_path: Path) -> None:
    from spa_bench.bundle.provenance import agent_part, resolve_adapter
    from spa_bench.results.schema import AgentSpec

    submitted = tmp_path / "submitted"
    submitted.mkdir()
    (submitted / "keyed_agent.py").write_bytes((Path(__file__).parent / "keyed_agent.py").read_bytes())
    theirs = "/home/someone/agents/keyed_agent.py:KeyedAgent"
    assert resolve_adapter(theirs, None) == theirs and resolve_adapter("mllm", submitted) == "mllm"
    assert resolve_adapter(theirs, submitted) == f"{submitted / 'keyed_agent.py'}:KeyedAgent"
    mine = agent_part(AgentSpec(name="k", agent=KEYED))
    found = agent_part(AgentSpec(name="k", agent=resolve_adapter(theirs, submitted)))
    assert found.module_sha256 == mine.module_sha256 is not None  # the same file, found elsewhere


def test_a_replay_needs_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """Model clients of OpenAI's endpoint want a key to be made; a replay never sends a request, so a
    stand-in is set for the variables the agents read, and only while the replay runs."""
    from spa_bench.bundle.replay import KEY_STAND_IN, _key_variables, stand_in_keys

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("MY_KEY", "kept-as-it-is")
    config = RunConfig(agents=[AgentConfig(agent="mllm"), AgentConfig(agent="oracle"),
                               AgentConfig(agent="text", args={"api_key_env": "MY_KEY"})])
    names = _key_variables(config)
    assert names == {"OPENAI_API_KEY", "MY_KEY"}
    import os

    with stand_in_keys(names):
        assert os.environ["OPENAI_API_KEY"] == KEY_STAND_IN and os.environ["MY_KEY"] == "kept-as-it-is"
    assert "OPENAI_API_KEY" not in os.environ and os.environ["MY_KEY"] == "kept-as-it-is"


def test_a_varied_run_replays_with_its_recorded_device_draws(tmp_path: Path) -> None:
    """--vary draws each episode's device from the run's spec and seed: the replay draws the same ones
    (the bundle lists them), so the oracle meets the same screens and does the same."""
    config = RunConfig(filter=TaskFilter(ids=["settings_wifi_off_en"]), agents=[AgentConfig(agent="oracle")],
                       **on_shared_phones(1), out=tmp_path / "results", vary="screen,font-scale,dark:4",
                       repeats=2)
    result = run_benchmark(config)
    bundle = write_bundle(result.run_dir, tmp_path / "varied.tar.gz", screenshots="none")
    draws = bundle.index.provenance.instances.draws
    assert draws == {log.episode_id: log.variation.name for log in result.logs if log.variation}
    assert len(draws) == 2 and bundle.index.provenance.instances.vary == "screen,font-scale,dark:4"
    done = verify_bundle(bundle.path, default_tasks_root(), replay=True, where=on_shared_phones(1))
    assert done.status == "verified", done.line()


def test_a_judged_run_is_re_scored_from_the_bundles_cache_only(tmp_path: Path) -> None:
    """A task without state checks is decided by key components and the judge: (b) re-makes the judge's
    verdicts from the bundle's model cache with the judge's server gone; without the cache it says the
    judge cannot run offline rather than guessing."""
    import yaml

    from spa_bench.evaluation.judge_config import default_judge_config

    source = yaml.safe_load((default_tasks_root() / "settings" / "en.yaml").read_text())
    wifi = next(t for t in source if t["id"] == "settings_wifi_off_en")
    wifi.update(id="wifi_off_screen_only", checks=[])  # no ground truth: the judge decides
    tasks = tmp_path / "tasks"
    (tasks / "screen").mkdir(parents=True)
    (tasks / "screen" / "en.yaml").write_text(yaml.safe_dump([wifi], allow_unicode=True))
    verdicts = iter(["Reason: Wi-Fi is off.\nResult: 1", "Reason: nothing was done.\nResult: 0"])
    with ScriptedOpenAIServer(when_empty=lambda _request: next(verdicts)) as server:
        judge = default_judge_config("gpt-4o", base_url=server.base_url, api_key_env=None)
        result = run_benchmark(RunConfig(tasks_dir=tasks, **on_shared_phones(1), out=tmp_path / "runs",
                                         judge=judge, model_cache=tmp_path / "cache",
                                         agents=[AgentConfig(agent="oracle"), AgentConfig(agent="noop")]))
        assert len(server.chat_requests()) == 2
    assert sum(1 for log in result.logs for v in log.verdicts if v.role == "judge") == 2
    cached = write_bundle(result.run_dir, tmp_path / "judged.tar.gz", cache_dir=tmp_path / "cache").path
    done = verify_bundle(cached, tasks)
    assert (len(done.rescoring.episodes), done.rescoring.differ, done.rescoring.not_rescored) == (2, [], {})
    assert done.status == "re-scored"
    bare = write_bundle(result.run_dir, tmp_path / "bare.tar.gz").path
    without = verify_bundle(bare, tasks)
    assert without.rescoring.episodes == [] and set(without.rescoring.not_rescored) == {
        log.episode_id for log in result.logs}
    assert "judge, which cannot run offline" in next(iter(without.rescoring.not_rescored.values()))


def test_a_replay_that_acts_otherwise_names_the_episode_and_the_step(tmp_path: Path) -> None:
    """The installed task's golden script gained a step: the oracle's replay does something else at
    step 0, and verify says so for that episode (besides the task file's hash)."""
    import shutil

    import yaml

    config = RunConfig(filter=TaskFilter(ids=["settings_wifi_off_en"]), agents=[AgentConfig(agent="oracle")],
                       **on_shared_phones(1), out=tmp_path / "results")
    result = run_benchmark(config)
    bundle = write_bundle(result.run_dir, tmp_path / "one.tar.gz", screenshots="none").path
    tasks = tmp_path / "tasks"
    shutil.copytree(default_tasks_root(), tasks)
    path = tasks / "settings" / "en.yaml"
    source = yaml.safe_load(path.read_text())
    wifi = next(t for t in source if t["id"] == "settings_wifi_off_en")
    wifi["golden_script"].insert(0, {"type": "wait", "seconds": 0.1})
    path.write_text(yaml.safe_dump(source, allow_unicode=True))
    done = verify_bundle(bundle, tasks, replay=True, where=on_shared_phones(1))
    assert done.replay is not None
    (apart,) = done.replay.differ
    assert apart.episode_id == "oracle__settings_wifi_off_en__r0" and not apart.trajectory_same
    assert apart.verdict_same and apart.detail.startswith("step 0: recorded {\"type\":\"tap\"")
    assert "replayed {\"type\":\"wait\"" in apart.detail
    assert done.status == "differs" and done.line().startswith("reproduced 0/1 episodes, verdicts identical")
    # the instance check saw the edited task too: the log's task is not the installed one drawn again
    assert {p.part for p in done.parts if not p.same} == {"tasks", "task instances"}
