#!/usr/bin/python3
"""Peer implementations of `cidrcheck set` tasks, for bench/compare.py.

Each task reads FILE (one CIDR a line; blank lines ignored) and prints exactly
one line in cidrcheck's `--count` format, so the outputs compare as text:

  overlaps-naive   ipaddress, every pair of lines compared: O(n^2), small files only
  overlaps-sweep   ipaddress, sort by (network, length) and keep a stack of the
                   blocks that contain the current one
  overlaps-radix   py-radix: search_covering() for every distinct prefix
  merge-ipaddress  ipaddress.collapse_addresses, one call per family
  merge-netaddr    netaddr.cidr_merge
  merge-aggregate  /usr/bin/aggregate -q -m 32 -o 32, output lines counted. IPv4
                   only, refuses /0 lines, and O(n^2): small files only
  alloc-netaddr    netaddr IPSet: POOL minus the input, then K best-fit /L carves
  alloc-netaddr-rescan
                   the same choice made literally, as a script would: rescan
                   free.iter_cidrs() for every block and IPSet.remove() it.
                   O(K * n log n): small files only

'pairs N' counts overlapping pairs of lines (equal lines are a pair), 'merged N'
the size of the minimal prefix cover, 'alloc K last P' the number of /L blocks
allocated and the last one (None if there is none). Best fit is netipx's
RemoveFreePrefix choice: among the maximal free blocks, the longest length <= L,
lowest address among equals, the /L carved from its start. --list prints every
allocated block instead, like `cidrcheck set alloc -n K`.

usage: peers.py TASK FILE [--within POOL --length L --count K [--list]]
"""
import argparse
import collections
import heapq
import ipaddress
import subprocess
import sys

AGGREGATE = "/usr/bin/aggregate"


def read_lines(path):
    with open(path, encoding="ascii") as f:
        return [s for s in (line.strip() for line in f) if s]


def networks(lines):
    return [ipaddress.ip_network(s) for s in lines]


def overlaps_naive(lines):
    nets = networks(lines)
    pairs = 0
    for i, a in enumerate(nets):
        for b in nets[i + 1:]:
            # overlaps() across families is False, but say so rather than rely on it.
            if a.version == b.version and a.overlaps(b):
                pairs += 1
    return f"pairs {pairs}"


def overlaps_sweep(lines):
    # Prefixes nest or are disjoint: after sorting by (network, length) the
    # blocks still open at a network all contain it, and they form the stack.
    keyed = sorted(
        (n.version, int(n.network_address), n.prefixlen, int(n.broadcast_address)) for n in networks(lines))
    pairs, stack = 0, []
    for version, first, _, last in keyed:
        while stack and (stack[-1][0] != version or stack[-1][1] < first):
            stack.pop()
        pairs += len(stack)
        stack.append((version, last))
    return f"pairs {pairs}"


def overlaps_radix(lines):
    import radix

    tree = radix.Radix()
    for s in lines:
        node = tree.search_exact(s) or tree.add(s)
        node.data["n"] = node.data.get("n", 0) + 1
    pairs = 0
    for node in tree.nodes():
        m = node.data["n"]
        covering = sum(c.data["n"] for c in tree.search_covering(node.prefix) if c.prefix != node.prefix)
        pairs += m * (m - 1) // 2 + m * covering
    return f"pairs {pairs}"


def merge_ipaddress(lines):
    by_version = collections.defaultdict(list)
    for n in networks(lines):
        by_version[n.version].append(n)
    return f"merged {sum(len(list(ipaddress.collapse_addresses(v))) for v in by_version.values())}"


def merge_netaddr(lines):
    import netaddr

    return f"merged {len(netaddr.cidr_merge(lines))}"


def merge_aggregate(path):
    # -m 32 -o 32: keep and optimise every length (the defaults, said explicitly);
    # -q: no warnings, which it prints for every line it skips.
    with open(path, "rb") as f:
        out = subprocess.run([AGGREGATE, "-q", "-m", "32", "-o", "32"], stdin=f, capture_output=True, check=True).stdout
    return f"merged {len(out.splitlines())}"


def best_fit_netaddr(lines, within, length):
    """Returns a function that carves the next best-fit /length from within minus lines (None when none fits)."""
    import netaddr

    free = netaddr.IPSet(within) - netaddr.IPSet(lines)
    pool = netaddr.IPNetwork(within[0])
    version, width = pool.version, 32 if pool.version == 4 else 128
    # The maximal free blocks by length; iter_cidrs() is sorted, so each list
    # starts out as a valid heap of network addresses.
    by_length = [[] for _ in range(width + 1)]
    for cidr in free.iter_cidrs():
        by_length[cidr.prefixlen].append(cidr.value)

    def take():
        for l in range(length, -1, -1):
            if by_length[l]:
                start = heapq.heappop(by_length[l])
                # What is left of the block: one buddy of each length l+1 .. length.
                for k in range(length, l, -1):
                    heapq.heappush(by_length[k], start | 1 << (width - k))
                return netaddr.IPNetwork((start, length), version=version)
        return None

    return take


def rescan_netaddr(lines, within, length):
    """Like best_fit_netaddr, but rescanning the IPSet for every block."""
    import netaddr

    free = netaddr.IPSet(within) - netaddr.IPSet(lines)

    def take():
        best = None
        for cidr in free.iter_cidrs():
            if cidr.prefixlen <= length and (best is None or cidr.prefixlen > best.prefixlen):
                best = cidr
        if best is None:
            return None
        block = netaddr.IPNetwork((best.first, length), version=best.version)
        free.remove(block)
        return block

    return take


def alloc(make_take, lines, args):
    take = make_take(lines, args.within, args.length)
    made, last = 0, None
    for _ in range(args.count):
        block = take()
        if block is None:
            break
        made, last = made + 1, block
        if args.list:
            print(block)
    return None if args.list else f"alloc {made} last {last}"


TASKS = {
    "overlaps-naive": lambda args: overlaps_naive(read_lines(args.file)),
    "overlaps-sweep": lambda args: overlaps_sweep(read_lines(args.file)),
    "overlaps-radix": lambda args: overlaps_radix(read_lines(args.file)),
    "merge-ipaddress": lambda args: merge_ipaddress(read_lines(args.file)),
    "merge-netaddr": lambda args: merge_netaddr(read_lines(args.file)),
    "merge-aggregate": lambda args: merge_aggregate(args.file),
    "alloc-netaddr": lambda args: alloc(best_fit_netaddr, read_lines(args.file), args),
    "alloc-netaddr-rescan": lambda args: alloc(rescan_netaddr, read_lines(args.file), args),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("task", choices=TASKS)
    ap.add_argument("file")
    ap.add_argument("--within", action="append", help="alloc: the pool (repeat for several)")
    ap.add_argument("--length", type=int, help="alloc: the prefix length of each block")
    ap.add_argument("--count", type=int, default=1, help="alloc: how many blocks (default 1)")
    ap.add_argument("--list", action="store_true", help="alloc: print every block, not the summary line")
    args = ap.parse_args()

    if args.task.startswith("alloc-") and (not args.within or args.length is None):
        ap.error(f"{args.task} needs --within and --length")
    result = TASKS[args.task](args)
    if result is not None:
        print(result)


if __name__ == "__main__":
    sys.exit(main())
