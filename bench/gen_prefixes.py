#!/usr/bin/python3
"""Writes a deterministic prefix workload: N CIDRs, one a line, shuffled.

About 99% of the lines are a mostly planned fleet: disjoint blocks laid out
in address order with random aligned gaps between them, lengths /16../28 for
IPv4 (/40../64 for IPv6, inside 2000::/3). Shorter blocks are rarer (weight
2^(L/2)), so a million IPv4 blocks fit in the space with room for gaps. The
other ~1% are injected overlaps of random fleet blocks: a duplicate, a
sub-prefix (1 to 4 bits longer) or a super-prefix (1 to 4 bits shorter).

The same N, SEED and family give a byte-identical file on any Python 3.
Pure standard library.

usage: gen_prefixes.py N SEED OUT [--v6]
"""
import argparse
import ipaddress
import random
import sys

FAMILIES = {
    # width, shortest and longest fleet length, first address, size of the space
    "v4": (32, 16, 28, 0, 1 << 32),
    "v6": (128, 40, 64, 0x2 << 124, 1 << 125),
}


def fleet(rng, count, width, lo_len, hi_len, base, space):
    """Returns count disjoint (network, length) blocks in address order.

    Each gap is drawn so that the blocks still to place always fit in the space
    left, even if every one of them loses a whole block size to alignment.
    """
    lengths = list(range(lo_len, hi_len + 1))
    weights = [2.0 ** (length / 2) for length in lengths]
    chosen = rng.choices(lengths, weights, k=count)
    still_needed = sum(2 << (width - length) for length in chosen)
    if still_needed > space:
        sys.exit(f"gen_prefixes.py: {count:,} IPv{4 if width == 32 else 6} blocks do not fit in the space; "
                 "use fewer lines (IPv4 holds about 2,000,000)")
    blocks, cur = [], 0
    for k, length in enumerate(chosen):
        size = 1 << (width - length)
        still_needed -= 2 * size
        spare = space - cur - still_needed - 2 * size
        cur += rng.randrange(spare // (count - k) + 1)
        cur = -(-cur // size) * size  # align up
        blocks.append((base + cur, length))
        cur += size
    return blocks


def overlap_of(rng, block, width):
    """Returns a duplicate, a sub-prefix or a super-prefix of block."""
    network, length = block
    kind = rng.randrange(3)
    if kind == 1 and length < width:
        sub = min(width, length + rng.randint(1, 4))
        return network + (rng.randrange(1 << (sub - length)) << (width - sub)), sub
    if kind == 2:
        sup = max(1, length - rng.randint(1, 4))
        return network >> (width - sup) << (width - sup), sup
    return block


def main():
    ap = argparse.ArgumentParser(description="Write N deterministic CIDRs, one a line.")
    ap.add_argument("n", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("out")
    ap.add_argument("--v6", action="store_true", help="IPv6 prefixes instead of IPv4")
    args = ap.parse_args()

    width, lo_len, hi_len, base, space = FAMILIES["v6" if args.v6 else "v4"]
    rng = random.Random(args.seed)
    n_overlaps = args.n // 100
    blocks = fleet(rng, args.n - n_overlaps, width, lo_len, hi_len, base, space)
    items = blocks + [overlap_of(rng, rng.choice(blocks), width) for _ in range(n_overlaps)]
    rng.shuffle(items)

    if args.v6:
        text = (f"{ipaddress.IPv6Address(a)}/{length}\n" for a, length in items)
    else:
        text = (f"{a >> 24}.{a >> 16 & 255}.{a >> 8 & 255}.{a & 255}/{length}\n" for a, length in items)
    with open(args.out, "w", encoding="ascii", newline="\n") as f:
        f.writelines(text)


if __name__ == "__main__":
    main()
