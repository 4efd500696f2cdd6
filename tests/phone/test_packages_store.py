"""The package manager's record and checks (spa_bench.phone.system.installed) on the real
app-uiautomator.apk, with AOSP's statuses and messages (InstallPackageHelper / PackageManagerService):
a downgrade, an APK over a built-in system app of the same name, a file that is not an APK."""

from __future__ import annotations

import importlib.resources
import json
from datetime import datetime
from pathlib import Path

import pytest

from spa_bench.phone.api import PackageInfo
from spa_bench.phone.system.apk import ApkError
from spa_bench.phone.system.installed import RECORD_PATH, InstallOptions, PackageStore
from spa_bench.phone.vfs import VirtualFS

PACKAGE = "com.github.uiautomator"
SESSION = "/data/app/vmdl7.tmp/base.apk"


def u2_apk() -> Path:
    return Path(str(importlib.resources.files("uiautomator2") / "assets" / "app-uiautomator.apk"))


@pytest.fixture
def store(tmp_path: Path) -> PackageStore:
    fs = VirtualFS(tmp_path)
    fs.ensure_layout()
    return PackageStore(fs, lambda: datetime(2026, 6, 15, 10, 30))


def test_a_record_of_what_was_installed(store: PackageStore) -> None:
    record = store.install(u2_apk(), SESSION, InstallOptions(), {})
    assert record.first_install_time == record.last_update_time == "2026-06-15 10:30:00"
    assert store.get(PACKAGE) == record
    assert store.fs.host_path(record.apk_path).read_bytes() == u2_apk().read_bytes()
    info = record.package_info()
    assert (info.name, info.label_en, info.system) == (PACKAGE, "ATX", False)
    assert info.launcher_activity == "com.github.uiautomator.MainActivity"
    assert store.uninstall(PACKAGE) and store.get(PACKAGE) is None
    assert not store.fs.host_path(record.code_path).exists()


def test_a_downgrade_needs_dash_d(store: PackageStore) -> None:
    store.install(u2_apk(), SESSION, InstallOptions(), {})
    path = store.fs.host_path(RECORD_PATH)
    raw = json.loads(path.read_text())
    raw["packages"][PACKAGE]["manifest"]["version_code"] = 9999999  # a newer build is installed
    path.write_text(json.dumps(raw))
    with pytest.raises(ApkError) as failure:
        store.install(u2_apk(), SESSION, InstallOptions(), {})
    assert failure.value.failure_line() == ("Failure [INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: "
                                            "Update version code 2004001 is older than current 9999999]")
    assert store.install(u2_apk(), SESSION, InstallOptions(allow_downgrade=True), {}).manifest.version_code \
        == 2004001


def test_an_apk_may_not_replace_a_built_in_system_app(store: PackageStore) -> None:
    system = PackageInfo(PACKAGE, "X", "X", None, "/system/app/X/X.apk", system=True)
    with pytest.raises(ApkError) as failure:
        store.install(u2_apk(), SESSION, InstallOptions(), {PACKAGE: system})
    assert failure.value.failure_line() == (f"Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE: Existing package "
                                            f"{PACKAGE} signatures do not match newer version; ignoring!]")
    user_app = PackageInfo(PACKAGE, "X", "X", None, "/data/app/X/base.apk", system=False)
    assert store.install(u2_apk(), SESSION, InstallOptions(), {PACKAGE: user_app}).manifest.package == PACKAGE


def test_a_zip_without_a_manifest_is_not_an_apk(store: PackageStore, tmp_path: Path) -> None:
    import zipfile

    bogus = tmp_path / "bogus.apk"
    with zipfile.ZipFile(bogus, "w") as zf:
        zf.writestr("classes.dex", b"dex\n035")
    with pytest.raises(ApkError) as failure:
        store.install(bogus, SESSION, InstallOptions(), {})
    assert failure.value.status == "INSTALL_PARSE_FAILED_NOT_APK"
    assert store.all() == {}
