# The same steps as the README's server command (scripts/serve): a venv, `pip install .`,
# then numgrid-server on its embedded defaults (port 50051).
FROM python:3.11-slim
WORKDIR /app
COPY . .
RUN python3 -m venv .venv && .venv/bin/python -m pip install --quiet --disable-pip-version-check .
ENV NUMGRID_HOST=0.0.0.0 NUMGRID_PORT=50051
EXPOSE 50051
STOPSIGNAL SIGTERM
CMD [".venv/bin/numgrid-server"]
