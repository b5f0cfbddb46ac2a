# cidrcheck plan: vpc-cni-custom-networking for shop, step 2 of runbook.md applies this file
resource "aws_vpc_ipv4_cidr_block_association" "pods" {
  vpc_id     = var.vpc_id
  cidr_block = "10.21.0.0/16"
}
