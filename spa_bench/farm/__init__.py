"""The docker emulator farm: a generated compose file (one emulator per container) and the farm.json
that tells `spa-bench run --farm` which serials and console ports to use. See docker/README.md."""
