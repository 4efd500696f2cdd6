#!/usr/bin/env bash
# Re-date the golden snapshots of a running farm emulator: for each language, load its snapshot, write
# the seed again (`spa-bench device seed`: SMS and events are dated around the day it runs, as on a
# virtual phone booted that day) and save the snapshot over the old one, in this container only.
# Run it on the day of a benchmark run when provisioning was done on an earlier day:
#   docker exec <container> /opt/spa-bench/reseed.sh
set -euo pipefail

serial="emulator-5556"
here="$(dirname "$0")"

console() { printf '%s\nquit\n' "$1" | socat - TCP:127.0.0.1:5556; }

for lang in en zh; do
    console "avd snapshot load spa-bench-base-${lang}"
    sleep 3
    adb -s "${serial}" wait-for-device
    "${here}/wait-boot.sh" 120
    spa-bench device seed --serial "${serial}" --language "${lang}"
    adb -s "${serial}" shell input keyevent KEYCODE_HOME
    console "avd snapshot save spa-bench-base-${lang}"
    echo "re-seeded snapshot spa-bench-base-${lang}"
done
console "avd snapshot load spa-bench-base-en"
