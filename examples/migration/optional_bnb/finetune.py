"""LoRA fine-tuning of a 7B causal LM.

Memory tip: with a 24 GB card, load the base model in 8-bit::

    import bitsandbytes as bnb  # only needed for 8-bit loading
"""
import torch
from datasets import load_dataset
from peft import LoraConfig, get_peft_model, prepare_model_for_int8_training
from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

BASE = "my-org/llama-7b"


def main():
    tokenizer = AutoTokenizer.from_pretrained(BASE)
    model = AutoModelForCausalLM.from_pretrained(BASE, load_in_8bit=True, device_map="auto")
    model = prepare_model_for_int8_training(model)
    config = LoraConfig(r=16, lora_alpha=32, target_modules=["q_proj", "v_proj"],
                        lora_dropout=0.05, task_type="CAUSAL_LM")
    model = get_peft_model(model, config)
    data = load_dataset("json", data_files="train.jsonl")["train"]
    data = data.map(lambda x: tokenizer(x["text"], truncation=True, max_length=512))
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, fp16=True,
                             num_train_epochs=3, learning_rate=3e-4)
    Trainer(model=model, args=args, train_dataset=data).train()
    model.save_pretrained("lora-out")


if __name__ == "__main__":
    main()
