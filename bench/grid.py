#!/usr/bin/env python3
"""The measurement grid: scenarios over Llama, Qwen2/Qwen3, Gemma 2 and
Mistral that `measure.py --grid` runs one by one, each in a fresh process.

It covers inference at several contexts and batches (sdpa and eager),
full fine-tuning pure and amp with and without gradient checkpointing,
LoRA pure and amp, and SGD. By the `allocator` method's own estimate every
row fits a 141 GB GPU, and all but one (marked) fit 80 GB. Configs are read
from crates/vramfit-core/data/configs.

Usage:
    python bench/grid.py            # list the scenarios
    python bench/measure.py --grid --record results.jsonl
"""

from __future__ import annotations

import sys
from pathlib import Path

LLAMA_1B = "meta-llama__Llama-3.2-1B-Instruct.json"
LLAMA_3B = "meta-llama__Llama-3.2-3B.json"
LLAMA_8B = "meta-llama__Llama-3.1-8B.json"
QWEN25_05B = "Qwen__Qwen2.5-0.5B.json"
QWEN25_7B = "Qwen__Qwen2.5-7B.json"
QWEN3_4B = "Qwen__Qwen3-4B.json"
QWEN3_8B = "Qwen__Qwen3-8B.json"
GEMMA2_2B = "google__gemma-2-2b-it.json"
GEMMA2_9B = "google__gemma-2-9b-it.json"
MISTRAL_7B = "mistralai__Mistral-7B-v0.3.json"


def default_configs_dir() -> Path:
    """crates/vramfit-core/data/configs, from this file's place."""
    return Path(__file__).resolve().parent.parent / "crates" / "vramfit-core" / "data" / "configs"


def inference(seq_len: int, batch: int = 1, attn: str = "sdpa", dtype: str = "bf16") -> dict:
    return {"mode": "inference", "dtype": dtype, "batch": batch, "seq_len": seq_len, "attn_impl": attn}


def full(
    precision: str,
    ckpt: bool,
    seq_len: int = 2048,
    batch: int = 1,
    attn: str = "sdpa",
    optimizer: str = "adamw",
    dtype: str = "bf16",
    use_cache: bool = False,
) -> dict:
    return {
        "mode": "full",
        "dtype": dtype,
        "batch": batch,
        "seq_len": seq_len,
        "attn_impl": attn,
        "precision": precision,
        "grad_checkpoint": ckpt,
        "use_cache": use_cache,
        "optimizer": optimizer,
        "steps": 2,
    }


def lora(
    precision: str,
    ckpt: bool,
    rank: int = 16,
    seq_len: int = 2048,
    batch: int = 1,
    attn: str = "sdpa",
    dropout: float = 0.0,
    use_cache: bool = False,
) -> dict:
    row = full(precision, ckpt, seq_len, batch, attn, use_cache=use_cache)
    row.update({"mode": "lora", "lora_rank": rank, "lora_dropout": dropout})
    return row


def scenarios() -> list[tuple[str, dict]]:
    """(config file, scenario) pairs, in running order."""
    rows: list[tuple[str, dict]] = []
    # Llama-3.2-1B: the seed's 11 rows, then the knobs one at a time.
    rows += [
        (LLAMA_1B, inference(2048)),
        (LLAMA_1B, inference(4096)),
        (LLAMA_1B, inference(2048, attn="eager")),
        (LLAMA_1B, full("pure", False)),
        (LLAMA_1B, full("pure", True)),
        (LLAMA_1B, full("amp", False)),
        (LLAMA_1B, full("amp", True)),
        (LLAMA_1B, full("pure", False, attn="eager")),
        (LLAMA_1B, lora("pure", False)),
        (LLAMA_1B, lora("amp", False)),
        (LLAMA_1B, lora("amp", True)),
        # The harness choices the seed's rows imply (use_cache=False, no
        # LoRA dropout), each the other way.
        (LLAMA_1B, full("pure", False, use_cache=True)),
        (LLAMA_1B, full("amp", False, use_cache=True)),
        (LLAMA_1B, lora("pure", False, dropout=0.05)),
        (LLAMA_1B, lora("amp", False, dropout=0.05, use_cache=True)),
        # Short sequences on a tied head: the head's gradient phases.
        (LLAMA_1B, full("pure", False, seq_len=128)),
        (LLAMA_1B, full("amp", False, seq_len=128)),
        (LLAMA_1B, full("pure", False, optimizer="sgd")),
        (LLAMA_1B, full("pure", False, batch=4, seq_len=512)),
        (LLAMA_1B, full("pure", False, dtype="fp16")),
        (LLAMA_1B, full("pure", True, dtype="fp32", seq_len=1024)),
        (LLAMA_1B, inference(16384, attn="sdpa")),
        (LLAMA_1B, inference(1024, batch=8)),
        (LLAMA_1B, inference(2048, attn="eager", dtype="fp16")),
    ]
    # Llama-3.2-3B and Llama-3.1-8B.
    rows += [
        (LLAMA_3B, inference(8192)),
        (LLAMA_3B, full("pure", True, seq_len=4096)),
        (LLAMA_3B, lora("pure", False, seq_len=4096)),
        (LLAMA_8B, inference(8192)),
        (LLAMA_8B, inference(32768)),
        (LLAMA_8B, inference(4096, batch=4)),
        (LLAMA_8B, inference(4096, attn="eager")),
        (LLAMA_8B, lora("pure", False, seq_len=4096)),  # seed 003's CLI example (52.7 GB)
        (LLAMA_8B, lora("pure", True, seq_len=4096)),
        (LLAMA_8B, lora("amp", True, seq_len=2048)),
        (LLAMA_8B, full("pure", True, seq_len=1024)),  # 80.3 GB: needs more than an 80 GB card
    ]
    # Qwen2.5 (QKV bias) and Qwen3 (q/k norms).
    rows += [
        (QWEN25_05B, inference(8192)),
        (QWEN25_05B, inference(2048, attn="eager")),
        (QWEN25_05B, full("pure", False)),
        (QWEN25_05B, full("amp", False)),
        (QWEN25_05B, full("amp", True, seq_len=4096)),
        (QWEN25_05B, lora("pure", False, batch=4, seq_len=1024)),
        (QWEN25_7B, inference(8192)),
        (QWEN25_7B, lora("pure", True, seq_len=4096)),
        (QWEN3_4B, inference(8192)),
        (QWEN3_4B, full("pure", True, seq_len=2048)),
        (QWEN3_4B, lora("amp", False, seq_len=1024)),
        (QWEN3_8B, inference(4096, batch=2)),
        (QWEN3_8B, lora("pure", True, seq_len=4096)),
    ]
    # Gemma 2 (four norms per layer, logit softcapping, tied embeddings).
    rows += [
        (GEMMA2_2B, inference(4096)),
        (GEMMA2_2B, inference(2048, attn="eager")),
        (GEMMA2_2B, full("pure", True)),
        (GEMMA2_2B, full("pure", False, attn="eager", seq_len=1024)),
        (GEMMA2_2B, lora("amp", False, attn="eager", seq_len=1024)),
        (GEMMA2_9B, inference(4096)),
        (GEMMA2_9B, lora("pure", True, seq_len=2048, attn="eager")),
    ]
    # Mistral (32k vocabulary: the MLP, not the logits, peaks in inference).
    rows += [
        (MISTRAL_7B, inference(8192)),
        (MISTRAL_7B, inference(32768)),
        (MISTRAL_7B, inference(2048, attn="eager")),
        (MISTRAL_7B, lora("pure", False, seq_len=4096)),
        (MISTRAL_7B, lora("amp", True, seq_len=4096)),
        (MISTRAL_7B, full("pure", True, seq_len=2048, optimizer="sgd")),
    ]
    return rows


def main() -> int:
    rows = scenarios()
    for config, sc in rows:
        print(config, sc)
    print(f"{len(rows)} scenarios", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
