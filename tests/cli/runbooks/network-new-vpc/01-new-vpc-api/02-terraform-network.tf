# cidrcheck plan: new-vpc for api, step 2 of runbook.md applies this file
resource "aws_vpc" "api-new" {
  cidr_block = "10.51.0.0/16"
}
