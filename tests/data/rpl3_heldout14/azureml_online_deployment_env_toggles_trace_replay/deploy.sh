#!/usr/bin/env bash
set -euo pipefail
az ml online-endpoint create -f azureml/endpoint.yml
az ml online-deployment create -f azureml/deployment.yml --all-traffic
