"""Prefix's ipaddress properties (is_private, is_global, hosts(), with_netmask,
with_hostmask, compressed, exploded) and Address's (is_private, is_global) against
the interpreter's own ipaddress, on thousands of random prefixes and addresses and
on the edges of every special-purpose block."""

import ipaddress
import itertools
import random

import pytest

from cidrcheck import Address, Prefix

# The tables after python/cpython#113171 (3.12.4, 3.13; Debian 12's 3.11.2-6+deb12u3),
# which cidrcheck's special_purpose.hpp follows; an interpreter without them answers otherwise.
FIXED = hasattr(ipaddress._IPv4Constants, "_private_networks_exceptions")
needs_fixed_tables = pytest.mark.skipif(not FIXED, reason="this Python's ipaddress predates the gh-113171 tables")

SPECIAL = [
    *ipaddress._IPv4Constants._private_networks,
    *getattr(ipaddress._IPv4Constants, "_private_networks_exceptions", []),
    ipaddress._IPv4Constants._public_network,
    *ipaddress._IPv6Constants._private_networks,
    *getattr(ipaddress._IPv6Constants, "_private_networks_exceptions", []),
]


def edges(block):
    """Prefixes at and around a block's ends: itself, its supernets, its first and
    last subnets, and blocks that start just before it or end just after it."""
    width = block.max_prefixlen
    top = 2**width - 1
    out = [block]
    for diff in (1, 2, 8):
        if block.prefixlen - diff >= 0:
            out.append(block.supernet(prefixlen_diff=diff))
    first, last = int(block.network_address), int(block.broadcast_address)
    for length in {block.prefixlen, block.prefixlen + 1, block.prefixlen + 7, width - 1, width}:
        if block.prefixlen <= length <= width:
            for at in (first, last, first - 1, last + 1):
                if 0 <= at <= top:
                    out.append(ipaddress.ip_network((at, length), strict=False))
    return out


def random_prefixes(rng, n):
    out = []
    for _ in range(n):
        if rng.random() < 0.5:
            width, make = 32, ipaddress.IPv4Network
        else:
            width, make = 128, ipaddress.IPv6Network
        # Near a special block half the time, anywhere otherwise.
        if rng.random() < 0.5:
            block = rng.choice([b for b in SPECIAL if b.max_prefixlen == width])
            at = int(block.network_address) + rng.randrange(-4, block.num_addresses + 4)
            at = min(max(at, 0), 2**width - 1)
        else:
            at = rng.getrandbits(width)
        out.append(make((at, rng.randint(0, width)), strict=False))
    return out


CASES = sorted({n for b in SPECIAL for n in edges(b)} | set(random_prefixes(random.Random(20261126), 8000)),
               key=lambda n: (n.version, n.network_address, n.prefixlen))


def same_text(ours, theirs):
    """Our text equals ipaddress's, except that cidrcheck writes an IPv4-mapped
    IPv6 address with its dotted tail (RFC 5952 section 5) where Python 3.11
    writes hex groups: such texts must then name the same addresses."""
    if ours == theirs:
        return True
    if "." not in ours or ":" not in ours:
        return False
    def parts(text):
        return [str(ipaddress.ip_address(x)) if ":" in x else x for x in text.split("/")]
    return parts(ours) == parts(theirs)


def test_the_cases_reach_every_special_block_edge():
    assert len(CASES) > 5000
    for block in SPECIAL:
        assert block in CASES
        assert any(n.version == block.version and n.supernet_of(block) and n != block for n in CASES)


@needs_fixed_tables
def test_is_private_and_is_global_are_those_of_ipaddress():
    wrong = [(str(n), Prefix(n).is_private, n.is_private, Prefix(n).is_global, n.is_global) for n in CASES
             if (Prefix(n).is_private, Prefix(n).is_global) != (n.is_private, n.is_global)]
    assert wrong == []
    # Both answers occur, and the shared address space is neither.
    assert {(n.is_private, n.is_global) for n in CASES} == {(True, False), (False, True), (False, False)}


def random_addresses(rng, n):
    """Addresses of both versions: near a special block's ends, inside one, IPv4-mapped, or anywhere."""
    out = []
    for _ in range(n):
        kind = rng.random()
        if kind < 0.5:
            block = rng.choice(SPECIAL)
            at = int(block.network_address) + rng.randrange(-4, block.num_addresses + 4)
            out.append(ipaddress.ip_address(min(max(at, 0), 2**block.max_prefixlen - 1)))
        elif kind < 0.7:
            out.append(ipaddress.IPv6Address((0xffff << 32) | rng.getrandbits(32)))  # ::ffff:a.b.c.d
        elif kind < 0.85:
            out.append(ipaddress.IPv4Address(rng.getrandbits(32)))
        else:
            out.append(ipaddress.IPv6Address(rng.getrandbits(128)))
    return out


ADDRESSES = sorted({a for n in CASES for a in (n.network_address, n.broadcast_address)} |
                   {ipaddress.IPv6Address((0xffff << 32) | int(a)) for b in SPECIAL if b.version == 4
                    for a in (b.network_address, b.broadcast_address)} |
                   set(random_addresses(random.Random(20261127), 20000)),
                   key=lambda a: (a.version, a))


def expected_is_global(a):
    """ipaddress's is_global, with an IPv4-mapped address judged by its IPv4 address as the docstring says
    (address.is_global == address.ipv4_mapped.is_global) and CPython's main branch does; Debian 12's
    3.11.2-6+deb12u6 returns `not is_private` there, so ::ffff:100.64.0.1 is global for it."""
    mapped = getattr(a, "ipv4_mapped", None)
    return mapped.is_global if mapped is not None else a.is_global


@needs_fixed_tables
def test_address_is_private_and_is_global_are_those_of_ipaddress():
    assert len(ADDRESSES) > 20000
    wrong = [(str(a), Address(a).is_private, a.is_private, Address(a).is_global, expected_is_global(a))
             for a in ADDRESSES
             if (Address(a).is_private, Address(a).is_global) != (a.is_private, expected_is_global(a))]
    assert wrong == []
    # Every combination occurs in both versions, IPv4-mapped addresses included.
    for version in (4, 6):
        got = {(a.is_private, expected_is_global(a)) for a in ADDRESSES if a.version == version}
        assert got == {(True, False), (False, True), (False, False)}, version
    mapped = [a for a in ADDRESSES if getattr(a, "ipv4_mapped", None) is not None]
    assert {Address(a).is_private for a in mapped} == {True, False}


@needs_fixed_tables
def test_an_address_answers_as_its_host_prefix_outside_the_mapped_block():
    mapped_block = ipaddress.ip_network("::ffff:0:0/96")
    for a in ADDRESSES:
        if a.version == 6 and a in mapped_block:
            continue
        host = Prefix(f"{a}/{a.max_prefixlen}")
        assert (Address(a).is_private, Address(a).is_global) == (host.is_private, host.is_global), str(a)


def test_address_is_private_and_is_global_examples():
    assert [(Address(t).is_private, Address(t).is_global) for t in ("10.1.2.3", "100.64.0.1", "8.8.8.8")] == [
        (True, False), (False, False), (False, True)]
    assert (Address("::ffff:8.8.8.8").is_private, Address("::ffff:8.8.8.8").is_global) == (False, True)
    assert (Address("::ffff:10.0.0.1").is_private, Address("::ffff:10.0.0.1").is_global) == (True, False)
    assert (Address("::ffff:100.64.0.1").is_private, Address("::ffff:100.64.0.1").is_global) == (False, False)
    assert (Address("2001:db8::1").is_private, Address("2001:1::1").is_private) == (True, False)


def test_texts_are_those_of_ipaddress():
    mapped = 0
    for n in CASES:
        p = Prefix(n)
        for name in ("with_prefixlen", "with_netmask", "with_hostmask", "compressed", "exploded"):
            assert same_text(getattr(p, name), getattr(n, name)), (str(n), name, getattr(p, name), getattr(n, name))
        mapped += getattr(p, "compressed") != n.compressed
        assert p.compressed == str(p)
    assert mapped > 0  # the mapped-address exception was exercised


def test_exact_texts():
    p = Prefix("2001:db8::/32")
    assert p.exploded == "2001:0db8:0000:0000:0000:0000:0000:0000/32"
    assert p.with_netmask == "2001:db8::/ffff:ffff::"
    assert p.with_hostmask == "2001:db8::/::ffff:ffff:ffff:ffff:ffff:ffff"
    q = Prefix("10.0.0.0/8")
    assert (q.with_netmask, q.with_hostmask, q.compressed, q.exploded) == (
        "10.0.0.0/255.0.0.0", "10.0.0.0/0.255.255.255", "10.0.0.0/8", "10.0.0.0/8")
    assert Prefix("::ffff:0:0/96").compressed == "::ffff:0.0.0.0/96"  # ipaddress: '::ffff:0:0/96'


def test_hosts_are_those_of_ipaddress():
    for n in CASES:
        ours = Prefix(n).hosts()
        if n.num_addresses <= 256:
            assert list(ours) == [Address(a) for a in n.hosts()], str(n)
        else:
            assert list(itertools.islice(ours, 3)) == [Address(a) for a in itertools.islice(n.hosts(), 3)], str(n)


@pytest.mark.parametrize("text, expected", [
    ("10.0.0.0/30", ["10.0.0.1", "10.0.0.2"]),            # not the network nor the broadcast address
    ("10.0.0.0/31", ["10.0.0.0", "10.0.0.1"]),            # RFC 3021: both
    ("10.0.0.7/32", ["10.0.0.7"]),
    ("2001:db8::/126", ["2001:db8::1", "2001:db8::2", "2001:db8::3"]),  # not the subnet-router anycast
    ("2001:db8::/127", ["2001:db8::", "2001:db8::1"]),
    ("2001:db8::5/128", ["2001:db8::5"]),
])
def test_hosts_at_the_small_ends(text, expected):
    assert [str(a) for a in Prefix(text).hosts()] == expected


def test_hosts_is_lazy():
    # A /8 or ::/0 never materialises: the first host comes at once.
    assert next(Prefix("10.0.0.0/8").hosts()) == Address("10.0.0.1")
    it = Prefix("::/0").hosts()
    assert [next(it), next(it)] == [Address("::1"), Address("::2")]
    assert type(it).__name__ == "_AddressIterator"
