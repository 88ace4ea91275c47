#!/usr/bin/env bash
# policy.json was produced with `nomad job run -output policy.nomad.hcl > nomad/policy.json`;
# submit it through the HTTP API.
set -euo pipefail
curl --fail -X POST --data @nomad/policy.json "${NOMAD_ADDR:-http://127.0.0.1:4646}/v1/jobs"
