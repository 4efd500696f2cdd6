#!/usr/bin/env bash
# Wait until the emulator in this container has booted (sys.boot_completed=1). Usage: wait-boot.sh [SECONDS]
set -euo pipefail
timeout_s="${1:-600}"
serial="emulator-5556"
deadline=$((SECONDS + timeout_s))
adb start-server >/dev/null
until [ "$(adb -s "${serial}" shell getprop sys.boot_completed 2>/dev/null | tr -d '\r')" = "1" ]; do
    if [ "${SECONDS}" -ge "${deadline}" ]; then
        echo "error: ${serial} did not finish booting within ${timeout_s} s" >&2
        exit 1
    fi
    sleep 2
done
