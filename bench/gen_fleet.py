#!/usr/bin/python3
"""Deterministic fleet files for benchmarking `cidrcheck check` and `plan`.

usage: gen_fleet.py OUT [--clusters N] [--networks N] [--connections N]
                        [--mesh N] [--conflicts FRACTION] [--service-groups G] [--clique K]
                        [--seed S]

The fleet looks like a large, mostly planned estate:
- clusters with unique network, pod and service ranges carved from 10.0.0.0/8
  in order (pods get 1/2 of each cluster's block, the network 1/8, services
  1/16; the block shrinks as the fleet grows so that every range stays in
  10.0.0.0/8), a distribution, a Kubernetes version and a node count that fits;
- networks (offices, VPNs, peered VPCs) with a unique /24 from 172.16.0.0/12;
- one mesh connection of --mesh clusters carrying pods and services, plus
  --connections pair connections between a random cluster and a random network;
- a --conflicts fraction of clusters whose pod range is replaced by the pod range
  of another cluster (half of them inside the mesh, so they are real overlaps);
- with --service-groups G, another --conflicts fraction of clusters share G service
  ranges (clusters that kept one default): large cliques of conflicts in the
  mesh, joined to the pod conflicts, which is the hard case for `plan`;
- with --clique K, clusters 0 to K-1 all keep cluster 0's service range: with
  --mesh equal to --clusters and --conflicts 0, K(K-1)/2 conflicting pairs and
  nothing else (the memory case of `plan`: K=1415 is about a million pairs).
Same arguments, same file.
"""
import argparse
import ipaddress
import random


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--clusters", type=int, default=10_000)
    p.add_argument("--networks", type=int, default=1_000)
    p.add_argument("--connections", type=int, default=20_000)
    p.add_argument("--mesh", type=int, default=5_000)
    p.add_argument("--conflicts", type=float, default=0.01)
    p.add_argument("--service-groups", type=int, default=0)
    p.add_argument("--clique", type=int, default=0)
    p.add_argument("--seed", type=int, default=42)
    a = p.parse_args()
    rng = random.Random(a.seed)

    base = int(ipaddress.IPv4Address("10.0.0.0"))
    def carve(offset, bits):
        return f"{ipaddress.IPv4Address(base + offset)}/{32 - bits}"

    # The largest power-of-two block per cluster that keeps the fleet in 10.0.0.0/8.
    block_bits = min(13, 24 - max(1, (a.clusters - 1).bit_length()))
    block = 1 << block_bits
    pods = [carve(i * block, block_bits - 1) for i in range(a.clusters)]
    networks = [carve(i * block + block // 2, block_bits - 3) for i in range(a.clusters)]
    services = [carve(i * block + block // 2 + block // 8, block_bits - 4) for i in range(a.clusters)]
    node_mask = 32 - max(2, block_bits - 1 - 5)  # 32 node blocks per pod range
    for i in rng.sample(range(a.clusters), int(a.clusters * a.conflicts)):
        pods[i] = pods[rng.randrange(a.clusters)]
    if a.service_groups:
        for i in rng.sample(range(a.clusters), int(a.clusters * a.conflicts)):
            services[i] = services[rng.randrange(a.service_groups)]

    for i in range(min(a.clique, a.clusters)):
        services[i] = services[0]

    distributions = ["kubeadm", "eks", "gke", "aks", "k3s", "openshift", "kops"]
    lines = ["version: 1", "networks:"]
    for i in range(a.networks):
        net = ipaddress.IPv4Address(int(ipaddress.IPv4Address("172.16.0.0")) + i * 256)
        lines += [f"  - name: net-{i}", f"    type: {rng.choice(['office', 'vpn', 'peer'])}", f"    cidrs: [{net}/24]"]
    lines.append("clusters:")
    for i in range(a.clusters):
        lines += [
            f"  - name: cluster-{i}",
            f"    distribution: {rng.choice(distributions)}",
            f'    kubernetes: "1.{rng.randint(27, 33)}"',
            f"    network: [{networks[i]}]",
            f"    pods: [{pods[i]}]",
            f"    services: [{services[i]}]",
            f"    node_cidr_mask: {node_mask}",
            f"    nodes: {rng.randint(3, 24)}",
        ]
    lines.append("connections:")
    mesh = rng.sample(range(a.clusters), min(a.mesh, a.clusters))
    if len(mesh) >= 2:
        lines += ["  - name: mesh", "    via: mesh", "    routes: [pods, services]", "    between:"]
        lines += [f"      - cluster-{i}" for i in sorted(mesh)]
    for _ in range(a.connections):
        lines.append(f"  - [cluster-{rng.randrange(a.clusters)}, net-{rng.randrange(a.networks)}]")
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
