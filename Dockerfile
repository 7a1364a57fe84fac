# syntax=docker/dockerfile:1
# numgrid-server's image: docker build -t numgrid:0.1.0 .   (docs/operations.md, "Deployment")
#
# Two stages on the same base image (a venv's python is a link into it):
# - builder: a venv at $VENV from requirements/server.lock (every runtime dependency,
#   transitive ones too, at an exact version with its sha256 hashes; ./scripts/lock
#   writes it), then numgrid's own wheel, built with the locked build backend;
# - runtime: that venv alone (no pip), run by an unprivileged user.
# tests/test_deploy.py runs the builder's steps outside Docker and checks the rest.
ARG PYTHON_IMAGE=python:3.11.16-slim-bookworm

FROM ${PYTHON_IMAGE} AS builder
ENV VENV=/opt/numgrid \
    BUILD_VENV=/opt/build \
    WHEELS=/opt/wheels \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_ROOT_USER_ACTION=ignore
WORKDIR /src
# The venvs have no pip of their own: the base image's pip installs into them (--python).
# The dependencies first: this layer is rebuilt only when the lock changes. Wheels only
# (the slim image has no compiler); any package missing from the lock fails the install.
COPY requirements/ requirements/
RUN python -m venv --without-pip "$VENV" \
 && python -m pip --python "$VENV/bin/python" install --require-hashes --only-binary=:all: \
        -r requirements/server.lock
COPY pyproject.toml README.md ./
COPY proto/ proto/
COPY server/ server/
COPY client/ client/
# numgrid[server] from its wheel, its dependencies taken from the venv only (--no-index):
# a dependency of the project or of its server extra that the lock lacks fails here.
RUN python -m venv --without-pip "$BUILD_VENV" \
 && python -m pip --python "$BUILD_VENV/bin/python" install --require-hashes \
        --only-binary=:all: -r requirements/build.lock \
 && python -m pip --python "$BUILD_VENV/bin/python" wheel --no-deps --no-build-isolation \
        --wheel-dir "$WHEELS" . \
 && python -m pip --python "$VENV/bin/python" install --no-index --find-links "$WHEELS" \
        "numgrid[server]" \
 && python -m pip --python "$VENV/bin/python" check

FROM ${PYTHON_IMAGE} AS runtime
# A numeric user (Kubernetes' runAsNonRoot can only check a numeric one), no home, no
# shell; and no installer: the base's own pip and setuptools go (nothing installs here).
RUN groupadd --system --gid 10001 numgrid \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin numgrid \
 && python -m pip uninstall --yes --quiet --disable-pip-version-check pip setuptools wheel
COPY --from=builder /opt/numgrid /opt/numgrid
ENV PATH=/opt/numgrid/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    NUMGRID_HOST=0.0.0.0 \
    NUMGRID_PORT=50051 \
    NUMGRID_METRICS_HOST=0.0.0.0 \
    NUMGRID_METRICS_PORT=9464
USER 10001:10001
# gRPC (numgrid.v1, grpc.health.v1, reflection) and Prometheus' /metrics
EXPOSE 50051 9464
# SIGTERM: health turns NOT_SERVING, calls in hand get --grace (NUMGRID_GRACE, 10 s)
STOPSIGNAL SIGTERM
CMD ["/opt/numgrid/bin/numgrid-server"]
