# cidrcheck plan: service-cidr-api for dualstack-both-133, step 4 of runbook.md applies this file
# On each control-plane node, one at a time. kubeadm.yaml is the cluster's kubeadm
# configuration with the fields of the ClusterConfiguration fragment of this step.
set -eu
mkdir -p /etc/kubernetes/pki/old
mv /etc/kubernetes/pki/apiserver.crt /etc/kubernetes/pki/apiserver.key /etc/kubernetes/pki/old/
kubeadm init phase certs apiserver --config=kubeadm.yaml
mv /etc/kubernetes/manifests/kube-apiserver.yaml /etc/kubernetes/
sleep 20
mv /etc/kubernetes/kube-apiserver.yaml /etc/kubernetes/manifests/
openssl x509 -noout -ext subjectAltName -in /etc/kubernetes/pki/apiserver.crt
