import aks:tests/fixtures/import/aks/patty-kube.json aks:tests/fixtures/import/aks/arm-azure-cni.json
