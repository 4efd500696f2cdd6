"""Devices over ADB: the Device seam (observe, act, reset), UI elements, observations, app names."""
