"""Package discovery that pyproject.toml cannot express: the top-level folders agents/, evaluators/
and tasks/ are installed as spa_bench.agents, spa_bench.evaluators and spa_bench.suites (task data)."""

from setuptools import find_namespace_packages, find_packages, setup

MOUNTS = {"spa_bench.agents": "agents", "spa_bench.evaluators": "evaluators", "spa_bench.suites": "tasks"}

packages = find_packages(include=["spa_bench", "spa_bench.*"])
package_dir = {}
for name, folder in MOUNTS.items():
    packages.append(name)
    package_dir[name] = folder
    if name == "spa_bench.suites":
        continue  # pure data: the YAML files of every suite folder are package data of spa_bench.suites
    for sub in find_namespace_packages(where=folder):
        packages.append(f"{name}.{sub}")
        package_dir[f"{name}.{sub}"] = f"{folder}/{sub.replace('.', '/')}"

setup(packages=packages, package_dir=package_dir)
