#!/usr/bin/env bash
# Start one headless emulator and publish its console (5554) and adb (5555) ports on the container's
# interface. The emulator itself listens on 127.0.0.1:5556 (console) and :5557 (adb) inside the container.
# Environment: AVD_NAME (default spa-bench), SNAPSHOT (load this snapshot at boot; empty = cold boot),
# EMULATOR_EXTRA_ARGS (more emulator flags, split on spaces).
# Usage: entrypoint.sh [run|provision]: run (default) starts the emulator; provision builds the golden
# snapshots (provision.sh) and exits.
set -euo pipefail
mode="${1:-run}"
kvm="${KVM_DEVICE:-/dev/kvm}"  # overridable only so that the missing-KVM message can be tested

AVD_NAME="${AVD_NAME:-spa-bench}"
SNAPSHOT="${SNAPSHOT:-}"
read -r -a extra_args <<< "${EMULATOR_EXTRA_ARGS:-}"

if [ ! -e "${kvm}" ]; then
    echo "error: ${kvm} is missing in the container. The x86_64 emulator needs KVM: run on a Linux host" \
         "with KVM enabled (ls -l /dev/kvm) and pass the device (docker run --device /dev/kvm, or" \
         "'devices: [/dev/kvm]' in compose, as the generated compose file does)." >&2
    exit 78
fi
if [ ! -r "${kvm}" ] || [ ! -w "${kvm}" ]; then
    echo "error: ${kvm} exists but is not readable and writable by uid $(id -u)" >&2
    exit 78
fi

# An empty console token file turns console authentication off, so the harness on the host can load
# snapshots through the published console port without the token (the port is bound to 127.0.0.1).
: > "${HOME}/.emulator_console_auth_token"
# Lock files left by a crashed emulator stop the next start.
find "${ANDROID_AVD_HOME}" -name '*.lock' -exec rm -rf {} + 2>/dev/null || true

case "${mode}" in
    run) ;;
    provision) exec /opt/spa-bench/provision.sh ;;
    *) echo "error: unknown mode '${mode}' (expected run or provision)" >&2; exit 64 ;;
esac

snapshot_args=(-no-snapshot-save)
if [ -n "${SNAPSHOT}" ]; then
    snapshot_args+=(-snapshot "${SNAPSHOT}")
fi

socat TCP-LISTEN:5554,fork,reuseaddr TCP:127.0.0.1:5556 &
socat TCP-LISTEN:5555,fork,reuseaddr TCP:127.0.0.1:5557 &

# UTC, as the virtual phone: the portable suite's calendar checks compute days with SQLite's date('now').
exec emulator -avd "${AVD_NAME}" -no-window -no-audio -no-boot-anim -gpu swiftshader_indirect \
    -accel on -skip-adb-auth -no-metrics -timezone Etc/UTC -ports 5556,5557 "${snapshot_args[@]}" \
    "${extra_args[@]}"
