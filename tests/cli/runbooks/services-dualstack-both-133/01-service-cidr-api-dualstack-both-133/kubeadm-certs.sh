# cidrcheck plan: service-cidr-api for dualstack-both-133, step 2 of runbook.md applies this file
# Reissue the API server certificate on each control-plane node, one at a time (kadm-certs-keep:
# kubeadm keeps an existing certificate unless it is moved away first). kubeadm.yaml is the
# configuration of kubeadm-clusterconfiguration.yaml merged into the cluster's own.
set -eu
mkdir -p /etc/kubernetes/pki/old
mv /etc/kubernetes/pki/apiserver.crt /etc/kubernetes/pki/apiserver.key /etc/kubernetes/pki/old/
kubeadm init phase certs apiserver --config kubeadm.yaml
# kube-apiserver reads its certificate at start: restart its static pod
mv /etc/kubernetes/manifests/kube-apiserver.yaml /etc/kubernetes/
sleep 20
mv /etc/kubernetes/kube-apiserver.yaml /etc/kubernetes/manifests/
# the certificate must list both kubernetes.default addresses while pods use the old one
openssl x509 -noout -ext subjectAltName -in /etc/kubernetes/pki/apiserver.crt
