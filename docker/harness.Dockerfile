# The spa-bench harness in a container (no Android inside: it drives devices over ADB, or runs its own
# virtual phones). Build from the repository root:
#   docker build -f docker/harness.Dockerfile -t spa-bench .
#   docker run --rm spa-bench tasks list --counts
FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends adb git && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/spa-bench
COPY . .
RUN pip install --no-cache-dir .
ENTRYPOINT ["spa-bench"]
