"""The addresses phones at the table can open (``mentalmagic serve --table``): each network
interface's IPv4 address, loopback and link-local left out (a phone can't reach this laptop's
127.0.0.1, and a 169.254 address is one no Wi-Fi hands out). Read with ifaddr (getifaddrs on
Linux and macOS, the adapters' table on Windows): the standard library lists interfaces, not
their addresses. IPv4 only: ``--table`` listens on 0.0.0.0, and a phone types or scans an IPv4
address more readily than a bracketed IPv6 one.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

WILDCARDS = ("0.0.0.0", "", "::")


def reachable(addresses: Iterable[str]) -> list[str]:
    """The addresses of ``addresses`` a phone on the same network may open, each once, in a useful
    order: a home or venue Wi-Fi's 192.168.x.x first, then 10.x.x.x and 172.16-31.x.x (where a
    container bridge such as Docker's 172.17.0.1 usually sits), then the rest."""
    seen: dict[str, int] = {}
    for raw in addresses:
        try:
            ip = ipaddress.ip_address(raw)
        except ValueError:
            continue
        if ip.version != 4 or ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast:
            continue
        rank = 0 if ip in _HOME else 1 if ip in _TEN else 2 if ip in _BRIDGES else 3
        seen.setdefault(str(ip), rank)
    return sorted(seen, key=lambda a: (seen[a], ipaddress.ip_address(a)))


_HOME = ipaddress.ip_network("192.168.0.0/16")
_TEN = ipaddress.ip_network("10.0.0.0/8")
_BRIDGES = ipaddress.ip_network("172.16.0.0/12")


def interface_addresses() -> list[str]:
    """Every IPv4 address of this machine's interfaces, as the system lists them."""
    import ifaddr

    return [ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips if isinstance(ip.ip, str)]


def table_origins(host: str, port: int, addresses: Iterable[str] | None = None) -> list[str]:
    """The origins (``http://192.168.1.20:5000``) a phone opens for a server listening on ``host``:
    every reachable address of the machine for a wildcard host, ``host`` itself for one address a
    phone can reach, none for loopback."""
    if host in WILDCARDS:
        found = reachable(interface_addresses() if addresses is None else addresses)
    else:
        found = reachable([host])
    return [f"http://{a}:{port}" for a in found]
