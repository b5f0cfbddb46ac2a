"""AddressSet, its builder, PrefixAllocator, collapse_addresses and summarize_address_range."""

import ipaddress
import pickle
import random

import pytest

from cidrcheck import (Address, AddressRange, AddressSet, AddressSetBuilder, ParseError, Prefix, PrefixAllocator,
                       collapse_addresses, summarize_address_range)


def addresses_of(s):
    return {int(a) for a in s}


def random_values(rng, n):
    """Random prefixes, ranges and addresses inside 10.0.0.0/24, as text."""
    out = []
    for _ in range(n):
        kind = rng.randrange(3)
        if kind == 0:
            length = rng.randrange(24, 33)
            out.append(str(ipaddress.ip_network((0x0A000000 + rng.randrange(256), length), strict=False)))
        elif kind == 1:
            a, b = sorted(rng.randrange(256) for _ in range(2))
            out.append(f"10.0.0.{a}-10.0.0.{b}")
        else:
            out.append(f"10.0.0.{rng.randrange(256)}")
    return out


def oracle(values):
    """The addresses a list of values stands for, as ints: the brute-force reference."""
    out = set()
    for v in values:
        if "/" in v:
            n = ipaddress.ip_network(v)
            out |= set(range(int(n.network_address), int(n.broadcast_address) + 1))
        elif "-" in v:
            a, b = v.split("-")
            out |= set(range(int(ipaddress.ip_address(a)), int(ipaddress.ip_address(b)) + 1))
        else:
            out.add(int(ipaddress.ip_address(v)))
    return out


def test_set_algebra_matches_a_brute_force_oracle():
    rng = random.Random(42)
    for _ in range(300):
        xs, ys = random_values(rng, rng.randrange(6)), random_values(rng, rng.randrange(6))
        a, b = AddressSet(xs), AddressSet(ys)
        ox, oy = oracle(xs), oracle(ys)
        assert addresses_of(a) == ox
        assert addresses_of(a | b) == ox | oy
        assert addresses_of(a & b) == ox & oy
        assert addresses_of(a - b) == ox - oy
        assert addresses_of(a ^ b) == ox ^ oy
        assert len(a) == len(ox) == a.num_addresses
        assert (a <= b) == (ox <= oy) and (a < b) == (ox < oy)
        assert a.isdisjoint(b) == (not ox & oy) == (not a.overlaps(b))


def test_set_laws():
    rng = random.Random(1)
    for _ in range(100):
        a, b, c = (AddressSet(random_values(rng, 4)) for _ in range(3))
        assert a | b == b | a and a & b == b & a
        assert (a | b) | c == a | (b | c)
        assert a - a == AddressSet() and not (a - a)
        assert a ^ b == (a - b) | (b - a)
        assert AddressSet(a.prefixes()) == a and AddressSet(a.ranges()) == a
        assert hash(AddressSet(a.prefixes())) == hash(a)


def test_equal_sets_built_differently_are_equal():
    a = AddressSet(["10.0.0.0/25", "10.0.0.128/25"])
    b = AddressSet(["10.0.0.0-10.0.0.255"])
    assert a == b and hash(a) == hash(b)
    assert a.prefixes() == [Prefix("10.0.0.0/24")]
    assert a.ranges() == [AddressRange("10.0.0.0/24")]


def test_sets_take_every_kind_of_value():
    s = AddressSet(["10.0.0.0/24", Prefix("10.0.1.0/24"), AddressRange("10.0.2.0-10.0.2.9"), Address("10.0.3.1"),
                    "10.0.4.1", ipaddress.ip_network("10.0.5.0/24"), ipaddress.ip_address("10.0.6.1"),
                    AddressSet(["2001:db8::/32"])])
    assert s.num_addresses == 256 * 3 + 10 + 1 + 1 + 1 + 2**96
    assert AddressSet(x for x in ["10.0.0.0/8"]) == AddressSet(["10.0.0.0/8"])  # any iterable
    assert AddressSet("10.0.0.0/8") == AddressSet(["10.0.0.0/8"])  # one value
    assert AddressSet(["10.0.0.1/8"], strict=False) == AddressSet(["10.0.0.0/8"])


def test_bad_values_in_a_list_raise_and_name_the_value():
    with pytest.raises(ParseError, match='"10.0.0.1/8"'):
        AddressSet(["10.0.0.0/8", "10.0.0.1/8"])
    with pytest.raises(TypeError, match="not int"):
        AddressSet(["10.0.0.0/8", 7])
    with pytest.raises(TypeError):
        AddressSet(7)


def test_families_stay_apart_in_sets():
    s = AddressSet(["255.255.255.255/32", "::/128"])
    assert s.ranges() == [AddressRange("255.255.255.255/32"), AddressRange("::/128")]  # not one range
    assert s.only(4) == AddressSet(["255.255.255.255/32"])
    assert "::ffff:10.0.0.1" not in AddressSet(["10.0.0.0/8"])


def test_sizes_are_exact_for_all_of_ipv6():
    everything = AddressSet(["::/0", "0.0.0.0/0"])
    assert everything.num_addresses == 2**128 + 2**32
    with pytest.raises(OverflowError):
        len(everything)
    assert AddressSet(["::/1", "8000::/1"]).num_addresses == 2**128


def test_membership_and_subsets():
    s = AddressSet(["10.0.0.0/8", "192.168.0.0/16"])
    assert "10.1.2.3" in s and Address("192.168.1.1") in s
    assert "10.0.0.0/9" in s and "10.255.0.0-10.255.0.9" in s
    assert "10.0.0.0/7" not in s  # only partly in it
    assert AddressSet(["10.0.0.0/9"]) in s
    assert s.issuperset(["10.0.0.0/9"]) and AddressSet(["10.0.0.0/9"]).issubset(s)
    assert s.union(["11.0.0.0/8"], ["12.0.0.0/8"]).num_addresses == 3 * 2**24 + 2**16
    assert s.intersection(["10.0.0.0/9"]) == AddressSet(["10.0.0.0/9"])
    assert s.difference(["10.0.0.0/9"], ["192.168.0.0/16"]) == AddressSet(["10.128.0.0/9"])
    assert s.symmetric_difference(["10.0.0.0/7"]) == AddressSet(["11.0.0.0/8", "192.168.0.0/16"])
    assert not AddressSet() and bool(s)


def test_operators_need_sets_and_return_not_implemented_otherwise():
    s = AddressSet(["10.0.0.0/8"])
    with pytest.raises(TypeError):
        s | ["11.0.0.0/8"]
    assert s != "10.0.0.0/8"


def test_iteration_is_lazy_and_in_order():
    s = AddressSet(["10.0.0.3", "10.0.0.1", "::1"])
    assert [str(a) for a in s] == ["10.0.0.1", "10.0.0.3", "::1"]
    it = iter(AddressSet(["::/0"]))
    assert next(it) == Address("::")


def test_repr_shows_the_first_prefixes():
    assert repr(AddressSet(["10.0.0.0/8"])) == "AddressSet(['10.0.0.0/8'])"
    many = AddressSet(f"10.0.{k}.0/25" for k in range(20))
    assert repr(many).endswith(", ... 12 more])")


def test_builder_adds_and_removes_in_any_order():
    b = AddressSetBuilder()
    b.add("10.0.0.0/8")
    b.remove("10.128.0.0/9")
    b.add(["192.168.0.0/16", "10.200.0.0/16"])
    b.remove(AddressSet(["192.168.1.0/24"]))
    assert b.build() == AddressSet(["10.0.0.0/9", "10.200.0.0/16", "192.168.0.0/24", "192.168.2.0/23",
                                    "192.168.4.0/22", "192.168.8.0/21", "192.168.16.0/20", "192.168.32.0/19",
                                    "192.168.64.0/18", "192.168.128.0/17"])
    b.add("10.1.0.1/16", strict=False)
    assert "10.1.255.255" in b.build()


def test_sets_pickle():
    s = AddressSet(["10.0.0.0/8", "2001:db8::/32", "192.168.0.1"])
    assert pickle.loads(pickle.dumps(s)) == s


# --- free space -----------------------------------------------------------------------------

def best_fit(free_prefixes, length):
    """The reference best fit: the longest free block no longer than length, lowest first, carved from its start."""
    candidates = [p for p in free_prefixes if p.prefixlen <= length]
    if not candidates:
        return None
    block = min(candidates, key=lambda p: (-p.prefixlen, int(p.network_address)))
    return ipaddress.ip_network((int(block.network_address), length))


def test_allocator_takes_the_best_fit_like_netipx():
    used = AddressSet(["10.0.0.0/9", "10.200.0.0/16"])
    allocator = PrefixAllocator(AddressSet(["10.0.0.0/8"]) - used)
    assert allocator.take(16) == Prefix("10.201.0.0/16")  # the smallest block that holds a /16
    rng = random.Random(3)
    for _ in range(50):
        pool = AddressSet(["10.0.0.0/16"]) - AddressSet(random_values(rng, 8)).union(
            [f"10.0.{rng.randrange(256)}.0/24" for _ in range(40)])
        allocator = PrefixAllocator(pool)
        free = pool
        for _ in range(10):
            length = rng.randrange(20, 31)
            want = best_fit([ipaddress.ip_network(str(p)) for p in free.prefixes()], length)
            got = allocator.take(length)
            assert (None if got is None else str(got)) == (None if want is None else str(want))
            if got is not None:
                free = free - AddressSet([got])
            assert allocator.free_space() == free


def test_allocator_counts_and_reserves():
    allocator = PrefixAllocator(["10.0.0.0/8"])
    assert allocator.count_fitting(16) == 256
    allocator.reserve("10.0.0.0/9")
    assert allocator.count_fitting(16) == 128
    assert allocator.largest() == Prefix("10.128.0.0/9")
    assert allocator.take(7) is None
    with pytest.raises(ValueError, match="prefix length 33"):
        allocator.take(33)
    assert PrefixAllocator(["::/0"]).count_fitting(128) == 2**128


def test_allocator_needs_a_version_when_the_space_has_both():
    allocator = PrefixAllocator(["10.0.0.0/8", "fd00::/8"])
    with pytest.raises(ValueError, match="version=4 or version=6"):
        allocator.take(16)
    assert allocator.take(16, version=6) == Prefix("fd00::/16")
    assert allocator.take(16, version=4) == Prefix("10.0.0.0/16")
    assert PrefixAllocator([]).take(16) is None


def test_take_free_is_one_best_fit_take():
    free = AddressSet(["10.0.0.0/8"]) - AddressSet(["10.0.0.0/9", "10.200.0.0/16"])
    block, rest = free.take_free(16)
    assert block == Prefix("10.201.0.0/16")
    assert rest == free - AddressSet([block])
    assert AddressSet(["10.0.0.0/24"]).take_free(16) == (None, AddressSet(["10.0.0.0/24"]))


# --- ipaddress's free functions ---------------------------------------------------------------

def test_collapse_addresses_matches_ipaddress():
    rng = random.Random(5)
    for _ in range(100):
        nets = [ipaddress.ip_network((0x0A000000 + rng.randrange(1 << 12) * 16, rng.randrange(20, 29)), strict=False)
                for _ in range(rng.randrange(1, 30))]
        assert [str(p) for p in collapse_addresses(str(n) for n in nets)] == \
            [str(n) for n in ipaddress.collapse_addresses(nets)]
    assert list(collapse_addresses(["10.0.0.0/24", "10.0.1.0/24", "::/1", "8000::/1"])) == \
        [Prefix("10.0.0.0/23"), Prefix("::/0")]


def test_summarize_address_range_matches_ipaddress():
    for first, last in [("10.0.0.0", "10.0.0.10"), ("0.0.0.0", "255.255.255.255"), ("::", "::ffff"),
                        ("10.0.0.1", "10.0.0.1"), ("192.0.2.7", "192.0.3.200")]:
        mine = [str(p) for p in summarize_address_range(first, last)]
        theirs = [str(n) for n in ipaddress.summarize_address_range(ipaddress.ip_address(first), ipaddress.ip_address(last))]
        assert mine == theirs
    with pytest.raises(TypeError):
        summarize_address_range("10.0.0.0", "::1")
    with pytest.raises(ValueError):
        summarize_address_range("10.0.0.9", "10.0.0.0")
