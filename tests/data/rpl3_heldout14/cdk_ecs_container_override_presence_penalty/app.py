#!/usr/bin/env python3
import aws_cdk as cdk

from infra.policy_stack import PolicyServerStack

app = cdk.App()
PolicyServerStack(app, "PolicyServer", env=cdk.Environment(region="us-east-1"))
app.synth()
