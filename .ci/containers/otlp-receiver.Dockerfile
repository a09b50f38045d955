# CI's stand-in for the OpenTelemetry collector (no registry image can be pulled here): accepts
# OTLP/HTTP exports on 127.0.0.1:$OTLP_PORT and logs one line per request (path and size).
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 \
    && rm -rf /var/lib/apt/lists/*
COPY otlp-receiver.py /usr/local/bin/otlp-receiver.py
ENV OTLP_PORT=4318
USER 65534:65534
ENTRYPOINT ["python3", "-u", "/usr/local/bin/otlp-receiver.py"]
