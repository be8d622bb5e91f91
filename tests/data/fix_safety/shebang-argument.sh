#!/bin/sh # jobspec: ignore
#flux: -N1
hostname
