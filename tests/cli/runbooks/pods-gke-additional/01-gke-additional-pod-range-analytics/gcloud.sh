# cidrcheck plan: gke-additional-pod-range for analytics, step 1 of runbook.md applies this file
gcloud compute networks subnets update SUBNET --region REGION --add-secondary-ranges=pool-10-11-0-0-16=10.11.0.0/16
gcloud container clusters update analytics --location LOCATION --additional-pod-ipv4-ranges=pool-10-11-0-0-16
