"""The phone's layers point one way: apps use the system, and the system's modules import no app (apps
register their providers and screens with it). Only PhoneOS, which assembles the apps, imports them."""

from __future__ import annotations

import subprocess
import sys


def test_the_system_modules_import_no_app() -> None:
    code = ("import sys, pkgutil, importlib, spa_bench.phone.system as s\n"
            "for m in pkgutil.iter_modules(s.__path__):\n"
            "    if m.name != 'phone_os':\n"
            "        importlib.import_module('spa_bench.phone.system.' + m.name)\n"
            "print(' '.join(sorted(n for n in sys.modules if n.startswith('spa_bench.phone.apps'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == []


def test_phone_os_is_loaded_on_first_use() -> None:
    code = ("import sys, spa_bench.phone.system as s\n"
            "before = 'spa_bench.phone.system.phone_os' in sys.modules\n"
            "print(before, s.PhoneOS.__module__, 'spa_bench.phone.apps' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "spa_bench.phone.system.phone_os", "True"]
