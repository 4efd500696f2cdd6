#!/usr/bin/env bash
# Build the golden snapshots spa-bench resets to: spa-bench-base-en and spa-bench-base-zh.
# Runs inside the emulator image with the AVD volume mounted (docker/README.md: "provision"): boots the
# AVD once, installs and selects ADBKeyboard, skips the setup wizard, then per language sets the locale,
# restarts the framework, writes the virtual phone's seed data into the stock providers, DeskClock and
# /sdcard (`spa-bench device seed`: the contacts, SMS, events, calls, alarms and files the portable suite's
# checks expect) and saves the snapshot. Snapshots are tied to this host's emulator build and CPU, so run
# this on the farm host itself.
set -euo pipefail

serial="emulator-5556"
ime="com.android.adbkeyboard/.AdbIME"
here="$(dirname "$0")"

sh_() { adb -s "${serial}" shell "$@"; }
console() { printf '%s\nquit\n' "$1" | socat - TCP:127.0.0.1:5556; }

SNAPSHOT="" "${here}/entrypoint.sh" run &
emulator_pid=$!
trap 'kill "${emulator_pid}" 2>/dev/null || true' EXIT

"${here}/wait-boot.sh" 900
adb -s "${serial}" root >/dev/null
adb -s "${serial}" wait-for-device
"${here}/wait-boot.sh" 300

adb -s "${serial}" install -r -g /opt/spa-bench/ADBKeyboard.apk
sh_ ime enable "${ime}"
sh_ ime set "${ime}"
# Setup wizard done, no lock screen, screen stays on: every task starts on the home screen.
sh_ settings put global device_provisioned 1
sh_ settings put secure user_setup_complete 1
sh_ settings put global stay_on_while_plugged_in 7
sh_ settings put system screen_off_timeout 2147483647
sh_ locksettings set-disabled true || true

for lang in en zh; do
    case "${lang}" in
        en) locale="en-US" ;;
        zh) locale="zh-CN" ;;
    esac
    sh_ setprop persist.sys.locale "${locale}"
    sh_ setprop ctl.restart zygote
    sleep 5
    "${here}/wait-boot.sh" 300
    # A framework restart can bring the default keyboard back.
    sh_ ime set "${ime}"
    sh_ input keyevent KEYCODE_HOME
    sleep 3
    got="$(sh_ getprop persist.sys.locale | tr -d '\r')"
    if [ "${got}" != "${locale}" ]; then
        echo "error: locale is ${got}, expected ${locale}" >&2
        exit 1
    fi
    zone="$(sh_ getprop persist.sys.timezone | tr -d '\r')"
    if [ "${zone}" != "Etc/UTC" ] && [ "${zone}" != "UTC" ]; then
        echo "warning: time zone is '${zone}', not UTC: calendar checks assume UTC (emulator -timezone)" >&2
    fi
    # Stops with the serial and the failing command if any write fails (set -e). The alarms go to the
    # clock app installed (Google's Clock on this image, whose alarms.db the runs' checks read).
    spa-bench device seed --serial "${serial}" --language "${lang}"
    sh_ input keyevent KEYCODE_HOME
    console "avd snapshot save spa-bench-base-${lang}"
    echo "saved snapshot spa-bench-base-${lang} (locale ${locale})"
done
console "avd snapshot list"
