# cidrcheck plan: new-vpc for hub, api, jobs, step 4 of runbook.md applies this file
resource "azurerm_virtual_network" "hub-new" {
  name                = "hub-new"
  location            = var.location
  resource_group_name = var.resource_group_name
  address_space       = ["10.51.0.0/16"]
}
