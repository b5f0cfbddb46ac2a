"""Address, Prefix and AddressRange: parsing, the edges of both families, and ipaddress's semantics."""

import ipaddress
import pickle
import random

import pytest

from cidrcheck import Address, AddressRange, ParseError, Prefix


# --- parsing ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, canonical", [
    ("0.0.0.0", "0.0.0.0"),
    ("255.255.255.255", "255.255.255.255"),
    ("::", "::"),
    ("2001:DB8::1", "2001:db8::1"),                             # lowercase
    ("2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"),  # leading zeros dropped
    ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),              # first of equal runs
    ("::ffff:192.0.2.1", "::ffff:192.0.2.1"),                   # IPv4-mapped keeps its dotted tail
    ("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
])
def test_addresses_print_canonical_text(text, canonical):
    assert str(Address(text)) == canonical
    assert Address(str(Address(text))) == Address(text)


@pytest.mark.parametrize("text, offset", [
    ("", 0),
    ("1.2.3", 5),
    ("1.2.3.256", 6),
    ("01.2.3.4", 0),            # leading zero: octal or decimal?
    ("1.2.3.4 ", 7),
    ("1::2::3", 4),
    ("fe80::1%eth0", 7),        # zones mean nothing in a CIDR
    ("::ffff:1.2.3", 12),
])
def test_bad_addresses_raise_parse_error_with_offset(text, offset):
    with pytest.raises(ParseError) as caught:
        Address(text)
    assert caught.value.offset == offset
    assert caught.value.input == text
    assert isinstance(caught.value, ValueError)


def test_parse_error_message_names_input_and_position():
    with pytest.raises(ValueError, match=r'^invalid address "10.0.0.256": octet out of range \(at "256"\)$'):
        Address("10.0.0.256")


def test_host_bits_are_an_error_unless_not_strict():
    with pytest.raises(ParseError, match=r"did you mean 10\.0\.0\.0/24\?"):
        Prefix("10.0.0.1/24")
    assert Prefix("10.0.0.1/24", strict=False) == Prefix("10.0.0.0/24")
    assert Prefix("2001:db8::1/32", strict=False) == Prefix("2001:db8::/32")


def test_a_bare_address_is_no_prefix():
    with pytest.raises(ParseError, match=r"did you mean 10\.0\.0\.1/32\?"):
        Prefix("10.0.0.1")


@pytest.mark.parametrize("text", ["10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/8x", "10.0.0.0/-1", "10.0.0.0/08"])
def test_bad_lengths_raise(text):
    with pytest.raises(ParseError):
        Prefix(text)


def test_hostile_input_gives_a_short_escaped_message():
    text = "1.2.3.\x01\xff" + "A" * 10_000
    with pytest.raises(ParseError) as caught:
        Address(text)
    assert len(str(caught.value)) < 160
    assert "\\x01" in str(caught.value)


def test_wrong_types_raise_type_error():
    for bad in (None, 1.5, b"10.0.0.1", [1, 2]):
        with pytest.raises(TypeError):
            Prefix(bad)
    with pytest.raises(TypeError):
        Address(None)


# --- the edges of both families -------------------------------------------------------------

@pytest.mark.parametrize("text, size", [
    ("0.0.0.0/0", 2**32),
    ("255.255.255.255/32", 1),
    ("10.0.0.0/31", 2),
    ("2001:db8::/127", 2),
    ("2001:db8::/32", 2**96),
    ("::/1", 2**127),
    ("::/0", 2**128),  # exact: one more than 128 bits hold
])
def test_num_addresses_is_exact(text, size):
    assert Prefix(text).num_addresses == size
    assert AddressRange(text).num_addresses == size


def test_len_works_until_sys_maxsize_then_points_at_num_addresses():
    assert len(Prefix("10.0.0.0/8")) == 2**24
    assert len(Prefix("2001:db8::/66")) == 2**62
    with pytest.raises(OverflowError, match="num_addresses"):
        len(Prefix("::/0"))


def test_broadcast_and_masks():
    p = Prefix("10.0.0.0/8")
    assert p.network_address == Address("10.0.0.0")
    assert p.broadcast_address == Address("10.255.255.255")
    assert p.netmask == Address("255.0.0.0")
    assert p.hostmask == Address("0.255.255.255")
    assert Prefix("::/0").broadcast_address == Address("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")
    assert Prefix("2001:db8::/32").netmask == Address("ffff:ffff::")
    assert (p.prefixlen, p.max_prefixlen, p.version) == (8, 32, 4)
    assert p.with_prefixlen == "10.0.0.0/8"


def test_families_never_mix():
    v4all, mapped, v6all = Prefix("0.0.0.0/0"), Prefix("::ffff:0:0/96"), Prefix("::/0")
    assert not v4all.overlaps(mapped)
    assert not v4all.overlaps(v6all)
    assert not mapped.subnet_of(v4all)
    assert Address("::ffff:10.0.0.1") not in v4all
    assert Address("10.0.0.1") not in mapped
    assert Address("10.0.0.1") != Address("::ffff:10.0.0.1")
    assert v4all < mapped  # every IPv4 prefix sorts before every IPv6 one
    assert Address("255.255.255.255") < Address("::")


# --- relations, subnets and supernets like ipaddress ------------------------------------

def test_relations_follow_ipaddress():
    p8, p16, other = Prefix("10.0.0.0/8"), Prefix("10.1.0.0/16"), Prefix("11.0.0.0/8")
    assert p8.overlaps(p16) and p16.overlaps(p8) and not p8.overlaps(other)
    assert p16.subnet_of(p8) and not p8.subnet_of(p16)
    assert p8.supernet_of(p16)
    assert p8.subnet_of(p8) and p8.supernet_of(p8)  # equal prefixes are both
    assert p8.supernet_of("10.1.0.0/16")
    assert p8.overlaps(ipaddress.ip_network("10.2.0.0/16"))
    assert p8.overlaps(AddressRange("9.255.255.255-10.0.0.0"))


def test_membership_of_addresses_prefixes_and_ranges():
    p = Prefix("10.0.0.0/8")
    assert Address("10.255.255.255") in p
    assert "10.1.2.3" in p
    assert ipaddress.ip_address("10.0.0.1") in p
    assert "11.0.0.0" not in p
    assert Prefix("10.1.0.0/16") in p  # unlike ipaddress, a block within p is in p
    assert "10.1.0.0-10.1.0.9" in p
    assert Prefix("0.0.0.0/0") not in p
    with pytest.raises(TypeError):
        3.5 in p


def test_subnets_are_lazy_and_follow_ipaddress():
    assert list(Prefix("10.0.0.0/30").subnets()) == [Prefix("10.0.0.0/31"), Prefix("10.0.0.2/31")]
    assert [str(p) for p in Prefix("10.0.0.0/30").subnets(new_prefix=32)] == [
        "10.0.0.0/32", "10.0.0.1/32", "10.0.0.2/32", "10.0.0.3/32"]
    assert list(Prefix("10.0.0.0/8").subnets(prefixlen_diff=0)) == [Prefix("10.0.0.0/8")]
    assert list(Prefix("10.0.0.1/32").subnets()) == [Prefix("10.0.0.1/32")]  # as ipaddress: a host yields itself
    everything = Prefix("::/0").subnets(new_prefix=128)  # 2**128 of them, lazily
    assert next(everything) == Prefix("::/128")
    assert next(everything) == Prefix("::1/128")
    last = Prefix("255.255.255.254/31").subnets()
    assert list(last) == [Prefix("255.255.255.254/32"), Prefix("255.255.255.255/32")]
    with pytest.raises(ValueError, match="cannot set prefixlen_diff and new_prefix"):
        Prefix("10.0.0.0/8").subnets(2, 16)
    with pytest.raises(ValueError, match="new prefix must be longer"):
        Prefix("10.0.0.0/8").subnets(new_prefix=7)
    with pytest.raises(ValueError, match="invalid for netblock"):
        Prefix("10.0.0.0/8").subnets(new_prefix=33)


def test_supernet_follows_ipaddress():
    assert Prefix("10.1.0.0/16").supernet() == Prefix("10.0.0.0/15")
    assert Prefix("10.1.0.0/16").supernet(new_prefix=8) == Prefix("10.0.0.0/8")
    assert Prefix("10.1.0.0/16").supernet(prefixlen_diff=16) == Prefix("0.0.0.0/0")
    assert Prefix("0.0.0.0/0").supernet() == Prefix("0.0.0.0/0")
    with pytest.raises(ValueError):
        Prefix("10.0.0.0/8").supernet(new_prefix=9)
    with pytest.raises(ValueError):
        Prefix("10.0.0.0/8").supernet(prefixlen_diff=9)


def test_address_exclude_yields_what_ipaddress_yields():
    mine = list(Prefix("192.0.2.0/28").address_exclude("192.0.2.1/32"))
    theirs = ipaddress.ip_network("192.0.2.0/28").address_exclude(ipaddress.ip_network("192.0.2.1/32"))
    assert [str(p) for p in mine] == [str(n) for n in theirs]
    assert list(Prefix("10.0.0.0/8").address_exclude("10.0.0.0/8")) == []
    with pytest.raises(ValueError, match="not contained in"):
        Prefix("10.0.0.0/8").address_exclude("11.0.0.0/8")
    with pytest.raises(TypeError, match="not of the same version"):
        Prefix("10.0.0.0/8").address_exclude("::/0")


def test_random_prefixes_agree_with_ipaddress():
    rng = random.Random(7)
    for _ in range(500):
        v6 = rng.random() < 0.5
        width = 128 if v6 else 32
        length = rng.randrange(width + 1)
        net = ipaddress.ip_network((rng.getrandbits(width) if v6 else rng.getrandbits(32), length), strict=False)
        if not v6:
            net = ipaddress.IPv4Network(net)
        mine = Prefix(str(net))
        assert str(mine) == str(net)
        assert mine.num_addresses == net.num_addresses
        assert str(mine.broadcast_address) == str(net.broadcast_address)
        assert str(mine.netmask) == str(net.netmask)
        assert mine.to_ipaddress() == net
        if length > 0:
            assert str(mine.supernet()) == str(net.supernet())
        if length < width:
            assert [str(p) for p in mine.subnets()] == [str(n) for n in net.subnets()]
            inner = next(net.subnets(new_prefix=min(width, length + rng.randrange(1, 5))))
            assert [str(p) for p in mine.address_exclude(str(inner))] == [str(n) for n in net.address_exclude(inner)]


# --- the value protocol: repr, hash, order, iteration, indexing, pickling ---------------

def test_reprs_round_trip():
    for value in (Address("10.0.0.1"), Prefix("10.0.0.0/8"), AddressRange("10.0.0.0-10.0.0.255")):
        assert eval(repr(value)) == value  # noqa: S307 (our own reprs)
    assert repr(Prefix("2001:db8::/32")) == "Prefix('2001:db8::/32')"


def test_hash_agrees_with_equality():
    assert len({Prefix("10.0.0.0/8"), Prefix("10.0.0.0/8"), Prefix("10.0.0.0/9")}) == 2
    assert len({Address("10.0.0.1"), Address("::a00:1"), Address("10.0.0.1")}) == 2
    assert hash(AddressRange("10.0.0.0/8")) == hash(AddressRange("10.0.0.0-10.255.255.255"))
    # A value never equals its text or an ipaddress object: their hashes could not agree.
    assert Prefix("10.0.0.0/8") != "10.0.0.0/8"
    assert Prefix("10.0.0.0/8") != ipaddress.ip_network("10.0.0.0/8")


def test_order_is_version_then_address_then_length():
    values = [Prefix(t) for t in ("::/0", "10.0.0.0/16", "10.0.0.0/8", "9.0.0.0/8", "10.1.0.0/16")]
    assert [str(p) for p in sorted(values)] == ["9.0.0.0/8", "10.0.0.0/8", "10.0.0.0/16", "10.1.0.0/16", "::/0"]
    with pytest.raises(TypeError):
        Prefix("10.0.0.0/8") < Address("10.0.0.0")


def test_iteration_and_indexing():
    assert [str(a) for a in Prefix("10.0.0.0/30")] == ["10.0.0.0", "10.0.0.1", "10.0.0.2", "10.0.0.3"]
    assert [str(a) for a in Prefix("255.255.255.254/31")] == ["255.255.255.254", "255.255.255.255"]
    assert Prefix("10.0.0.0/8")[0] == Address("10.0.0.0")
    assert Prefix("10.0.0.0/8")[-1] == Address("10.255.255.255")
    assert Prefix("::/0")[-1] == Address("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")
    with pytest.raises(IndexError):
        Prefix("10.0.0.0/30")[4]


def test_address_arithmetic_and_conversions():
    a = Address("10.0.0.255")
    assert a + 1 == Address("10.0.1.0") and 1 + a == Address("10.0.1.0")
    assert a - 256 == Address("9.255.255.255")
    with pytest.raises(ValueError):
        Address("255.255.255.255") + 1
    with pytest.raises(ValueError):
        Address("::") - 1
    assert int(Address("10.0.0.1")) == 167772161
    assert Address(167772161) == Address("10.0.0.1")
    assert Address(2**32) == Address("::1:0:0")
    with pytest.raises(ValueError):
        Address(2**128)
    assert Address("2001:db8::1").packed == ipaddress.ip_address("2001:db8::1").packed
    assert Address(ipaddress.ip_address("10.0.0.1")) == Address("10.0.0.1")
    assert Address("10.0.0.1").to_ipaddress() == ipaddress.ip_address("10.0.0.1")
    assert Prefix(ipaddress.ip_network("2001:db8::/32")) == Prefix("2001:db8::/32")


def test_ranges():
    r = AddressRange("10.0.0.0-10.0.0.9")
    assert (r.first, r.last, len(r), r.version) == (Address("10.0.0.0"), Address("10.0.0.9"), 10, 4)
    assert AddressRange("10.0.0.0", "10.0.0.9") == r
    assert r.to_prefixes() == [Prefix("10.0.0.0/29"), Prefix("10.0.0.8/31")]
    assert r.to_prefix() is None
    assert AddressRange(Prefix("10.0.0.0/8")).to_prefix() == Prefix("10.0.0.0/8")
    assert "10.0.0.9" in r and "10.0.0.10" not in r
    assert r.overlaps("10.0.0.8/29")
    assert AddressRange("::-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff").num_addresses == 2**128
    with pytest.raises(ParseError, match="above last"):
        AddressRange("10.0.0.9-10.0.0.0")
    with pytest.raises(ParseError, match="different IP versions"):
        AddressRange("10.0.0.0", "::1")


def test_values_pickle():
    for value in (Address("::1"), Prefix("10.0.0.0/8"), AddressRange("10.0.0.0-10.0.0.9")):
        assert pickle.loads(pickle.dumps(value)) == value
