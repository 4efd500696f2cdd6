"""Apps installed with `pm install` / `adb install`: the package manager's record of them.

Like Android's /data/system/packages.xml, the record lives in the phone's file system
(`/data/system/installed_apks.json`, our own JSON), so a snapshot saves and restores it with the APKs
themselves, which are copied to `/data/app/~~<token>==/<package>-<token>==/base.apk` as Android 11+ lays
them out. The checks an install passes are AOSP's, with its failure codes and messages (PackageManager
statuses as InstallPackageHelper words them); a built-in app may not be replaced by another APK (its
signature would not match), except the preinstalled non-system helpers (ADBKeyboard, Clipper), which
are the same apps a user installs.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from spa_bench.phone.api import PackageInfo
from spa_bench.phone.system.apk import ApkError, ApkManifest, read_apk
from spa_bench.phone.vfs import VirtualFS

RECORD_PATH = "/data/system/installed_apks.json"
PLATFORM_SDK = 34
MIN_INSTALLABLE_TARGET_SDK = 23  # Android 14 refuses apps that target older SDKs
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"


@dataclass(frozen=True)
class InstallOptions:
    """The `pm install` flags that change what is accepted (-t, -d, -g; -r is always implied)."""

    allow_test: bool = False
    allow_downgrade: bool = False
    grant_all: bool = False


@dataclass(frozen=True)
class InstalledApk:
    manifest: ApkManifest
    code_path: str  # the folder holding base.apk
    first_install_time: str
    last_update_time: str
    granted_all: bool = False

    @property
    def apk_path(self) -> str:
        return f"{self.code_path}/base.apk"

    def package_info(self) -> PackageInfo:
        m = self.manifest
        return PackageInfo(m.package, m.label_en, m.label_zh, m.launcher_activity(), self.apk_path,
                           system=False, components=tuple(c.as_component() for c in m.components))

    def to_json(self) -> dict[str, Any]:
        return {"manifest": self.manifest.to_json(), "code_path": self.code_path,
                "first_install_time": self.first_install_time, "last_update_time": self.last_update_time,
                "granted_all": self.granted_all}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> InstalledApk:
        return cls(ApkManifest.from_json(data["manifest"]), str(data["code_path"]),
                   str(data["first_install_time"]), str(data["last_update_time"]),
                   bool(data.get("granted_all")))


class PackageStore:
    """The installed APKs of one phone (read from its file system on every call: snapshot loads swap it)."""

    def __init__(self, fs: VirtualFS, now: Callable[[], datetime]) -> None:
        self.fs = fs
        self.now = now
        self._cache: tuple[tuple[int, int, int], dict[str, InstalledApk], frozenset[str]] | None = None
        # open `pm install-create` sessions: id -> the APKs written to it (name -> bytes); in memory, not
        # part of the record a snapshot keeps
        self.sessions: dict[int, dict[str, bytes]] = {}

    def all(self) -> dict[str, InstalledApk]:
        return dict(self._load()[0])

    def _load(self) -> tuple[dict[str, InstalledApk], frozenset[str]]:
        """The record, re-read only when its file changed (packages() asks for it on every command)."""
        path = self.fs.host_path(RECORD_PATH)
        if not path.is_file():
            return {}, frozenset()
        st = path.stat()
        stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
        if self._cache is not None and self._cache[0] == stamp:
            return self._cache[1], self._cache[2]
        raw = json.loads(path.read_text(encoding="utf-8"))
        found = {name: InstalledApk.from_json(rec) for name, rec in raw.get("packages", {}).items()}
        removed = frozenset(str(name) for name in raw.get("removed_built_in", []))
        self._cache = (stamp, found, removed)
        return found, removed

    def get(self, package: str) -> InstalledApk | None:
        return self.all().get(package)

    def removed(self) -> frozenset[str]:
        """Preinstalled non-system packages (ADBKeyboard) the user uninstalled."""
        return self._load()[1]

    def remove_built_in(self, package: str, keep_data: bool = False) -> None:
        if not keep_data:
            for storage in (f"/data/data/{package}", f"/data/user_de/0/{package}"):
                shutil.rmtree(self.fs.host_path(storage), ignore_errors=True)
        self._write(self.all(), self.removed() | {package})

    def install(self, apk: Path, session_path: str, options: InstallOptions,
                built_in: dict[str, PackageInfo]) -> InstalledApk:
        """Install the APK at host path `apk`; `session_path` is what failure messages name
        (`/data/app/vmdlN.tmp/base.apk`), `built_in` the packages that ship with the phone."""
        manifest = read_apk(apk, session_path)
        _check(manifest, options, self.get(manifest.package), built_in.get(manifest.package))
        previous = self.get(manifest.package)
        code_path = _code_path(manifest.package, apk)
        target = self.fs.host_path(code_path + "/base.apk")
        if previous is not None and previous.code_path != code_path:
            shutil.rmtree(self.fs.host_path(previous.code_path).parent, ignore_errors=True)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(apk, target)
        stamp = self.now().strftime(TIME_FORMAT)
        record = InstalledApk(manifest, code_path, previous.first_install_time if previous else stamp, stamp,
                              options.grant_all or bool(previous and previous.granted_all))
        self._write({**self.all(), manifest.package: record}, self.removed() - {manifest.package})
        for storage in (f"/data/data/{manifest.package}", f"/data/user_de/0/{manifest.package}"):
            self.fs.host_path(storage).mkdir(parents=True, exist_ok=True)
        return record

    def uninstall(self, package: str, keep_data: bool = False) -> bool:
        records = self.all()
        record = records.pop(package, None)
        if record is None:
            return False
        shutil.rmtree(self.fs.host_path(record.code_path).parent, ignore_errors=True)
        if not keep_data:
            for storage in (f"/data/data/{package}", f"/data/user_de/0/{package}"):
                shutil.rmtree(self.fs.host_path(storage), ignore_errors=True)
        self._write(records, self.removed())
        return True

    def _write(self, records: dict[str, InstalledApk], removed: frozenset[str]) -> None:
        path = self.fs.host_path(RECORD_PATH)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        body = {"packages": {name: records[name].to_json() for name in sorted(records)},
                "removed_built_in": sorted(removed)}
        tmp.write_text(json.dumps(body, ensure_ascii=False, indent=1), encoding="utf-8")
        tmp.replace(path)
        self._cache = None


def _check(manifest: ApkManifest, options: InstallOptions, previous: InstalledApk | None,
           built_in: PackageInfo | None) -> None:
    """InstallPackageHelper's refusals, in the order a real install meets them."""
    if manifest.test_only and not options.allow_test:
        raise ApkError("INSTALL_FAILED_TEST_ONLY", "installPackageLI")
    if manifest.min_sdk > PLATFORM_SDK:
        raise ApkError("INSTALL_FAILED_OLDER_SDK",
                       f"Requires newer sdk version #{manifest.min_sdk} (current version is #{PLATFORM_SDK})")
    if manifest.target_sdk < MIN_INSTALLABLE_TARGET_SDK:
        raise ApkError("INSTALL_FAILED_DEPRECATED_SDK_VERSION",
                       f"App package must target at least SDK version {MIN_INSTALLABLE_TARGET_SDK}, "
                       f"but found {manifest.target_sdk}")
    if built_in is not None and built_in.system:
        raise ApkError("INSTALL_FAILED_UPDATE_INCOMPATIBLE", f"Existing package {manifest.package} "
                       "signatures do not match newer version; ignoring!")
    if previous is not None and manifest.version_code < previous.manifest.version_code \
            and not options.allow_downgrade:
        raise ApkError("INSTALL_FAILED_VERSION_DOWNGRADE",
                       f"Downgrade detected: Update version code {manifest.version_code} is older than "
                       f"current {previous.manifest.version_code}")


def _code_path(package: str, apk: Path) -> str:
    """`/data/app/~~A==/PKG-B==`: two 16-byte tokens, here derived from the APK's bytes so the same
    install lays out the same files (Android draws them at random)."""
    digest = hashlib.sha256(package.encode() + apk.read_bytes()).digest()
    outer = base64.urlsafe_b64encode(digest[:16]).decode()
    inner = base64.urlsafe_b64encode(digest[16:32]).decode()
    return f"/data/app/~~{outer}/{package}-{inner}"


__all__ = ["RECORD_PATH", "InstallOptions", "InstalledApk", "PackageStore"]
