#!/bin/bash
# jobspec: ignore-file[JS59]
#flux: -N1  # jobspec: ignore[JS570]
#flux: --job-name=plain
# jobspec: ignore[JS572]

flux run hostname  # jobspec: ignore[JS596]
# jobspec: ignore
echo done
