"""`spa-bench worker`: join this host and its devices to the Ray cluster of a device farm."""

from __future__ import annotations

from pathlib import Path

import typer

from spa_bench.cli.common import console


def worker(
    address: str = typer.Option(..., "--address", help="The head node, HOST:PORT (`ray start --head "
                                                      "--port PORT` there)."),
    device: list[str] = typer.Option([], "--device", help="A device of this host: its adb serial, or "
                                     "SERIAL=CONSOLE_PORT for one over TCP with an emulator console "
                                     "(snapshot resets); repeatable."),
    phones: int = typer.Option(0, "--phones", min=0, help="Virtual phones the driver may start on this "
                                                          "host."),
    node_ip_address: str | None = typer.Option(None, "--node-ip-address",
                                               help="This host's address as the others reach it."),
    num_cpus: int | None = typer.Option(None, "--num-cpus", min=0, help="CPUs Ray may use here."),
    temp_dir: Path | None = typer.Option(None, "--temp-dir", help="Ray's folder for this node "
                                                                  "(keep the path short: it holds sockets)."),
    ray_arg: list[str] = typer.Option([], "--ray-arg", help="An argument passed to `ray start` as it "
                                      "is (repeatable), e.g. --ray-arg=--min-worker-port=20000."),
) -> None:
    """Join the cluster with this host's devices; blocks until Ctrl-C (the host then leaves)."""
    from spa_bench.cluster.worker import WorkerConfig, run_worker

    config = WorkerConfig(address=address, devices=list(device), phones=phones,
                          node_ip_address=node_ip_address, num_cpus=num_cpus, temp_dir=temp_dir,
                          ray_args=list(ray_arg))
    console.print(f"joining {address} with {len(device)} device(s) and {phones} virtual phone(s)",
                  highlight=False)
    code = run_worker(config)
    if code:
        raise typer.Exit(code)
