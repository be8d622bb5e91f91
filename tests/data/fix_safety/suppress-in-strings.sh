#!/bin/sh
#flux: -N1
#flux: --job-name="a # jobspec: ignore[JS570]"
#flux: --setattr=user.note='''
#flux: x # jobspec: ignore
#flux: '''
echo "b # jobspec: ignore"
cat <<EOT
 # jobspec: ignore[JS596]
EOT
flux run hostname  # jobspec: ignore[JS596]
