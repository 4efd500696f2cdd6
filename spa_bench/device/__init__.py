"""Devices over ADB: the Device seam (observe, act, reset) over a transport (device/transport.py), the
gestures actions resolve to, UI elements, observations, and what a run records about a device."""
