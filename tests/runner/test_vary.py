"""`--vary`: the spec, the per-episode draw, the commands, and a run on virtual phones whose episodes each
get the device they drew (the screenshots have its size) and whose oracle still succeeds."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from PIL import Image
from pim_runs import on_shared_phones, state_success

from spa_bench.errors import ConfigError
from spa_bench.phone.api import Locale
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import DeviceVariation
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.runner.vary import (
    CLOCK_FORMATS,
    DIMENSIONS,
    LOCALES,
    MIN_WIDTH_DP,
    SIM_COUNTRIES,
    VarySpec,
    draw,
    parse_vary,
    variation_commands,
    variation_name,
)
from spa_bench.tasks.repository import TaskFilter


def test_the_spec_names_dimensions_and_a_seed() -> None:
    assert parse_vary("screen,dark:7") == VarySpec(("screen", "dark"), 7)
    assert parse_vary(" Font_Scale , density ") == VarySpec(("font-scale", "density"), 0)
    assert parse_vary("dark,dark") == VarySpec(("dark",), 0)


@pytest.mark.parametrize(("spec", "message"), [
    ("screen,colour", "unknown dimension 'colour'"),
    ("screen:x", "seed after ':' must be an integer, not 'x'"),
    (":3", "name at least one of"),
])
def test_a_bad_spec_is_named(spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_vary(spec)


def test_a_bad_spec_stops_the_run_config() -> None:
    with pytest.raises(ValueError, match="unknown dimension 'fonts'"):
        RunConfig(agents=[AgentConfig(agent="noop")], vary="fonts")


def test_draws_are_per_episode_reproducible_and_sane() -> None:
    spec = parse_vary(",".join(DIMENSIONS) + ":5")
    draws = [draw(spec, f"task_{i}", r) for i in range(60) for r in range(2)]
    assert draws == [draw(spec, f"task_{i}", r) for i in range(60) for r in range(2)]
    other_seed = parse_vary(",".join(DIMENSIONS) + ":6")
    assert [draw(spec, f"task_{i}", 0).name for i in range(10)] != \
        [draw(other_seed, f"task_{i}", 0).name for i in range(10)]
    for v in draws:
        assert v.screen is not None and v.density is not None and v.font_scale is not None
        assert v.dark is not None and v.navigation is not None and v.seed == 5
        assert v.locale in ("en-US", "zh-CN")
        width = min(int(x) for x in v.screen.split("x"))
        assert width * 160 / v.density >= MIN_WIDTH_DP, v
    assert len({v.name for v in draws}) > 20  # the draws spread over the choices
    assert 30 < sum(v.locale == "zh-CN" for v in draws) < 90
    no_locale = parse_vary(",".join(d for d in DIMENSIONS if d != "locale") + ":5")
    assert [draw(no_locale, f"task_{i}", 0).model_copy(update={"locale": None, "name": ""})
            for i in range(20)] == \
        [draw(spec, f"task_{i}", 0).model_copy(update={"locale": None, "name": ""}) for i in range(20)]
    only_dark = draw(parse_vary("dark"), "t", 0)
    assert only_dark.screen is None and only_dark.density is None and only_dark.dark is not None


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_harness_tables_say_what_a_phone_in_each_language_has(tmp_path: Path, language: Locale) -> None:
    """The harness keeps its own LOCALES / SIM_COUNTRIES / CLOCK_FORMATS (it speaks to any device over adb,
    and imports nothing from the phone); the virtual phone booted in each task language must agree."""
    from spa_bench.phone.api import PhoneConfig
    from spa_bench.phone.system import PhoneOS
    from spa_bench.phone.vfs import VirtualFS

    fs = VirtualFS(tmp_path / "fs")
    fs.ensure_layout()
    phone = PhoneOS(PhoneConfig(locale=language, data_dir=tmp_path), fs)
    try:
        assert phone.getprop()["persist.sys.locale"] == LOCALES[language]
        phone.set_locale("zh" if language == "en" else "en")
        phone.set_sim_country(SIM_COUNTRIES[language])
        assert phone.content_locale == language  # the SIM keeps the content in the task's language
        phone.set_locale(language)
        assert phone._use_24h() == (CLOCK_FORMATS[language] == "24")  # the format with no owner's choice
    finally:
        phone.close()


def test_a_small_screen_alone_gets_a_density_that_keeps_320_dp() -> None:
    spec = parse_vary("screen")
    small = next(v for v in (draw(spec, f"t{i}", 0) for i in range(200)) if v.screen == "720x1280")
    assert small.density == 320


def test_names_and_commands_say_what_differs() -> None:
    v = DeviceVariation(name="", screen="720x1280", density=320, font_scale=1.3, dark=True,
                        navigation="gestural")
    assert variation_name(v) == "720x1280+320dpi+font1.3+dark+gestural"
    default = DeviceVariation(name="", screen="1080x2400", font_scale=1.0, dark=False)
    assert variation_name(default) == "default"
    assert variation_commands(v) == [
        "wm size 720x1280", "wm density 320", "settings put system font_scale 1.3", "cmd uimode night yes",
        "cmd overlay enable-exclusive --category com.android.internal.systemui.navbar.gestural"]
    chinese = DeviceVariation(name="", locale="zh-CN", dark=True)
    assert variation_name(chinese, default_locale="en-US") == "dark+zh-CN"
    assert variation_name(chinese, default_locale="zh-CN") == "dark"  # a zh task's own language
    assert variation_commands(chinese)[-1] == "setprop persist.sys.locale zh-CN"


@pytest.mark.usefixtures("adb_env")
def test_a_varied_run_records_each_episodes_device_and_the_oracle_still_succeeds(results_dir: Path) -> None:
    ids = ["settings_wifi_off_en", "contacts_phone_lookup_zh", "calculator_multiply_en", "notes_create_zh"]
    config = RunConfig(filter=TaskFilter(ids=ids), agents=[AgentConfig(agent="oracle")],
                       **on_shared_phones(2), out=results_dir, vary="screen,density,font-scale,dark:3",
                       repeats=2)
    result = run_benchmark(config)
    layout = RunLayout(result.run_dir)
    assert len(result.logs) == 8
    for log in result.logs:
        v = log.variation
        assert v is not None and v == draw(parse_vary("screen,density,font-scale,dark:3"), log.task.id,
                                            log.instance.repeat)
        assert state_success(log), (log.episode_id, v.name, [s.invalid_reason for s in log.steps])
        shot = layout.episode_dir(log.episode_id) / str(log.steps[0].observation.screenshot)
        with Image.open(shot) as image:
            assert f"{image.width}x{image.height}" == v.screen, (log.episode_id, v.name)
    assert len({log.variation.name for log in result.logs if log.variation}) > 3


CJK = re.compile(r"[\u4e00-\u9fff]")
LABELS = {"settings_wifi_off_en": ("Network & internet", "网络和互联网"),
          "contacts_create_en": ("Search contacts", "搜索联系人"), "email_star_zh": ("Inbox", "收件箱"),
          "clock_alarm_new_zh": ("Alarm", "闹钟")}


@pytest.mark.usefixtures("adb_env")
def test_in_the_other_language_labels_change_content_stays_and_the_oracle_succeeds(results_dir: Path) -> None:
    ids = ["settings_wifi_off_en", "contacts_create_en", "email_star_zh", "clock_alarm_new_zh"]
    spec = "locale:11"  # each task drew its own language once and the other once (asserted below)
    config = RunConfig(filter=TaskFilter(ids=ids), agents=[AgentConfig(agent="oracle")],
                       **on_shared_phones(2), out=results_dir, vary=spec, repeats=2)
    result = run_benchmark(config)
    layout = RunLayout(result.run_dir)
    assert len(result.logs) == 8
    swapped: dict[str, list[bool]] = {}
    for log in result.logs:
        v = log.variation
        assert v is not None and v == draw(parse_vary(spec), log.task.id, log.instance.repeat,
                                            language=log.task.language)
        assert state_success(log), (log.episode_id, v.name, [s.agent_output for s in log.steps])
        own = {"en": "en-US", "zh": "zh-CN"}[log.task.language]
        swapped.setdefault(log.task.id, []).append(v.locale != own)
        assert v.name == ("default" if v.locale == own else v.locale)
        dump = (layout.episode_dir(log.episode_id) / str(log.steps[0].observation.hierarchy)).read_text()
        texts = [html.unescape(t) for t in re.findall(r' text="([^"]*)"', dump) if t]
        english, chinese = LABELS[log.task.id]  # a label of the task's first screen, as each UI shows it
        assert (english in texts, chinese in texts) == (v.locale == "en-US", v.locale == "zh-CN"), \
            (log.episode_id, texts)
        if log.task.id == "email_star_zh":  # the zh mailbox whatever the UI: its subjects stay Chinese
            assert sum(bool(CJK.search(t)) for t in texts) > 3, texts
    assert all(sorted(draws) == [False, True] for draws in swapped.values()), swapped
