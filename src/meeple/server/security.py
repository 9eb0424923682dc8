"""What a server facing the internet refuses, and the headers every answer carries.

- **Host** (DNS rebinding): a page on a name the attacker controls, once that name resolves to
  this server, would reach it with its own name in ``Host``. Every request and WebSocket
  upgrade must name an allowed host (:class:`AllowedHosts`), else ``400`` (a socket: close
  ``1008``) with the reason.
- **Origin** (cross-site requests): a ``POST``, ``PUT``, ``PATCH`` or ``DELETE`` and every
  WebSocket upgrade that carries an ``Origin`` must come from the server's own origin (the
  request's ``Host``) or one listed (:class:`AllowedOrigins`), else ``403`` (a socket: close
  ``1008``). No ``Origin`` (curl, API clients, bots) is allowed: browsers always send one on
  these requests.
- **Headers** (:data:`HEADERS`): a strict Content-Security-Policy (scripts only from
  this server's files, no inline script; :func:`content_security_policy`), no framing, no
  ``Referer``, no MIME sniffing; and, when asked (``--hsts``, ``$MEEPLE_HSTS``),
  ``Strict-Transport-Security`` (:data:`HSTS`).
- **Proxies** (:func:`trusted_proxies`): the addresses whose ``X-Forwarded-For`` names the
  client, each named; a network is taken with a warning (:func:`proxy_warnings`).

The defaults (:func:`default_hosts`) allow the names of the address the server listens on;
docs/SERVER.md, "Security headers, Origin and Host", says why. :class:`Guard` is the
middleware that does it all.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import os
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import NamedTuple

from fastapi.responses import JSONResponse
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

HOSTS_ENV = "MEEPLE_ALLOWED_HOSTS"
ORIGINS_ENV = "MEEPLE_ALLOWED_ORIGINS"
HSTS_ENV = "MEEPLE_HSTS"

HSTS = b"max-age=31536000"
"""``Strict-Transport-Security`` with ``--hsts``: browsers that saw it once over HTTPS use
HTTPS alone for this name for a year (no ``includeSubDomains``: other names of the domain
may still serve plain HTTP; no ``preload``: that is the operator's decision to make)."""

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods whose ``Origin`` is checked (reads are left to the browser's same-origin rule)."""

WS_POLICY_VIOLATION = 1008

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
ANY_IPV4, ANY_IPV6, ANY_HOST = "0.0.0.0", "[::]", "*"

_HOST = re.compile(
    r"(?:\[(?P<v6>[0-9a-f:.]+)\]|(?P<name>[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?)\.?)"
    r"(?::(?P<port>[0-9]{1,5}))?",
    re.ASCII,
)
_DEFAULT_PORT = {"http": 80, "ws": 80, "https": 443, "wss": 443}


class HostPort(NamedTuple):
    """A host as compared: lower case, IPv6 in brackets and compressed, no trailing dot."""

    host: str
    port: int | None


def parse_host(text: str) -> HostPort:
    """``name``, ``name:port``, ``[v6]:port`` (or a bare IPv6 address); ``ValueError`` if not."""
    text = text.strip().lower()
    if text.count(":") > 1 and not text.startswith("["):
        text = f"[{text}]"  # a bare IPv6 address, as an operator may write it
    m = _HOST.fullmatch(text)
    if m is None:
        raise ValueError(f"{text!r} is not a host name or address with an optional :port")
    port = None if m["port"] is None else int(m["port"])
    if port is not None and port > 65535:
        raise ValueError(f"{text!r}: the port must be at most 65535")
    if m["v6"] is not None:
        try:
            return HostPort(f"[{ipaddress.IPv6Address(m['v6']).compressed}]", port)
        except ValueError:
            raise ValueError(f"{text!r} is not an IPv6 address") from None
    return HostPort(m["name"], port)


def _is_ip(host: str, version: int) -> bool:
    """``host`` (as :func:`parse_host` gives it) is an IP address of that version."""
    try:
        return ipaddress.ip_address(host.strip("[]")).version == version
    except ValueError:
        return False


class AllowedHosts:
    """The ``Host`` values accepted: each pattern is ``name`` (any port) or ``name:port``.

    Special names: ``0.0.0.0`` allows any IPv4 address, ``[::]`` any IPv6 address (what
    listening on them means; an address cannot carry a rebinding attack, which needs a name),
    and ``*`` any host at all (the check is off: only behind a proxy that checks ``Host``).
    """

    def __init__(self, patterns: Iterable[str]) -> None:
        self.patterns: tuple[HostPort, ...] = tuple(
            HostPort(ANY_HOST, None) if p.strip() == ANY_HOST else parse_host(p) for p in patterns
        )
        if not self.patterns:
            raise ValueError("no host is allowed: list at least one")

    def __str__(self) -> str:
        said = {ANY_IPV4: " (any IPv4 address)", ANY_IPV6: " (any IPv6 address)", ANY_HOST: ""}
        return ", ".join(_netloc(p) + said.get(p.host, "") for p in self.patterns)

    def allows(self, host: HostPort, scheme: str) -> bool:
        port = host.port if host.port is not None else _DEFAULT_PORT.get(scheme, 80)
        for want, want_port in self.patterns:
            if want_port is not None and want_port != port:
                continue
            if (
                want in (ANY_HOST, host.host)
                or (want == ANY_IPV4 and _is_ip(host.host, 4))
                or (want == ANY_IPV6 and _is_ip(host.host, 6))
            ):
                return True
        return False


def _origin_key(origin: str) -> tuple[str, HostPort] | None:
    """An ``Origin`` (``scheme://host[:port]``) as its scheme and host, the scheme's default
    port left out; ``None`` if it is not one (``null``, a path, another scheme)."""
    scheme, sep, rest = origin.strip().lower().partition("://")
    if not sep or scheme not in ("http", "https"):
        return None
    try:
        host = parse_host(rest)
    except ValueError:
        return None
    return scheme, _without_default_port(host, scheme)


def _without_default_port(host: HostPort, scheme: str) -> HostPort:
    return HostPort(host.host, None) if host.port == _DEFAULT_PORT.get(scheme) else host


class AllowedOrigins:
    """Origins besides the server's own (``scheme://host[:port]``) that may change state."""

    def __init__(self, origins: Iterable[str] = ()) -> None:
        self.origins: set[tuple[str, HostPort]] = set()
        for origin in origins:
            key = _origin_key(origin)
            if key is None:
                raise ValueError(f"{origin!r} is not an origin: write http(s)://host[:port]")
            self.origins.add(key)

    def __str__(self) -> str:
        listed = sorted(f"{scheme}://{_netloc(host)}" for scheme, host in self.origins)
        return ", ".join(listed) or "none besides the server's own"

    def allows(self, origin: str, host: HostPort, scheme: str) -> bool:
        """``origin`` is listed, or names the request's ``host`` (the server's own origin)."""
        key = _origin_key(origin)
        if key is None:
            return False
        # The scheme is not compared with the request's: behind a proxy that ends TLS, the
        # server sees http for an https page of its own.
        return key in self.origins or key[1] == _without_default_port(host, scheme)


def _netloc(host: HostPort) -> str:
    return host.host if host.port is None else f"{host.host}:{host.port}"


def default_hosts(listen: str = "127.0.0.1", port: int = 0) -> list[str]:
    """The hosts allowed when the operator lists none, for a server on ``listen``:``port``
    (port 0: any port).

    A loopback address or ``localhost``: its loopback names (``127.0.0.1``, ``localhost``,
    ``[::1]``). All interfaces (``0.0.0.0``, ``::``): any IP address, and ``localhost``; a name
    such as ``games.example.com`` must be listed. Another address or name: itself.
    """
    suffix = f":{port}" if port else ""
    listen = listen.strip().lower()
    if listen in ("", ANY_IPV4, "::", ANY_IPV6):
        out = [ANY_IPV4] if listen in ("", ANY_IPV4) else [ANY_IPV4, ANY_IPV6]
        return [h + suffix for h in [*out, "localhost"]]
    host = parse_host(listen).host
    if host == "localhost" or _is_loopback(host):
        names = [host, *(n for n in LOOPBACK_NAMES if n != host)]
        return [n + suffix for n in names]
    return [host + suffix]


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _from_env(name: str) -> list[str]:
    return [p.strip() for p in os.environ.get(name, "").split(",") if p.strip()]


def resolve_hosts(
    hosts: Sequence[str] | None = None, listen: str = "127.0.0.1", port: int = 0
) -> list[str]:
    """``hosts``, else ``$MEEPLE_ALLOWED_HOSTS`` (comma-separated), else
    :func:`default_hosts` for ``listen``:``port``."""
    return list(hosts or _from_env(HOSTS_ENV) or default_hosts(listen, port))


def resolve_origins(origins: Sequence[str] | None = None) -> list[str]:
    """``origins``, else ``$MEEPLE_ALLOWED_ORIGINS`` (comma-separated)."""
    return list(origins or _from_env(ORIGINS_ENV))


def resolve_hsts(hsts: bool | None = None) -> bool:
    """``hsts``, else whether ``$MEEPLE_HSTS`` is ``1``, ``true``, ``yes`` or ``on``."""
    if hsts is not None:
        return hsts
    return os.environ.get(HSTS_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def trusted_proxies(text: str | None) -> list[str]:
    """The addresses of ``--forwarded-allow-ips`` (comma-separated IP addresses, networks, or
    ``*``) as uvicorn takes them; ``[]`` for none, ``ValueError`` for a malformed one (uvicorn
    would take it as a name that no connection ever has, and trust nobody, silently). A
    network of one address (``/32``, ``/128``) is that address."""
    out = []
    for item in (text or "").split(","):
        item = item.strip()
        if not item:
            continue
        if item != "*":
            try:
                if "/" in item:
                    net = ipaddress.ip_network(item)
                    item = str(net.network_address) if net.num_addresses == 1 else str(net)
                else:
                    item = str(ipaddress.ip_address(item))
            except ValueError:
                raise ValueError(
                    f"{item!r} is not an IP address, a network such as 10.0.0.0/8, or *"
                ) from None
        out.append(item)
    return ["*"] if "*" in out else out  # uvicorn trusts everyone only for a lone *


def proxy_warnings(proxies: Sequence[str]) -> list[str]:
    """What to warn of in ``proxies`` (:func:`trusted_proxies`' answer): each network, and
    ``*``. Any machine in a trusted network can write the client's address it likes, so the
    per-address limits count what it says: name the proxy's own address instead
    (docs/DEPLOY.md, "Client addresses and the limits"). Taken, not refused: where proxies
    come and go (a Kubernetes ingress), a network is all an operator can name."""
    out = []
    for item in proxies:
        if item == "*":
            out.append(
                "--forwarded-allow-ips *: every connection may name its own client address; "
                "the per-address limits then count what each says (name the proxy's address)"
            )
        elif "/" in item:
            out.append(
                f"--forwarded-allow-ips {item}: any machine of {item} may name the client "
                "address it likes; the per-address limits then count what it says (name the "
                "proxy's own address)"
            )
    return out


REPEATED = "\n"
"""What :func:`_header` gives for a header sent twice (no header's value holds a line break)."""


def _header(scope: Scope, name: bytes) -> str | None:
    """The value of the header ``name`` (lower case), ``None`` if absent, :data:`REPEATED`."""
    found = None
    for key, value in scope.get("headers", []):
        if key == name:
            if found is not None:
                return REPEATED
            found = value.decode("latin-1")
    return found


def script_hash(script: str) -> str:
    """The CSP source that allows exactly this inline script."""
    digest = hashlib.sha256(script.encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


@lru_cache(maxsize=256)
def content_security_policy(host: str | None, script_hashes: tuple[str, ...] = ()) -> str:
    """The pages' policy: scripts, styles, images and connections from this server only
    (styles also inline: the pages set style attributes); the page's own WebSockets at
    ``host``; never framed; no ``<base>``, no plugins, forms posted here only.

    ``script_hashes`` allows those inline scripts too (the API docs page's one script).
    """
    connect = "'self'"
    # CSP has no syntax for an IPv6 address: there 'self' alone covers the page's sockets.
    if host is not None and not host.startswith("[") and _HOST.fullmatch(host.lower()):
        connect += f" ws://{host.lower()} wss://{host.lower()}"
    return "; ".join(
        [
            "default-src 'self'",
            " ".join(["script-src 'self'", *script_hashes]),
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data:",
            f"connect-src {connect}",
            "frame-ancestors 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "object-src 'none'",
        ]
    )


HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),  # frame-ancestors for browsers older than CSP 2
)
"""The headers every HTTP answer carries besides the Content-Security-Policy."""


async def send_detail(send: Send, status: int, detail: str) -> None:
    """Answer ``{"detail": detail}`` with ``status`` from ASGI middleware (before the app)."""
    body = JSONResponse({"detail": detail}).body
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def close_socket(receive: Receive, send: Send, reason: str) -> None:
    """Refuse a WebSocket from ASGI middleware (before the app): accepted, then closed with
    ``1008`` and ``reason``, so the client sees why (a refused handshake shows nothing)."""
    if (await receive())["type"] == "websocket.connect":
        await send({"type": "websocket.accept"})
        reason = reason.encode()[:123].decode(errors="ignore")  # a close frame's limit
        await send({"type": "websocket.close", "code": WS_POLICY_VIOLATION, "reason": reason})


class Guard:
    """The checks and headers of this module, as ASGI middleware.

    Refuses a host not allowed (``400``) and a state change or socket from a foreign origin
    (``403``; a socket is accepted and closed with ``1008`` and the reason, so the client sees
    why), and puts :data:`HEADERS` and the Content-Security-Policy on every HTTP answer,
    refusals included (a route's own policy, the API docs page's, is kept), and
    ``Strict-Transport-Security`` with ``hsts``.
    """

    def __init__(
        self, app: ASGIApp, hosts: AllowedHosts, origins: AllowedOrigins, hsts: bool = False
    ) -> None:
        self.app = app
        self.hosts = hosts
        self.origins = origins
        self.headers = (*HEADERS, (b"strict-transport-security", HSTS)) if hsts else HEADERS

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host, refused = self.check(scope)
        if kind == "websocket":
            if refused is None:
                await self.app(scope, receive, send)
            else:
                await close_socket(receive, send, refused[1])
            return
        policy = content_security_policy(None if refused else host)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                headers = MutableHeaders(scope=message)
                if "content-security-policy" not in headers:
                    headers.append("content-security-policy", policy)
                headers.raw.extend(self.headers)
            await send(message)

        if refused is None:
            await self.app(scope, receive, send_with_headers)
            return
        status, reason = refused
        await send_detail(send_with_headers, status, reason)

    def check(self, scope: Scope) -> tuple[str | None, tuple[int, str] | None]:
        """The request's host as sent, and ``None`` when it may go on, else its status and
        the reason."""
        text = _header(scope, b"host")
        if text is None or text == REPEATED:
            return None, (400, "the request needs one Host header")
        try:
            host = parse_host(text)
        except ValueError:
            return None, (400, "malformed Host header")
        scheme = scope.get("scheme", "http")
        if not self.hosts.allows(host, scheme):
            return text, (
                400,
                f"host {_netloc(host)!r} is not served here (the operator may allow it: "
                "meeple serve --allowed-host)",
            )
        if scope["type"] == "http" and scope["method"] not in STATE_CHANGING:
            return text, None
        origin = _header(scope, b"origin")
        if origin is None or self.origins.allows(origin, host, scheme):
            return text, None
        return text, (
            403,
            f"origin {origin[:60]!r} may not change anything here (the operator may allow "
            "it: meeple serve --allowed-origin)",
        )
