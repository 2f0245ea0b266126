"""nginx in front of court servers, as docs/deployment.md shows it: deploy/nginx.conf (or
deploy/nginx-tls.conf with a certificate) with its listening address, its backends and its
certificate replaced, run in the foreground (`daemon off`) with a temporary folder as prefix,
on 127.0.0.1; every wait bounded."""

from __future__ import annotations

import contextlib
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from devtools.servers import HOST, ROOT, free_port

CONFIG = ROOT / "deploy" / "nginx.conf"
TLS_CONFIG = ROOT / "deploy" / "nginx-tls.conf"
START_SECONDS = 20.0
STOP_SECONDS = 10.0
_LISTEN = re.compile(r"^(\s*listen\s+)[^\s;]+(\s+ssl)?;", re.MULTILINE)
_CERTIFICATE = re.compile(r"^(\s*ssl_certificate\s+)\S+;", re.MULTILINE)
_KEY = re.compile(r"^(\s*ssl_certificate_key\s+)\S+;", re.MULTILINE)
_UPSTREAM = re.compile(r"(upstream court \{\n(?:.*\n)*?)((?:\s*server \S+;\n)+)(\s*\})")


class NginxError(RuntimeError):
    """nginx would not start; its error log is in the message."""


def nginx_binary() -> str | None:
    """nginx on PATH, or Debian's /usr/sbin/nginx (not on a non-root user's PATH)."""
    found = shutil.which("nginx")
    if found:
        return found
    return "/usr/sbin/nginx" if Path("/usr/sbin/nginx").is_file() else None


@dataclass(frozen=True)
class Certificate:
    """A certificate and its private key, PEM files."""

    cert: Path
    key: Path


def self_signed(folder: Path) -> Certificate:
    """A new self-signed certificate for 127.0.0.1 and localhost (openssl), valid a day."""
    made = Certificate(folder / "court.crt", folder / "court.key")
    names = "subjectAltName=IP:127.0.0.1,DNS:localhost"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=127.0.0.1", "-addext", names),
            *("-keyout", str(made.key), "-out", str(made.cert)),
        ],
        check=True,
        capture_output=True,
        timeout=START_SECONDS,
    )
    return made


def render(
    text: str, port: int, backends: Sequence[str], certificate: Certificate | None = None
) -> str:
    """The configuration listening on 127.0.0.1:`port`, in front of `backends` (host:port),
    with `certificate` in place of the one it names (a TLS configuration needs one)."""
    text, listens = _LISTEN.subn(rf"\g<1>{HOST}:{port}\g<2>;", text)
    if listens != 1:
        raise ValueError(f"expected one `listen ADDRESS[ ssl];` line, found {listens}")
    if _CERTIFICATE.search(text) and certificate is None:
        raise ValueError("the configuration terminates TLS: give it a certificate")
    if certificate is not None:
        text = _CERTIFICATE.sub(rf"\g<1>{certificate.cert};", text)
        text = _KEY.sub(rf"\g<1>{certificate.key};", text)
    match = _UPSTREAM.search(text)
    if match is None:
        raise ValueError("no `upstream court { ... server ...; }` block")
    indent = re.match(r"\s*", match.group(2).lstrip("\n")).group(0)  # type: ignore[union-attr]
    servers = "".join(f"{indent}server {backend};\n" for backend in backends)
    return text[: match.start(2)] + servers + text[match.end(2) :]


@contextlib.contextmanager
def running_nginx(
    backends: Sequence[str],
    folder: Path,
    port: int | None = None,
    *,
    config: Path = CONFIG,
    certificate: Certificate | None = None,
) -> Iterator[str]:
    """nginx with `config` in front of `backends` until the block ends; yields its base URL
    (https with a certificate)."""
    binary = nginx_binary()
    if binary is None:
        raise NginxError("nginx is not installed: apt-get install nginx")
    port = port or free_port()
    prefix = folder / "nginx"
    for sub in ("logs", "temp"):
        (prefix / sub).mkdir(parents=True, exist_ok=True)
    rendered = prefix / "nginx.conf"
    rendered.write_text(render(config.read_text(), port, backends, certificate))
    args = [binary, "-p", str(prefix), "-c", str(rendered), "-e", "logs/error.log"]
    with open(prefix / "logs" / "stdout.log", "wb") as out:
        process = subprocess.Popen([*args, "-g", "daemon off;"], stdout=out, stderr=out)
    try:
        _wait_listening(process, port, prefix)
        yield f"{'https' if certificate else 'http'}://{HOST}:{port}"
    finally:
        process.terminate()  # SIGTERM: fast shutdown, the master stops its workers
        try:
            process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=STOP_SECONDS)


def _wait_listening(process: subprocess.Popen[bytes], port: int, prefix: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise NginxError(f"nginx exited with {process.returncode}: {_log(prefix)}")
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), timeout=1):
            return
        time.sleep(0.05)
    raise NginxError(f"nginx did not listen on {port} in {START_SECONDS:.0f} s: {_log(prefix)}")


def _log(prefix: Path) -> str:
    text = ""
    for name in ("error.log", "stdout.log"):
        with contextlib.suppress(OSError):
            text += (prefix / "logs" / name).read_text(errors="replace")[-2000:]
    return text
