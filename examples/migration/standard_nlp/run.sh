#!/bin/bash
export NCCL_DEBUG=INFO
nvidia-smi
torchrun --nproc_per_node 8 finetune.py
