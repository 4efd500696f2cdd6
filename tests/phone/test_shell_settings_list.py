"""`settings list` lists what a stock image's settings provider holds, in SettingsService's format.

The reference is a real capture (../shared/reference/android-captures, see its MANIFEST.md): the settings
provider dump in a bugreport of an AOSP Android 13 build (TQ3A.230805.001). Every key the platform
(package `android`) set there is listed by the phone, except that device's own keys below; the phone's
own defaults keep their values. `settings list` prints `key=value` lines sorted by key (the Redmi 9T
capture's order), a key created without a value as `key=null`. AndroidWorld's get_all_settings reads
every line of the three namespaces as `key=value` and drops `zen_duration`, which must be there.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.shell import Shell
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.system.settings_store import PHONE_DEFAULTS
from spa_bench.phone.vfs import VirtualFS

CAPTURES = Path(__file__).resolve().parents[3] / "shared" / "reference" / "android-captures" / "shell"
AOSP13_DUMP = CAPTURES / "settings_list" / "mtk_tb8168_android13_bugreport_dumpsys_settings.txt"
REDMI_SYSTEM = CAPTURES / "settings_list" / "redmi_9t_android12_settings_list_system.txt"
# The capture's own device: identity, region, MediaTek's keys, times and etags (see stock_settings.py).
NOT_STOCK = {
    "system": {"background_power_saving_enable", "switch_resolution_by_mode", "voice_wakeup_mode"},
    "secure": {"android_id", "bluetooth_addr_valid", "bluetooth_address", "bluetooth_name"},
    "global": {"captive_portal_https_url", "data_service_enabled", "database_creation_buildid", "device_name",
               "mobile_signal_detector", "msim_mode_setting", "network_watchlist_last_report_time",
               "preferred_network_mode", "smart_rat_switch_debug", "smart_rat_switch_enabled",
               "telephony_misc_feature_config", "user_hfp_client_setting", "zen_mode_config_etag"},
}


def platform_settings(dump: str) -> dict[str, dict[str, str]]:
    """namespace -> key -> value of the rows package `android` set, from `dumpsys settings`."""
    out: dict[str, dict[str, str]] = {}
    namespace = ""
    for line in dump.splitlines():
        head = re.match(r"(GLOBAL|SECURE|SYSTEM|CONFIG) SETTINGS", line)
        if head:
            namespace = head.group(1).lower()
            continue
        row = re.match(r"_id:\d+ name:(\S+) pkg:(\S+) value:(\{null\}|.*?)(?: default:| tag:|$)", line)
        if row and namespace != "config" and row.group(2) == "android":
            value = row.group(3)
            out.setdefault(namespace, {})[row.group(1)] = "null" if value == "{null}" else value
    return out


@pytest.fixture
def sh(tmp_path: Path) -> Shell:
    return Shell(PhoneOS(PhoneConfig(), VirtualFS(tmp_path / "fs")))


def listed(sh: Shell, namespace: str) -> dict[str, str]:
    lines = sh.run(f"settings list {namespace}").stdout.decode().splitlines()
    assert lines == sorted(lines, key=lambda line: line.partition("=")[0])
    assert all("=" in line for line in lines)  # a `key=value` line each, as get_all_settings splits them
    return dict(line.split("=", 1) for line in lines)


def test_the_platforms_keys_are_listed_with_stock_values(sh: Shell) -> None:
    if not AOSP13_DUMP.exists():
        pytest.skip("the shared captures are not next to this checkout")
    stock = platform_settings(AOSP13_DUMP.read_text(encoding="utf-8"))
    assert {ns: len(keys) for ns, keys in stock.items()} == {"global": 122, "secure": 72, "system": 32}
    for namespace, keys in stock.items():
        have = listed(sh, namespace)
        for key, value in keys.items():
            if key in NOT_STOCK[namespace]:
                continue
            assert key in have, (namespace, key)
            if key not in PHONE_DEFAULTS[namespace]:
                assert have[key] == value, (namespace, key)


def test_zen_duration_and_null_values(sh: Shell) -> None:
    assert listed(sh, "global")["zen_duration"] == "null"  # created without a value
    assert listed(sh, "secure")["zen_duration"] == "0"
    assert sh.run("settings get global zen_duration").stdout == b"null\n"
    merged: dict[str, str] = {}
    for namespace in ("secure", "global", "system"):
        merged.update(listed(sh, namespace))
    assert "zen_duration" in merged and len(merged) > 200


def test_the_phones_own_keys_keep_working(sh: Shell) -> None:
    system = listed(sh, "system")
    assert system["screen_brightness"] == PHONE_DEFAULTS["system"]["screen_brightness"]
    assert system["accelerometer_rotation"] == "0"  # the phone's own value, not the capture's 1
    sh.run("settings put global zen_duration 60")
    assert listed(sh, "global")["zen_duration"] == "60"
    sh.run("settings delete global zen_duration")
    assert "zen_duration" not in listed(sh, "global")
    if REDMI_SYSTEM.exists():  # a real `settings list system`: the same line shape
        real = REDMI_SYSTEM.read_text(encoding="utf-8").splitlines()
        assert all(re.fullmatch(r"[^=]+=.*", line) for line in real if line)
