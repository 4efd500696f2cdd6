"""Runs over a device farm of several hosts, on Ray (`pip install 'spa-bench[ray]'`).

    resources.py  the Ray resources a worker host offers (one per device, a count of virtual phones)
                  and the device slots the driver reads back from them; no Ray needed
    connect.py    importing Ray with an install hint, and reaching a cluster's address
    actor.py      the device host: one long-lived actor per device, runs episodes and sends them back
    executor.py   RayExecutor, the `Executor` of `spa-bench run --executor ray`: the driver's loop
    worker.py     `spa-bench worker`: joins a host to the cluster with its devices

Nothing here imports Ray at import time: only `connect.import_ray()` does, called by the executor and the
worker, so a local run never loads it.
"""
