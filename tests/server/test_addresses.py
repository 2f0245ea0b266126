"""Whom the limits count an address as (server/clients/addresses.py): an IPv4 address itself, an
IPv6
address its network of LIMIT_IPV6_PREFIX bits, an IPv4 address written as IPv6 as IPv4."""

from __future__ import annotations

import pytest

from server.clients.addresses import limit_key


@pytest.mark.parametrize(
    ("address", "prefix", "key"),
    [
        ("203.0.113.9", 64, "203.0.113.9"),
        ("2001:db8:a:b:c:d:e:f", 64, "2001:db8:a:b::/64"),
        ("2001:DB8:A:B::1", 64, "2001:db8:a:b::/64"),
        ("2001:db8:a:b:c:d:e:f", 48, "2001:db8:a::/48"),
        ("2001:db8:a:b:c:d:e:f", 128, "2001:db8:a:b:c:d:e:f/128"),
        ("::ffff:203.0.113.9", 64, "203.0.113.9"),
        ("fe80::1%eth0", 64, "fe80::/64"),
        ("", 64, ""),
        ("not an address", 64, "not an address"),
    ],
)
def test_an_address_counts_as_itself_or_its_ipv6_network(
    address: str, prefix: int, key: str
) -> None:
    assert limit_key(address, prefix) == key
