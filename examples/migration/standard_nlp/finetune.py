"""BERT fine-tuning with the Hugging Face Trainer on several GPUs."""
import torch
import torch.distributed as dist
from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

dist.init_process_group(backend="nccl")
model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased")
args = TrainingArguments(output_dir="out", fp16=True, ddp_backend="nccl")
trainer = Trainer(model=model, args=args)
trainer.train()
print(torch.cuda.max_memory_allocated())
