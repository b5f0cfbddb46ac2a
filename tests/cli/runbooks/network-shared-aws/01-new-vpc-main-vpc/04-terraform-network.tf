# cidrcheck plan: new-vpc for main-vpc, shop, jobs, step 4 of runbook.md applies this file
resource "aws_vpc" "main-vpc-new" {
  cidr_block = "10.51.0.0/16"
}
