"""Packages that are part of the system rather than apps with screens, and `getprop`."""

from __future__ import annotations

import hashlib
from dataclasses import replace

from spa_bench.phone.api import Component, Locale, PackageInfo, PhoneConfig
from spa_bench.phone.i18n import CONTENT_COUNTRIES, locale_tag

BIND_INPUT_METHOD = "android.permission.BIND_INPUT_METHOD"
SYSTEM_PACKAGES: tuple[PackageInfo, ...] = (
    PackageInfo("android", "Android System", "Android 系统", None, "/system/framework/framework-res.apk"),
    PackageInfo(
        "com.android.systemui",
        "System UI",
        "系统界面",
        None,
        "/system_ext/priv-app/SystemUIGoogle/SystemUIGoogle.apk",
    ),
    PackageInfo(
        "com.android.providers.settings",
        "Settings Storage",
        "设置存储",
        None,
        "/system/priv-app/SettingsProvider/SettingsProvider.apk",
    ),
    PackageInfo(
        "com.android.inputmethod.latin",
        "Android Keyboard (AOSP)",
        "Android 键盘 (AOSP)",
        None,
        "/system/app/LatinIME/LatinIME.apk",
        components=(Component("service", "com.android.inputmethod.latin.LatinIME", True, BIND_INPUT_METHOD),),
    ),
    PackageInfo(
        "com.android.adbkeyboard",
        "ADBKeyboard",
        "ADBKeyboard",
        None,
        "/data/app/com.android.adbkeyboard-1/base.apk",
        system=False,
        # its ADB_INPUT_* receiver is registered by the running IME service, not in the manifest
        components=(Component("service", "com.android.adbkeyboard.AdbIME", True, BIND_INPUT_METHOD),),
    ),
    PackageInfo("com.android.shell", "Shell", "Shell", None, "/system/priv-app/Shell/Shell.apk"),
    # the content providers whose data the apps show (`pm clear` of one empties what it holds)
    PackageInfo("com.android.providers.contacts", "Contacts Storage", "联系人存储", None,
                "/system/priv-app/ContactsProvider/ContactsProvider.apk"),
    PackageInfo("com.android.providers.telephony", "Phone and Messaging Storage", "电话和短信存储", None,
                "/system/priv-app/TelephonyProvider/TelephonyProvider.apk"),
    PackageInfo("com.android.providers.calendar", "Calendar Storage", "日历存储", None,
                "/system/priv-app/CalendarProvider/CalendarProvider.apk"),
    PackageInfo("com.android.providers.blockednumber", "Blocked Numbers Storage", "已屏蔽的号码存储", None,
                "/system/priv-app/BlockedNumberProvider/BlockedNumberProvider.apk"),
)


# <activity-alias> entries of the built-in apps' AOSP manifests: (package, alias, target, exported).
# Camera2 declares its launcher entry as the alias CameraLauncher of CameraActivity, which clients start
# by name (AndroidWorld's adb_utils); Contacts keeps three names of its main screen for old callers,
# one of them without a filter or android:exported, so not exported.
ALIASES: tuple[tuple[str, str, str, bool], ...] = (
    ("com.android.camera2", "com.android.camera.CameraLauncher", "com.android.camera.CameraActivity", True),
    ("com.android.contacts", "com.android.contacts.ContactsListActivity",
     "com.android.contacts.activities.PeopleActivity", False),
    ("com.android.contacts", "com.android.contacts.activities.ContactsFrontDoor",
     "com.android.contacts.activities.PeopleActivity", True),
    ("com.android.contacts", "com.android.contacts.DialtactsContactsEntryActivity",
     "com.android.contacts.activities.PeopleActivity", True),
)
ACTIVITY_ALIASES: dict[tuple[str, str], str] = {(pkg, alias): target for pkg, alias, target, _ in ALIASES}


def with_aliases(info: PackageInfo) -> PackageInfo:
    """A built-in package with its activity-aliases among its components (for am's exported check)."""
    extra = tuple(Component("activity", alias, exported) for pkg, alias, _t, exported in ALIASES
                  if pkg == info.name)
    return replace(info, components=info.components + extra) if extra else info


def build_id(config: PhoneConfig) -> str:
    return f"UQ1A.{config.sdk}0105.002"


def serial_number(config: PhoneConfig) -> str:
    """A stable serial derived from the phone's port and model (what `ro.serialno` reports)."""
    return hashlib.sha1(f"{config.model}:{config.port}".encode()).hexdigest()[:12].upper()


def properties(config: PhoneConfig, locale: Locale, content_locale: Locale,
               adb_root: bool = False) -> dict[str, str]:
    """The build as an emulator system image reports it (userdebug, google_apis, dev-keys, qemu), the way
    AndroidWorld's and SPA-Bench's emulators are: `adb root` is allowed there, unlike on user builds. The
    SIM's country is the content language's (see i18n.content_locale)."""
    bid = build_id(config)
    fingerprint = (
        f"{config.manufacturer}/{config.product}/{config.device}:{config.android_release}/"
        f"{bid}/11583682:userdebug/dev-keys"
    )
    tag = locale_tag(locale)
    props = {
        "ro.product.model": config.model,
        "ro.product.name": config.product,
        "ro.product.device": config.device,
        "ro.product.brand": config.manufacturer,
        "ro.product.manufacturer": config.manufacturer,
        "ro.product.board": config.device,
        "ro.product.cpu.abi": "x86_64",
        "ro.product.cpu.abilist": "x86_64,arm64-v8a",
        "ro.product.locale": locale_tag("en"),
        "ro.build.version.release": config.android_release,
        "ro.build.version.release_or_codename": config.android_release,
        "ro.build.version.sdk": str(config.sdk),
        "ro.build.version.security_patch": "2024-01-05",
        "ro.build.id": bid,
        "ro.build.display.id": f"{config.product}-userdebug {config.android_release} {bid} 11583682 dev-keys",
        "ro.build.type": "userdebug",
        "ro.build.tags": "dev-keys",
        "ro.build.flavor": f"{config.product}-userdebug",
        "ro.build.fingerprint": fingerprint,
        "ro.build.characteristics": "emulator",
        "ro.hardware": "ranchu",
        "ro.boot.hardware": "ranchu",
        "ro.boot.qemu": "1",
        "ro.product.first_api_level": str(config.sdk),
        "ro.serialno": serial_number(config),
        "ro.boot.serialno": serial_number(config),
        "ro.sf.lcd_density": str(config.density),
        "ro.kernel.qemu": "1",
        "ro.debuggable": "1",
        "ro.secure": "1",
        "ro.adb.secure": "0",
        "persist.sys.locale": tag,
        "gsm.sim.operator.iso-country": CONTENT_COUNTRIES[content_locale],
        "persist.sys.timezone": "UTC",
        "sys.boot_completed": "1",
        "dev.bootcomplete": "1",
        "init.svc.adbd": "running",
        "service.adb.root": "1" if adb_root else "0",
    }
    return dict(sorted(props.items()))
