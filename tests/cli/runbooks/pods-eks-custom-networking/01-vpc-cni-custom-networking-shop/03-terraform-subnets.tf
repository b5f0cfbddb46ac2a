# cidrcheck plan: vpc-cni-custom-networking for shop, step 3 of runbook.md applies this file
resource "aws_subnet" "pods_az1" {
  vpc_id            = aws_vpc_ipv4_cidr_block_association.pods.vpc_id
  cidr_block        = "10.21.0.0/18"
  availability_zone = var.az1
}

resource "aws_subnet" "pods_az2" {
  vpc_id            = aws_vpc_ipv4_cidr_block_association.pods.vpc_id
  cidr_block        = "10.21.64.0/18"
  availability_zone = var.az2
}

resource "aws_subnet" "pods_az3" {
  vpc_id            = aws_vpc_ipv4_cidr_block_association.pods.vpc_id
  cidr_block        = "10.21.128.0/18"
  availability_zone = var.az3
}
