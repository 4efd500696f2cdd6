"""The virtual phone: a pure-Python Android device that speaks the real ADB wire protocol.

Layers, each a sub-package with one owner module:
- `api`      the contract between the layers (PhoneSystem protocol, PhoneConfig, PackageInfo);
- `vfs`      the jailed file system under the phone's data dir;
- `ui`       the view toolkit: one view tree renders the screenshot, the uiautomator XML and hit-tests;
- `system`   the phone's OS: activity stacks, input, keyboard, status bar, settings, packages, providers;
- `apps`     one small module per app (Settings, launcher, ...);
- `shell`    the toybox-like shell and the commands agents and checks use;
- `adb`      the device side of the ADB transport and its services (shell, exec, sync, tcp);
- `u2rpc`    uiautomator2's device server on tcp:9008;
- `console`  the emulator-style console (snapshots);
- `server`   VirtualPhone (one phone with its sockets) and helpers to start N of them.
Nothing here runs at import time.
"""
