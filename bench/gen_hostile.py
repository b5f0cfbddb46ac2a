#!/usr/bin/python3
"""Writes the hostile inputs of issue 28's scaling defects, deterministically,
for bench/hostile_scaling.py (which times them) and tests/cli/scripts/limits_test.sh
(which checks that they end, and hit their limits).

  tfplan-nested D W FILE  a `terraform show -json` plan: a subnet D module calls deep,
                          its vpc_id any of W variables, each passed on as any of the
                          caller's W; the root passes aws_vpc.main (W^D walks when each
                          level is resolved afresh; 12 levels of 6 are about 12 KB)
  tfplan-wide N FILE      N instances of a module (for_each), each subnet's vpc_id the
                          call's var.v, which is aws_vpc.all of N instances: N^2 targets
  tfplan-many N FILE      the same, var.v one VPC: N targets
  baseline N FILE         a JSON report whose one finding holds an array of N objects
                          (nlohmann's callback parser scans an object's parent array
                          when the object ends: N^2 / 2 steps)
  pins N FILE             a fleet of N clusters and a plan section of N pins, a third
                          each exact, prefix* and *suffix (each matches one cluster)
  pins-infix N FILE       the same with N pins *infix* (each tried against every name)
  junit N FILE            a fleet of N networks with no finding

usage: gen_hostile.py KIND N [W] FILE
"""
import json
import sys


def tfplan_nested(depth, width):
    names = [f"v{k}" for k in range(width)]
    variables = [f"var.{n}" for n in names]
    module = {"resources": [{"address": "aws_subnet.s", "type": "aws_subnet", "name": "s",
                             "expressions": {"vpc_id": {"references": variables}}}]}
    for level in reversed(range(depth)):
        refs = ["aws_vpc.main.id", "aws_vpc.main"] if level == 0 else variables
        call = {"source": "./m", "expressions": {n: {"references": refs} for n in names}, "module": module}
        module = {"module_calls": {"m": call}}
        if level == 0:
            module["resources"] = [{"address": "aws_vpc.main", "type": "aws_vpc", "name": "main", "expressions": {}}]
    path = ".".join(["module.m"] * depth)
    planned = {"address": path, "resources": [{"address": path + ".aws_subnet.s", "type": "aws_subnet",
                                               "values": {"cidr_block": "10.0.1.0/24"}}]}
    for level in reversed(range(depth - 1)):
        planned = {"address": ".".join(["module.m"] * (level + 1)), "child_modules": [planned]}
    return {"format_version": "1.2",
            "planned_values": {"root_module": {
                "resources": [{"address": "aws_vpc.main", "type": "aws_vpc", "values": {"cidr_block": "10.0.0.0/16"}}],
                "child_modules": [planned]}},
            "resource_changes": [{"address": path + ".aws_subnet.s",
                                  "change": {"actions": ["create"], "after_unknown": {"vpc_id": True}}}],
            "configuration": {"root_module": module}}


def tfplan_wide(n, vpc_count):
    vpcs = [{"address": f"aws_vpc.all[{k}]", "type": "aws_vpc",
             "values": {"cidr_block": f"10.{k // 256 % 256}.{k % 256}.0/24"}} for k in range(vpc_count)]
    modules = [{"address": f'module.m["{k}"]', "resources": [
        {"address": f'module.m["{k}"].aws_subnet.s', "type": "aws_subnet",
         "values": {"cidr_block": f"11.{k // 256 % 256}.{k % 256}.0/24"}}]} for k in range(n)]
    changes = [{"address": f'module.m["{k}"].aws_subnet.s',
                "change": {"actions": ["create"], "after_unknown": {"vpc_id": True}}} for k in range(n)]
    return {"format_version": "1.2",
            "planned_values": {"root_module": {"resources": vpcs, "child_modules": modules}},
            "resource_changes": changes,
            "configuration": {"root_module": {
                "resources": [{"address": "aws_vpc.all", "type": "aws_vpc", "name": "all", "expressions": {}}],
                "module_calls": {"m": {"source": "./m", "expressions": {"v": {"references": ["aws_vpc.all"]}},
                                       "module": {"resources": [{
                                           "address": "aws_subnet.s", "type": "aws_subnet", "name": "s",
                                           "expressions": {"vpc_id": {"references": ["var.v"]}}}]}}}}}}


def pins(n, infix):
    lines = ["version: 1", "clusters:"]
    for k in range(n):
        lines.append(f"  - {{name: team{k}-prod-eu, pods: 10.{k // 256 % 256}.{k % 256}.0/24}}")
    lines += ["plan:", "  pin:"]
    forms = [lambda k: f"*m{k}-*"] if infix else [lambda k: f"team{k}-prod-eu", lambda k: f"team{k}-*",
                                                  lambda k: f"*m{k}-prod-eu/pods"]
    lines += [f"    - '{forms[k % len(forms)](k)}'" for k in range(n)]
    return "\n".join(lines) + "\n"


def junit(n):
    rows = "".join(f"  - name: n{k}\n    cidrs: 10.{k // 256 % 256}.{k % 256}.0/24\n" for k in range(n))
    return "version: 1\nnetworks:\n" + rows


def main():
    kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[-1]
    if kind == "tfplan-nested":
        text = json.dumps(tfplan_nested(n, int(sys.argv[3])))
    elif kind in ("tfplan-wide", "tfplan-many"):
        text = json.dumps(tfplan_wide(n, n if kind == "tfplan-wide" else 1))
    elif kind == "baseline":
        text = '{"findings": [{"fingerprint": "x", "values": [' + ",".join(["{}"] * n) + "]}]}"
    elif kind in ("pins", "pins-infix"):
        text = pins(n, kind == "pins-infix")
    elif kind == "junit":
        text = junit(n)
    else:
        sys.exit(f"gen_hostile: unknown kind {kind}")
    with open(out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
