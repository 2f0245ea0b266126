"""A certificate authority of the test's own (openssl, as devtools/nginx.py makes the TLS
tests' certificate) and server certificates it signs for the names a test chooses: a client
trusting this authority alone shows which name it checked."""

from __future__ import annotations

import shutil
import ssl
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tests.services import unavailable

KEY = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")


def _openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True, timeout=30)


@dataclass(frozen=True)
class Authority:
    folder: Path
    cert: Path
    key: Path

    def client(self) -> ssl.SSLContext:
        """A client's context that trusts this authority and no other, checking names."""
        return ssl.create_default_context(cafile=str(self.cert))

    def server(self, *names: str) -> ssl.SSLContext:
        """A server's context whose certificate this authority signed for `names`
        ("DNS:hooks.example", "IP:127.0.0.1")."""
        stem = self.folder / "-".join(n.replace(":", "_") for n in names)
        extensions = stem.with_suffix(".ext")
        extensions.write_text(
            f"subjectAltName={','.join(names)}\nbasicConstraints=CA:FALSE\n"
            "extendedKeyUsage=serverAuth\n"
        )
        csr, key, cert = (stem.with_suffix(suffix) for suffix in (".csr", ".key", ".crt"))
        _openssl("req", *KEY, "-subj", "/CN=webhook", "-keyout", str(key), "-out", str(csr))
        _openssl(
            *("x509", "-req", "-in", str(csr), "-days", "1", "-extfile", str(extensions)),
            *("-CA", str(self.cert), "-CAkey", str(self.key), "-CAcreateserial"),
            *("-out", str(cert)),
        )
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(str(cert), str(key))
        return context


def authority(folder: Path) -> Authority:
    if shutil.which("openssl") is None:
        unavailable("openssl is not installed: apt-get install openssl")
    made = Authority(folder, folder / "ca.crt", folder / "ca.key")
    _openssl(
        *("req", "-x509", *KEY, "-days", "1", "-subj", "/CN=Small Council test authority"),
        *("-addext", "basicConstraints=critical,CA:TRUE"),
        *("-addext", "keyUsage=critical,keyCertSign,cRLSign"),
        *("-keyout", str(made.key), "-out", str(made.cert)),
    )
    return made
