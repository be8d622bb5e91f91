#!/bin/bash
#PBS -N mpi_test
#PBS -l select=4:ncpus=32:mpiprocs=32
#PBS -l walltime=00:30:00
#PBS -q debug
#PBS -j oe

cd $PBS_O_WORKDIR
mpiexec -n 128 ./mpi_test
