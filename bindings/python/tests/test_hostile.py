"""Bad input of every kind raises ValueError or TypeError; it never crashes the interpreter."""

import random

import pytest

from cidrcheck import (Address, AddressRange, AddressSet, AddressSetBuilder, Fleet, FleetLoadError, Prefix,
                       PrefixAllocator, collapse_addresses, summarize_address_range)

ALPHABET = "0123456789abcdefABCDEF.:/-% \x00\t\n\u00e9\ud800\U0001f600xX"


def fuzz_strings(seed, n):
    rng = random.Random(seed)
    for _ in range(n):
        yield "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 48)))


@pytest.mark.parametrize("make", [Address, Prefix, AddressRange, lambda s: AddressSet([s]), lambda s: Prefix(s, strict=False),
                                  lambda s: list(collapse_addresses([s]))])
def test_random_text_raises_value_error_or_parses(make):
    for text in fuzz_strings(11, 3000):
        try:
            make(text)
        except ValueError:  # ParseError, or UnicodeEncodeError for lone surrogates
            pass


def test_mutated_valid_text_raises_value_error_or_parses():
    rng = random.Random(12)
    seeds = ["10.0.0.0/8", "2001:db8::/32", "::ffff:192.0.2.1/128", "10.0.0.0-10.0.0.255", "fe80::1"]
    for _ in range(5000):
        text = list(rng.choice(seeds))
        for _ in range(rng.randrange(1, 4)):
            text[rng.randrange(len(text))] = rng.choice(ALPHABET)
        for make in (Address, Prefix, AddressRange):
            try:
                make("".join(text))
            except ValueError:
                pass


@pytest.mark.parametrize("bad", [None, 1.5, b"10.0.0.0/8", object(), [["10.0.0.0/8"]], {"a": 1}, 2**200, -1, True])
def test_wrong_types_raise_type_or_value_error(bad):
    for call in (lambda: Address(bad), lambda: Prefix(bad), lambda: AddressRange(bad), lambda: AddressSet([bad]),
                 lambda: Prefix("10.0.0.0/8").overlaps(bad), lambda: bad in AddressSet(["10.0.0.0/8"]),
                 lambda: AddressSetBuilder().add([bad]), lambda: PrefixAllocator([bad]),
                 lambda: summarize_address_range(bad, bad)):
        try:
            call()
        except (TypeError, ValueError):
            pass


def test_out_of_range_numbers_raise():
    for call in (lambda: Prefix("10.0.0.0/8").subnets(new_prefix=2**40), lambda: Prefix("10.0.0.0/8")[2**200],
                 lambda: Address("10.0.0.1") + 2**200, lambda: PrefixAllocator(["10.0.0.0/8"]).take(-1),
                 lambda: PrefixAllocator(["10.0.0.0/8"]).count_fitting(200), lambda: AddressSet().only(5),
                 lambda: AddressSet(["10.0.0.0/8"]).take_free(99)):
        with pytest.raises((ValueError, IndexError, OverflowError, TypeError)):
            call()


def test_hostile_fleets_raise_fleet_load_error():
    texts = ["", "\x00", "- [", "clusters: " + "[" * 10_000, "a: &a [*a]", "clusters:\n\t- x",
             "clusters: [{name: a, pods: '10.0.0.0/8\x00'}]", "\ufeff" + "version: 2",
             "clusters:\n" + "".join(f"  - {{name: c{k}, pods: 10.0.0.0/33}}\n" for k in range(500))]
    for text in texts:
        with pytest.raises(FleetLoadError):
            Fleet.from_text(text)
    for text in fuzz_strings(13, 2000):
        try:
            Fleet.from_text("clusters:\n  - name: a\n    pods: " + text + "\n")
        except (FleetLoadError, ValueError):
            pass
